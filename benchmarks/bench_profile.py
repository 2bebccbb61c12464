"""Profile by stage: where unchrome's time per page goes, on every suite.

The extractor's deadline checks mark the ends of its stages (pipeline.extractor: sniff,
decode, parse, metadata, prune, segment, threads, score, model, container, select,
settle, text, fallbacks, classify); ``Trace.laps`` adds the time between two checks to
the stage the second one names, and the Markdown rendering, made on first use, is timed
apart ("markdown"). Per suite: each stage's share of the total and its mean and median
ms per page, then the median page's total. To see whether a stage grows faster than the
page, the last columns give its ms per MB of HTML on the largest tenth of the pages
beside the smallest tenth: a linear stage reads alike, or lower on large pages (fixed
costs spread), a superlinear one higher.

Run as ``python -m benchmarks.bench --profile [--suite all]``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

# Stages in pipeline order: a stage the pipeline adds later is printed after these.
STAGES = (
    "sniff",
    "decode",
    "parse",
    "metadata",
    "prune",
    "segment",
    "threads",
    "score",
    "model",
    "container",
    "select",
    "settle",
    "text",
    "fallbacks",
    "classify",
    "result",
    "markdown",
)


def profile_pages(pages: Sequence[Any], extractor: Any) -> tuple[list[dict[str, float]], list[int]]:
    """Per page, the seconds of each stage (``extract`` and then ``.markdown``), and the
    page's size in bytes. Failed pages count up to their failure."""
    import unchrome
    from unchrome.pipeline.extractor import Trace

    laps_of_pages: list[dict[str, float]] = []
    sizes: list[int] = []
    for page in pages:
        raw = page.read_html()
        trace = Trace(laps={})
        started = time.perf_counter()
        try:
            result = extractor.extract(
                raw, url=page.url, content_type=page.content_type, trace=trace
            )
        except unchrome.UnchromeError:
            result = None
        laps = trace.laps or {}
        # What the stages' checks do not cover: building the Result after the last one.
        laps["result"] = max(0.0, time.perf_counter() - started - sum(laps.values()))
        if result is not None:
            started = time.perf_counter()
            _ = result.markdown
            laps["markdown"] = time.perf_counter() - started
        laps_of_pages.append(laps)
        sizes.append(len(raw))
    return laps_of_pages, sizes


def format_profile(
    laps_of_pages: Sequence[dict[str, float]], sizes: Sequence[int]
) -> tuple[list[str], list[list[str]]]:
    """The table's headers and rows (see the module's docstring)."""
    seen = {stage for laps in laps_of_pages for stage in laps}
    stages = [s for s in STAGES if s in seen] + sorted(seen - set(STAGES))
    total = sum(sum(laps.values()) for laps in laps_of_pages) or 1.0
    order = sorted(range(len(sizes)), key=sizes.__getitem__)
    tenth = max(1, len(order) // 10)
    small, large = order[:tenth], order[-tenth:]

    def per_mb(stage: str, chosen: list[int]) -> float:
        seconds = sum(laps_of_pages[i].get(stage, 0.0) for i in chosen)
        megabytes = sum(sizes[i] for i in chosen) / 1e6 or 1.0
        return seconds * 1000 / megabytes

    headers = ["stage", "share", "mean ms", "median ms", "ms/MB small", "ms/MB large"]
    rows = []
    for stage in [*stages, "total"]:
        if stage == "total":
            values = [sum(laps.values()) for laps in laps_of_pages]
            small_mb = sum(per_mb(s, small) for s in stages)
            large_mb = sum(per_mb(s, large) for s in stages)
        else:
            values = [laps.get(stage, 0.0) for laps in laps_of_pages]
            small_mb, large_mb = per_mb(stage, small), per_mb(stage, large)
        rows.append(
            [
                stage,
                f"{sum(values) / total:.1%}",
                f"{statistics.fmean(values) * 1000:.3f}",
                f"{statistics.median(values) * 1000:.3f}",
                f"{small_mb:.1f}",
                f"{large_mb:.1f}",
            ]
        )
    return headers, rows


#: The large page: a median page's body repeated up to this size (Config.max_input_bytes).
BIG_PAGE_BYTES = 4 << 20


def big_page(raw: bytes) -> bytes:
    """``raw`` with its <body>'s content repeated until the page is BIG_PAGE_BYTES: a
    real page's shape at the input cap."""
    lowered = raw.lower()
    opened = lowered.find(b"<body")
    start = lowered.find(b">", opened) + 1 if opened >= 0 else 0
    end = lowered.rfind(b"</body>")
    if end < start:
        end = len(raw)
    head, body, tail = raw[:start], raw[start:end], raw[end:]
    copies = max(1, (BIG_PAGE_BYTES - len(head) - len(tail)) // max(1, len(body)))
    return head + body * copies + tail


def profile_big_page(page: Any, extractor: Any, runs: int = 7) -> tuple[int, dict[str, float]]:
    """The big page made from ``page``: its size, and the median seconds of each stage
    (and of the whole, "total") over ``runs`` extractions."""
    from unchrome.pipeline.extractor import Trace

    raw = big_page(page.read_html())
    laps_of_runs: list[dict[str, float]] = []
    for _ in range(runs):
        trace = Trace(laps={})
        started = time.perf_counter()
        result = extractor.extract(raw, url=page.url, content_type=page.content_type, trace=trace)
        laps = trace.laps or {}
        laps["result"] = max(0.0, time.perf_counter() - started - sum(laps.values()))
        started = time.perf_counter()
        _ = result.markdown
        laps["markdown"] = time.perf_counter() - started
        laps["total"] = sum(laps.values()) - laps["markdown"]
        laps_of_runs.append(laps)
    stages = {stage for laps in laps_of_runs for stage in laps}
    return len(raw), {
        stage: statistics.median(laps.get(stage, 0.0) for laps in laps_of_runs) for stage in stages
    }
