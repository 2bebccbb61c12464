"""The metadata stage's cost per page: ``extract_metadata`` on pages parsed once.

Run from the repository root as ``python -m benchmarks.metadata_speed``::

    python -m benchmarks.metadata_speed                      # wcxb, news, classic; best of 3
    python -m benchmarks.metadata_speed --runs 5 --suite news
    python -m benchmarks.metadata_speed --profile            # cProfile of one run, by own time

Every page of each suite is parsed once (outside the timing); then, ``--runs`` times,
each page's ``extract_metadata`` is timed given the lists of the walk before pruning
(``_dom.page_elements``, as the pipeline passes them: "meta"), and with that walk
("walk+meta"). A page's time is its best run: the machine is shared, and the best of a
few runs is the cost without the neighbours' interference. To compare two versions,
alternate their runs. Suites whose data is absent are skipped.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import time
from collections.abc import Callable

from selectolax.lexbor import LexborHTMLParser

from benchmarks.bench import load_suite, resolve_data_dir
from unchrome._native._dom import page_elements
from unchrome.metadata import extract_metadata
from unchrome.pipeline.parse import parse

Found = tuple[list, list, list, list]


def _walk(tree: LexborHTMLParser) -> Found:
    return page_elements(tree.root) if tree.root is not None else ([], [], [], [])


def _best_ms(
    items: list, call: Callable[[LexborHTMLParser, str | None, Found], object], runs: int
) -> list[float]:
    best = [float("inf")] * len(items)
    for _ in range(runs):
        for index, (tree, url, found) in enumerate(items):
            started = time.perf_counter()
            call(tree, url, found)
            best[index] = min(best[index], time.perf_counter() - started)
    return [seconds * 1000 for seconds in best]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", nargs="+", default=["wcxb", "news", "classic"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile one run instead")
    args = parser.parse_args(argv)
    suites: dict[str, list] = {}
    for suite in args.suite:
        try:
            pages, _ = load_suite(suite, resolve_data_dir(None, suite))
        except FileNotFoundError as error:
            print(f"{suite}: skipped ({error})")
            continue
        trees = [(parse(page.read_html()), page.url) for page in pages]
        suites[suite] = [(tree, url, _walk(tree)) for tree, url in trees]
    gc.disable()  # the collector's runs land on whichever page allocates at the time

    def meta(tree: LexborHTMLParser, url: str | None, found: Found) -> object:
        return extract_metadata(tree, url, found[0], found[3])

    def walk_meta(tree: LexborHTMLParser, url: str | None, found: Found) -> object:
        walked = _walk(tree)
        return extract_metadata(tree, url, walked[0], walked[3])

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for items in suites.values():
            for tree, url, found in items:
                meta(tree, url, found)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)
        return
    for suite, items in suites.items():
        alone = _best_ms(items, meta, args.runs)
        walked = _best_ms(items, walk_meta, args.runs)
        print(
            f"{suite:8s} {len(items):5d} pages  meta: median {statistics.median(alone):.3f}"
            f" mean {statistics.mean(alone):.3f} ms  walk+meta: median"
            f" {statistics.median(walked):.3f} mean {statistics.mean(walked):.3f} ms"
        )


if __name__ == "__main__":
    main()
