"""Fallbacks on thin pages: the embedded body by format (Arc XP, JSON-LD, Next.js, Discourse,
a noscript copy), then og:description (pipeline.fallbacks)."""

from __future__ import annotations

import html
import json

from selectolax.lexbor import LexborHTMLParser

import unchrome
from pages import STORY, fixture, page, paragraphs_of

POST = "The bridge inspection found the central pier resting on clay, so the repairs start now. "


def test_arc_xp_global_content_is_the_body():
    raw = fixture("arcxp.html")
    script = LexborHTMLParser(raw.decode()).css_first("script").text()
    payload = script.split("Fusion.globalContent=", 1)[1]
    content, _ = json.JSONDecoder().raw_decode(payload)
    texts = [e["content"] for e in content["content_elements"] if e["type"] == "text"]

    result = unchrome.extract(raw)
    assert result.has_body
    assert result.title == "Harbour ferry returns after winter break"
    for text in texts:
        assert text in result.text
    assert "A new engine for an old boat" in result.text
    assert "Weekday departures every twenty minutes" in result.text
    assert "## A new engine for an old boat" in result.markdown
    assert "Fusion" not in result.text


def test_json_ld_article_body_when_dom_is_empty():
    body = " ".join(STORY)
    ld = json.dumps(
        {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "headline": "Library stays open",
            "articleBody": body,
        }
    )
    html = page(
        '<div id="app"></div>',
        head=f'<title>Library stays open</title><script type="application/ld+json">{ld}</script>',
    )
    result = unchrome.extract(html)
    assert result.has_body
    for paragraph in STORY:
        assert paragraph in result.text
    assert paragraphs_of(result.html) == [body]


def test_next_data_story_replaces_a_cut_teaser():
    # A Next.js news app renders a teaser cut with "..." and keeps the story, one
    # paragraph a line, under its props' "desc".
    teaser = STORY[0][:90] + "..."
    props = {
        "props": {"pageProps": {"newsItems": {"title": "Library", "desc": "\n\n".join(STORY)}}}
    }
    html = page(
        f'<div class="newsDetail"><h1>Library stays open</h1><p>{teaser}</p></div>'
        f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(props)}</script>',
        head="<title>Library stays open</title>",
    )
    result = unchrome.extract(html)
    for paragraph in STORY:
        assert paragraph in result.text
        assert paragraph in result.markdown


def test_og_description_when_dom_and_json_are_empty():
    desc = "The council voted to keep the public library open on Sundays after a petition."
    html = page(
        '<div id="app"></div>',
        head=f'<title>Library stays open</title><meta property="og:description" content="{desc}">',
    )
    result = unchrome.extract(html)
    assert result.has_body
    assert result.text == desc
    assert desc in result.markdown


def test_discourse_thread_is_read_from_the_preloaded_store():
    topic = {"post_stream": {"posts": [
        {"username": "alice", "cooked": f"<p>{POST * 3}</p>"},
        {"username": "bob", "cooked": "<p>Thanks, that matches what the council said.</p>"},
    ]}}  # fmt: skip
    store = html.escape(json.dumps({"topic_7": json.dumps(topic)}), quote=True)
    page = (
        "<html><body><div id='main'><p>Loading…</p></div>"
        f"<div class='hidden' id='data-preloaded' data-preloaded=\"{store}\"></div></body></html>"
    )
    result = unchrome.extract(page)
    assert POST.strip() in result.text
    assert "alice" in result.text and "matches what the council said" in result.text


def test_noscript_copy_is_used_when_the_app_shell_is_empty():
    page = (
        "<html><body><div id='app'><div class='loading'>Loading the forum…</div></div>"
        f"<noscript><div class='post'><h3>antonjw</h3><p>{POST * 4}</p></div></noscript>"
        "</body></html>"
    )
    result = unchrome.extract(page)
    assert POST.strip() in result.text
    assert "Loading the forum" not in result.text


def test_thin_product_page_falls_back_to_json_ld_description():
    description = (
        "Hand-thrown stoneware mug with a speckled white glaze, 350 ml, dishwasher and "
        "microwave safe. Each piece is made in our studio, so the speckles and the shape "
        "vary a little from mug to mug; allow two weeks for us to make and ship yours."
    )
    ld = (
        '<script type="application/ld+json">{"@context": "https://schema.org", '
        f'"@type": "Product", "name": "Speckle mug", "description": "{description}"}}</script>'
    )
    html = page('<div id="app"><p>Loading the shop…</p></div>', head=f"<title>Mug</title>{ld}")
    result = unchrome.extract(html)
    assert description in result.text
