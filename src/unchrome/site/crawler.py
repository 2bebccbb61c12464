"""The crawl: discover a site's pages, then fetch them breadth-first, extract each into
one batch row (the rows of ``unchrome warc``), and follow their same-site links.

One request at a time (the crawler is one loop: per-host serial by construction), every
request through :class:`~unchrome.site.politeness.PoliteFetcher` (robots.txt, delays,
``Retry-After``) and so through the SSRF guard of ``net/fetch.py``, every step
committed in :class:`~unchrome.site.state.State`.

Extraction runs in this process, one page at a time: a crawl waits on the network and
on its politeness delay far longer than on the extractor (``unchrome warc`` is the tool
for extraction on every core).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unchrome.config import Config
from unchrome.errors import ForbiddenAddress, InvalidInput, InvalidURL, UnchromeError
from unchrome.net.fetch import Fetched, judge_page
from unchrome.net.fetch_config import DEFAULT_FETCH_CONFIG, FetchConfig
from unchrome.scale.batch import Row, extract_page, failed_row
from unchrome.scale.warc import Page
from unchrome.schema import CONTENT_FORMATS
from unchrome.site import sitemap
from unchrome.site.discover import Discovery, Found, guard_start
from unchrome.site.politeness import PoliteFetcher, Politeness
from unchrome.site.state import Item, State, open_state
from unchrome.site.urls import normalize, site_of

log = logging.getLogger("unchrome.crawl")

DEFAULT_MAX_DEPTH = 5


@dataclass(frozen=True)
class CrawlOptions:
    max_pages: int | None = None  # rows this pass, ok or failed
    max_depth: int = DEFAULT_MAX_DEPTH  # link hops from the start page (sitemaps: 1)
    recrawl: bool = False  # a finished crawl is asked again, with its validators
    fmt: str = "both"  # content columns: both, markdown, text
    sitemap_max_bytes: int = sitemap.MAX_SITEMAP_BYTES

    def __post_init__(self) -> None:
        if self.max_pages is not None and self.max_pages < 1:
            raise InvalidInput("max_pages must be at least 1")
        if self.max_depth < 0:
            raise InvalidInput("max_depth must be 0 or more")
        if self.fmt not in CONTENT_FORMATS:
            raise InvalidInput(f"format must be one of {', '.join(CONTENT_FORMATS)}")


Progress = Callable[[str, int], None]  # (counter name, increment)


class Crawler:
    """One crawl of one site over one :class:`State`; :meth:`run` yields its rows."""

    def __init__(
        self,
        url: str,
        state: State,
        *,
        config: Config | None = None,
        fetch_config: FetchConfig | None = None,
        politeness: Politeness | None = None,
        options: CrawlOptions | None = None,
        progress: Progress | None = None,
    ) -> None:
        fc = fetch_config or DEFAULT_FETCH_CONFIG
        start = guard_start(url, fc)
        self.start, self.state = start, state
        self.config = config or Config()
        self.options = options or CrawlOptions()
        self.fetcher = PoliteFetcher(fc, politeness)
        self.found = Found()
        self.discovery = Discovery(
            start, self.fetcher, sitemap_max_bytes=self.options.sitemap_max_bytes, found=self.found
        )
        self.stats: Counter[str] = Counter()
        self._progress = progress
        self._extractor: Any = None
        self.stopped: str | None = None  # why the run stopped early, if it did

    def _count(self, name: str, n: int = 1) -> None:
        self.stats[name] += n
        if self._progress is not None:
            self._progress(name, n)

    # -- the run

    def run(self) -> Iterator[Row]:
        state = self.state
        pass_ = state.begin(self.start, recrawl=self.options.recrawl)
        if state.finished():
            self.stopped = "already complete (--recrawl asks the site again)"
            return
        if state.get("discovered") != str(pass_):
            self._discover()
            state.set("discovered", pass_)
        written = state.row_count()
        while self.options.max_pages is None or written < self.options.max_pages:
            item = state.next()
            if item is None:
                state.finish()
                return
            row = self._one(item)
            if self.stopped:
                return
            if row is not None:
                written += 1
                yield row
        self.stopped = f"--max-pages {self.options.max_pages} reached"

    def _discover(self) -> None:
        self._count("found", self.state.add([self.start], 0))
        if self.options.max_depth < 1:
            return
        batch: list[str] = []
        for url in self.discovery.from_sitemaps():
            batch.append(url)
            if len(batch) >= 500:
                self._count("found", self.state.add(batch, 1))
                batch = []
        self._count("found", self.state.add(batch, 1))

    def _one(self, item: Item) -> Row | None:
        """One URL's turn: its row, or None when it gives none (robots, 304, a repeat)."""
        answer = self.state.body(item) if item.status == "fetched" else None
        if answer is None:
            robots = self.fetcher.robots(item.url)
            if robots.unavailable:
                self.stopped = f"robots.txt unavailable ({robots.reason}): run again later"
                return None
            if not robots.allowed(item.url, self.fetcher.agent):
                self._count("robots")
                self.state.written(item, None, status="robots")
                return None
            try:
                answer = self.fetcher.get(item.url, headers=self._validators(item))
            except UnchromeError as exc:
                return self._failed(item, exc)
            self._count("fetched")
            if answer.status == 304:
                self._count("unchanged")
                self.state.written(item, None, status="unchanged")
                return None
            self.state.fetched(item, answer)
        return self._extract(item, answer)

    def _validators(self, item: Item) -> dict[str, str]:
        headers: dict[str, str] = {}
        if item.etag:
            headers["If-None-Match"] = item.etag
        if item.last_modified:
            headers["If-Modified-Since"] = item.last_modified
        return headers

    def _failed(self, item: Item, exc: UnchromeError, status: int | None = None) -> Row:
        if isinstance(exc, ForbiddenAddress | InvalidURL):
            # A redirect to an internal address or a port not allowed: never connected.
            log.warning("%s refused: %s: %s", item.url, exc.code, exc)
            self._count("refused")
        self._count("failed")
        page = Page(b"", source=item.url, url=item.url, http_status=status)
        row = failed_row(page, exc.code, str(exc))
        self.state.written(item, row)
        self._count("written")
        return row

    def _extract(self, item: Item, answer: Fetched) -> Row | None:
        final = normalize(answer.url) or item.url
        if site_of(final) != self.discovery.scope.site:
            # Redirected to another site: not this crawl's page (and not followed further).
            self._count("off_site")
            self.state.written(item, None, status="off_site")
            return None
        if final != item.url and self.state.status_of(final) in ("done", "fetched"):
            self._count("duplicates")
            self.state.written(item, None, status="duplicate")
            return None
        try:
            judge_page(answer)
        except UnchromeError as exc:
            return self._failed(item, exc, answer.status)
        page = Page(
            answer.body,
            source=item.url,
            url=answer.url,
            content_type=answer.content_type,
            http_status=answer.status,
        )
        row = extract_page(self._get_extractor(), page, self.options.fmt)
        self._count("failed" if row["status"] != "ok" else "ok")
        links = self._links(item, answer) if item.depth < self.options.max_depth else []
        validators = (answer.headers.get("etag"), answer.headers.get("last-modified"))
        new = self.state.written(
            item,
            row,
            links=links,
            alias=final if final != item.url else None,
            validators=validators,
        )
        self._count("written")
        self._count("found", new)
        return row

    def _links(self, item: Item, answer: Fetched) -> list[str]:
        found: list[str] = []
        if item.url == self.start:  # the home page announces the feeds
            found += self.discovery.from_feeds(answer.body, answer.url)
        found += self.discovery.from_links(answer.body, answer.url)
        return list(dict.fromkeys(found))

    def _get_extractor(self) -> Any:
        if self._extractor is None:
            from unchrome.pipeline.extractor import Extractor

            self._extractor = Extractor(self.config)
        return self._extractor


def crawl(
    url: str,
    *,
    state_dir: str | Path | None = None,
    max_pages: int | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    recrawl: bool = False,
    fmt: str = "both",
    config: Config | None = None,
    fetch_config: FetchConfig | None = None,
    politeness: Politeness | None = None,
) -> Iterator[Row]:
    """Crawl ``url``'s site and yield one row per page (the columns of
    ``unchrome.scale.batch.COLUMNS``: ``status`` ``ok`` or an error code), breadth-first.

    ``state_dir`` keeps the crawl's state (SQLite): the same call after an interruption
    resumes it (rows already yielded are not yielded again), and ``recrawl=True`` asks
    a finished crawl's pages again with their validators (a ``304`` yields no row).
    """
    options = CrawlOptions(max_pages=max_pages, max_depth=max_depth, recrawl=recrawl, fmt=fmt)
    with open_state(state_dir) as state:
        crawler = Crawler(
            url,
            state,
            config=config,
            fetch_config=fetch_config,
            politeness=politeness,
            options=options,
        )
        yield from crawler.run()
