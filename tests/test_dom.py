"""The compiled walks (unchrome._native._dom) read the DOM as selectolax's Python API reads it."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from unchrome._native import _dom
from unchrome.pipeline import prune

PAGE = """<html><body class="page"><div id="top" class="">
<nav class="menu main"><a href="/">Home</a><!-- a comment --></nav>
<script>var x = "<div class='not-a-tag'>";</script><style>.a{}</style>
<p class="lead intro" id="p1">Text <b class="\u00e9t\u00e9 caf\u00e9">bold</b> more</p>
<svg class="icon"><title>Icon</title><path id="p"/></svg>
<template><div class="inside-template">never walked</div></template>
<form><input class="q"><button>Go</button></form>
<iframe src="x"></iframe><noscript><img class="pixel"></noscript>
<div id="">empty id</div><span class="a" id="b">both</span>
</div></body></html>"""


def _census(html: str) -> tuple:
    body = LexborHTMLParser(html).body
    assert body is not None
    return body, _dom.prune_census(body, prune._NEVER_CONTENT_IDS)


def _ids(nodes: list) -> list[int]:
    return [node.mem_id for node in nodes]


def test_census_finds_the_never_content_elements_in_document_order() -> None:
    body, (_, never, *_) = _census(PAGE)
    ids = prune._NEVER_CONTENT_IDS
    assert _ids(never) == [node.mem_id for node in body.traverse() if node.tag_id in ids]
    assert {n.tag for n in never} >= {"script", "style", "button", "nav", "svg", "title"}


BODIES_PAGE = """<html><body><p> Lead \u00e9t\u00e9 </p>
<div itemprop="mainEntity ARTICLEBODY"><p>The story.</p><script>var s = "x";</script></div>
<nav><div itemprop="articleBody">In a menu</div></nav>
<div itemprop="articleBodyText">Not the word</div><div itemprop="articlebody">Second</div>
<style>.a{}</style>\u3000  trailing text </body></html>"""


def test_census_counts_the_text_left_without_never_content_and_finds_the_marked_bodies() -> None:
    # prune reads the page's text length once the never elements are gone, and whether
    # any element marked as the article's body is left, from the census.
    body, (_, never, *_, text_chars, bodies) = _census(BODIES_PAGE)
    expected_bodies = [
        n.mem_id
        for n in body.css('[itemprop~="articleBody" i]')
        if not any(a.mem_id in {v.mem_id for v in never} for a in _ancestors(n))
    ]
    assert _ids(bodies) == expected_bodies and len(bodies) == 2
    for node in reversed(never):
        node.decompose()
    assert text_chars == len(body.text(deep=True, strip=True, skip_empty=True))


def _ancestors(node: LexborNode | None) -> Iterator[LexborNode]:
    """The node itself and those around it."""
    while node is not None:
        yield node
        node = node.parent


def test_census_names_the_elements_with_a_class_or_an_id_outside_never_content() -> None:
    body, (*_, named, _, _) = _census(PAGE)
    # The selector list yields an element once per selector it matches (the <p> with a
    # class and an id twice, and prune used to judge it twice); the census, once. What
    # lies inside a never-content element goes with it, unjudged.
    never = [n for n in body.traverse() if n.tag_id in prune._NEVER_CONTENT_IDS]
    inside = {d.mem_id for n in never for d in n.traverse()}
    expected = list(
        dict.fromkeys(
            (node.mem_id, f"{node.attrs.get('class') or ''} {node.id or ''}")
            for node in body.css("[class], [id]")
            if node.mem_id not in inside
        )
    )
    got = [(node.mem_id, names) for node, names in named]
    assert got == expected
    assert "lead intro p1" in [names for _, names in got]
    assert "menu main " not in [names for _, names in got]  # the <nav>'s


METADATA_PAGE = """<html><head><title>Page</title><meta name="a" content="1">
<link rel="canonical" href="/a"><link rel="icon"><link href="/no-rel">
<script type="Application/LD+JSON">{}</script><script type="text/javascript"></script>
<base href="/base/"><base></head><body>
<link rel="stylesheet" href="/in-body.css">
<h1 class="Headline-DATE">Title</h1><h3 class="x">no</h3>
<time datetime="2024-01-02" class="entry-date published">2 Jan</time><time>no</time>
<span itemprop="x  datePublished">2 Jan</span><span itemprop="datePublishedX">no</span>
<p class="post-PUBLISHED-at">a</p><p class="wasposted">b</p><p id="date">no: an id</p>
<svg><title>Icon</title></svg><h2>Sub</h2>
<div class="by Author" id="q" rel="author">Name <span itemprop="Name">Jo</span></div>
<a rel="nofollow AUTHOR" href="/jo">Jo</a><p itemprop="author">Jo</p><p id="top-Byline">J</p>
<p class="writtenBy byline">J</p><p class="authority">no?</p><p itemprop="authorx">no</p>
</body></html>"""
METADATA_SELECTOR = (
    'meta, head link[rel][href], script[type="application/ld+json" i], base[href], title,'
    ' h1, h2, time[datetime], [itemprop~="datePublished" i], [class*="date" i],'
    ' [class*="publish" i], [class*="posted" i]'
)
BYLINE_SELECTOR = (
    '[rel~="author" i], [itemprop~="author" i], [class*="byline" i], [id*="byline" i],'
    ' [class*="author" i], [class*="writtenby" i]'
)


def _once(nodes: list) -> list[int]:
    return list(dict.fromkeys(node.mem_id for node in nodes))


def test_metadata_elements_are_what_the_selector_list_finds_each_once() -> None:
    tree = LexborHTMLParser(METADATA_PAGE)
    assert tree.root is not None
    expected = _once(tree.css(METADATA_SELECTOR))
    got = [node.mem_id for node in _dom.page_elements(tree.root)[0]]
    assert got == expected
    tags = [node.tag for node in _dom.page_elements(tree.root)[0]]
    # The selector's own cases, so that a walk and a selector that both went wrong
    # cannot agree: the body's stylesheet link, a <time> without datetime, an id
    # holding "date" and an itemprop merely starting with "datePublished" are out.
    assert tags.count("link") == 1 and tags.count("time") == 1 and tags.count("script") == 1
    assert tags.count("base") == 1 and tags.count("title") == 2 and tags.count("p") == 2
    assert tags.count("span") == 1 and "h3" not in tags


def test_bylines_are_what_the_selector_list_finds_each_once_up_to_the_limit() -> None:
    tree = LexborHTMLParser(METADATA_PAGE)
    assert tree.root is not None
    expected = _once(tree.css(BYLINE_SELECTOR))
    assert [node.mem_id for node in _dom.bylines(tree.root, 100)] == expected
    assert [node.mem_id for node in _dom.bylines(tree.root, 2)] == expected[:2]
    # "authority" holds "author": [class*=author] is a substring test.
    assert [node.tag for node in _dom.bylines(tree.root, 100)] == ["div", "a", "p", "p", "p", "p"]
    # An element is its own first candidate, as node.css() finds it too.
    div = _dom.bylines(tree.root, 1)[0]
    assert _dom.bylines(div, 10)[0].mem_id == div.mem_id


def test_page_elements_bylines_are_what_the_selector_list_finds_up_to_the_limit() -> None:
    # The walk that gathers metadata's elements gathers the bylines too, from one
    # reading of each class for both: the same elements as the selector list, and as
    # the walk of bylines() alone.
    tree = LexborHTMLParser(METADATA_PAGE)
    assert tree.root is not None
    expected = _once(tree.css(BYLINE_SELECTOR))
    assert [node.mem_id for node in _dom.page_elements(tree.root, 100)[3]] == expected
    assert [node.mem_id for node in _dom.page_elements(tree.root, 3)[3]] == expected[:3]
    assert len(expected) < _dom.BYLINES_READ
    assert [node.mem_id for node in _dom.page_elements(tree.root)[3]] == expected
    # The metadata list is the same whatever the bylines' limit.
    assert [n.mem_id for n in _dom.page_elements(tree.root, 0)[0]] == [
        n.mem_id for n in _dom.page_elements(tree.root)[0]
    ]


def test_class_words_are_read_in_any_case_and_at_the_end_of_a_class() -> None:
    # One scan of the class finds every word: at its end, overlapping another
    # ("publishedposted"), in capitals, but not cut short ("writtenb", "dat").
    classes = [
        "x-DATE", "publishedPosted", "wRiTtEnBy", "writtenb", "dat", "autho", "AUTHOR",
        "bylin", "by-line", "pdate", "aauthor", "", "date author",
    ]  # fmt: skip
    html = "".join(f'<p class="{cls}">{k}</p>' for k, cls in enumerate(classes))
    tree = LexborHTMLParser(f"<html><body>{html}</body></html>")
    assert tree.root is not None
    dated = _once(tree.css('[class*="date" i], [class*="publish" i], [class*="posted" i]'))
    assert [n.mem_id for n in _dom.page_elements(tree.root)[0]] == dated
    assert [n.text() for n in _dom.page_elements(tree.root)[0]] == ["0", "1", "9", "12"]
    named = _once(tree.css(BYLINE_SELECTOR))
    assert [n.mem_id for n in _dom.page_elements(tree.root)[3]] == named
    assert [n.text() for n in _dom.page_elements(tree.root)[3]] == ["2", "6", "10", "12"]


def test_meta_contents_are_those_the_attribute_dicts_give() -> None:
    html = """<html><head><meta name="citation_author" content="A. One">
    <meta name="CITATION_AUTHOR" content="B. Two"><meta name="citation_author">
    <meta name="citation_author " content="no: a space"><meta property="citation_author"
    content="no: a property"><meta name="citation_authors" content="no"><meta
    name="citation_author" content=""></head></html>"""
    tree = LexborHTMLParser(html)
    metas = tree.css("meta")
    expected = [
        node.attributes.get("content") or ""
        for node in metas
        if (node.attributes.get("name") or "").lower() == "citation_author"
    ]
    assert _dom.meta_contents(metas, "citation_author") == expected == ["A. One", "B. Two", "", ""]
    with pytest.raises(ValueError):
        _dom.meta_contents(metas, "keywords")  # the Kelvin sign lowers to "k"


def test_named_around_is_the_regex_over_the_lowered_class_and_id() -> None:
    words = ("comment", "user-info", "member")
    pattern = re.compile("|".join(words))

    def by_regex(node: LexborNode) -> bool:
        for _ in range(3):
            if node is None or node.tag in ("body", "html"):
                return False
            attrs = node.attributes
            if pattern.search(f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()):
                return True
            node = node.parent
        return False

    html = """<div id="COMMENTS"><p>a</p></div><div class="x"><div><div><div class="y">
    <p class="z">b</p></div></div></div></div><div class="commen tmember"><p>c</p></div>
    <section class="User-Info"><p>d</p></section><p class="memberİ">e</p><p>f</p>"""
    tree = LexborHTMLParser(f'<html class="comment"><body class="member">{html}</body></html>')
    encoded = _dom.class_words(*words)
    found = [(p.text(), _dom.named_around(p, encoded, 3)) for p in tree.css("p")]
    assert found == [(p.text(), by_regex(p)) for p in tree.css("p")]
    assert [text for text, named in found if named] == ["a", "c", "d", "e"]
    for refused in ("userinfoi", "kin", "Member", "user info", "", "é"):
        with pytest.raises(ValueError):
            _dom.class_words(refused)


SKIPPED_TEXT = frozenset(("style", "script", "noscript", "template"))
SKIPPED_IDS = frozenset(LexborHTMLParser("").create_node(tag).tag_id for tag in SKIPPED_TEXT)
BYLINE_PAGE = """<html><body><div class="by">By <a href="/a">Ana  Ruiz</a>
<style>.by { color: red }</style><script>var x = 1;</script> and\u00a0<b> Raj\tPatel </b>
<!-- a comment --><span>  </span><i></i>, Staff Writer</div><p class="empty"></p>
<div class="long">a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g</div>
</body></html>"""


def _byline_texts_by_traverse(node: LexborNode, limit: int) -> tuple[list[str], bool]:
    parts: list[str] = []
    size = 0
    for child in node.traverse(include_text=True):
        if child.tag != "-text":
            continue
        parent = child.parent
        if parent is not None and parent.tag in SKIPPED_TEXT:
            continue
        text = " ".join((child.text_content or "").split())
        if text:
            size += len(text) + 1
            if size > limit:
                return parts, False
            parts.append(text)
    return parts, True


def test_byline_texts_are_what_selectolax_traverse_reads() -> None:
    tree = LexborHTMLParser(BYLINE_PAGE)
    for selector in ("div.by", "p.empty", "div.long", "body"):
        node = tree.css_first(selector)
        assert node is not None
        for limit in (0, 5, 20, 40, 100):
            expected = _byline_texts_by_traverse(node, limit)
            assert _dom.byline_texts(node, limit, SKIPPED_IDS) == expected, (selector, limit)
    by = tree.css_first("div.by")
    assert by is not None
    assert _dom.byline_texts(by, 100, SKIPPED_IDS) == (
        ["By", "Ana Ruiz", "and", "Raj Patel", ", Staff Writer"],
        True,
    )


def _lead_chars_by_traverse(article: LexborNode, headline: LexborNode, steps: int) -> int | None:
    chars = 0
    for step, node in enumerate(article.traverse(include_text=True)):
        if node == headline:  # selectolax compares the nodes' HTML
            return chars
        if step > steps:
            return None
        if node.tag == "-text":
            parent = node.parent
            if parent is None or parent.tag not in SKIPPED_TEXT:
                text = node.text_content or ""
                chars += len(" ".join(text.split())) + 1 if text.strip() else 0
    return None


def test_lead_chars_are_what_selectolax_traverse_counts() -> None:
    # The headline is met where selectolax's == meets it: the same node, or an
    # earlier one of the same HTML (a copy of the heading, a script's text that is it).
    many = "<p>w</p>" * 30
    page = f"""<html><body><article id="a"><p>Kicker  text</p><style>x{{}}</style>
    <h1>Title</h1><p>after</p></article><article id="b"><h2>Sub</h2><p>x</p>
    <h2>Sub</h2></article><article id="c"><p>One</p><!-- c --><script><h2>Other</h2></script>
    <h2>Other</h2></article><article id="d">{many}<h1>Far</h1></article></body></html>"""
    tree = LexborHTMLParser(page)
    for article_id, selector in (("a", "h1"), ("b", "h2"), ("c", "h2"), ("d", "h1"), ("a", "p")):
        article = tree.css_first(f"#{article_id}")
        assert article is not None
        for headline in article.css(selector):
            for steps in (0, 3, 10, 200):
                expected = _lead_chars_by_traverse(article, headline, steps)
                got = _dom.lead_chars(article, headline, steps, SKIPPED_IDS)
                assert got == expected, (article_id, selector, steps)
    # The second <h2>Sub</h2> is met at the first (the same HTML): no text before it.
    second = tree.css("#b h2")[1]
    assert _dom.lead_chars(tree.css_first("#b"), second, 200, SKIPPED_IDS) == 0
    first = tree.css_first("#a h1")
    assert first is not None
    assert _dom.lead_chars(tree.css_first("#a"), first, 200, SKIPPED_IDS) == len("Kicker text") + 1


def test_itemprop_finds_the_first_element_holding_the_word() -> None:
    tree = LexborHTMLParser(METADATA_PAGE)
    assert tree.root is not None
    found = _dom.itemprop(tree.root, "name")
    expected = tree.css_first('[itemprop~="name" i]')
    assert found is not None and expected is not None and found.mem_id == expected.mem_id
    assert found.text() == "Jo"
    assert _dom.itemprop(tree.root, "nothing") is None


def test_attribute_names_past_lexbors_short_hash_size_are_read() -> None:
    # lexbor keeps a name of up to 16 characters inside its hash entry and a longer one
    # elsewhere; itemprop is short, so a long attribute beside it must not be taken for it.
    html = '<p data-a-very-long-attribute-name="datePublished" itemprop="x">a</p>'
    tree = LexborHTMLParser(f"<html><body>{html}<p itemprop='datePublished'>b</p></body></html>")
    assert tree.root is not None
    assert [node.text() for node in _dom.page_elements(tree.root)[0]] == ["b"]


HIDDEN_PAGE = """<html><body><div aria-hidden="TRUE">a</div><div aria-hidden="true">b</div>
<div aria-hidden="true " role="note">c</div><p style="DISPLAY:NONE">d</p><p hidden="">e</p>
<p role>f</p><p style="visibility: Hidden" hidden aria-hidden="true">g</p><p style="x">h</p>
<form class="f"><p hidden>i</p></form><nav><p hidden role="x">j</p><form>k</form></nav>
<button aria-controls="panel" aria-expanded="false">l</button><div id="panel">m</div>
<a aria-controls="other">n</a></body></html>"""


def test_census_finds_hidden_forms_roles_and_disclosures_as_the_selectors_do() -> None:
    body, (disclosures, _, forms, hidden, roles, *_) = _census(HIDDEN_PAGE)
    nav = body.css_first("nav")
    assert nav is not None
    inside_nav = {n.mem_id for n in nav.traverse()}

    def outside(selector: str) -> list[int]:
        return [i for i in _once(body.css(selector)) if i not in inside_nav]

    hidden_selector = '[hidden], [aria-hidden="true"], [style*="none" i], [style*="hidden" i]'
    assert _ids(hidden) == outside(hidden_selector)
    # aria-hidden's value is matched exactly; the styles' case is ignored.
    assert [n.text() for n in hidden] == ["b", "d", "e", "g", "i"]
    assert _ids(roles) == outside("[role]") and [n.text() for n in roles] == ["c", "f"]
    assert _ids(forms) == outside("form") and len(forms) == 1
    # Disclosures are read inside never-content elements too: they are buttons.
    assert _ids(disclosures) == _once(body.css("[aria-controls][aria-expanded]"))
    assert [n.text() for n in disclosures] == ["l"]


def test_attached_leaves_out_what_a_removal_took_from_the_tree() -> None:
    _, (_, _, forms, hidden, roles, named, *_) = _census(HIDDEN_PAGE)
    form = forms[0]
    inner = [n for n in hidden if n.text() == "i"]
    assert "f " in [names for _, names in _dom.attached(named)]
    form.decompose()
    # selectolax 1.0.2 unlinks every node of a removed subtree (nothing is freed until
    # the document is): its nodes have no parent, and the census lists still read them.
    assert _dom.attached(forms) == [] and _dom.attached(inner) == []
    assert [n.text() for n in _dom.attached(hidden)] == ["b", "d", "e", "g"]
    assert _dom.attached([(roles[0], "x")]) == [(roles[0], "x")]
    assert "f " not in [names for _, names in _dom.attached(named)]


DATELINE_PAGE = (
    """<html><head><title>T</title></head><body><div><span>By Ann</span>
<time>May 2, 2024</time><script>var x = "June 1, 2020";</script></div>
<h1 id="h">The <b>headline</b></h1><p>Published <!-- c --> March 3, 2021</p>
<svg><text>April 4, 2019</text></svg><p>"""
    + "long prose " * 20
    + """</p><p>end</p>
</body></html>"""
)


def _reference_after(node, limit: int, steps: int, skip: frozenset[str], line: int) -> list[str]:
    # The walk as metadata wrote it against selectolax's Python API.
    parts: list[str] = []
    size, cur, descend = 0, node, False
    for _ in range(steps):
        nxt = cur.child if descend else None
        if nxt is None:
            while cur is not None and cur.next is None:
                cur = cur.parent
            if cur is None:
                break
            nxt = cur.next
        cur = nxt
        if cur.tag == "-text":
            text = (cur.text_content or "").strip()
            text = text if len(text) <= line else " " * min(len(text), limit)
            if text:
                parts.append(text)
                size += len(text)
                if size >= limit:
                    break
            descend = False
        else:
            descend = cur.tag not in skip
    return parts


def test_datelines_after_a_headline_are_its_following_text_nodes() -> None:
    from unchrome.metadata import dates

    tree = LexborHTMLParser(DATELINE_PAGE)
    skip, ids = dates._NO_TEXT_TAGS, dates._NO_TEXT_IDS
    for node in tree.css("h1, p, span, time"):
        for limit, steps in ((600, 200), (30, 200), (600, 3)):
            expected = _reference_after(node, limit, steps, skip, 80)
            assert _dom.texts_after(node, limit, steps, ids, 80) == expected
    h1 = tree.css_first("h1")
    assert h1 is not None
    after = _dom.texts_after(h1, 600, 200, ids, 80)
    # Not the headline's own words, not the <svg>'s; a long paragraph blanked.
    assert after[:2] == ["Published", "March 3, 2021"] and after[2].isspace()
    before = _dom.texts_before(h1, 60, 200, ids, 80)
    assert before == ["By Ann", "May 2, 2024"]  # the script's text is left out


def test_census_leaves_out_the_names_known_to_mark_no_widget() -> None:
    body = LexborHTMLParser(PAGE).body
    assert body is not None
    ids = prune._NEVER_CONTENT_IDS
    verdicts = {"lead intro p1": prune.NOT_NOISE, "a b": prune.NOISE}
    named = [names for _, names in _dom.prune_census(body, ids, verdicts)[5]]
    every = [names for _, names in _dom.prune_census(body, ids)[5]]
    assert "lead intro p1" in every and "lead intro p1" not in named
    assert "a b" in named  # a cached widget verdict is judged again by prune
    assert [n for n in every if n != "lead intro p1"] == named


def test_census_judges_new_names_as_it_meets_them_and_keeps_only_the_widgets() -> None:
    repeated = "".join(f'<li class="item">{i}</li><li class="a" id="b">ad</li>' for i in range(3))
    body = LexborHTMLParser(PAGE.replace("</div></body>", f"<ul>{repeated}</ul></div></body>")).body
    assert body is not None
    ids = prune._NEVER_CONTENT_IDS
    every = [names for _, names in _dom.prune_census(body, ids)[5]]
    assert every.count("item ") == 3 and every.count("a b") == 4
    asked: list[str] = []
    verdicts: dict[str, int] = {}

    def judge(names: str) -> int:
        asked.append(names)
        verdicts[names] = prune.NOISE if names == "a b" else prune.NOT_NOISE
        return verdicts[names]

    named = [names for _, names in _dom.prune_census(body, ids, verdicts, judge)[5]]
    assert named == [n for n in every if n == "a b"]
    assert sorted(asked) == sorted(set(every))  # each string judged once


SIGNALS_BODY = """<html><head><link rel="ALTERNATE" type="x" href="a"><link rel="x alternate" type>
<link rel="alternate" href="no-type"><meta name="Twitter:Card" content="a">
<meta name="twitter:card" content="b"><meta property="profile:username" content="c">
</head><body><script id="__next_data__">1</script><script id="__NEXT_DATA__">2</script>
<div id="data-preloaded" data-preloaded="x"></div><div id="DATA-PRELOADED" data-preloaded></div>
<p id="fusion-metadata">not a script</p><noscript>n</noscript></body></html>"""
EMBEDDED = (
    "script#__NEXT_DATA__, script#fusion-metadata, #data-preloaded[data-preloaded], body noscript"
)
SOCIAL = (
    'link[rel~="alternate"][type], meta[name="twitter:card"], meta[property="profile:username"]'
)


@pytest.mark.parametrize(
    ("doctype", "quirks"),
    [
        ("<!doctype html>", False),
        ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">', False),
        ("", True),
        ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">', True),
    ],
)
def test_page_elements_embedded_and_social_are_what_the_selector_lists_find_in_every_document_mode(
    doctype: str, quirks: bool
) -> None:
    tree = LexborHTMLParser(doctype + SIGNALS_BODY)
    assert tree.root is not None
    _, embedded, social, _ = _dom.page_elements(tree.root)
    assert [n.mem_id for n in embedded] == _once(tree.css(EMBEDDED))
    assert [n.mem_id for n in social] == _once(tree.css(SOCIAL))
    # rel's value is matched case-blind (HTML says so for rel); meta names are not.
    assert [n.attrs.get("href") or n.attrs.get("content") for n in social] == ["a", None, "b", "c"]
    # Ids are matched case-blind in a quirks-mode document only, as lexbor does.
    ids = [n.id for n in embedded if n.tag != "noscript"]
    if quirks:
        assert ids == ["__next_data__", "__NEXT_DATA__", "data-preloaded", "DATA-PRELOADED"]
    else:
        assert ids == ["__NEXT_DATA__", "data-preloaded"]


def _attrs_meta(nodes: list, clean) -> dict[str, str]:
    # metadata's reading through selectolax's attribute dicts, which read_meta replaced.
    by_property: dict[str, str] = {}
    by_name: dict[str, str] = {}
    for node in nodes:
        attrs = node.attributes
        content = clean(attrs.get("content"))
        if content is None:
            continue
        for attr, prefix, target in (
            ("property", "", by_property),
            ("name", "", by_name),
            ("http-equiv", "", by_name),
            ("itemprop", "itemprop:", by_name),
        ):
            for key in (attrs.get(attr) or "").lower().replace(".", ":").split():
                target.setdefault(prefix + key, content)
    return by_property, by_name


META_VALUES = st.sampled_from(
    ["", " ", "x", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "A &amp;amp; B", "R&D",
     "caf\u00e9", "\u65e5\u672c", "og:Title", "DC.title dc:title", "OG:IMAGE  twitter:image",
     # Keys read in place (ASCII) and through str: str.split()'s ASCII whitespace,
     # letters that lower to ASCII or to two characters, a key past the in-place limit.
     "a\x1cb\x1fc", "A.B\x0bC\x0cD\rE", "\u0130TEM.x", "\u212aEY", "Q" * 127 + ".Z",
     "Q" * 128 + ".Z", "a\x85b", "\u3000og:title"]
)  # fmt: skip
META_NAMES = st.sampled_from(["content", "property", "name", "http-equiv", "itemprop", "CONTENT"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(META_NAMES, META_VALUES), max_size=5), max_size=6))
def test_read_meta_reads_the_contents_as_the_attribute_dicts_do(tags: list) -> None:
    from unchrome.metadata.common import _clean

    markup = "".join(
        "<meta " + " ".join(f'{name}="{html.escape(value)}"' for name, value in attrs) + ">"
        for attrs in tags
    )
    tree = LexborHTMLParser(f"<html><head>{markup}</head></html>")
    nodes = tree.css("meta")
    by_property, by_name = _dom.read_meta(nodes, _clean)
    expected = _attrs_meta(nodes, _clean)
    # The same keys, contents and order (the first content a key meets wins).
    assert list(by_property.items()) == list(expected[0].items())
    assert list(by_name.items()) == list(expected[1].items())


def test_read_links_take_the_first_href_of_each_rel_token() -> None:
    tree = LexborHTMLParser(
        '<head><link rel="Canonical ICON" href=" /a "><link rel="canonical" href="/b">'
        '<link rel="image_src" href=""><link href="/c"><link rel="" href="/d">'
        '<link rel="image_src" href="/e"></head>'
    )
    assert _dom.read_links(tree.css("link")) == {"canonical": "/a", "icon": "/a", "image_src": "/e"}


_DATE_CLASS = re.compile(r"date|publish|posted", re.I)
_READ_BY_TAG = frozenset({"meta", "link", "script", "base", "title", "h1", "h2"})


def _groups_by_attrs(elements: list) -> tuple:
    # metadata's Python loop over its elements, which metadata_groups replaced.
    by_tag: dict[str, list] = {}
    marked, times, dated = [], [], []
    for node in elements:
        tag = node.tag
        if tag != "meta" and tag != "link":
            attrs = node.attributes
            if "pubdate" in attrs or "datepublished" in (attrs.get("itemprop") or "").lower():
                marked.append(node)
            elif tag == "time" and attrs.get("datetime"):
                times.append(node)
            elif _DATE_CLASS.search(attrs.get("class") or ""):
                dated.append(node)
            if tag not in _READ_BY_TAG or (
                tag == "script" and "ld+json" not in (attrs.get("type") or "").lower()
            ):
                continue
        by_tag.setdefault(tag, []).append(node)
    return by_tag, marked, times, dated


GROUP_TAGS = st.sampled_from(
    ["meta", "link", "script", "base", "title", "h1", "h2", "time", "span", "div", "p"]
)
GROUP_ATTRIBUTES = st.sampled_from(
    ['pubdate', 'pubdate=""', 'itemprop="datePublished"', 'itemprop="x DATEPUBLISHED"',
     'itemprop="datePublİshed"', 'itemprop="date"', 'class="post-date"', 'class="UPDATED"',
     'class="publıſh"', 'class="pubIish"', 'class="poſted"', 'class="Posted-on"',
     'class="dat e"', 'class=""', 'datetime="2024-01-02"', 'datetime=""',
     'type="application/LD+JSON"', 'type="text/javascript"', 'type="ld+jſon"']
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(GROUP_TAGS, st.lists(GROUP_ATTRIBUTES, max_size=3)), max_size=12))
def test_metadata_groups_sort_the_elements_as_the_attribute_dicts_do(tags: list) -> None:
    body = "".join(
        f"<{tag} {' '.join(attrs)}>x</{tag}>" if tag not in ("meta", "link", "base") else
        f"<{tag} {' '.join(attrs)}>"
        for tag, attrs in tags
    )  # fmt: skip
    # In SVG the parser gives xlink:type a prefix: the dicts key it "xlink:type", so it
    # is no script's type.
    svg = '<svg><title>t</title><script xlink:type="application/ld+json">{}</script></svg>'
    tree = LexborHTMLParser(f"<html><head></head><body>{body}{svg}</body>")
    elements = list(tree.root.traverse())
    got = _dom.metadata_groups(elements)
    expected = _groups_by_attrs(elements)
    assert {k: _ids(v) for k, v in got[0].items()} == {k: _ids(v) for k, v in expected[0].items()}
    for found, wanted in zip(got[1:], expected[1:], strict=True):
        assert _ids(found) == _ids(wanted)


@pytest.mark.parametrize(
    "read",
    [
        lambda node: _dom.read_meta([node], str),
        lambda node: _dom.read_links([node]),
        lambda node: _dom.metadata_groups([node]),
        _dom.named_kind,
        lambda node: _dom.slug_id(node, 3),
        _dom.hidden_attributes,
    ],
)
def test_the_readings_of_attributes_refuse_a_node_that_is_no_element(read) -> None:
    body = LexborHTMLParser("<p>text<!-- note --></p>").body
    assert body is not None
    text, comment = body.css_first("p").iter(include_text=True)
    for node in (text, comment):
        with pytest.raises(TypeError, match="an element"):
            read(node)


def test_a_selectolax_whose_lexbor_was_not_checked_is_refused_at_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The walk reads lexbor's structs as third_party/lexbor declares them; another
    # selectolax may bundle another lexbor, whose nodes would be read as garbage.
    import selectolax

    _dom._check_selectolax()  # the installed one passes
    monkeypatch.setattr(selectolax, "__version__", "1.0.0")
    with pytest.raises(ImportError, match=r"selectolax 1\.0\.1 or 1\.0\.2"):
        _dom._check_selectolax()


ATTRIBUTE_PAGE = (
    '<p><img SRC="a.png" Alt="" data-Src=x onclick=y srcset="a 1x, b 2x" title>'
    '<svg><use xlink:href="/b" href="/a"/></svg><a HREF="/y" class=q lang=fr>z</a>'
    '<video src="v.mp4" data-lazy-src="w" colspan=2 a-very-long-attribute-name-here=1></video>'
    '<td rowspan="3" dir=rtl start=2 datetime="2024-01-02" data-original="/o.png"></td></p>'
)


def test_attribute_reader_reads_the_named_attributes_as_selectolax_does() -> None:
    # render's writer reads the attributes it keeps through the compiled reader: the
    # same values (None without one, "" for an empty one), in the element's order.
    names = ("href", "src", "alt", "title", "colspan", "rowspan", "datetime", "lang", "dir")
    names += ("start", "data-src", "data-lazy-src", "data-original", "srcset")
    reader = _dom.AttributeNames(names)
    for node in LexborHTMLParser(ATTRIBUTE_PAGE).body.traverse(include_text=True):
        expected = {k: v for k, v in node.attributes.items() if k in names}
        assert reader.read(node) == expected
        assert list(reader.read(node)) == list(expected)
    use = LexborHTMLParser(ATTRIBUTE_PAGE).css_first("use")
    assert reader.read(use) == {"href": "/a"}  # xlink:href is another name
