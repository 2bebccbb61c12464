"""Quality floor: word F1 on the full WCXB dev split must not drop below the floors.

The data lives next to the repository (``../shared/data/wcxb``) and is never copied in;
without it the module is skipped. The run takes about a minute.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# Floors: F1 measured with `python -m benchmarks.bench` on the dev split, minus 0.01
# (measured: all 0.898, article 0.969, documentation 0.941, service 0.870, forum
# 0.833, listing 0.779, collection 0.757, product 0.724). The block model was trained
# on these pages and the news set's: out of fold (tools/train_blockmodel.py cv, domains
# unseen in training) the same pipeline measures all 0.873, and these floors guard the
# shipped pipeline against regressions, not its accuracy on new sites. They moved down
# when the model began to learn from both corpora (before: all 0.901, documentation
# 0.947, service 0.877): in sample it fits WCXB's pages less closely, while out of fold
# WCXB moved from 0.874 to 0.873 and the news set from 0.813 to 0.865.
OVERALL_FLOOR = 0.888
TYPE_FLOORS: dict[str, float] = {
    "article": 0.959,
    "documentation": 0.931,
    "service": 0.860,
    "forum": 0.823,
    "listing": 0.769,
    "collection": 0.747,
    "product": 0.714,
}

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wcxb"

if not (DATA / "dev").is_dir():
    pytest.skip("WCXB data not found next to the repository", allow_module_level=True)

from benchmarks import bench  # noqa: E402


@pytest.fixture(scope="module")
def both() -> tuple[list[bench.Page], dict[str, list[bench.PageResult]]]:
    pages, _skipped = bench.load_pages(DATA, "dev")
    assert pages, "the dev split has no pages"
    systems = [bench.unchrome_system(), bench.unchrome_markdown_system()]
    return pages, bench.run_benchmark(pages, systems, progress=None)


@pytest.fixture(scope="module")
def run(both) -> tuple[list[bench.Page], list[bench.PageResult]]:
    pages, results = both
    return pages, results["unchrome"]


@pytest.fixture(scope="module")
def markdown_run(both) -> tuple[list[bench.Page], list[bench.PageResult]]:
    pages, results = both
    return pages, results["unchrome md"]


def _summary(run, page_type: str | None = None) -> bench.Summary:
    pages, results = run
    chosen = [r for p, r in zip(pages, results, strict=True) if page_type in (None, p.page_type)]
    return bench.summarise("unchrome", chosen)


def test_no_page_crashes(run):
    pages, results = run
    crashed = [(p.file_id, r.crash) for p, r in zip(pages, results, strict=True) if r.crash]
    assert not crashed, crashed[:5]


def test_overall_word_f1_floor(run):
    summary = _summary(run)
    assert summary.f1 >= OVERALL_FLOOR, f"overall F1 {summary.f1:.4f} < {OVERALL_FLOOR}"


@pytest.mark.parametrize("page_type", sorted(TYPE_FLOORS))
def test_per_type_word_f1_floor(run, page_type):
    summary = _summary(run, page_type)
    assert summary.pages > 0, f"no {page_type} pages in the dev split"
    floor = TYPE_FLOORS[page_type]
    assert summary.f1 >= floor, f"{page_type} F1 {summary.f1:.4f} < {floor} ({summary.pages} pages)"


def test_no_real_page_is_refused_as_a_wall_or_a_dead_page(run):
    # A page whose hand-checked content is over 500 characters is a real page: never
    # BLOCKED_BY_SITE or PAGE_NOT_FOUND.
    pages, results = run
    refused = [
        (p.file_id, r.error)
        for p, r in zip(pages, results, strict=True)
        if r.error in ("BLOCKED_BY_SITE", "PAGE_NOT_FOUND") and len(p.truth) > 500
    ]
    assert not refused, refused


def test_every_page_type_has_a_floor(run):
    pages, _ = run
    assert {p.page_type for p in pages} <= set(TYPE_FLOORS)


# Share of pages (of those with boilerplate snippets) whose text shows one of them.
# Measured 0.086 with the same command (trafilatura 2.3.1: 0.169); held at that figure
# plus 0.01. It read 0.080 at the last stop's end, min_paragraph_chars 20: with 0, a
# short line beside kept blocks of its container stays (select.settle_short), which
# lifted word F1 on every group of every suite and lets through short labels the
# hand-checked content leaves out ("Advertisement", "Tags", "Register": 14 more pages of
# 1,480), less the controls that never join (a link back to the top, a link dressed as
# a button, what a site leaves off its printed page: 2 fewer).
WITHOUT_PAGES_CEILING = 0.096


def test_boilerplate_snippets_stay_rare(run):
    summary = _summary(run)
    assert summary.without_pages <= WITHOUT_PAGES_CEILING, (
        f"boilerplate found on {summary.without_pages:.3f} of pages > {WITHOUT_PAGES_CEILING}"
    )


# The Markdown users get (bench.unchrome_markdown_system: links reduced to their text,
# images left out) holds the same floors as the text: one selection renders both.
# Measured: all 0.898, article 0.968, documentation 0.941, service 0.871, forum 0.833,
# listing 0.783, collection 0.761, product 0.730 (text 0.898 with the same command).
@pytest.mark.parametrize("page_type", [None, *sorted(TYPE_FLOORS)])
def test_markdown_word_f1_floor(markdown_run, page_type):
    summary = _summary(markdown_run, page_type)
    floor = OVERALL_FLOOR if page_type is None else TYPE_FLOORS[page_type]
    assert summary.f1 >= floor, f"Markdown {page_type or 'all'} F1 {summary.f1:.4f} < {floor}"


def test_markdown_never_crashes(markdown_run):
    pages, results = markdown_run
    crashed = [(p.file_id, r.crash) for p, r in zip(pages, results, strict=True) if r.crash]
    assert not crashed, crashed[:5]
