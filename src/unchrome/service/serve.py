"""The HTTP service: ``unchrome serve`` (FastAPI on uvicorn).

Endpoints
    POST /v1/read      {"url", "format", "target_selector", "remove_selector", "favor",
                       "with_metadata"}
    POST /v1/extract   HTML as the raw body (?url=&format=) or JSON {"html", "url", "format"...}
    GET  /r/<url>      Markdown as text/plain (or JSON with ``Accept: application/json``)
    GET  /healthz      liveness
    GET  /openapi.json, /docs (Swagger UI, its assets served from a package: no CDN)

Raw-body and ``/r/`` requests take their options as headers: ``X-Return-Format`` (``/r/``),
``X-Target-Selector``, ``X-Remove-Selector``, ``X-Favor`` (precision, balanced or
recall: see ``Config.favor``) and ``X-With-Metadata`` (true: the Markdown or text opens
with a YAML front matter). The JSON answers carry the fields of unchrome.schema.
``X-Engine`` (``browser``, ``auto`` or ``direct``; an ``engine`` field of ``/v1/read``)
chooses whether a fetched page is rendered in a headless browser first
(``Config.render`` always, auto, never: ``unchrome.net.browser``); ``UNCHROME_RENDER`` sets
the service's default (never).

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
from typing import Annotated, Any, Literal
from urllib.parse import unquote

import anyio
from fastapi import FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field, ValidationError, create_model
from starlette.exceptions import HTTPException as StarletteHTTPException

from unchrome import schema
from unchrome.config import Config
from unchrome.errors import (
    BodyTimeout,
    ClientDisconnected,
    InvalidInput,
    InvalidURL,
    Overloaded,
    PayloadTooLarge,
    Unauthorized,
    UnchromeError,
    UnsupportedContent,
)
from unchrome.formats import HTML_TYPES, XML_TYPES
from unchrome.net.fetch import DEFAULT_FETCH_CONFIG, FetchConfig
from unchrome.net.remote import aread
from unchrome.result import Result
from unchrome.urls import is_web_url

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


_WITH_METADATA = "the Markdown or text opens with a YAML front matter (title, author, dates...)"


class ReadRequest(BaseModel):
    url: str = Field(description="http(s) URL of the page to read", max_length=8192)
    format: Format = "markdown"
    target_selector: str | None = Field(None, description="CSS selector of the content")
    remove_selector: str | None = Field(None, description="CSS selector of parts to drop")
    favor: str | None = Field(None, description="precision, balanced (default) or recall")
    engine: str | None = Field(
        None, description="browser (render it), auto or direct (never); as X-Engine"
    )
    with_metadata: bool = Field(False, description=_WITH_METADATA)


class ExtractRequest(BaseModel):
    html: str = Field(description="the HTML document")
    url: str | None = Field(None, description="base URL for links; nothing is fetched")
    format: Format = "markdown"
    target_selector: str | None = None
    remove_selector: str | None = None
    favor: str | None = Field(None, description="precision, balanced (default) or recall")
    with_metadata: bool = Field(False, description=_WITH_METADATA)


class ErrorBody(BaseModel):
    code: str
    message: str
    retryable: bool


class ErrorResponse(BaseModel):
    error: ErrorBody


_PYTHON_TYPES: dict[str, type] = {"str": str, "int": int, "float": float, "bool": bool}


def _response_model() -> type[BaseModel]:
    """The JSON answer's model, from the service's fields of unchrome.schema: the
    content comes under the name of the requested format, the other two are absent."""
    definitions: dict[str, Any] = {}
    for f in schema.fields(schema.SERVICE):
        kind: Any = _PYTHON_TYPES[f.type]
        if f.name in schema.CONTENT:
            definitions[f.name] = (kind | None, Field(None, description=f"{f.meaning} (format)"))
        elif f.name == "format":
            definitions[f.name] = (Format, Field(description=f.meaning))
        else:
            definitions[f.name] = (
                kind | None if f.nullable else kind,
                Field(description=f.meaning),
            )
    return create_model("ReadResponse", **definitions)


ReadResponse = _response_model()


def content(result: Result, fmt: Format, with_metadata: bool = False) -> str:
    """The content in ``fmt``; ``with_metadata``: the Markdown or text opened by the
    YAML front matter (HTML is refused before extraction, see _check_with_metadata)."""
    if fmt == "markdown":
        return result.to_markdown(with_metadata=with_metadata)
    if fmt == "text":
        return result.to_text(with_metadata=with_metadata)
    return result.html


def payload(result: Result, fmt: Format, with_metadata: bool = False) -> dict[str, Any]:
    """The JSON answer: the service's fields of unchrome.schema, with the content under
    the name of its format. Renders the Markdown or HTML: call it off the event loop."""
    out: dict[str, Any] = {}
    for name in _SERVICE_FIELDS:
        if name == "format":
            out[name] = fmt
        elif name == fmt:
            out[name] = content(result, fmt, with_metadata)
        elif name not in schema.CONTENT:
            out[name] = getattr(result, name)
    return out


_SERVICE_FIELDS = schema.names(schema.SERVICE)


def reader_text(result: Result, fmt: Format, with_metadata: bool = False) -> str:
    """The plain-text answer of ``/r/``: a short header (Jina Reader's names), then the
    content. Renders the Markdown or HTML: call it off the event loop."""
    label = {"markdown": "Markdown", "text": "Text", "html": "HTML"}[fmt]
    lines = [f"Title: {result.title or ''}", "", f"URL Source: {result.url or ''}", ""]
    if result.date:
        lines += [f"Published Time: {result.date}", ""]
    if result.date_modified:
        lines += [f"Modified Time: {result.date_modified}", ""]
    lines += [f"{label} Content:", content(result, fmt, with_metadata)]
    return "\n".join(lines)


def _check_with_metadata(fmt: str, with_metadata: bool) -> None:
    if with_metadata and fmt == "html":
        raise InvalidInput("with_metadata applies to the markdown and text formats, not html")


def _flag(value: str | None, name: str) -> bool:
    """A boolean header: true/1/yes or false/0/no (absent: false)."""
    word = (value or "").strip().lower()
    if word in ("", "0", "false", "no"):
        return False
    if word in ("1", "true", "yes"):
        return True
    raise InvalidInput(f"{name} must be true or false, got {value!r}")


# A raw body whose Content-Type is no markup type is refused (415) by the extractor;
# curl --data-binary sends application/x-www-form-urlencoded unless told otherwise.
_TYPE_HINT = (
    "send the page with 'Content-Type: text/html' (curl: -H 'Content-Type: text/html' "
    '--data-binary @page.html), or as JSON {"html": ...} with \'Content-Type: '
    "application/json'"
)


def _markup_type(content_type: str) -> bool:
    mime = content_type.split(";", 1)[0].strip().lower()
    return (
        not mime
        or mime in HTML_TYPES
        or mime in XML_TYPES
        or mime == "text/plain"
        or mime.endswith(("+xml", "/xml"))
    )


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
    from unchrome.pipeline.extractor import extract

    return extract(html, url=url, content_type=content_type, config=config)


# ----------------------------------------------------------------------------- app

_WITH_METADATA_HEADER = f"true: {_WITH_METADATA}"
TargetHeader = Annotated[str | None, Header(description="CSS selector of the content")]
RemoveHeader = Annotated[str | None, Header(description="CSS selector of parts to drop")]
FavorHeader = Annotated[str | None, Header(description="precision, balanced (default) or recall")]
MetadataHeader = Annotated[str | None, Header(description=_WITH_METADATA_HEADER)]
EngineHeader = Annotated[
    str | None,
    Header(description="browser (render the page in a headless browser), auto or direct (never)"),
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("unchrome")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    settings = settings or ServiceSettings.from_env()
    app = FastAPI(
        title="unchrome",
        summary="Turn any web page into its main content.",
        version=_version(),
        responses={"default": {"model": ErrorResponse}},
        # Served by _docs from a package: FastAPI's own pages load their scripts from a
        # CDN and stay blank where the service has no internet (ReDoc has no package).
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    _docs(app)
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
                "X-With-Metadata",
            ],
        )
    app.add_middleware(AccessLog)
    return app


def _docs(app: FastAPI) -> None:
    """Swagger UI at /docs, its scripts and styles served from the swagger-ui-bundle-v2
    package (a dependency), so that the page works offline."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from starlette.staticfiles import StaticFiles

    try:
        from swagger_ui_bundle import swagger_ui_path
    except ImportError:  # pragma: no cover - a dependency; without it, no /docs
        return
    app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - Swagger UI",
            swagger_js_url="/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/docs/assets/swagger-ui.css",
            swagger_favicon_url="/docs/assets/favicon-32x32.png",
        )


def _routes(app: FastAPI, settings: ServiceSettings) -> None:
    read_schema = {"content": {"application/json": {"schema": ReadRequest.model_json_schema()}}}
    extract_schema = {
        "content": {
            "application/json": {"schema": ExtractRequest.model_json_schema()},
            "text/html": {"schema": {"type": "string"}},
        }
    }
    reader_responses: dict[int | str, dict[str, Any]] = {
        200: {
            "description": "the content after a Title: / URL Source: header; the JSON "
            "answer with Accept: application/json",
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/json": {"schema": {"$ref": "#/components/schemas/ReadResponse"}},
            },
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
    async def read_endpoint(request: Request, x_engine: EngineHeader = None) -> JSONResponse:
        body = await request.body()  # read by Guard, within its deadline and limit
        req = _parse(ReadRequest, body)
        _check_with_metadata(req.format, req.with_metadata)
        config = _config(settings.config, req.target_selector, req.remove_selector, req.favor)
        config = _engine(config, req.engine or x_engine)
        result = await aread(req.url, config=config, fetch_config=settings.fetch_config)
        answer = await anyio.to_thread.run_sync(payload, result, req.format, req.with_metadata)
        return JSONResponse(answer)

    @app.post(
        "/v1/extract", response_model=ReadResponse, openapi_extra={"requestBody": extract_schema}
    )
    async def extract_endpoint(
        request: Request,
        url: str | None = None,
        format: Format = "markdown",
        x_target_selector: TargetHeader = None,
        x_remove_selector: RemoveHeader = None,
        x_favor: FavorHeader = None,
        x_with_metadata: MetadataHeader = None,
    ) -> JSONResponse:
        body = await request.body()  # read by Guard, within its deadline and limit
        content_type = request.headers.get("content-type", "")
        if content_type.split(";")[0].strip().lower() == "application/json":
            req = _parse(ExtractRequest, body)
            html: str | bytes = req.html
            url, format, ctype, with_metadata = req.url, req.format, None, req.with_metadata
            config = _config(settings.config, req.target_selector, req.remove_selector, req.favor)
        else:
            if not _markup_type(content_type):
                mime = content_type.split(";", 1)[0].strip()
                raise UnsupportedContent(f"content type {mime!r} is not HTML: {_TYPE_HINT}")
            html, ctype = body, content_type or None
            with_metadata = _flag(x_with_metadata, "X-With-Metadata")
            config = _config(settings.config, x_target_selector, x_remove_selector, x_favor)
        _check_with_metadata(format, with_metadata)
        # Nothing is fetched: ``url`` is only the base for relative links, and the
        # result echoes it.
        if url is not None and url != "" and not is_web_url(url):
            raise InvalidURL("url must be an absolute http(s) URL")
        answer = await anyio.to_thread.run_sync(
            _extract_payload, html, url or None, ctype, config, format, with_metadata
        )
        return JSONResponse(answer)

    @app.get("/r/{target:path}", response_class=PlainTextResponse, responses=reader_responses)
    async def reader(
        request: Request,
        target: str,
        x_return_format: Annotated[
            str | None, Header(description="markdown (default), text or html")
        ] = None,
        x_target_selector: TargetHeader = None,
        x_remove_selector: RemoveHeader = None,
        x_favor: FavorHeader = None,
        x_with_metadata: MetadataHeader = None,
        x_engine: EngineHeader = None,
        accept: Annotated[
            str | None, Header(description="application/json: the JSON answer")
        ] = None,
    ) -> Response:
        url = _target_url(request)
        fmt = (x_return_format or "markdown").strip().lower()
        if fmt not in ("markdown", "text", "html"):
            raise InvalidInput("X-Return-Format must be markdown, text or html")
        with_metadata = _flag(x_with_metadata, "X-With-Metadata")
        _check_with_metadata(fmt, with_metadata)
        config = _config(settings.config, x_target_selector, x_remove_selector, x_favor)
        config = _engine(config, x_engine)
        result = await aread(url, config=config, fetch_config=settings.fetch_config)
        if "application/json" in (accept or ""):
            answer = await anyio.to_thread.run_sync(payload, result, fmt, with_metadata)
            return JSONResponse(answer)
        text = await anyio.to_thread.run_sync(reader_text, result, fmt, with_metadata)
        return PlainTextResponse(text)


def _extract_payload(
    html: str | bytes,
    url: str | None,
    content_type: str | None,
    config: Config,
    fmt: Format,
    with_metadata: bool,
) -> dict[str, Any]:
    """Extraction and the rendering of its answer in one worker thread: the Markdown of
    a big page takes as long as its extraction, and must not hold the event loop."""
    return payload(_extract_sync(html, url, content_type, config), fmt, with_metadata)


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
    # ``uvicorn unchrome.service.serve:app`` works, but the settings are read only when asked.
    if name == "app":
        return create_app()
    raise AttributeError(name)
