"""The screen's HTTP layer over a real uvicorn server: pairing, tokens, refusals, bad requests.

The controller here is a stand-in holding one secret (a role) so the test can prove it never
leaves the server unauthenticated; the real session is driven end to end in tests/night.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from mafiavision.ui.server import Server

SECRET = "don-of-seat-7"


class SecretController:
    version = 1

    def __init__(self) -> None:
        self.applied: list[Any] = []

    def view(self) -> dict[str, Any]:
        return {"roles": {"7": SECRET}}

    def apply(self, command: Any) -> dict[str, Any]:
        if command.kind == "undo":
            raise ValueError("nothing to undo")
        self.applied.append(command)
        return {"ok": True}

    def frame_jpeg(self) -> bytes | None:
        return b"\xff\xd8" + SECRET.encode()

    def evidence_jpeg(self, card: str, seat: int) -> bytes | None:
        return b"\xff\xd8" + SECRET.encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(host: str) -> Iterator[tuple[Server, str, SecretController]]:
    controller = SecretController()
    server = Server(controller, host=host, port=free_port())
    server.start(out=open("/dev/null", "w"))  # noqa: SIM115
    base = f"http://127.0.0.1:{server.port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            httpx.get(base + "/api/hello", timeout=1)
            break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    yield server, base, controller
    server.stop()


@pytest.fixture(scope="module")
def lan() -> Iterator[tuple[Server, str, SecretController]]:
    yield from serve("0.0.0.0")


@pytest.fixture(scope="module")
def local() -> Iterator[tuple[Server, str, SecretController]]:
    yield from serve("127.0.0.1")


PROTECTED = [
    ("GET", "/api/state", None),
    ("GET", "/api/frame.jpg", None),
    ("GET", "/api/evidence/c1/7.jpg", None),
    ("POST", "/api/command", {"kind": "finish"}),
]


@pytest.mark.parametrize(("method", "path", "body"), PROTECTED)
@pytest.mark.parametrize("token", [None, "forged-token"])
def test_unpaired_clients_get_nothing_secret(lan, method, path, body, token) -> None:
    _server, base, controller = lan
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.request(method, base + path, json=body, headers=headers)
    assert r.status_code == 401
    assert SECRET not in r.text
    assert "pairing code" in r.json()["detail"]
    assert controller.applied == []


def ws_refused(url: str, **kwargs: Any) -> bool:
    async def go() -> bool:
        try:
            async with websockets.connect(url, **kwargs) as ws:
                await asyncio.wait_for(ws.recv(), 2)
        except (websockets.InvalidStatus, websockets.ConnectionClosed):
            return True
        return False

    return asyncio.run(go())


def test_websocket_refuses_unpaired(lan) -> None:
    _server, base, _ = lan
    assert ws_refused(base.replace("http", "ws") + "/ws")
    assert ws_refused(base.replace("http", "ws") + "/ws?token=forged")


def test_pairing_gives_a_working_token(lan) -> None:
    server, base, controller = lan
    r = httpx.post(base + "/api/pair", json={"code": server.pairing.code})
    assert r.status_code == 200
    token = r.json()["token"]
    # Cookie and bearer both work.
    assert SECRET in httpx.get(base + "/api/state", cookies={"mv_session": token}).text
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx.get(base + "/api/frame.jpg", headers=auth).content.startswith(b"\xff\xd8")
    assert httpx.post(base + "/api/command", json={"kind": "finish"}, headers=auth).json() == {
        "ok": True}
    assert [c.kind for c in controller.applied] == ["finish"]

    async def first_message() -> str:
        async with websockets.connect(base.replace("http", "ws") + f"/ws?token={token}") as ws:
            return await asyncio.wait_for(ws.recv(), 5)

    assert SECRET in asyncio.run(first_message())


def test_wrong_codes_are_refused_then_locked_out() -> None:
    for server, base, _ in serve("0.0.0.0"):
        check_lockout(server, base)


def check_lockout(server: Server, base: str) -> None:
    wrong = f"{(int(server.pairing.code) + 1) % 10**6:06d}"
    for _ in range(server.pairing.max_failures):
        r = httpx.post(base + "/api/pair", json={"code": wrong})
        assert (r.status_code, r.json()["detail"]) == (403, "wrong pairing code")
    r = httpx.post(base + "/api/pair", json={"code": server.pairing.code})
    assert r.status_code == 403
    assert "too many wrong codes" in r.json()["detail"]


def test_localhost_needs_no_pairing_but_refuses_foreign_host_names(local) -> None:
    server, base, _ = local
    assert httpx.get(base + "/api/hello").json() == {"pairing_required": False,
                                                     "authenticated": True}
    assert SECRET in httpx.get(base + "/api/state").text
    r = httpx.get(base + "/api/state", headers={"Host": "evil.example:80"})
    assert r.status_code == 400
    assert SECRET not in r.text
    assert raw_upgrade(server.port, "evil.example").startswith(b"HTTP/1.1 403")
    assert raw_upgrade(server.port, f"127.0.0.1:{server.port}").startswith(b"HTTP/1.1 101")


def raw_upgrade(port: int, host: str) -> bytes:
    """A websocket handshake with a chosen Host header; returns the status line."""
    request = (f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request.encode())
        return sock.recv(200).split(b"\r\n")[0]


BAD = [
    ("not json", b"{kind:", "application/json", 400, "not valid JSON"),
    ("wrong content type", b"kind=undo", "application/x-www-form-urlencoded", 415,
     "Content-Type"),
    ("unknown kind", b'{"kind": "explode"}', "application/json", 422, "bad command"),
    ("missing field", b'{"kind": "confirm"}', "application/json", 422, "card"),
    ("seat out of range", b'{"kind": "speech", "seat": 44}', "application/json", 422, "seat"),
    ("extra field", b'{"kind": "undo", "x": 1}', "application/json", 422, "x"),
    ("not an object", b"[1, 2]", "application/json", 422, "bad command"),
    ("refused by the game", b'{"kind": "undo"}', "application/json", 409, "nothing to undo"),
    ("too large", b'{"kind": "undo", "pad": "' + b"x" * 70_000 + b'"}', "application/json",
     413, "too large"),
]


@pytest.mark.parametrize(("name", "body", "ctype", "status", "reason"), BAD,
                         ids=[b[0] for b in BAD])
def test_malformed_requests_get_4xx_with_a_reason(local, name, body, ctype, status,
                                                  reason) -> None:
    _server, base, _ = local
    r = httpx.post(base + "/api/command", content=body, headers={"Content-Type": ctype})
    assert r.status_code == status
    assert reason in r.json()["detail"]
    # The server is still up.
    assert httpx.get(base + "/api/hello").status_code == 200


def test_pair_with_malformed_body(lan) -> None:
    _server, base, _ = lan
    r = httpx.post(base + "/api/pair", json={"pin": 1})
    assert (r.status_code, r.json()["detail"]) == (
        422, 'expected a JSON object {"code": "<the pairing code>"}')
