"""Structure benchmark: how much of the page's shape a Markdown output keeps, against
WCXB's hand-made Markdown (``ground_truth.main_content_markdown``).

RAG and LLM users chunk Markdown by heading, read tables as tables and copy code
verbatim: word F1 (bench.py) says nothing of that. Both sides are parsed with a
CommonMark parser (markdown-it-py, GFM tables on) and their texts normalised alike:
casefolded, links reduced to their text, images and inline HTML dropped, invisible
characters dropped, whitespace collapsed. Per page, where the truth has the structure:

- headings: F1 of the multisets of heading texts, compared by their words (a first H1
  equal to the title is left aside on both sides: unchrome's Markdown opens with the
  title, the truth may);
- table rows: the share of the truth's body rows found as a row with exactly its
  cells ("exact"), and found with all its cells in order within one line of the
  output ("lenient": a row written as text, not as a table row);
- table row precision (pages where both sides have a table): the share of the
  output's table rows that are a row of the truth's tables;
- spurious tables: pages with a table in the output where the truth has none;
- code: the share of the truth's code blocks found verbatim inside a code block of the
  output, and found with all whitespace removed on both sides;
- list items: F1 of the multisets of list item texts, compared by their words (an
  item's own text, its nested lists apart).

Headings and list items are compared by their words (runs of letters and digits):
"Pros:" and "Pros", "Step 1 –" and "Step 1 -" are the same heading; whether a text is a heading or
an item is what is measured, not its punctuation, which the annotators retyped. With
that reading trafilatura's figures are the issue's (headings 0.587 / 0.586, list items
0.534 / 0.523); with the punctuation kept they read 0.572 and 0.461. Table cells and code
are compared with their punctuation.

Run as ``python -m benchmarks.bench --structure`` (beside trafilatura's Markdown, same
pages, same process). Its last column, "page ceiling" (page_ceiling), is the most any
extractor can score against this truth while keeping the page's own structure: the
share of the truth's headings, rows, code and items that the page holds as such. The
truth's Markdown is a conversion with its own habits (code indentation and comment
markers dropped, numbered headings written as list items, data tables left out), and
what it retyped no faithful output matches.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# Metrics of one page, None where the truth has nothing to measure them on.
METRICS: tuple[tuple[str, str], ...] = (
    ("headings", "heading texts F1"),
    ("rows_exact", "table rows, exact cells"),
    ("rows_lenient", "table rows, lenient"),
    ("row_precision", "table row precision"),
    ("spurious_table", "pages with a spurious table"),
    ("code", "code blocks verbatim"),
    ("code_loose", "code blocks, whitespace-insensitive"),
    ("list_items", "list items F1"),
)

_SPACE = re.compile(r"\s+")


def _parser() -> Any:
    from markdown_it import MarkdownIt

    # Raw HTML is read as HTML: inline tags carry no words (dropped below), and a block
    # of HTML (a table written as HTML) is no heading, list or Markdown table.
    return MarkdownIt("commonmark", {"html": True}).enable("table")


_MD: Any = None


def _md() -> Any:
    global _MD
    if _MD is None:
        _MD = _parser()
    return _MD


# Characters a reader does not see (zero-width spaces, direction marks, soft hyphens):
# a page's "\u200eMTJV3LL/A" is the truth's "MTJV3LL/A".
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")


def normalise(text: str) -> str:
    return _SPACE.sub(" ", _INVISIBLE.sub("", text)).strip().casefold()


_WORD = re.compile(r"\w+")


def words(text: str) -> str:
    """A normalised text's words, punctuation aside (headings, list items)."""
    return " ".join(_WORD.findall(text))


def _inline_text(token: Any) -> str:
    """The words of an inline token: link text kept, images and inline HTML dropped,
    line breaks as spaces."""
    parts: list[str] = []
    for child in token.children or ():
        kind = child.type
        if kind in ("text", "code_inline"):
            parts.append(child.content)
        elif kind in ("softbreak", "hardbreak", "html_inline"):
            parts.append(" ")  # a tag parts words (a <br> in a table cell)
        # image, html_inline, link_open/close, em/strong marks: no words
    return normalise("".join(parts))


@dataclass
class Shape:
    """What a Markdown document holds of structure."""

    headings: list[tuple[int, str]] = field(default_factory=list)  # (level, text)
    tables: list[list[list[str]]] = field(default_factory=list)  # rows of cells, header first
    code: list[str] = field(default_factory=list)  # fenced and indented
    fenced: list[str] = field(default_factory=list)
    list_items: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # every line, normalised


def shape(markdown: str) -> Shape:
    """Parse ``markdown`` into its headings, tables, code blocks and list items."""
    tokens = _md().parse(markdown)
    found = Shape()
    heading_level = 0
    table: list[list[str]] | None = None
    row: list[str] | None = None
    in_cell = False
    # Per open list item: the texts of its own paragraphs.
    items: list[list[str]] = []
    for token in tokens:
        kind = token.type
        if kind == "heading_open":
            heading_level = int(token.tag[1])
        elif kind == "heading_close":
            heading_level = 0
        elif kind == "table_open":
            table = []
        elif kind == "table_close":
            if table is not None:
                found.tables.append(table)
            table = None
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            if table is not None and row is not None:
                table.append(row)
            row = None
        elif kind in ("th_open", "td_open"):
            in_cell = True
        elif kind in ("th_close", "td_close"):
            in_cell = False
        elif kind in ("fence", "code_block"):
            found.code.append(token.content)
            if kind == "fence":
                found.fenced.append(token.content)
        elif kind == "list_item_open":
            items.append([])
        elif kind == "list_item_close":
            text = words(normalise(" ".join(items.pop())))
            if text:
                found.list_items.append(text)
        elif kind == "inline":
            text = _inline_text(token)
            if heading_level:
                if words(text):
                    found.headings.append((heading_level, words(text)))
            elif in_cell and row is not None:
                if text:  # an empty cell is no content: rows compare by their filled cells
                    row.append(text)
            elif items:
                items[-1].append(text)
    for line in markdown.splitlines():
        if line.strip():
            found.lines.append(_line_text(line))
    return found


def _line_text(line: str) -> str:
    """One line of Markdown as its words, read as inline Markdown."""
    tokens = _md().parseInline(line)
    return _inline_text(tokens[0]) if tokens else ""


def _f1(predicted: Sequence[str], truth: Sequence[str]) -> float:
    if not predicted and not truth:
        return 1.0
    if not predicted or not truth:
        return 0.0
    overlap = sum((Counter(predicted) & Counter(truth)).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / len(predicted), overlap / len(truth)
    return 2 * precision * recall / (precision + recall)


def _headings(found: Shape, title: str) -> list[str]:
    """Heading texts, less a first H1 that is the title."""
    headings = found.headings
    if headings and headings[0][0] == 1 and headings[0][1] == title:
        headings = headings[1:]
    return [text for _, text in headings]


def _in_order(cells: Sequence[str], line: str) -> bool:
    at = 0
    for cell in cells:
        found = line.find(cell, at)
        if found < 0:
            return False
        at = found + len(cell)
    return True


def _code_found(block: str, code: Sequence[str], loose: bool) -> bool:
    if loose:
        wanted = _SPACE.sub("", block)
        return any(wanted in _SPACE.sub("", c) for c in code)
    wanted = block.strip("\n")
    return any(wanted in c for c in code)


@dataclass
class StructureScore:
    """One output's structure metrics on one page (None: nothing to measure)."""

    headings: float | None = None
    rows_exact: float | None = None
    rows_lenient: float | None = None
    row_precision: float | None = None
    spurious_table: float | None = None  # 1.0 when the output draws a table the truth lacks
    code: float | None = None
    code_loose: float | None = None
    list_items: float | None = None


def score_structure(predicted: str, truth: str, title: str = "") -> StructureScore:
    """The structure metrics of ``predicted`` Markdown against the ``truth``'s."""
    want, got = shape(truth), shape(predicted)
    score = StructureScore()
    title = words(normalise(title))
    true_headings = _headings(want, title)
    if true_headings:
        score.headings = _f1(_headings(got, title), true_headings)
    # The truth's body rows; the output's rows, its header rows included (a table whose
    # header row is a row of data, as converters write a table without <th>).
    true_rows = [tuple(r) for t in want.tables for r in t[1:] if r]
    got_rows = [tuple(r) for t in got.tables for r in t if r]
    if true_rows:
        rows = set(got_rows)
        score.rows_exact = sum(r in rows for r in true_rows) / len(true_rows)
        lenient = sum(any(_in_order(r, line) for line in got.lines) for r in true_rows)
        score.rows_lenient = lenient / len(true_rows)
        if got_rows:
            every = {tuple(r) for t in want.tables for r in t}
            score.row_precision = sum(r in every for r in got_rows) / len(got_rows)
    elif not want.tables:
        score.spurious_table = float(bool(got_rows))
    # The truth's code is what it fences (an indented block may be a quirk of its
    # conversion); the output's is any code block.
    if want.fenced:
        blocks = want.fenced
        score.code = sum(_code_found(c, got.code, False) for c in blocks) / len(blocks)
        score.code_loose = sum(_code_found(c, got.code, True) for c in blocks) / len(blocks)
    if want.list_items:
        score.list_items = _f1(got.list_items, want.list_items)
    return score


def _recall_f1(found: int, wanted: int) -> float:
    """F1 with every output item right: what a recall of found / wanted allows."""
    recall = found / wanted
    return 2 * recall / (1 + recall) if recall else 0.0


def page_ceiling(html: str, truth: str, title: str, outputs: Sequence[str]) -> StructureScore:
    """What the page itself allows: the share of the truth's structure that the page
    holds as such, or that one of ``outputs`` (the systems' Markdown) holds.

    A heading counts when an ``<h1>``-``<h6>`` of the page has its words, a body row
    when a ``<tr>`` has exactly its cells (lenient: its cells in order), a code block
    when a ``<pre>``, ``<code>`` or ``<textarea>`` holds it verbatim (loose: whitespace
    aside), a list item when an ``<li>`` has its words. Headings and list items score
    F1 with every output item right. Where the truth's Markdown is not the page's
    (indentation or a comment's ``#`` dropped from code, a code line read as a
    heading, a numbered heading written as a list item), no extractor that keeps the
    page's own structure can score it: this is the most any can.
    """
    from selectolax.lexbor import LexborHTMLParser

    want = shape(truth)
    got = [shape(markdown) for markdown in outputs]
    tree = LexborHTMLParser(html)
    score = StructureScore()

    def text_of(node: Any) -> str:
        return normalise(node.text(deep=True, separator=" "))

    def texts(selector: str) -> list[str]:
        return [text_of(n) for n in tree.css(selector)]

    title = words(normalise(title))
    true_headings = _headings(want, title)
    if true_headings:
        held = {words(t) for t in texts("h1, h2, h3, h4, h5, h6")}
        held.update(h for g in got for h in _headings(g, title))
        score.headings = _recall_f1(sum(h in held for h in true_headings), len(true_headings))
    true_rows = [tuple(r) for t in want.tables for r in t[1:] if r]
    if true_rows:
        page_rows = [tuple(c for c in map(text_of, tr.css("td, th")) if c) for tr in tree.css("tr")]
        rows = set(page_rows) | {tuple(r) for g in got for t in g.tables for r in t if r}
        score.rows_exact = sum(r in rows for r in true_rows) / len(true_rows)
        lines = [" ".join(r) for r in page_rows] + [line for g in got for line in g.lines]
        lenient = sum(any(_in_order(r, line) for line in lines) for r in true_rows)
        score.rows_lenient = lenient / len(true_rows)
    elif not want.tables:
        score.spurious_table = 0.0
    if want.fenced:
        code = [n.text(deep=True) for n in tree.css("pre, code, textarea")]
        code += [c for g in got for c in g.code]
        blocks = want.fenced
        score.code = sum(_code_found(c, code, False) for c in blocks) / len(blocks)
        score.code_loose = sum(_code_found(c, code, True) for c in blocks) / len(blocks)
    if want.list_items:
        held = {words(t) for t in texts("li")}
        held.update(i for g in got for i in g.list_items)
        found = sum(i in held for i in want.list_items)
        score.list_items = _recall_f1(found, len(want.list_items))
    return score


def summarise(scores: Sequence[StructureScore]) -> dict[str, tuple[float, int]]:
    """Per metric: the mean over the pages it applies to (the spurious-table count as a
    count), and how many pages that is."""
    out: dict[str, tuple[float, int]] = {}
    for name, _ in METRICS:
        values = [v for s in scores if (v := getattr(s, name)) is not None]
        if name == "spurious_table":
            out[name] = (sum(values), len(values))
        else:
            out[name] = (sum(values) / len(values) if values else 0.0, len(values))
    return out


def trafilatura_markdown() -> Callable[[str, str | None], str] | None:
    """trafilatura's Markdown with tables and formatting, or None if not installed."""
    try:
        import trafilatura
    except ImportError:
        return None

    def run(html: str, url: str | None) -> str:
        return (
            trafilatura.extract(
                html,
                url=url,
                output_format="markdown",
                include_tables=True,
                include_formatting=True,
            )
            or ""
        )

    return run


def _cell(name: str, value: float, count: int) -> str:
    if not count:
        return "-"
    return f"{int(value)}" if name == "spurious_table" else f"{value:.3f}"


def format_overall(
    scores: dict[str, Sequence[StructureScore]],
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the overall table: a metric a row (with the number of pages
    it is measured on), a system a column."""
    summaries = {name: summarise(s) for name, s in scores.items()}
    headers = ["metric (pages)", *summaries]
    rows = []
    for name, label in METRICS:
        counts = {summary[name][1] for summary in summaries.values() if summary[name][1]}
        pages = "/".join(str(c) for c in sorted(counts))
        rows.append(
            [f"{label} ({pages})", *(_cell(name, *summary[name]) for summary in summaries.values())]
        )
    return headers, rows


def format_by_type(
    types: Sequence[str], order: Sequence[str], scores: dict[str, Sequence[StructureScore]]
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the per-type table: a page type a row, each metric for each
    system ("unchrome" / "trafilatura") a column."""
    systems = list(scores)
    short = {"headings": "head", "rows_exact": "rows", "rows_lenient": "lenient",
             "row_precision": "row P", "spurious_table": "spurious", "code": "code",
             "code_loose": "code ws", "list_items": "lists"}  # fmt: skip
    headers = ["type"] + [f"{short[n]} {s}" for n, _ in METRICS for s in systems]
    rows = []
    for page_type in [*order, "all"]:
        chosen = [i for i, t in enumerate(types) if page_type in ("all", t)]
        summaries = {s: summarise([scores[s][i] for i in chosen]) for s in systems}
        rows.append(
            [f"{page_type} ({len(chosen)})"]
            + [_cell(n, *summaries[s][n]) for n, _ in METRICS for s in systems]
        )
    return headers, rows
