"""The request and response models of the service, and how a Result becomes an answer
(JSON with the fields of unchrome.schema, or text) or an error."""

from __future__ import annotations

from typing import Any, Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, create_model

from unchrome import schema
from unchrome.errors import (
    InvalidInput,
    Overloaded,
    Unauthorized,
    UnchromeError,
)
from unchrome.result import Result

Format = Literal["markdown", "text", "html"]

WITH_METADATA = "the Markdown or text opens with a YAML front matter (title, author, dates...)"


class ReadRequest(BaseModel):
    url: str = Field(description="http(s) URL of the page to read", max_length=8192)
    format: Format = "markdown"
    target_selector: str | None = Field(None, description="CSS selector of the content")
    remove_selector: str | None = Field(None, description="CSS selector of parts to drop")
    favor: str | None = Field(None, description="precision, balanced (default) or recall")
    engine: str | None = Field(
        None, description="browser (render it), auto or direct (never); as X-Engine"
    )
    with_metadata: bool = Field(False, description=WITH_METADATA)
    no_tables: bool = Field(False, description="leave the tables out (as X-No-Tables)")
    no_links: bool = Field(False, description="links as their text (as X-No-Links)")
    no_images: bool = Field(False, description="no images in the Markdown (as X-No-Images)")
    comments: bool = Field(False, description="keep the comment sections (as X-Comments)")


class ExtractRequest(BaseModel):
    html: str = Field(description="the HTML document")
    url: str | None = Field(None, description="base URL for links; nothing is fetched")
    format: Format = "markdown"
    target_selector: str | None = None
    remove_selector: str | None = None
    favor: str | None = Field(None, description="precision, balanced (default) or recall")
    with_metadata: bool = Field(False, description=WITH_METADATA)
    no_tables: bool = Field(False, description="leave the tables out (as X-No-Tables)")
    no_links: bool = Field(False, description="links as their text (as X-No-Links)")
    no_images: bool = Field(False, description="no images in the Markdown (as X-No-Images)")
    comments: bool = Field(False, description="keep the comment sections (as X-Comments)")


class ErrorBody(BaseModel):
    code: str
    message: str
    retryable: bool


class ErrorResponse(BaseModel):
    error: ErrorBody


_PYTHON_TYPES: dict[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "strs": list[str],
}


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


def content(
    result: Result, fmt: Format, with_metadata: bool = False, headline: bool = False
) -> str:
    """The content in ``fmt``; ``with_metadata``: the Markdown or text opened by the
    YAML front matter (HTML is refused before extraction, see check_with_metadata);
    ``headline``: the text and HTML opened by the headline, as the Markdown is (the
    plain answers of /r/, which are documents; the JSON answers carry the fields)."""
    if fmt == "markdown":
        return result.to_markdown(with_metadata=with_metadata)
    if fmt == "text":
        return result.to_text(with_metadata=with_metadata, headline=headline)
    return result.to_html(headline=headline)


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
    content; ``with_metadata``: the YAML front matter, then the content, the metadata
    said once. Renders the Markdown or HTML: call it off the event loop."""
    if with_metadata:
        return content(result, fmt, with_metadata, headline=True)
    label = {"markdown": "Markdown", "text": "Text", "html": "HTML"}[fmt]
    lines = [f"Title: {result.title or ''}", "", f"URL Source: {result.url or ''}", ""]
    if result.date:
        lines += [f"Published Time: {result.date}", ""]
    if result.date_modified:
        lines += [f"Modified Time: {result.date_modified}", ""]
    lines += [f"{label} Content:", content(result, fmt, headline=True)]
    return "\n".join(lines)


def check_with_metadata(fmt: str, with_metadata: bool) -> None:
    if with_metadata and fmt == "html":
        raise InvalidInput("with_metadata applies to the markdown and text formats, not html")


def error_response(error: UnchromeError) -> JSONResponse:
    headers = {"Retry-After": "1"} if isinstance(error, Overloaded) else {}
    if isinstance(error, Unauthorized):
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse({"error": error.to_dict()}, error.http_status, headers=headers)


def plain_error(code: str, message: str, status: int) -> JSONResponse:
    body = {"code": code, "message": message, "retryable": False}
    return JSONResponse({"error": body}, status)
