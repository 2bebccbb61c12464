"""The HTTP service: ``unchrome serve`` (FastAPI on uvicorn).

Endpoints
    POST /v1/read      {"url", "format", "target_selector", "remove_selector", "favor",
                       "with_metadata"}
    POST /v1/extract   HTML as the raw body (?url=&format=) or JSON {"html", "url", "format"...}
    GET  /r/<url>      Markdown as text/plain (or JSON with ``Accept: application/json``)
    POST /v1/map, POST /v1/crawl, GET /v1/crawl/{id}: a site's pages (crawl_routes)
    GET  /healthz      liveness
    GET  /openapi.json, /docs (Swagger UI, its assets served from a package: no CDN)

Every endpoint takes its options as headers too, with the same meaning everywhere
(``options.py``): ``X-Return-Format`` (markdown, text or html), ``X-Target-Selector``,
``X-Remove-Selector``, ``X-Favor`` (precision, balanced or recall: see ``Config.favor``),
``X-With-Metadata`` (true: the Markdown or text opens with a YAML front matter, which
on ``/r/`` replaces the Title: header), and the switches ``X-No-Tables``,
``X-No-Links``, ``X-No-Images``, ``X-Comments`` (the CLI's --no-tables...); a value
in the query or the JSON body wins over its header. A body may come with
``Content-Encoding: gzip``. The JSON answers carry the fields of unchrome.schema.
``X-Engine`` (``browser``, ``auto`` or ``direct``; an ``engine`` field of ``/v1/read``)
chooses whether a fetched page is rendered in a headless browser first
(``Config.render`` always, auto, never: ``unchrome.net.browser``); ``UNCHROME_RENDER`` sets
the service's default (never).

Settings come from the environment (see :class:`ServiceSettings`). The service is meant
to face the internet: every fetch goes through the SSRF guards of ``fetch.py``, request
bodies are capped, work requests beyond the concurrency limit get 503 at once (a queue
would only turn a burst into timeouts), and extraction runs in worker threads so one
heavy page cannot stall the event loop."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Annotated, Any
from urllib.parse import unquote

import anyio
from fastapi import Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

import unchrome
from unchrome import inputs
from unchrome.config import Config
from unchrome.errors import (
    InvalidInput,
    InvalidURL,
    PayloadTooLarge,
    UnchromeError,
    UnsupportedContent,
)
from unchrome.net.remote import aread
from unchrome.rules.formats import HTML_TYPES, XML_TYPES
from unchrome.service.crawl_routes import crawl_router
from unchrome.service.middleware import AccessLog, Guard
from unchrome.service.models import (
    ErrorResponse,
    ExtractRequest,
    Format,
    ReadRequest,
    ReadResponse,
    error_response,
    payload,
    plain_error,
    reader_text,
)
from unchrome.service.options import Headers, choose
from unchrome.service.settings import ServiceSettings
from unchrome.urls import is_web_url

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

log = logging.getLogger("unchrome.serve")

OptionHeaders = Annotated[Headers, Depends()]
EngineHeader = Annotated[
    str | None,
    Header(description="browser (render the page in a headless browser), auto or direct (never)"),
]


def _version() -> str:
    return unchrome.__version__


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
    app.include_router(crawl_router(settings))
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
                "X-No-Tables",
                "X-No-Links",
                "X-No-Images",
                "X-Comments",
                "Content-Encoding",
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
            "description": "the content after a Title: / URL Source: header (with "
            "X-With-Metadata: true, after the YAML front matter instead); the JSON answer "
            "with Accept: application/json",
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
    async def read_endpoint(
        request: Request, headers: OptionHeaders, x_engine: EngineHeader = None
    ) -> JSONResponse:
        req = _parse(ReadRequest, await _body(request, settings.max_body_bytes))
        choice = choose(settings.config, headers, _set_fields(req, "url", "engine"))
        config = _engine(choice.config, req.engine or x_engine)
        result = await aread(req.url, config=config, fetch_config=settings.fetch_config)
        answer = await anyio.to_thread.run_sync(payload, result, choice.fmt, choice.with_metadata)
        return JSONResponse(answer)

    @app.post(
        "/v1/extract", response_model=ReadResponse, openapi_extra={"requestBody": extract_schema}
    )
    async def extract_endpoint(
        request: Request,
        headers: OptionHeaders,
        url: str | None = None,
        format: Format | None = None,
    ) -> JSONResponse:
        body = await _body(request, settings.max_body_bytes)
        content_type = request.headers.get("content-type", "")
        given: dict[str, Any] = {"format": format} if format else {}
        if content_type.split(";")[0].strip().lower() == "application/json":
            req = _parse(ExtractRequest, body)
            html: str | bytes = req.html
            url, ctype = req.url if "url" in req.model_fields_set else url, None
            given |= _set_fields(req, "html", "url")
        else:
            if not _markup_type(content_type):
                mime = content_type.split(";", 1)[0].strip()
                raise UnsupportedContent(f"content type {mime!r} is not HTML: {_TYPE_HINT}")
            html, ctype = body, content_type or None
        choice = choose(settings.config, headers, given)
        # Nothing is fetched: ``url`` is only the base for relative links, and the
        # result echoes it.
        if url is not None and url != "" and not is_web_url(url):
            raise InvalidURL("url must be an absolute http(s) URL")
        answer = await anyio.to_thread.run_sync(
            _extract_payload, html, url or None, ctype, choice.config, choice.fmt,
            choice.with_metadata,
        )  # fmt: skip
        return JSONResponse(answer)

    @app.get("/r/{target:path}", response_class=PlainTextResponse, responses=reader_responses)
    async def reader(
        request: Request,
        target: str,
        headers: OptionHeaders,
        x_engine: EngineHeader = None,
        accept: Annotated[
            str | None, Header(description="application/json: the JSON answer")
        ] = None,
    ) -> Response:
        url = _target_url(request)
        # The query after /r/<url> is the target's own: the headers alone choose.
        choice = choose(settings.config, headers, {})
        config = _engine(choice.config, x_engine)
        result = await aread(url, config=config, fetch_config=settings.fetch_config)
        fmt, with_metadata = choice.fmt, choice.with_metadata
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


def _set_fields(req: BaseModel, *leave: str) -> dict[str, Any]:
    """The fields a JSON body set (a default is no choice: the headers may make it)."""
    return {name: getattr(req, name) for name in req.model_fields_set if name not in leave}


# Content-Encoding of a request body -> what inputs.inflate reads it as.
_CODINGS = {"gzip": "gzip", "x-gzip": "gzip"}


async def _body(request: Request, limit: int) -> bytes:
    """The request body (read by Guard, within its deadline and limit), decompressed
    when its Content-Encoding says gzip: then held to the same limit, once inflated,
    as a body sent plain."""
    body = await request.body()
    coding = request.headers.get("content-encoding", "").strip().lower()
    if coding in ("", "identity"):
        return body
    kind = _CODINGS.get(coding)
    if kind is None:
        raise UnsupportedContent(f"Content-Encoding {coding!r} is not read: send gzip or none")
    data = await anyio.to_thread.run_sync(
        inputs.inflate, io.BytesIO(body), kind, "the request body", limit
    )
    if len(data) > limit:
        raise PayloadTooLarge(f"request body over {limit} bytes once decompressed")
    return data


def _parse(model: type[BaseModel], body: bytes) -> Any:
    try:
        return model.model_validate_json(body or b"{}")
    except ValidationError as exc:
        raise InvalidInput(f"invalid request: {_problems(exc.errors())}") from None


def _problems(errors: Sequence[Any]) -> str:
    """Pydantic's errors as "where: what" (the field and the values it takes), without
    the input itself: a hostile value is not echoed back."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in errors)


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(UnchromeError)
    async def unchrome_error(request: Request, exc: UnchromeError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Which parameter, and what it takes ("query.format: Input should be 'markdown',
        # 'text' or 'html'"): a bare "invalid request parameters" left a user guessing.
        return plain_error(
            "INVALID_INPUT", f"invalid request parameters: {_problems(exc.errors())}", 400
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404 and request.url.path.startswith("/r/"):
            # The reader's route takes any path but one holding a line break: such a
            # target is no URL, and the caller's mistake.
            return error_response(InvalidURL("the target URL holds a control character"))
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "HTTP_ERROR")
        return plain_error(code, str(exc.detail), exc.status_code)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return plain_error("INTERNAL", "internal error", 500)


def __getattr__(name: str) -> Any:
    # ``uvicorn unchrome.service.serve:app`` works, but the settings are read only when asked.
    if name == "app":
        return create_app()
    raise AttributeError(name)
