"""Config.favor: one selection with the block model's thresholds moved, so that
"precision" keeps a subset of what "balanced" keeps and "recall" a superset."""

from __future__ import annotations

from pathlib import Path

import pytest

import unchrome
from benchmarks import bench
from unchrome import Config
from unchrome.pipeline.extractor import Trace

NEWS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "news"


def kept_blocks(raw: bytes, url: str | None, favor: str) -> set[str] | None:
    """The texts of the blocks the selection kept (a repeated block counts once,
    wherever kept); None when the page's text came from a fallback, not a selection."""
    trace = Trace()
    try:
        unchrome.Extractor(Config(favor=favor)).extract(raw, url=url, trace=trace)  # type: ignore[arg-type]
    except unchrome.UnchromeError:
        return None
    content = trace.content
    if content is None or trace.fallback is not None:
        return None
    return {b.text for b, k in zip(content.seg.blocks, content.keep, strict=True) if k}


@pytest.mark.skipif(not NEWS.is_dir(), reason="news data not found")
def test_precision_keeps_a_subset_and_recall_a_superset_of_balanced():
    pages = bench.load_news(NEWS)[::4]
    fewer = more = 0
    for page in pages:
        raw = page.read_html()
        balanced = kept_blocks(raw, page.url, "balanced")
        precise = kept_blocks(raw, page.url, "precision")
        recalled = kept_blocks(raw, page.url, "recall")
        if balanced is None or precise is None or recalled is None:
            continue
        assert precise <= balanced <= recalled, page.file_id
        fewer += precise < balanced
        more += balanced < recalled
    # The choice changes real pages both ways, not one page in a hundred.
    assert fewer >= len(pages) // 10
    assert more >= len(pages) // 20


def test_every_favor_extracts_the_story_of_a_plain_article():
    story = "".join(
        f"<p>Paragraph {n} of the report says the bridge reopens in spring after repairs "
        "to its deck, and that the ferry keeps running until the works are finished.</p>"
        for n in range(6)
    )
    html = f"<html><body><nav><a href='/'>Home</a></nav><article>{story}</article></body></html>"
    for favor in ("precision", "balanced", "recall"):
        text = unchrome.extract(html, config=Config(favor=favor)).text  # type: ignore[arg-type]
        assert "Paragraph 5 of the report" in text, favor
        assert "Home" not in text, favor
