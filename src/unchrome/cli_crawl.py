"""``unchrome map URL`` and ``unchrome crawl URL --out FILE``: from a site to a corpus.

    unchrome map https://example.com/ --limit 100
    unchrome crawl https://example.com/ --out site.jsonl --state site.state/
    unchrome crawl https://example.com/ --out site.parquet --max-pages 500 --max-depth 3
    unchrome crawl https://example.com/ --out changed.jsonl --state site.state/ --recrawl

``map`` prints the site's page URLs, one a line. ``crawl`` writes one row per page (the
rows of ``unchrome warc``). With ``--state DIR`` a crawl that was stopped, ``kill -9``
included, resumes when run again with the same command. See docs/crawl.md.

Exit codes: 0 when the run completed (pages that failed are rows, not errors), 2 for bad
arguments, 3 when the output or the state cannot be written, and the code of the start
URL's error (cli's table) when it is refused.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from unchrome.cli_options import (
    EXIT_CODES,
    EXIT_OK,
    add_content_format_option,
    add_favor_option,
    add_fetch_options,
    exit_code,
    fetch_config_of,
)
from unchrome.config import Config
from unchrome.errors import FileAccessError, InvalidInput, UnchromeError
from unchrome.net.fetch_config import FetchConfig
from unchrome.scale.sink import SINK_FORMATS
from unchrome.site import sitemap
from unchrome.site.crawler import DEFAULT_MAX_DEPTH, Crawler, CrawlOptions
from unchrome.site.discover import Found, guard_start, map_site
from unchrome.site.output import CrawlOutput, crawl_format
from unchrome.site.politeness import CRAWL_USER_AGENT, DEFAULT_DELAY, Politeness
from unchrome.site.state import open_state

# The bar's counters, in the order shown.
BAR_COUNTERS = ("found", "fetched", "written", "refused", "robots", "unchanged", "failed")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", metavar="URL", help="the site's start page (http or https)")
    p.add_argument(
        "--delay",
        type=float,
        default=DEFAULT_DELAY,
        help=f"seconds between two requests to the site when its robots.txt gives no "
        f"Crawl-delay (default {DEFAULT_DELAY:g})",
    )
    p.add_argument(
        "--user-agent",
        default=CRAWL_USER_AGENT,
        help=f"the User-Agent sent, and matched against robots.txt (default {CRAWL_USER_AGENT!r})",
    )
    add_fetch_options(p)
    p.add_argument(
        "--sitemap-max-bytes",
        type=int,
        default=sitemap.MAX_SITEMAP_BYTES,
        help="read at most this much of one sitemap (default 50 MiB, the protocol's limit)",
    )


def map_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unchrome map",
        description="Print a site's page URLs, one a line: from its sitemaps, the feeds its "
        "home page announces, else the home page's links. Same site, robots.txt honoured.",
    )
    _common(p)
    p.add_argument("--limit", type=int, help="at most this many URLs")
    return p


def crawl_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unchrome crawl",
        description="Crawl a site politely (robots.txt, delays, Retry-After) and extract "
        "every page into JSON Lines or Parquet rows; resumable with --state.",
    )
    _common(p)
    p.add_argument("-o", "--out", required=True, metavar="OUT", help="OUT.jsonl or OUT.parquet")
    p.add_argument("--output-format", choices=SINK_FORMATS, help="default: from the file name")
    p.add_argument(
        "--state",
        metavar="DIR",
        help="keep the crawl's state here (SQLite): the same command resumes it",
    )
    p.add_argument("--max-pages", type=int, help="stop after this many rows")
    p.add_argument(
        "--max-depth",
        type=int,
        default=DEFAULT_MAX_DEPTH,
        help=f"link hops from the start page; sitemap pages are 1 (default {DEFAULT_MAX_DEPTH})",
    )
    p.add_argument(
        "--recrawl",
        action="store_true",
        help="with --state: ask a finished crawl's pages again (If-None-Match, "
        "If-Modified-Since); unchanged pages (304) give no row",
    )
    add_content_format_option(p)
    add_favor_option(p)
    p.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    return p


def main(command: str, argv: Sequence[str]) -> int:
    _log_to_stderr()
    if command == "map":
        return _map(argv)
    return _crawl(argv)


def _log_to_stderr() -> None:
    log = logging.getLogger("unchrome.crawl")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("unchrome: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.WARNING)


def _settings(
    p: argparse.ArgumentParser, opts: argparse.Namespace
) -> tuple[FetchConfig, Politeness]:
    try:
        # The environment's settings, the flags added, as the main command reads them.
        fetch_config = replace(fetch_config_of(opts), user_agent=opts.user_agent)
        politeness = Politeness(delay=opts.delay, user_agent=opts.user_agent)
    except InvalidInput as exc:
        p.error(str(exc))
    if opts.sitemap_max_bytes < 1:
        p.error("--sitemap-max-bytes must be positive")
    return fetch_config, politeness


def _map(argv: Sequence[str]) -> int:
    p = map_parser()
    opts = p.parse_args(list(argv))
    if opts.limit is not None and opts.limit < 1:
        p.error("--limit must be at least 1")
    fetch_config, politeness = _settings(p, opts)
    found = Found()
    count = 0
    try:
        for url in map_site(
            opts.url,
            limit=opts.limit,
            fetch_config=fetch_config,
            politeness=politeness,
            sitemap_max_bytes=opts.sitemap_max_bytes,
            found=found,
        ):
            sys.stdout.write(url + "\n")
            count += 1
    except UnchromeError as exc:
        print(f"unchrome map: {exc.code}: {exc}", file=sys.stderr)
        return exit_code(exc)
    sys.stdout.flush()
    extra = ", ".join(f"{k} {v}" for k, v in sorted(found.counts.items()))
    print(f"unchrome map: {count} URLs" + (f" ({extra})" if extra else ""), file=sys.stderr)
    return EXIT_OK


def _crawl(argv: Sequence[str]) -> int:
    p = crawl_parser()
    opts = p.parse_args(list(argv))
    fetch_config, politeness = _settings(p, opts)
    try:
        crawl_format(opts.out, opts.output_format)
        options = CrawlOptions(
            max_pages=opts.max_pages,
            max_depth=opts.max_depth,
            recrawl=opts.recrawl,
            fmt=opts.format,
            sitemap_max_bytes=opts.sitemap_max_bytes,
        )
        config = Config(favor=opts.favor)
    except InvalidInput as exc:
        p.error(str(exc))
    if opts.recrawl and not opts.state:
        p.error("--recrawl needs --state DIR (the validators of the last crawl)")
    try:  # refused before any file is made
        guard_start(opts.url, fetch_config)
    except UnchromeError as exc:
        print(f"unchrome crawl: {exc.code}: {exc}", file=sys.stderr)
        return exit_code(exc)
    started = time.monotonic()
    bar = _bar(not opts.no_progress and sys.stderr.isatty())
    try:
        with (
            open_state(opts.state) as state,
            CrawlOutput(opts.out, state, opts.output_format) as out,
        ):
            out.sync()  # a resumed crawl: the rows committed before the kill
            crawler = Crawler(
                opts.url,
                state,
                config=config,
                fetch_config=fetch_config,
                politeness=politeness,
                options=options,
                progress=bar.step,
            )
            for _row in crawler.run():
                out.sync()
            out.finish()
            total = state.row_count()
    except UnchromeError as exc:
        bar.close()
        print(f"unchrome crawl: {exc.code}: {exc}", file=sys.stderr)
        if isinstance(exc, FileAccessError):
            return EXIT_CODES["FILE_ACCESS"]
        return exit_code(exc)
    bar.close()
    _summary(crawler, total, time.monotonic() - started, opts.out)
    return EXIT_OK


def _summary(crawler: Crawler, total: int, seconds: float, out: str) -> None:
    s = crawler.stats
    lines = [
        f"unchrome crawl: {s['written']} pages written this run in {seconds:.1f} s; "
        f"{total} in {out}",
        f"  ok {s['ok']}, failed {s['failed']}, unchanged (304) {s['unchanged']}, "
        f"not allowed by robots.txt {s['robots'] + crawler.found.counts['robots']}, "
        f"refused by the address guard {s['refused'] + crawler.found.counts['refused']}",
        f"  requests {crawler.fetcher.requests}, "
        f"sitemaps and feeds read {crawler.found.counts['sitemaps_feeds']}",
    ]
    if crawler.stopped:
        lines.append(f"  stopped: {crawler.stopped}")
    for problem in crawler.found.problems[:5]:
        lines.append(f"  note: {problem}")
    print("\n".join(lines), file=sys.stderr)


class _Bar:
    """A tqdm bar of the crawl's counters (tqdm comes with the [warc] extra); without
    tqdm, or off a terminal, nothing is drawn and the summary still is."""

    def __init__(self, enabled: bool) -> None:
        self.counts = dict.fromkeys(BAR_COUNTERS, 0)
        self.tqdm: Any = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.tqdm = tqdm(unit=" pages", file=sys.stderr)

    def step(self, name: str, n: int) -> None:
        if name in self.counts:
            self.counts[name] += n
        if self.tqdm is not None:
            if name == "written":
                self.tqdm.update(n)
            self.tqdm.set_postfix({k: v for k, v in self.counts.items() if v}, refresh=False)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()


def _bar(enabled: bool) -> _Bar:
    return _Bar(enabled)
