"""Pairing and per-session tokens for the confirmation screen.

On the loopback interface only the host's own user can connect, so no pairing is asked. Opened to
the network (``--host 0.0.0.0``), a client must first send the pairing code printed on the host's
terminal; it then gets a random session token (a cookie, or ``Authorization: Bearer``). Wrong codes
are throttled: after ``max_failures`` wrong codes in a row, pairing is refused for
``lockout_seconds``. Roles and night results are never sent to a client without a valid token.
"""

from __future__ import annotations

import ipaddress
import secrets
import threading
import time
from dataclasses import dataclass, field

COOKIE = "mv_session"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class PairingRefused(Exception):
    """A wrong pairing code, or too many of them."""


@dataclass
class Pairing:
    required: bool
    code: str = field(default_factory=lambda: f"{secrets.randbelow(10**6):06d}")
    max_failures: int = 5
    lockout_seconds: float = 30.0
    _tokens: set[str] = field(default_factory=set)
    _failures: int = 0
    _locked_until: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def for_host(cls, host: str) -> Pairing:
        return cls(required=not is_loopback(host))

    def pair(self, code: str) -> str:
        """A new session token for the right code; raises :class:`PairingRefused` otherwise."""
        with self._lock:
            now = time.monotonic()
            if now < self._locked_until:
                raise PairingRefused(
                    f"too many wrong codes: try again in {self._locked_until - now:.0f} s")
            if not secrets.compare_digest(code.strip(), self.code):
                self._failures += 1
                if self._failures >= self.max_failures:
                    self._failures = 0
                    self._locked_until = now + self.lockout_seconds
                raise PairingRefused("wrong pairing code")
            self._failures = 0
            token = secrets.token_urlsafe(32)
            self._tokens.add(token)
            return token

    def allows(self, token: str | None) -> bool:
        if not self.required:
            return True
        return token is not None and any(secrets.compare_digest(token, t) for t in self._tokens)

    def revoke(self, token: str) -> None:
        with self._lock:
            self._tokens.discard(token)
