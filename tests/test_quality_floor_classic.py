"""Quality floor on the classic hand-labelled corpora (``../shared/data/classic``):
Dragnet, CleanEval, CleanPortalEval and a hand-labelled Chinese set, 1,986 pages from
2004-2013 (and some later Chinese ones), each corpus with its own annotators and
convention.

Word F1 with the set's tokens (each Han or kana character one), per source, for the
text and the Markdown users get, and no real page refused. Skipped without the data;
about 30 seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "classic"

if not (DATA / "index.json").is_file():
    pytest.skip("classic data not found next to the repository", allow_module_level=True)

from benchmarks import bench  # noqa: E402
from floors import floor_misses, text_and_markdown  # noqa: E402

# Floors: F1 measured with `python -m benchmarks.bench --suite classic`, the lower of
# text and Markdown, minus 0.01 (text / Markdown measured: Chinese articles 0.939 /
# 0.938, Chinese forum threads 0.878 / 0.877, CleanEval 0.918 / 0.918, CleanPortalEval
# 0.982 / 0.990, Dragnet 0.929 / 0.932, Chinese pages 0.933 / 0.932, all 0.927 /
# 0.928). The shipped block model never learnt from these pages: these are held-out
# figures, and the floors guard the pipeline's rules on other people's corpora.
GROUP_FLOORS: dict[str, float] = {
    "chinese-hand article": 0.928,
    "chinese-hand forum": 0.867,
    "cleaneval": 0.908,
    "cleanportaleval": 0.972,
    "dragnet": 0.919,
}
CHINESE_FLOOR = 0.922
OVERALL_FLOOR = 0.917

# Pages whose expected text is over 500 characters and that still end in an error,
# each for a reason of its own page, checked by hand: three CleanEval pages whose
# hand-kept text is a site's "page not found" screen (a real deleted page, rightly
# PAGE_NOT_FOUND), and one Dragnet page whose story is in an <iframe> of another
# document: its own HTML holds a redirect script, an ad and no title (EXTRACT_FAILED).
EXPECTED_FAILURES = {
    "cleaneval-0324": "PAGE_NOT_FOUND",
    "cleaneval-0338": "PAGE_NOT_FOUND",
    "cleaneval-0447": "PAGE_NOT_FOUND",
    "dragnet-0322": "EXTRACT_FAILED",
}


@pytest.fixture(scope="module")
def results() -> tuple[list[bench.Page], dict[str, list[bench.PageResult]]]:
    return text_and_markdown(bench.load_classic(DATA))


@pytest.mark.parametrize("system", ["unchrome", "unchrome md"])
def test_classic_word_f1_floors(results, system):
    pages, by_system = results
    misses = floor_misses(pages, by_system[system], GROUP_FLOORS, CHINESE_FLOOR, OVERALL_FLOOR)
    assert not misses, misses


def test_no_classic_page_with_a_story_crashes_or_ends_in_an_error(results):
    pages, by_system = results
    bad = {
        p.file_id: r.crash or r.error
        for p, r in zip(pages, by_system["unchrome"], strict=True)
        if r.crash or (r.error and len(p.truth) > 500)
    }
    assert bad == EXPECTED_FAILURES
