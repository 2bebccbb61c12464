"""The crawl end to end, against the made-up site of crawl_site on 127.0.0.1."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from crawl_site import PAGES, Site, make_site
from unchrome import FetchConfig, crawl, map_site
from unchrome.site.politeness import Politeness

DELAY = 0.05


@pytest.fixture
def outside() -> Iterator[Site]:
    """The server on a port the crawl does not allow: it must never see a request."""
    site = Site(routes={"/x": (200, {"Content-Type": "text/html"}, b"<p>internal</p>")}).start()
    yield site
    site.stop()


@pytest.fixture
def site(outside: Site) -> Iterator[Site]:
    s = make_site(outside.port)
    yield s
    s.stop()


def guard(site: Site) -> FetchConfig:
    return FetchConfig(allow_addresses=("127.0.0.0/8",), allow_ports=(site.port,))


def guard_flags(site: Site) -> list[str]:
    """The command line's spelling of guard() and polite()."""
    return ["--delay", str(DELAY), "--allow-address", "127.0.0.0/8", "--allow-port", str(site.port)]


def polite() -> Politeness:
    return Politeness(delay=DELAY)


def page_paths(site: Site) -> list[str]:
    """Requests for pages (not robots.txt, sitemaps, the feed)."""
    skip = ("/robots.txt", "/sitemap_index.xml", "/sitemap-pages.xml.gz", "/feed.xml")
    return [p for p in site.paths() if p not in skip]


def test_map_lists_sitemap_and_feed_pages_normalised_once_without_disallowed(site: Site) -> None:
    urls = list(map_site(site.base + "/", fetch_config=guard(site), politeness=polite()))
    base = site.base
    assert urls == [f"{base}/a", f"{base}/b", f"{base}/c", f"{base}/redirect-out", f"{base}/e"]
    assert not any("/private/" in p for p in site.paths())


def test_map_limit_stops_early(site: Site) -> None:
    urls = list(map_site(site.base, limit=2, fetch_config=guard(site), politeness=polite()))
    assert len(urls) == 2


def test_crawl_writes_every_page_once_honours_robots_and_never_reaches_the_other_port(
    site: Site, outside: Site
) -> None:
    rows = list(crawl(site.base + "/", fetch_config=guard(site), politeness=polite()))
    by_url = Counter(row["url"] for row in rows)
    ok = sorted(row["url"].removeprefix(site.base) for row in rows if row["status"] == "ok")
    assert ok == sorted(PAGES)
    assert all(n == 1 for n in by_url.values())
    refused = [row for row in rows if row["status"] == "FORBIDDEN_ADDRESS"]
    assert [row["source"] for row in refused] == [site.base + "/redirect-out"]
    assert not any("/private/" in p for p in site.paths())
    assert outside.hits == []
    # Every page asked once: the tracking-parameter and fragment variants were one URL.
    assert Counter(page_paths(site)) == Counter([*PAGES, "/redirect-out"])


def test_crawl_keeps_the_delay_between_requests(site: Site) -> None:
    list(crawl(site.base, fetch_config=guard(site), politeness=polite(), max_pages=4))
    times = [hit.at for hit in site.hits]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(gaps) >= 5
    assert min(gaps) >= DELAY * 0.95


def test_crawl_delay_of_robots_txt_wins_over_the_default(outside: Site) -> None:
    s = make_site(outside.port, crawl_delay=0.2)
    try:
        list(crawl(s.base, fetch_config=guard(s), politeness=polite(), max_pages=2))
        times = [hit.at for hit in s.hits]
        assert min(b - a for a, b in itertools.pairwise(times)) >= 0.19
    finally:
        s.stop()


def test_max_depth_zero_crawls_the_start_page_only(site: Site) -> None:
    rows = list(crawl(site.base, fetch_config=guard(site), politeness=polite(), max_depth=0))
    assert [row["url"] for row in rows] == [site.base + "/"]


def test_recrawl_sends_validators_and_does_not_reextract_304(site: Site, tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = list(crawl(site.base, state_dir=state, fetch_config=guard(site), politeness=polite()))
    assert sum(row["status"] == "ok" for row in first) == len(PAGES)
    site.hits.clear()
    # /b changed since: its ETag no longer matches, the others answer 304.
    from crawl_site import page

    site.routes["/b"] = page("Page B changed", etag='"b-v2"')
    again = list(
        crawl(
            site.base, state_dir=state, recrawl=True, fetch_config=guard(site), politeness=polite()
        )
    )
    asked = {h.path: h.headers for h in site.hits}
    assert asked["/a"].get("If-None-Match") == '"Page A-v1"'
    assert asked["/a"].get("If-Modified-Since") == "Mon, 01 Jun 2026 10:00:00 GMT"
    changed = [row for row in again if row["status"] == "ok"]
    assert [row["url"] for row in changed] == [site.base + "/b"]
    assert "Page B changed" in changed[0]["title"]


def test_a_finished_crawl_run_again_without_recrawl_fetches_nothing(
    site: Site, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    list(crawl(site.base, state_dir=state, fetch_config=guard(site), politeness=polite()))
    site.hits.clear()
    assert (
        list(crawl(site.base, state_dir=state, fetch_config=guard(site), politeness=polite())) == []
    )
    assert site.hits == []


def test_cli_crawl_writes_jsonl_rows_and_a_summary(site: Site, tmp_path: Path, capsys) -> None:
    from unchrome.cli import main

    out = tmp_path / "site.jsonl"
    code = main(["crawl", site.base, "--out", str(out), *guard_flags(site), "--no-progress"])
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["url"].removeprefix(site.base) for r in rows if r["status"] == "ok") == sorted(
        PAGES
    )
    err = capsys.readouterr().err
    assert "pages written this run" in err and "refused by the address guard 1" in err


def test_cli_map_prints_one_url_a_line(site: Site, capsys) -> None:
    from unchrome.cli import main

    code = main(["map", site.base, *guard_flags(site), "--limit", "3"])
    assert code == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{site.base}/a",
        f"{site.base}/b",
        f"{site.base}/c",
    ]


def test_cli_crawl_writes_parquet_with_the_batch_columns(site: Site, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from unchrome.cli import main
    from unchrome.scale.batch import COLUMN_NAMES

    out = tmp_path / "site.parquet"
    args = ["crawl", site.base, "--out", str(out), "--state", str(tmp_path / "st")]
    assert main([*args, *guard_flags(site), "--no-progress"]) == 0
    table = pq.read_table(out)
    assert tuple(table.column_names) == COLUMN_NAMES
    ok = [u for u, s in zip(table["url"].to_pylist(), table["status"].to_pylist(), strict=True)
          if s == "ok"]  # fmt: skip
    assert sorted(u.removeprefix(site.base) for u in ok) == sorted(PAGES)


def test_cli_refuses_an_internal_start_address_with_its_exit_code(capsys, tmp_path: Path) -> None:
    from unchrome.cli import main

    assert main(["map", "http://169.254.169.254/"]) == 4
    assert "FORBIDDEN_ADDRESS" in capsys.readouterr().err
    out = tmp_path / "out.jsonl"
    assert main(["crawl", "http://10.0.0.1/", "--out", str(out), "--no-progress"]) == 4
    assert not out.exists()


def test_cli_crawl_refuses_an_output_it_cannot_resume(tmp_path: Path) -> None:
    from unchrome.cli import main

    for out in ("pages.jsonl.gz", "pages.csv", "-"):
        with pytest.raises(SystemExit) as exit_:
            main(["crawl", "http://example.com/", "--out", str(tmp_path / out)])
        assert exit_.value.code == 2
