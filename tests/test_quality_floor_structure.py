"""Structure floor: the Markdown's headings, table rows, code blocks and list items
against WCXB dev's hand-made Markdown (``python -m benchmarks.bench --structure``) must not
fall below the floors, and must stay ahead of trafilatura's where they were measured
ahead.

The data lives next to the repository (``../shared/data/wcxb``) and is never copied in;
without it the module is skipped. The run takes about a minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wcxb"

if not (DATA / "dev").is_dir():
    pytest.skip("WCXB data not found next to the repository", allow_module_level=True)
pytest.importorskip("markdown_it", reason="the structure benchmark needs markdown-it-py")

import unchrome  # noqa: E402
from benchmarks import bench, bench_structure  # noqa: E402

# Measured with `python -m benchmarks.bench --structure` (see docs/benchmark.md's structure
# table), minus 0.01; trafilatura 2.3.1's figures in the same run in the comments.
FLOORS: dict[str, float] = {
    "headings": 0.769,  # measured 0.779 (trafilatura 0.588)
    "rows_exact": 0.767,  # 0.777 (0.426)
    "rows_lenient": 0.806,  # 0.816 (0.781)
    "code": 0.663,  # 0.673 (0.357)
    "code_loose": 0.803,  # 0.813 (0.525)
    "list_items": 0.674,  # 0.684 (0.534)
}
# Pages whose Markdown draws a table where the hand-made Markdown has none: measured 46
# (40 before tables of block cells were drawn; trafilatura 23). Most are real data
# tables the annotators left out of the content; a layout table taken for data shows
# here.
SPURIOUS_TABLES_CEILING = 50


@pytest.fixture(scope="module")
def scores() -> list[bench_structure.StructureScore]:
    pages, _ = bench.load_pages(DATA, "dev")
    pages = [p for p in pages if p.truth_markdown is not None]
    assert pages, "the dev split has no Markdown truth"
    extractor = unchrome.Extractor()
    out = []
    for page in pages:
        try:
            markdown = extractor.extract(page.read_html(), url=page.url).markdown
        except unchrome.UnchromeError:
            markdown = ""
        title = page.metadata.get("title", "")
        out.append(bench_structure.score_structure(markdown, page.truth_markdown or "", title))
    return out


@pytest.mark.parametrize("metric", sorted(FLOORS))
def test_structure_metric_floor(scores, metric):
    value, pages = bench_structure.summarise(scores)[metric]
    assert pages > 0
    assert value >= FLOORS[metric], f"{metric} {value:.4f} < {FLOORS[metric]} ({pages} pages)"


def test_few_pages_draw_a_table_the_content_lacks(scores):
    count, _ = bench_structure.summarise(scores)["spurious_table"]
    assert count <= SPURIOUS_TABLES_CEILING
