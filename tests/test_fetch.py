"""The fetcher's guards, attacked one by one. Offline: all traffic stays on loopback.

Conventions: ``public`` is a local server that a test *opts in* as if it were a public
host (``allow_addresses=("127.0.0.1/32",)``); the ``canary`` is a server that a refused
request would have reached. Every refused case asserts the canary saw nothing.
"""

from __future__ import annotations

import asyncio
import gzip
import ipaddress
import shutil
import ssl
import subprocess
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpcore
import pytest

from net.servers import LocalServer, close_delimited, drip, page, redirect, respond
from unchrome.errors import (
    BlockedBySite,
    ForbiddenAddress,
    InvalidInput,
    InvalidURL,
    PageNotFound,
    UnsupportedContent,
    UpstreamError,
    UpstreamTimeout,
)
from unchrome.net import transport as transport_mod
from unchrome.net.fetch import afetch, fetch
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.netguard import address_refusal, parse_ip
from unchrome.net.remote import aread, read

ARTICLE = (
    b"<!doctype html><html><head><title>A story</title></head><body><article>"
    b"<h1>A story</h1>"
    + b"<p>This is a paragraph of the story with enough words to count.</p>" * 8
    + b"</article></body></html>"
)
OPT_IN = ("127.0.0.1/32",)


@pytest.fixture
def public() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        yield server


@pytest.fixture
def canary() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        server.routes["*"] = page(ARTICLE)
        yield server


def cfg(*servers: LocalServer, opt_in: bool = True, **kw: Any) -> FetchConfig:
    ports = tuple(s.port for s in servers)
    return FetchConfig(allow_ports=ports, allow_addresses=OPT_IN if opt_in else (), **kw)


def names(mapping: dict[str, list[str]], calls: list[str] | None = None) -> Any:
    """An injectable resolver: test host names -> chosen addresses, nothing else."""

    def resolver(host: str, port: int) -> list[str]:
        if calls is not None:
            calls.append(host)
        if host not in mapping:
            raise OSError(f"test resolver: unknown host {host}")
        return mapping[host]

    return resolver


# ------------------------------------------------------------------ address classes

FORBIDDEN = {
    "127.0.0.1": "loopback",
    "127.8.9.10": "loopback",
    "10.1.2.3": "private",
    "172.16.0.1": "private",
    "192.168.1.1": "private",
    "169.254.169.254": "link-local",  # cloud metadata
    "100.64.0.1": "carrier-grade NAT",
    "100.127.255.254": "carrier-grade NAT",
    "224.0.0.1": "multicast",
    "239.255.255.250": "multicast",
    "240.0.0.1": "reserved",
    "255.255.255.255": "reserved",
    "0.0.0.0": "unspecified",
    "198.18.0.1": "benchmarking",
    "192.0.2.1": "documentation",
    "::1": "loopback",
    "::": "unspecified",
    "fe80::1": "link-local",
    "fc00::1": "unique local",
    "fd12:3456::1": "unique local",
    "ff02::1": "multicast",
    "::ffff:127.0.0.1": "loopback (IPv4-mapped",
    "::ffff:169.254.169.254": "link-local (IPv4-mapped",
    "64:ff9b::7f00:1": "loopback (NAT64",
    "64:ff9b::a00:1": "private (NAT64",
    "2002:7f00:1::": "loopback (6to4",
    "2002:a9fe:a9fe::1": "link-local (6to4",
    "::127.0.0.1": "loopback (IPv4-compatible",
    "::10.0.0.1": "private (IPv4-compatible",
    # Teredo: server 65.54.227.120, client 127.0.0.1 (obfuscated: ~0x7f000001)
    "2001:0:4136:e378:8000:63bf:80ff:fffe": "loopback (Teredo client",
}
PUBLIC = ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"]


@pytest.mark.parametrize("address, reason", FORBIDDEN.items())
def test_address_table_refuses_each_class(address: str, reason: str) -> None:
    got = address_refusal(ipaddress.ip_address(address))
    assert got is not None and got.startswith(reason), got


@pytest.mark.parametrize("address", PUBLIC)
def test_address_table_allows_public(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address)) is None


def test_python_quirks_that_the_table_does_not_rely_on() -> None:
    # Why the table is explicit: on 3.11 these two would slip through is_private/is_global.
    assert not ipaddress.ip_address("100.64.0.1").is_private
    assert address_refusal(ipaddress.ip_address("100.64.0.1")) == "carrier-grade NAT"
    assert address_refusal(ipaddress.ip_address("224.0.0.1")) == "multicast"


@pytest.mark.parametrize("text, expected", [
    ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"),
    ("127.1", "127.0.0.1"), ("0", "0.0.0.0"), ("[::1]", "::1"), ("fe80::1%eth0", "fe80::1"),
    ("example.com", None), ("cafe", None),
])  # fmt: skip
def test_numeric_host_forms_are_parsed_without_lookup(text: str, expected: str | None) -> None:
    got = parse_ip(text)
    assert (str(got) if got else None) == expected


class RoutingBackend(httpcore.AsyncNetworkBackend):
    """Stands in for the whole network: any address connects to the canary."""

    def __init__(self, canary: LocalServer) -> None:
        self.canary = canary
        self.connected: list[str] = []

    async def connect_tcp(
        self, host: str, port: int, *args: Any, **kw: Any
    ) -> httpcore.AsyncNetworkStream:
        self.connected.append(host)
        inner = httpcore.AnyIOBackend()
        return await inner.connect_tcp("127.0.0.1", self.canary.port, *args, **kw)


@pytest.fixture
def routed(canary: LocalServer, monkeypatch: pytest.MonkeyPatch) -> RoutingBackend:
    backend = RoutingBackend(canary)
    monkeypatch.setattr(transport_mod, "_inner_backend", lambda: backend)
    return backend


def test_routing_backend_does_reach_the_canary(routed: RoutingBackend, canary: LocalServer) -> None:
    # Control for the test below: a public address *is* delivered to the canary.
    conf = cfg(canary, opt_in=False, resolver=names({"site.test": ["93.184.215.14"]}))
    got = fetch(f"http://site.test:{canary.port}/", conf)
    assert got.status == 200 and routed.connected == ["93.184.215.14"]
    assert canary.requests == [("/", f"site.test:{canary.port}")]


@pytest.mark.parametrize("address", FORBIDDEN)
def test_each_forbidden_class_is_refused_before_connect(
    address: str, routed: RoutingBackend, canary: LocalServer
) -> None:
    conf = cfg(canary, opt_in=False, resolver=names({"evil.test": [address]}))
    with pytest.raises(ForbiddenAddress):
        fetch(f"http://evil.test:{canary.port}/", conf)
    assert routed.connected == [] and canary.requests == []


def test_one_bad_address_among_good_ones_refuses_all(
    routed: RoutingBackend, canary: LocalServer
) -> None:
    conf = cfg(canary, opt_in=False, resolver=names({"mix.test": ["8.8.8.8", "10.0.0.1"]}))
    with pytest.raises(ForbiddenAddress):
        fetch(f"http://mix.test:{canary.port}/", conf)
    assert routed.connected == [] and canary.requests == []


@pytest.mark.parametrize("host", [
    "127.0.0.1", "2130706433", "0x7f.1", "127.1", "0", "[::ffff:127.0.0.1]", "[::1]",
    "localhost", "LOCALHOST",
])  # fmt: skip
def test_loopback_spellings_are_refused(host: str, canary: LocalServer) -> None:
    # The canary really listens on 127.0.0.1: a missed check would reach it.
    conf = cfg(canary, opt_in=False)
    with pytest.raises(ForbiddenAddress):
        fetch(f"http://{host}:{canary.port}/", conf)
    assert canary.requests == []


def test_octal_loopback_is_rejected_by_the_url_parser(canary: LocalServer) -> None:
    # httpx refuses "0177.0.0.1" outright; were it to pass, the address check would run.
    with pytest.raises(InvalidURL):
        fetch(f"http://0177.0.0.1:{canary.port}/", cfg(canary, opt_in=False))
    assert canary.requests == []


def test_loopback_is_fetched_only_with_the_opt_in(canary: LocalServer) -> None:
    got = fetch(canary.url("/"), cfg(canary, opt_in=True))
    assert got.status == 200 and b"A story" in got.body
    assert len(canary.requests) == 1


def test_the_sync_fetch_works_inside_a_running_event_loop(canary: LocalServer) -> None:
    # fetch runs afetch in an event loop of its own; loops do not nest, so a caller
    # already inside one (a notebook, an async app calling the sync API) gets a thread.
    async def inside() -> bytes:
        return fetch(canary.url("/"), cfg(canary, opt_in=True)).body

    assert b"A story" in anyio.run(inside)
    with pytest.raises(ForbiddenAddress):
        anyio.run(lambda: _fetch_async_caller(canary))
    assert len(canary.requests) == 1


async def _fetch_async_caller(canary: LocalServer) -> None:
    fetch(canary.url("/"), cfg(canary, opt_in=False))


def test_async_refuses_the_same(canary: LocalServer) -> None:
    with pytest.raises(ForbiddenAddress):
        asyncio.run(afetch(canary.url("/"), cfg(canary, opt_in=False)))
    assert canary.requests == []


# ------------------------------------------------------------------------ URL checks


@pytest.mark.parametrize("url", [
    "ftp://example.com/", "file:///etc/passwd", "gopher://example.com/", "javascript:alert(1)",
    "data:text/html,<p>x</p>", "//example.com/", "example.com", "http:///nohost",
    "http://example.com:8080/", "https://example.com:22/",
    "http://user:pw@example.com/", "http://example.com@127.0.0.1/", "http://a@b@c/",
    "http://example.com\\@127.0.0.1/", "http://exa mple.com/", "http://example.com/\r\nX: y",
])  # fmt: skip
def test_bad_urls_are_invalid(url: str) -> None:
    with pytest.raises(InvalidURL):
        fetch(url)


def test_userinfo_trick_never_reaches_the_canary(canary: LocalServer) -> None:
    conf = cfg(canary, opt_in=True, resolver=names({"trusted.test": ["127.0.0.1"]}))
    with pytest.raises(InvalidURL):
        fetch(f"http://trusted.test@127.0.0.1:{canary.port}/", conf)
    assert canary.requests == []


def test_fragment_at_trick_goes_to_the_real_host(canary: LocalServer) -> None:
    # "http://127.0.0.1:P#@trusted.test/" is a request to 127.0.0.1: refused.
    conf = cfg(canary, opt_in=False, resolver=names({"trusted.test": ["8.8.8.8"]}))
    with pytest.raises(ForbiddenAddress):
        fetch(f"http://127.0.0.1:{canary.port}#@trusted.test/", conf)
    assert canary.requests == []


def test_idn_host_is_resolved_and_sent_as_punycode(public: LocalServer) -> None:
    public.routes["/"] = page(ARTICLE)
    calls: list[str] = []
    conf = cfg(public, resolver=names({"xn--bcher-kva.test": ["127.0.0.1"]}, calls))
    got = fetch(f"http://bücher.test:{public.port}/", conf)
    assert got.status == 200 and calls == ["xn--bcher-kva.test"]
    assert public.requests == [("/", f"xn--bcher-kva.test:{public.port}")]


def test_fetch_config_is_validated() -> None:
    for bad in ({"allow_ports": (0,)}, {"deadline": 0}, {"max_bytes": -1},
                {"allow_addresses": ("not-a-net",)}, {"user_agent": "x\r\nEvil: 1"},
                {"max_redirects": 99}):  # fmt: skip
        with pytest.raises(InvalidInput):
            FetchConfig(**bad)


# ------------------------------------------------------------------------- redirects


def test_redirect_public_to_internal_is_refused(canary: LocalServer) -> None:
    with LocalServer("127.0.0.2") as internal:
        internal.routes["*"] = page(ARTICLE)
        with LocalServer("127.0.0.1") as public:
            public.routes["/"] = redirect(internal.url("/admin"))
            with pytest.raises(ForbiddenAddress):
                fetch(public.url("/"), cfg(public, internal))
            assert public.requests and internal.requests == []


def test_redirect_to_internal_name_is_refused(public: LocalServer, canary: LocalServer) -> None:
    public.routes["/"] = redirect(f"http://metadata.test:{canary.port}/latest/meta-data/")
    conf = cfg(public, canary, resolver=names({"metadata.test": ["169.254.169.254"]}))
    with pytest.raises(ForbiddenAddress):
        fetch(public.url("/"), conf)
    assert canary.requests == []


@pytest.mark.parametrize("location", [
    "file:///etc/passwd", "gopher://127.0.0.1:70/_x", "data:text/html,<h1>hi</h1>",
    "ftp://example.com/", "http://user@example.com/",
])  # fmt: skip
def test_redirect_to_refused_scheme(location: str, public: LocalServer) -> None:
    public.routes["/"] = redirect(location)
    with pytest.raises(ForbiddenAddress):
        fetch(public.url("/"), cfg(public))


def test_redirect_to_unlisted_port_is_refused(public: LocalServer, canary: LocalServer) -> None:
    public.routes["/"] = redirect(canary.url("/"))  # canary's port is not allowed here
    with pytest.raises(ForbiddenAddress):
        fetch(public.url("/"), cfg(public))
    assert canary.requests == []


def test_redirect_loop_is_upstream_timeout(public: LocalServer) -> None:
    public.routes["/loop"] = redirect("/loop")
    with pytest.raises(UpstreamTimeout) as info:
        fetch(public.url("/loop"), cfg(public))
    assert info.value.retryable and len(public.requests) == 4  # the first + 3 redirects


def test_three_redirects_are_followed(public: LocalServer) -> None:
    public.routes.update({"/a": redirect("/b", 301), "/b": redirect("/c", 307),
                          "/c": redirect("/d", 308), "/d": page(ARTICLE)})  # fmt: skip
    got = fetch(public.url("/a"), cfg(public))
    assert got.url.endswith("/d") and got.redirects == 3 and b"A story" in got.body


def test_rebinding_second_lookup_is_checked_again(canary: LocalServer) -> None:
    # The name answers public (opted-in 127.0.0.1) first and internal (127.0.0.2) next;
    # the redirect closes the connection so the second hop needs a new connection.
    with LocalServer("127.0.0.1") as public, LocalServer("127.0.0.2", public.port) as internal:
        internal.routes["*"] = page(ARTICLE)
        public.routes["/"] = redirect("/next", close=True)
        answers = iter([["127.0.0.1"], ["127.0.0.2"]])
        calls: list[str] = []

        def rebinding(host: str, port: int) -> list[str]:
            calls.append(host)
            return next(answers)

        with pytest.raises(ForbiddenAddress):
            fetch(f"http://rebind.test:{public.port}/", cfg(public, resolver=rebinding))
        assert calls == ["rebind.test", "rebind.test"]  # one lookup per connection
        assert internal.requests == [] and len(public.requests) == 1


def test_the_checked_address_is_the_one_connected(public: LocalServer) -> None:
    # A resolver that would answer internal on any second call: success with a single
    # call proves the socket went to the checked answer, not to a fresh lookup.
    public.routes["/"] = page(ARTICLE)
    answers = iter([["127.0.0.1"], ["10.0.0.1"]])
    calls: list[str] = []

    def once(host: str, port: int) -> list[str]:
        calls.append(host)
        return next(answers)

    got = fetch(f"http://once.test:{public.port}/", cfg(public, resolver=once))
    assert got.status == 200 and calls == ["once.test"]


# ------------------------------------------------------------------------------ caps


def test_five_mib_body_is_cut_at_four_on_the_wire(public: LocalServer) -> None:
    public.routes["/big"] = close_delimited(b"<html><body><p>" + b"x" * (5 * 1024 * 1024))
    got = fetch(public.url("/big"), cfg(public))
    assert got.truncated and len(got.body) == 4 * 1024 * 1024


def test_drip_fed_body_hits_the_total_deadline(public: LocalServer) -> None:
    public.routes["/drip"] = drip(interval=0.05, limit=4.0)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        fetch(public.url("/drip"), cfg(public, deadline=0.6))
    assert time.monotonic() - started < 2.0


def test_drip_fed_headers_hit_the_total_deadline(public: LocalServer) -> None:
    public.routes["/drip"] = drip(interval=0.05, limit=4.0, in_headers=True)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        fetch(public.url("/drip"), cfg(public, deadline=0.6))
    assert time.monotonic() - started < 2.0


def test_async_drip_hits_the_deadline(public: LocalServer) -> None:
    public.routes["/drip"] = drip(interval=0.05, limit=4.0)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        asyncio.run(afetch(public.url("/drip"), cfg(public, deadline=0.6)))
    assert time.monotonic() - started < 2.0


def _bomb(size: int = 64 * 1024 * 1024) -> bytes:
    comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * (1024 * 1024)
    return b"".join(comp.compress(block) for _ in range(size // len(block))) + comp.flush()


def test_gzip_bomb_is_bounded(public: LocalServer) -> None:
    bomb = _bomb()
    public.routes["/bomb"] = page(bomb, Content_Encoding="gzip")
    conf = cfg(public, max_decompressed=1024 * 1024)
    got = fetch(public.url("/bomb"), conf)
    assert len(bomb) < 100_000 and got.truncated and len(got.body) == 1024 * 1024


def test_gzip_in_gzip_is_bounded_at_each_layer(public: LocalServer) -> None:
    public.routes["/bomb2"] = page(gzip.compress(_bomb()), Content_Encoding="gzip, gzip")
    got = fetch(public.url("/bomb2"), cfg(public, max_decompressed=1024 * 1024))
    assert got.truncated and len(got.body) == 1024 * 1024


def test_gzip_hidden_in_one_gzip_label_is_refused(public: LocalServer) -> None:
    public.routes["/x"] = page(gzip.compress(gzip.compress(ARTICLE)), Content_Encoding="gzip")
    with pytest.raises(UnsupportedContent):
        fetch(public.url("/x"), cfg(public))


def test_too_many_stacked_encodings_are_refused(public: LocalServer) -> None:
    body = gzip.compress(gzip.compress(gzip.compress(ARTICLE)))
    public.routes["/x"] = page(body, Content_Encoding="gzip, gzip, gzip")
    with pytest.raises(UnsupportedContent):
        fetch(public.url("/x"), cfg(public))


def test_gzip_and_deflate_are_decoded(public: LocalServer) -> None:
    public.routes["/g"] = page(gzip.compress(ARTICLE), Content_Encoding="gzip")
    public.routes["/d"] = page(zlib.compress(ARTICLE), Content_Encoding="deflate")
    raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    public.routes["/r"] = page(raw.compress(ARTICLE) + raw.flush(), Content_Encoding="deflate")
    for path in ("/g", "/d", "/r"):
        assert fetch(public.url(path), cfg(public)).body == ARTICLE


# --------------------------------------------------------------------- content types


@pytest.mark.parametrize("ctype", ["application/pdf", "image/png", "application/json",
                                   "video/mp4", "application/zip"])  # fmt: skip
def test_wrong_content_type_is_refused_before_the_body(ctype: str, public: LocalServer) -> None:
    # The body drips for seconds: refusing fast proves the body was never read.
    public.routes["/f"] = drip(interval=0.05, limit=3.0, content_type=ctype)
    started = time.monotonic()
    with pytest.raises(UnsupportedContent):
        fetch(public.url("/f"), cfg(public))
    assert time.monotonic() - started < 1.0


def test_html_served_as_text_plain_is_sniffed(public: LocalServer) -> None:
    public.routes["/html"] = page(ARTICLE, content_type="text/plain")
    public.routes["/none"] = page(ARTICLE, content_type=None)
    public.routes["/text"] = page(b"just some words, not markup", content_type="text/plain")
    assert fetch(public.url("/html"), cfg(public)).status == 200
    assert fetch(public.url("/none"), cfg(public)).status == 200
    with pytest.raises(UnsupportedContent):
        fetch(public.url("/text"), cfg(public))


# ------------------------------------------------------------------- upstream status


@pytest.mark.parametrize("status, error, retryable", [
    (404, PageNotFound, False), (410, PageNotFound, False), (429, UpstreamError, True),
    (500, UpstreamError, True), (503, UpstreamError, True), (403, BlockedBySite, False),
    (401, BlockedBySite, False), (408, UpstreamTimeout, True),
])  # fmt: skip
def test_upstream_status_mapping(
    status: int, error: type[Exception], retryable: bool, public: LocalServer
) -> None:
    public.routes["/s"] = page(b"<html><body>status page</body></html>", status=status)
    with pytest.raises(error) as info:
        fetch(public.url("/s"), cfg(public))
    assert info.value.retryable is retryable  # type: ignore[attr-defined]


def test_challenge_header_is_a_bot_wall(public: LocalServer) -> None:
    public.routes["/cf"] = page(b"<html><title>Just a moment...</title></html>", status=503,
                                cf_mitigated="challenge")  # fmt: skip
    with pytest.raises(BlockedBySite):
        fetch(public.url("/cf"), cfg(public))


def test_connection_refused_is_upstream_error() -> None:
    with LocalServer("127.0.0.1") as gone:
        port = gone.port
    with pytest.raises(UpstreamError):
        fetch(f"http://127.0.0.1:{port}/", FetchConfig(allow_ports=(port,),
                                                       allow_addresses=OPT_IN))  # fmt: skip


def test_server_closing_mid_headers_is_upstream_error(public: LocalServer) -> None:
    def broken(req: Any) -> None:
        req.wfile.write(b"HTTP/1.1 200 OK\r\nContent-")
        req.close_connection = True

    public.routes["/b"] = broken
    with pytest.raises(UpstreamError):
        fetch(public.url("/b"), cfg(public))


def test_async_fetch_follows_redirects_and_reads(public: LocalServer) -> None:
    public.routes.update({"/a": redirect("/b"), "/b": page(gzip.compress(ARTICLE),
                                                            Content_Encoding="gzip")})  # fmt: skip
    got = asyncio.run(afetch(public.url("/a"), cfg(public)))
    assert got.body == ARTICLE and got.redirects == 1


def test_same_origin_redirect_reuses_the_checked_connection(public: LocalServer) -> None:
    # Two requests over one pooled connection: the second hop does no new lookup.
    public.routes.update({"/a": redirect("/b"), "/b": lambda r: respond(r, 200, ARTICLE)})
    calls: list[str] = []
    conf = cfg(public, resolver=names({"keep.test": ["127.0.0.1"]}, calls))
    fetch(f"http://keep.test:{public.port}/a", conf)
    assert calls == ["keep.test"]


# ------------------------------------------------------------- read(): fetch + extract

BOT_WALL = (
    b'<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body>'
    b"<h1>www.example.com</h1><h2>Checking if the site connection is secure</h2>"
    b"<noscript>Enable JavaScript and cookies to continue</noscript></body></html>"
)
FEED = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Example Log</title>
<link href="https://example.com/"/><updated>2024-03-01T10:00:00Z</updated>
<entry><title>Second post</title><link href="https://example.com/2"/>
<updated>2024-03-01T10:00:00Z</updated><summary>More words here.</summary></entry>
<entry><title>First post</title><link href="https://example.com/1"/>
<updated>2024-02-01T10:00:00Z</updated><summary>Hello world.</summary></entry>
</feed>"""


def test_read_returns_the_article_with_the_final_url(public: LocalServer) -> None:
    public.routes.update({"/old": redirect("/story"), "/story": page(ARTICLE)})
    result = read(public.url("/old"), fetch_config=cfg(public))
    assert result.title == "A story" and "paragraph of the story" in result.markdown
    assert result.url == public.url("/story") and not result.truncated


def test_read_marks_a_wire_truncated_page(public: LocalServer) -> None:
    filler = b"<p>" + b"word " * 200 + b"</p>"
    body = ARTICLE.replace(b"</article>", filler * 5000 + b"</article>")
    public.routes["/long"] = close_delimited(body)
    result = read(public.url("/long"), fetch_config=cfg(public))
    assert result.truncated and result.title == "A story"


def test_read_bot_wall_page_is_blocked(public: LocalServer) -> None:
    public.routes["/wall"] = page(BOT_WALL)
    with pytest.raises(BlockedBySite) as info:
        read(public.url("/wall"), fetch_config=cfg(public))
    assert info.value.http_status == 403 and not info.value.retryable


def test_read_feed_lists_entries(public: LocalServer) -> None:
    public.routes["/feed"] = page(FEED, content_type="application/atom+xml")
    result = read(public.url("/feed"), fetch_config=cfg(public))
    assert result.kind == "feed" and result.title == "Example Log"
    assert "- [Second post](https://example.com/2) — 2024-03-01" in result.markdown


def test_aread_matches_read(public: LocalServer) -> None:
    public.routes["/story"] = page(ARTICLE)
    result = asyncio.run(aread(public.url("/story"), fetch_config=cfg(public)))
    assert result.title == "A story" and "paragraph of the story" in result.markdown


# ------------------------------------------------------------------------------- TLS


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for secure.test, made with the openssl tool."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl tool not available")
    folder = tmp_path_factory.mktemp("tls")
    key, crt = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(crt), "-days", "2", "-subj", "/CN=secure.test",
         "-addext", "subjectAltName=DNS:secure.test"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    return crt, key


@pytest.fixture
def tls_server(cert: tuple[Path, Path]) -> Iterator[LocalServer]:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(*cert)
    with LocalServer("127.0.0.1", tls=ctx) as server:
        server.routes["/"] = page(ARTICLE)
        yield server


def test_tls_uses_the_host_name_while_connecting_to_the_checked_address(
    tls_server: LocalServer, cert: tuple[Path, Path]
) -> None:
    trust = ssl.create_default_context(cafile=str(cert[0]))
    resolver = names({"secure.test": ["127.0.0.1"], "other.test": ["127.0.0.1"]})
    conf = cfg(tls_server, resolver=resolver, ssl_context=trust)
    got = fetch(f"https://secure.test:{tls_server.port}/", conf)
    assert got.status == 200 and tls_server.sni == ["secure.test"]
    assert tls_server.requests == [("/", f"secure.test:{tls_server.port}")]
    # Same address, other name: the certificate does not match that name -> refused.
    with pytest.raises(UpstreamError):
        fetch(f"https://other.test:{tls_server.port}/", conf)
    assert len(tls_server.requests) == 1
