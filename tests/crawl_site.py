"""A made-up site served on 127.0.0.1 for the crawl tests: robots.txt, a sitemap index
(that lists itself), a gzipped sitemap, an RSS feed the home page announces, linked
pages, a disallowed path, validators (ETag, Last-Modified, 304), and a redirect to a
second server on a port the crawl does not allow (which must never see a request)."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def article(title: str, links: list[str] = (), extra: str = "") -> bytes:  # type: ignore[assignment]
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    body = (
        f"<p>{title} is a page of the made-up site. It has a paragraph long enough to be "
        "read as the main content of the page by the extractor, with a few sentences.</p>"
        "<p>A second paragraph says more about the subject, so that the page is an "
        "article and not a stub. Crawlers read it once, and only once.</p>"
    )
    return (
        f"<!doctype html><html><head><title>{title}</title>{extra}</head><body>"
        f"<nav><ul>{anchors}</ul></nav><article><h1>{title}</h1>{body}</article>"
        "</body></html>"
    ).encode()


@dataclass
class Hit:
    path: str
    at: float
    headers: dict[str, str]


Route = Callable[["Handler"], tuple[int, dict[str, str], bytes]]


@dataclass
class Site:
    """A server whose routes map a path (query included) to (status, headers, body)."""

    routes: dict[str, Any] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.server_address[1]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Site:
        site = self

        class _Handler(Handler):
            pass

        _Handler.site = site
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def paths(self) -> list[str]:
        return [h.path for h in self.hits]


class Handler(BaseHTTPRequestHandler):
    site: Site

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.site.hits.append(Hit(self.path, time.monotonic(), dict(self.headers.items())))
        route = self.site.routes.get(self.path)
        if route is None:
            status, headers, body = 404, {"Content-Type": "text/html"}, b"<p>not found</p>"
        elif callable(route):
            status, headers, body = route(self)
        else:
            status, headers, body = route
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if not isinstance(body, bytes):  # an iterator of chunks: streamed, never held whole
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for chunk in body:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


HTML = {"Content-Type": "text/html; charset=utf-8"}
XML = {"Content-Type": "application/xml"}


def page(title: str, links: list[str] = (), etag: str | None = None, extra: str = ""):  # type: ignore[assignment]
    """A page with validators: a 304 when the request carries them."""
    body = article(title, list(links), extra)
    tag = etag or f'"{title}-v1"'
    modified = "Mon, 01 Jun 2026 10:00:00 GMT"

    def route(handler: Handler) -> tuple[int, dict[str, str], bytes]:
        if handler.headers.get("If-None-Match") == tag:
            return 304, {"ETag": tag}, b""
        return 200, {**HTML, "ETag": tag, "Last-Modified": modified}, body

    return route


def make_site(outside_port: int, crawl_delay: float | None = None) -> Site:
    site = Site().start()
    base = site.base
    robots = "User-agent: *\nDisallow: /private/\n"
    if crawl_delay is not None:
        robots += f"Crawl-delay: {crawl_delay}\n"
    robots += f"Sitemap: {base}/sitemap_index.xml\n"
    index = (
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{base}/sitemap-pages.xml.gz</loc></sitemap>"
        f"<sitemap><loc>{base}/sitemap_index.xml</loc></sitemap>"  # itself
        "</sitemapindex>"
    )
    pages = (
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{base}/a</loc></url><url><loc>{base}/b</loc></url>"
        f"<url><loc>{base}/c?utm_source=news&amp;utm_medium=x</loc></url>"
        f"<url><loc>{base}/private/secret</loc></url>"
        f"<url><loc>{base}/redirect-out</loc></url>"
        f"<url><loc>http://elsewhere.example/offsite</loc></url>"
        "</urlset>"
    )
    feed = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
        f"<item><title>e</title><link>{base}/e</link></item></channel></rss>"
    )
    feed_link = f'<link rel="alternate" type="application/rss+xml" href="{base}/feed.xml">'
    site.routes.update(
        {
            "/robots.txt": (200, {"Content-Type": "text/plain"}, robots.encode()),
            "/sitemap_index.xml": (200, XML, index.encode()),
            "/sitemap-pages.xml.gz": (
                200,
                {"Content-Type": "application/x-gzip"},
                gzip.compress(pages.encode()),
            ),
            "/feed.xml": (200, {"Content-Type": "application/rss+xml"}, feed.encode()),
            "/": page(
                "Home",
                ["/a", "/d", "/d#part", "/private/x", "http://elsewhere.example/"],
                extra=feed_link,
            ),
            "/a": page("Page A", ["/f", "/a?utm_campaign=z"]),
            "/b": page("Page B"),
            "/c": page("Page C"),
            "/d": page("Page D"),
            "/e": page("Page E"),
            "/f": page("Page F"),
            "/private/secret": page("Secret"),
            "/private/x": page("Secret X"),
            "/redirect-out": (302, {"Location": f"http://127.0.0.1:{outside_port}/x"}, b""),
        }
    )
    return site


# The pages of make_site a crawl must write, once each.
PAGES = ("/", "/a", "/b", "/c", "/d", "/e", "/f")
