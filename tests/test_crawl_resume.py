"""A crawl killed with SIGKILL and run again: every page once in the output, none
fetched twice; and the two crash windows inside a page's turn, each replayed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from crawl_site import PAGES, Site, make_site
from unchrome import FetchConfig, crawl
from unchrome.net.fetch import Fetched
from unchrome.site.output import CrawlOutput
from unchrome.site.politeness import Politeness
from unchrome.site.state import State

ROOT = Path(__file__).resolve().parents[1]
NOT_PAGES = ("/robots.txt", "/sitemap_index.xml", "/sitemap-pages.xml.gz", "/feed.xml")


@pytest.fixture
def site() -> Iterator[Site]:
    outside = Site().start()
    s = make_site(outside.port)
    yield s
    s.stop()
    outside.stop()


def _command(site: Site, out: Path, state: Path, delay: float) -> list[str]:
    return [
        sys.executable, "-m", "unchrome", "crawl", site.base, "--out", str(out),
        "--state", str(state), "--delay", str(delay), "--allow-address", "127.0.0.0/8",
        "--allow-port", str(site.port), "--no-progress",
    ]  # fmt: skip


def _page_hits(site: Site) -> list[str]:
    return [p for p in site.paths() if p not in NOT_PAGES]


def test_kill_9_mid_crawl_then_rerun_gives_every_page_once_none_fetched_twice(
    site: Site, tmp_path: Path
) -> None:
    out, state = tmp_path / "site.jsonl", tmp_path / "state"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # A long delay, and the kill lands inside it, after the third page's answer: a
    # request in flight at the kill would be asked again (its answer never arrived).
    proc = subprocess.Popen(_command(site, out, state, 0.8), env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(_page_hits(site)) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first = len(_page_hits(site))
    assert 3 <= first < len(PAGES)  # killed mid-crawl
    rerun = subprocess.run(_command(site, out, state, 0.05), env=env, capture_output=True)
    assert rerun.returncode == 0, rerun.stderr.decode()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    urls = Counter(row["source"] for row in rows)
    assert set(urls) == {site.base + p for p in (*PAGES, "/redirect-out")}
    assert all(n == 1 for n in urls.values())
    assert Counter(_page_hits(site)) == Counter([*PAGES, "/redirect-out"])


def test_a_body_fetched_but_not_extracted_is_extracted_on_resume_without_a_request(
    site: Site, tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    seed = site.base + "/"
    with State(state_dir) as state:  # the state a kill right after the fetch leaves
        state.begin(seed, recrawl=False)
        state.add([seed], 0)
        state.set("discovered", 1)
        item = state.next()
        assert item is not None
        html = b"<html><head><title>Kept</title></head><body><article><p>" + b"word " * 80
        body = Fetched(seed, 200, "text/html", html + b"</p></article></body></html>",
                       headers=httpx.Headers({"ETag": '"k"'}))  # fmt: skip
        state.fetched(item, body)
    fc = FetchConfig(allow_addresses=("127.0.0.0/8",), allow_ports=(site.port,))
    rows = list(crawl(seed, state_dir=state_dir, fetch_config=fc, max_depth=0,
                      politeness=Politeness(delay=0.01)))  # fmt: skip
    assert [row["title"] for row in rows] == ["Kept"]
    assert "/" not in site.paths()


def test_output_cut_back_to_the_committed_length_and_the_missing_rows_written(
    tmp_path: Path,
) -> None:
    out = tmp_path / "o.jsonl"
    with State(tmp_path / "state") as state:
        state.begin("http://example.com/", recrawl=False)
        state.add(["http://example.com/1", "http://example.com/2"], 0)
        for n in (1, 2):
            item = state.next()
            assert item is not None
            state.written(item, {"url": item.url, "status": "ok", "source": item.url})
            if n == 1:
                with CrawlOutput(out, state) as output:
                    output.sync()  # row 1 written and recorded
        # Killed after row 2 was committed, while half of it was in the file.
        with out.open("ab") as f:
            f.write(b'{"url": "http://example.com/2", "sta')
        with CrawlOutput(out, state) as output:
            output.sync()
    lines = [json.loads(line)["url"] for line in out.read_text().splitlines()]
    assert lines == ["http://example.com/1", "http://example.com/2"]


def test_killed_three_times_at_any_moment_every_page_is_written_once(
    site: Site, tmp_path: Path
) -> None:
    """Kills land anywhere here (in a request, an extraction, a commit, a write): the
    output still holds every page once, and a page is asked again only when its
    request was in flight at a kill (one per kill at most)."""
    out, state = tmp_path / "site.jsonl", tmp_path / "state"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    kills = 0
    for wait in (1.1, 0.7, 0.9):  # seconds after the start of each run
        proc = subprocess.Popen(_command(site, out, state, 0.15), env=env,
                                stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            kills += 1
    assert kills >= 1
    done = subprocess.run(_command(site, out, state, 0.05), env=env, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    sources = Counter(row["source"] for row in rows)
    assert sorted(sources) == sorted(site.base + p for p in (*PAGES, "/redirect-out"))
    assert set(sources.values()) == {1}
    asked = Counter(_page_hits(site))
    assert set(asked) == {*PAGES, "/redirect-out"}
    assert sum(n - 1 for n in asked.values()) <= kills
