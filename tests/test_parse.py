"""Parsing: the tree lexbor builds from the page's bytes or text, with the guards before it
(pipeline.parse)."""

from __future__ import annotations

import unchrome
from pages import STORY, page, story_html


def test_an_unclosed_iframe_in_noscript_does_not_swallow_the_page():
    # Google Tag Manager's snippet, written with a self-closing <iframe/> (not valid
    # HTML): read as markup, the iframe's raw text runs to the end of the document.
    gtm = (
        '<noscript><iframe src="https://tags.example/ns.html?id=GTM-1" height="0" '
        'width="0" style="display:none;visibility:hidden"/></noscript>'
    )
    result = unchrome.extract(page(gtm + "<main>" + story_html() + "</main>"))
    for paragraph in STORY:
        assert paragraph in result.text
    assert "<" not in result.text


def test_parsing_the_utf8_bytes_builds_the_tree_the_text_builds() -> None:
    from unchrome.pipeline.parse import guard_markup, parse

    page = "<html><head><title>Grüße</title></head><body><p>世界 <b>😀</b> ok</p></body></html>"
    assert guard_markup(page.encode()) == page.encode()
    assert parse(page.encode()).html == parse(page).html
    # Markup the guard changes comes back as a str, capped as the text would be.
    crowded = "<p " + " ".join(f"a{i}=1" for i in range(300)) + ">x</p>"
    assert guard_markup(crowded.encode()) == guard_markup(crowded) != crowded
    assert parse(crowded.encode()).html == parse(crowded).html
    body = parse(crowded.encode()).body
    assert body is not None and len(body.css_first("p").attributes) == 256
    deep = "<div>" * 20_000 + "x"
    assert guard_markup(deep.encode()) == guard_markup(deep) != deep
