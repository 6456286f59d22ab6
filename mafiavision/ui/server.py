"""Run the confirmation screen: uvicorn on a host and port, the pairing code on the terminal."""

from __future__ import annotations

import socket
import sys
import threading
from typing import TextIO

import uvicorn

from mafiavision.errors import InputError
from mafiavision.ui.app import Controller, create_app
from mafiavision.ui.auth import Pairing


class Server:
    """A uvicorn server in a background thread (``start``/``stop``), for the live command."""

    def __init__(self, controller: Controller, host: str = "127.0.0.1", port: int = 8765) -> None:
        self.pairing = Pairing.for_host(host)
        self.host, self.port = host, port
        self.app = create_app(controller, self.pairing)
        config = uvicorn.Config(self.app, host=host, port=port, log_level="warning",
                                access_log=False, ws="websockets-sansio",
                                timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="ui-server", daemon=True)

    def start(self, out: TextIO = sys.stdout) -> None:
        try:
            with socket.socket() as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((self.host, self.port))
        except OSError as exc:
            raise InputError(f"--host/--port: cannot listen on {self.host}:{self.port}: "
                             f"{exc.strerror}") from exc
        self._thread.start()
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        print(f"confirmation screen: http://{shown}:{self.port}/", file=out, flush=True)
        if self.pairing.required:
            print(f"pairing code: {self.pairing.code}", file=out, flush=True)

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=5)
