"""Rendering: Markdown and plain text of the chosen body, as a reader would want them."""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser

import unchrome
from unchrome import Config
from unchrome.pipeline import render
from unchrome.pipeline.segment import segment
from unchrome.pipeline.select import settle, whole

URL = "https://docs.example/guide/page"
LONG = (
    "This paragraph is long enough to pass every length filter of the plain-text renderer, "
    "so it always shows up in the output."
)
LONG2 = (
    "A second paragraph of ordinary prose follows the first one, and it too is long enough "
    "to be kept by the renderer without question."
)
CODE = 'def greet(name):\n    if name:\n        return f"hi {name}"\n    return "hi"'


def page(body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide</title></head>'
        f"<body><article>{body}</article></body></html>"
    )


def extract(body: str, **config: object) -> unchrome.Result:
    return unchrome.extract(page(body), url=URL, config=Config(**config) if config else None)


def text_of(html: str, min_paragraph_chars: int = 20, include_tables: bool = True) -> str:
    tree = LexborHTMLParser(f"<html><body>{html}</body></html>")
    assert tree.body is not None
    seg = segment(tree.body, include_tables=include_tables)
    content = settle(seg, whole(seg), None)
    return render.text(content.blocks(min_paragraph_chars))


# ------------------------------------------------------------------------ markdown


# ---------------------------------------------------------------------- plain text


def test_text_headings_on_their_own_lines_and_blank_lines_between_paragraphs():
    text = extract(f"<h1>Getting started</h1><p>{LONG}</p><h2>Install</h2><p>{LONG2}</p>").text
    assert text == f"Getting started\n\n{LONG}\n\nInstall\n\n{LONG2}"


def test_text_inline_markup_does_not_break_lines():
    text = text_of(f"<p>{LONG} With <b>bold</b>, <i>italic</i> and <a href='/x'>a link</a>.</p>")
    assert text == f"{LONG} With bold, italic and a link."


@pytest.mark.parametrize(
    ("html", "short"),
    [
        ("<ul><li>Go</li></ul>", "Go"),
        ("<ol><li>1</li></ol>", "1"),
        ("<dl><dt>CPU</dt><dd>4</dd></dl>", "CPU"),
        ("<dl><dt>CPU</dt><dd>4</dd></dl>", "4"),
        ("<figure><img src='a.png'><figcaption>Fig. 1</figcaption></figure>", "Fig. 1"),
    ],
)
def test_short_list_items_and_captions_are_kept(html, short):
    text = text_of(f"<p>{LONG}</p>{html}<p>Too short.</p>", min_paragraph_chars=20)
    assert short in text.splitlines()
    assert "Too short." not in text


def test_list_items_one_per_line():
    text = text_of("<ul><li>alpha</li><li>beta</li><li>gamma</li></ul>")
    assert "alpha\nbeta\ngamma" in text


def test_short_paragraph_and_blockquote_filtered_by_character_count():
    text = text_of(
        "<p>1234567890</p><blockquote>abcdefghij</blockquote><p>12345678901</p>",
        min_paragraph_chars=11,
    )
    assert text == "12345678901"


def test_text_tables_as_pipe_rows_under_caption():
    text = text_of(
        f"<p>{LONG}</p><table><caption>Opening hours</caption>"
        "<tr><th>Day</th><th>Open</th></tr><tr><td>Monday</td><td>9 to 5</td></tr>"
        "<tr><td>Sunday</td><td>closed</td></tr></table>"
    )
    lines = [line for line in text.splitlines() if line]
    i = lines.index("Opening hours")
    assert lines[i + 1 : i + 4] == ["Day | Open", "Monday | 9 to 5", "Sunday | closed"]


def test_text_tables_dropped_when_disabled():
    text = text_of(
        f"<p>{LONG}</p><table><tr><td>Monday</td><td>9 to 5</td></tr></table>",
        include_tables=False,
    )
    assert text == LONG


def test_pre_is_verbatim_with_indentation():
    text = extract(f"<p>{LONG}</p><pre><code>{CODE}</code></pre><p>{LONG2}</p>").text
    assert f"\n\n{CODE}\n\n" in text
    assert "\n    if name:\n        return" in text


def test_text_contains_no_urls():
    result = extract(
        f'<p>{LONG} See <a href="https://other.example/deep/path?q=1">the notes</a> and '
        '<a href="/rel/link">this page</a>.</p><img src="/img/p.png" alt="photo">'
        f'<p>{LONG2} Questions? <a href="mailto:someone@example.org">write to us</a>.</p>'
    )
    text = result.text
    assert "the notes" in text and "this page" in text and "write to us" in text
    assert "http" not in text
    assert "/rel/link" not in text and "p.png" not in text and "mailto:" not in text
    assert "https://other.example/deep/path?q=1" in result.markdown


def test_br_breaks_lines_in_text():
    text = text_of("<div>first line of the poem<br>second line of the poem<br>third</div>")
    assert text == "first line of the poem\nsecond line of the poem\nthird"


def test_a_link_the_chrome_also_holds_is_in_the_stories_media_lists() -> None:
    # The same address in a dropped teaser box before the story and in the story: the
    # media lists hold what the HTML shows, the story's link and its picture included.
    teaser = (
        '<ul><li><a href="/guide">Our guide</a> <img src="/guide.png" alt="The guide"></li>'
        '<li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul>'
    )
    prose = (
        "<p>The council met on Tuesday to discuss the new library, which opens next "
        "spring with longer hours and a larger reading room than the old one.</p>"
    )
    story = (
        f"<article><h1>Library opens</h1>{teaser}{prose * 3}"
        '<p>Read <a href="/guide">the guide to the library</a> before you visit, and '
        'look at the plan: <img src="/guide.png" alt="The plan of the library"> it shows '
        "every room.</p>"
        f"{prose * 2}</article>"
    )
    html = f"<html><head><title>Library opens</title></head><body>{story}</body></html>"
    result = unchrome.extract(html, url="https://news.example/2024/05/library/")
    assert "the guide to the library" in result.html
    assert "Our guide" not in result.html
    assert "https://news.example/guide" in [link.url for link in result.links]
    assert "https://news.example/guide.png" in [image.url for image in result.images]


def _holders_in_python(blocks: list, keep: list[bool], root: object) -> tuple[set[int], ...]:
    """render.html's reading of the blocks before block_holders compiled it."""
    kept_ids: set[int] = set()
    dropped_ids: set[int] = set()
    holds_kept = {root.mem_id}  # type: ignore[attr-defined]
    holds_dropped = {root.mem_id}  # type: ignore[attr-defined]
    for block, kept in zip(blocks, keep, strict=True):
        ids, holds = (kept_ids, holds_kept) if kept else (dropped_ids, holds_dropped)
        for node in block.nodes:
            ids.add(node.mem_id)
            if not kept and node.tag == "-text" and node.text_content.isspace():
                continue
            parent = node.parent
            while parent is not None and parent.mem_id not in holds:
                holds.add(parent.mem_id)
                parent = parent.parent
    return kept_ids, dropped_ids, holds_kept, holds_dropped


def test_compiled_block_holders_read_the_blocks_as_the_python_walk_did() -> None:
    from unchrome._native._dom import block_holders

    html = (
        "<html><body><div id='w'><article><h1>Title</h1><p>First <b>bold</b> words.</p>"
        "<ul><li>One</li><li>\u00a0\u2003</li><li>Two <a href='/x'>link</a></li></ul>"
        "<pre>code\n  line</pre><table><tr><td>a</td><td>b</td></tr></table>"
        "<p>Caf\u00e9 \u4e2d\u6587</p><div> <span>\u3000</span> </div>"
        # Whitespace between inline elements: ASCII, and not (a no-break space).
        "<p>Alpha <b>beta</b>\n\u00a0<i>gamma</i> <em>delta</em>\u3000<u>eps</u></p></article>"
        "<aside><p>Side words here.</p></aside></div></body></html>"
    )
    seg = segment(LexborHTMLParser(html).body)
    root = seg.nodes[0]
    for keep in (
        [True] * len(seg.blocks),
        [False] * len(seg.blocks),
        [i % 2 == 0 for i in range(len(seg.blocks))],
        [i % 3 == 1 for i in range(len(seg.blocks))],
    ):
        assert block_holders(seg.blocks, keep, root) == _holders_in_python(seg.blocks, keep, root)
    with pytest.raises(ValueError):
        block_holders(seg.blocks, [True], root)
