"""Feeds: detection, the entry list as Markdown, and feedparser's traps kept shut."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unchrome
from net.servers import LocalServer, page
from unchrome.errors import ExtractFailed, UnchromeError
from unchrome.pipeline.feed import MAX_ENTRIES, extract_feed, looks_like_feed

RSS = b"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel>
<title>Notes [and] *things*</title><link>https://example.com/</link>
<description>A &lt;b&gt;small&lt;/b&gt; blog</description><language>en</language>
<item><title>Hello world</title><link>https://example.com/hello</link>
<pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
<description>&lt;p&gt;First &lt;script&gt;alert(1)&lt;/script&gt;
&lt;b&gt;post&lt;/b&gt;.&lt;/p&gt;</description></item>
<item><title>Evil link</title><link>javascript:alert(1)</link></item>
</channel></rss>"""

ATOM = b"""<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">
<title>Atom Log</title><updated>2024-03-01T10:00:00Z</updated>
<entry><title>An entry</title><link href="https://example.com/e1"/>
<updated>2024-03-01T10:00:00Z</updated><summary>Short summary.</summary></entry></feed>"""

RDF = b"""<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
xmlns="http://purl.org/rss/1.0/"><channel rdf:about="https://example.com/"><title>RDF</title>
</channel><item rdf:about="https://example.com/r1"><title>R1</title>
<link>https://example.com/r1</link></item></rdf:RDF>"""


@pytest.mark.parametrize("data, ctype, expected", [
    (RSS, None, True), (ATOM, None, True), (RDF, None, True),
    (b"<rss version='2.0'><channel></channel></rss>", None, True),
    (b"anything", "application/rss+xml; charset=utf-8", True),
    (b"anything", "application/atom+xml", True),
    (RSS.decode(), None, True),
    (RSS.decode().encode("utf-16"), None, True),
    (b"<!doctype html><html><body><p>no feed</p></body></html>", "text/html", False),
    (b"<html><head><script>var t='<feed>'</script></head></html>", None, False),
    (b'<html><link rel="alternate" type="application/rss+xml" href="/f"></html>', None, False),
    (b"", None, False),
    # Only the first element decides: a Movable Type page carries a trackback RDF block
    # in a comment near its top, a page may quote a feed in its text.
    (b"<div class='banner'>Blog</div><!--\n<rdf:RDF xmlns:rdf='x'></rdf:RDF>\n-->", None, False),
    (b"<p>Feeds start with <rss version='2.0'></p>", None, False),
    (b"\xef\xbb\xbf<?xml version='1.0'?>\n<!-- generator -->\n<rss version='2.0'>", None, True),
    (b"<!DOCTYPE rss PUBLIC 'x' 'y'><rss version='0.91'>", None, True),
])  # fmt: skip
def test_looks_like_feed(data: bytes | str, ctype: str | None, expected: bool) -> None:
    assert looks_like_feed(data, ctype) is expected


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=2048), st.text(max_size=2048)), st.none() | st.text())
def test_looks_like_feed_never_raises(data: bytes | str, ctype: str | None) -> None:
    assert looks_like_feed(data, ctype) in (True, False)


def test_rss_entries_become_a_markdown_list() -> None:
    result = extract_feed(RSS, url="https://example.com/feed.xml")
    assert result.kind == "feed" and result.title == "Notes [and] *things*"
    assert result.markdown.startswith("# Notes \\[and\\] \\*things\\*\n")
    assert (
        "- [Hello world](https://example.com/hello) — 2024-01-02\n  First post." in result.markdown
    )
    assert "alert" not in result.markdown and "javascript:" not in result.markdown
    assert "- Evil link" in result.markdown  # kept, but without its link
    assert result.description == "A small blog" and result.language == "en"
    assert result.url == "https://example.com/feed.xml" and result.has_body
    assert [m.url for m in result.links] == ["https://example.com/hello"]
    assert "Hello world (2024-01-02)\nhttps://example.com/hello" in result.text


def test_atom_and_rdf() -> None:
    atom = extract_feed(ATOM)
    assert atom.title == "Atom Log" and atom.date == "2024-03-01"
    assert "- [An entry](https://example.com/e1) — 2024-03-01\n  Short summary." in atom.markdown
    rdf = extract_feed(RDF)
    assert rdf.title == "RDF" and "[R1](https://example.com/r1)" in rdf.markdown


def test_entry_list_is_bounded() -> None:
    items = b"".join(
        b"<item><title>t%d</title><link>https://e.com/%d</link></item>" % (i, i)
        for i in range(MAX_ENTRIES + 300)
    )
    result = extract_feed(b"<rss><channel><title>Big</title>" + items + b"</channel></rss>")
    assert result.markdown.count("\n- ") + result.markdown.startswith("- ") == MAX_ENTRIES


def test_not_a_feed_fails_cleanly() -> None:
    with pytest.raises(ExtractFailed):
        extract_feed(b"<rss><channel></channel></rss>")


def test_body_that_names_a_local_file_is_not_opened(tmp_path: Path) -> None:
    # feedparser.parse(bytes) would open() the bytes as a path: a page whose body is
    # "/etc/passwd" would read the server's file. The data must be parsed, not opened.
    secret = tmp_path / "secret.xml"
    secret.write_bytes(RSS)
    with pytest.raises(ExtractFailed):
        extract_feed(str(secret).encode())
    with pytest.raises(ExtractFailed):
        extract_feed(str(secret))


@pytest.fixture
def canary() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        server.routes["*"] = page(RSS, content_type="application/rss+xml")
        yield server


def test_body_that_is_a_url_is_not_fetched(canary: LocalServer) -> None:
    # feedparser.parse(str) fetches anything that looks like a URL: an SSRF by body.
    with pytest.raises(ExtractFailed):
        extract_feed(canary.url("/feed.xml"))
    assert canary.requests == []


def test_external_entities_are_not_resolved(canary: LocalServer, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xxe = (
        f'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY f SYSTEM "file://{secret}">'
        f'<!ENTITY h SYSTEM "{canary.url("/x")}">]><rss version="2.0"><channel>'
        f"<title>T &f; &h;</title><item><title>i</title><link>https://e.com/</link></item>"
        f"</channel></rss>"
    ).encode()
    result = extract_feed(xxe)
    assert "TOP-SECRET" not in result.markdown + result.text + (result.title or "")
    assert canary.requests == []


def test_library_extract_recognises_feeds() -> None:
    result = unchrome.extract(ATOM, content_type="application/atom+xml")
    assert result.kind == "feed" and result.title == "Atom Log"


def test_out_of_range_character_reference_is_a_named_failure() -> None:
    # feedparser's SGML fallback raised ValueError from chr() on this.
    with pytest.raises(UnchromeError) as info:
        unchrome.extract("<rss><channel><title>&#x110000;</title></channel></rss>")
    assert info.value.code == "EXTRACT_FAILED"


def test_a_blog_page_with_a_trackback_rdf_comment_is_read_as_a_page() -> None:
    # Movable Type writes its trackback RDF in a comment near the top of each post; two
    # CleanEval blog pages of 15 and 66 KB of text were refused as empty feeds.
    story = "".join(
        f"<p>Entry paragraph {i} speaks of citations, scholarship and old books.</p>"
        for i in range(6)
    )
    page = (
        "<div class='banner'>Baraita</div>\n<!--\n<rdf:RDF xmlns:rdf='http://www.w3.org/1999/"
        "02/22-rdf-syntax-ns#'><rdf:Description rdf:about='x'/></rdf:RDF>\n-->\n"
        f"<div class='blog'><h2>An entry</h2>{story}</div>"
    )
    result = unchrome.extract(page)
    assert result.kind == "article"
    assert "Entry paragraph 5 speaks of citations" in result.text
