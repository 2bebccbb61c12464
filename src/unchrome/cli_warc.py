"""``unchrome warc``: extract every HTML record of WARC files into JSON Lines or Parquet.

    unchrome warc CC-MAIN-...warc.gz --out pages.parquet --jobs 8
    unchrome warc crawl/*.warc.gz --out pages.jsonl --format text
    unchrome warc pages/ --out pages.jsonl          # a directory of .html / .html.gz files
    unchrome warc pages/ --url https://example.com/docs/ --out pages.jsonl
    unchrome warc a.warc.gz --out pages.parquet --engine ray --address auto

Every HTML record gives exactly one row, ``status`` ``ok`` or the error code; the other
records (requests, revisits, metadata, non-HTML responses) are counted in the summary.
The exit code is 0 when the run completed, whatever the pages' statuses (they are data);
2 for bad arguments, 3 when an input cannot be read or the output cannot be written, 12
when an extra it needs is not installed: [warc] (FastWARC, tqdm), [parquet] (pyarrow)
for a .parquet output, [ray] for --engine ray.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from unchrome.cli_options import (
    EXIT_CODES,
    add_content_format_option,
    add_content_options,
    add_favor_option,
    content_config,
    exit_code,
)
from unchrome.config import Config
from unchrome.errors import ExtraMissing, InvalidInput, UnchromeError, import_extra
from unchrome.scale.batch import (
    DEADLINE_GRACE,
    OK,
    ExtractionPool,
    Row,
    UnchromeWorker,
)
from unchrome.scale.sink import SINK_FORMATS, open_sink, sink_format
from unchrome.scale.warc import Page, WarcReader, is_url, is_warc_path, read_html_files
from unchrome.urls import is_web_url

EXIT_OK, EXIT_USAGE, EXIT_INPUT = 0, 2, 3
# What ``unchrome warc`` needs beyond the library: the [warc] extra (WARC reading, the
# progress bar).
WARC_MODULES = ("fastwarc", "tqdm")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unchrome warc",
        description=(
            "Extract the HTML records of WARC files (.warc, .warc.gz, .warc.zst), or "
            "directories of .html files (maybe .gz, .zst or .br), on several processes into "
            "JSON Lines or Parquet."
        ),
    )
    p.add_argument("inputs", nargs="+", metavar="FILE", help="WARC files, HTML files, dirs")
    p.add_argument(
        "-o",
        "--out",
        default="-",
        metavar="OUT",
        help="OUT.jsonl (default: standard output), OUT.jsonl.gz or OUT.parquet",
    )
    add_content_format_option(p)
    p.add_argument(
        "--output-format",
        choices=SINK_FORMATS,
        help="jsonl or parquet (default: from the OUT file name)",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: one per core)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=Config().timeout,
        help="seconds per record before it fails with TIMEOUT (default 30)",
    )
    add_favor_option(p)
    add_content_options(p)
    p.add_argument(
        "--max-memory",
        type=int,
        default=2048,
        metavar="MB",
        help="resident memory per worker; past it the worker is replaced (default 2048, 0: none)",
    )
    p.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local: worker processes on this machine (default); ray: Ray Data (extra [ray])",
    )
    p.add_argument("--address", help="Ray cluster address with --engine ray (default: a local Ray)")
    p.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    urls = p.add_mutually_exclusive_group()
    urls.add_argument(
        "--url",
        metavar="BASE",
        help="HTML files and directories: the URL of a FILE, or the URL a DIR stands for "
        "(DIR/a/b.html is BASE/a/b.html); WARC records carry their own",
    )
    urls.add_argument(
        "--url-from-canonical",
        action="store_true",
        help="HTML files and directories: a page's URL is its own canonical link "
        "(<link rel=canonical>, og:url) where it names one",
    )
    return p


def main(argv: Sequence[str]) -> int:
    p = parser()
    opts = p.parse_args(list(argv))
    if opts.jobs < 1:
        p.error("--jobs must be at least 1")
    if opts.max_memory < 0:
        p.error("--max-memory must be 0 (none) or a positive number of MB")
    if opts.address and opts.engine != "ray":
        p.error("--address needs --engine ray")
    try:
        for module in WARC_MODULES:
            import_extra(module, "warc", "the batch run")
        if opts.engine == "ray":
            import_extra("ray.data", "ray", "--engine ray")
    except ExtraMissing as exc:
        print(f"unchrome warc: {exc.code}: {exc}", file=sys.stderr)
        return EXIT_CODES[exc.code]
    try:
        config = Config(timeout=opts.timeout, favor=opts.favor, **content_config(opts))
        out_format = sink_format(opts.out, opts.output_format)
        if out_format == "parquet" and opts.out == "-":
            raise InvalidInput("Parquet cannot be written to standard output: give --out FILE")
    except InvalidInput as exc:
        p.error(str(exc))
    missing = [path for path in opts.inputs if not is_url(path) and not Path(path).exists()]
    if missing:
        print(f"unchrome warc: no such file: {', '.join(missing)}", file=sys.stderr)
        return EXIT_INPUT
    warcs = [path for path in opts.inputs if is_warc_path(path)]
    if (opts.url or opts.url_from_canonical) and warcs:
        p.error("--url and --url-from-canonical apply to HTML files and directories")
    if opts.url and not is_web_url(opts.url):
        p.error(f"--url must be an absolute http(s) URL, got {opts.url!r}")
    if opts.engine == "ray" and len(warcs) != len(opts.inputs):
        p.error("--engine ray reads WARC files only")
    started = time.monotonic()
    try:
        with open_sink(opts.out, out_format) as sink:
            if opts.engine == "ray":
                from unchrome.scale.ray import run_rows

                rows = run_rows(
                    warcs, config=config, fmt=opts.format, address=opts.address, jobs=opts.jobs
                )
                statuses = _drain(rows, sink, show_progress=_progress_wanted(opts))
                # Ray's read tasks run elsewhere and do not report what they skipped.
                skipped: Counter[str] = Counter()
                pool_note = "engine: ray (records skipped by the readers are not counted)"
            else:
                statuses, skipped, pool_note = _run_local(opts, config, sink)
    except UnchromeError as exc:
        print(f"unchrome warc: {exc.code}: {exc}", file=sys.stderr)
        return exit_code(exc)  # 3 for an input or output it cannot use, 12 for an extra
    _summary(statuses, skipped, time.monotonic() - started, pool_note)
    return EXIT_OK


def _progress_wanted(opts: argparse.Namespace) -> bool:
    return not opts.no_progress and sys.stderr.isatty()


def _pages(inputs: Sequence[str], reader: WarcReader, base_url: str | None) -> Iterator[Page]:
    for path in inputs:
        if is_warc_path(path):
            yield from reader.read_file(path)
        else:
            yield from read_html_files(
                [path], base_url=base_url, max_bytes=reader.max_payload_bytes
            )


def _run_local(
    opts: argparse.Namespace, config: Config, sink: Any
) -> tuple[Counter[str], Counter[str], str]:
    reader = WarcReader([], max_payload_bytes=config.max_input_bytes)
    timeout = None if config.timeout is None else config.timeout + DEADLINE_GRACE
    pool = ExtractionPool(
        UnchromeWorker(config, opts.format, opts.url_from_canonical),
        jobs=opts.jobs,
        timeout=timeout,
        memory_limit=opts.max_memory << 20 if opts.max_memory else None,
    )
    with pool:
        statuses = _drain(
            pool.map(_pages(opts.inputs, reader, opts.url)),
            sink,
            show_progress=_progress_wanted(opts),
        )
    s = pool.stats
    note = ""
    if s.replaced:
        note = (
            f"workers replaced: {s.replaced} ({s.timeouts} timeouts, "
            f"{s.memory_kills} over memory, {s.deaths} died)"
        )
    return statuses, reader.skipped, note


def _drain(rows: Iterator[Row], sink: Any, *, show_progress: bool) -> Counter[str]:
    from tqdm import tqdm

    statuses: Counter[str] = Counter()
    with tqdm(unit=" rec", disable=not show_progress, file=sys.stderr) as bar:
        for row in rows:
            sink.write(row)
            statuses[row["status"]] += 1
            bar.update()
            if bar.n % 50 == 0:
                failed = bar.n - statuses[OK]
                bar.set_postfix(ok=statuses[OK], failed=failed, refresh=False)
    return statuses


def _summary(statuses: Counter[str], skipped: Counter[str], seconds: float, note: str) -> None:
    total = sum(statuses.values())
    rate = total / seconds if seconds > 0 else 0.0
    print(
        f"unchrome warc: {total} record{'' if total == 1 else 's'} in {seconds:.1f} s "
        f"({rate:.1f}/s)",
        file=sys.stderr,
    )
    for status, count in sorted(statuses.items(), key=lambda kv: (kv[0] != OK, -kv[1])):
        print(f"  {status:<20} {count}", file=sys.stderr)
    if skipped:
        parts = ", ".join(f"{kind} {count}" for kind, count in sorted(skipped.items()))
        print(f"  skipped: {parts}", file=sys.stderr)
    if note:
        print(f"  {note}", file=sys.stderr)
