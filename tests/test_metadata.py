"""Metadata extraction: handwritten fixtures per rule, then agreement with Readability's data.

The dataset test reads the Readability test pages from ``shared/data/readability`` beside
the repository and skips when they are absent; nothing from them is copied here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from unchrome.metadata import Metadata, extract_metadata


def md(html: str, url: str | None = None) -> Metadata:
    return extract_metadata(LexborHTMLParser(html), url)


def page(head: str = "", body: str = "", lang: str = "") -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    return f"<!DOCTYPE html><html{lang_attr}><head>{head}</head><body>{body}</body></html>"


def ld(obj: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(obj)}</script>'


# --------------------------------------------------------------------------- title


def test_og_title_beats_title_element() -> None:
    m = md(
        page(
            '<title>Cheap Flights Home | Travel Site</title><meta property="og:title"'
            ' content="How we cut fares in half">'
        )
    )
    assert m.title == "How we cut fares in half"


def test_json_ld_headline_beats_og_title() -> None:
    # JSON-LD headline is the editorial title; og:title is often a social-media variant.
    head = ld({"@type": "NewsArticle", "headline": "The real headline of the story"})
    head += '<meta property="og:title" content="You will not believe this story">'
    assert md(page(head)).title == "The real headline of the story"


def test_json_ld_name_preferred_when_headline_is_a_summary() -> None:
    # Wikipedia-style: "headline" holds a description, "name" matches the <title>.
    head = "<title>New Zealand - Wikipedia</title>" + ld(
        {"@type": "Article", "name": "New Zealand", "headline": "island country in Oceania"}
    )
    assert md(page(head)).title == "New Zealand"


@pytest.mark.parametrize("sep", [" | ", " - ", " — ", " – ", " :: ", " · ", " » "])
def test_site_suffix_removed_from_title_element(sep: str) -> None:
    html = page(f"<title>Scientists map the ocean floor in detail{sep}Daily Planet</title>")
    assert md(html).title == "Scientists map the ocean floor in detail"


def test_site_prefix_removed_when_it_matches_site_name() -> None:
    html = page(
        '<meta property="og:site_name" content="Daily Planet">'
        "<title>Daily Planet | Scientists map the ocean floor</title>"
    )
    assert md(html).title == "Scientists map the ocean floor"


def test_site_matched_by_host_name() -> None:
    html = page("<title>Lupita's Pearl Dress -- STOLEN!!! | TMZ.com</title>")
    title = md(html, "https://www.tmz.com/2015/03/01/x/").title
    assert title == "Lupita's Pearl Dress -- STOLEN!!!"
    bbc = page("<title>Obama admits US gun laws frustrate him - BBC</title>")
    assert md(bbc, "https://www.bbc.co.uk/news/1").title == "Obama admits US gun laws frustrate him"


def test_title_keeps_dash_when_both_halves_are_long() -> None:
    title = "Raspberry Pi 3 - The credit card sized PC that cost only $35"
    assert md(page(f"<title>{title}</title>")).title == title


def test_og_title_loses_only_a_recognised_site_segment() -> None:
    base = '<meta property="og:site_name" content="eHow">'
    og = '<meta property="og:title" content="How to Build a Terrarium | eHow">'
    stripped = md(page(base + og))
    assert stripped.title == "How to Build a Terrarium"
    # A short trailing segment that is not the site (a series, a chapter) stays.
    kept = md(page(base + '<meta property="og:title" content="Chapter 102 - Super Supportive">'))
    assert kept.title == "Chapter 102 - Super Supportive"


def test_short_title_falls_back_to_single_long_h1() -> None:
    html = page("<title>Home</title>", "<h1>Why the river changed course last spring</h1>")
    assert md(html).title == "Why the river changed course last spring"
    # ...but a short <title> beats a short h1, as in Readability.
    assert md(page("<title>Base URL test</title>", "<h1>Lorem</h1>")).title == "Base URL test"


def test_svg_title_is_not_the_page_title() -> None:
    html = page("<title>Real page title here</title>", "<svg><title>icon</title></svg>")
    assert md(html).title == "Real page title here"


def test_title_entities_and_whitespace() -> None:
    html = page('<meta property="og:title" content="Mac &amp;amp; i:\n   news   ">')
    assert md(html).title == "Mac & i: news"


# --------------------------------------------------------------------------- JSON-LD


def test_json_ld_graph_with_author_list_and_id_references() -> None:
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebSite", "@id": "https://ex.com/#website", "name": "Example Site"},
            {"@type": "Organization", "@id": "https://ex.com/#org", "name": "Example Media"},
            {"@type": "Person", "@id": "https://ex.com/#ann", "name": "Ann Smith"},
            {
                "@type": ["BlogPosting"],
                "headline": "Graphs all the way down",
                "author": [{"@id": "https://ex.com/#ann"}, {"@type": "Person", "name": "Bo Li"}],
                "publisher": {"@id": "https://ex.com/#org"},
                "datePublished": "2024-03-05T10:00:00+01:00",
                "image": {"@type": "ImageObject", "url": "/img/hero.jpg"},
                "description": "Why @graph matters.",
            },
        ],
    }
    m = md(page(ld(graph)), "https://ex.com/posts/1")
    assert m.title == "Graphs all the way down"
    assert m.author == "Ann Smith, Bo Li"
    assert m.site_name == "Example Media"
    assert m.date == "2024-03-05T10:00:00+01:00"
    assert m.image == "https://ex.com/img/hero.jpg"
    assert m.description == "Why @graph matters."
    assert [o["@type"] for o in m.json_ld] == ["WebSite", "Organization", "Person", ["BlogPosting"]]


def test_json_ld_article_preferred_over_embedded_video() -> None:
    head = ld({"@type": "VideoObject", "name": "Clip", "datePublished": "2020-01-01"})
    head += ld({"@type": "NewsArticle", "headline": "Story", "datePublished": "2021-02-02"})
    m = md(page(head))
    assert (m.title, m.date) == ("Story", "2021-02-02")


def test_json_ld_lenient_parsing() -> None:
    broken = """<script type="application/ld+json">
        //<![CDATA[
        {"@type": "Article", "headline": "Trailing commas survive",
         "author": {"name": "Cy\tTab"},}
        //]]>
    </script>"""
    m = md(page(broken))
    assert m.title == "Trailing commas survive"
    assert m.author == "Cy Tab"


def test_invalid_json_ld_is_skipped() -> None:
    head = '<script type="application/ld+json">{"@type": "Article", "headline": </script>'
    head += '<script type="application/ld+json">42</script>'
    head += '<script type="application/ld+json">[null, "x", {"@graph": "nope"}]</script>'
    head += '<meta property="og:title" content="From meta instead">'
    m = md(page(head))
    assert m.title == "From meta instead"
    assert m.json_ld == []


def test_json_ld_main_entity_and_type_url() -> None:
    obj = {
        "@type": "WebPage",
        "mainEntity": {"@type": "http://schema.org/NewsArticle", "headline": "Nested story"},
    }
    assert md(page(ld(obj))).title == "Nested story"


# --------------------------------------------------------------------------- author


def test_author_sources_and_cleaning() -> None:
    assert md(page('<meta name="author" content="By Jane Doe">')).author == "Jane Doe"
    # A profile URL is not a name; the DOM byline is used instead.
    html = page(
        '<meta property="article:author" content="https://facebook.com/jdoe">',
        '<p class="byline">By <a rel="author" href="/u/jd">Jane Doe</a></p>',
    )
    assert md(html).author == "Jane Doe"


def test_dom_byline_narrowed_to_the_name() -> None:
    body = (
        '<div class="author"><a class="author-link" href="/a/ben">Ben Silverman</a>'
        '<div class="author-title">Games Editor</div></div>'
    )
    assert md(page(body=body)).author == "Ben Silverman"
    dated = '<span class="byline">Joe Wee Monday, February 29, 2016 @ 11:10 PM UTC</span>'
    assert md(page(body=dated)).author == "Joe Wee"
    two = (
        '<p class="byline">By <span class="author">A Writer</span>'
        ' and <span class="author">B Editor</span></p>'
    )
    assert md(page(body=two)).author == "A Writer, B Editor"


def test_byline_leaves_out_the_people_credited_beside_the_author() -> None:
    body = (
        '<div class="byline"><span class="author-name">Ann Writer</span>'
        '<div class="byline-wrapper">Updated by Carl Editor</div>'
        '<div class="byline-reviewer">Reviewed by Dee Expert</div></div>'
    )
    assert md(page(body=body)).author == "Ann Writer"


def test_long_byline_and_comment_authors_ignored() -> None:
    body = f'<div class="author-box">{"word " * 40}</div><span class="comment-author">troll</span>'
    assert md(page(body=body)).author is None


# --------------------------------------------------------------------------- date


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("2015-07-24T05:36:09+01:00", "2015-07-24T05:36:09+01:00"),
        ("2021-11-01T10:52:50+0100", "2021-11-01T10:52:50+01:00"),
        ("2015-03-27T13:07:55.096Z", "2015-03-27T13:07:55+00:00"),
        ("2017-11-03 03:01:00.000000", "2017-11-03T03:01:00"),
        ("2018-04-05T06:00", "2018-04-05T06:00:00"),
        ("2024-06-25", "2024-06-25"),
        ("2015/03/25", "2015-03-25"),
        ("20150325", "2015-03-25"),
        ("Wed, 25 Mar 2015 10:00:00 GMT", "2015-03-25T10:00:00+00:00"),
        ("March 25, 2015", "2015-03-25"),
        ("25th March 2015", "2015-03-25"),
        ("Sept. 5, 2018 3:46 PM", "2018-09-05"),
        ("1429214521", "2015-04-16T20:02:01+00:00"),
        ("2023 Jan 7", "2023-01-07"),
        ("12. März 2025", "2025-03-12"),
        ("12 de noviembre de 2025", "2025-11-12"),
        ("2025年3月12日", "2025-03-12"),
    ],
)
def test_date_normalisation(raw: str, iso: str) -> None:
    html = page(f'<meta property="article:published_time" content="{raw}">')
    assert md(html).date == iso


def test_unparseable_dates_fall_through() -> None:
    html = page(
        '<meta property="article:published_time" content="yesterday">'
        '<meta name="date" content="2016-02-30">'  # impossible day: skipped too
        '<meta name="dc.date" content="2016-02-01">'
    )
    assert md(html).date == "2016-02-01"


def test_date_from_time_element_prefers_marked_one() -> None:
    body = (
        '<time datetime="2001-01-01">nav</time>'
        '<span itemprop="datePublished" content="2019-04-30T13:39:00-04:00">April 30</span>'
    )
    assert md(page(body=body)).date == "2019-04-30T13:39:00-04:00"
    assert md(page(body='<time datetime="2013-09-29">x</time>')).date == "2013-09-29"


def test_date_printed_in_an_element_named_for_it() -> None:
    # No meta tag, no <time datetime>: the date the page prints under its headline.
    body = (
        "<h1>Harbour ferry returns</h1><div class='post-meta'><span class='entry-date'>"
        "Posted on November 12, 2025</span></div><p>Story.</p>"
    )
    assert md(page(body=body)).date == "2025-11-12"
    # A meta tag still wins over the printed date.
    head = '<meta property="article:published_time" content="2025-11-10">'
    assert md(page(head=head, body=body)).date == "2025-11-10"


def test_date_from_the_url_path_as_a_last_resort() -> None:
    url = "https://news.example/2025/11/12/harbour-ferry-returns/"
    assert md(page(body="<p>Story.</p>"), url).date == "2025-11-12"
    assert md(page(body="<p>Story.</p>"), "https://news.example/2025/13/45/x").date is None


def test_date_from_a_month_named_in_the_url_or_a_dated_slug() -> None:
    empty = page(body="<p>Story.</p>")
    assert md(empty, "https://wine.example/blog/2023/october/03/styles/").date == "2023-10-03"
    assert md(empty, "https://blog.example/articles/2025-12-15+Rust+GCC").date == "2025-12-15"
    assert md(empty, "https://shop.example/2025/11/123456/item").date is None


# A story long enough that whatever follows it is past the text read by the headline.
STORY = "<p>" + "The harbour ferry carried its first passengers in a decade. " * 12 + "</p>"


def test_printed_date_under_the_headline_in_english() -> None:
    body = "<h1>Harbour ferry returns</h1><p class=byline>By Ann Lee · Nov 12, 2025</p>" + STORY
    assert md(page(body=body)).date == "2025-11-12"


def test_printed_date_under_the_headline_in_german() -> None:
    body = "<h1>Die Fähre kehrt zurück</h1><p>Von Anna Lee, 12. November 2025, 09:30 Uhr</p>"
    assert md(page(body=body + STORY, lang="de")).date == "2025-11-12"


def test_printed_date_under_the_headline_in_chinese() -> None:
    body = "<h1>渡轮恢复运营</h1><div><span>2025年11月12日 09:30</span> 来源：新华网</div>"
    assert md(page(body=body + STORY, lang="zh-CN")).date == "2025-11-12"


def test_printed_date_above_the_headline() -> None:
    body = "<nav>Home</nav><p>February 4, 2025 · 11 minutes</p><h1>Harbour ferry returns</h1>"
    assert md(page(body=body + STORY)).date == "2025-02-04"


def test_numeric_printed_dates_follow_the_language_or_an_unambiguous_neighbour() -> None:
    body = "<h1>Harbour ferry returns</h1><p>3/4/2025</p>" + STORY
    assert md(page(body=body, lang="en-US")).date == "2025-03-04"
    assert md(page(body=body, lang="en-GB")).date == "2025-04-03"
    assert md(page(body=body.replace("3/4/", "3.4."), lang="en-US")).date == "2025-04-03"
    # A thread's "Last post: 01/12/2025" beside "28/11/2025": both day first.
    body = "<h1>Harbour ferry</h1><p>Last post: 01/12/2025</p><p>Sharon 28/11/2025</p>"
    m = md(page(body=body + STORY, lang="en"))
    assert (m.date, m.date_modified) == ("2025-11-28", "2025-12-01")


def test_a_comment_date_is_not_the_publication_date() -> None:
    comments = "<section class=comments><p>Bo wrote on Nov 20, 2025: great news</p></section>"
    body = "<h1>Harbour ferry returns</h1><p class=byline>By Ann Lee</p>" + STORY + comments
    assert md(page(body=body)).date is None
    # Nor does it displace the date the page gives itself.
    head = '<meta property="article:published_time" content="2025-11-12T08:00:00Z">'
    assert md(page(head=head, body=body)).date == "2025-11-12T08:00:00+00:00"


def test_a_photo_caption_date_is_not_the_publication_date() -> None:
    caption = (
        "<div class=caption>A police helicopter searches the river in Akwesasne, Que., Friday,"
        " March 31, 2023. Authorities say eight bodies were recovered. THE CANADIAN PRESS</div>"
    )
    head = '<meta property="article:published_time" content="2023-04-03T19:13:28-04:00">'
    body = "<h1>Police identify family</h1>" + caption + "<p>Published April 3, 2023</p>"
    assert md(page(head=head, body=body + STORY)).date == "2023-04-03T19:13:28-04:00"
    assert md(page(body=body + STORY)).date == "2023-04-03"


def test_a_forum_members_join_date_is_not_the_posts_date() -> None:
    body = "<h1>Harbour ferry</h1><p>Joined: Sun Dec 17, 2023</p><p>Posted Mon Jan 8, 2024</p>"
    assert md(page(body=body + STORY)).date == "2024-01-08"


def test_the_headline_of_a_page_without_h1_is_the_h2_holding_its_title() -> None:
    body = (
        "<h2>Your cart is empty</h2><h2>Turning off all LEDs</h2>"
        "<p>by pi_user » Sun Dec 17, 2023 11:23 am</p>" + STORY
    )
    head = "<title>Turning off all LEDs - Raspberry Pi Forums</title>"
    assert md(page(head=head, body=body)).date == "2023-12-17"


def test_a_printed_updated_date_is_the_modification_date() -> None:
    body = "<h1>Harbour ferry</h1><p>Published Jan 5, 2025 · Updated March 3, 2025</p>"
    m = md(page(body=body + STORY))
    assert (m.date, m.date_modified) == ("2025-01-05", "2025-03-03")
    # Where the page states only when it was updated, that is the date it gives itself.
    m = md(page(body="<h1>Harbour ferry</h1><p>Last updated on 3 March 2025</p>" + STORY))
    assert (m.date, m.date_modified) == ("2025-03-03", "2025-03-03")


def test_date_modified_from_json_ld_then_meta_tags() -> None:
    meta = '<meta property="article:modified_time" content="2025-03-04T10:00:00+01:00">'
    assert md(page(head=meta)).date_modified == "2025-03-04T10:00:00+01:00"
    head = meta + ld(
        {"@type": "NewsArticle", "datePublished": "2025-01-02", "dateModified": "2025-03-05"}
    )
    m = md(page(head=head))
    assert (m.date, m.date_modified) == ("2025-01-02", "2025-03-05")
    assert md(page(body="<p>Story.</p>")).date_modified is None


def test_date_modified_from_a_time_element_named_for_it() -> None:
    body = '<time class="updated" datetime="2025-03-05">5 March</time><time datetime="2025-01-02">'
    m = md(page(body=body))
    assert (m.date, m.date_modified) == ("2025-01-02", "2025-03-05")


def test_an_earlier_date_printed_under_the_headline_beats_a_rewritten_meta_date() -> None:
    # CMSes rewrite article:published_time on updates; the byline keeps the first day.
    head = '<meta property="article:published_time" content="2025-06-12">'
    body = "<h1>Foundational fitness</h1><p>November 2, 2022</p>" + STORY
    assert md(page(head=head, body=body)).date == "2022-11-02"
    # A day apart is a time zone (UTC in the markup, the local day in print): markup wins.
    body = "<h1>Foundational fitness</h1><p>June 11, 2025</p>" + STORY
    assert md(page(head=head, body=body)).date == "2025-06-12"
    # A later printed date is an update the byline does not label: markup wins too.
    body = "<h1>Foundational fitness</h1><p>July 1, 2025</p>" + STORY
    assert md(page(head=head, body=body)).date == "2025-06-12"


def test_a_script_named_like_a_date_is_not_read_as_json_ld() -> None:
    body = '<script class="post-date">{"@type": "NewsArticle", "headline": "Wrong"}</script>'
    assert md(page(head="<title>Right title</title>", body=body)).title == "Right title"


# --------------------------------------------------------------------------- language


@pytest.mark.parametrize(
    ("html", "lang"),
    [
        (page(lang="en_us"), "en-US"),
        (page(lang="EN-gb"), "en-GB"),
        (page(lang="zh-hant-tw"), "zh-Hant-TW"),
        (page('<meta http-equiv="Content-Language" content="de, en">'), "de"),
        (page('<meta property="og:locale" content="pt_BR">'), "pt-BR"),
        (page('<meta property="og:locale" content="pt_BR">', lang="{{lang}}"), "pt-BR"),
    ],
)
def test_language_normalisation(html: str, lang: str) -> None:
    assert md(html).language == lang


# --------------------------------------------------------------------------- URLs


def test_relative_og_image_resolved_against_url() -> None:
    html = page('<meta property="og:image" content="../img/a.jpg">')
    assert md(html, "https://ex.com/news/story/1").image == "https://ex.com/news/img/a.jpg"
    # Without a page URL a relative value is returned as found rather than dropped.
    assert md(html).image == "../img/a.jpg"


def test_relative_og_image_resolved_against_base() -> None:
    html = page('<base href="/static/"><meta property="og:image" content="a.jpg">')
    assert md(html, "https://ex.com/news/1").image == "https://ex.com/static/a.jpg"
    absolute_base = page(
        '<base href="https://cdn.ex.net/x/"><meta name="twitter:image" content="b.png">'
    )
    assert md(absolute_base).image == "https://cdn.ex.net/x/b.png"


def test_canonical_and_og_url() -> None:
    html = page('<link rel="canonical" href="/a?id=1"><meta property="og:url" content="/b">')
    assert md(html, "https://ex.com/x").canonical_url == "https://ex.com/a?id=1"
    assert md(page('<meta property="og:url" content="/b">'), "https://ex.com/x").canonical_url == (
        "https://ex.com/b"
    )


# --------------------------------------------------------------------------- misc


def test_meta_property_beats_name_and_space_separated_keys() -> None:
    html = page(
        '<meta name="DC.title" content="name spelling">'
        '<meta property="dc:title" content="property spelling">'
        '<meta property="og:description twitter:description" content="shared">'
        '<meta property="og:type" content="article">'
        '<meta property="og:site_name" content="Site">'
    )
    m = md(html)
    assert m.title == "property spelling"
    assert m.description == "shared"
    assert m.og_type == "article"
    assert m.site_name == "Site"


def test_double_escaped_entities_decoded() -> None:
    html = page('<meta property="og:description" content="&amp;#x1F62D; &amp;quot;hi&amp;quot;">')
    assert md(html).description == '😭 "hi"'


def test_empty_document() -> None:
    for html in ("", "   ", "<html></html>", "\x00\x01"):
        m = md(html)
        assert m == Metadata(), html
        assert m.json_ld == []


def test_never_raises_on_hostile_input() -> None:
    # Each page also carries a good og:title: one bad source must not blank the rest
    # (extract_metadata's catch-all would hide that).
    ok = '<meta property="og:title" content="Survivor">'
    deep = "[" * 3000 + "]" * 3000
    hostile = [
        page(ok + f'<script type="application/ld+json">{deep}</script>'),
        page(
            ok + '<script type="application/ld+json">{"@type": "Article", "author": 5,'
            ' "headline": [1], "publisher": ["x"], "image": {"url": 3}, "@id": [1],'
            ' "datePublished": 7}</script>'
        ),
        page(ok + '<base href="http://[::1"><meta property="og:image" content="x.jpg">'),
        page(ok + '<meta property="article:published_time" content="9999-99-99T99:99">'),
        page(ok, lang="-"),
        page(ok + "<title>" + " | " * 500 + "</title>"),
    ]
    for html in hostile:
        for url in ("http://ex.com/", None, "http://[::1"):
            assert md(html, url).title == "Survivor", (html[:80], url)


# ---------------------------------------------------------------- issue 41's newcomers


def test_the_site_name_leaves_the_title_whatever_the_separator_and_script() -> None:
    wiki = page("<title>Mozilla - Wikipedia</title>", "<h1>Mozilla</h1>")
    assert md(wiki, "https://en.wikipedia.org/wiki/Mozilla").title == "Mozilla"
    portal = page("<title>DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网</title>")
    assert md(portal).title == "DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶"
    wide_bar = page("<title>東京の桜が満開に、週末は花見客で混雑か｜日本経済新聞</title>")
    assert md(wide_bar).title == "東京の桜が満開に、週末は花見客で混雑か"
    # A snake_case word in a Latin title is no separator.
    code = page("<title>How snake_case names read in Python code</title>")
    assert md(code).title == "How snake_case names read in Python code"


def test_the_title_is_the_storys_h1_not_the_site_wide_title() -> None:
    # The <title> and og:title are the same site-wide string on every page; the h1
    # that shares its words is the document's headline.
    head = (
        "<title>Best moving companies 2025 | Movers Guide</title>"
        '<meta property="og:title" content="Best moving companies 2025 | Movers Guide">'
    )
    body = (
        "<h1>Movers Guide</h1><article><h1>Best Long-Distance Moving Companies 2025</h1></article>"
    )
    assert md(page(head, body)).title == "Best Long-Distance Moving Companies 2025"


def test_the_h1_that_leads_the_title_is_the_headline_and_loses_its_permalink_mark() -> None:
    head = "<title>Software | MIT News | Massachusetts Institute of Technology</title>"
    assert md(page(head, "<h1>Software</h1>")).title == "Software"
    docs = page("<title>Working with forms — Django documentation</title>",
                '<h1>Working with forms<a class="headerlink" href="#x">¶</a></h1>')  # fmt: skip
    assert md(docs).title == "Working with forms"


def test_an_h1_that_shares_nothing_with_the_declared_title_is_not_the_headline() -> None:
    head = '<meta property="og:title" content="Rail strike called off after late-night talks">'
    assert md(page(head, "<h1>Newsletter sign-up</h1>")).title == (
        "Rail strike called off after late-night talks"
    )


def test_a_json_ld_article_headline_stands_over_a_differing_h1() -> None:
    head = ld({"@type": "NewsArticle", "headline": "Council approves the new harbour ferry"})
    body = "<h1>Harbour ferry approved by council in late vote</h1>"
    assert md(page(head, body)).title == "Council approves the new harbour ferry"


def test_a_kicker_before_a_colon_stays_with_the_headline() -> None:
    head = '<meta property="og:title" content="Nationaler Veteranentag: Orden fürs Morden">'
    assert md(page(head, "<h1>Orden fürs Morden</h1>")).title == (
        "Nationaler Veteranentag: Orden fürs Morden"
    )


def test_a_section_segment_another_title_goes_without_leaves_the_headline() -> None:
    head = ld({"@type": "NewsArticle", "headline": "Thioune fordert Geduld mit Niemiec | Sport"})
    head += '<meta property="og:title" content="Thioune fordert Geduld mit Niemiec">'
    assert md(page(head)).title == "Thioune fordert Geduld mit Niemiec"


def test_an_h1_that_says_the_declared_title_in_full_is_the_headline() -> None:
    # The declared titles were cut for a search result; the h1 goes on in the same
    # sentence, also past a JSON-LD headline and a declared title cut at an ellipsis.
    head = '<meta property="og:title" content="Best High School Tutors in 2025">'
    body = "<h1>Best High School Tutors in 2025, Reviewed by a Student</h1>"
    assert md(page(head, body)).title == "Best High School Tutors in 2025, Reviewed by a Student"
    head = ld({"@type": "Article", "headline": "US Plumbing Fixtures & Fittings"})
    body = "<h1>US Plumbing Fixtures &amp; Fittings Report</h1>"
    assert md(page(head, body)).title == "US Plumbing Fixtures & Fittings Report"
    head = '<meta property="og:title" content="What will be the trend in the watch...">'
    body = "<h1>What will be the trend in the watch market in 2024?</h1>"
    assert md(page(head, body)).title == "What will be the trend in the watch market in 2024?"


def test_an_h1_that_adds_the_sites_segment_or_a_host_does_not_say_the_title_in_full() -> None:
    head = '<meta property="og:title" content="Tips from a first time Japan visitor">'
    body = "<h1>Tips from a first time Japan visitor - Japan Forum</h1>"
    assert md(page(head, body)).title == "Tips from a first time Japan visitor"
    head = '<meta property="og:title" content="Convert The Linux Kernel From C To Modern C++">'
    body = "<h1>Convert The Linux Kernel From C To Modern C++ (phoronix.com) 139 points</h1>"
    assert md(page(head, body)).title == "Convert The Linux Kernel From C To Modern C++"
    # An h1 that runs on into its standfirst is not the headline said in full.
    head = '<meta property="og:title" content="Tax 101: Understanding the basics">'
    body = "<h1>Tax 101: Understanding the basics <span>A guide to the types of taxes"
    body += " Americans pay, how they work, and why understanding them matters</span></h1>"
    assert md(page(head, body)).title == "Tax 101: Understanding the basics"


def test_an_h1_glued_to_a_comment_count_or_a_dateline_does_not_say_the_title_in_full() -> None:
    head = '<meta property="og:title" content="How to Lose 100 Pounds on The Slow-Carb Diet">'
    body = "<h1>How to Lose 100 Pounds on The Slow-Carb Diet <span>385 Comments</span></h1>"
    assert md(page(head, body)).title == "How to Lose 100 Pounds on The Slow-Carb Diet"
    head = '<meta property="og:title" content="Anna Hazare to form a national trust">'
    body = "<h1>Anna Hazare to form a national trust<div>Politics, Posted on Nov 06</div></h1>"
    assert md(page(head, body)).title == "Anna Hazare to form a national trust"


def test_an_h1_loses_a_trailing_segment_naming_the_site() -> None:
    head = '<meta property="og:site_name" content="WRAL">'
    body = "<h1>Vehicle rental News and Reporting Coverage | WRAL</h1>"
    url = "https://www.wral.com/vehicle-rental/1/"
    assert md(page(head, body), url).title == "Vehicle rental News and Reporting Coverage"
    # A leading one is a series' or a newsletter's name as often, and stays.
    body = "<h1>Digjitale Signal #18 – The World Without Work?</h1>"
    assert md(page("", body), "https://www.digjitale.com/p/x").title == (
        "Digjitale Signal #18 – The World Without Work?"
    )


def test_a_json_ld_headline_escaped_twice_is_decoded() -> None:
    head = '<script type="application/ld+json">{"@type": "NewsArticle", "headline": '
    head += '"And finally&amp;#8230; trouble brewing"}</script>'
    assert md(page(head)).title == "And finally… trouble brewing"


def test_authors_are_names_only_as_a_list() -> None:
    meta = page('<meta name="author" content="By Ada Lovelace and Alan Turing">')
    assert md(meta).authors == ["Ada Lovelace", "Alan Turing"]
    assert md(meta).author == "Ada Lovelace, Alan Turing"
    for label, name in (("Von", "Birgit Baumann"), ("Par", "Sébastien Farcis"),
                        ("Por", "Lorenzo Marina"), ("di", "Luca Monaco"),
                        ("Av", "Per-Erik Ofstad"), ("Text by", "Hunter Dukes")):  # fmt: skip
        byline = page(body=f'<p class="byline">{label} {name}</p>')
        assert md(byline).authors == [name], label
    roles = page('<meta name="author" content="Jane Doe, Staff Writer; Raj Patel, MD">')
    assert md(roles).authors == ["Jane Doe", "Raj Patel"]


def test_a_byline_with_the_outlet_and_a_posted_label_gives_no_outlet_as_a_person() -> None:
    html = page(
        '<meta property="og:site_name" content="CBC News">',
        '<div class="byline"><span class="authorName">Anna Ruiz</span> · CBC News · Posted: '
        "Mar 3, 2025</div>",
    )
    assert md(html, "https://www.cbc.ca/news/x").authors == ["Anna Ruiz"]
    alone = page('<meta property="og:site_name" content="CBC News">',
                 '<div class="byline">CBC News · Posted: Mar 3, 2025</div>')  # fmt: skip
    assert md(alone, "https://www.cbc.ca/news/x").authors == ["CBC News"]


def test_a_by_line_printed_under_the_headline_names_the_author() -> None:
    body = (
        "<h1>Raised beds for small gardens</h1><div><span>Published August 7, 2023</span>"
        " <span>by Nicole Burke</span></div><p>Start with one bed.</p>"
    )
    assert md(page(body=body)).authors == ["Nicole Burke"]
    apart = "<h1>Rent a moving truck</h1><p>Written by</p><p>Edzel Tabing</p><p>Trucks...</p>"
    assert md(page(body=apart)).authors == ["Edzel Tabing"]
    prose = "<h1>River walks</h1><p>By the river the path turns left.</p>"
    assert md(page(body=prose)).authors == []


def test_a_by_line_spread_over_lines_of_its_text_node_names_the_author() -> None:
    body = "<h1>Survival Guide to SysV Init</h1><div>by Jon Foster\n    -\n    2025-09-13</div>"
    assert md(page(body=body)).authors == ["Jon Foster"]


def test_a_qa_pages_author_is_its_questions() -> None:
    head = ld({"@type": "QAPage", "mainEntity": {"@type": "Question",
               "name": "Which Qt6 version for Ubuntu 24.04", "author": {"@type": "Person",
               "name": "JonB"}, "dateCreated": "2024-04-17T10:58:44Z"}})  # fmt: skip
    found = md(page(head, '<h1>Which Qt6 version for Ubuntu 24.04</h1><div class="post-header">'
                    "<span>J</span>Offline<a>JonB</a> wrote on <a>#1</a></div>"))  # fmt: skip
    assert (found.authors, found.date) == (["JonB"], "2024-04-17T10:58:44+00:00")


def test_a_microdata_author_named_in_a_meta_element() -> None:
    body = ('<h1>RC1 of NodeBB v4</h1><div itemprop="author" itemscope '
            'itemtype="https://schema.org/Person"><meta itemprop="name" content="julian">'
            '<meta itemprop="url" content="/user/julian"></div><p>The release...</p>')  # fmt: skip
    assert md(page(body=body)).authors == ["julian"]


def test_a_role_in_a_byline_element_of_its_own_is_no_name() -> None:
    body = ('<h1>Ergonomic desk step by step</h1><div class="article-author">'
            '<span class="author-name">Mateusz Haberny</span>'
            '<span class="author-position">Founder at Oakywood</span></div>')  # fmt: skip
    assert md(page(body=body)).authors == ["Mateusz Haberny"]


def test_an_unfilled_template_variable_is_no_author() -> None:
    head = '<meta name="author" content="page.head.extra.author">'
    body = '<h1>Startup lessons</h1><div class="byline">By <a>Tim Enwall</a></div>'
    assert md(page(head, body)).authors == ["Tim Enwall"]


def test_a_threads_starter_by_the_headline_beats_the_first_user_card() -> None:
    # The first user card is a pinned moderator's post; the thread's starter is named
    # under the headline.
    body = ('<h1>Looking for beginner woodworking projects</h1><div>Thread starter '
            '<a class="username">sean_g</a> Start date Feb 25, 2024</div>'
            '<article><section class="message-user"><a>Packard</a> Member</section>'
            "<p>Pinned: read the rules.</p></article>")  # fmt: skip
    assert md(page(body=body)).authors == ["sean_g"]


def test_a_link_previews_written_by_label_names_the_author() -> None:
    head = (
        '<meta name="twitter:label1" content="Written by">'
        '<meta name="twitter:data1" content="Tyler Brown">'
        '<meta name="twitter:label2" content="Est. reading time">'
    )
    assert md(page(head)).authors == ["Tyler Brown"]
    # The page's own author meta comes first.
    assert md(page(head + '<meta name="author" content="Jay Berstein">')).authors == [
        "Jay Berstein"
    ]


def test_a_user_cards_badge_counts_are_not_part_of_the_name() -> None:
    body = (
        '<div class="post"><div class="user-details" itemprop="author">'
        '<a href="/users/1">KumikoGoingCrAzY</a> 159 1 1 silver badge 6 6 bronze badges'
        "</div></div>"
    )
    assert md(page(body=body)).authors == ["KumikoGoingCrAzY"]


def test_a_byline_naming_people_beats_an_organisation_author() -> None:
    head = ld({"@type": "Article", "headline": "Heat and the heart",
               "author": {"@type": "Organization", "name": "Cleveland Clinic"}})  # fmt: skip
    body = '<div class="byline">By Holly Wilgus</div>'
    assert md(page(head, body)).authors == ["Holly Wilgus"]
    # Without one, the organisation stands.
    assert md(page(head)).authors == ["Cleveland Clinic"]


def test_an_infoboxs_founding_date_is_not_the_pages_date() -> None:
    body = (
        "<h1>Acme Corporation</h1>"
        '<table class="infobox"><tr><th>Founded</th><td>March 3, 1998</td></tr></table>'
        "<p>Acme makes anvils.</p>"
    )
    assert md(page(body=body)).date is None
    marked = (
        '<h1>Acme Corporation</h1><div class="infobox">'
        '<time datetime="1998-03-03">March 3, 1998</time></div>'
    )
    assert md(page(body=marked)).date is None


def test_a_forum_members_card_date_is_not_the_threads_date() -> None:
    body = (
        "<h1>Why is except: pass bad practice?</h1>"
        '<div class="answer"><div class="user-info">answered '
        '<time datetime="2018-05-21T20:37:55Z">May 21, 2018</time></div></div>'
        '<div class="question"><time datetime="2014-02-04T13:02:51Z">Feb 4, 2014</time></div>'
    )
    assert md(page(body=body)).date == "2014-02-04T13:02:51+00:00"


# --------------------------------------------------------------------------- dataset

DATA = Path(__file__).resolve().parents[1].parent / "shared/data/readability"

# Agreement measured on the 130 Readability test pages; the test allows 0.02 slack.
# Readability's title is its reading of <title>, site name and all; ours is the
# document's headline (docs/metadata.md): we drop a recognised site name from og:title
# ("How to Build a Terrarium | eHow") and a portal's sections ("…_科技_腾讯网"), and
# take the visible h1 where it agrees with the declared titles (0.915 -> 0.785 when
# the h1 and the site-name rules of issue 41 came, which took WCXB dev's "title is the
# headline" from 0.69 to 0.76). Readability's byline keeps labels, roles and outlets
# ("Written by X Edited by Y", "Mac & i"); ours are names only (0.854 -> 0.815). Where
# Readability has no lang but the page does (og:locale), we report it, which counts as
# a disagreement here. The date is judged only on the 33 pages Readability dates: it
# reads dates from meta tags alone, and where it has none a page may still print its
# date (36 pages where we report one; 27 before dates were read from the page and its
# URL, when this figure over all pages fell from 0.792 to 0.723 with no date wrong).
MEASURED = {
    "title": 0.785,
    "byline": 0.815,
    "siteName": 0.985,
    "publishedTime": 1.0,
    "lang": 0.977,
}
# Fields judged only where Readability's reference has a value.
ONLY_WHERE_REFERENCED = frozenset({"publishedTime"})

_BY_PREFIX = re.compile(r"^(?:(?:posted|written)\s+)?by\b\s*[:\-]?\s*", re.IGNORECASE)


def _ws(value: str | None) -> str | None:
    return re.sub(r"\s+", " ", value).strip() or None if value else None


def _byline(value: str | None) -> str | None:
    # Our author field drops a "By " prefix by design; compare names, not the label.
    value = _ws(value)
    return _BY_PREFIX.sub("", value) or None if value else None


def _date(value: str | None) -> str | None:
    value = _ws(value)
    return value[:10] if value else None


def _lang(value: str | None) -> str | None:
    value = _ws(value)
    return value.lower() if value else None


FIELDS = {
    "title": ("title", _ws),
    "byline": ("author", _byline),
    "siteName": ("site_name", _ws),
    "publishedTime": ("date", _date),
    "lang": ("language", _lang),
    "excerpt": ("description", _ws),  # informational: Readability falls back to a paragraph
}


def test_agreement_with_readability_pages() -> None:
    pages = sorted(p for p in (DATA / "test-pages").glob("*/") if (p / "source.html").exists())
    if not pages:
        pytest.skip(f"Readability test pages not found under {DATA.name}/")
    hits = dict.fromkeys(FIELDS, 0)
    judged = dict.fromkeys(FIELDS, 0)
    misses: dict[str, list[str]] = {k: [] for k in FIELDS}
    for path in pages:
        expected = json.loads((path / "expected-metadata.json").read_text(encoding="utf-8"))
        html = (path / "source.html").read_bytes().decode("utf-8", "replace")
        got = extract_metadata(LexborHTMLParser(html), "http://fakehost/test/page.html")
        for key, (attr, norm) in FIELDS.items():
            if key in ONLY_WHERE_REFERENCED and norm(expected.get(key)) is None:
                continue
            judged[key] += 1
            if norm(expected.get(key)) == norm(getattr(got, attr)):
                hits[key] += 1
            else:
                misses[key].append(path.name)
    rates = {key: hits[key] / max(judged[key], 1) for key in FIELDS}
    print(f"\nmetadata agreement on {len(pages)} Readability pages:")
    for key, rate in rates.items():
        print(f"  {key:14} {rate:.3f}  misses: {', '.join(misses[key][:8])}")
    for key, measured in MEASURED.items():
        assert rates[key] >= measured - 0.02, (key, rates[key], misses[key])


def test_a_json_ld_person_named_by_given_and_family_name() -> None:
    people = [
        {"@type": "Person", "givenName": "Birgit", "familyName": "Baumann"},
        {"@type": "Person", "givenName": "Anna Giulia", "familyName": "Fink"},
    ]
    head = ld({"@type": "NewsArticle", "headline": "Kalifat-Rufe", "author": people})
    assert md(page(head)).authors == ["Birgit Baumann", "Anna Giulia Fink"]


def test_a_previous_teasers_date_above_the_headline_does_not_beat_the_markup() -> None:
    head = '<meta property="article:published_time" content="2023-04-28T18:01:37+00:00">'
    teaser = "<div><a>Collin Anderson</a></div><div>January 16, 2023</div>"
    body = teaser + "<article><a>Democrats</a><h1>Soros family gives early</h1>" + STORY
    assert md(page(head=head, body=body)).date == "2023-04-28T18:01:37+00:00"
    # Without an article around the headline, a day just above it still wins; so does
    # one split over elements ("23" "Jul" "2012" "6:06pm").
    body = "<nav>Home</nav><time>March 1, 2024</time><h1>Healthy eating tips</h1>" + STORY
    head = '<meta property="og:updated_time" content="2024-07-05">'
    head += '<meta name="DC.date" content="2024-07-05T14:20:08Z">'
    assert md(page(head=head, body=body)).date == "2024-03-01"
    split = "<p>Print</p><b>23</b> <i>Jul</i> <i>2012</i> <i>6:06pm, EDT</i><h1>Lungs</h1>"
    head = '<meta name="date" content="July 31, 2012, 2:30 pm">'
    assert md(page(head=head, body=split + STORY)).date == "2012-07-23"


def test_a_role_in_an_element_of_its_own_after_the_name_is_left_out() -> None:
    byline = (
        '<div class="byline"><span>By</span> <a href="/a/kb">Keith Barry</a>'
        " <span>Senior Autos Reporter</span> <span>Updated March 11, 2026</span></div>"
    )
    assert md(page(body=byline)).authors == ["Keith Barry"]
    card = (
        '<div class="card-author"><h2 class="card-author-name title">Matt Check</h2>'
        '<div class="card-author-rol">Head Winemaker, Co-Founder</div></div>'
    )
    assert md(page(body=card)).authors == ["Matt Check"]
    # Names joined by a connector in elements of their own are all kept.
    two = '<p class="byline">By <a>Ana Ruiz</a> and <a>Raj Patel</a> <span>Staff</span></p>'
    assert md(page(body=two)).authors == ["Ana Ruiz", "Raj Patel"]


def test_a_label_split_over_elements_and_a_user_cards_counts_are_no_names() -> None:
    post = '<p class="author"><span>Post</span> by <a>galitsyn</a> » 11. Sep 2024, 18:36</p>'
    assert md(page(body=post)).authors == ["galitsyn"]
    card = (
        '<div class="post_author"><div class="author_information"><a>StarredSkies</a>'
        ' <span>Big Board Owner</span></div><div class="author_statistics">'
        "<span>Posts: 116</span> <span>Threads: 23</span></div></div>"
    )
    assert md(page(body=card)).authors == ["StarredSkies"]
    joined = (
        '<div class="author"><div class="author-name">codeless</div>'
        '<div class="author-registered"><span>Joined:</span> <span>2020年2月9日</span></div></div>'
    )
    assert md(page(body=joined)).authors == ["codeless"]


def test_a_byline_class_is_read_by_its_words_and_without_its_inline_css() -> None:
    # "job" inside "jobber" is no job title.
    hero = (
        '<div class="jobber-hero__author-wrapper">'
        '<span class="jobber-hero__author">Lisa Pham</span></div>'
    )
    assert md(page(body=hero)).authors == ["Lisa Pham"]
    css = ".css-1cclx50{-webkit-align-self:flex-start;align-self:flex-start;}" * 3
    styled = f'<div class="author"><style>{css}</style><span><a>Trevor Jackins</a></span></div>'
    assert md(page(body=styled)).authors == ["Trevor Jackins"]


def test_an_author_box_with_a_bio_gives_the_name_it_opens_with() -> None:
    bio = "is a growth-focused marketing professional who writes about clinics. " * 2
    box = (
        '<div class="blog_author-box"><img class="blog_author-image" alt="">'
        f'<div class="text-size-small">Lauren Vetter</div><p>Lauren Vetter {bio}</p></div>'
    )
    assert md(page(body=box)).authors == ["Lauren Vetter"]
    # The initials of an avatar and a "The Author" heading before the name are not it.
    card = (
        '<div class="author-container"><div class="article-author">The Author</div>'
        '<div class="author-card"><span class="initials">NB</span>'
        f"<div><span>Nicole Burke</span><p>As founder of a garden {bio}</p></div></div></div>"
    )
    assert md(page(body=card)).authors == ["Nicole Burke"]
    # A box that opens with no name gives none.
    prose = f'<div class="author-box"><p>Our team {bio}</p></div>'
    assert md(page(body=prose)).authors == []


def test_a_long_author_element_gives_way_to_a_short_byline_and_gives_no_heading() -> None:
    teaser = "Buyers are bringing colour back to the living room this season. " * 2
    body = (
        f'<div class="author-posts"><a>Color Life</a><p>{teaser}</p></div>'
        '<p class="byline">By Roslyn Ashford</p>'
    )
    assert md(page(body=body)).authors == ["Roslyn Ashford"]
    heading = f'<div class="author-box"><h3>Permission To Be Bad</h3><p>{teaser}</p></div>'
    assert md(page(body=heading)).authors == []
    about = f'<div class="author-box"><h3>About Michael Brenner</h3><p>{teaser}</p></div>'
    assert md(page(body=about)).authors == ["Michael Brenner"]


def test_a_short_segment_after_a_bar_leaves_a_declared_title() -> None:
    og = '<meta property="og:title" content="How meditation rewires the brain | Opinion">'
    assert md(page(og)).title == "How meditation rewires the brain"
    # After a dash or a colon a short segment is the headline's own (a series, a part).
    dash = '<meta property="og:title" content="Friday Facts #282 - 0.17 in sight">'
    assert md(page(dash)).title == "Friday Facts #282 - 0.17 in sight"
    # A long segment after the bar stays.
    long = '<meta property="og:title" content="Cloud HR software | Payroll, hiring and time off">'
    assert md(page(long)).title == "Cloud HR software | Payroll, hiring and time off"


def test_a_logo_h1_names_the_site_to_leave_out_of_the_title() -> None:
    head = "<title>What is Ownership? - The Rust Programming Language</title>"
    body = '<h1 class="menu-title">The Rust Programming Language</h1><h2>What Is Ownership?</h2>'
    assert md(page(head, body), "https://doc.example.org/book/ch04.html").title == (
        "What is Ownership?"
    )
    # Where the site leads <title>, its last segment is the headline, h1 and all.
    head = "<title>NASA SVS | Impact of Climate Change on Yields</title>"
    body = "<h1>Impact of Climate Change on Yields</h1>"
    assert md(page(head, body), "https://svs.gsfc.nasa.gov/4974").title == (
        "Impact of Climate Change on Yields"
    )
    # A site's name leading the title, unknown to the host, with the headline as h1.
    head = "<title>The Art of Non-Conformity » Searching for Guinea Bissau</title>"
    body = "<h1>Searching for Guinea Bissau</h1><h2>Archives</h2>"
    assert md(page(head, body), "https://chrisguillebeau.com/3x5/").title == (
        "Searching for Guinea Bissau"
    )


def test_the_headline_of_a_page_without_h1_may_word_its_title_its_own_way() -> None:
    body = (
        "<h2>Your cart is empty</h2><p>blog | February 01, 2022</p>"
        "<h2>7 Ways to Help You Transition to a Plant Based Diet</h2>" + STORY
    )
    head = "<title>7 Ways to Transition to a Plant-Based Diet | Koia</title>"
    assert md(page(head=head, body=body)).date == "2022-02-01"
    # An h2 that shares little with the title is not the headline.
    body = "<h2>Your cart is empty</h2><p>blog | February 01, 2022</p><h2>Language</h2>" + STORY
    assert md(page(head=head, body=body)).date is None


def test_a_position_after_a_comma_is_no_name() -> None:
    meta = '<meta name="author" content="Julie Weisenhorn, Natalie Hoidal, Extension educators">'
    assert md(page(meta)).authors == ["Julie Weisenhorn", "Natalie Hoidal"]
    meta = '<meta name="author" content="Mateusz Haberny, Founder at Oakywood">'
    assert md(page(meta)).authors == ["Mateusz Haberny"]


def test_title_separators_split_as_the_alternatives_without_their_lookahead() -> None:
    # The separators' patterns start with a lookahead for the characters a separator
    # begins with (a speed-up): it must leave every split as the bare alternatives
    # make it, for every kind of separator, at the start, the end and doubled.
    from unchrome.metadata import title

    def bare(pattern: re.Pattern[str]) -> re.Pattern[str]:
        lookahead = re.match(r"\(\?=\[[^\]]*\]\)", pattern.pattern)
        assert lookahead is not None
        return re.compile(pattern.pattern[lookahead.end() :])

    titles = [
        "Story - Site", "Story – Site — More", "A · B • C » D ~ E / F \\ G _ H :: I",
        "Story |", "Story|Site", "Story ｜Site", "Story：Site", "故事_科技_腾讯网",
        "Story _Site", "Wi-Fi: a review", "  | lead", "x\u3000|\u3000y", "a - - b",
        "Story\t-\nSite", "no separator at all", "", "_", "|", " | ",
    ]  # fmt: skip
    for pattern in (title._TITLE_SEP_RE, title._SPACED_SEP_RE):
        plain = bare(pattern)
        for text in titles:
            assert pattern.split(text) == plain.split(text), text
            assert bool(pattern.match(text)) == bool(plain.match(text)), text
    assert title._TITLE_SEP_RE.split("故事_科技_腾讯网") == ["故事", "科技", "腾讯网"]


def test_word_count_counts_two_cjk_characters_as_a_word() -> None:
    # ASCII text is counted without the CJK pattern, which is compiled on first use.
    from unchrome.metadata.title import _word_count

    assert _word_count("Five words in this title") == 5
    assert _word_count("腾讯网科技 news today") == 2 + 3
    assert _word_count("한국어 뉴스", wide=False) == 2
    assert _word_count("한국어 뉴스") == 3
