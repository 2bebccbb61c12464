"""Tiny threaded HTTP servers on loopback addresses, with request recording.

A route is ``path -> handler(request) -> None`` where ``request`` is the
``BaseHTTPRequestHandler``; helpers below build the common ones. Every server records
``(path, host_header)`` for each request so tests can assert that a canary was never
reached. Lifetimes are bounded: the server thread is stopped in ``close()``.
"""

from __future__ import annotations

import contextlib
import ssl
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Handler = Callable[[BaseHTTPRequestHandler], None]


class _Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: LocalServer._Server

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        owner = self.server.owner
        path = self.path.split("?", 1)[0]
        owner.requests.append((self.path, self.headers.get("Host", "")))
        handler = owner.routes.get(path) or owner.routes.get("*")
        if handler is None:
            respond(self, 404, b"<html><body>nope</body></html>")
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler(self)


class LocalServer:
    """An HTTP server on ``host`` (a loopback address) and a free or given port."""

    class _Server(ThreadingHTTPServer):
        daemon_threads = True
        owner: LocalServer

        def handle_error(self, request: object, client_address: object) -> None:
            pass  # clients that hang up on purpose (refused, timed out) are expected

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, tls: ssl.SSLContext | None = None
    ) -> None:
        self.routes: dict[str, Handler] = {}
        self.requests: list[tuple[str, str]] = []
        self.sni: list[str | None] = []  # TLS server names the clients sent
        self._httpd = self._Server((host, port), _Quiet)
        self._httpd.owner = self
        self.scheme = "https" if tls else "http"
        if tls is not None:
            tls.sni_callback = lambda sock, name, ctx: self.sni.append(name)  # type: ignore[assignment,misc,return-value]
            self._httpd.socket = tls.wrap_socket(self._httpd.socket, server_side=True)
        self.host, self.port = self._httpd.server_address[:2]
        # A short poll interval: shutdown() waits up to one interval, per server.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def url(self, path: str = "/", host: str | None = None) -> str:
        return f"{self.scheme}://{host or self.host}:{self.port}{path}"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def respond(
    req: BaseHTTPRequestHandler,
    status: int = 200,
    body: bytes = b"",
    content_type: str | None = "text/html; charset=utf-8",
    headers: dict[str, str] | None = None,
    close: bool = False,
) -> None:
    req.send_response(status)
    if content_type is not None:
        req.send_header("Content-Type", content_type)
    for name, value in (headers or {}).items():
        req.send_header(name, value)
    req.send_header("Content-Length", str(len(body)))
    if close:
        req.send_header("Connection", "close")
        req.close_connection = True
    req.end_headers()
    req.wfile.write(body)


def page(
    body: bytes,
    status: int = 200,
    content_type: str | None = "text/html; charset=utf-8",
    **headers: str,
) -> Handler:
    hdrs = {k.replace("_", "-"): v for k, v in headers.items()}
    return lambda req: respond(req, status, body, content_type, hdrs)


def redirect(location: str, status: int = 302, close: bool = False) -> Handler:
    return lambda req: respond(req, status, b"", None, {"Location": location}, close)


def close_delimited(body: bytes, content_type: str = "text/html") -> Handler:
    """No Content-Length: the body ends when the connection closes (wire-counted)."""

    def handler(req: BaseHTTPRequestHandler) -> None:
        req.send_response(200)
        req.send_header("Content-Type", content_type)
        req.send_header("Connection", "close")
        req.end_headers()
        req.close_connection = True
        view = memoryview(body)
        for start in range(0, len(body), 65536):
            req.wfile.write(view[start : start + 65536])

    return handler


def drip(
    interval: float = 0.05,
    limit: float = 5.0,
    content_type: str = "text/html",
    in_headers: bool = False,
) -> Handler:
    """One byte per ``interval`` for at most ``limit`` seconds (then give up)."""

    def handler(req: BaseHTTPRequestHandler) -> None:
        end = time.monotonic() + limit
        if in_headers:
            req.wfile.write(b"HTTP/1.1 200 OK\r\n")
            while time.monotonic() < end:
                req.wfile.write(b"X-Slow: a\r\n")
                req.wfile.flush()
                time.sleep(interval)
            return
        req.send_response(200)
        req.send_header("Content-Type", content_type)
        req.send_header("Content-Length", "100000")
        req.end_headers()
        req.wfile.write(b"<html><body><p>")
        while time.monotonic() < end:
            req.wfile.write(b"a")
            req.wfile.flush()
            time.sleep(interval)
        req.close_connection = True

    return handler


class ConnectionCanary:
    """A TCP listener and a UDP socket on ``host`` (one port number for both) that only
    count: every TCP connection accepted and every datagram received. For what never
    becomes an HTTP request (a preconnect, a WebRTC STUN packet), which ``LocalServer``
    would not record."""

    def __init__(self, host: str = "127.0.0.2") -> None:
        import socket

        self.connections: list[tuple[str, int]] = []
        self.datagrams: list[tuple[str, int]] = []
        self._tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._tcp.bind((host, 0))
        self._tcp.listen(16)
        self.host, self.port = self._tcp.getsockname()[:2]
        self._udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._udp.bind((host, self.port))
        self._tcp.settimeout(0.05)
        self._udp.settimeout(0.05)
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._accept, daemon=True),
            threading.Thread(target=self._receive, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self._tcp.accept()
            except (TimeoutError, OSError):
                continue
            self.connections.append(peer[:2])
            conn.close()

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                _data, peer = self._udp.recvfrom(2048)
            except (TimeoutError, OSError):
                continue
            self.datagrams.append(peer[:2])

    def url(self, path: str = "/", scheme: str = "http") -> str:
        return f"{scheme}://{self.host}:{self.port}{path}"

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=2)
        self._tcp.close()
        self._udp.close()

    def __enter__(self) -> ConnectionCanary:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
