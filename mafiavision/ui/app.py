"""The confirmation screen's HTTP and websocket API (FastAPI) and its static page.

Routes (everything under ``/api`` and ``/ws`` except ``/api/hello`` and ``/api/pair`` needs a
session token when pairing is required, see :mod:`mafiavision.ui.auth`):

* ``GET /`` and ``/static/*``: the page (no game data in it);
* ``GET /api/hello``: ``{"pairing_required", "authenticated"}``;
* ``POST /api/pair`` ``{"code"}``: sets the session cookie and returns ``{"token"}``;
* ``GET /api/state``: the moderator's view (roles, night results, the open card...);
* ``POST /api/command``: one :mod:`mafiavision.ui.commands` command; answered only after the
  resulting action is flushed to the game record;
* ``GET /api/frame.jpg``: the latest camera frame with the seat overlays;
* ``GET /api/evidence/{card}/{seat}.jpg``: the frame strip of a shooter around the shot;
* ``WS /ws``: pushes the moderator's view whenever it changes.

A malformed request gets a 4xx status with a one-line ``detail``; an illegal command (the rules
engine refuses it) gets 409 with the engine's message.
"""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from typing import Any, Protocol

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from mafiavision.ui.auth import COOKIE, Pairing, PairingRefused
from mafiavision.ui.commands import COMMAND

LOOPBACK_NAMES = {"127.0.0.1", "localhost", "[::1]", "::1"}


class Controller(Protocol):
    """What the screen drives: the live session."""

    @property
    def version(self) -> int:
        """Grows by one whenever the view changes."""

    def view(self) -> dict[str, Any]:
        """The moderator's full view (secret: roles, night results)."""

    def apply(self, command: Any) -> dict[str, Any]:
        """Carry out a command; raise ``ValueError`` with a reason when it is not allowed."""

    def frame_jpeg(self) -> bytes | None: ...

    def evidence_jpeg(self, card: str, seat: int) -> bytes | None: ...


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse(
        {"detail": detail}, status_code=status, headers={"Cache-Control": "no-store"}
    )


def _token(request: Request | WebSocket) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE) or request.query_params.get("token")


def _one_line(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "body"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def create_app(controller: Controller, pairing: Pairing) -> FastAPI:
    app = FastAPI(title="MafiaVision", docs_url=None, redoc_url=None, openapi_url=None)
    static = resources.files("mafiavision.ui") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.middleware("http")
    async def guard(request: Request, call_next):  # type: ignore[no-untyped-def]
        # Without pairing only the host's own browser may talk to us: refuse other Host names so
        # a web page cannot reach the game through DNS rebinding.
        host = (request.headers.get("host") or "").rsplit(":", 1)[0]
        if not pairing.required and host not in LOOPBACK_NAMES:
            return _error(400, f"unexpected Host header {host!r} for a localhost-only server")
        path = request.url.path
        public = path in ("/", "/api/hello", "/api/pair") or path.startswith("/static/")
        if not public and not pairing.allows(_token(request)):
            return _error(401, "not paired: enter the pairing code shown on the host")
        response = await call_next(request)
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Security-Policy"] = "default-src 'self'; img-src 'self' data:"
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(str(static / "index.html"), media_type="text/html")

    @app.get("/api/hello")
    def hello(request: Request) -> dict[str, bool]:
        return {"pairing_required": pairing.required,
                "authenticated": pairing.allows(_token(request))}

    @app.post("/api/pair")
    async def pair(request: Request) -> Response:
        body = await _json(request)
        if isinstance(body, Response):
            return body
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str):
            return _error(422, 'expected a JSON object {"code": "<the pairing code>"}')
        try:
            token = pairing.pair(code)
        except PairingRefused as exc:
            return _error(403, str(exc))
        response = JSONResponse({"token": token})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response

    @app.get("/api/state")
    def state() -> dict[str, Any]:
        return controller.view()

    @app.post("/api/command")
    async def command(request: Request) -> Response:
        body = await _json(request)
        if isinstance(body, Response):
            return body
        try:
            cmd = COMMAND.validate_python(body)
        except ValidationError as exc:
            return _error(422, f"bad command: {_one_line(exc)}")
        try:
            # The session flushes the record before returning: run it off the event loop.
            result = await asyncio.to_thread(controller.apply, cmd)
        except (ValueError, LookupError) as exc:
            return _error(409, str(exc))
        return JSONResponse(result)

    @app.get("/api/frame.jpg")
    def frame() -> Response:
        data = controller.frame_jpeg()
        if data is None:
            return _error(404, "no camera frame yet")
        return Response(data, media_type="image/jpeg")

    @app.get("/api/evidence/{card}/{seat}.jpg")
    def evidence(card: str, seat: int) -> Response:
        data = controller.evidence_jpeg(card, seat)
        if data is None:
            return _error(404, f"no evidence for seat {seat} on card {card!r}")
        return Response(data, media_type="image/jpeg")

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        host = (websocket.headers.get("host") or "").rsplit(":", 1)[0]
        if not pairing.allows(_token(websocket)) or (
            not pairing.required and host not in LOOPBACK_NAMES
        ):
            await websocket.close(code=4401, reason="not paired")
            return
        await websocket.accept()
        # The client sends nothing; a receive that ends means it went away.
        gone = asyncio.ensure_future(websocket.receive())
        seen = -1
        try:
            while not gone.done():
                if controller.version != seen:
                    seen = controller.version
                    await websocket.send_text(json.dumps(controller.view()))
                await asyncio.wait({gone}, timeout=0.05)
        except (WebSocketDisconnect, RuntimeError, OSError):  # the client went away
            pass
        finally:
            gone.cancel()

    return app


async def _json(request: Request) -> Any:
    if "application/json" not in request.headers.get("content-type", ""):
        return _error(415, "expected Content-Type: application/json")
    raw = await request.body()
    if len(raw) > 64_000:
        return _error(413, "request body too large")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _error(400, f"body is not valid JSON: {exc}")
