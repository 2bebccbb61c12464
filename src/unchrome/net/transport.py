"""The SSRF seam under httpx. A network backend receives the host name a connection is
for, resolves it once, checks every address (netguard) and opens the socket to one of
those checked addresses, so DNS rebinding has no window; TLS and the Host header still
use the host name. Every socket operation gets at most the time left before the
exchange's one deadline. The guarded transport puts it under httpx's async client; the
synchronous fetch runs the same exchange in an event loop of its own (fetch.fetch), so
there is one network path, not a sync and an async twin."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable
from typing import Any

import anyio
import httpcore
import httpx

from unchrome.errors import (
    ForbiddenAddress,
    UnchromeError,
    UpstreamError,
    UpstreamTimeout,
)
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.netguard import (
    IPAddress,
    check_addresses,
    parse_ip,
    port_refusal,
    resolve,
)


class Deadline:
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


def _inner_backend() -> httpcore.AsyncNetworkBackend:
    """The real socket layer. A module function so tests can route it to a canary."""
    return httpcore.AnyIOBackend()


class _DeadlineStream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream, deadline: Deadline) -> None:
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
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


async def _checked_addresses(
    host: str, port: int, fc: FetchConfig, deadline: Deadline
) -> list[IPAddress]:
    if port not in fc.allowed_ports:
        raise ForbiddenAddress(port_refusal(port))
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


class _GuardedBackend(httpcore.AsyncNetworkBackend):
    def __init__(self, fc: FetchConfig, deadline: Deadline) -> None:
        self._fc = fc
        self._deadline = deadline
        self._inner = _inner_backend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        error: Exception | None = None
        for address in await _checked_addresses(host, port, self._fc, self._deadline):
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
            return _DeadlineStream(stream, self._deadline)
        assert error is not None
        raise error

    async def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        raise ForbiddenAddress("unix sockets are never fetched")

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(min(seconds, self._deadline.remaining()))


# ------------------------------------------------------------------------- transports


def map_exception(exc: Exception) -> UnchromeError:
    if isinstance(exc, UnchromeError):
        return exc
    if isinstance(exc, httpcore.TimeoutException | httpx.TimeoutException | TimeoutError):
        return UpstreamTimeout(f"upstream timed out: {exc.__class__.__name__}")
    if isinstance(exc, httpcore.ConnectError | httpx.ConnectError):
        return UpstreamError(f"cannot connect: {exc}")
    return UpstreamError(f"upstream failed: {exc.__class__.__name__}: {exc}")


TRANSPORT_ERRORS = (
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


class _Stream(httpx.AsyncByteStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._inner:
                yield part
        except TRANSPORT_ERRORS as exc:
            raise map_exception(exc) from None

    async def aclose(self) -> None:
        await self._inner.aclose()


class GuardedTransport(httpx.AsyncBaseTransport):
    def __init__(self, fc: FetchConfig, deadline: Deadline) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=fc.ssl_context or httpx.create_ssl_context(trust_env=False),
            network_backend=_GuardedBackend(fc, deadline),
            retries=0,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            resp = await self._pool.handle_async_request(_core_request(request))
        except TRANSPORT_ERRORS as exc:
            raise map_exception(exc) from None
        return httpx.Response(
            resp.status,
            headers=resp.headers,
            stream=_Stream(resp.stream),
            extensions=resp.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()
