"""The second reading (pipeline.container): Readability's container over the blocks the
page was cut into, and how the story decision reads it."""

from __future__ import annotations

import re
from array import array

import unchrome
from pages import STORY, page, story_html
from unchrome._native._blocks import paragraph_points
from unchrome.model.policy import CONTAINER_SURE_P, within_container
from unchrome.pipeline.container import (
    MIN_PARAGRAPH_CHARS,
    PARAGRAPH_KINDS,
    TAG_SCORE,
    Container,
    read_container,
)
from unchrome.pipeline.extractor import Trace
from unchrome.pipeline.segmentation import Block, Segmentation


def container_of(html: str) -> tuple[Container, list[str]]:
    """The container reading of a page, and the text of every block it scored."""
    trace = Trace()
    unchrome.Extractor().extract(html, trace=trace)
    assert trace.seg is not None and trace.agg is not None
    box = read_container(trace.seg, trace.agg)
    return box, [b.text for b in trace.seg.blocks]


def inside_texts(box: Container, texts: list[str]) -> list[str]:
    return [t for t, inside in zip(texts, box.inside, strict=True) if inside]


NAV = (
    "<ul class='menu'>"
    + "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(12))
    + "</ul>"
)
TEASERS = (
    "<div class='more'>"
    + "".join(
        f"<div><h3><a href='/t/{i}'>Another headline number {i} from the newsroom</a></h3>"
        f"<p>A one-line summary of teaser {i}, with a comma.</p></div>"
        for i in range(6)
    )
    + "</div>"
)


def test_the_container_holds_the_story_paragraphs_and_not_the_menu_or_teasers() -> None:
    html = page(f"{NAV}<div class='wrap'><div class='story'>{story_html()}</div>{TEASERS}</div>")
    box, texts = container_of(html)
    inside = inside_texts(box, texts)
    assert [t for t in inside if t in STORY] == list(STORY)
    assert not any("Section" in t for t in inside)
    assert not any("headline number" in t or "teaser" in t for t in inside)


def test_sibling_paragraphs_of_the_container_join_it() -> None:
    # The lead paragraph sits beside the story's division, as a sibling <p>: Readability
    # takes a prose sibling into the container.
    lead = "A short lead that ends the way sentences do, and says what the story is about."
    html = page(f"<div><p>{lead}</p><div class='body'>{story_html()}</div></div>")
    box, texts = container_of(html)
    assert lead in inside_texts(box, texts)


def test_a_page_without_paragraphs_has_no_container() -> None:
    html = page(
        "<ul>" + "".join(f"<li><a href='/{i}'>Link {i}</a></li>" for i in range(5)) + "</ul>"
    )
    box, _ = container_of(html)
    assert box.top == -1 and 1 not in box.inside


def test_commas_count_in_every_script() -> None:
    # Chinese prose separates its clauses with full-width commas: the paragraph that has
    # them outscores a longer line of labels without any.
    prose = "今天上午，市政府召开新闻发布会，宣布图书馆周日继续开放，读者表示欢迎。" * 2
    labels = "新闻 体育 财经 科技 娱乐 汽车 房产 旅游 教育 健康 文化 时尚 " * 2
    html = page(
        f"<div class='a'><div><p>{labels}</p></div></div><div class='b'><div><p>{prose}</p>"
        f"<p>{prose}</p></div></div>",
        lang="zh",
    )
    box, texts = container_of(html)
    inside = inside_texts(box, texts)
    assert any("市政府" in t for t in inside)
    assert not any("新闻 体育" in t for t in inside)


def test_short_prose_siblings_join_and_link_lines_do_not() -> None:
    # Readability's test for unscored siblings: a short <p> without links that ends a
    # sentence joins; one that is a link does not.
    notes = "".join(f"<p>Note {i} of the minutes ends as a sentence does.</p>" for i in range(3))
    links = "".join(
        f"<p><a href='/n/{i}'>Minutes number {i} of the council</a></p>" for i in range(3)
    )
    html = page(f"<div><div class='story'>{story_html()}</div>{notes}{links}</div>")
    box, texts = container_of(html)
    inside = inside_texts(box, texts)
    assert sum(t.startswith("Note ") for t in inside) == 3
    assert not any(t.startswith("Minutes number") for t in inside)


def test_a_headline_the_body_repeats_under_its_byline_is_printed_once() -> None:
    # The page's <h1> stands outside the story's container, which says it again in an
    # <h3> under the byline: the Markdown shows the headline once.
    headline = "Home repair grants open for the new year"
    html = page(
        f"<div class='main'><h1>{headline}</h1><p>By the council</p>"
        f"<div class='entry-content'><h3>{headline}</h3>{story_html()}</div></div>",
        head=f"<title>{headline}</title>",
    )
    result = unchrome.extract(html)
    assert result.markdown.count(headline) == 1, result.markdown
    assert STORY[0] in result.markdown


# ------------------------------------------------------------------ the story decision


def _block(kind: str, text: str, links: int = 0) -> Block:
    return Block(kind=kind, text=text, owner=0, link_chars=links, near_mask=0, far_mask=0, flags=0)


LEAD = "A lead paragraph written outside the body's element, as some sites do."
BODY = "A paragraph of the story inside the container, long enough to be prose here. " * 3
TEASER = "Another story the site would like you to read next"


def _decide(kinds_texts: list[tuple[str, str, int]], keep, probs, inside) -> list[bool]:
    blocks = [_block(k, t, links) for k, t, links in kinds_texts]
    chars = array("d", [len(b.text) for b in blocks])
    out = within_container(blocks, bytearray(keep), array("d", probs), bytearray(inside), chars)
    return [bool(k) for k in out]


def test_what_follows_the_container_goes_unless_the_model_is_sure_of_it() -> None:
    page_blocks = [
        ("p", LEAD, 0),
        ("p", BODY, 0),
        ("p", BODY + " Again.", 0),
        ("h3", TEASER, len(TEASER)),
        ("p", "A teaser's summary that reads like prose, and ends a sentence.", 0),
    ]
    keep = [True] * 5
    inside = [False, True, True, False, False]
    # The container holds most of what the model keeps: the two readings agree.
    assert _decide(page_blocks, keep, [0.7, 0.9, 0.9, 0.7, 0.7], inside) == [
        True,  # prose leading into the container
        True,
        True,
        False,  # after the container: must earn its place
        False,
    ]
    sure = [0.7, 0.9, 0.9, 0.7, CONTAINER_SURE_P]
    assert _decide(page_blocks, keep, sure, inside)[4] is True


def test_a_container_the_model_does_not_agree_with_changes_nothing() -> None:
    # The container is a sidebar the model dropped: the readings disagree on the story.
    page_blocks = [("p", BODY, 0), ("p", BODY + " More.", 0), ("p", LEAD, 0)]
    keep = [True, True, False]
    inside = [False, False, True]
    assert _decide(page_blocks, keep, [0.9, 0.9, 0.2], inside) == keep


def _points_in_python(seg: Segmentation) -> tuple[list[float], list[bool]]:
    """Readability's points as the Python loop before paragraph_points summed them."""
    commas = re.compile("[,\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32\uff0c\u3001]")
    points_of = [0.0] * len(seg.parents)
    reached = [False] * len(seg.parents)
    for block in seg.blocks:
        if block.kind not in PARAGRAPH_KINDS or len(block.text) < MIN_PARAGRAPH_CHARS:
            continue
        points = 1.0 + len(commas.findall(block.text)) + min(len(block.text) // 100, 3)
        ancestor = seg.parents[block.owner]
        for divider in (1.0, 2.0, 6.0, 9.0, 12.0):
            if ancestor < 0:
                break
            points_of[ancestor] += points / divider
            reached[ancestor] = True
            ancestor = seg.parents[ancestor]
    for element, tag in enumerate(seg.tags):
        if reached[element]:
            points_of[element] += TAG_SCORE.get(tag, 0.0)
    return points_of, reached


def test_compiled_paragraph_points_equal_the_python_sums_in_every_script() -> None:
    paragraphs = [
        "A sentence, with two commas, in English prose that runs on for a while.",
        "Un texte arabe، مع فاصلة عربية، وأخرى في النص الذي يطول قليلا هنا.",
        "中文的句子，有全角逗号，还有顿号、以及更多的文字内容在这里继续下去。" * 3,
        "日本語の文、読点が入り、長く続く文章がここにあります。" * 2,
        "Short, one.",  # under the minimum: scores nothing
        "x" * 450 + ", and more",  # three hundreds at most
    ]
    body = "".join(
        f"<div class='c{i}'><section><p>{t}</p></section></div>" for i, t in enumerate(paragraphs)
    )
    trace = Trace()
    unchrome.Extractor().extract(
        page(f"<main><article>{body}<td>{paragraphs[0]}</td></article></main>"), trace=trace
    )
    seg = trace.seg
    assert seg is not None
    scores, reached = paragraph_points(
        seg.blocks, seg.parents, seg.tags, PARAGRAPH_KINDS, MIN_PARAGRAPH_CHARS,
        (1.0, 2.0, 6.0, 9.0, 12.0), TAG_SCORE,
    )  # fmt: skip
    expected, expected_reached = _points_in_python(seg)
    assert scores.tolist() == expected
    assert [bool(r) for r in reached] == expected_reached
    assert sum(expected_reached) >= 5


def test_class_weights_of_ascii_names_match_the_case_blind_patterns() -> None:
    from unchrome.pipeline import container

    names = [
        "Article-Body", "SIDEBAR widget", "post-content related", "footer", "x", "   ",
        "MainContent", "com-box", "entrée commentaire", "Blog Story", "hentry tags",
    ]  # fmt: skip
    container._WEIGHTS.clear()
    seg = Segmentation(class_ids=[*names, None])
    for element, name in enumerate(names):
        expected = 0.0
        if name.strip():
            if container._NEGATIVE_NAMES.search(name):
                expected -= container.NAME_WEIGHT
            if container._POSITIVE_NAMES.search(name):
                expected += container.NAME_WEIGHT
        assert container._name_weight(seg, element) == expected, name
    assert container._name_weight(seg, len(names)) == 0.0
    assert "Article-Body" in container._WEIGHTS  # cached under the names as read
