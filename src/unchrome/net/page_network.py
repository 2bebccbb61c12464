"""The headless browser's requests, made by the fetcher instead of the browser
(PageNetwork): each URL checked as a user's is, redirects followed here with every hop
re-checked, bodies capped and decoded, one transport and one deadline per page."""

from __future__ import annotations

from dataclasses import dataclass

import anyio
import httpx

from unchrome.errors import (
    InvalidURL,
    UnsupportedContent,
    UpstreamTimeout,
)
from unchrome.net.fetch import Body, adrain, decode_body, next_hop, request_headers
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.netguard import (
    check_url,
)
from unchrome.net.transport import (
    TRANSPORT_ERRORS,
    Deadline,
    GuardedTransport,
    map_exception,
)

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
        self.deadline = Deadline(seconds)
        self._transport = GuardedTransport(fc, self.deadline)

    async def exchange(
        self, method: str, url: str, headers: dict[str, str], body: bytes | None
    ) -> Exchanged:
        fc = self.fc
        method = method.upper()
        if method not in _METHODS:
            raise InvalidURL(f"method {method[:20]!r} is not allowed")
        target = check_url(url, fc.allowed_ports)
        sent = {k: v for k, v in headers.items() if k.lower() not in _BROWSER_DROPPED}
        sent["Accept-Encoding"] = request_headers(fc)["Accept-Encoding"]
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
                    next_target = next_hop(response, fc)
                    if next_target is None:
                        return await self._final(response)
                    await adrain(response.aiter_raw(), self.deadline)
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
        except (httpx.HTTPError, *TRANSPORT_ERRORS) as exc:
            raise map_exception(exc) from None
        raise UpstreamTimeout(f"more than {fc.max_redirects} redirects")

    async def _final(self, response: httpx.Response) -> Exchanged:
        body = Body(self.fc.max_bytes)
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
