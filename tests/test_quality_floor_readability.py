"""Agreement floor on Readability.js's 130 test pages (``../shared/data/readability``):
word F1 of unchrome's text and Markdown against the text of Readability.js's own
output (``expected.html``). It measures agreement with another extractor, not truth,
over the odd corners of real markup those pages exercise; no block model learns from
them. Skipped without the data; a few seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "readability"

if not (DATA / "test-pages").is_dir():
    pytest.skip(
        "Readability.js's test pages not found next to the repository", allow_module_level=True
    )

from benchmarks import bench  # noqa: E402
from floors import text_and_markdown  # noqa: E402

# Measured with `python -m benchmarks.bench --suite readability`, the lower of text and
# Markdown, minus 0.01 (text 0.909, Markdown 0.906; trafilatura 2.3.1 0.928,
# readability-lxml 0.968: both are ports or kin of Readability's own rules).
AGREEMENT_FLOOR = 0.896


@pytest.fixture(scope="module")
def results() -> tuple[list[bench.Page], dict[str, list[bench.PageResult]]]:
    return text_and_markdown(bench.load_readability(DATA))


@pytest.mark.parametrize("system", ["unchrome", "unchrome md"])
def test_agreement_with_readability_js(results, system):
    _, by_system = results
    agreement = bench.summarise(system, by_system[system]).f1
    assert agreement >= AGREEMENT_FLOOR, f"{system} {agreement:.4f} < {AGREEMENT_FLOOR}"


def test_no_readability_page_crashes_or_is_refused(results):
    pages, by_system = results
    run = by_system["unchrome"]
    bad = [
        (p.file_id, r.crash or r.error)
        for p, r in zip(pages, run, strict=True)
        if r.crash or r.error
    ]
    assert not bad, bad
