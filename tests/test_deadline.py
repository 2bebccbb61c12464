"""No page stalls an extraction: the cost grows with the page, and Config.timeout holds.

A page of 50,000 one-line widget cards once took minutes (each short paragraph looked
for its neighbours by walking over all the others), and Config(timeout=1.0) stopped
the 16,000-card page only after 10 s: the deadline was looked at between the stages,
never inside one. tools/bench_worst_case.py measures the growth on many shapes.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

import unchrome
from unchrome import Config, ExtractTimeout

TITLE = "<!doctype html><html><head><title>Widgets</title></head><body>"


def cards(n: int) -> str:
    """The report's page: ``n`` cards of one short paragraph each."""
    return TITLE + "<article><p>short widget text</p></article>" * n + "</body></html>"


def rows(n: int) -> str:
    """A data table of ``n`` rows: read row by row inside one step of the walk."""
    body = "".join(f"<tr><td>{i}</td><td>cell text</td></tr>" for i in range(n))
    return TITLE + f"<table>{body}</table></body></html>"


_FIFTY_THOUSAND = """
import sys, time, unchrome
html = sys.stdin.read()
started = time.perf_counter()
result = unchrome.extract(html)
print(time.perf_counter() - started, result.title)
"""
# Linear, the 2 MB page takes about 0.5 s (the interpreter's start and the imports
# another second); quadratic, it took minutes.
BUDGET_SECONDS = 15.0


def test_a_page_of_50k_short_cards_finishes_with_the_default_deadline():
    # A subprocess, so that a regression costs the budget and cannot wedge the suite.
    html = cards(50_000)
    assert len(html) > 2_000_000
    done = subprocess.run(
        [sys.executable, "-c", _FIFTY_THOUSAND],
        input=html,
        timeout=BUDGET_SECONDS,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seconds, title = done.stdout.split(maxsplit=1)
    assert title.strip() == "Widgets"
    assert float(seconds) < 5.0


def test_the_16k_card_page_finishes_well_inside_a_one_second_deadline():
    started = time.perf_counter()
    result = unchrome.extract(cards(16_000), config=Config(timeout=1.0))
    assert result.title == "Widgets"
    assert time.perf_counter() - started < 1.0


# How far past its timeout an extraction may end: one stretch between two looks at
# the deadline (about 10-70 ms on these pages, under load) plus the parse, which
# cannot be interrupted (about 0.1 s for these pages). Without the looks inside the
# walk, these pages ended 0.5-1 s past the deadline.
OVERSHOOT_SECONDS = 0.3


@pytest.mark.parametrize(("page", "n"), [(cards, 85_000), (rows, 64_000)])
def test_a_short_deadline_stops_a_big_page_inside_the_long_stages(page, n):
    html = page(n)
    assert len(html) < Config().max_input_bytes  # the whole page, not a truncated one
    timeout = 0.1
    started = time.perf_counter()
    with pytest.raises(ExtractTimeout) as info:
        unchrome.extract(html, config=Config(timeout=timeout))
    elapsed = time.perf_counter() - started
    assert info.value.code == "TIMEOUT"
    assert elapsed < timeout + OVERSHOOT_SECONDS, f"stopped {elapsed - timeout:.2f} s late"
