"""The worst case: what one page can cost, and whether ``Config.timeout`` holds.

    python tools/bench_worst_case.py                     # every shape, 1k ... 64k repetitions
    python tools/bench_worst_case.py --shapes card,row --max 16000
    python tools/bench_worst_case.py --suites            # every page of the suites, timed
    python tools/bench_worst_case.py --deadline 0.25     # how far past a deadline it stops

**Shapes.** A page made of one small element repeated 1,000 ... 64,000 times (the
widget cards of the report that found a quadratic stage, table rows, list items,
headings, comment threads, inline runs, deep nesting...), each repetition's text
numbered so that no two blocks are equal. For each page: its size, the time of
``extract`` (parse to text), of the Markdown rendered after it, and the growth over the
previous size (a doubling of the page should double the time: ``x2.0``; a quadratic
stage shows ``x4``). Pages past ``Config.max_input_bytes`` are cut there as always
(``truncated``), so the largest sizes of the wide shapes stop growing.

**Gap.** The longest stretch of one extraction between two looks at its deadline: the
most a page can run past ``Config.timeout`` (the processing deadline is checked
between stages and inside the long loops; see ``extractor._Deadline``).

**Deadline.** With ``--deadline S``, each page runs with ``Config(timeout=S)`` and the
table says when it stopped: TIMEOUT at S plus at most one gap.

**Suites.** With ``--suites``, every page of the benchmark suites (read in place from
``../shared/data``) runs under the default deadline: the slowest pages, the longest
gap, and how many pages passed the deadline (none should).

This is a benchmark, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from unchrome import Config, Extractor, UnchromeError
from unchrome.pipeline import extractor as extractor_module

SIZES = (1000, 2000, 4000, 8000, 16000, 32000, 64000)


def _card(i: int) -> str:
    return f"<article><p>short widget text {i}</p></article>"


def _para(i: int) -> str:
    return f"<p>Sentence {i} of the story, which is long enough to be a paragraph.</p>"


def _item(i: int) -> str:
    return f'<li><a href="/item/{i}">item {i}</a></li>'


def _row(i: int) -> str:
    return f"<tr><td>{i}</td><td>cell text</td></tr>"


def _nested(i: int) -> str:
    return f"<div><div><span>deep {i} <b>bold</b></span></div></div>"


def _alternate(i: int) -> str:
    return f"<p>ok {i}</p><p>A paragraph {i} long enough to be seen by the selection.</p>"


def _comment(i: int) -> str:
    return f'<div class="comment"><p>Comment {i}: a reply that is long enough to read.</p></div>'


def _section(i: int) -> str:
    return f"<section><h2>Heading {i}</h2><p>Body of section {i}, a few words long.</p></section>"


def _inline(i: int) -> str:
    return f"<b>w{i}</b> "


def _deep(i: int) -> str:
    return f"<div>level {i} "  # never closed: one element inside the other


def _image(i: int) -> str:
    return f'<img src="/img/{i}.png" alt="picture {i}">'


def _line(i: int) -> str:
    return f"line {i}<br>"


@dataclass(frozen=True)
class Shape:
    name: str
    unit: Callable[[int], str]
    open: str = ""
    close: str = ""


SHAPES: tuple[Shape, ...] = (
    Shape("card", _card),
    Shape("para", _para),
    Shape("item", _item, "<ul>", "</ul>"),
    Shape("row", _row, "<table>", "</table>"),
    Shape("nested", _nested),
    Shape("alternate", _alternate),
    Shape("comment", _comment),
    Shape("section", _section),
    Shape("inline", _inline, "<p>", "</p>"),
    Shape("deep", _deep),
    Shape("image", _image),
    Shape("line", _line),
)


def page(shape: Shape, n: int) -> str:
    body = "".join(shape.unit(i) for i in range(n))
    return (
        "<!doctype html><html><head><title>A page of repeated elements</title></head>"
        f"<body>{shape.open}{body}{shape.close}</body></html>"
    )


class GapWatch:
    """Records when each extraction looks at its deadline (wraps _Deadline.check)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._original = extractor_module._Deadline.check

    def __enter__(self) -> GapWatch:
        watch, original = self, self._original

        def check(deadline: extractor_module._Deadline, stage: str) -> None:
            watch.times.append(time.perf_counter())
            original(deadline, stage)

        extractor_module._Deadline.check = check  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        extractor_module._Deadline.check = self._original  # type: ignore[method-assign]

    def longest(self, started: float, ended: float) -> float:
        marks = [started, *self.times, ended]
        self.times.clear()
        return max(b - a for a, b in itertools.pairwise(marks))


@dataclass
class Timing:
    outcome: str
    extract: float
    markdown: float
    gap: float


def run(extractor: Extractor, html: str | bytes, watch: GapWatch, **kwargs: object) -> Timing:
    watch.times.clear()
    started = time.perf_counter()
    try:
        result = extractor.extract(html, **kwargs)  # type: ignore[arg-type]
    except UnchromeError as exc:
        ended = time.perf_counter()
        return Timing(exc.code, ended - started, 0.0, watch.longest(started, ended))
    ended = time.perf_counter()
    gap = watch.longest(started, ended)
    result.markdown  # noqa: B018 - rendered on first access: timed here
    return Timing("ok", ended - started, time.perf_counter() - ended, gap)


def shapes_table(shapes: list[Shape], sizes: list[int], timeout: float | None) -> None:
    extractor = Extractor(Config(timeout=timeout))
    extractor.extract("<p>warm up: the block model loads once</p>" * 10)
    print(
        f"{'shape':<10} {'n':>6} {'bytes':>9} {'outcome':<8} {'extract ms':>10} "
        f"{'growth':>6} {'markdown ms':>11} {'gap ms':>7}"
    )
    with GapWatch() as watch:
        for shape in shapes:
            previous = None
            for n in sizes:
                html = page(shape, n)
                timing = run(extractor, html, watch)
                growth = f"x{timing.extract / previous:.1f}" if previous else ""
                previous = timing.extract
                print(
                    f"{shape.name:<10} {n:>6} {len(html.encode()):>9} {timing.outcome:<8} "
                    f"{timing.extract * 1000:>10.1f} {growth:>6} "
                    f"{timing.markdown * 1000:>11.1f} {timing.gap * 1000:>7.1f}",
                    flush=True,
                )


def suites_table(top: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: benchmarks/
    from benchmarks.bench import SUITES, load_suite, resolve_data_dir

    extractor = Extractor()
    timeout = extractor.config.timeout
    rows: list[tuple[float, float, float, str, str]] = []
    with GapWatch() as watch:
        for suite in SUITES:
            try:
                pages, _ = load_suite(suite, resolve_data_dir(None, suite))
            except (FileNotFoundError, OSError) as exc:
                print(f"{suite}: no data ({exc})", file=sys.stderr)
                continue
            for bench_page in pages:
                raw = bench_page.read_html()
                timing = run(
                    extractor, raw, watch, url=bench_page.url, content_type=bench_page.content_type
                )
                rows.append(
                    (
                        timing.extract + timing.markdown,
                        timing.extract,
                        timing.gap,
                        f"{suite}/{bench_page.file_id}",
                        timing.outcome,
                    )
                )
    if not rows:
        return
    totals = [r[0] for r in rows]
    over = sum(r[1] > (timeout or float("inf")) for r in rows)
    print(
        f"{len(rows)} pages under the default deadline ({timeout:g} s): {over} past it; "
        f"extract + Markdown p50 {statistics.median(totals) * 1000:.1f} ms, "
        f"max {max(totals) * 1000:.1f} ms; longest gap {max(r[2] for r in rows) * 1000:.1f} ms"
    )
    print(f"{'page':<40} {'outcome':<16} {'total ms':>9} {'extract ms':>10} {'gap ms':>7}")
    for total, extract, gap, name, outcome in sorted(rows, reverse=True)[:top]:
        print(
            f"{name:<40} {outcome:<16} {total * 1000:>9.1f} {extract * 1000:>10.1f} "
            f"{gap * 1000:>7.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shapes", help=f"comma-separated, of: {', '.join(s.name for s in SHAPES)}")
    p.add_argument("--max", type=int, default=SIZES[-1], help="largest repetition count")
    p.add_argument("--deadline", type=float, help="Config.timeout for the shapes (default 30)")
    p.add_argument("--suites", action="store_true", help="time every page of the suites")
    p.add_argument("--top", type=int, default=10, help="slowest suite pages listed")
    opts = p.parse_args(argv)
    if opts.suites:
        suites_table(opts.top)
        return 0
    wanted = set(opts.shapes.split(",")) if opts.shapes else None
    shapes = [s for s in SHAPES if wanted is None or s.name in wanted]
    if wanted and len(shapes) != len(wanted):
        p.error(f"unknown shape in {opts.shapes!r}")
    sizes = [n for n in SIZES if n <= opts.max]
    shapes_table(shapes, sizes, opts.deadline if opts.deadline else Config().timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
