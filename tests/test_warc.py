"""Reading WARC files: which records become pages, what each page carries, broken files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from unchrome import Extractor
from unchrome.errors import FileAccessError
from unchrome.scale.batch import extract_page
from unchrome.scale.warc import WarcReader, read_html_files, sniff_html
from warcs import Rec, article, member, record_bytes, write_warc


def read(*paths: Path, **kwargs: int) -> tuple[list, WarcReader]:
    reader = WarcReader(paths, **kwargs)
    return list(reader), reader


@pytest.mark.parametrize("name", ["crawl.warc", "crawl.warc.gz"])
def test_response_records_become_pages_with_their_provenance(tmp_path: Path, name: str) -> None:
    path = write_warc(
        tmp_path / name,
        [Rec("https://a.example/1", article("One")), Rec("https://b.example/2", article("Two"))],
    )
    pages, reader = read(path)
    assert [p.url for p in pages] == ["https://a.example/1", "https://b.example/2"]
    first = pages[0]
    assert first.payload == article("One")
    assert first.content_type == "text/html; charset=utf-8"
    assert first.http_status == 200
    assert first.warc_record_id and first.warc_record_id.startswith("<urn:uuid:")
    assert first.warc_date and first.warc_date.endswith("Z")
    assert first.warc_offset == 0 and pages[1].warc_offset > 0
    assert first.source == str(path) and first.error_code is None
    assert not reader.skipped


def test_other_record_types_and_non_html_responses_are_skipped_and_counted(
    tmp_path: Path,
) -> None:
    path = write_warc(
        tmp_path / "mixed.warc.gz",
        [
            Rec("", b"software: test\r\n", "application/warc-fields", kind="warcinfo"),
            Rec("https://a.example/", kind="request"),
            Rec("https://a.example/", article("Kept")),
            Rec("https://a.example/", b"", kind="revisit", status="304 Not Modified"),
            Rec(
                "https://a.example/",
                b"fetchTimeMs: 3\r\n",
                "application/warc-fields",
                kind="metadata",
            ),
            Rec("https://a.example/logo.png", b"\x89PNG\r\n\x1a\n", "image/png"),
            Rec("https://a.example/x.pdf", b"%PDF-1.4", "application/pdf"),
            Rec("https://a.example/x.xhtml", article("Xhtml"), "application/xhtml+xml"),
        ],
    )
    pages, reader = read(path)
    assert [p.url for p in pages] == ["https://a.example/", "https://a.example/x.xhtml"]
    assert reader.skipped == {
        "warcinfo": 1,
        "request": 1,
        "revisit": 1,
        "metadata": 1,
        "non_html": 2,
    }


def test_a_missing_content_type_is_sniffed(tmp_path: Path) -> None:
    path = write_warc(
        tmp_path / "sniff.warc",
        [
            Rec("https://a.example/html", article("Sniffed"), content_type=None),
            Rec("https://a.example/bin", b"\x00\x01\x02binary", content_type=None),
        ],
    )
    pages, reader = read(path)
    assert [p.url for p in pages] == ["https://a.example/html"]
    assert reader.skipped == {"non_html": 1}
    assert sniff_html(b"\xef\xbb\xbf  <!DOCTYPE html><html>")
    assert not sniff_html(b"%PDF-1.4 <html>")


def test_the_http_charset_reaches_the_extractor(tmp_path: Path) -> None:
    html = (
        article("Caf\u00e9 story", "d\u00e9j\u00e0 vu")
        .decode()
        .replace("<meta charset='utf-8'>", "")
    )
    path = write_warc(
        tmp_path / "latin1.warc",
        [Rec("https://a.example/fr", html.encode("cp1252"), "text/html; charset=windows-1252")],
    )
    (page,), _ = read(path)
    assert page.content_type == "text/html; charset=windows-1252"
    row = extract_page(Extractor(), page)
    assert row["status"] == "ok"
    assert "d\u00e9j\u00e0 vu" in row["text"]
    assert row["title"] == "Caf\u00e9 story"
    assert row["hostname"] == "a.example"


def test_the_target_uri_is_the_base_url(tmp_path: Path) -> None:
    html = article("Links").replace(
        b"</article>", b"<p><img src='/img/a.png' alt='A'></p></article>"
    )
    path = write_warc(tmp_path / "base.warc", [Rec("https://a.example/news/1", html)])
    (page,), _ = read(path)
    row = extract_page(Extractor(), page)
    assert "https://a.example/img/a.png" in row["markdown"]


def test_a_truncated_gzip_member_costs_one_failed_page_and_reading_goes_on(
    tmp_path: Path,
) -> None:
    broken = member(Rec("https://a.example/broken", article("Broken")))
    path = write_warc(
        tmp_path / "trunc.warc.gz",
        [
            Rec("https://a.example/1", article("One")),
            broken[: len(broken) // 2],
            Rec("https://a.example/3", article("Three")),
            Rec("https://a.example/4", article("Four")),
        ],
    )
    pages, _ = read(path)
    assert [p.url for p in pages] == [
        "https://a.example/1",
        None,
        "https://a.example/3",
        "https://a.example/4",
    ]
    assert pages[1].error_code == "INVALID_INPUT"
    assert "unreadable WARC record" in (pages[1].error or "")
    assert [p.error_code for p in pages if p.url] == [None, None, None]


def test_a_file_ending_in_a_truncated_member_ends_with_one_failed_page(tmp_path: Path) -> None:
    broken = member(Rec("https://a.example/broken", article("Broken")))
    path = write_warc(
        tmp_path / "tail.warc.gz",
        [Rec("https://a.example/1", article("One")), broken[:-30]],
    )
    pages, _ = read(path)
    assert [p.error_code for p in pages] == [None, "INVALID_INPUT"]
    # The record's header survived here, so the failed page can even name it.
    assert pages[1].url in (None, "https://a.example/broken")


def test_garbage_between_records_costs_one_failed_page(tmp_path: Path) -> None:
    path = write_warc(
        tmp_path / "garbage.warc",
        [
            Rec("https://a.example/1", article("One")),
            b"this is not a WARC record\r\n\r\n" * 20,
            Rec("https://a.example/2", article("Two")),
        ],
    )
    pages, _ = read(path)
    assert [(p.url, p.error_code) for p in pages] == [
        ("https://a.example/1", None),
        (None, "INVALID_INPUT"),
        ("https://a.example/2", None),
    ]


def test_a_file_that_is_not_a_warc_is_one_failed_page(tmp_path: Path) -> None:
    path = tmp_path / "noise.warc.gz"
    path.write_bytes(gzip.compress(b"hello, not a WARC file at all\n" * 100))
    pages, _ = read(path)
    assert [(p.url, p.error_code) for p in pages] == [(None, "INVALID_INPUT")]


def test_a_record_shorter_than_its_length_is_a_failed_page(tmp_path: Path) -> None:
    whole = record_bytes(Rec("https://a.example/2", article("Two") * 20))
    path = write_warc(
        tmp_path / "short.warc",
        [Rec("https://a.example/1", article("One")), whole[:600]],
    )
    pages, _ = read(path)
    assert [(p.url, p.error_code) for p in pages] == [
        ("https://a.example/1", None),
        ("https://a.example/2", "INVALID_INPUT"),
    ]
    assert "truncated record" in (pages[1].error or "")


def test_gzip_content_encoding_is_decoded(tmp_path: Path) -> None:
    path = write_warc(
        tmp_path / "enc.warc",
        [
            Rec(
                "https://a.example/gz",
                gzip.compress(article("Zipped")),
                extra_headers=("Content-Encoding: gzip",),
            )
        ],
    )
    (page,), _ = read(path)
    assert page.payload == article("Zipped")


def test_a_huge_payload_is_read_only_up_to_the_limit(tmp_path: Path) -> None:
    path = write_warc(tmp_path / "big.warc", [Rec("https://a.example/big", b"<p>" + b"a" * 5000)])
    (page,), _ = read(path, max_payload_bytes=1000)
    assert len(page.payload) == 1001  # one byte more: the extractor flags `truncated`


def test_a_missing_file_is_a_file_access_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError):
        read(tmp_path / "nothere.warc.gz")


def test_html_files_and_directories(tmp_path: Path) -> None:
    (tmp_path / "site" / "sub").mkdir(parents=True)
    (tmp_path / "site" / "a.html").write_bytes(article("A"))
    (tmp_path / "site" / "sub" / "b.html.gz").write_bytes(gzip.compress(article("B")))
    (tmp_path / "site" / "sub" / "broken.html.gz").write_bytes(b"\x1f\x8b\x08broken")
    (tmp_path / "site" / "notes.txt").write_text("not a page")
    pages = list(read_html_files([tmp_path / "site"]))
    assert [Path(p.source).name for p in pages] == ["a.html", "b.html.gz", "broken.html.gz"]
    assert pages[1].payload == article("B")
    assert pages[2].error_code == "INVALID_INPUT"  # a corrupt gzip member, as in a WARC file


def test_a_url_is_read_through_fsspec(tmp_path: Path) -> None:
    pytest.importorskip("fsspec")
    path = write_warc(tmp_path / "remote.warc.gz", [Rec("https://a.example/1", article("One"))])
    pages, _ = read(path.as_uri())  # file:///...: the same code path as s3:// or gs://
    assert [p.url for p in pages] == ["https://a.example/1"]
    with pytest.raises(FileAccessError):
        read("nosuchscheme://bucket/a.warc.gz")


def test_zstandard_compressed_warc(tmp_path: Path) -> None:
    from fastwarc.stream_io import ZstdWriter

    path = tmp_path / "crawl.warc.zst"
    writer = ZstdWriter(str(path))
    for i in range(3):
        writer.write(record_bytes(Rec(f"https://z.example/{i}", article(f"Z{i}"))))
    writer.close()
    pages, _ = read(path)
    assert [p.url for p in pages] == [f"https://z.example/{i}" for i in range(3)]
