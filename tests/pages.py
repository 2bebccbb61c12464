"""Small HTML pages the pipeline tests build: a story of four paragraphs, a page around
a body, the fixtures in tests/fixtures/pipeline."""

from __future__ import annotations

from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

FIXTURES = Path(__file__).parent / "fixtures" / "pipeline"

# Paragraphs long enough to be a story (each well over Config.min_paragraph_chars).
STORY = (
    "The council voted on Monday evening to keep the public library open on Sundays, "
    "reversing a decision taken last winter that had angered parents and students alike.",
    "Librarians had collected more than four thousand signatures in six weeks, and the "
    "petition was read aloud at the start of the meeting to applause from the gallery.",
    "The extra hours will be paid for by closing the branch office one morning a week, "
    "a compromise that the finance committee said would leave the budget unchanged.",
    "Opening on Sundays resumes next month, with the reading room and the children's "
    "corner staffed by volunteers from the local history society during the first weeks.",
)


def page(body: str, *, head: str = "<title>Library stays open</title>", lang: str = "en") -> str:
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">{head}</head>'
        f"<body>{body}</body></html>"
    )


def story_html(paragraphs: tuple[str, ...] = STORY) -> str:
    return "".join(f"<p>{p}</p>" for p in paragraphs)


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def paragraphs_of(html: str) -> list[str]:
    tree = LexborHTMLParser(html)
    return [" ".join(p.text().split()) for p in tree.css("p")]
