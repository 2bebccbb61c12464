"""The ASGI layers in front of the routes: one structured access line per request, and
the guard (bearer token, body cap and deadline, concurrency limit) on work requests."""

from __future__ import annotations

import hmac
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio

from unchrome.errors import (
    BodyTimeout,
    ClientDisconnected,
    Overloaded,
    PayloadTooLarge,
    Unauthorized,
    UnchromeError,
)
from unchrome.service.models import error_response
from unchrome.service.settings import ServiceSettings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("unchrome.access")
# Paths that do work (fetch or extract): behind auth and the concurrency limit.
_WORK_PREFIXES = ("/v1/", "/r/")


class AccessLog:
    """One JSON line per request (method, path without query, status, duration)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = uuid.uuid4().hex[:16]
        status = 500

        async def send_logged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", []).append((b"x-request-id", request_id.encode()))
            await send(message)

        try:
            await self.app(scope, receive, send_logged)
        finally:
            client = scope.get("client")
            access_log.info(
                json.dumps(
                    {
                        "event": "access",
                        "request_id": request_id,
                        "method": scope.get("method"),
                        # The query may carry a target URL's secrets: not logged.
                        "path": scope.get("path"),
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                        "client": client[0] if client else None,
                    }
                )
            )


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class Guard:
    """Bearer auth and the concurrency limit, for work paths only (not /healthz)."""

    def __init__(self, app: ASGIApp, settings: ServiceSettings) -> None:
        self.app = app
        self.settings = settings
        self.active = 0  # single event loop: no lock needed around the counter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(_WORK_PREFIXES):
            await self.app(scope, receive, send)
            return
        refusal = self._unauthorized(scope)
        if refusal is None and scope.get("method") in _BODY_METHODS:
            # The body is read before a slot is taken, within a deadline: a client that
            # announces a body and stalls (or drips it a byte at a time) holds a
            # connection until the deadline, never one of the work slots.
            try:
                receive = await self._buffered(scope, receive)
            except UnchromeError as exc:
                refusal = exc
        if refusal is None and self.active >= self.settings.max_concurrency:
            refusal = Overloaded(f"more than {self.settings.max_concurrency} requests in progress")
        if refusal is not None:
            await error_response(refusal)(scope, receive, send)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1

    async def _buffered(self, scope: Scope, receive: Receive) -> Receive:
        """Read the whole request body (deadline and size limit), and return a receive
        that hands it to the app as it came, then waits as the original does."""
        headers = dict(scope.get("headers") or [])
        limit = self.settings.max_body_bytes
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            raise PayloadTooLarge(f"request body over {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        try:
            with anyio.fail_after(self.settings.body_deadline):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        # A client that hung up mid-body, or whose chunked body uvicorn
                        # could not read: its doing, one access line, no traceback.
                        raise ClientDisconnected("the client left before its request body arrived")
                    size += len(message.get("body", b""))
                    if size > limit:
                        raise PayloadTooLarge(f"request body over {limit} bytes")
                    chunks.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            raise BodyTimeout(
                f"the request body did not arrive within {self.settings.body_deadline:g} s"
            ) from None
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    def _unauthorized(self, scope: Scope) -> UnchromeError | None:
        key = self.settings.api_key
        if key is not None:
            headers = dict(scope.get("headers") or [])
            given = headers.get(b"authorization", b"").decode("latin-1")
            scheme, _, token = given.partition(" ")
            # compare_digest: no timing oracle on the key.
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                token.strip().encode(), key.encode()
            ):
                return Unauthorized("missing or wrong bearer token")
        return None
