"""Start-up: the command lines' wall time, unchrome's beside trafilatura's.

A shell loop over files, or a pipeline calling the command once per page, pays the
interpreter's start and the imports before any page: ``--version`` measures that cost
alone, one page (the median-sized WCXB dev article, written to a temporary file, its
Markdown to /dev/null, and again as plain text) the cost of one extraction through the
command line. Each command runs ``--runs`` times, alternating the two tools, and the
median wall time is kept.

Both tools run as an installed package runs: from cached bytecode. pip writes the
bytecode of what it installs into site-packages, but an editable install's modules are
compiled on first import and cached only when Python may write bytecode; with
PYTHONDONTWRITEBYTECODE set (some CI images set it), every run compiled unchrome's
modules from source again, about 60 ms of each run. The commands here therefore run
without that variable, and one run of each before timing writes the cache.

    python -m benchmarks.bench_cli [--runs 11]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.bench import format_table, load_pages, resolve_data_dir

# The environment of the timed commands: bytecode may be cached (see above).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(command: Sequence[str], stdin: Path | None = None) -> float:
    started = time.perf_counter()
    with open(stdin or "/dev/null", "rb") as source:
        subprocess.run(
            command,
            stdin=source,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            env=_ENV,
        )
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args(argv)
    bin_dir = Path(sys.executable).parent
    ours = shutil.which("unchrome", path=str(bin_dir)) or shutil.which("unchrome")
    theirs = shutil.which("trafilatura", path=str(bin_dir)) or shutil.which("trafilatura")
    if ours is None:
        print("bench_cli: the unchrome command is not installed", file=sys.stderr)
        return 2
    pages, _ = load_pages(resolve_data_dir(None, "wcxb"), "dev", {"article"}, None)
    pages.sort(key=lambda p: len(p.read_html()))
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        page.write_bytes(pages[len(pages) // 2].read_html())
        cases = {
            "--version": ([ours, "--version"], [theirs, "--version"] if theirs else None, None),
            "one page": ([ours, str(page)], [theirs, "--markdown"] if theirs else None, page),
            # Each tool's plain-text output: neither needs its Markdown writer.
            "one page, text": (
                [ours, "--format", "text", str(page)],
                [theirs] if theirs else None,
                page,
            ),
        }
        rows = []
        for name, (mine, other, stdin) in cases.items():
            times: dict[str, list[float]] = {"unchrome": [], "trafilatura": []}
            # Warm the file cache, and write the bytecode of modules not yet cached.
            _wall(mine, None)
            if other is not None:
                _wall(other, stdin)
            for _ in range(args.runs):
                times["unchrome"].append(_wall(mine))
                if other is not None:
                    # trafilatura reads the page from standard input.
                    times["trafilatura"].append(_wall(other, stdin))
            ms = {k: statistics.median(v) * 1000 for k, v in times.items() if v}
            ratio = f"{ms['unchrome'] / ms['trafilatura']:.2f}" if "trafilatura" in ms else "-"
            rows.append([name, f"{ms['unchrome']:.0f}", f"{ms.get('trafilatura', 0):.0f}", ratio])
    print(f"command line wall time, median of {args.runs} runs, ms")
    print(format_table(["command", "unchrome", "trafilatura", "ratio"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
