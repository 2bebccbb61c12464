"""The process pool: one row per page, in order, whatever the pages do to the workers."""

from __future__ import annotations

import time

import pytest

from unchrome import Config, Extractor, InvalidInput
from unchrome.errors import WorkerFailed
from unchrome.scale.batch import (
    COLUMN_NAMES,
    ExtractionPool,
    UnchromeWorker,
    extract_page,
    extract_pages,
)
from unchrome.scale.warc import Page
from warcs import BrokenFactory, Echo, article, page


def texts(rows: list[dict]) -> list[str | None]:
    return [r["text"] for r in rows]


def test_rows_come_back_in_input_order_one_per_page() -> None:
    pages = [page(f"page {i}".encode()) for i in range(40)]
    with ExtractionPool(Echo(), jobs=2) as pool:
        rows = list(pool.map(pages))
    assert texts(rows) == [f"page {i}" for i in range(40)]
    assert all(set(r) == set(COLUMN_NAMES) for r in rows)


@pytest.mark.parametrize("trick", [b"crash", b"kill"])
def test_a_worker_that_dies_fails_its_page_only_and_is_replaced(trick: bytes) -> None:
    pages = [page(b"a"), page(trick), page(b"b"), page(b"c")]
    with ExtractionPool(Echo(), jobs=2) as pool:
        rows = list(pool.map(pages))
        assert pool.stats.deaths == 1 and pool.stats.replaced == 1
    assert [r["status"] for r in rows] == ["ok", "WORKER_FAILED", "ok", "ok"]
    assert texts(rows) == ["a", None, "b", "c"]
    reason = "killed by SIGKILL" if trick == b"kill" else "exited with code 7"
    assert reason in rows[1]["error"]


def test_a_page_past_the_deadline_is_killed_and_reported_as_timeout() -> None:
    pages = [page(b"a"), page(b"hang"), page(b"b")]
    started = time.monotonic()
    with ExtractionPool(Echo(), jobs=1, timeout=0.5) as pool:
        rows = list(pool.map(pages))
        assert pool.stats.timeouts == 1
    assert time.monotonic() - started < 20
    assert [r["status"] for r in rows] == ["ok", "TIMEOUT", "ok"]
    assert "worker killed" in rows[1]["error"]


def test_a_worker_over_its_memory_limit_is_killed_and_its_page_fails() -> None:
    pages = [page(b"a"), page(b"hog"), page(b"b")]
    with ExtractionPool(Echo(), jobs=1, timeout=30, memory_limit=300 << 20) as pool:
        rows = list(pool.map(pages))
        assert pool.stats.memory_kills == 1
    assert [r["status"] for r in rows] == ["ok", "MEMORY_LIMIT", "ok"]
    assert "memory limit" in rows[1]["error"]


def test_a_memory_limit_below_a_fresh_worker_is_invalid_input() -> None:
    pool = ExtractionPool(Echo(), jobs=1, memory_limit=1 << 20)
    with pytest.raises(InvalidInput, match="below what a fresh worker holds"):
        pool.__enter__()


def test_a_handler_exception_is_an_error_row_and_the_worker_lives_on() -> None:
    with ExtractionPool(Echo(), jobs=1) as pool:
        rows = list(pool.map([page(b"raise"), page(b"x")]))
        assert pool.stats.replaced == 0
    assert [r["status"] for r in rows] == ["ERROR", "ok"]
    assert rows[0]["error"] == "RuntimeError: a bug"


def test_unreadable_pages_keep_their_place_without_a_worker() -> None:
    broken = Page(b"", "x.warc.gz", warc_offset=10, error_code="INVALID_INPUT", error="bad gzip")
    with ExtractionPool(Echo(), jobs=2) as pool:
        rows = list(pool.map([page(b"a"), broken, page(b"b")]))
    assert [r["status"] for r in rows] == ["ok", "INVALID_INPUT", "ok"]
    assert rows[1]["error"] == "bad gzip" and rows[1]["warc_offset"] == 10


def test_a_worker_that_cannot_start_is_a_clear_error_not_a_hang() -> None:
    started = time.monotonic()
    pool = ExtractionPool(BrokenFactory(), jobs=2)
    with pytest.raises(WorkerFailed, match="cannot build the extractor"):
        pool.__enter__()
    assert time.monotonic() - started < 30


@pytest.mark.parametrize(
    "kwargs", [{"jobs": 0}, {"timeout": 0}, {"memory_limit": -1}], ids=["jobs", "timeout", "mem"]
)
def test_bad_pool_settings_are_invalid_input(kwargs: dict) -> None:
    with pytest.raises(InvalidInput):
        ExtractionPool(Echo(), **kwargs)


def test_map_outside_the_context_manager_is_an_error() -> None:
    from unchrome import UnchromeError

    with pytest.raises(UnchromeError, match="context manager"):
        list(ExtractionPool(Echo()).map([page(b"a")]))


def test_unchrome_rows_match_a_direct_extraction() -> None:
    pages = [
        page(article("First story"), url="https://a.example/1"),
        page(b"<html><body></body></html>", url="https://a.example/empty"),
        page(b"\x89PNG\r\n\x1a\n\x00\x00binary", url="https://a.example/png"),
        page(article("Second story"), url="https://b.example/2"),
    ]
    rows = list(extract_pages(pages, jobs=2))
    direct = [extract_page(Extractor(), p) for p in pages]
    assert rows == direct
    assert [r["status"] for r in rows] == ["ok", "EXTRACT_FAILED", "UNSUPPORTED_CONTENT", "ok"]
    assert rows[0]["title"] == "First story" and rows[0]["word_count"] > 50
    assert rows[0]["markdown"].startswith("# First story")


def test_the_format_picks_the_content_columns() -> None:
    p = page(article("Formats"), url="https://a.example/f")
    text_only = extract_page(Extractor(), p, "text")
    markdown_only = extract_page(Extractor(), p, "markdown")
    assert text_only["text"] and text_only["markdown"] is None
    assert markdown_only["markdown"] and markdown_only["text"] is None
    with pytest.raises(InvalidInput):
        list(extract_pages([p], fmt="pdf"))


def test_the_extractor_deadline_applies_per_page() -> None:
    # A page far too big to finish in a millisecond: the extractor's own deadline stops it
    # and the row says TIMEOUT; the pool's hard deadline is not needed for that.
    big = article("Big", "word " * 50_000)
    worker = UnchromeWorker(Config(timeout=0.001))()
    row = worker(page(big, url="https://a.example/big"))
    assert row["status"] == "TIMEOUT"


def test_rows_and_the_parquet_schema_carry_the_modification_date() -> None:
    from unchrome.result import Result
    from unchrome.scale.batch import ok_row
    from unchrome.scale.sink import arrow_schema

    result = Result(url="https://a.example/x", date="2025-01-02", date_modified="2025-03-04")
    row = ok_row(page(b"x", url="https://a.example/x"), result)
    assert (row["date"], row["date_modified"]) == ("2025-01-02", "2025-03-04")
    pytest.importorskip("pyarrow")  # the parquet extra
    assert str(arrow_schema().field("date_modified").type) == "string"
