"""Fetch a URL safely: ``fetch(url)`` and its async twin ``afetch(url)`` (``remote.read``
fetches and then extracts).

Why httpx: it is maintained, has matching sync and async clients, parses URLs (with IDNA)
the same way for checking and for sending, and its core (httpcore) takes a custom
*network backend*. That backend is the SSRF seam: it receives the host name a connection
is for, resolves it once, checks every address, and opens the socket to one of those
checked addresses. TLS (SNI and certificate check) and the Host header still use the
original host name, because httpcore only hands the host to us for the TCP connect.
No second DNS lookup happens between the check and the connect, so DNS rebinding has
no window.

Everything that can be bounded is: redirects (each hop re-checked), bytes on the wire,
decompressed bytes and the number of stacked encodings, and one total deadline for the
whole exchange (enforced on every socket operation, so a server that drips one byte per
read cannot stretch it).
"""

from __future__ import annotations

import concurrent.futures
import ipaddress
import re
import ssl
import time
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpcore
import httpx

from unchrome.errors import (
    BlockedBySite,
    ForbiddenAddress,
    InvalidInput,
    InvalidURL,
    PageNotFound,
    UnchromeError,
    UnsupportedContent,
    UpstreamError,
    UpstreamTimeout,
)
from unchrome.formats import FEED_TYPES, HTML_TYPES, XML_TYPES
from unchrome.net.netguard import (
    IPAddress,
    IPNetwork,
    Resolver,
    Target,
    check_addresses,
    check_url,
    parse_ip,
    resolve,
)

MiB = 1024 * 1024

try:  # brotli is optional: advertise "br" only when we can decode it ourselves.
    import brotli as _brotli  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the environment
    _brotli = None

_USER_AGENT = "Mozilla/5.0 (compatible; unchrome/0.1; +reader)"
_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,"
    "application/rss+xml;q=0.8,application/atom+xml;q=0.8,*/*;q=0.5"
)


@dataclass(frozen=True)
class FetchConfig:
    """How ``read`` talks to the network. Defaults are the safe, public-internet ones."""

    allowed_ports: frozenset[int] = frozenset({80, 443})
    # Explicit opt-in: networks (CIDR strings) that may be fetched even though they are
    # private/loopback/... Empty by default; tests and intranet deployments set it.
    allow_addresses: tuple[str, ...] = ()
    # resolver(host, port) -> [ip, ...]; None uses getaddrinfo.
    resolver: Resolver | None = field(default=None, compare=False)
    max_redirects: int = 3
    deadline: float = 10.0  # seconds, the whole exchange including redirects
    max_bytes: int = 4 * MiB  # counted on the wire, before decompression
    max_decompressed: int = 8 * MiB
    max_encodings: int = 2  # "gzip, gzip" is fine; three stacked codings are an attack
    user_agent: str = _USER_AGENT
    # Custom trust (a corporate CA, or a test CA); None: the certifi bundle. Certificates
    # are always verified against the URL's host name, never against the address.
    ssl_context: ssl.SSLContext | None = field(default=None, compare=False, repr=False)
    allowed_networks: tuple[IPNetwork, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ports = frozenset(self.allowed_ports)
        if not ports or any(
            not isinstance(p, int) or isinstance(p, bool) or not 0 < p < 65536 for p in ports
        ):
            raise InvalidInput("FetchConfig.allowed_ports must be ports between 1 and 65535")
        object.__setattr__(self, "allowed_ports", ports)
        try:
            nets = tuple(ipaddress.ip_network(n, strict=False) for n in self.allow_addresses)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"FetchConfig.allow_addresses: {exc}") from None
        object.__setattr__(self, "allowed_networks", nets)
        for name in ("max_bytes", "max_decompressed", "max_encodings"):
            _positive_int(name, getattr(self, name))
        if not isinstance(self.max_redirects, int) or not 0 <= self.max_redirects <= 20:
            raise InvalidInput("FetchConfig.max_redirects must be an integer from 0 to 20")
        if not isinstance(self.deadline, int | float) or not 0 < self.deadline <= 600:
            raise InvalidInput("FetchConfig.deadline must be a number of seconds in (0, 600]")
        # A CR/LF in a header value would let a caller inject headers.
        if not isinstance(self.user_agent, str) or not re.fullmatch(
            r"[\x20-\x7e]+", self.user_agent
        ):
            raise InvalidInput("FetchConfig.user_agent must be printable ASCII")
        if self.ssl_context is not None and not isinstance(self.ssl_context, ssl.SSLContext):
            raise InvalidInput("FetchConfig.ssl_context must be an ssl.SSLContext")
        if self.resolver is not None and not callable(self.resolver):
            raise InvalidInput("FetchConfig.resolver must be callable(host, port)")


def _positive_int(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidInput(f"FetchConfig.{name} must be a positive integer, got {value!r}")


DEFAULT_FETCH_CONFIG = FetchConfig()


@dataclass
class Fetched:
    """The final response of an exchange, body decoded (not yet charset-decoded)."""

    url: str
    status: int
    content_type: str | None
    body: bytes
    truncated: bool = False
    redirects: int = 0


class _Deadline:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise UpstreamTimeout(f"the exchange took longer than {self.seconds:g} s")
        return left

    def clamp(self, timeout: float | None) -> float:
        left = self.remaining()
        return left if timeout is None else min(timeout, left)


# --------------------------------------------------------------------------- backends


def _inner_sync_backend() -> httpcore.NetworkBackend:
    """The real socket layer. A module function so tests can route it to a canary."""
    return httpcore.SyncBackend()


def _inner_async_backend() -> httpcore.AsyncNetworkBackend:
    return httpcore.AnyIOBackend()


class _DeadlineStream(httpcore.NetworkStream):
    """Every read and write gets at most the time left before the deadline."""

    def __init__(self, inner: httpcore.NetworkStream, deadline: _Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.clamp(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.clamp(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname, self._deadline.clamp(timeout))
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _AsyncDeadlineStream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream, deadline: _Deadline) -> None:
        self._inner = inner
        self._deadline = deadline

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, self._deadline.clamp(timeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, self._deadline.clamp(timeout))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        inner = await self._inner.start_tls(
            ssl_context, server_hostname, self._deadline.clamp(timeout)
        )
        return _AsyncDeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


def _checked_addresses(
    host: str, port: int, fc: FetchConfig, deadline: _Deadline
) -> list[IPAddress]:
    """Resolve once (bounded by the deadline) and refuse if any address is forbidden."""
    if port not in fc.allowed_ports:  # backstop: check_url already refused it
        raise ForbiddenAddress(f"port {port} is not allowed")
    if parse_ip(host) is not None:
        addresses = resolve(host, port, fc.resolver)
    else:
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        try:
            addresses = pool.submit(resolve, host, port, fc.resolver).result(deadline.remaining())
        except concurrent.futures.TimeoutError:
            raise UpstreamTimeout(f"DNS lookup of {host} timed out") from None
        finally:
            pool.shutdown(wait=False)
    check_addresses(host, addresses, fc.allowed_networks)
    return addresses


async def _achecked_addresses(
    host: str, port: int, fc: FetchConfig, deadline: _Deadline
) -> list[IPAddress]:
    if port not in fc.allowed_ports:
        raise ForbiddenAddress(f"port {port} is not allowed")
    if parse_ip(host) is not None:
        addresses = resolve(host, port, fc.resolver)
    else:
        try:
            with anyio.fail_after(deadline.remaining()):
                addresses = await anyio.to_thread.run_sync(
                    resolve, host, port, fc.resolver, abandon_on_cancel=True
                )
        except TimeoutError:
            raise UpstreamTimeout(f"DNS lookup of {host} timed out") from None
    check_addresses(host, addresses, fc.allowed_networks)
    return addresses


class _GuardedBackend(httpcore.NetworkBackend):
    def __init__(self, fc: FetchConfig, deadline: _Deadline) -> None:
        self._fc = fc
        self._deadline = deadline
        self._inner = _inner_sync_backend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        error: Exception | None = None
        # Connect to the very addresses that were checked: passing an IP literal down
        # means the socket layer does no lookup of its own.
        for address in _checked_addresses(host, port, self._fc, self._deadline):
            try:
                stream = self._inner.connect_tcp(
                    str(address),
                    port,
                    self._deadline.clamp(timeout),
                    local_address,
                    socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                error = exc
                continue
            return _DeadlineStream(stream, self._deadline)
        assert error is not None
        raise error

    def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        raise ForbiddenAddress("unix sockets are never fetched")

    def sleep(self, seconds: float) -> None:
        time.sleep(min(seconds, self._deadline.remaining()))


class _AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    def __init__(self, fc: FetchConfig, deadline: _Deadline) -> None:
        self._fc = fc
        self._deadline = deadline
        self._inner = _inner_async_backend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        error: Exception | None = None
        for address in await _achecked_addresses(host, port, self._fc, self._deadline):
            try:
                stream = await self._inner.connect_tcp(
                    str(address),
                    port,
                    self._deadline.clamp(timeout),
                    local_address,
                    socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                error = exc
                continue
            return _AsyncDeadlineStream(stream, self._deadline)
        assert error is not None
        raise error

    async def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        raise ForbiddenAddress("unix sockets are never fetched")

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(min(seconds, self._deadline.remaining()))


# ------------------------------------------------------------------------- transports


def _map_exception(exc: Exception) -> UnchromeError:
    if isinstance(exc, UnchromeError):
        return exc
    if isinstance(exc, httpcore.TimeoutException | httpx.TimeoutException | TimeoutError):
        return UpstreamTimeout(f"upstream timed out: {exc.__class__.__name__}")
    if isinstance(exc, httpcore.ConnectError | httpx.ConnectError):
        return UpstreamError(f"cannot connect: {exc}")
    return UpstreamError(f"upstream failed: {exc.__class__.__name__}: {exc}")


_TRANSPORT_ERRORS = (
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.UnsupportedProtocol,
    OSError,
)


def _core_request(request: httpx.Request) -> httpcore.Request:
    return httpcore.Request(
        method=request.method,
        url=httpcore.URL(
            scheme=request.url.raw_scheme,
            host=request.url.raw_host,
            port=request.url.port,
            target=request.url.raw_path,
        ),
        headers=request.headers.raw,
        content=request.stream,  # type: ignore[arg-type]
        extensions=request.extensions,
    )


class _SyncStream(httpx.SyncByteStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._inner
        except _TRANSPORT_ERRORS as exc:
            raise _map_exception(exc) from None

    def close(self) -> None:
        self._inner.close()


class _AsyncStream(httpx.AsyncByteStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._inner:
                yield part
        except _TRANSPORT_ERRORS as exc:
            raise _map_exception(exc) from None

    async def aclose(self) -> None:
        await self._inner.aclose()


class GuardedTransport(httpx.BaseTransport):
    """An httpx transport whose every connection goes through the address check."""

    def __init__(self, fc: FetchConfig, deadline: _Deadline) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=fc.ssl_context or httpx.create_ssl_context(trust_env=False),
            network_backend=_GuardedBackend(fc, deadline),
            retries=0,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            resp = self._pool.handle_request(_core_request(request))
        except _TRANSPORT_ERRORS as exc:
            raise _map_exception(exc) from None
        return httpx.Response(
            resp.status,
            headers=resp.headers,
            stream=_SyncStream(resp.stream),
            extensions=resp.extensions,
        )

    def close(self) -> None:
        self._pool.close()


class AsyncGuardedTransport(httpx.AsyncBaseTransport):
    def __init__(self, fc: FetchConfig, deadline: _Deadline) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=fc.ssl_context or httpx.create_ssl_context(trust_env=False),
            network_backend=_AsyncGuardedBackend(fc, deadline),
            retries=0,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            resp = await self._pool.handle_async_request(_core_request(request))
        except _TRANSPORT_ERRORS as exc:
            raise _map_exception(exc) from None
        return httpx.Response(
            resp.status,
            headers=resp.headers,
            stream=_AsyncStream(resp.stream),
            extensions=resp.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()


# ------------------------------------------------------------ response judgement


_REDIRECTS = frozenset({301, 302, 303, 307, 308})
# Types servers put on HTML by mistake: decided by sniffing the first bytes.
_SNIFF_TYPES = frozenset({"", "text/plain", "application/octet-stream", "binary/octet-stream"})


def _headers(fc: FetchConfig) -> dict[str, str]:
    encodings = "gzip, deflate" + (", br" if _brotli is not None else "")
    return {
        "User-Agent": fc.user_agent,
        "Accept": _ACCEPT,
        "Accept-Encoding": encodings,
        "Accept-Language": "en;q=0.9, *;q=0.5",
    }


def _next_hop(response: httpx.Response, fc: FetchConfig) -> Target | None:
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


def _judge_status(response: httpx.Response) -> None:
    status = response.status_code
    headers = response.headers
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


class _Body:
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


def decode_body(data: bytes, content_encoding: str | None, fc: FetchConfig) -> tuple[bytes, bool]:
    """Undo Content-Encoding (last applied first), bounded in size and chain length."""
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
    if data[:2] == b"\x1f\x8b":
        raise UnsupportedContent("the body is still gzip-compressed after decoding")
    return data, truncated


def _finish(
    response: httpx.Response, body: _Body, fc: FetchConfig, sniff: bool, redirects: int
) -> Fetched:
    data, cut = decode_body(body.bytes(), response.headers.get("content-encoding"), fc)
    content_type = response.headers.get("content-type")
    if sniff:
        _sniff(data, content_type)
    return Fetched(
        url=str(response.url),
        status=response.status_code,
        content_type=content_type,
        body=data,
        truncated=body.truncated or cut,
        redirects=redirects,
    )


# --------------------------------------------------------------------------- fetching


def _request(target: Target, fc: FetchConfig, cookies: httpx.Cookies) -> httpx.Request:
    request = httpx.Request("GET", target.url, headers=_headers(fc))
    # Cookies set by a hop go to the next one (sites that set a cookie, then redirect),
    # with httpx's domain rules deciding which.
    cookies.set_cookie_header(request)
    request.extensions["timeout"] = httpx.Timeout(fc.deadline).as_dict()
    return request


def _drain_limit() -> int:
    return 64 * 1024  # a redirect body read so the connection can be reused


def fetch(url: str, fetch_config: FetchConfig | None = None) -> Fetched:
    """GET ``url`` under every guard; the final response's body, decoded.

    The transport is used directly, not through ``httpx.Client``: redirects are ours to
    follow (each hop re-checked), and no client logic may build a request we did not.
    """
    fc = fetch_config or DEFAULT_FETCH_CONFIG
    target = check_url(url, fc.allowed_ports)
    deadline = _Deadline(fc.deadline)
    cookies = httpx.Cookies()
    transport = GuardedTransport(fc, deadline)
    try:
        for hop in range(fc.max_redirects + 1):
            request = _request(target, fc, cookies)
            response = transport.handle_request(request)
            response.request = request
            try:
                cookies.extract_cookies(response)
                next_target = _next_hop(response, fc)
                if next_target is None:
                    return _read_final(response, fc, deadline, hop)
                _drain(response.iter_raw(), deadline)
            finally:
                response.close()
            target = next_target
    except (httpx.HTTPError, *_TRANSPORT_ERRORS) as exc:
        raise _map_exception(exc) from None
    finally:
        transport.close()
    raise UpstreamTimeout(f"more than {fc.max_redirects} redirects")


def _drain(chunks: Iterator[bytes], deadline: _Deadline) -> None:
    size = 0
    for chunk in chunks:
        deadline.remaining()
        size += len(chunk)
        if size > _drain_limit():
            break


async def _adrain(chunks: AsyncIterator[bytes], deadline: _Deadline) -> None:
    """_drain for an asynchronous body."""
    size = 0
    async for chunk in chunks:
        deadline.remaining()
        size += len(chunk)
        if size > _drain_limit():
            break


def _read_final(
    response: httpx.Response, fc: FetchConfig, deadline: _Deadline, hops: int
) -> Fetched:
    _judge_status(response)
    sniff = _judge_type(response.headers.get("content-type"))
    body = _Body(fc.max_bytes)
    for chunk in response.iter_raw():
        deadline.remaining()  # a drip-feed hits this between chunks
        if not body.add(chunk):
            break
    return _finish(response, body, fc, sniff, hops)


async def afetch(url: str, fetch_config: FetchConfig | None = None) -> Fetched:
    """Async twin of :func:`fetch`."""
    fc = fetch_config or DEFAULT_FETCH_CONFIG
    target = check_url(url, fc.allowed_ports)
    deadline = _Deadline(fc.deadline)
    cookies = httpx.Cookies()
    transport = AsyncGuardedTransport(fc, deadline)
    try:
        # fail_after is a second net under the per-operation clamps (e.g. pool waits).
        with anyio.fail_after(fc.deadline + 0.5):
            for hop in range(fc.max_redirects + 1):
                request = _request(target, fc, cookies)
                response = await transport.handle_async_request(request)
                response.request = request
                try:
                    cookies.extract_cookies(response)
                    next_target = _next_hop(response, fc)
                    if next_target is None:
                        return await _aread_final(response, fc, deadline, hop)
                    await _adrain(response.aiter_raw(), deadline)
                finally:
                    await response.aclose()
                target = next_target
    except (httpx.HTTPError, *_TRANSPORT_ERRORS) as exc:
        raise _map_exception(exc) from None
    finally:
        with anyio.CancelScope(shield=True):
            await transport.aclose()
    raise UpstreamTimeout(f"more than {fc.max_redirects} redirects")


async def _aread_final(
    response: httpx.Response, fc: FetchConfig, deadline: _Deadline, hops: int
) -> Fetched:
    _judge_status(response)
    sniff = _judge_type(response.headers.get("content-type"))
    body = _Body(fc.max_bytes)
    async for chunk in response.aiter_raw():
        deadline.remaining()
        if not body.add(chunk):
            break
    return _finish(response, body, fc, sniff, hops)


# ------------------------------------------------------------ the renderer's requests

# Request headers that belong to the browser's own connection, or that the fetcher sets
# itself (it decodes the body, so it says which encodings it can decode).
_BROWSER_DROPPED = frozenset(
    {
        "host",
        "connection",
        "keep-alive",
        "proxy-connection",
        "proxy-authorization",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "content-length",
        "accept-encoding",
    }
)
# Response headers that describe the wire, not the decoded body handed to the browser.
_WIRE_HEADERS = frozenset(
    {"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"}
)
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


@dataclass
class Exchanged:
    """A response for the browser: the final hop's status and headers, the body decoded."""

    url: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes


class PageNetwork:
    """Every request of one rendered page, made by the fetcher instead of the browser.

    ``unchrome.net.browser`` hands each request the browser wants to make to ``exchange``:
    its URL is checked as a user's URL is, its connections go through the guarded
    backend (every resolved address checked, the socket opened to a checked address, so
    DNS rebinding has no window), redirects are followed here with every hop re-checked,
    and the body is capped and decoded. One transport (connections reused across the
    page's requests) and one deadline for the whole page.
    """

    def __init__(self, fc: FetchConfig, seconds: float) -> None:
        self.fc = fc
        self.deadline = _Deadline(seconds)
        self._transport = AsyncGuardedTransport(fc, self.deadline)

    async def exchange(
        self, method: str, url: str, headers: dict[str, str], body: bytes | None
    ) -> Exchanged:
        fc = self.fc
        method = method.upper()
        if method not in _METHODS:
            raise InvalidURL(f"method {method[:20]!r} is not allowed")
        target = check_url(url, fc.allowed_ports)
        sent = {k: v for k, v in headers.items() if k.lower() not in _BROWSER_DROPPED}
        sent["Accept-Encoding"] = _headers(fc)["Accept-Encoding"]
        cookies = httpx.Cookies()
        try:
            for hop in range(fc.max_redirects + 1):
                request = httpx.Request(method, target.url, headers=sent, content=body)
                if hop:
                    cookies.set_cookie_header(request)
                request.extensions["timeout"] = httpx.Timeout(fc.deadline).as_dict()
                response = await self._transport.handle_async_request(request)
                response.request = request
                try:
                    cookies.extract_cookies(response)
                    next_target = _next_hop(response, fc)
                    if next_target is None:
                        return await self._final(response)
                    await _adrain(response.aiter_raw(), self.deadline)
                finally:
                    await response.aclose()
                target = next_target
                status = response.status_code
                # As browsers do: a 303, and a 301/302 answering a POST, become a GET.
                if (status == 303 and method != "HEAD") or (
                    status in (301, 302) and method == "POST"
                ):
                    method, body = "GET", None
                    sent = {k: v for k, v in sent.items() if k.lower() != "content-type"}
                # The browser's credentials were meant for the first host only.
                sent = {
                    k: v for k, v in sent.items() if k.lower() not in ("cookie", "authorization")
                }
        except (httpx.HTTPError, *_TRANSPORT_ERRORS) as exc:
            raise _map_exception(exc) from None
        raise UpstreamTimeout(f"more than {fc.max_redirects} redirects")

    async def _final(self, response: httpx.Response) -> Exchanged:
        body = _Body(self.fc.max_bytes)
        async for chunk in response.aiter_raw():
            self.deadline.remaining()
            if not body.add(chunk):
                # A cut script or JSON is worse than none: the request fails instead.
                raise UnsupportedContent(f"a response over {self.fc.max_bytes} bytes")
        data, cut = decode_body(body.bytes(), response.headers.get("content-encoding"), self.fc)
        if cut:
            raise UnsupportedContent(f"a response over {self.fc.max_decompressed} bytes decoded")
        headers = [
            (k, v) for k, v in response.headers.multi_items() if k.lower() not in _WIRE_HEADERS
        ]
        return Exchanged(str(response.url), response.status_code, headers, data)

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):
            await self._transport.aclose()
