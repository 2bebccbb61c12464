"""The density selection's compiled loops (_select) against plain Python, and what the
selection does with them on small pages.

The references are the Python loops select.py had, written for reading. Generated
element trees give each element a parent with a smaller id (the segment walk's order),
a tag and per-element sums as aggregate() makes them.
"""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unchrome
from unchrome._native import _select
from unchrome.pipeline import select
from unchrome.pipeline.extractor import Trace
from unchrome.pipeline.segmentation import FLAG_ROW

TAGS = ["div", "section", "article", "main", "ul", "nav", "aside", "p", "li", "table", "h2"]


def ref_root_owners(parents: list[int], roots: set[int]) -> list[int]:
    owner = [-1] * len(parents)
    for element, parent in enumerate(parents):
        if element in roots:
            owner[element] = element
        elif parent >= 0:
            owner[element] = owner[parent]
    return owner


def ref_noise(tags, chrome, chars, a_chars, card_chars, root_of, roots) -> list[bool]:
    doomed = [False] * len(tags)
    for element, tag in enumerate(tags):
        root = root_of[element]
        if root < 0 or element in roots:
            continue
        if tag not in select._LINK_BLOCK_TAGS and not chrome[element]:
            continue
        total, t_chars = chars[root], chars[element]
        if tag in select._DROP_IN_WINNER_TAGS:
            doomed[element] = True
            continue
        if not t_chars:
            continue
        if tag in select._LINK_BLOCK_TAGS:
            index_page = a_chars[root] > select.LINK_LIST_SHARE * total
            cards_are_links = card_chars[root] < select.CARDS_MAX_SHARE_IN_STORY * total
            links = a_chars[element] + (card_chars[element] if cards_are_links else 0.0)
            if (
                not index_page
                and links > select.LINK_LIST_SHARE * t_chars
                and t_chars < select.LINK_LIST_MAX_FRACTION * total
            ):
                doomed[element] = True
                continue
            if (
                chrome[element]
                and t_chars < select.LINK_LIST_MAX_FRACTION * total
                and (
                    a_chars[element] >= select.NAMED_NOISE_LINK_SHARE * t_chars
                    or t_chars < select.NAMED_NOISE_MAX_CHARS
                )
            ):
                doomed[element] = True
    return doomed


@st.composite
def element_trees(draw: st.DrawFn) -> dict:
    n = draw(st.integers(1, 40))
    parents = [-1] + [draw(st.integers(-1, i - 1)) for i in range(1, n)]
    tags = [draw(st.sampled_from(TAGS)) for _ in range(n)]
    chrome = [draw(st.booleans()) for _ in range(n)]
    # Sums as aggregate() makes them: link and card characters within the characters,
    # and a parent holding at least what its children hold (the thresholds compare an
    # element with its root).
    own = [float(draw(st.integers(0, 600))) for _ in range(n)]
    chars = own[:]
    for element in range(n - 1, 0, -1):
        if parents[element] >= 0:
            chars[parents[element]] += chars[element]
    a_chars = [c * draw(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.8, 0.81, 1.0])) for c in chars]
    card_chars = [c * draw(st.sampled_from([0.0, 0.2, 0.35, 0.4, 1.0])) for c in chars]
    roots = set(draw(st.lists(st.integers(0, n - 1), max_size=4)))
    return {
        "parents": parents,
        "tags": tags,
        "chrome": chrome,
        "chars": chars,
        "a_chars": a_chars,
        "card_chars": card_chars,
        "roots": roots,
    }


@settings(max_examples=300, deadline=None)
@given(element_trees())
def test_root_owners_match_the_python_propagation(tree: dict) -> None:
    owners = _select.root_owners(tree["parents"], tree["roots"])
    assert owners.typecode == "q"
    assert owners.tolist() == ref_root_owners(tree["parents"], tree["roots"])


@settings(max_examples=300, deadline=None)
@given(element_trees())
def test_noise_elements_match_the_python_rules(tree: dict) -> None:
    root_of = ref_root_owners(tree["parents"], tree["roots"])
    doomed = _select.noise_elements(
        tree["tags"],
        tree["chrome"],
        array("d", tree["chars"]),
        array("d", tree["a_chars"]),
        array("d", tree["card_chars"]),
        array("q", root_of),
        tree["roots"],
        select._LINK_BLOCK_TAGS,
        select._DROP_IN_WINNER_TAGS,
        link_list_share=select.LINK_LIST_SHARE,
        link_list_max_fraction=select.LINK_LIST_MAX_FRACTION,
        cards_max_share=select.CARDS_MAX_SHARE_IN_STORY,
        named_link_share=select.NAMED_NOISE_LINK_SHARE,
        named_max_chars=select.NAMED_NOISE_MAX_CHARS,
    )
    expected = ref_noise(
        tree["tags"],
        tree["chrome"],
        tree["chars"],
        tree["a_chars"],
        tree["card_chars"],
        root_of,
        tree["roots"],
    )
    assert [bool(d) for d in doomed] == expected


@given(st.lists(st.tuples(st.sampled_from([*TAGS, "body", "span"]), st.sampled_from([0.0, 3.0]))))
def test_candidates_are_the_candidate_tags_holding_text(elements: list[tuple[str, float]]) -> None:
    tags = [t for t, _ in elements]
    found = _select.candidates(tags, select.CANDIDATE_TAGS, array("d", [c for _, c in elements]))
    assert isinstance(found, bytearray)
    assert list(found) == [t in select.CANDIDATE_TAGS and c > 0 for t, c in elements]


STORY = "<p>" + "The council voted on the new budget after a long debate. " * 4 + "</p>"


def test_link_list_inside_the_story_is_dropped() -> None:
    links = "".join(f'<li><a href="/t{i}">Topic number {i}</a></li>' for i in range(6))
    html = f"<html><body><div class=story>{STORY * 3}<ul>{links}</ul>{STORY}</div></body></html>"
    text = unchrome.extract(html).text
    assert "The council voted" in text
    assert "Topic number" not in text


def test_link_index_keeps_its_lists() -> None:
    # A body that is itself mostly links is a link index: its lists are the content.
    items = "".join(
        f'<li><a href="/doc{i}">Reference manual chapter {i} on configuration</a></li>'
        for i in range(30)
    )
    html = f"<html><body><div><h1>Manuals</h1><ul>{items}</ul></div></body></html>"
    text = unchrome.extract(html).text
    assert "Reference manual chapter 29" in text


def test_page_whose_elements_hold_no_text_selects_nothing_without_error() -> None:
    # Elements, but no block to sum: the sums are zeros and no candidate has text.
    seg = unchrome.pipeline.segment.segment(
        unchrome.pipeline.parse.parse("<div><div></div></div>").body
    )
    agg = unchrome.pipeline.score.aggregate(seg)
    assert len(seg.nodes) and not seg.blocks and agg.chars.typecode == "d"
    sel = select.select_blocks(seg, agg)
    assert sel.winner == -1
    assert 1 not in sel.in_root


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_blocks_inside_match_the_bincount(data: st.DataObject) -> None:
    elements = data.draw(st.integers(1, 20))
    blocks = data.draw(st.integers(0, 15))
    paths = [data.draw(st.sets(st.integers(0, elements - 1), max_size=4)) for _ in range(blocks)]
    block_of = np.array([b for b, path in enumerate(paths) for _ in path], dtype=np.int64)
    element_of = np.array([e for path in paths for e in sorted(path)], dtype=np.int64)
    marked = np.array(data.draw(st.lists(st.booleans(), min_size=elements, max_size=elements)))
    found = _select.blocks_inside(block_of, element_of, marked.view(np.uint8), blocks)
    expected = np.bincount(block_of, weights=marked[element_of], minlength=blocks) > 0
    assert isinstance(found, bytearray)
    assert list(found) == expected.astype(int).tolist()


def test_the_compiled_loops_refuse_tables_that_do_not_fit() -> None:
    # Bounds are not checked inside the loops: what does not fit is refused at entry.
    with pytest.raises(ValueError, match="does not come before"):
        _select.root_owners([-1, 5_000_000], set())
    chars = np.zeros(3)
    with pytest.raises(ValueError, match="per element"):
        _select.noise_elements(
            ["div"] * 3, [], chars, chars, chars, np.zeros(3, dtype=np.int64), set(),
            select._LINK_BLOCK_TAGS, select._DROP_IN_WINNER_TAGS, link_list_share=0.8,
            link_list_max_fraction=0.5, cards_max_share=0.35, named_link_share=0.3,
            named_max_chars=300,
        )  # fmt: skip
    with pytest.raises(ValueError, match="not an element"):
        _select.noise_elements(
            ["div"] * 3, [True] * 3, chars, chars, chars, np.array([0, 7, 0]), set(),
            select._LINK_BLOCK_TAGS, select._DROP_IN_WINNER_TAGS, link_list_share=0.8,
            link_list_max_fraction=0.5, cards_max_share=0.35, named_link_share=0.3,
            named_max_chars=300,
        )  # fmt: skip


def _short_story_in_a_big_sidebar(story_paragraphs: int) -> str:
    story = "".join(
        f"<p>Paragraph {i} of the short post tells how the bridge over the river was "
        "rebuilt after the flood, and who paid for it.</p>"
        for i in range(story_paragraphs)
    )
    # Boxes of a sidebar, each smaller than the post, together far more text than it,
    # and no sentence in any of them: archives, a blogroll, categories, a tag cloud.
    boxes = "".join(
        f"<div class='box'><h3>Box {b}</h3><ul>"
        + "".join(f"<li>Archive {b} month {m} of the year (12 posts)</li>" for m in range(16))
        + "</ul></div>"
        for b in range(5)
    )
    return f"<html><body><div class='post'><h1>The bridge</h1>{story}</div>{boxes}</body></html>"


def test_a_short_story_outweighed_by_its_sidebar_is_still_the_selection() -> None:
    # No container holds half of the page's text, but the post holds all its prose:
    # the post is the story, the sidebar's boxes are not.
    result = unchrome.extract(_short_story_in_a_big_sidebar(3))
    assert "Paragraph 2 of the short post" in result.text
    assert "Archive" not in result.text


def _story_with(controls: str) -> str:
    story = "".join(
        f"<p>Paragraph {i} of the story tells how the harbour was dredged and who "
        "paid the contractors for it.</p>"
        for i in range(6)
    )
    return f"<html><body><article><h1>The harbour</h1>{story}{controls}</article></body></html>"


def test_a_link_back_to_the_top_of_the_page_is_not_text() -> None:
    html = _story_with("<p class='end'><a href='#top'>Back to top</a></p>")
    result = unchrome.extract(html)
    assert "Paragraph 5 of the story" in result.text
    assert "Back to top" not in result.text
    assert "Back to top" not in result.markdown


def test_a_link_dressed_as_a_button_is_not_text() -> None:
    html = _story_with(
        "<p><a class='vc_btn add_to_cart_button' href='?add-to-cart=1554'>Add to cart</a></p>"
    )
    result = unchrome.extract(html)
    assert "Paragraph 5 of the story" in result.text
    assert "Add to cart" not in result.text


def test_a_short_linked_line_of_the_story_stays() -> None:
    # The same short paragraph linking elsewhere, without a button's class, is the
    # story's own line ("Read the report"), and stays.
    html = _story_with("<p><a href='/report.pdf'>Read the report</a></p>")
    assert "Read the report" in unchrome.extract(html).text


def test_a_story_in_the_first_row_of_a_layout_table_is_no_header_to_drop() -> None:
    # A 1990s page laid out with a table: the story fills the first row's cell, links
    # to resources the second's. When the resources go, the story is no header row
    # left over rows that went, and stays.
    story = "<br>".join(
        f"<font face='Arial'>Paragraph {i} of the article tells when to water the pots on "
        "a balcony, and why a light wand is worth its price.</font>"
        for i in range(14)
    )
    resources = " ".join(f"<a href='/r{i}.htm'>Resource {i}</a>" for i in range(12))
    html = (
        "<table width='100%'>"
        "<tr><td><img src='logo.gif' alt='Garden'></td>"
        f"<td rowspan='2'><b>Watering Tricks by Lisa Erickson</b><br>{story}</td></tr>"
        f"<tr><td>Resources {resources}</td></tr></table>"
    )
    tree = unchrome.pipeline.parse.parse(html)
    seg = unchrome.pipeline.segment.segment(tree.body)
    rows = [i for i, b in enumerate(seg.blocks) if b.flags & FLAG_ROW]
    assert len(rows) == 2 and "Paragraph 13" in seg.blocks[rows[0]].text
    keep = bytearray(len(seg.blocks))
    keep[rows[0]] = True
    select.settle_table_headers(seg.blocks, keep)
    assert keep[rows[0]] and not keep[rows[1]]
    # A real header row over rows that all went still goes with them.
    table = (
        "<table><tr><th>Day</th><th>Hours</th></tr>"
        "<tr><td>Sunday</td><td>10 to 16</td></tr></table>"
    )
    tree = unchrome.pipeline.parse.parse(table)
    seg = unchrome.pipeline.segment.segment(tree.body)
    keep = bytearray([True] + [False] * (len(seg.blocks) - 1))
    select.settle_table_headers(seg.blocks, keep)
    assert 1 not in keep


def test_a_summary_box_repeating_a_line_of_the_story_is_printed_once() -> None:
    # The story's lines are one block broken by <br>; the summary above it repeats its
    # second sentence as a block of its own.
    lines = [
        f"Line {i} of the story says what the company released on Tuesday about its "
        "chips and the machines built from them."
        for i in range(8)
    ]
    html = (
        "<html><body><article><h1>The chips</h1>"
        f"<div class='summary'><h2>{lines[1]}</h2></div>"
        f"<div class='body'>{'<br>'.join(lines)}</div></article></body></html>"
    )
    result = unchrome.extract(html)
    assert result.text.count("Line 1 of the story") == 1
    assert result.markdown.count("Line 1 of the story") == 1
    assert "Line 7 of the story" in result.text


def _blog_post_beside(sidebar_attributes: str, wrapper_attributes: str = "id='outer'") -> str:
    # A short post beside a column of readers' comments written as sentences: one by
    # one, its blocks read like a story's paragraphs.
    post = "".join(
        f"<p>Paragraph {i} of the short post says why the library reopened on Sunday "
        "after the flood.</p>"
        for i in range(2)
    )
    comments = "".join(
        f"<div class='recent'>Reader {i} wrote that the new opening hours suit the people "
        f"who work late shifts at the hospital near the river, and thanked the staff.</div>"
        for i in range(8)
    )
    return (
        f"<html><body><div {wrapper_attributes}><div class='post'><h1>Reopened</h1>{post}"
        f"</div><div {sidebar_attributes}><h2>Recent comments</h2>{comments}</div>"
        "</div></body></html>"
    )


def test_a_column_named_sidebar_is_not_content() -> None:
    result = unchrome.extract(_blog_post_beside("class='sidebar section' id='sidebar'"))
    assert "Paragraph 1 of the short post" in result.text
    assert "Reader 3 wrote" not in result.text
    assert "Reader 3 wrote" not in result.markdown


def test_sidebar_is_read_as_a_whole_name_only() -> None:
    # "content-sidebar-wrap" and the like name a layout, not the side column.
    result = unchrome.extract(_blog_post_beside("class='content-sidebar-wrap'"))
    assert "Reader 3 wrote" in result.text


def test_an_element_named_sidebar_around_the_story_is_the_layout() -> None:
    # A theme names the wrapper of the whole article "sidebar": it holds the story,
    # and none of its blocks is read as a sidebar's.
    html = _blog_post_beside("class='aside-box'", wrapper_attributes="class='sidebar'")
    trace = Trace()
    result = unchrome.Extractor().extract(html, trace=trace)
    assert "Paragraph 1 of the short post" in result.text
    assert trace.sel is not None and 1 not in trace.sel.aside


def test_a_page_whose_only_text_is_its_sidebar_is_not_refused() -> None:
    # Beside a main column of one word, the sidebar is all the page says: it is kept
    # rather than the page refused as empty.
    comments = "".join(
        f"<div>Reader {i} wrote that the new opening hours suit the people who work late "
        "shifts at the hospital near the river.</div>"
        for i in range(6)
    )
    html = (
        "<html><body><div id='wrap'><div id='main'><p>Short.</p></div>"
        f"<div class='sidebar'>{comments}</div></div></body></html>"
    )
    assert "Reader 3 wrote" in unchrome.extract(html).text


def _post_in_a_named_body(
    body_class: str, paragraphs_inside: int = 6, paragraphs_after: int = 0
) -> str:
    # A post whose template names its body, then (inside the same post wrapper) more
    # paragraphs of sentences that are not the story: one by one, the block model
    # reads them as a story's.
    def paragraph(i: int) -> str:
        return (
            f"<p>Paragraph {i} of the post tells how the harbour town rebuilt its sea wall "
            "after the winter storms, stone by stone.</p>"
        )

    inside = "".join(paragraph(i) for i in range(paragraphs_inside))
    rest = "".join(paragraph(paragraphs_inside + i) for i in range(paragraphs_after))
    notes = "".join(
        f"<p>Reader note {i}: the volunteers who carried the stones were thanked by the "
        "mayor at a dinner in the town hall.</p>"
        for i in range(5)
    )
    return (
        "<html><body><div id='page'><div class='post'><h1>The sea wall</h1>"
        f"<div class='{body_class}'>{inside}</div>{rest}"
        f"<div class='after-post'>{notes}</div></div></div></body></html>"
    )


@pytest.mark.parametrize("body_class", ["entry-content", "post-body", "article__body"])
def test_the_story_ends_with_the_post_body_the_page_names(body_class: str) -> None:
    result = unchrome.extract(_post_in_a_named_body(body_class))
    assert "Paragraph 5 of the post" in result.text
    assert "Reader note 2" not in result.text
    assert "Reader note 2" not in result.markdown


def test_a_post_body_that_holds_little_of_the_story_does_not_end_it() -> None:
    # One paragraph in the named element, six after it: the name is not the story's.
    result = unchrome.extract(_post_in_a_named_body("entry-content", 1, 6))
    assert "Paragraph 6 of the post" in result.text


def test_a_modifier_of_a_split_story_is_no_post_body() -> None:
    # "entry--text" is one part of a story cut into parts, not the body of a post.
    result = unchrome.extract(_post_in_a_named_body("entry entry--text"))
    assert "Reader note 2" in result.text


def test_the_story_does_not_end_with_its_post_body_when_comments_are_wanted() -> None:
    html = _post_in_a_named_body("entry-content")
    kept = unchrome.extract(html, config=unchrome.Config(include_comments=True))
    assert "Reader note 2" in kept.text


def test_children_are_the_elements_under_a_parent_in_id_order() -> None:
    parents = [-1, 0, 0, 1, 2, 1, 0, 6, 6, 1]
    for parent in range(-1, len(parents)):
        expected = [e for e, p in enumerate(parents) if p == parent]
        assert _select.children(parents, parent) == expected
    assert _select.children(parents, 1) == [3, 5, 9]
