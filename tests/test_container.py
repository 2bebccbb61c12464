"""The second reading (pipeline.container): Readability's container over the blocks the
page was cut into, and how the story decision reads it."""

from __future__ import annotations

import unchrome
from pages import STORY, page, story_html
from unchrome.pipeline.container import Container, read_container
from unchrome.pipeline.extractor import Trace


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
    assert box.top == -1 and not box.inside.any()


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
