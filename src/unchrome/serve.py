"""The HTTP service: ``unchrome serve`` (FastAPI on uvicorn).

Endpoints
    POST /v1/read      {"url", "format", "target_selector", "remove_selector", "favor"}
    POST /v1/extract   HTML as the raw body (?url=&format=) or JSON {"html", "url", "format"}
    GET  /r/<url>      Markdown as text/plain (or JSON with ``Accept: application/json``)
    GET  /healthz      liveness

Raw-body and ``/r/`` requests take their options as headers: ``X-Return-Format``,
``X-Target-Selector``, ``X-Remove-Selector`` and ``X-Favor`` (precision, balanced or
recall: see ``Config.favor``). ``X-Engine`` (``browser``, ``auto`` or ``direct``; an
``engine`` field of ``/v1/read``) chooses whether a fetched page is rendered in a
headless browser first (``Config.render`` always, auto, never: ``unchrome.browser``);
``UNCHROME_RENDER`` sets the service's default (never).
    GET  /openapi.json, /docs

Settings come from the environment (see :class:`ServiceSettings`). The service is meant
to face the internet: every fetch goes through the SSRF guards of ``fetch.py``, request
bodies are capped, work requests beyond the concurrency limit get 503 at once (a queue
would only turn a burst into timeouts), and extraction runs in worker threads so one
heavy page cannot stall the event loop.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import unquote

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .config import Config
from .errors import InvalidInput, InvalidURL, UnchromeError
from .fetch import DEFAULT_FETCH_CONFIG, FetchConfig, aread
from .result import Result
from .urls import is_web_url

MiB = 1024 * 1024
Format = Literal["markdown", "text", "html"]
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("unchrome.access")
log = logging.getLogger("unchrome.serve")

# Paths that do work (fetch or extract): behind auth and the concurrency limit.
_WORK_PREFIXES = ("/v1/", "/r/")


class PayloadTooLarge(UnchromeError):
    """The request body is larger than the service accepts."""

    code = "PAYLOAD_TOO_LARGE"
    http_status = 413


class Unauthorized(UnchromeError):
    """A valid bearer token is required."""

    code = "UNAUTHORIZED"
    http_status = 401


class ClientDisconnected(UnchromeError):
    """The client went away before its request body arrived (or sent a malformed one):
    its own doing, answered by nobody, and logged as one access line."""

    code = "CLIENT_DISCONNECTED"
    http_status = 400


class BodyTimeout(UnchromeError):
    """The request body did not arrive within the service's deadline."""

    code = "REQUEST_TIMEOUT"
    http_status = 408


class Overloaded(UnchromeError):
    """Too many requests are being processed; retry shortly."""

    code = "OVERLOADED"
    http_status = 503
    retryable = True


@dataclass(frozen=True)
class ServiceSettings:
    api_key: str | None = None  # UNCHROME_API_KEY: bearer token; None = no auth
    max_body_bytes: int = 5 * MiB  # UNCHROME_MAX_BODY_BYTES
    max_concurrency: int = 16  # UNCHROME_MAX_CONCURRENCY: work requests at once
    # UNCHROME_BODY_DEADLINE: seconds a client has to send its whole request body
    body_deadline: float = 30.0
    # UNCHROME_HEADER_DEADLINE: seconds from the connection (or the last response) to
    # the end of the next request's headers
    header_deadline: float = 10.0
    cors_origins: tuple[str, ...] = ()  # UNCHROME_CORS_ORIGINS: comma-separated; off
    fetch_config: FetchConfig = field(default=DEFAULT_FETCH_CONFIG)
    config: Config = field(default_factory=Config)  # UNCHROME_RENDER: its render mode

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_concurrency"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise InvalidInput(f"ServiceSettings.{name} must be a positive integer")
        for name in ("body_deadline", "header_deadline"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise InvalidInput(f"ServiceSettings.{name} must be a positive number")

    @classmethod
    def from_env(cls, environ: MutableMapping[str, str] | None = None) -> ServiceSettings:
        """Read ``UNCHROME_*`` variables.

        ``UNCHROME_ALLOW_ADDRESSES`` (CIDRs) and ``UNCHROME_ALLOW_PORTS`` widen what may
        be fetched, for an intranet deployment; the defaults are public internet only.
        """
        env = os.environ if environ is None else environ

        def number(name: str, default: int) -> int:
            raw = env.get(name, "").strip()
            try:
                return int(raw) if raw else default
            except ValueError:
                raise InvalidInput(f"{name} must be an integer, got {raw!r}") from None

        def items(name: str) -> tuple[str, ...]:
            return tuple(p.strip() for p in env.get(name, "").split(",") if p.strip())

        try:
            extra_ports = {int(p) for p in items("UNCHROME_ALLOW_PORTS")}
        except ValueError:
            raise InvalidInput("UNCHROME_ALLOW_PORTS must be comma-separated ports") from None
        deadline = env.get("UNCHROME_FETCH_DEADLINE", "").strip()

        def seconds(name: str, default: float) -> float:
            raw = env.get(name, "").strip()
            try:
                return float(raw) if raw else default
            except ValueError:
                raise InvalidInput(f"{name} must be seconds, got {raw!r}") from None

        fetch_config = FetchConfig(
            allowed_ports=DEFAULT_FETCH_CONFIG.allowed_ports | extra_ports,
            allow_addresses=items("UNCHROME_ALLOW_ADDRESSES"),
            deadline=float(deadline) if deadline else DEFAULT_FETCH_CONFIG.deadline,
        )
        return cls(
            api_key=env.get("UNCHROME_API_KEY") or None,
            max_body_bytes=number("UNCHROME_MAX_BODY_BYTES", cls.max_body_bytes),
            max_concurrency=number("UNCHROME_MAX_CONCURRENCY", cls.max_concurrency),
            body_deadline=seconds("UNCHROME_BODY_DEADLINE", cls.body_deadline),
            header_deadline=seconds("UNCHROME_HEADER_DEADLINE", cls.header_deadline),
            cors_origins=items("UNCHROME_CORS_ORIGINS"),
            fetch_config=fetch_config,
            config=Config(render=env.get("UNCHROME_RENDER", "").strip().lower() or "never"),  # type: ignore[arg-type]
        )


# ---------------------------------------------------------------------------- models


class ReadRequest(BaseModel):
    url: str = Field(description="http(s) URL of the page to read", max_length=8192)
    format: Format = "markdown"
    target_selector: str | None = Field(None, description="CSS selector of the content")
    remove_selector: str | None = Field(None, description="CSS selector of parts to drop")
    favor: str | None = Field(None, description="precision, balanced (default) or recall")
    engine: str | None = Field(
        None, description="browser (render it), auto or direct (never); as X-Engine"
    )


class ExtractRequest(BaseModel):
    html: str = Field(description="the HTML document")
    url: str | None = Field(None, description="base URL for links; nothing is fetched")
    format: Format = "markdown"
    target_selector: str | None = None
    remove_selector: str | None = None
    favor: str | None = Field(None, description="precision, balanced (default) or recall")


class ErrorBody(BaseModel):
    code: str
    message: str
    retryable: bool


class ErrorResponse(BaseModel):
    error: ErrorBody


class ReadResponse(BaseModel):
    url: str | None
    title: str | None
    site: str | None
    kind: str
    format: Format
    markdown: str | None = None
    text: str | None = None
    html: str | None = None
    hero_image_url: str | None
    truncated: bool
    author: str | None
    date: str | None
    description: str | None
    language: str | None
    canonical_url: str | None
    has_body: bool
    word_count: int
    reading_time: int


def payload(result: Result, fmt: Format) -> dict[str, Any]:
    """The JSON answer: metadata plus the content under the name of its format."""
    return {
        "url": result.url,
        "title": result.title,
        "site": result.site_name,
        "kind": result.kind,
        "format": fmt,
        fmt: getattr(result, fmt),
        "hero_image_url": result.image,
        "truncated": result.truncated,
        "author": result.author,
        "date": result.date,
        "date_modified": result.date_modified,
        "description": result.description,
        "language": result.language,
        "canonical_url": result.canonical_url,
        "has_body": result.has_body,
        "word_count": result.word_count,
        "reading_time": result.reading_time,
    }


def reader_text(result: Result, fmt: Format) -> str:
    """The plain-text answer of ``/r/``: a short header, then the content."""
    label = {"markdown": "Markdown", "text": "Text", "html": "HTML"}[fmt]
    lines = [f"Title: {result.title or ''}", "", f"URL Source: {result.url or ''}", ""]
    if result.date:
        lines += [f"Published Time: {result.date}", ""]
    if result.date_modified:
        lines += [f"Modified Time: {result.date_modified}", ""]
    lines += [f"{label} Content:", getattr(result, fmt)]
    return "\n".join(lines)


def error_response(error: UnchromeError) -> JSONResponse:
    headers = {"Retry-After": "1"} if isinstance(error, Overloaded) else {}
    if isinstance(error, Unauthorized):
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse({"error": error.to_dict()}, error.http_status, headers=headers)


def _plain_error(code: str, message: str, status: int) -> JSONResponse:
    body = {"code": code, "message": message, "retryable": False}
    return JSONResponse({"error": body}, status)


# ----------------------------------------------------------------------- middleware


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


def _config(
    base: Config, target: str | None, remove: str | None, favor: str | None = None
) -> Config:
    """The service's Config with the request's choices; a bad one is INVALID_INPUT (400)
    from Config's own validation."""
    changes = {
        k: v
        for k, v in (
            ("include_selector", target),
            ("exclude_selector", remove),
            ("favor", favor.strip().lower() if favor else None),
        )
        if v
    }
    return base.with_(**changes) if changes else base


def _header_config(base: Config, request: Request) -> Config:
    """The Config a request asks for in its X-Target-Selector, X-Remove-Selector and
    X-Favor headers."""
    headers = request.headers
    return _config(
        base,
        headers.get("x-target-selector"),
        headers.get("x-remove-selector"),
        headers.get("x-favor"),
    )


# X-Engine, as Jina Reader names it -> Config.render.
_ENGINES = {"browser": "always", "auto": "auto", "direct": "never"}


def _engine(config: Config, engine: str | None) -> Config:
    """The request's ``X-Engine`` (or ``engine``) as the Config's render mode."""
    if not engine:
        return config
    mode = _ENGINES.get(engine.strip().lower())
    if mode is None:
        raise InvalidInput("X-Engine must be browser, auto or direct")
    return config.with_(render=mode)


def _extract_sync(html: str | bytes, url: str | None, content_type: str | None, config: Config):
    from .extractor import extract

    return extract(html, url=url, content_type=content_type, config=config)


# ----------------------------------------------------------------------------- app


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    settings = settings or ServiceSettings.from_env()
    app = FastAPI(
        title="unchrome",
        summary="Turn any web page into its main content.",
        version="0.1.0",
        responses={"default": {"model": ErrorResponse}},
    )
    app.state.settings = settings
    _routes(app, settings)
    _error_handlers(app)
    # Order: the last added is the outermost. CORS only when origins are configured.
    app.add_middleware(Guard, settings=settings)
    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=[
                "Authorization",
                "Content-Type",
                "Accept",
                "X-Return-Format",
                "X-Target-Selector",
                "X-Remove-Selector",
                "X-Favor",
                "X-Engine",
            ],
        )
    app.add_middleware(AccessLog)
    return app


def _routes(app: FastAPI, settings: ServiceSettings) -> None:
    read_schema = {"content": {"application/json": {"schema": ReadRequest.model_json_schema()}}}
    extract_schema = {
        "content": {
            "application/json": {"schema": ExtractRequest.model_json_schema()},
            "text/html": {"schema": {"type": "string"}},
        }
    }

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post(
        "/v1/read",
        response_model=ReadResponse,
        response_model_exclude_none=False,
        openapi_extra={"requestBody": read_schema},
    )
    async def read_endpoint(request: Request) -> JSONResponse:
        body = await request.body()  # read by Guard, within its deadline and limit
        req = _parse(ReadRequest, body)
        config = _config(settings.config, req.target_selector, req.remove_selector, req.favor)
        config = _engine(config, req.engine or request.headers.get("x-engine"))
        result = await aread(req.url, config=config, fetch_config=settings.fetch_config)
        return JSONResponse(payload(result, req.format))

    @app.post(
        "/v1/extract", response_model=ReadResponse, openapi_extra={"requestBody": extract_schema}
    )
    async def extract_endpoint(
        request: Request, url: str | None = None, format: Format = "markdown"
    ) -> JSONResponse:
        body = await request.body()  # read by Guard, within its deadline and limit
        content_type = request.headers.get("content-type", "")
        if content_type.split(";")[0].strip().lower() == "application/json":
            req = _parse(ExtractRequest, body)
            html: str | bytes = req.html
            url, format, ctype = req.url, req.format, None
            config = _config(settings.config, req.target_selector, req.remove_selector, req.favor)
        else:
            html, ctype = body, content_type or None
            config = _header_config(settings.config, request)
        # Nothing is fetched: ``url`` is only the base for relative links, and the
        # result echoes it.
        if url is not None and url != "" and not is_web_url(url):
            raise InvalidURL("url must be an absolute http(s) URL")
        result = await anyio.to_thread.run_sync(_extract_sync, html, url or None, ctype, config)
        return JSONResponse(payload(result, format))

    @app.get("/r/{target:path}", response_class=PlainTextResponse)
    async def reader(request: Request, target: str) -> Response:
        url = _target_url(request)
        fmt = (request.headers.get("x-return-format") or "markdown").strip().lower()
        if fmt not in ("markdown", "text", "html"):
            raise InvalidInput("X-Return-Format must be markdown, text or html")
        config = _engine(_header_config(settings.config, request), request.headers.get("x-engine"))
        result = await aread(url, config=config, fetch_config=settings.fetch_config)
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(payload(result, fmt))  # type: ignore[arg-type]
        return PlainTextResponse(reader_text(result, fmt))  # type: ignore[arg-type]


def _target_url(request: Request) -> str:
    """The URL after ``/r/``, query string included, as the user typed it.

    Read from the raw path: the decoded path would have turned ``%2F`` into ``/`` and
    the target's own query belongs to the target, not to us.
    """
    raw = request.scope.get("raw_path", b"").decode("latin-1")
    target = raw[len("/r/") :] if raw.startswith("/r/") else request.path_params["target"]
    if target.lower().startswith(("http%3a", "https%3a")):
        target = unquote(target)
    query = request.scope.get("query_string", b"").decode("latin-1")
    if query:
        target += "?" + query
    if "://" not in target.split("?", 1)[0]:
        target = "https://" + target
    return target


def _parse(model: type[BaseModel], body: bytes) -> Any:
    try:
        return model.model_validate_json(body or b"{}")
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidInput(f"invalid request: {problems}") from None


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(UnchromeError)
    async def unchrome_error(request: Request, exc: UnchromeError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _plain_error("INVALID_INPUT", "invalid request parameters", 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404 and request.url.path.startswith("/r/"):
            # The reader's route takes any path but one holding a line break: such a
            # target is no URL, and the caller's mistake.
            return error_response(InvalidURL("the target URL holds a control character"))
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
        return _plain_error(code, str(exc.detail), exc.status_code)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return _plain_error("INTERNAL", "internal error", 500)


# ----------------------------------------------------------------------------- run


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


def __getattr__(name: str) -> Any:
    # ``uvicorn unchrome.serve:app`` works, but the settings are read only when asked.
    if name == "app":
        return create_app()
    raise AttributeError(name)
