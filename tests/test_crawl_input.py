"""Bad input for map and crawl: each a clear outcome, nothing hangs, nothing is lost."""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator

import pytest

from crawl_site import HTML, XML, Site, article, make_site
from unchrome import FetchConfig, crawl, map_site
from unchrome.errors import InvalidInput
from unchrome.site import sitemap
from unchrome.site.discover import Found
from unchrome.site.politeness import Politeness, product_token, retry_after
from unchrome.site.urls import normalize

POLITE = Politeness(delay=0.01)
URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{}</urlset>'


@pytest.fixture
def site() -> Iterator[Site]:
    s = Site().start()
    s.routes["/robots.txt"] = (404, {}, b"")
    s.routes["/"] = (200, HTML, article("Home", ["/from-home"]))
    yield s
    s.stop()


def guard(site: Site) -> FetchConfig:
    return FetchConfig(allow_addresses=("127.0.0.0/8",), allow_ports=(site.port,))


def mapped(site: Site, found: Found | None = None, **kw: object) -> list[str]:
    return list(
        map_site(site.base, fetch_config=guard(site), politeness=POLITE, found=found, **kw)  # type: ignore[arg-type]
    )


def urlset(site: Site, paths: list[str]) -> bytes:
    return URLSET.format("".join(f"<url><loc>{site.base}{p}</loc></url>" for p in paths)).encode()


def test_normalize_drops_fragment_tracking_default_port_and_host_case() -> None:
    assert normalize("HTTP://Example.COM:80/a/../b?utm_source=x&id=3&fbclid=1#top") == (
        "http://example.com/b?id=3"
    )
    assert normalize("https://example.com:443") == "https://example.com/"
    assert normalize("mailto:someone@example.com") is None
    assert normalize("http://[::1") is None


def test_truncated_sitemap_keeps_the_urls_before_the_break(site: Site) -> None:
    site.routes["/sitemap.xml"] = (200, XML, urlset(site, ["/p1", "/p2"])[:-40])
    found = Found()
    assert mapped(site, found) == [site.base + "/p1"]
    assert any("malformed XML" in p for p in found.problems)


def test_entity_expansion_bomb_is_refused_not_expanded(site: Site) -> None:
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    bomb = (
        f'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY l0 "lol">{lol}]>'
        "<urlset><url><loc>&l9;</loc></url></urlset>"
    )
    site.routes["/sitemap.xml"] = (200, XML, bomb.encode())
    found = Found()
    # Nothing from the bomb; the home page's links are the last resort.
    assert mapped(site, found) == [site.base + "/from-home"]
    assert any("EntitiesForbidden" in p for p in found.problems)


def test_a_100_mb_sitemap_is_read_up_to_the_cap_only(site: Site) -> None:
    entry = f"<url><loc>{site.base}/p/{{}}</loc></url>"

    def huge() -> Iterator[bytes]:  # 100 MB streamed, never built whole
        yield b'<?xml version="1.0"?><urlset>'
        sent, n = 0, 0
        while sent < 100_000_000:
            chunk = "".join(entry.format(n + i) for i in range(1000)).encode()
            n += 1000
            sent += len(chunk)
            yield chunk
        yield b"</urlset>"

    site.routes["/sitemap.xml"] = lambda handler: (200, XML, huge())
    found = Found()
    started = time.monotonic()
    urls = mapped(site, found, sitemap_max_bytes=1 << 20)
    assert time.monotonic() - started < 30
    assert 10_000 < len(urls) < 40_000  # about 1 MiB of entries, not 100 MB
    assert any("over 1048576 bytes" in p for p in found.problems)


def test_a_sitemap_index_listing_itself_is_read_once(site: Site) -> None:
    index = (
        f"<sitemapindex><sitemap><loc>{site.base}/sitemap.xml</loc></sitemap>"
        f"<sitemap><loc>{site.base}/leaf.xml.gz</loc></sitemap></sitemapindex>"
    )
    site.routes["/sitemap.xml"] = (200, XML, index.encode())
    site.routes["/leaf.xml.gz"] = (200, {}, gzip.compress(urlset(site, ["/leaf"])))
    assert mapped(site) == [site.base + "/leaf"]
    assert site.paths().count("/sitemap.xml") == 1


def test_a_feed_that_is_html_is_reported_and_the_crawl_goes_on(site: Site) -> None:
    link = f'<link rel="alternate" type="application/rss+xml" href="{site.base}/feed">'
    site.routes["/"] = (200, HTML, article("Home", ["/from-home"], link))
    site.routes["/feed"] = (200, HTML, article("Not a feed"))
    found = Found()
    assert mapped(site, found) == [site.base + "/from-home"]
    assert any("the document is HTML" in p for p in found.problems)


def test_a_home_page_with_10000_links_maps_fast_and_crawls_within_max_pages(site: Site) -> None:
    links = [f"/item/{n}" for n in range(10_000)]
    site.routes["/"] = (200, HTML, article("Home", links))
    urls = mapped(site)
    assert len(urls) == 10_000 == len(set(urls))
    assert mapped(site, limit=50) == [site.base + p for p in links[:50]]
    rows = list(crawl(site.base, fetch_config=guard(site), politeness=POLITE, max_pages=3))
    assert len(rows) == 3


def test_a_gzip_bomb_sitemap_is_inflated_up_to_the_cap_only() -> None:
    bomb = gzip.compress(b"<urlset>" + b" " * 50_000_000 + b"</urlset>")  # 50 MB in ~50 KB
    with pytest.raises(InvalidInput, match="over 1048576 bytes"):
        list(sitemap.parse(bomb, max_bytes=1 << 20))


def test_a_redirect_to_another_site_gives_no_row(site: Site) -> None:
    site.routes["/"] = (200, HTML, article("Home", ["/away"]))
    away = f"http://localhost:{site.port}/elsewhere"  # the same server, another site
    site.routes["/away"] = (302, {"Location": away}, b"")
    site.routes["/elsewhere"] = (200, HTML, article("Elsewhere"))
    fc = FetchConfig(allow_addresses=("127.0.0.0/8", "::1/128"), allow_ports=(site.port,))
    rows = list(crawl(site.base, fetch_config=fc, politeness=POLITE))
    assert [r["url"] for r in rows] == [site.base + "/"]
    assert "/away" in site.paths()


def test_parse_refuses_an_html_document_and_a_corrupt_gzip() -> None:
    with pytest.raises(InvalidInput, match="HTML"):
        list(sitemap.parse(b"<!DOCTYPE html><html><body>x</body></html>"))
    with pytest.raises(InvalidInput, match="corrupt gzip"):
        list(sitemap.parse(b"\x1f\x8b" + b"garbage" * 10))
    with pytest.raises(InvalidInput):  # cut short: what it held is malformed XML
        list(sitemap.parse(gzip.compress(b"<urlset>" * 100)[:40]))


# ------------------------------------------------------------------ robots.txt, RFC 9309


def test_robots_4xx_allows_everything(site: Site) -> None:
    site.routes["/robots.txt"] = (403, {}, b"")
    assert mapped(site) == [site.base + "/from-home"]


def test_robots_5xx_disallows_everything_and_the_crawl_stops(site: Site) -> None:
    site.routes["/robots.txt"] = (503, {}, b"")
    assert mapped(site) == []
    assert list(crawl(site.base, fetch_config=guard(site), politeness=POLITE)) == []
    assert "/" not in site.paths()


def test_robots_groups_match_the_product_token_not_the_whole_user_agent(site: Site) -> None:
    site.routes["/"] = (200, HTML, article("Home", ["/open", "/closed"]))
    robots = b"User-agent: mozilla\nDisallow: /\n\nUser-agent: unchrome\nDisallow: /closed\n"
    site.routes["/robots.txt"] = (200, {"Content-Type": "text/plain"}, robots)
    assert mapped(site) == [site.base + "/open"]
    assert product_token("MyBot/2.0 (+https://example.com/bot)") == "mybot"
    assert product_token(Politeness().user_agent) == "unchrome"


def test_robots_txt_is_read_up_to_500_kib_only(site: Site) -> None:
    # A Disallow past 500 KiB of comments is not read: everything is allowed.
    robots = b"User-agent: *\n" + b"# filler\n" * 60_000 + b"Disallow: /\n"
    site.routes["/robots.txt"] = (200, {"Content-Type": "text/plain"}, robots)
    assert mapped(site) == [site.base + "/from-home"]


def test_429_with_retry_after_is_waited_for_then_asked_again(site: Site) -> None:
    answers = iter([(429, {"Retry-After": "1"}, b""), (200, HTML, article("Late"))])
    site.routes["/"] = lambda handler: next(answers)
    rows = list(crawl(site.base, fetch_config=guard(site), politeness=POLITE, max_depth=0))
    assert [r["status"] for r in rows] == ["ok"]
    times = [h.at for h in site.hits if h.path == "/"]
    assert len(times) == 2 and times[1] - times[0] >= 0.95


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after("7") == 7.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert retry_after("soon") is None


def test_an_internal_address_in_a_sitemap_is_never_listed(site: Site) -> None:
    sm = URLSET.format("<url><loc>http://169.254.169.254/latest/meta-data</loc></url>")
    site.routes["/sitemap.xml"] = (200, XML, sm.encode())
    found = Found()
    assert "169.254" not in " ".join(mapped(site, found))
    assert found.counts["off_site"] >= 1


def test_make_site_index_listing_itself_is_fetched_once() -> None:
    outside = Site().start()
    s = make_site(outside.port)
    try:
        fc = FetchConfig(allow_addresses=("127.0.0.0/8",), allow_ports=(s.port,))
        list(map_site(s.base, fetch_config=fc, politeness=POLITE))
        assert s.paths().count("/sitemap_index.xml") == 1
    finally:
        s.stop()
        outside.stop()
