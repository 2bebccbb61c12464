"""Finding a site's pages: the sitemaps robots.txt names (else ``/sitemap.xml``),
sitemap indexes and gzipped sitemaps, the feeds the home page announces, and the home
page's own links as the last resort. ``map_site`` lists them; the crawler starts from
them.

Every URL is normalised (:mod:`unchrome.site.urls`), kept when it is on the start
URL's site, checked by the SSRF guard's URL rules and allowed by robots.txt, and given
once. Sitemaps are bounded: each by :data:`~unchrome.site.sitemap.MAX_SITEMAP_BYTES`
and :data:`~unchrome.site.sitemap.MAX_SITEMAP_URLS`, all by ``max_sitemaps``; an index
that lists itself (or a cycle of them) is read once.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from unchrome.errors import InvalidInput, InvalidURL, UnchromeError
from unchrome.net.fetch import Fetched
from unchrome.net.fetch_config import DEFAULT_FETCH_CONFIG, FetchConfig
from unchrome.net.netguard import check_addresses, check_url, resolve
from unchrome.site import links as page_links
from unchrome.site import sitemap
from unchrome.site.politeness import PoliteFetcher, Politeness
from unchrome.site.urls import normalize, origin_of, site_of

log = logging.getLogger("unchrome.crawl")

MAX_SITEMAPS = 100
# Links to files that are no pages: not fetched only to be refused as UNSUPPORTED_CONTENT.
_NOT_PAGE_EXTENSIONS = (
    "pdf zip gz tgz bz2 xz 7z rar jpg jpeg png gif webp svg ico bmp tif tiff mp3 mp4 m4a "
    "m4v mov avi webm ogg wav flac mkv css js json woff woff2 ttf eot exe dmg apk iso doc "
    "docx xls xlsx ppt pptx csv"
)
_NOT_PAGES = tuple(f".{ext}" for ext in _NOT_PAGE_EXTENSIONS.split())


@dataclass
class Found:
    """What discovery met on the way, for the summary."""

    counts: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def problem(self, where: str, error: UnchromeError | str) -> None:
        text = f"{where}: {error.code}: {error}" if isinstance(error, UnchromeError) else error
        log.warning("%s", text)
        self.counts["problems"] += 1
        if len(self.problems) < 100:
            self.problems.append(text)


class Scope:
    """Which URLs belong to the crawl: same site, allowed port and scheme, robots-allowed;
    each refusal counted."""

    def __init__(self, start: str, fetcher: PoliteFetcher, found: Found) -> None:
        self.site = site_of(start)
        self.fetcher, self.found = fetcher, found

    def admit(self, url: str) -> str | None:
        """The normal form of ``url`` when the crawl may fetch it, else None."""
        normal = normalize(url)
        if normal is None or site_of(normal) != self.site:
            self.found.counts["off_site"] += 1
            return None
        if normal.rsplit("?", 1)[0].lower().endswith(_NOT_PAGES):
            self.found.counts["not_pages"] += 1
            return None
        try:
            check_url(normal, self.fetcher.fc.allowed_ports)
        except InvalidURL as exc:
            self.found.problem(normal, exc)
            self.found.counts["refused"] += 1
            return None
        if not self.fetcher.allowed(normal):
            self.found.counts["robots"] += 1
            return None
        return normal


class Discovery:
    """The discovery steps of one site, each an iterator of admitted URLs."""

    def __init__(
        self,
        start: str,
        fetcher: PoliteFetcher,
        *,
        max_sitemaps: int = MAX_SITEMAPS,
        sitemap_max_bytes: int = sitemap.MAX_SITEMAP_BYTES,
        found: Found | None = None,
    ) -> None:
        self.start = start
        self.fetcher = fetcher
        self.found = found or Found()
        self.scope = Scope(start, fetcher, self.found)
        self.max_sitemaps = max_sitemaps
        self.sitemap_max_bytes = sitemap_max_bytes
        fc = fetcher.fc
        self.sitemap_fc = dataclasses.replace(
            fc, max_bytes=sitemap_max_bytes, max_decompressed=sitemap_max_bytes
        )

    # -- sitemaps

    def sitemap_urls(self) -> list[str]:
        robots = self.fetcher.robots(self.start)
        named = robots.sitemaps or [origin_of(self.start) + "/sitemap.xml"]
        return [u for u in (normalize(s) for s in named) if u and site_of(u) == self.scope.site]

    def from_sitemaps(self) -> Iterator[str]:
        queue = self.sitemap_urls()
        seen: set[str] = set(queue)
        read = 0
        while queue and read < self.max_sitemaps:
            url = queue.pop(0)
            read += 1
            for entry in self._sitemap(url):
                if entry.kind == "page":
                    admitted = self.scope.admit(entry.url)
                    if admitted:
                        yield admitted
                    continue
                child = normalize(entry.url)
                if child and site_of(child) == self.scope.site and child not in seen:
                    seen.add(child)
                    queue.append(child)
                elif child in seen:
                    self.found.counts["sitemap_repeats"] += 1
        if queue:
            self.found.problem(self.start, f"more than {self.max_sitemaps} sitemaps: rest unread")

    def _sitemap(self, url: str) -> Iterator[sitemap.Entry]:
        if not self.fetcher.allowed(url):
            self.found.counts["robots"] += 1
            return
        try:
            answer = self.fetcher.get(url, fetch_config=self.sitemap_fc)
        except UnchromeError as exc:
            self.found.problem(url, exc)
            return
        if answer.status != 200:
            # /sitemap.xml guessed and absent is normal; a named one missing is worth a line.
            self.found.counts["sitemaps_missing"] += 1
            return
        self.found.counts["sitemaps_feeds"] += 1
        yield from self._entries(url, answer)

    def _entries(self, url: str, answer: Fetched) -> Iterator[sitemap.Entry]:
        try:
            yield from sitemap.parse(answer.body, max_bytes=self.sitemap_max_bytes)
        except InvalidInput as exc:
            self.found.problem(url, exc)
        if answer.truncated:
            self.found.problem(url, f"{url}: over {self.sitemap_max_bytes} bytes: cut there")

    # -- feeds and links of a page

    def from_feeds(self, html: bytes, page_url: str) -> Iterator[str]:
        for feed in page_links.feed_links(html, page_url):
            url = normalize(feed)
            if not url or site_of(url) != self.scope.site:
                continue
            for entry in self._sitemap(url):
                admitted = self.scope.admit(entry.url) if entry.kind == "page" else None
                if admitted:
                    yield admitted

    def from_links(self, html: bytes, page_url: str) -> Iterator[str]:
        for target in page_links.page_links(html, page_url):
            admitted = self.scope.admit(target)
            if admitted:
                yield admitted


def guard_start(url: str, fc: FetchConfig) -> str:
    """The start URL, normalised, or the SSRF guard's refusal at once (its scheme, port,
    or the addresses its host resolves to), rather than a crawl that finds nothing."""
    start = normalize(url)
    if start is None:
        raise InvalidURL(f"{url!r} is not an http(s) URL")
    target = check_url(start, fc.allowed_ports)
    check_addresses(
        target.host, resolve(target.host, target.port, fc.resolver), fc.allowed_networks
    )
    return start


def unique(urls: Iterable[str], seen: set[str]) -> Iterator[str]:
    for url in urls:
        if url not in seen:
            seen.add(url)
            yield url


def map_site(
    url: str,
    *,
    limit: int | None = None,
    fetch_config: FetchConfig | None = None,
    politeness: Politeness | None = None,
    sitemap_max_bytes: int = sitemap.MAX_SITEMAP_BYTES,
    max_sitemaps: int = MAX_SITEMAPS,
    found: Found | None = None,
) -> Iterator[str]:
    """The page URLs of ``url``'s site, normalised and each once, at most ``limit``:
    from its sitemaps, the feeds its home page announces, and, when those give nothing,
    the home page's links. Fetches politely (see :class:`Politeness`) and through the
    SSRF guard of ``fetch_config``."""
    if limit is not None and limit < 1:
        raise InvalidInput("limit must be at least 1")
    start = guard_start(url, fetch_config or DEFAULT_FETCH_CONFIG)
    fetcher = PoliteFetcher(fetch_config, politeness)
    discovery = Discovery(
        start,
        fetcher,
        max_sitemaps=max_sitemaps,
        sitemap_max_bytes=sitemap_max_bytes,
        found=found,
    )
    seen: set[str] = set()

    def steps() -> Iterator[str]:
        yield from unique(discovery.from_sitemaps(), seen)
        home = _home(discovery, start)
        if home is None:
            return
        yield from unique(discovery.from_feeds(home.body, home.url), seen)
        if not seen:
            yield from unique(discovery.from_links(home.body, home.url), seen)

    for count, page in enumerate(steps(), 1):
        yield page
        if limit is not None and count >= limit:
            return


def _home(discovery: Discovery, start: str) -> Fetched | None:
    if not discovery.fetcher.allowed(start):
        discovery.found.counts["robots"] += 1
        return None
    try:
        answer = discovery.fetcher.get(start)
    except UnchromeError as exc:
        discovery.found.problem(start, exc)
        return None
    if answer.status != 200:
        discovery.found.problem(start, f"{start}: the home page answered {answer.status}")
        return None
    return answer
