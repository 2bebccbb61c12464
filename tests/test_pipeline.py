"""The extraction pipeline end to end: body selection, fallbacks, config, errors, output."""

from __future__ import annotations

import gc
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

import unchrome
from pages import STORY, fixture, page, story_html
from unchrome import (
    BlockedBySite,
    Config,
    ExtractFailed,
    Extractor,
    InvalidInput,
    PageNotFound,
    Result,
)
from unchrome.pipeline import prune
from unchrome.pipeline.score import aggregate
from unchrome.pipeline.segment import segment
from unchrome.rules import tags

# --------------------------------------------------------------------- body choice


def test_story_in_plain_div_beats_two_dozen_article_widgets():
    raw = fixture("widgets.html")
    tree = LexborHTMLParser(raw.decode())
    story = [" ".join(p.text().split()) for p in tree.css("div.layout p")]
    teasers = [" ".join(a.text().split()) for a in tree.css("article.teaser")]
    assert sum(map(len, story)) > 3000 and len(teasers) == 24

    result = unchrome.extract(raw, url="https://news.example/bridge")
    for paragraph in story:
        assert paragraph in result.text
    for art in tree.css("article.teaser"):
        assert " ".join(art.css_first("a").text().split()) not in result.text
        assert " ".join(art.css_first("p").text().split()) not in result.text
    assert "Millbrook bridge to close for eighteen months" in result.text


def test_br_separated_story_without_p_beats_navigation_and_footer():
    raw = fixture("naver.html")
    tree = LexborHTMLParser(raw.decode())
    body_lines = [
        line.strip() for line in tree.css_first("#dic_area").text().splitlines() if line.strip()
    ]
    assert len(body_lines) == 6
    result = unchrome.extract(raw, url="https://n.news.example/article/1")
    for line in body_lines:
        assert line in result.text
    for link in tree.css("#gnb a, .ranking_box a, .footer a"):
        assert link.text().strip() not in result.text
    # <br> breaks survive as line breaks, not as one run-on line.
    assert result.text.count("\n") >= len(body_lines) - 1


def test_react_body_of_plain_nested_divs():
    raw = fixture("react.html")
    tree = LexborHTMLParser(raw.decode())
    sentences = [" ".join(d.text().split()) for d in tree.css(".css-body > div")]
    assert len(sentences) == 4
    result = unchrome.extract(raw)
    assert result.has_body
    for sentence in sentences:
        assert sentence in result.text
    for nav in ("Sign in", "Privacy", "Jobs"):
        assert nav not in result.text


def test_short_summary_article_loses_to_longer_story_container():
    summary = (
        "In brief: the library will open on Sundays again from next month after a council "
        "vote reversed the cuts, with volunteers staffing the children's corner."
    )
    assert 140 <= len(summary) <= 160
    html = page(
        f'<article class="summary"><p>{summary}</p></article>'
        f'<div class="main-wrap"><div>{story_html()}</div></div>'
        '<div class="links"><a href="/a">Other story</a> <a href="/b">More stories</a></div>'
    )
    result = unchrome.extract(html)
    for paragraph in STORY:
        assert paragraph in result.text
    assert summary not in result.text


# ----------------------------------------------------------- tally / score property

_TEXT = st.text(alphabet=st.sampled_from("ab c\n\t éü漢字 "), min_size=0, max_size=12)
_INLINE = ("a", "span")


@st.composite
def _trees(draw, depth: int = 0) -> str:
    if depth >= 4 or draw(st.booleans()):
        return draw(_TEXT).replace("<", "").replace("&", "")
    tag = draw(st.sampled_from(("div", "p", "a", "span")))
    children = draw(st.lists(_trees(depth + 1), min_size=0, max_size=4))
    return f"<{tag}>{''.join(children)}</{tag}>"


@settings(max_examples=150, deadline=None)
@given(st.lists(_trees(), min_size=1, max_size=4))
def test_density_shares_never_exceed_the_total(fragments):
    tree = LexborHTMLParser(f"<html><body><div>{''.join(fragments)}</div></body></html>")
    assert tree.body is not None
    seg = segment(tree.body)
    agg = aggregate(seg)
    assert agg.chars[0] == sum(len(b.text) for b in seg.blocks)
    assert all(0 <= a <= c for a, c in zip(agg.a_chars, agg.chars, strict=True))
    assert all(0 <= p <= c for p, c in zip(agg.p_chars, agg.chars, strict=True))
    assert all(0 <= s <= c + 1e-9 for s, c in zip(agg.scores, agg.chars, strict=True))


# ------------------------------------------------------------------------ fallbacks


def test_title_only_page_has_no_body_but_is_not_an_error():
    result = unchrome.extract(page('<div id="app"></div>'))
    assert result.title == "Library stays open"
    assert result.has_body is False
    assert result.text == "" and result.markdown == "" and result.html == ""
    assert result.word_count == 0


def test_nothing_at_all_raises_extract_failed():
    with pytest.raises(ExtractFailed) as info:
        unchrome.extract(page('<div id="app"><script>var x = 1;</script></div>', head=""))
    assert info.value.code == "EXTRACT_FAILED"


# ----------------------------------------------------------- character thresholds

JA_20 = "今日は雨が降ったので家で静かに本を読んだ"
JA_19 = "駅前の店で新しい傘を一本だけ買いました"


def test_japanese_paragraph_threshold_counts_characters_not_bytes():
    assert len(JA_20) == 20 and len(JA_19) == 19
    assert len(JA_19.encode()) > 20  # a byte count would keep it
    li_short = "りんご"
    html = page(
        f"<div>{story_html()}<p>{JA_20}</p><p>{JA_19}</p><ul><li>{li_short}</li>"
        "<li>み</li></ul></div>",
        lang="ja",
    )
    result = unchrome.extract(html, config=Config(min_paragraph_chars=20))
    lines = result.text.splitlines()
    assert JA_20 in lines
    assert JA_19 not in result.text
    assert li_short in lines
    assert "み" in lines


# ------------------------------------------------------------------ result, metadata


def test_metadata_flows_into_the_result():
    head = (
        "<title>Library stays open | Town Herald</title>"
        '<meta property="og:title" content="Library stays open">'
        '<meta property="og:image" content="/img/library.jpg">'
        '<meta property="article:published_time" content="2024-03-05T09:30:00Z">'
        '<meta property="article:modified_time" content="2024-03-07T10:00:00Z">'
    )
    result = unchrome.extract(
        page(f"<article>{story_html()}</article>", head=head, lang="en-GB"),
        url="https://herald.example/news/library",
    )
    assert result.title == "Library stays open"
    assert result.date is not None and result.date.startswith("2024-03-05")
    assert result.date_modified == "2024-03-07T10:00:00+00:00"
    assert result.to_dict()["date_modified"] == result.date_modified
    assert result.language is not None and result.language.lower().startswith("en")
    assert result.image == "https://herald.example/img/library.jpg"
    assert result.url == "https://herald.example/news/library"


def test_to_dict_and_to_json_round_trip():
    result = unchrome.extract(
        page(
            f'<article>{story_html()}<img src="/a.png" alt="A"><a href="/more">more</a></article>'
        ),
        url="https://herald.example/x",
    )
    as_dict = result.to_dict()
    assert json.loads(result.to_json()) == as_dict
    assert json.loads(result.to_json(indent=2)) == as_dict
    assert as_dict["text"] == result.text and as_dict["has_body"] is True
    rebuilt = Result(
        **{
            **as_dict,
            "images": [unchrome.Media(**m) for m in as_dict["images"]],
            "links": [unchrome.Media(**m) for m in as_dict["links"]],
            "videos": [unchrome.Media(**m) for m in as_dict["videos"]],
            "audios": [unchrome.Media(**m) for m in as_dict["audios"]],
        }
    )
    assert rebuilt == result
    assert any(m["url"] == "https://herald.example/a.png" for m in as_dict["images"])


def test_to_json_keeps_non_ascii_readable():
    result = unchrome.extract(page(f"<article><p>{JA_20 * 5}</p></article>", lang="ja"))
    assert JA_20 in result.to_json()


def test_word_count_for_cjk_counts_characters():
    han = ("中文字符测试内容" * 13)[:100]
    assert len(han) == 100
    result = unchrome.extract(page(f"<article><p>{han}</p></article>", lang="zh"))
    assert han in result.text
    assert 95 <= result.word_count <= 105
    assert result.reading_time >= 1


def test_word_count_for_english_counts_words():
    result = unchrome.extract(page(f"<article>{story_html()}</article>"))
    expected = len(" ".join(STORY).split())
    assert abs(result.word_count - expected) <= expected * 0.1


# ---------------------------------------------------------------------- config knobs

SIDE = "Opening times for the swimming pool change next week because of the annual cleaning."


def _two_part_page() -> str:
    return page(
        f'<div class="story">{story_html()}</div><div class="aside-box"><p>{SIDE}</p></div>'
    )


def test_include_selector_picks_exactly_that_part():
    result = unchrome.extract(_two_part_page(), config=Config(include_selector=".aside-box"))
    assert result.text == SIDE
    assert STORY[0] not in result.text


@pytest.mark.parametrize("field", ["include_selector", "exclude_selector"])
@pytest.mark.parametrize("selector", ["div[[[", "p:nth-child(", ">"])
def test_an_invalid_css_selector_is_invalid_input(field, selector):
    with pytest.raises(InvalidInput) as info:
        Config(**{field: selector})
    assert info.value.code == "INVALID_INPUT"
    assert repr(selector) in str(info.value)


def test_exclude_selector_removes_matches():
    html = page(f'<article>{story_html()}<p class="extra-note">{SIDE}</p></article>')
    assert SIDE in unchrome.extract(html).text
    result = unchrome.extract(html, config=Config(exclude_selector=".extra-note"))
    assert SIDE not in result.text
    assert STORY[0] in result.text


def test_extract_article_false_keeps_text_outside_the_winner():
    html = _two_part_page()
    default = unchrome.extract(html)
    assert STORY[0] in default.text and SIDE not in default.text
    whole = unchrome.extract(html, config=Config(extract_article=False))
    assert STORY[0] in whole.text
    assert SIDE in whole.text


TABLE = (
    "<table><caption>Opening hours</caption><tr><th>Day</th><th>Hours</th></tr>"
    "<tr><td>Sunday</td><td>10 to 16</td></tr></table>"
)


def test_include_tables_false_drops_tables_from_text():
    html = page(f"<article>{story_html()}{TABLE}</article>")
    assert "Sunday | 10 to 16" in unchrome.extract(html).text
    result = unchrome.extract(html, config=Config(include_tables=False))
    assert "10 to 16" not in result.text
    assert "Opening hours" not in result.text
    assert "Day | Hours" not in result.text
    assert STORY[1] in result.text


def test_include_links_false_removes_links_from_markdown():
    html = page(
        f'<article>{story_html()}<p>Read the <a href="/minutes">meeting minutes</a> '
        "published by the council clerk this week.</p></article>"
    )
    with_links = unchrome.extract(html, url="https://herald.example/x")
    assert "[meeting minutes](https://herald.example/minutes)" in with_links.markdown
    assert with_links.links
    result = unchrome.extract(
        html, url="https://herald.example/x", config=Config(include_links=False)
    )
    assert "meeting minutes" in result.markdown
    assert "](" not in result.markdown and "https://herald.example/minutes" not in result.markdown
    assert result.links == []


def test_include_images_controls_images_in_markdown_and_result():
    html = page(
        f'<article>{story_html()}<img src="/pics/reading.jpg" alt="Reading room"></article>'
    )
    url = "https://herald.example/x"
    shown = unchrome.extract(html, url=url)
    assert "![Reading room](https://herald.example/pics/reading.jpg)" in shown.markdown
    assert [m.url for m in shown.images] == ["https://herald.example/pics/reading.jpg"]
    hidden = unchrome.extract(html, url=url, config=Config(include_images=False))
    assert "reading.jpg" not in hidden.markdown
    assert hidden.images == []
    assert STORY[0] in hidden.markdown


# --------------------------------------------------------------------- custom scorer


class PreferClass:
    def __init__(self, wanted: str, remove: str | None = None) -> None:
        self.wanted, self.remove = wanted, remove

    def score(self, node) -> float:
        return 1000.0 if self.wanted in (node.attributes.get("class") or "") else 1.0

    def should_remove(self, node) -> bool:
        return self.remove is not None and self.remove in (node.attributes.get("class") or "")


OTHER = (
    "The swimming pool closes for two weeks in August while the tiles of the main basin "
    "are replaced and the changing rooms get new lockers, heating and brighter lights.",
    "Season tickets bought before the closure will be extended by two weeks, the leisure "
    "centre said, and the smaller teaching pool stays open for lessons in the mornings.",
)


def test_custom_scorer_changes_the_winner():
    html = page(
        f'<div class="story">{story_html()}</div><div class="pool">{story_html(OTHER)}</div>'
    )
    default = unchrome.extract(html)
    assert STORY[0] in default.text and OTHER[0] not in default.text
    result = unchrome.extract(html, config=Config(scorer=PreferClass("pool")))
    for paragraph in OTHER:
        assert paragraph in result.text
    assert STORY[0] not in result.text


def test_custom_scorer_choice_of_a_small_element_is_kept():
    result = unchrome.extract(_two_part_page(), config=Config(scorer=PreferClass("aside-box")))
    assert SIDE in result.text
    assert STORY[0] not in result.text


def test_custom_scorer_should_remove_prunes_elements():
    html = page(f'<article>{story_html()}<p class="kill-me">{SIDE}</p></article>')
    result = unchrome.extract(html, config=Config(scorer=PreferClass("nothing", "kill-me")))
    assert SIDE not in result.text
    assert STORY[0] in result.text


class WatchCollector(PreferClass):
    """Notes whether Python's cyclic collector runs while the page is pruned."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__("nothing")
        self.seen: set[bool] = set()
        self.fail = fail

    def should_remove(self, node) -> bool:
        self.seen.add(gc.isenabled())
        if self.fail:
            raise unchrome.ExtractTimeout("a stage ran out of time")
        return False


def test_the_collector_waits_for_the_extraction_and_is_restored_after() -> None:
    # The extraction pauses the cyclic collector (its objects hold no cycles, and on
    # a large page the collector re-walked them for nothing) and leaves it as it was,
    # also when the extraction fails, and paused when the caller had paused it.
    html = page(f"<article>{story_html()}</article>")
    assert gc.isenabled()
    watch = WatchCollector()
    unchrome.extract(html, config=Config(scorer=watch))
    assert watch.seen == {False} and gc.isenabled()
    failing = WatchCollector(fail=True)
    with pytest.raises(unchrome.ExtractTimeout):
        unchrome.extract(html, config=Config(scorer=failing))
    assert failing.seen == {False} and gc.isenabled()
    gc.disable()
    try:
        unchrome.extract(html, config=Config(scorer=WatchCollector()))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_extraction_leaves_no_document_behind_once_its_result_is_dropped() -> None:
    # The blocks and node handles of an extraction are not tracked by the cyclic
    # collector (they hold no cycle): nothing of a page, its parsed document above all,
    # may outlive its Result, Markdown rendered or not.
    html = page(f"<article><h1>Title here</h1>{story_html()}</article>")

    def documents() -> int:
        gc.collect()
        return sum(isinstance(o, LexborHTMLParser) for o in gc.get_objects())

    before = documents()
    for render in (False, True, True):
        result = unchrome.extract(html)
        assert documents() > before  # the Result keeps its page for the Markdown
        if render:
            assert STORY[0] in result.markdown
        del result
    assert documents() == before


@pytest.mark.parametrize(
    "scorer",
    [object(), "score", type("OnlyScore", (), {"score": lambda self, n: 1.0})()],
)
def test_scorer_without_the_protocol_is_rejected(scorer):
    with pytest.raises(InvalidInput):
        Config(scorer=scorer)


# ----------------------------------------------------------------- config validation


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_input_bytes": -1},
        {"max_input_bytes": 0},
        {"max_depth": -5},
        {"min_body_chars": -1},
        {"min_paragraph_chars": -1},
        {"timeout": -1.0},
        {"timeout": 0},
        {"table_format": "csv"},
        {"encoding": "no-such-codec"},
        {"include_selector": "   "},
        {"max_input_bytes": True},
        {"favor": "everything"},
        {"favor": None},
    ],
)
def test_bad_config_values_raise_invalid_input(kwargs):
    with pytest.raises(InvalidInput) as info:
        Config(**kwargs)
    assert info.value.code == "INVALID_INPUT"


def test_with_rejects_unknown_fields_and_revalidates():
    with pytest.raises(InvalidInput):
        Config().with_(no_such_field=1)
    with pytest.raises(InvalidInput):
        Config().with_(table_format="xml")
    assert Config().with_(table_format="html").table_format == "html"


def test_extractor_rejects_non_config():
    with pytest.raises(InvalidInput):
        Extractor({"timeout": 5})  # type: ignore[arg-type]


def test_extractor_reuse_gives_the_same_result():
    extractor = Extractor(Config(include_images=False))
    html = fixture("widgets.html")
    first = extractor.extract(html, url="https://news.example/a")
    for _ in range(3):
        again = extractor.extract(html, url="https://news.example/a")
        assert again.text == first.text
        assert again.markdown == first.markdown
        assert again.html == first.html
    other = extractor.extract(_two_part_page())
    assert STORY[0] in other.text
    assert extractor.extract(html, url="https://news.example/a").text == first.text


# --------------------------------------------------------------------- block screens


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "Just a moment...",
            "<h1>Checking your browser before accessing example.com</h1>"
            "<p>This process is automatic. Your browser will redirect shortly.</p>",
        ),
        (
            "Attention Required! | Cloudflare",
            "<h1>Sorry, you have been blocked</h1><p>Cloudflare Ray ID: 7d1f2e3a4b5c6d7e</p>",
        ),
        (
            "example.com",
            "<h1>Checking your browser before accessing example.com</h1>"
            "<p>This process is automatic. Your browser will redirect shortly.</p>",
        ),
    ],
)
def test_bot_wall_raises_blocked_by_site(title, body):
    with pytest.raises(BlockedBySite) as info:
        unchrome.extract(page(f"<div>{body}</div>", head=f"<title>{title}</title>"))
    assert info.value.code == "BLOCKED_BY_SITE"
    assert info.value.retryable is False


def test_article_about_cloudflare_is_not_a_bot_wall():
    quote = (
        "One reader wrote that the page kept saying checking your browser for minutes, "
        "then access denied, before the outage finally ended late in the afternoon."
    )
    result = unchrome.extract(page(f"<article>{story_html(STORY * 6)}<p>{quote}</p></article>"))
    assert quote in result.text


def test_short_post_whose_comment_mentions_a_wall_is_not_refused():
    # A real post of about 1,300 characters whose last paragraph, a reader's reply,
    # says "access denied": the phrase is somebody's words, not the page.
    paragraphs = (*STORY, *OTHER)
    comment = "I tried the link from work and got access denied, but it works from home."
    html = page(
        f"<article><h1>Fixing my router</h1>{story_html(paragraphs)}<p>{comment}</p></article>",
        head="<title>Fixing my router</title>",
    )
    result = unchrome.extract(html)
    assert 1_000 < len(result.text) < 2_000
    assert comment in result.text


def test_wall_behind_a_site_header_is_still_refused():
    header = "<div>Example Media Group · News · Sport · Culture · Weather</div>"
    body = "<h1>Access denied</h1><p>You don't have permission to access this server.</p>"
    with pytest.raises(BlockedBySite):
        unchrome.extract(page(header + body, head="<title>example.com</title>"))


@pytest.mark.parametrize(
    "body",
    [
        "<div class='box'><p>삭제된 게시물입니다.</p></div>",
        "<div class='box'><div>삭제된 게시물입니다.</div><a href='/board'>목록으로</a></div>",
        pytest.param(
            "<div class='box'><p>삭제된 게시물입니다.</p><a href='/board'>목록으로</a></div>"
        ),
    ],
)
def test_korean_deleted_post_raises_page_not_found(body):
    with pytest.raises(PageNotFound) as info:
        unchrome.extract(page(body, head="<title>자유게시판</title>", lang="ko"))
    assert info.value.code == "PAGE_NOT_FOUND"


# ------------------------------------------------------------------- sanitized html


def test_sanitized_html_has_no_active_content_and_absolute_urls():
    html = page(
        '<article onclick="steal()">'
        f'<p style="color:red" onmouseover="x()">{STORY[0]}</p>'
        "<script>alert(1)</script><style>p{color:red}</style>"
        f'<p>{STORY[1]} <a href="/next" onclick="track()">next story</a> and '
        '<a href="javascript:alert(2)">a trap</a> here.</p>'
        f'<p>{STORY[2]}</p><img src="img/pic.png" onerror="boom()" alt="pic">'
        f'<img data-src="/lazy.jpg" src="data:image/gif;base64,R0lGOD" alt="lazy">'
        f"<p>{STORY[3]}</p></article>"
    )
    result = unchrome.extract(html, url="https://herald.example/news/story")
    out = result.html
    assert out
    assert "<script" not in out.lower() and "<style" not in out.lower()
    assert not re.search(r"\son\w+\s*=", out, re.I)
    assert "javascript:" not in out.lower()
    assert "style=" not in out
    tree = LexborHTMLParser(out)
    hrefs = [a.attributes.get("href") for a in tree.css("a[href]")]
    srcs = [i.attributes.get("src") for i in tree.css("img[src]")]
    assert "https://herald.example/next" in hrefs
    assert "https://herald.example/news/img/pic.png" in srcs
    assert "https://herald.example/lazy.jpg" in srcs
    for url in hrefs + srcs:
        assert url and url.startswith("https://herald.example/")
    assert "a trap" in result.text
    assert "alert" not in result.text
    assert all(m.url.startswith("https://") for m in result.images + result.links)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "FILE:///C:/Users/me/notes.html",
        "data:text/html,<p>inline page</p>",
        "data:image/png;base64,iVBORw0KGgo",
        "javascript:alert(1)",
        " java\tscript:alert(1)",
        "vbscript:msgbox(1)",
    ],
)
def test_file_data_and_script_urls_leave_markdown_and_html_but_their_text_stays(url):
    html = page(
        f'<article><p>{STORY[0]} See <a href="{url}">the minutes of the meeting</a>.</p>'
        f'<p>{STORY[1]}</p><img src="{url}" alt="the reading room"><p>{STORY[2]}</p></article>'
    )
    result = unchrome.extract(html, url="https://herald.example/news/story")
    scheme = url.replace("\t", "").strip().split(":")[0].lower()
    for rendering in (result.markdown, result.html):
        assert f"{scheme}:" not in rendering.lower(), rendering
    assert "the minutes of the meeting" in result.text
    assert "See the minutes of the meeting." in result.markdown
    assert not [m for m in result.links + result.images if m.url.lower().startswith(scheme)]


def test_links_resolved_against_a_file_url_leave_the_html():
    html = page(
        f'<article><p>{STORY[0]} <a href="notes.html">The notes</a>.</p>'
        f"{story_html(STORY[1:])}</article>"
    )
    result = unchrome.extract(html, url="file:///home/me/pages/story.html")
    assert "file:" not in result.html and "file:" not in result.markdown
    assert "The notes" in result.markdown


def test_section_headings_named_by_widget_words_stay_in_the_story():
    titles = ("Promotion", "Share prices", "Sponsored")
    body = "".join(
        f"<h2 id='{title.lower().replace(' ', '-')}'>{title}</h2><p>{paragraph}</p>"
        for title, paragraph in zip(titles, STORY, strict=False)
    )
    result = unchrome.extract(page(f"<article><h1>Club news</h1>{body}</article>"))
    for title in titles:
        assert f"## {title}\n" in result.markdown, result.markdown


def test_a_schedule_before_the_headline_and_a_headlines_feed_after_the_story_stay_out():
    schedule = "".join(f"<tr><td>{h}:00</td><td>Programme {h}</td></tr>" for h in range(6, 12))
    feed = "".join(
        f"<li><a href='/news/{i}'>Headline number {i} about the town</a>"
        f"<p>A one-line summary of story {i} for readers.</p></li>"
        for i in range(6)
    )
    html = page(
        f"<article><div><h4>On air today</h4><table>{schedule}</table></div>"
        f"<h1>Library stays open</h1>{story_html()}"
        f"<div><h3>More headlines</h3><ul>{feed}</ul></div></article>",
        head="<title>Library stays open</title><meta property='og:type' content='article'>",
    )
    result = unchrome.extract(html, url="https://news.example/2024/05/library")
    for paragraph in STORY:
        assert paragraph in result.text
    for rendering in (result.text, result.markdown):
        assert "Programme" not in rendering and "summary of story" not in rendering, rendering
        assert "Headline number" not in rendering


def test_a_page_gives_the_same_story_with_its_url_and_without():
    # The same blocks; only the links' addresses differ (relative without a URL).
    raw = fixture("declared_url.html")
    bare = Config(include_links=False)
    given = unchrome.extract(raw, url="https://docs.example/docs/get-started/overview", config=bare)
    alone = unchrome.extract(raw, config=bare)
    assert given.text == alone.text
    assert given.markdown == alone.markdown


def test_favor_recall_keeps_a_listings_introduction_above_its_grid():
    # Cards of paragraphs make the grid read as a story; its introduction sits above it.
    intro = (
        "Our guide to every public library in the county, with opening hours, reading "
        "rooms and the events each branch runs through the year."
    )
    cards = "".join(
        f"<div class='card'><p><a href='/libraries/{i}'>Branch library number {i}</a></p>"
        f"<p>Open {i} days a week, with a children's corner and a reading room for branch {i}."
        "</p></div>"
        for i in range(20)
    )
    menu = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(8))
    html = page(
        f"<nav><ul>{menu}</ul></nav><div class='banner'><h1>Libraries in the county</h1>"
        f"<p>{intro}</p></div><div class='container'><div class='grid'>{cards}</div></div>"
    )
    url = "https://news.example/libraries/"
    recall = unchrome.extract(html, url=url, config=Config(favor="recall"))
    balanced = unchrome.extract(html, url=url)
    assert intro in recall.text
    assert "reading room for branch 19." in recall.text
    assert set(balanced.text.split("\n")) <= set(recall.text.split("\n"))


def test_short_not_found_notice_next_to_a_link_raises_page_not_found():
    body = "<div><p>Page not found.</p><a href='/'>Home</a></div>"
    with pytest.raises(PageNotFound):
        unchrome.extract(page(body, head="<title>Example News</title>"))


def test_title_heading_leaves_the_text_but_opens_the_markdown():
    story = "<p>" + "The river bridge will close for eighteen months of repairs. " * 4 + "</p>"
    html = (
        "<html><head><title>Bridge closes for repairs | Daily Paper</title></head>"
        f"<body><div><h1>Bridge closes for repairs</h1>{story * 3}</div></body></html>"
    )
    result = unchrome.extract(html)
    assert result.title == "Bridge closes for repairs"
    assert "Bridge closes for repairs" not in result.text
    assert result.text.startswith("The river bridge")
    assert result.markdown.startswith("# Bridge closes for repairs\n\nThe river bridge")


def test_a_heading_that_is_not_the_title_stays():
    story = "<p>" + "The river bridge will close for eighteen months of repairs. " * 4 + "</p>"
    html = (
        "<html><head><title>Bridge closes for repairs</title></head>"
        f"<body><div><h1>What the closure means for commuters</h1>{story * 3}</div></body></html>"
    )
    result = unchrome.extract(html)
    assert result.text.startswith("What the closure means for commuters")


def test_hidden_tab_panels_stay_but_hidden_widgets_go():
    para = "<p>" + "Install the client library with the package manager of your language. " * 3
    html = (
        "<html><body><div class='docs'>"
        f"{para}</p>{para}</p>"
        "<div role='tabpanel'><pre>pip install twilio</pre></div>"
        "<div role='tabpanel' hidden><pre>npm install twilio</pre></div>"
        "<div class='tab-pane' style='display:none'><p>Run the Go sample with go run.</p></div>"
        "<div hidden><p>Subscribe to our newsletter for weekly tips.</p></div>"
        "</div></body></html>"
    )
    text = unchrome.extract(html).text
    assert "pip install twilio" in text and "npm install twilio" in text
    assert "Run the Go sample" in text
    assert "Subscribe to our newsletter" not in text


@pytest.mark.parametrize("segment_id", ["S:0", "S:7", "S:2e"])
def test_react_streamed_segment_parked_hidden_is_the_body(segment_id: str):
    # React streaming SSR parks resolved content in <div hidden id="S:..."> until its
    # script moves it; the ids count in hexadecimal, so "S:2e" is one as well.
    links = "".join(
        f'<li><a href="/s/{i}">Another section of the site, number {i}</a></li>' for i in range(60)
    )
    html = page(
        f'<div role="navigation"><ul>{links}</ul></div>'
        f'<div id="B:0"><p>Loading…</p></div><div hidden id="{segment_id}">{story_html()}</div>'
    )
    tree = LexborHTMLParser(html)
    # Most of the page's text is elsewhere (a menu pruned later): only the id saves
    # the hidden story.
    assert len(tree.css_first("ul").text()) > len(tree.css_first("[hidden]").text()) * 1.5
    result = unchrome.extract(html)
    for paragraph in STORY:
        assert paragraph in result.text


SHIPPING = (
    "Most orders ship within two days. You may return unused items within fourteen days "
    "of receiving them for a full refund, minus the cost of shipping."
)


def _pruned_text(html: str) -> str:
    tree = LexborHTMLParser(html)
    prune.prune_page(tree)
    return " ".join(tree.body.text(separator=" ").split())


def test_collapsed_accordion_panels_stay_but_collapsed_menus_go():
    # The WAI-ARIA accordion: a header button controls a panel (role="region",
    # aria-labelledby the button) that stays collapsed until clicked. Product pages
    # keep their shipping terms and specifications there; sites also collapse their
    # menus the same way, and a menu is mostly links.
    menu = "".join(f'<li><a href="/c/{i}">Category number {i}</a></li>' for i in range(12))
    html = page(
        story_html()
        + '<button id="ship-btn" aria-expanded="false" aria-controls="ship">Shipping</button>'
        f'<div id="ship" role="region" aria-labelledby="ship-btn" aria-hidden="true">'
        f"<p>{SHIPPING}</p></div>"
        '<button id="spec-btn" aria-expanded="false" aria-controls="spec">Specifications</button>'
        '<div id="spec" style="display:none"><p>Weight 58 lb, seat height 20 to 23 inches, '
        "frame of manufactured wood.</p></div>"
        '<button id="menu-btn" aria-expanded="false" aria-controls="menu">Menu</button>'
        f'<div id="menu" role="region" aria-labelledby="menu-btn" hidden><ul>{menu}</ul></div>'
        '<div id="promo" hidden><p>Sign up for our newsletter and get ten percent off.</p></div>'
    )
    text = _pruned_text(html)
    assert SHIPPING in text
    assert "seat height 20 to 23 inches" in text
    assert "Category number 7" not in text
    assert "newsletter" not in text


def test_hidden_panels_named_the_bem_way_stay():
    # BEM class names double the separator: "tab__content", "c-accordion__panel".
    html = page(
        story_html() + f'<div class="tab__content" style="display:none"><p>{SHIPPING}</p></div>'
        '<div class="c-accordion__panel" hidden><p>Zero trust means every request is '
        "checked, wherever it comes from.</p></div>"
    )
    text = _pruned_text(html)
    assert SHIPPING in text
    assert "Zero trust means every request is checked" in text


def test_hidden_prose_block_is_kept_but_hidden_menus_and_popups_go():
    # A product description parked in a deferred, display:none block is content; a
    # hidden menu (mostly links) and a short hidden pop-up are not.
    menu = "".join(f'<li><a href="/c/{i}">Category number {i}</a></li>' for i in range(40))
    teasers = "".join(
        f"<p>Teaser {i}: a short line about another story elsewhere on the site.</p>"
        for i in range(40)
    )
    html = page(
        f'<div style="display:none" class="drawer"><ul>{menu}</ul></div>'
        '<div hidden class="popup"><p>Sign up for our newsletter and get ten percent off.</p></div>'
        f'<div class="deferred" style="display: none">{story_html(STORY + STORY[::-1])}</div>'
        f'<aside class="related-posts">{teasers}</aside>'
    )
    tree = LexborHTMLParser(html)
    # The story is not most of the page: only its prose saves it.
    assert len(tree.css_first(".deferred").text()) < 0.4 * len(tree.body.text())
    result = unchrome.extract(html)
    for paragraph in STORY:
        assert paragraph in result.text
    assert "newsletter" not in result.text
    assert "Category number 7" not in result.text


def test_sections_named_after_their_heading_are_not_widgets():
    # Documentation generators (Sphinx here) give a section its heading's slug as id;
    # "sharing" is a share-bar word, but this section is the story.
    section = (
        '<div class="section" id="sharing-with-a-single-developer">'
        "<h2>Sharing with a single developer</h2>"
        "<p>The simplest scenario is a single developer working across two computers, "
        "pushing half-finished changes from one to the other.</p></div>"
    )
    html = page(
        story_html()
        + section
        + '<div id="share-this"><h4>Share this</h4><a href="/s">Share on Mastodon</a></div>'
        + '<div id="social-share-bar-top"><h4>Spread the word</h4><p>Tell your friends '
        "about this page on every network you use.</p></div>"
    )
    text = _pruned_text(html)
    assert "single developer working across two computers" in text
    # A two-word id is the widget's own name; a long one that is not its heading's
    # slug names a widget too.
    assert "Share on Mastodon" not in text
    assert "Tell your friends" not in text


def test_links_inside_a_sentence_stay_whatever_their_class():
    html = page(
        story_html() + '<p>I am a <a class="popup" href="#n1">rather elderly</a> man, and my '
        '<a class="popup" href="#n2">avocations</a> brought me into contact with clerks.</p>'
        '<div><a class="popup-close" href="#">Close this window</a></div>'
        '<p>Read the <span class="sr-only">(opens in a new tab)</span> guide first.</p>'
    )
    text = _pruned_text(html)
    assert "I am a rather elderly man, and my avocations brought me" in text
    assert "Close this window" not in text
    # Screen-reader text inside a sentence still goes.
    assert "opens in a new tab" not in text


def test_code_comments_stay_in_highlighted_code():
    # highlight.js and Prism mark comments in code with spans named "comment".
    # The code sits in the story, as in a tutorial.
    html = page(
        story_html(STORY[:2])
        + '<pre><code>git init <span class="hljs-comment"># initialise the repo</span>\n'
        'git add . <span class="token comment"># stage every file</span></code></pre>'
        + story_html(STORY[2:])
        + '<div class="comments"><p>First! Great post, thanks for sharing it.</p></div>'
    )
    text = unchrome.extract(html).text
    assert "# initialise the repo" in text
    assert "# stage every file" in text
    assert "Great post" not in text


def test_card_overlay_links_are_not_overlays():
    # The overlay link that makes a whole product card clickable holds the product's
    # name; an overlay panel is a widget.
    cards = "".join(
        f'<div class="product-card"><a class="product-card__link-overlay" href="/p/{i}">'
        f"Trail running shoe model {i}</a><div>$120</div></div>"
        for i in range(6)
    )
    html = page(
        cards + '<div class="overlay"><p>Sign up for our newsletter and get ten percent off.</p>'
        "</div>"
    )
    text = _pruned_text(html)
    assert "Trail running shoe model 3" in text
    assert "newsletter" not in text


def test_class_tokens_saying_a_widget_is_absent_do_not_make_a_widget():
    # A magazine flags each card of its listing "hide-read-more-ad": no ad here.
    cards = "".join(
        f'<div class="summary-item hide-read-more-ad"><h3>Science story number {i}</h3>'
        f"<p>A short summary of what happened in the lab this week, part {i}.</p></div>"
        for i in range(6)
    )
    html = page(cards + '<div class="sidebar-ad"><p>Buy one, get one free today.</p></div>')
    text = _pruned_text(html)
    assert "Science story number 4" in text
    assert "Buy one" not in text


def test_fallback_text_of_media_and_iframes_is_not_content():
    # Browsers show the video, the audio player or the framed page, never the text
    # inside those elements.
    html = page(
        "<article>"
        + story_html()
        + '<video controls src="/clip.mp4">Your browser does not support the video tag.</video>'
        '<audio controls src="/pod.mp3">Your browser does not support the audio element.</audio>'
        '<iframe src="https://player.example/embed/1">Loading the embedded player</iframe>'
        "</article>"
    )
    result = unchrome.extract(html)
    assert STORY[0] in result.text
    for rendering in (result.text, result.markdown, result.html):
        assert "does not support" not in rendering
        assert "Loading the embedded player" not in rendering
    # The media themselves stay.
    assert "/clip.mp4" in result.markdown
    assert "https://player.example/embed/1" in {v.url for v in result.videos}


@pytest.mark.parametrize("tag", sorted(tags.NEVER_CONTENT - {"head", "title"}))
def test_never_content_tag_ids_match_parsed_elements(tag):
    # prune finds these elements by lexbor tag id: an id that is not lexbor's static
    # one for the tag would silently keep them (a script's code in the text).
    body = LexborHTMLParser(f"<body><div><{tag}>x</{tag}></div></body>").body
    assert body is not None
    ids = {node.tag_id for node in body.traverse() if node.tag == tag}
    assert ids and ids <= prune._NEVER_CONTENT_IDS
