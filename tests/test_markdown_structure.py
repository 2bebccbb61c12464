"""The Markdown keeps the page's structure: tables as grids, quotes and repeated cells,
headings as headings, lists with their nesting, code with its lines and language.

Each fixture (tests/fixtures/structure/) is a small page written for one rendering rule.
Where the rule is about rendering and not about which blocks are content, the page is
read whole (``extract_article=False``): the block model's choice is not under test.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import unchrome
from benchmarks import bench, bench_structure
from unchrome import Config
from unchrome.pipeline.segmentation import Block
from unchrome.pipeline.select import drop_repeats

FIXTURES = Path(__file__).parent / "fixtures" / "structure"
URL = "https://docs.example/guide/page"
WHOLE = Config(extract_article=False)


def extract(name: str, url: str = URL, config: Config | None = None) -> unchrome.Result:
    return unchrome.extract((FIXTURES / name).read_bytes(), url=url, config=config)


def table_rows(markdown: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip()[1:-1].split("|")]
        for line in markdown.splitlines()
        if line.strip().startswith("|") and not re.match(r"^\|[\s:|-]+\|$", line.strip())
    ]


def assert_same_words(result: unchrome.Result) -> None:
    text = Counter(bench.tokenize(result.text))
    markdown = Counter(
        bench.tokenize(bench.markdown_words(bench.markdown_body(result.markdown, result.text)))
    )
    assert text == markdown, (text - markdown, markdown - text)


# ------------------------------------------------------------------------ tables


def test_a_table_whose_cells_hold_paragraphs_is_a_table():
    result = extract("block_cells.html")
    rows = table_rows(result.markdown)
    assert rows[0] == ["Call", "Result", "Pure"]
    # A cell's paragraphs joined in the cell, parted by a line break.
    assert rows[1] == ["`abs(-2)`", "2<br>an integer, the distance from zero", "yes"]
    assert rows[3] == ["`print(x)`", "None<br>writes its argument to standard output", "no"]


def test_repeated_cells_and_icon_only_cells_keep_their_row_and_column():
    rows = table_rows(extract("block_cells.html").markdown)
    # The second row repeats the first row's result cell word for word (the repeat
    # filter once deleted it) and its last cell is an icon: it stays, empty, so the
    # row keeps three columns.
    assert rows[2] == ['`len("ab")`', "2<br>an integer, the distance from zero", ""]


def test_block_cell_tables_hold_the_words_of_the_text():
    assert_same_words(extract("block_cells.html", config=Config(min_paragraph_chars=0)))


def test_navigation_and_layout_tables_are_no_tables():
    result = extract("layout_tables.html", config=WHOLE)
    assert not table_rows(result.markdown), result.markdown
    # Their words stay, as text: the cells of a page laid out with a table.
    assert "All queries in the WITH list are computed." in result.markdown
    assert "See also the WITH clause" in result.markdown


def test_a_headed_table_with_a_long_cell_is_still_a_table():
    # A course schedule: a header row of three columns or more, one cell of a reading
    # list longer than a layout column's limit. Without the header row the same long
    # cell says "a column of a page laid out with a table".
    reading = " ".join(
        f"Paper number {i} on mixtures and moments, sections one to three." for i in range(30)
    )
    rows = "".join(
        f"<tr><td><p>Sep {day}</p></td><td><p>Lecture {day}</p></td>"
        f"<td><p>{reading if day == 6 else 'Notes'}</p></td></tr>"
        for day in (6, 8, 13)
    )
    html = (
        "<html><body><article><p>The schedule of the course, with the notes and the papers "
        "for each lecture of the term.</p><table>"
        f"<tr><th>Date</th><th>Topic</th><th>Resources</th></tr>{rows}</table></article></body></html>"
    )
    markdown = unchrome.extract(html, url=URL, config=WHOLE).markdown
    assert ["Sep 8", "Lecture 8", "Notes"] in table_rows(markdown), markdown
    headless = html.replace("<tr><th>Date</th><th>Topic</th><th>Resources</th></tr>", "")
    assert not table_rows(unchrome.extract(headless, url=URL, config=WHOLE).markdown)


# ------------------------------------------------------------------------ repeats


def test_a_forum_reply_quoting_a_post_of_the_page_prints_the_post_once():
    # WCXB's annotators print a quoted post once (keeping both copies cost its forum
    # threads 0.0175 of word F1): the post stays where it was written, in text and
    # Markdown alike, and the reply's own words after the quote stay.
    result = extract("forum_quote.html", url="https://forum.example/threads/winter-tyres.42/")
    assert result.text.count("I have a set of winter tyres on rims") == 1
    assert result.markdown.count("I have a set of winter tyres on rims") == 1
    assert "Mounted tyres are best stacked flat" in result.markdown
    assert_same_words(extract("forum_quote.html", config=Config(min_paragraph_chars=0)))


def test_a_quote_of_a_post_not_on_the_page_stays_a_quote():
    result = extract("forum_quote.html", url="https://forum.example/threads/winter-tyres.42/")
    assert "> Tyre shops store them for a fee over the summer" in result.markdown


def test_a_repeated_widget_goes():
    result = extract("repeats.html")
    assert result.markdown.count("Subscribe to our newsletter") <= 1
    assert result.text.count("Subscribe to our newsletter") <= 1


def block(text: str, path: tuple[int, ...] = (0,)) -> Block:
    return Block("p", text, path[-1], 0, 0, 0, 0, path)


class _Cell:
    """What drop_repeats reads of a cell's node: its text."""

    def __init__(self, chars: int) -> None:
        self.chars = chars

    def text(self, deep: bool = True) -> str:
        return "x" * self.chars


def test_drop_repeats_keeps_a_tables_repeated_cells_and_code_and_drops_other_repeats():
    tags = ["body", "table", "td", "td", "code", "div", "blockquote", "table", "td"]
    nodes = [None, None, _Cell(80), _Cell(80), None, None, None, None, _Cell(5000)]
    cell = "an integer, the distance from zero"
    column = "A sidebar box repeated in a page laid out with a table"
    blocks = [
        block(cell, path=(0, 1, 2)),
        block(cell, path=(0, 1, 3)),  # a cell repeated in its table: stays
        block(cell, path=(0, 5)),  # the same words outside the table: go
        block("print('a line of code repeated')", path=(0, 4)),
        block("print('a line of code repeated')", path=(0, 4)),  # code: stays
        block("Subscribe to our newsletter for weekly tips", path=(0, 5)),
        block("Subscribe to our newsletter for weekly tips", path=(0, 5)),  # goes
        block(column, path=(0, 7, 8)),
        block(column, path=(0, 7, 8)),  # a cell of a page's length: a layout column
    ]
    keep = bytearray(b"\x01" * len(blocks))
    repeats = drop_repeats(blocks, keep, tags, nodes)
    assert [i for i, r in enumerate(repeats) if r] == [2, 6, 8]
    assert all(k != r for k, r in zip(keep, repeats, strict=True))


def test_drop_repeats_prints_a_quoted_post_once_in_the_post():
    tags = ["body", "blockquote"]
    post = "The first post of the thread, quoted in a reply."
    # The post, then a reply quoting it: the quote goes.
    keep = bytearray(b"\x01\x01")
    assert list(drop_repeats([block(post), block(post, path=(0, 1))], keep, tags)) == [0, 1]
    # A quote shown above the post it quotes: the quote goes, not the post.
    keep = bytearray(b"\x01\x01")
    assert list(drop_repeats([block(post, path=(0, 1)), block(post)], keep, tags)) == [1, 0]


# ------------------------------------------------------------------------ headings


def test_headings_stay_headings_without_self_links_or_permalink_signs():
    result = extract("headings.html", config=WHOLE)
    lines = result.markdown.splitlines()
    assert "## Why flexbox?" in lines
    assert "## The two axes" in lines
    assert "## The main axis" in lines
    assert "¶" not in result.markdown
    assert not re.search(r"(?<!!)\[[^\]]*\]\(#", result.markdown), result.markdown


def test_permalink_signs_are_no_words_of_their_heading():
    result = extract("headings.html", config=WHOLE)
    lines = result.markdown.splitlines()
    # Docusaurus' zero-width hash-link and a permalink printing its own fragment.
    assert "## The cross axis" in lines
    assert "### Wrapping lines" in lines
    assert "section5" not in result.markdown
    assert "section5" not in result.text
    # A heading of zero-width spaces alone is no heading.
    assert not [line for line in lines if line.strip("#\u200b ") == "" and line.startswith("#")]


def test_a_heading_inside_bold_or_a_summary_is_a_heading():
    lines = extract("headings.html", config=WHOLE).markdown.splitlines()
    assert "### Alignment in one line" in lines
    assert "#### Deep dive" in lines
    assert "### Grow and shrink" in lines


def test_a_cards_link_around_its_heading_goes_into_the_heading():
    result = extract("headings.html", config=WHOLE)
    lines = result.markdown.splitlines()
    # The card's heading stays a heading, linked; its teaser is a paragraph of its own.
    assert "### [Basic concepts of grid layout](https://docs.example/guide/grid)" in lines
    assert "### [Multi-column layout](https://docs.example/guide/multicol)" in lines
    assert "Grid lays items out in two dimensions, rows and columns at once." in lines
    assert ("https://docs.example/guide/grid", "Basic concepts of grid layout") in [
        (link.url, link.text) for link in result.links
    ]


# ------------------------------------------------------------------------ lists


def test_list_items_that_wrap_divisions_keep_their_nesting():
    markdown = extract("lists.html").markdown
    assert re.search(r"^[-*+] Shelter for the night, packed at the bottom", markdown, re.M)
    assert re.search(r"^\s{2,}[-*+] Tent with poles and stakes$", markdown, re.M), markdown
    assert re.search(r"^\s{2,}[-*+] Pot, spoon and a lighter$", markdown, re.M)


def test_a_list_inside_a_link_is_a_list():
    # A product tile's link around its name and its list of features: the converter
    # wrote one line of link text ("[Ridgeline Two - Sleeps two ... ](…)").
    markdown = extract("lists.html", config=WHOLE).markdown
    assert re.search(r"^[-*+] Sleeps two people with their packs$", markdown, re.M), markdown
    assert re.search(r"^[-*+] Weighs two and a quarter kilograms$", markdown, re.M)


def test_a_see_also_link_list_inside_the_content_is_a_list():
    markdown = extract("lists.html", config=WHOLE).markdown
    assert re.search(
        r"^[-*+] \[Finding and treating water on the trail\]\(https://docs.example/guides/water\)$",
        markdown,
        re.M,
    ), markdown


# ------------------------------------------------------------------------ code


def test_code_of_line_per_element_highlighters_keeps_its_lines_and_language():
    result = extract("code.html")
    assert "```bash\ncd my-website\nnpx docusaurus start\n```" in result.markdown
    assert "cd my-website\nnpx docusaurus start" in result.text


def test_code_keeps_its_indentation_blank_lines_and_line_breaks():
    result = extract("code.html")
    config = "module.exports = {\n  title: 'My Site',\n\n  url: 'https://example.com',\n};"
    assert f"```js\n{config}\n```" in result.markdown
    assert config in result.text
    assert "```\nnpm install\nnpm run build\n```" in result.markdown


def test_markup_shown_as_text_stays_text_in_the_markdown():
    html = (
        '<html><body><article><p>To link a page, write &lt;a href="/x"&gt;the page&lt;/a&gt; '
        "in the source of the document, as the next example shows.</p>"
        '<pre><code>&lt;a href="/x"&gt;x&lt;/a&gt;</code></pre></article></body></html>'
    )
    markdown = unchrome.extract(html, url=URL).markdown
    assert '\\<a href="/x">the page\\</a>' in markdown
    assert '```\n<a href="/x">x</a>\n```' in markdown


def test_code_in_a_list_item_keeps_its_less_than_signs():
    # The converter opens a list item's code block on the marker's line ("2. ```cs"):
    # its "<" stays as it is, where the text's "<" outside code is escaped.
    html = (
        "<html><body><article><p>Install the tools, then write the function, in this "
        "order, as the steps below say, one after the other.</p><ol>"
        "<li><p>Install the tools.</p></li><li><pre><code class='language-cs'>"
        "Task&lt;IActionResult&gt; Run()</code></pre></li></ol>"
        "<p>The function returns a Task&lt;IActionResult&gt; that the host awaits.</p>"
        "</article></body></html>"
    )
    markdown = unchrome.extract(html, url=URL).markdown
    assert "```cs\n   Task<IActionResult> Run()\n" in markdown, markdown
    assert "Task\\<IActionResult> that the host awaits" in markdown


def test_a_less_than_sign_in_a_pictures_url_stays_a_less_than_sign():
    # A data: URL is no longer kept at all (test_pipeline's file, data and script URLs):
    # an image service that takes its shape in the query stands in for it.
    html = (
        "<html><body><article><p>Write &lt;svg&gt; inline, as the picture below does, for "
        "a picture that scales with the text around it.</p><img alt='a square' "
        "src=\"https://img.example/render?shape=&lt;svg xmlns='http://www.w3.org/2000/svg'/&gt;\">"
        "</article></body></html>"
    )
    markdown = unchrome.extract(html, url=URL).markdown
    assert "(https://img.example/render?shape=%3Csvg%20xmlns=" in markdown, markdown
    assert "\\<svg>" in markdown


# ------------------------------------------------------------------------ the benchmark


def test_structure_metrics_read_headings_tables_code_and_lists():
    truth = (
        "# Title\n\n## Setup\n\n| a | b |\n|---|---|\n| 1 | [two](x) |\n\n"
        "```sh\npip install x\n```\n\n- one\n- two\n"
    )
    good = (
        "# Title\n\n## Setup\n\n| a | b |\n| --- | --- |\n| 1 | two |\n\n"
        "```\npip install x\n```\n\n* one\n* two\n"
    )
    score = bench_structure.score_structure(good, truth, "Title")
    assert (score.headings, score.rows_exact, score.rows_lenient) == (1.0, 1.0, 1.0)
    assert (score.code, score.code_loose, score.list_items) == (1.0, 1.0, 1.0)
    flat = "Setup\n\n1 two\n\npip  install x\n\none two\n"
    score = bench_structure.score_structure(flat, truth, "Title")
    assert (score.headings, score.rows_exact, score.rows_lenient) == (0.0, 0.0, 1.0)
    assert (score.code, score.code_loose, score.list_items) == (0.0, 0.0, 0.0)
    assert bench_structure.score_structure(good, "plain text", "").spurious_table == 1.0


def test_the_page_ceiling_counts_what_the_page_holds_and_not_what_the_truth_retyped():
    page = (
        "<h2>Setup</h2><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>two</td></tr>"
        "</table><pre>def f():\n    return 1\n</pre><ul><li>one</li><li>two</li></ul>"
    )
    # The truth keeps the page's heading, row and first item, drops the code's
    # indentation (as WCXB's converter often does), and adds a heading and an item
    # the page has only as text.
    truth = (
        "## Setup\n\n## Notes\n\n| a | b |\n|---|---|\n| 1 | two |\n\n"
        "```\ndef f():\nreturn 1\n```\n\n- one\n- three\n"
    )
    ceiling = bench_structure.page_ceiling(page, truth, "", outputs=[])
    assert ceiling.rows_exact == 1.0 and ceiling.rows_lenient == 1.0
    assert (ceiling.code, ceiling.code_loose) == (0.0, 1.0)
    assert ceiling.headings == ceiling.list_items == pytest.approx(2 / 3)  # recall 1/2
    # What an output holds counts too: the ceiling is never below a system's score.
    output = "## Notes\n\n- three\n"
    ceiling = bench_structure.page_ceiling(page, truth, "", outputs=[output])
    assert ceiling.headings == ceiling.list_items == 1.0
    assert bench_structure.page_ceiling(page, "plain text", "", []).spurious_table == 0.0


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.html")))
def test_structure_fixtures_hold_the_same_words_in_text_and_markdown(name):
    url = "https://forum.example/threads/a.1/" if name.startswith("forum") else URL
    assert_same_words(extract(name, url=url, config=Config(min_paragraph_chars=0)))
