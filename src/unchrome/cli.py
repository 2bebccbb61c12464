"""The command line: ``unchrome URL|FILE|- ...`` and ``unchrome serve``.

    unchrome https://example.com/story            # Markdown on stdout
    unchrome page.html --format json              # a local file, offline
    unchrome page.html.gz --url https://example.com/story --with-metadata
    curl -s https://example.com | unchrome - --url https://example.com/
    unchrome urls.txt --out pages/                # many inputs, concurrently
    unchrome http://10.0.0.5:8080/ --allow-address 10.0.0.0/8 --allow-port 8080
    unchrome story.html --no-tables --no-links    # trafilatura's switches
    unchrome serve --host 127.0.0.1 --port 8000   # the HTTP service
    unchrome warc crawl.warc.gz --out pages.parquet   # WARC files, on every core

A file (or standard input) may be compressed with gzip, zstd or brotli (``.br``).
``--url`` gives the URL of a file or of standard input, as ``url=`` does in the
library: links are made absolute against it, and the selection reads it. A ``.txt``
file that is not markup and names at least one http(s) URL is a list of inputs, one a
line (blank lines and ``#`` comments skipped); a line that is no URL is that line's
error. Several inputs run concurrently, with a progress bar when stderr is a terminal;
as JSON they are JSON Lines, each row naming its input (``source``). A WARC file is
refused, naming ``unchrome warc``; a URL of another scheme than http(s) is INVALID_URL.

The fetch settings of the environment (``UNCHROME_ALLOW_ADDRESSES``,
``UNCHROME_ALLOW_PORTS``, ``UNCHROME_FETCH_DEADLINE``: FetchConfig.from_env, which the
service reads too) apply, the flags adding to them; ``UNCHROME_RENDER`` sets the
default of ``--render``.

Exit codes (the first failed input, in input order, decides):

    ====  ============================================
    0     success
    1     any other error
    2     usage error (bad arguments)
    3     INVALID_INPUT, INVALID_URL, FILE_ACCESS
    4     FORBIDDEN_ADDRESS
    5     BLOCKED_BY_SITE
    6     PAGE_NOT_FOUND
    7     UNSUPPORTED_CONTENT (a WARC file among them)
    8     EXTRACT_FAILED
    9     UPSTREAM_ERROR
    10    UPSTREAM_TIMEOUT, TIMEOUT
    11    RENDER_UNAVAILABLE (--render always without a browser)
    12    EXTRA_MISSING (``serve`` or ``warc`` without its extra, a .zst or .br page
          without the [warc] extra, Parquet output without [parquet])
    ====  ============================================
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import unchrome
from unchrome.cli_options import (
    EXIT_CODES,
    EXIT_OK,
    EXIT_USAGE,
    add_content_options,
    add_favor_option,
    add_fetch_options,
    content_config,
    exit_code,
    fetch_config_of,
)
from unchrome.config import RENDER_MODES, Config
from unchrome.errors import (
    ExtraMissing,
    FileAccessError,
    InvalidInput,
    InvalidURL,
    UnchromeError,
    import_extra,
)
from unchrome.inputs import has_scheme, is_url, read_page, read_page_file, url_list
from unchrome.net.fetch_config import (
    FetchConfig,
)
from unchrome.result import Result
from unchrome.urls import is_web_url

FORMATS = ("markdown", "text", "json", "html")
# The formats --with-metadata opens with a YAML front matter (JSON has the fields).
FRONT_MATTER_FORMATS = ("markdown", "text")
_SUFFIX = {"markdown": ".md", "text": ".txt", "json": ".json", "html": ".html"}


@dataclass(frozen=True)
class Source:
    """One input: a URL, a local file, standard input (``-``), or a line of a URL list
    that is no URL (``bad_line``: ``origin`` names the list and the line)."""

    kind: str  # "url" | "file" | "stdin" | "bad_line"
    value: str
    origin: str | None = None  # "urls.txt:3" for the entries of a URL list

    @property
    def label(self) -> str:
        if self.kind == "stdin":
            return "<stdin>"
        return self.origin if self.kind == "bad_line" and self.origin else self.value


def expand(inputs: Sequence[str]) -> list[Source]:
    """Arguments -> sources; URL-list files are replaced by their entries."""
    sources: list[Source] = []
    for item in inputs:
        if item == "-":
            sources.append(Source("stdin", "-"))
        elif is_url(item) or (has_scheme(item) and not Path(item).exists()):
            # ftp://..., file://...: a URL all the same, refused by the fetch as
            # INVALID_URL naming the schemes it reads, rather than "no such file".
            sources.append(Source("url", item))
        else:
            entries = url_list(Path(item))
            if entries is None:
                sources.append(Source("file", item))
                continue
            for number, entry in entries:
                kind = "url" if is_url(entry) else "bad_line"
                sources.append(Source(kind, entry, f"{item}:{number}"))
    return sources


def process(
    source: Source, config: Config, fetch_config: FetchConfig, url: str | None = None
) -> Result:
    """One source's Result; ``url`` is the URL of a file or of standard input."""
    from unchrome.pipeline.extractor import extract

    if source.kind == "url":
        from unchrome.net.remote import read  # the HTTP client only for a URL

        return read(source.value, config=config, fetch_config=fetch_config)
    if source.kind == "bad_line":
        raise InvalidURL(f"{source.value!r} is not an http(s) URL")
    if source.kind == "stdin":
        data = read_page(sys.stdin.buffer, "<stdin>", config.max_input_bytes)
    else:
        data = read_page_file(source.value, config.max_input_bytes)
    result = extract(data, url=url, config=config)
    result.source = source.value  # the file, or "-": what names the input in JSON
    return result


def render(result: Result, fmt: str, *, compact: bool = False, with_metadata: bool = False) -> str:
    if fmt == "json":
        return result.to_json(indent=None if compact else 2) + "\n"
    # The document: text and HTML opened by the headline the Markdown opens with.
    if fmt == "markdown":
        content = result.to_markdown(with_metadata=with_metadata)
    elif fmt == "text":
        content = result.to_text(with_metadata=with_metadata, headline=True)
    else:
        content = result.to_html(headline=True)
    return content if content.endswith("\n") else content + "\n"


# --------------------------------------------------------------------------- output


def _write(stream: TextIO, text: str) -> None:
    # Bytes, UTF-8 always: a pipe under the C locale must not turn "é" into a crash.
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    else:
        stream.write(text)
        stream.flush()


def _slug(source: Source) -> str:
    text = (
        re.sub(r"^https?://", "", source.value, flags=re.I)
        if source.kind == "url"
        else (Path(source.value).stem)
    )
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._")[:100]
    return slug or "page"


class OutDir:
    """Files named after their source; never overwrites within one run."""

    def __init__(self, root: Path, fmt: str) -> None:
        self.root = root
        self.suffix = _SUFFIX[fmt]
        self.used: set[str] = set()
        self.lock = threading.Lock()

    def path_for(self, source: Source) -> Path:
        base = _slug(source)
        with self.lock:
            name, n = base, 1
            while name in self.used:
                n += 1
                name = f"{base}-{n}"
            self.used.add(name)
        return self.root / (name + self.suffix)


class Progress:
    """A one-line bar on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.done = self.failed = 0
        self.lock = threading.Lock()

    def step(self, ok: bool) -> None:
        with self.lock:
            self.done += 1
            self.failed += 0 if ok else 1
            if self.enabled:
                width = 30
                filled = width * self.done // max(self.total, 1)
                bar = "#" * filled + "-" * (width - filled)
                self.stream.write(f"\r[{bar}] {self.done}/{self.total}  failed {self.failed}")
                self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


# ----------------------------------------------------------------------------- main


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="unchrome",
        description="Turn web pages into their main content (Markdown, text, JSON, HTML).",
        epilog=(
            "Run 'unchrome serve --help' for the HTTP service, "
            "'unchrome warc --help' for WARC files."
        ),
    )
    p.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="URL|FILE|-",
        help="http(s) URL, local HTML/feed file (may be .gz, .zst or .br), '-' for stdin, "
        "or a .txt URL list",
    )
    p.add_argument("-f", "--format", choices=FORMATS, default="markdown")
    p.add_argument(
        "--url",
        metavar="URL",
        help="the URL of the one FILE or '-' (links made absolute against it, as url= in "
        "the library)",
    )
    p.add_argument(
        "--with-metadata",
        action="store_true",
        help="open the Markdown or text with a YAML front matter (title, author, date, "
        "date_modified, url, site_name, language, image)",
    )
    p.add_argument(
        "-o",
        "--out",
        type=Path,
        metavar="DIR",
        help="write one file per input into DIR instead of stdout",
    )
    p.add_argument("-j", "--jobs", type=int, default=8, help="concurrent inputs (default 8)")
    p.add_argument("--target-selector", metavar="CSS", help="take the content from here")
    p.add_argument("--remove-selector", metavar="CSS", help="drop these elements")
    add_favor_option(p)
    add_content_options(p)
    add_fetch_options(p)
    p.add_argument(
        "--render",
        choices=RENDER_MODES,
        default=_default_render(),
        help="load URLs in a headless browser first: auto (only pages built by their "
        "scripts whose static extraction is thin; the default with the [render] extra), "
        "always, or never (the default without it); UNCHROME_RENDER sets the default",
    )
    p.add_argument("--no-progress", action="store_true", help="never draw the progress bar")
    return p


def _default_render() -> str:
    # The environment's, as for the service (a bad value is refused by Config in _run).
    chosen = os.environ.get("UNCHROME_RENDER", "").strip().lower()
    if chosen:
        return chosen
    from unchrome.net.chromium import available

    return "auto" if available() else "never"


class _Version(argparse.Action):
    """``--version``: the package's own ``__version__`` (the distribution's version is
    read from it at build time). Reading the installed metadata instead cost a search
    of every installed package, 20-30 ms."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"unchrome {unchrome.__version__}")
        parser.exit()


def _serve_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="unchrome serve", description="Run the HTTP service.")
    p.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    return p


# numpy's OpenBLAS starts a thread per core at import and keeps them spinning a while:
# on a 2-core machine they competed with the extraction (1.9% of a run's samples in
# perf) when extraction used numpy. It no longer imports it, but the batch engines do
# (ray, pyarrow): the command line's processes (and the batch workers they start) run
# it on one thread unless the caller chose otherwise; the library leaves the
# environment alone.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "1")


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault(*BLAS_THREADS)
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] == "serve":
            return _serve(args[1:])
        if args and args[0] == "warc":
            from unchrome.cli_warc import main as warc_main

            return warc_main(args[1:])
        if args and args[0] in ("map", "crawl"):
            from unchrome.cli_crawl import main as crawl_main

            return crawl_main(args[0], args[1:])
        return _run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `unchrome URL | head`: the reader left, not an error
        return EXIT_OK


# What ``unchrome serve`` needs beyond the library: the [serve] extra.
SERVE_MODULES = ("fastapi", "uvicorn", "swagger_ui_bundle")


def _serve(argv: list[str]) -> int:
    opts = _serve_parser().parse_args(argv)
    try:
        for module in SERVE_MODULES:
            import_extra(module, "serve", "the HTTP service")
    except ExtraMissing as exc:
        print(f"unchrome serve: {exc.code}: {exc}", file=sys.stderr)
        return exit_code(exc)
    from unchrome.service.run import run
    from unchrome.service.settings import ServiceSettings

    try:
        settings = ServiceSettings.from_env()
    except UnchromeError as exc:
        print(f"unchrome serve: {exc}", file=sys.stderr)
        return EXIT_USAGE
    run(opts.host, opts.port, settings=settings, log_level=opts.log_level)
    return EXIT_OK


def _run(argv: list[str]) -> int:
    parser = _parser()
    opts = parser.parse_args(argv)
    if opts.jobs < 1:
        parser.error("--jobs must be at least 1")
    if opts.render not in RENDER_MODES:  # given flags are checked by argparse: the default
        parser.error(f"UNCHROME_RENDER must be one of {', '.join(RENDER_MODES)}")
    try:
        config = Config(
            include_selector=opts.target_selector,
            exclude_selector=opts.remove_selector,
            favor=opts.favor,
            render=opts.render,
            **content_config(opts),
        )
        fetch_config = fetch_config_of(opts)
    except InvalidInput as exc:
        parser.error(str(exc))
    sources = expand(opts.inputs)
    if sum(s.kind == "stdin" for s in sources) > 1:
        parser.error("'-' (standard input) may be given only once")
    if opts.url is not None:
        if len(sources) != 1 or sources[0].kind not in ("file", "stdin"):
            parser.error("--url gives the URL of one FILE or of '-' (a URL input is its own)")
        if not is_web_url(opts.url):
            parser.error(f"--url must be an absolute http(s) URL, got {opts.url!r}")
    if opts.with_metadata and opts.format not in FRONT_MATTER_FORMATS:
        parser.error(
            "--with-metadata applies to --format markdown and text "
            "(JSON carries the metadata as fields)"
        )
    if opts.out is not None:
        try:
            opts.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"unchrome: cannot create {opts.out}: {exc.strerror}", file=sys.stderr)
            return EXIT_CODES["FILE_ACCESS"]
    return _run_all(
        sources,
        Output(opts.format, opts.out, opts.with_metadata),
        opts.jobs,
        config,
        fetch_config,
        url=opts.url,
        show_progress=not opts.no_progress and sys.stderr.isatty(),
    )


@dataclass(frozen=True)
class Output:
    """What is written of each result, and where."""

    fmt: str
    out: Path | None = None  # a directory, one file per input; None: standard output
    with_metadata: bool = False

    def render(self, result: Result, *, compact: bool = False) -> str:
        return render(result, self.fmt, compact=compact, with_metadata=self.with_metadata)


def _run_all(
    sources: list[Source],
    output: Output,
    jobs: int,
    config: Config,
    fetch_config: FetchConfig,
    *,
    url: str | None = None,
    show_progress: bool,
) -> int:
    many = len(sources) > 1
    outdir = OutDir(output.out, output.fmt) if output.out is not None else None
    progress = Progress(len(sources), sys.stderr, show_progress and many)
    outcomes: list[Result | BaseException | None] = [None] * len(sources)

    def work(index: int) -> None:
        source = sources[index]
        try:
            result = process(source, config, fetch_config, url)
            if outdir is not None:
                outdir.path_for(source).write_text(output.render(result), encoding="utf-8")
            outcomes[index] = result
        except (UnchromeError, OSError) as exc:
            outcomes[index] = (
                exc
                if isinstance(exc, UnchromeError)
                else FileAccessError(f"cannot write output: {exc.strerror}")
            )
        except Exception as exc:  # a bug must not kill the other inputs
            outcomes[index] = exc
        progress.step(isinstance(outcomes[index], Result))

    workers = min(jobs, len(sources))
    if workers <= 1:
        # One at a time needs no pool; one page through the command line then spares
        # the import of concurrent.futures (and of logging, which it imports): 4 ms.
        for index in range(len(sources)):
            work(index)
    else:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for future in as_completed([pool.submit(work, i) for i in range(len(sources))]):
                future.result()
    progress.close()
    return _report(sources, outcomes, output, config.max_input_bytes)


def _report(
    sources: list[Source],
    outcomes: list[Result | BaseException | None],
    output: Output,
    cap: int,
) -> int:
    code = EXIT_OK
    many = len(sources) > 1
    for source, outcome in zip(sources, outcomes, strict=True):
        if isinstance(outcome, Result):
            if output.out is None:
                header = f"==> {source.label} <==\n" if many and output.fmt != "json" else ""
                _write(sys.stdout, header + output.render(outcome, compact=many))
            if outcome.truncated and output.fmt != "json":  # JSON says so: "truncated"
                print(
                    f"unchrome: {source.label}: warning: the input is over {_size(cap)}; "
                    f"only its first {_size(cap)} were read (truncated)",
                    file=sys.stderr,
                )
            continue
        error = outcome if outcome is not None else RuntimeError("not processed")
        name = getattr(error, "code", type(error).__name__)
        print(f"unchrome: {source.label}: {name}: {error}", file=sys.stderr)
        if code == EXIT_OK:
            code = exit_code(error)
    if many:
        failed = sum(not isinstance(o, Result) for o in outcomes)
        print(f"unchrome: {len(sources) - failed} ok, {failed} failed", file=sys.stderr)
    return code


def _size(n: int) -> str:
    return f"{n / 2**20:g} MiB" if n % 2**10 == 0 and n >= 2**20 else f"{n:,} bytes"
