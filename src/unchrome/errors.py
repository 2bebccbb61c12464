"""Named failures.

Every error carries a stable ``code`` (what callers switch on), the HTTP status the
service answers with, and ``retryable``: whether the same request can succeed later.
A bot wall is not retryable (the site said no); an upstream timeout is.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class UnchromeError(Exception):
    """Base class of every error unchrome raises on purpose."""

    code: str = "ERROR"
    http_status: int = 500
    retryable: bool = False

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        super().__init__(message or self.__class__.__doc__ or self.code)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "retryable": self.retryable}


class InvalidInput(UnchromeError):
    """The input is not a document unchrome can read."""

    code = "INVALID_INPUT"
    http_status = 400


class InvalidURL(UnchromeError):
    """The URL is malformed or uses a scheme, port or form that is not allowed."""

    code = "INVALID_URL"
    http_status = 400


class ForbiddenAddress(UnchromeError):
    """The URL resolves to an address that may not be fetched (private, loopback, ...)."""

    code = "FORBIDDEN_ADDRESS"
    http_status = 403


class BlockedBySite(UnchromeError):
    """The site answered with a bot wall or an access challenge instead of the page."""

    code = "BLOCKED_BY_SITE"
    http_status = 403


class PageNotFound(UnchromeError):
    """The page does not exist (upstream 404/410 or a deleted-page screen)."""

    code = "PAGE_NOT_FOUND"
    http_status = 404


class UnsupportedContent(UnchromeError):
    """The content type is not HTML, XHTML or a feed."""

    code = "UNSUPPORTED_CONTENT"
    http_status = 415


class ExtractFailed(UnchromeError):
    """No main content and no title could be found in the document."""

    code = "EXTRACT_FAILED"
    http_status = 422


class ExtractTimeout(UnchromeError):
    """Processing the document took longer than ``Config.timeout``."""

    code = "TIMEOUT"
    http_status = 504
    retryable = False


class UpstreamError(UnchromeError):
    """The upstream server failed (5xx, 429, connection error)."""

    code = "UPSTREAM_ERROR"
    http_status = 502
    retryable = True


class UpstreamTimeout(UnchromeError):
    """The upstream exchange ran past its deadline or redirected too often."""

    code = "UPSTREAM_TIMEOUT"
    http_status = 504
    retryable = True


class RenderUnavailable(UnchromeError):
    """A page had to be rendered in a browser and none can be run here: the ``[render]``
    extra (Playwright) is not installed, or no Chromium was found (``UNCHROME_BROWSER``)."""

    code = "RENDER_UNAVAILABLE"
    http_status = 501


class ExtraMissing(UnchromeError):
    """A feature whose optional dependencies are not installed: ``pip install unchrome``
    gives the library and the command line on files and URLs; the service, WARC reading
    and the batch runs come with their extras, which the message names."""

    code = "EXTRA_MISSING"
    http_status = 501


def import_extra(module: str, extra: str, feature: str) -> ModuleType:
    """``module``, imported; ExtraMissing naming the extra that installs it when it is
    not installed (``feature``: what needed it, as the user asked for it)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ExtraMissing(
            f"{feature} needs the [{extra}] extra: pip install 'unchrome[{extra}]'"
        ) from exc


class FileAccessError(UnchromeError):
    """The file is outside its root, missing, or not readable."""

    code = "FILE_ACCESS"
    http_status = 400


ALL_ERRORS: tuple[type[UnchromeError], ...] = (
    InvalidInput,
    InvalidURL,
    ForbiddenAddress,
    BlockedBySite,
    PageNotFound,
    UnsupportedContent,
    ExtractFailed,
    ExtractTimeout,
    UpstreamError,
    UpstreamTimeout,
    RenderUnavailable,
    ExtraMissing,
    FileAccessError,
)


# Batch runs (unchrome.scale.batch): a page's failure that is not the extractor's verdict on it.


class WorkerFailed(UnchromeError):
    """The worker process extracting this page died (a crash, or killed from outside)."""

    code = "WORKER_FAILED"
    http_status = 500
    retryable = True


class MemoryLimitExceeded(UnchromeError):
    """The worker extracting this page passed its memory limit and was stopped."""

    code = "MEMORY_LIMIT"
    http_status = 500


# The HTTP service (unchrome.service.serve): what a request, not a page, did wrong.


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
