"""prune's compiled readings (unchrome._native._dom's text_length, in_code, first_heading,
named_kind, slug_id, hidden_attributes, neighbour_text) give what the selectolax
readings they replaced give, on generated markup and on hand-made cases."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from unchrome._native import _dom
from unchrome.pipeline import prune
from unchrome.rules import names

# Text with the characters the readings could get wrong: str.strip's whitespace
# outside ASCII (no-break, ideographic, line separator, NEL), the ASCII separators
# \x1c-\x1f that str.strip drops and lexbor keeps, multi-byte letters, entities.
CHARACTERS = [
    " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000",
    "\u2028", "\u202f", "\u3000", "\ufeff", "\u200b", "a", "Z", "7", "-", "_", "é", "ſ", "K",
    "İ", "中", "😀", "&amp;", "&nbsp;", "\x00",
]  # fmt: skip
TEXT = st.lists(st.sampled_from(CHARACTERS), max_size=12).map("".join)
TAG_NAMES = [
    "div", "p", "a", "span", "pre", "code", "article", "main", "section", "b", "mi", "x-y", "h1",
    "h3", "h6",
]  # fmt: skip
TAGS = st.sampled_from(TAG_NAMES)
NAMES = [
    "role", "Role", "id", "class", "hidden", "aria-hidden", "style", "aria-labelledby",
    "xlink:role", "data-x",
]  # fmt: skip
VALUES = [
    "", "main", "Main", "article", "region", "tabpanel", "true", "TRUE", "display:none", "a b",
    "one-two_three", "One Two3 four", "x", "é-a-b", "K-a-b",
]  # fmt: skip
ATTRIBUTE = st.tuples(st.sampled_from(NAMES), st.one_of(st.none(), st.sampled_from(VALUES)))


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    def tag(name: str, attributes: list[tuple[str, str | None]], inner: list[str]) -> str:
        written = "".join(
            f" {key}" if value is None else f' {key}="{value}"' for key, value in attributes
        )
        return f"<{name}{written}>{''.join(inner)}</{name}>"

    return st.builds(tag, TAGS, st.lists(ATTRIBUTE, max_size=4), st.lists(children, max_size=4))


MARKUP = st.recursive(TEXT, _element, max_leaves=20)
# Some pages put their fragments in MathML (xlink:role is a prefixed attribute there)
# or in a <pre>.
WRAPPERS = st.sampled_from(["{}", "<math>{}</math>", "<pre>{}</pre>", "<code>{}</code>"])


def _page(markup: str, wrapper: str) -> LexborHTMLParser:
    return LexborHTMLParser(f"<html><body>{wrapper.format(markup)}</body></html>")


def _nodes(tree: LexborHTMLParser) -> list[LexborNode]:
    assert tree.root is not None
    return list(tree.root.traverse(include_text=True))


def _selectolax_in_code(node: LexborNode) -> bool:
    parent = node.parent
    while parent is not None:
        tag = parent.tag
        if tag in ("pre", "code"):
            return True
        if tag == "body":
            return False
        parent = parent.parent
    return False


def _selectolax_kind(node: LexborNode) -> int:
    if node.tag in prune._EXEMPT_TAGS or node.attrs.get("role") in prune._EXEMPT_ROLES:
        return prune._EXEMPT
    return prune._LINK if node.tag == "a" else prune._OTHER


def _selectolax_neighbours(node: LexborNode) -> str:
    sides = [node.prev, node.next]
    return " ".join(
        side.text_content or "" for side in sides if side is not None and side.tag == "-text"
    )


def _check(tree: LexborHTMLParser) -> None:
    for node in _nodes(tree):
        assert _dom.text_length(node) == len(node.text(deep=True, strip=True, skip_empty=True))
        assert _dom.neighbour_text(node) == _selectolax_neighbours(node)
        if not node.is_element_node:
            continue
        assert _dom.in_code(node) == _selectolax_in_code(node)
        heading = _dom.first_heading(node)
        expected = node.css_first("h1, h2, h3, h4, h5, h6")
        assert (heading and heading.mem_id) == (expected and expected.mem_id)
        assert _dom.named_kind(node) == _selectolax_kind(node)
        ident = node.id
        slug = _dom.slug_id(node, prune.HEADING_ANCHOR_MIN_WORDS)
        if slug is None:
            words = re.findall("[a-z0-9]+", (ident or "").lower())
            assert len(words) < prune.HEADING_ANCHOR_MIN_WORDS
        else:
            assert slug == ident
        attrs = node.attributes
        assert _dom.hidden_attributes(node) == (
            "hidden" in attrs or attrs.get("aria-hidden") == "true",
            attrs.get("style") or None,
            attrs.get("id") or None,
            attrs.get("role") or None,
            attrs.get("class") or None,
            attrs.get("aria-labelledby") or None,
        )


@settings(max_examples=400, deadline=None)
@given(MARKUP, WRAPPERS)
def test_the_compiled_readings_are_selectolaxs(markup: str, wrapper: str) -> None:
    _check(_page(markup, wrapper))


# Ill-formed UTF-8 that a lenient decoder might count as one character: an encoded
# surrogate, overlong forms, a code point past U+10FFFF, cut sequences, stray bytes.
ILL_FORMED = [
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80",
    b"\xe0\x9f\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
    b"\xf5\x80\x80\x80", b"\xe4\xb8", b"\xf0\x9f\x98", b"\x80", b"\xbf", b"\xfe", b"\xff",
    b"\xc2\xa0", b"\xe3\x80\x80", b"\xed\x9f\xbf", b"\xf4\x8f\xbf\xbf",
]  # fmt: skip
BYTES = st.one_of(st.binary(max_size=6), st.sampled_from(ILL_FORMED), TEXT.map(str.encode))


@settings(max_examples=300, deadline=None)
@given(st.lists(BYTES, max_size=8))
def test_text_length_of_bytes_lexbor_could_not_decode(parts: list[bytes]) -> None:
    # Bytes that are not UTF-8 reach the text nodes as they are (selectolax decodes
    # them with "replace"); '<' and '&' are left out to keep the markup's shape.
    text = b"<b>".join(part.replace(b"<", b"").replace(b"&", b"") for part in parts)
    _check(LexborHTMLParser(b"<html><body><p>" + text + b"</p></body></html>"))


def test_hand_cases() -> None:
    tree = LexborHTMLParser(
        "<html><body>"
        '<math><mi xlink:role="main" role="x" class="ad" hidden>a</mi></math>'
        '<div role="main" id="one Two-3">\u3000 héllo\xa0\x1c<pre><i class="c">x</i></pre></div>'
        '<p>See <a class="popup" id="a-b">it</a> here</p><a class="popup">x</a>'
        '<section id="é-a-b" style="display:none" aria-labelledby="h">\u2028</section>'
        "</body></html>"
    )
    _check(tree)
    mi, div, i, link, alone, section = (
        tree.css_first(selector) for selector in ("mi", "div", "i", "p a", "body > a", "section")
    )
    assert [_dom.named_kind(n) for n in (mi, div, link)] == [0, 1, 2]  # xlink:role is not role
    assert _dom.hidden_attributes(mi) == (True, None, None, "x", "ad", None)
    # Each text node stripped on its own: "héllo" and "x".
    assert _dom.text_length(div) == len("\u3000 héllo\xa0\x1c".strip() + "x") == 6
    assert _dom.in_code(i) and not _dom.in_code(div)
    assert _dom.slug_id(div, 3) == "one Two-3" and _dom.slug_id(link, 3) is None
    assert _dom.slug_id(section, 3) == "é-a-b"  # not ASCII: left to the regex
    assert _dom.neighbour_text(link) == "See   here" and _dom.neighbour_text(alone) == ""
    assert _dom.text_length(section) == 0


def test_hostile_trees_do_not_crash() -> None:
    depth = 20_000
    deep = LexborHTMLParser("<html><body>" + "<code><span>" * depth + "x" + "</body></html>")
    innermost = deep.css_first("body")
    assert innermost is not None
    while innermost.child is not None and innermost.child.is_element_node:
        innermost = innermost.child
    assert _dom.in_code(innermost) and not _dom.in_code(deep.body)
    assert _dom.text_length(deep.body) == 1
    many = " ".join(f'a{k}="{k}"' for k in range(20_000))
    wide = LexborHTMLParser(f'<html><body><div {many} role="main" hidden>t</div></body></html>')
    div = wide.css_first("div")
    assert div is not None
    assert _dom.named_kind(div) == prune._EXEMPT
    assert _dom.hidden_attributes(div)[:4] == (True, None, None, "main")


def _pruned_text(html: str) -> tuple[str, prune.Pruned]:
    """The page's text once pruned, and what prune_page says of it."""
    tree = LexborHTMLParser(html)
    pruned = prune.prune_page(tree)
    assert tree.body is not None
    return tree.body.text(separator=" "), pruned


def test_a_widget_named_wrapper_around_the_marked_article_body_stays() -> None:
    # A "share_wrapper" div its CMS never closes swallows the story, which the page
    # marks with itemprop="articleBody": the story must survive pruning, and a
    # share bar of the same name beside it must not.
    story = "".join(
        f"<p>Paragraph {i} of the story about the operator closing its app store.</p>"
        for i in range(10)
    )
    chrome = "".join(f"<p>Sidebar teaser {i} with a headline of other news.</p>" for i in range(30))
    html = (
        f"<html><body><div class='side'>{chrome}</div>"
        "<div class='share_wrapper'><a href='/s'>Share</a> <a href='/t'>Tweet</a></div>"
        f"<div class='share_wrapper'><span>Email</span><div itemprop='articleBody'>{story}"
        "</div></div></body></html>"
    )
    text, _ = _pruned_text(html)
    assert "Paragraph 9 of the story" in text
    assert "Tweet" not in text


def test_a_wordpress_posts_category_and_tag_classes_do_not_make_it_a_widget() -> None:
    # post_class() adds one class per category and tag: "category-reviews" named the
    # whole story a comment section (customer reviews are a product page's comments).
    story = "".join(
        f"<p>Paragraph {i} of the game review tells how the siege plays.</p>" for i in range(8)
    )
    html = (
        "<html><body><div class='post-7 post type-post status-publish hentry "
        f"category-reviews tag-games'>{story}</div>"
        "<div class='sharing'><a href='/s'>Share this</a></div></body></html>"
    )
    text, pruned = _pruned_text(html)
    assert "Paragraph 7 of the game review" in text
    assert not pruned.comment_sections
    assert "Share this" not in text
    # Without the post's own marks the same words still name widgets.
    assert prune._names_verdict("category-reviews", False) == prune.COMMENTS


def test_a_typepad_posts_category_and_author_classes_do_not_make_it_a_widget() -> None:
    # Typepad's entries carry "entry-category-<name>" and "entry-author-<name>" classes:
    # a blog filed under "camera_reviews" lost its whole post to them.
    story = "".join(
        f"<p>Paragraph {i} of the post tells how the camera feels in the hand.</p>"
        for i in range(8)
    )
    html = (
        "<html><body><div class='entry-category-camera_reviews entry-author-mj "
        f"entry-type-post entry' id='entry-6a00df'>{story}</div></body></html>"
    )
    text, pruned = _pruned_text(html)
    assert "Paragraph 7 of the post" in text
    assert not pruned.comment_sections
    assert prune._names_verdict("entry-category-camera_reviews entry", False) == prune.COMMENTS


def test_what_the_site_leaves_off_the_printed_page_is_not_the_story() -> None:
    story = "".join(
        f"<p>Paragraph {i} of the story tells how the library reopened after the fire.</p>"
        for i in range(8)
    )
    html = (
        f"<html><body><div class='story'>{story}"
        "<div class='my-8 print:hidden'><p class='font-bold'>Advertisement</p></div>"
        "<div class='d-print-none'><p>Related: the mayor's plans for the old mill.</p></div>"
        "</div></body></html>"
    )
    text, _ = _pruned_text(html)
    assert "Paragraph 7 of the story" in text
    assert "Advertisement" not in text
    assert "old mill" not in text


def test_a_plugin_objects_fallback_is_read_as_a_browser_shows_it() -> None:
    # No browser runs Flash any more: it shows the <object>'s children, here the
    # description of the video the page is about.
    story = "".join(
        f"<p>Paragraph {i} of the segment's write-up says who joined the panel on Sunday "
        "and what they argued about campaign money.</p>"
        for i in range(3)
    )
    html = (
        "<html><body><article><h1>The panel</h1><object type='application/x-shockwave-flash' "
        "data='player.swf'><param name='movie' value='player.swf'><p class='caption'>The "
        "video: four guests tell the host how much money the last election cost and who "
        "paid for it.</p></object>"
        f"{story}</article></body></html>"
    )
    text, _ = _pruned_text(html)
    assert "four guests tell the host" in text
    assert "Paragraph 2 of the segment" in text


def test_a_section_heading_is_not_pruned_for_a_widget_word_in_its_id() -> None:
    # A heading named after its own words carries its anchor: a story about a club's
    # promotion, a market's share prices, a sponsored research project lost those
    # section headings to their ids.
    headings = ("Promotion", "Share prices", "Sponsored research", "Comments")
    story = "".join(
        f"<h2 id='{'h-' if i == 3 else ''}{title.lower().replace(' ', '-')}'>{title}</h2>"
        f"<p>Paragraph {i} of the story tells how the season ended for the club.</p>"
        for i, title in enumerate(headings)
    )
    html = (
        f"<html><body><article>{story}</article>"
        "<div id='share'><a href='/s'>Share this</a></div></body></html>"
    )
    text, pruned = _pruned_text(html)
    for title in headings:
        assert f"{title}</h2>" in html and title in text
    assert not pruned.comment_sections
    assert "Share this" not in text
    # An id that is not the heading's words still names it: a comment thread's heading
    # and its form's, and a class names a widget's title whatever the id.
    text, pruned = _pruned_text(
        f"<html><body>{story}<h3 id='comments'>53 Responses to the story</h3>"
        "<h3 id='respond'>Leave a Reply</h3>"
        "<h3 class='share-title' id='share-the-story'>Share the story</h3></body></html>"
    )
    assert "Leave a Reply" not in text and "Share the story" not in text
    assert len(pruned.comment_sections) == 1


def test_names_outside_ascii_get_the_verdicts_of_their_ascii_twins() -> None:
    # Non-ASCII class strings take the case-blind patterns (compiled on first use); a
    # widget word beside an accented one is still a widget, in any case.
    for ascii_names, other in [
        ("Sidebar-Ad promo", "Sidebar-Ad promo é"),
        ("cookie-banner", "COOKIE-banner ünter"),
        ("comments-area", "comments-area 评论"),
        ("entry-content", "entry-content é"),
    ]:
        for comments in (False, True):
            expected = prune._names_verdict(ascii_names, comments)
            assert prune._names_verdict(other, comments) == expected, (other, comments)
    assert prune._names_verdict("COOKIE-banner ünter", False) == prune.ALWAYS_NOISE


# The ASCII names' verdict before _WIDGET_ASCII ranked the lists: one pattern per list,
# as _ascii_token_re compiles them, read in _verdict's order.
_ONE_PATTERN_PER_LIST = (
    prune._ascii_token_re(prune.CONSENT_WORDS),
    prune._ascii_token_re(prune.NOISE_WORDS),
    prune._ascii_token_re(prune.LAYOUT_WORDS, "a-z"),
    prune._ascii_token_re(prune.COMMENT_WORDS),
)


def _word_of(words: str) -> st.SearchStrategy[str]:
    alternatives = names._alternatives(words)
    return st.sampled_from(alternatives).flatmap(
        lambda alternative: st.from_regex(alternative, fullmatch=True, alphabet=ASCII_WORD)
    )


ASCII_WORD = st.characters(min_codepoint=32, max_codepoint=126)
NAME_PIECE = st.one_of(
    _word_of(prune.CONSENT_WORDS),
    _word_of(prune.NOISE_WORDS),
    _word_of(prune.COMMENT_WORDS),
    _word_of(prune.LAYOUT_WORDS),
    st.sampled_from(["-", "_", " ", ":", "--", "__", "x", "9", "no-", "-free", "Ad", "a2a"]),
    st.text(alphabet=ASCII_WORD, max_size=6),
)
NAMES = st.lists(NAME_PIECE, max_size=8).map("".join)


def _both_verdicts(names_: str) -> None:
    text = " " + names_.lower()
    for comments in (False, True):
        want = prune._verdict(text, comments, _ONE_PATTERN_PER_LIST)
        assert prune._ascii_verdict(text, comments) == want, (names_, comments)


@settings(max_examples=3000, deadline=None)
@given(NAMES)
def test_ranked_widget_search_gives_the_verdicts_of_a_pattern_per_list(names_: str) -> None:
    # Words of several lists side by side, inside one another ("cookie-comments",
    # "ad_consent", "user-reviews-cookie"), glued or apart: the first list with a word
    # anywhere decides, as it did when each list had a pattern of its own.
    _both_verdicts(names_)


def test_ranked_widget_search_by_hand() -> None:
    for names_ in [
        "advert_cookie",  # noise reaching over a consent word: consent still found
        "social-share cookie-notice", "comments cookie", "user-reviews", "product_reviews",
        "-reviews", "reviews-list article", "share content", "signature", "x-signature_y",
        "user-stats", "commentlist", "nothing-here", "", " ", "ad", "ads-content",
    ]:  # fmt: skip
        _both_verdicts(names_)
    assert prune._ascii_verdict(" advert_cookie", False) == prune.ALWAYS_NOISE
    assert prune._ascii_verdict(" share comments", False) == prune.NOISE
    assert prune._ascii_verdict(" post-comments", False) == prune.COMMENTS
    assert prune._ascii_verdict(" post-comments", True) == prune.NOT_NOISE


SHARED_WCXB = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wcxb" / "dev"
_NAME_ATTRIBUTE = re.compile(rb"""\s(?:class|id)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@pytest.mark.skipif(not SHARED_WCXB.is_dir(), reason="the WCXB dev pages are not there")
def test_ranked_widget_search_on_the_class_and_id_words_of_the_wcxb_pages() -> None:
    seen: set[str] = set()
    for path in sorted((SHARED_WCXB / "html").glob("*.html.gz"))[:400]:
        for match in _NAME_ATTRIBUTE.finditer(gzip.decompress(path.read_bytes())):
            value = (match.group(1) or match.group(2) or b"").decode("ascii", "ignore")
            if value not in seen:
                seen.add(value)
                _both_verdicts(value)
    assert len(seen) > 10_000
