"""Running the service on uvicorn, with a deadline on every request's headers."""

from __future__ import annotations

import asyncio
import json
import logging

from unchrome.service.serve import create_app
from unchrome.service.settings import ServiceSettings

# How long an idle keep-alive connection stays open. Uvicorn's default, 5 s, is the very
# moment httpx's pool reuses a connection (keepalive_expiry 5 s): under load a POST sent
# on a connection the server was closing failed. This outlives the common clients' own
# expiry (httpx 5 s, aiohttp 15 s, Go's net/http 90 s), so the client always closes
# first. An idle connection holds a socket, not a concurrency slot.
KEEP_ALIVE_SECONDS = 100


def header_deadline_protocol(seconds: float) -> type:
    """Uvicorn's h11 protocol, closing a connection whose request headers have not all
    arrived ``seconds`` after it opened, or after the first byte of a request that
    follows an idle keep-alive pause (which the keep-alive timeout bounds).

    Uvicorn arms no timer before a request: a connection that sends nothing, or half a
    request line, stays open for good, and enough of them exhaust the server's sockets
    (its keep-alive timer runs only between requests, and any byte cancels it). A
    client that drips its headers gains nothing: the deadline runs from the first byte.
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderDeadlineProtocol(H11Protocol):  # type: ignore[misc]
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # the request's headers are in: the body has its own deadline
            elif self._header_timer is None:
                self._arm()  # the first bytes of a request after an idle pause

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(seconds, self._headers_late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()

        def send_400_response(self, msg: str) -> None:
            """Malformed HTTP (a raw CR in the target, ``Content-Length: abc``), which
            h11 refuses before any application code runs: answered in the service's
            error shape rather than as uvicorn's plain text."""
            import h11

            body = json.dumps(
                {"error": {"code": "INVALID_INPUT", "message": msg, "retryable": False}}
            ).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event))
            self.transport.close()
            if self.cycle is not None:
                # A request already handed to the app (its body was the malformed
                # part) has been answered: what the app sends now goes nowhere, where
                # h11 raised a LocalProtocolError into the log.
                self.cycle.disconnected = True

    return HeaderDeadlineProtocol


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    settings: ServiceSettings | None = None,
    log_level: str = "info",
) -> None:
    """Serve until SIGINT/SIGTERM; in-flight requests get up to 10 s to finish."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    settings = settings or ServiceSettings.from_env()
    uvicorn.run(
        create_app(settings),
        http=header_deadline_protocol(settings.header_deadline),
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,  # ours is structured, see AccessLog
        timeout_graceful_shutdown=10,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        server_header=False,
    )
