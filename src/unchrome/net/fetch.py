"""Fetch a URL safely: ``afetch(url)``, and ``fetch(url)``, which runs the same exchange
in an event loop of its own (``remote.read`` fetches and then extracts).

Why httpx: it is maintained, parses URLs (with IDNA) the same way for checking and for
sending, and its core (httpcore) takes a custom *network backend* (``transport``). That
backend is the SSRF seam: it receives the host name a connection
is for, resolves it once, checks every address, and opens the socket to one of those
checked addresses. TLS (SNI and certificate check) and the Host header still use the
original host name, because httpcore only hands the host to us for the TCP connect.
No second DNS lookup happens between the check and the connect, so DNS rebinding has
no window.

Everything that can be bounded is: redirects (each hop re-checked), bytes on the wire,
decompressed bytes and the number of stacked encodings, and one total deadline for the
whole exchange (enforced on every socket operation, so a server that drips one byte per
read cannot stretch it)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import zlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field

import anyio
import httpx

from unchrome.errors import (
    BlockedBySite,
    ForbiddenAddress,
    InvalidURL,
    PageNotFound,
    UnsupportedContent,
    UpstreamError,
    UpstreamTimeout,
)
from unchrome.net.fetch_config import DEFAULT_FETCH_CONFIG, FetchConfig
from unchrome.net.netguard import (
    Target,
    check_url,
)
from unchrome.net.transport import (
    TRANSPORT_ERRORS,
    Deadline,
    GuardedTransport,
    map_exception,
)
from unchrome.rules.formats import FEED_TYPES, HTML_TYPES, XML_TYPES

MiB = 1024 * 1024

try:  # brotli is optional: advertise "br" only when we can decode it ourselves.
    import brotli as _brotli  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the environment
    _brotli = None

_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,"
    "application/rss+xml;q=0.8,application/atom+xml;q=0.8,*/*;q=0.5"
)


@dataclass
class Fetched:
    """The final response of an exchange, body decoded (not yet charset-decoded)."""

    url: str
    status: int
    content_type: str | None
    body: bytes
    truncated: bool = False
    redirects: int = 0
    # The final response's headers: the crawler reads its validators (ETag,
    # Last-Modified) and Retry-After from them.
    headers: httpx.Headers = field(default_factory=httpx.Headers)


# ------------------------------------------------------------ response judgement


_REDIRECTS = frozenset({301, 302, 303, 307, 308})
# Types servers put on HTML by mistake: decided by sniffing the first bytes.
_SNIFF_TYPES = frozenset({"", "text/plain", "application/octet-stream", "binary/octet-stream"})


def request_headers(fc: FetchConfig) -> dict[str, str]:
    encodings = "gzip, deflate" + (", br" if _brotli is not None else "")
    return {
        "User-Agent": fc.user_agent,
        "Accept": _ACCEPT,
        "Accept-Encoding": encodings,
        "Accept-Language": "en;q=0.9, *;q=0.5",
    }


def next_hop(response: httpx.Response, fc: FetchConfig) -> Target | None:
    """The re-validated redirect target, or None when the response is final."""
    if response.status_code not in _REDIRECTS:
        return None
    location = response.headers.get("location")
    if not location:
        return None
    try:
        joined = response.url.join(location.strip())
        return check_url(joined, fc.allowed_ports)
    except (InvalidURL, httpx.InvalidURL, ValueError) as exc:
        # The user's URL was fine; the site is the one pointing somewhere we won't go
        # (file:, gopher:, data:, an internal port, user@host...).
        raise ForbiddenAddress(f"refused redirect to {location[:200]!r}: {exc}") from None


def _judge_status(status: int, headers: httpx.Headers) -> None:
    if headers.get("cf-mitigated", "").lower() == "challenge":
        raise BlockedBySite(f"the site answered {status} with a bot challenge")
    if 200 <= status < 300:
        return
    if status in (404, 410):
        raise PageNotFound(f"upstream answered {status}")
    if status in (401, 403, 407, 451):
        raise BlockedBySite(f"upstream answered {status}")
    if status == 408:
        raise UpstreamTimeout("upstream answered 408")
    if status in _REDIRECTS:
        raise UpstreamError(f"upstream answered {status} without a Location")
    raise UpstreamError(f"upstream answered {status}")


def _media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _judge_type(content_type: str | None) -> bool:
    """Refuse before reading the body; True when the body must be sniffed."""
    media = _media_type(content_type)
    if media in HTML_TYPES or media in FEED_TYPES:
        return False
    if media in XML_TYPES or media in _SNIFF_TYPES or media.endswith("+xml"):
        return True
    raise UnsupportedContent(f"content type {media!r} is not HTML, XHTML or a feed")


_HTML_SNIFF = re.compile(rb"<(!doctype\s+html|html|head|body|meta|title|article|div|p)\b", re.I)
_FEED_SNIFF = re.compile(rb"<(rss|feed|rdf:RDF)\b", re.I)


def _sniff(body: bytes, content_type: str | None) -> None:
    head = body[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if _HTML_SNIFF.search(head) or _FEED_SNIFF.search(head):
        return
    raise UnsupportedContent(
        f"content type {_media_type(content_type) or '(none)'!r} "
        "and the body does not look like HTML or a feed"
    )


class Body:
    """Collects raw wire bytes up to the cap; Content-Length is never trusted."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.truncated = False

    def add(self, chunk: bytes) -> bool:
        room = self.limit - self.size
        if len(chunk) > room:
            chunk = chunk[:room]
            self.truncated = True
        self.parts.append(chunk)
        self.size += len(chunk)
        return not self.truncated

    def bytes(self) -> bytes:
        return b"".join(self.parts)


def _inflate(data: bytes, wbits: int, limit: int) -> tuple[bytes, bool]:
    """zlib/gzip/deflate, output capped at ``limit``; handles multi-member gzip."""
    out: list[bytes] = []
    size = 0
    for member in range(64):  # bounded: thousands of tiny members are an attack too
        d = zlib.decompressobj(wbits)
        try:
            # max_length bounds the output of this call: the bomb never expands in memory.
            chunk = d.decompress(data, limit - size + 1)
        except zlib.error:
            if member == 0:
                raise
            break  # trailing garbage after a complete member: ignored, as browsers do
        out.append(chunk)
        size += len(chunk)
        if size > limit or d.unconsumed_tail:
            return b"".join(out)[:limit], True
        data = d.unused_data if d.eof else b""
        if not data:
            return b"".join(out), False
    return b"".join(out), True


def _decode_one(data: bytes, coding: str, limit: int) -> tuple[bytes, bool]:
    try:
        if coding in ("gzip", "x-gzip"):
            return _inflate(data, 16 + zlib.MAX_WBITS, limit)
        if coding == "deflate":
            try:
                return _inflate(data, zlib.MAX_WBITS, limit)
            except zlib.error:  # servers that send raw deflate without the zlib header
                return _inflate(data, -zlib.MAX_WBITS, limit)
        if coding == "br" and _brotli is not None:
            return _unbrotli(data, limit)
    except zlib.error as exc:
        raise UpstreamError(f"corrupt {coding} body: {exc}") from None
    raise UnsupportedContent(f"content encoding {coding!r} is not supported")


def _unbrotli(data: bytes, limit: int) -> tuple[bytes, bool]:  # pragma: no cover - optional
    decoder = _brotli.Decompressor()
    out: list[bytes] = []
    size = 0
    for start in range(0, len(data), 16384):
        # Feed small slices so one slice cannot expand past the cap by much.
        piece = decoder.process(data[start : start + 16384])
        out.append(piece)
        size += len(piece)
        if size > limit:
            return b"".join(out)[:limit], True
    return b"".join(out), False


def decode_body(
    data: bytes, content_encoding: str | None, fc: FetchConfig, *, gzip_file_ok: bool = False
) -> tuple[bytes, bool]:
    """Undo Content-Encoding (last applied first), bounded in size and chain length.

    ``gzip_file_ok``: the body may itself be a gzip file (a ``sitemap.xml.gz``), which
    its reader inflates, under its own cap."""
    codings = [c.strip().lower() for c in (content_encoding or "").split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if len(codings) > fc.max_encodings:
        raise UnsupportedContent(f"{len(codings)} stacked content encodings")
    truncated = False
    for coding in reversed(codings):
        data, cut = _decode_one(data, coding, fc.max_decompressed)
        truncated = truncated or cut
    # gzip inside a single "gzip" label: the page is still compressed. Decoding it again
    # would be guessing (and a second bomb layer), handing it on would be garbage.
    if data[:2] == b"\x1f\x8b" and not gzip_file_ok:
        raise UnsupportedContent("the body is still gzip-compressed after decoding")
    return data, truncated


def _finish(
    response: httpx.Response, body: Body, fc: FetchConfig, judge: bool, redirects: int
) -> Fetched:
    data, cut = decode_body(
        body.bytes(), response.headers.get("content-encoding"), fc, gzip_file_ok=not judge
    )
    fetched = Fetched(
        url=str(response.url),
        status=response.status_code,
        content_type=response.headers.get("content-type"),
        body=data,
        truncated=body.truncated or cut,
        redirects=redirects,
        headers=response.headers,
    )
    if judge:
        judge_page(fetched)
    return fetched


def judge_page(fetched: Fetched) -> None:
    """Raise the named error of a response that is no page (an error status, a type
    that is not HTML, XHTML or a feed). ``afetch`` does it for every page; a caller that
    fetched with ``judge=False`` (the crawler, which handles 304, 429 and 503 itself)
    calls it when the answer is meant to be a page after all."""
    _judge_status(fetched.status, fetched.headers)
    if _judge_type(fetched.content_type):
        _sniff(fetched.body, fetched.content_type)


# --------------------------------------------------------------------------- fetching


def _request(
    target: Target, fc: FetchConfig, cookies: httpx.Cookies, extra: Mapping[str, str] | None
) -> httpx.Request:
    headers = request_headers(fc)
    headers.update(extra or {})
    request = httpx.Request("GET", target.url, headers=headers)
    # Cookies set by a hop go to the next one (sites that set a cookie, then redirect),
    # with httpx's domain rules deciding which.
    cookies.set_cookie_header(request)
    request.extensions["timeout"] = httpx.Timeout(fc.deadline).as_dict()
    return request


def _drain_limit() -> int:
    return 64 * 1024  # a redirect body read so the connection can be reused


def fetch(
    url: str,
    fetch_config: FetchConfig | None = None,
    *,
    headers: Mapping[str, str] | None = None,
    judge: bool = True,
) -> Fetched:
    """GET ``url`` under every guard; the final response's body, decoded.

    The same exchange as :func:`afetch`, run in an event loop of its own (in a worker
    thread when this thread already runs one: loops do not nest). One network path
    serves both: a sync twin of every backend, stream and transport would be a second
    copy of the SSRF guard to keep in step.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(_afetch, url, fetch_config, headers, judge)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, _afetch, url, fetch_config, headers, judge).result()


async def adrain(chunks: AsyncIterator[bytes], deadline: Deadline) -> None:
    """Read and drop a redirect's body (up to a cap), so its connection can be reused."""
    size = 0
    async for chunk in chunks:
        deadline.remaining()
        size += len(chunk)
        if size > _drain_limit():
            break


async def afetch(
    url: str,
    fetch_config: FetchConfig | None = None,
    *,
    headers: Mapping[str, str] | None = None,
    judge: bool = True,
) -> Fetched:
    """GET ``url`` under every guard; the final response's body, decoded.

    ``headers`` are added to the request (the crawler's ``If-None-Match``); with
    ``judge=False`` any final status and type is returned as it came (robots.txt,
    sitemaps, a 304 or a 429 the crawler handles), see :func:`judge_page`.

    The transport is used directly, not through ``httpx.AsyncClient``: redirects are
    ours to follow (each hop re-checked), and no client logic may build a request we
    did not.
    """
    return await _afetch(url, fetch_config, headers, judge)


async def _afetch(
    url: str,
    fetch_config: FetchConfig | None,
    headers: Mapping[str, str] | None,
    judge: bool,
) -> Fetched:
    fc = fetch_config or DEFAULT_FETCH_CONFIG
    target = check_url(url, fc.allowed_ports)
    deadline = Deadline(fc.deadline)
    cookies = httpx.Cookies()
    transport = GuardedTransport(fc, deadline)
    try:
        # fail_after is a second net under the per-operation clamps (e.g. pool waits).
        with anyio.fail_after(fc.deadline + 0.5):
            for hop in range(fc.max_redirects + 1):
                request = _request(target, fc, cookies, headers)
                response = await transport.handle_async_request(request)
                response.request = request
                try:
                    cookies.extract_cookies(response)
                    next_target = next_hop(response, fc)
                    if next_target is None:
                        return await _aread_final(response, fc, deadline, hop, judge)
                    await adrain(response.aiter_raw(), deadline)
                finally:
                    await response.aclose()
                target = next_target
    except (httpx.HTTPError, *TRANSPORT_ERRORS) as exc:
        raise map_exception(exc) from None
    finally:
        with anyio.CancelScope(shield=True):
            await transport.aclose()
    raise UpstreamTimeout(f"more than {fc.max_redirects} redirects")


async def _aread_final(
    response: httpx.Response, fc: FetchConfig, deadline: Deadline, hops: int, judge: bool
) -> Fetched:
    if judge:  # refused before the body is read: a video is not downloaded to be refused
        _judge_status(response.status_code, response.headers)
        _judge_type(response.headers.get("content-type"))
    body = Body(fc.max_bytes)
    async for chunk in response.aiter_raw():
        deadline.remaining()
        if not body.add(chunk):
            break
    return _finish(response, body, fc, judge, hops)
