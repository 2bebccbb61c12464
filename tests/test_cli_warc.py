"""``unchrome warc``: WARC files in, JSON Lines or Parquet out, a summary by status."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from unchrome.cli import main
from unchrome.scale.sink import JsonlSink, ParquetSink, open_sink, rows_to_table
from warcs import Rec, article, member, write_warc

GOOD = [Rec(f"https://a.example/{i}", article(f"Story {i}")) for i in range(5)]


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def crawl(tmp_path: Path) -> Path:
    return write_warc(
        tmp_path / "crawl.warc.gz",
        [
            Rec("https://a.example/0", kind="request"),
            *GOOD[:3],
            Rec("https://a.example/logo.png", b"\x89PNG", "image/png"),
            Rec("https://a.example/empty", b"<html><body></body></html>"),
            *GOOD[3:],
        ],
    )


def test_jsonl_rows_and_a_summary_by_status(
    crawl: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.jsonl"
    assert main(["warc", str(crawl), "--out", str(out), "--jobs", "2"]) == 0
    rows = rows_of(out)
    assert [r["url"] for r in rows] == [
        "https://a.example/0",
        "https://a.example/1",
        "https://a.example/2",
        "https://a.example/empty",
        "https://a.example/3",
        "https://a.example/4",
    ]
    assert [r["status"] for r in rows].count("ok") == 5
    assert rows[3]["status"] == "EXTRACT_FAILED" and rows[3]["error"]
    assert rows[0]["title"] == "Story 0" and rows[0]["warc_record_id"].startswith("<urn:")
    err = capsys.readouterr().err
    assert "6 records" in err
    assert "ok                   5" in err and "EXTRACT_FAILED       1" in err
    assert "skipped: non_html 1, request 1" in err


def test_parquet_holds_the_same_table_as_jsonl(crawl: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    assert main(["warc", str(crawl), "--out", str(tmp_path / "a.jsonl"), "-j", "1"]) == 0
    assert main(["warc", str(crawl), "--out", str(tmp_path / "a.parquet"), "-j", "2"]) == 0
    table = pq.read_table(tmp_path / "a.parquet")
    assert table.to_pylist() == rows_of(tmp_path / "a.jsonl")
    assert str(table.schema.field("word_count").type) == "int64"


def test_format_text_leaves_markdown_out(crawl: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    assert main(["warc", str(crawl), "-o", str(out), "--format", "text", "-j", "1"]) == 0
    rows = [r for r in rows_of(out) if r["status"] == "ok"]
    assert all(r["text"] and r["markdown"] is None for r in rows)


def test_a_directory_of_html_files_goes_through_the_same_pool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_bytes(article("Page A"))
    (site / "b.html.gz").write_bytes(gzip.compress(article("Page B")))
    out = tmp_path / "site.jsonl.gz"
    assert main(["warc", str(site), "-o", str(out), "-j", "2"]) == 0
    rows = [json.loads(line) for line in gzip.decompress(out.read_bytes()).splitlines()]
    assert [(Path(r["source"]).name, r["title"]) for r in rows] == [
        ("a.html", "Page A"),
        ("b.html.gz", "Page B"),
    ]


def test_rows_go_to_standard_output_by_default(crawl: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unchrome", "warc", str(crawl), "-j", "1"],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 6 and "records" in done.stderr.decode()


def test_hostile_records_each_get_their_own_row(tmp_path: Path) -> None:
    deep = b"<html><body>" + b"<div>" * 100_000 + b"deep text" + b"</div>" * 100_000
    one_word = b"<html><body><p>" + b"x" * (4 << 20) + b"</p></body></html>"
    binary = bytes(range(256)) * 400
    path = write_warc(
        tmp_path / "hostile.warc.gz",
        [
            GOOD[0],
            Rec("https://h.example/deep", deep),
            GOOD[1],
            Rec("https://h.example/word", one_word),
            GOOD[2],
            member(Rec("https://h.example/cut", article("Cut")))[:200],
            GOOD[3],
            Rec("https://h.example/binary", binary),
            GOOD[4],
        ],
    )
    out = tmp_path / "hostile.jsonl"
    assert main(["warc", str(path), "-o", str(out), "-j", "2", "--timeout", "20"]) == 0
    rows = rows_of(out)
    assert len(rows) == 9
    good = [r for r in rows if (r["url"] or "").startswith("https://a.example/")]
    assert [r["status"] for r in good] == ["ok"] * 5
    by_url = {r["url"]: r for r in rows}
    assert by_url["https://h.example/binary"]["status"] == "UNSUPPORTED_CONTENT"
    assert by_url["https://h.example/deep"]["status"] in ("ok", "EXTRACT_FAILED")
    assert by_url["https://h.example/word"]["truncated"] in (True, None)
    cut = [r for r in rows if r["url"] is None]
    assert [r["status"] for r in cut] == ["INVALID_INPUT"]


def test_usage_errors(crawl: Path, tmp_path: Path) -> None:
    for argv in (
        ["warc"],
        ["warc", str(crawl), "--jobs", "0"],
        ["warc", str(crawl), "--max-memory", "-5"],
        ["warc", str(crawl), "--timeout", "0"],
        ["warc", str(crawl), "--out", "x.parquet", "--output-format", "csv"],
        ["warc", str(crawl), "--address", "auto"],
        ["warc", str(crawl), "--out", "-", "--output-format", "parquet"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2, argv


def test_missing_input_and_unwritable_output_exit_3(
    crawl: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["warc", str(tmp_path / "nothere.warc.gz"), "-o", str(tmp_path / "o.jsonl")]) == 3
    assert "no such file" in capsys.readouterr().err
    assert main(["warc", str(crawl), "-o", str(tmp_path / "no" / "dir" / "o.jsonl")]) == 3
    assert "FILE_ACCESS" in capsys.readouterr().err


def test_the_sinks_share_one_schema(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rows = [{"url": "https://a.example/", "status": "ok", "word_count": 3}, {"status": "X"}]
    table = rows_to_table(rows)
    assert table.num_rows == 2 and table.column("author").null_count == 2
    assert str(table.schema.field("author").type) == "string"
    assert isinstance(open_sink(tmp_path / "x.jsonl"), JsonlSink)
    sink = open_sink(tmp_path / "x.parquet")
    assert isinstance(sink, ParquetSink)
    sink.close()


def test_a_lone_surrogate_becomes_a_replacement_character_in_both_sinks(tmp_path: Path) -> None:
    row = {"url": "https://a.example/", "status": "ok", "text": "broken \ud800 text"}
    with JsonlSink(tmp_path / "s.jsonl") as sink:
        sink.write(row)
    assert rows_of(tmp_path / "s.jsonl")[0]["text"] == "broken \ufffd text"
    pytest.importorskip("pyarrow")
    assert rows_to_table([row]).column("text").to_pylist() == ["broken \ufffd text"]
