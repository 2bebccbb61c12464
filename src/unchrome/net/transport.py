"""The SSRF seam under httpx. A network backend receives the host name a connection is
for, resolves it once, checks every address (netguard) and opens the socket to one of
those checked addresses, so DNS rebinding has no window; TLS and the Host header still
use the host name. Every socket operation gets at most the time left before the
exchange's one deadline. The guarded transports put it under httpx's sync and async
clients."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import AsyncIterator, Iterable, Iterator
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


def _inner_sync_backend() -> httpcore.NetworkBackend:
    """The real socket layer. A module function so tests can route it to a canary."""
    return httpcore.SyncBackend()


def _inner_async_backend() -> httpcore.AsyncNetworkBackend:
    return httpcore.AnyIOBackend()


class _DeadlineStream(httpcore.NetworkStream):
    """Every read and write gets at most the time left before the deadline."""

    def __init__(self, inner: httpcore.NetworkStream, deadline: Deadline) -> None:
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
        return _AsyncDeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


def _checked_addresses(
    host: str, port: int, fc: FetchConfig, deadline: Deadline
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
    host: str, port: int, fc: FetchConfig, deadline: Deadline
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
    def __init__(self, fc: FetchConfig, deadline: Deadline) -> None:
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
    def __init__(self, fc: FetchConfig, deadline: Deadline) -> None:
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


class _SyncStream(httpx.SyncByteStream):
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._inner
        except TRANSPORT_ERRORS as exc:
            raise map_exception(exc) from None

    def close(self) -> None:
        self._inner.close()


class _AsyncStream(httpx.AsyncByteStream):
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


class GuardedTransport(httpx.BaseTransport):
    """An httpx transport whose every connection goes through the address check."""

    def __init__(self, fc: FetchConfig, deadline: Deadline) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=fc.ssl_context or httpx.create_ssl_context(trust_env=False),
            network_backend=_GuardedBackend(fc, deadline),
            retries=0,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            resp = self._pool.handle_request(_core_request(request))
        except TRANSPORT_ERRORS as exc:
            raise map_exception(exc) from None
        return httpx.Response(
            resp.status,
            headers=resp.headers,
            stream=_SyncStream(resp.stream),
            extensions=resp.extensions,
        )

    def close(self) -> None:
        self._pool.close()


class AsyncGuardedTransport(httpx.AsyncBaseTransport):
    def __init__(self, fc: FetchConfig, deadline: Deadline) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=fc.ssl_context or httpx.create_ssl_context(trust_env=False),
            network_backend=_AsyncGuardedBackend(fc, deadline),
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
            stream=_AsyncStream(resp.stream),
            extensions=resp.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()
