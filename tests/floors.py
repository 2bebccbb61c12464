"""What the quality-floor tests of the news, classic and Readability.js sets share: one
run of unchrome's text and Markdown over a set's pages, and word F1 per group, of the
Chinese pages and of all pages, each held to its floor."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks import bench


def text_and_markdown(
    pages: list[bench.Page],
) -> tuple[list[bench.Page], dict[str, list[bench.PageResult]]]:
    """The pages and the results of "unchrome" (text) and "unchrome md" (Markdown)."""
    systems = [bench.unchrome_system(), bench.unchrome_markdown_system()]
    return pages, bench.run_benchmark(pages, systems, progress=None)


def mean_f1(
    pages: list[bench.Page], results: list[bench.PageResult], keep: Callable[[bench.Page], bool]
) -> float:
    chosen = [r for p, r in zip(pages, results, strict=True) if keep(p)]
    assert chosen, "no page in this group"
    return bench.summarise("unchrome", chosen).f1


def floor_misses(
    pages: list[bench.Page],
    results: list[bench.PageResult],
    group_floors: dict[str, float],
    chinese_floor: float,
    overall_floor: float,
) -> list[str]:
    """The groups (page types), the Chinese pages and the whole set whose word F1 is
    under its floor, as messages."""
    assert {p.page_type for p in pages} <= set(group_floors), "a group without a floor"
    measured = {
        group: (mean_f1(pages, results, lambda p, g=group: p.page_type == g), floor)
        for group, floor in group_floors.items()
    }
    measured["Chinese pages"] = (mean_f1(pages, results, lambda p: p.lang == "zh"), chinese_floor)
    measured["all"] = (mean_f1(pages, results, lambda p: True), overall_floor)
    return [f"{name} {f1:.4f} < {floor}" for name, (f1, floor) in measured.items() if f1 < floor]
