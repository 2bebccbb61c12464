"""Batch extraction on every core: a pool of worker processes, one row per input page.

Threads cannot help here (parsing and scoring hold the GIL), so pages go to worker
processes, each of which builds its extractor once. The pool is written for long runs
over untrusted pages:

* a worker has one page in flight at a time, so when it dies (a crash in native code, an
  OOM kill) the pool knows exactly which page did it: that page gets a failed row with
  ``WORKER_FAILED`` and a fresh worker takes over;
* every page has a hard deadline; a worker past it is killed (``TIMEOUT``), which also
  covers a hang inside native code that the extractor's own cooperative deadline
  (``Config.timeout``) cannot interrupt;
* a worker whose resident memory passes ``memory_limit`` in the middle of a page is
  killed (``MEMORY_LIMIT``); one that passes it after a page retires cleanly, and both
  are replaced. That bounds a slow leak as well as a single runaway page.

Rows come back in input order, so two runs (or the Ray path) can be compared row for
row. Pages that could not even be read arrive with their error set and are answered
without a worker.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any
from urllib.parse import urlsplit

from unchrome import schema
from unchrome.config import Config
from unchrome.errors import (
    ExtractTimeout,
    InvalidInput,
    MemoryLimitExceeded,
    UnchromeError,
    WorkerFailed,
)
from unchrome.scale.warc import Page
from unchrome.urls import is_web_url

Row = dict[str, Any]

#: The output columns in order, with their types (``str``, ``int``, ``bool``): the rows'
#: fields of unchrome.schema, named like the library's (and like trafilatura's JSON
#: where the meaning is the same: title, author, date, hostname, description, image,
#: language, text), so that its users find their fields.
COLUMNS: tuple[tuple[str, str], ...] = tuple((f.name, f.type) for f in schema.fields(schema.ROWS))
COLUMN_NAMES: tuple[str, ...] = tuple(name for name, _ in COLUMNS)
OK = "ok"

# Past Config.timeout the extractor stops itself between stages; this is how much longer
# the pool waits before it concludes the worker is stuck inside one stage and kills it.
DEADLINE_GRACE = 2.0
# How often the pool looks at the workers' memory while they work.
MEMORY_POLL = 0.1
# A worker that dies this many times in a row before finishing any page means the workers
# cannot start at all (a broken install): give up instead of respawning forever.
MAX_START_FAILURES = 3


# ------------------------------------------------------------------------------ rows


def base_row(page: Page) -> Row:
    row: Row = dict.fromkeys(COLUMN_NAMES)
    row.update(
        url=page.url,
        warc_record_id=page.warc_record_id,
        warc_date=page.warc_date,
        source=page.source,
        warc_offset=page.warc_offset,
        http_status=page.http_status,
    )
    return row


def failed_row(page: Page, code: str, message: str) -> Row:
    row = base_row(page)
    row.update(status=code, error=message)
    return row


def ok_row(page: Page, result: Any, fmt: str = "both") -> Row:
    row = base_row(page)
    url = result.url or page.url
    row.update((name, getattr(result, name)) for name in schema.ROW_RESULT_FIELDS)
    row.update(
        status=OK,
        url=url,
        hostname=urlsplit(url).hostname if url else None,
        text=result.text if fmt in ("both", "text") else None,
        markdown=result.markdown if fmt in ("both", "markdown") else None,
    )
    return row


def extract_page(
    extractor: Any, page: Page, fmt: str = "both", url_from_canonical: bool = False
) -> Row:
    """One page through an ``unchrome.Extractor``: an ``ok`` row or a failed one.

    ``url_from_canonical``: a page without a URL (an HTML file) that names an absolute
    canonical URL is extracted again with it as its URL, as if it had been fetched
    from there: its links become absolute, and the selection rules that read the URL
    see it (twice the work, for those pages only)."""
    if page.error_code:
        return failed_row(page, page.error_code, page.error or page.error_code)
    try:
        result = extractor.extract(page.payload, url=page.url, content_type=page.content_type)
        canonical = result.canonical_url
        if url_from_canonical and page.url is None and canonical and is_web_url(canonical):
            result = extractor.extract(page.payload, url=canonical, content_type=page.content_type)
        return ok_row(page, result, fmt)
    except UnchromeError as exc:
        return failed_row(page, exc.code, str(exc))
    except Exception as exc:  # a bug must cost one row, not the run
        return failed_row(page, UnchromeError.code, f"{type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class UnchromeWorker:
    """Builds the per-process page handler: one ``Extractor``, made once per worker.

    The pool pickles this object into each worker and calls it there; any picklable
    callable returning ``Callable[[Page], Row]`` can stand in (the benchmark runs
    trafilatura through the same pool this way).
    """

    config: Config | None = None
    fmt: str = "both"
    url_from_canonical: bool = False  # see extract_page

    def __call__(self) -> Callable[[Page], Row]:
        from unchrome.pipeline.extractor import Extractor

        extractor = Extractor(self.config)
        fmt, canonical = self.fmt, self.url_from_canonical
        return lambda page: extract_page(extractor, page, fmt, canonical)


# ------------------------------------------------------------------------------ pool


def rss_bytes(pid: int) -> int | None:
    """Resident memory of a process, from /proc (None where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _worker_main(
    conn: Connection, factory: Callable[[], Callable[[Page], Row]], memory_limit: int | None
) -> None:
    # Ctrl-C goes to the whole process group: the parent decides, workers keep quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        handle = factory()
    except BaseException as exc:
        conn.send(("init-error", f"{type(exc).__name__}: {exc}"))
        return
    pid = os.getpid()
    conn.send(("ready", pid))
    while True:
        try:
            page = conn.recv()
        except (EOFError, OSError):
            return
        if page is None:
            return
        try:
            row = handle(page)
        except Exception as exc:  # a handler's bug costs its row, not the worker
            row = failed_row(page, UnchromeError.code, f"{type(exc).__name__}: {exc}")
        rss = rss_bytes(pid)
        # Past the cap after a page: the page is done, so retire cleanly (and say so, so
        # that the pool hands the next page to a fresh worker, not to one that is leaving).
        retire = memory_limit is not None and rss is not None and rss > memory_limit
        conn.send((row, rss, retire))
        if retire:
            return


@dataclass
class _Slot:
    process: Any
    conn: Connection
    index: int | None = None
    page: Page | None = None
    started: float = 0.0


@dataclass
class WorkerMemory:
    """Resident memory of one worker, sampled after its pages."""

    pages: int = 0
    first: int = 0  # after its first page
    peak: int = 0
    last: int = 0
    samples: list[tuple[int, int]] = field(default_factory=list)  # (pages done, bytes)


@dataclass
class PoolStats:
    """What happened to the workers, for the summary and the benchmark."""

    replaced: int = 0
    timeouts: int = 0
    memory_kills: int = 0
    deaths: int = 0
    memory: dict[int, WorkerMemory] = field(default_factory=dict)  # by worker pid

    SAMPLE_EVERY = 500

    def note(self, pid: int, rss: int | None) -> None:
        if rss is None:
            return
        mem = self.memory.setdefault(pid, WorkerMemory())
        mem.pages += 1
        if mem.pages == 1:
            mem.first = rss
        mem.peak = max(mem.peak, rss)
        mem.last = rss
        if mem.pages % self.SAMPLE_EVERY == 0:
            mem.samples.append((mem.pages, rss))


class ExtractionPool:
    """``jobs`` worker processes running ``factory()`` handlers; use as a context manager.

    ``timeout`` is the hard per-page deadline in seconds (None: none); ``memory_limit``
    the per-worker resident memory cap in bytes (None: none).
    """

    def __init__(
        self,
        factory: Callable[[], Callable[[Page], Row]] | None = None,
        *,
        jobs: int = 1,
        timeout: float | None = 30.0 + DEADLINE_GRACE,
        memory_limit: int | None = 2 << 30,
        start_method: str | None = None,
    ) -> None:
        if jobs < 1:
            raise InvalidInput("jobs must be at least 1")
        if timeout is not None and timeout <= 0:
            raise InvalidInput("timeout must be positive")
        if memory_limit is not None and memory_limit <= 0:
            raise InvalidInput("memory_limit must be positive")
        self.factory = factory or UnchromeWorker()
        self.jobs = jobs
        self.timeout = timeout
        self.memory_limit = memory_limit
        self.stats = PoolStats()
        self._ctx = multiprocessing.get_context(start_method or _default_start_method())
        if self._ctx.get_start_method() == "forkserver":
            # Workers fork from a server that already imported the extractor: a
            # replacement starts in milliseconds instead of importing everything again.
            self._ctx.set_forkserver_preload(["unchrome.scale.batch"])
        self._slots: list[_Slot] = []

    def __enter__(self) -> ExtractionPool:
        try:
            for _ in range(self.jobs):
                self._slots.append(self._spawn())
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for slot in self._slots:
            with contextlib.suppress(OSError, ValueError):
                slot.conn.send(None)
        deadline = time.monotonic() + 5.0
        for slot in self._slots:
            slot.process.join(max(0.0, deadline - time.monotonic()))
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
            slot.conn.close()
        self._slots = []

    # -- workers

    def _spawn(self) -> _Slot:
        failures = 0
        while True:
            parent, child = self._ctx.Pipe(duplex=True)
            process = self._ctx.Process(
                target=_worker_main,
                args=(child, self.factory, self.memory_limit),
                daemon=True,
            )
            process.start()
            child.close()
            try:
                kind, value = parent.recv()
            except (EOFError, OSError):
                process.join(5.0)
                kind, value = "died", _exit_description(process.exitcode)
            if kind == "ready":
                rss = rss_bytes(process.pid) if self.memory_limit is not None else None
                if rss is not None and self.memory_limit is not None and rss > self.memory_limit:
                    # Every page would be killed and every worker retired at once.
                    process.kill()
                    process.join(5.0)
                    parent.close()
                    raise InvalidInput(
                        f"the memory limit ({self.memory_limit >> 20} MiB) is below what a "
                        f"fresh worker holds ({rss >> 20} MiB)"
                    )
                return _Slot(process, parent)
            process.join(5.0)
            parent.close()
            failures += 1
            if kind == "init-error" or failures >= MAX_START_FAILURES:
                raise WorkerFailed(f"the extraction worker could not start: {value}")

    def _replace(self, position: int, *, kill: bool) -> _Slot:
        old = self._slots[position]
        if kill and old.process.is_alive():
            old.process.kill()
        old.process.join(5.0)
        old.conn.close()
        self.stats.replaced += 1
        self._slots[position] = self._spawn()
        return self._slots[position]

    # -- the run

    def map(self, pages: Iterable[Page]) -> Iterator[Row]:
        """One row per page, in input order."""
        if not self._slots:
            raise UnchromeError("the pool is not running: use it as a context manager")
        source = enumerate(pages)
        done: dict[int, Row] = {}
        next_out = 0
        exhausted = False
        while True:
            for position in range(len(self._slots)):
                while self._slots[position].index is None and not exhausted:
                    item = next(source, None)
                    if item is None:
                        exhausted = True
                        break
                    index, page = item
                    if page.error_code:  # unreadable: nothing for a worker to do
                        done[index] = failed_row(page, page.error_code, page.error or "")
                        continue
                    self._dispatch(position, index, page)
            busy = [p for p, slot in enumerate(self._slots) if slot.index is not None]
            if busy:
                done.update(self._collect(busy))
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
            if exhausted and not busy:
                return

    def _dispatch(self, position: int, index: int, page: Page) -> None:
        for _ in range(MAX_START_FAILURES):
            slot = self._slots[position]
            try:
                slot.conn.send(page)
                break
            except (OSError, ValueError):  # it died while idle: a fresh one takes the page
                self._replace(position, kill=True)
        else:
            raise WorkerFailed("extraction workers die before they take a page")
        slot.index, slot.page, slot.started = index, page, time.monotonic()

    def _collect(self, busy: list[int]) -> list[tuple[int, Row]]:
        """Wait until a worker answers, dies, runs out of time or memory; their rows."""
        slots = [self._slots[p] for p in busy]
        wait_for: float | None = None
        if self.timeout is not None:
            first_deadline = min(s.started for s in slots) + self.timeout
            wait_for = max(0.0, first_deadline - time.monotonic())
        if self.memory_limit is not None:
            wait_for = MEMORY_POLL if wait_for is None else min(wait_for, MEMORY_POLL)
        ready = set(wait([s.conn for s in slots] + [s.process.sentinel for s in slots], wait_for))
        rows: list[tuple[int, Row]] = []
        now = time.monotonic()
        for position, slot in zip(busy, slots, strict=True):
            index, page = slot.index, slot.page
            assert index is not None and page is not None
            if slot.conn in ready or slot.process.sentinel in ready:
                answer = _receive(slot.conn)
                if answer is not None:
                    row, rss, retire = answer
                    self.stats.note(slot.process.pid, rss)
                    rows.append((index, row))
                    slot.index = slot.page = None
                    if retire:
                        self._replace(position, kill=False)
                    continue
                # No answer and the process is gone: the page took the worker down.
                slot.process.join(5.0)
                self.stats.deaths += 1
                code = _exit_description(slot.process.exitcode)
                rows.append((index, failed_row(page, WorkerFailed.code, f"worker {code}")))
                self._replace(position, kill=True)
                continue
            if self.timeout is not None and now - slot.started > self.timeout:
                self.stats.timeouts += 1
                message = f"no result within {self.timeout:g} s: worker killed"
                rows.append((index, failed_row(page, ExtractTimeout.code, message)))
                self._replace(position, kill=True)
                continue
            if self.memory_limit is not None:
                rss = rss_bytes(slot.process.pid)
                if rss is not None and rss > self.memory_limit:
                    self.stats.memory_kills += 1
                    message = (
                        f"worker passed the memory limit ({rss >> 20} MiB > "
                        f"{self.memory_limit >> 20} MiB): killed"
                    )
                    rows.append((index, failed_row(page, MemoryLimitExceeded.code, message)))
                    self._replace(position, kill=True)
        return rows


def _receive(conn: Connection) -> tuple[Row, int | None, bool] | None:
    try:
        if conn.poll():
            answer: tuple[Row, int | None, bool] = conn.recv()
            return answer
    except (EOFError, OSError):
        pass
    return None


def _exit_description(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exited with code {exitcode}"


def _default_start_method() -> str:
    # fork would copy the parent's threads' locks (Ray, a progress bar's monitor thread)
    # into a state nobody can release; forkserver starts workers from a clean process.
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def extract_pages(
    pages: Iterable[Page],
    *,
    config: Config | None = None,
    fmt: str = "both",
    jobs: int | None = None,
    memory_limit: int | None = 2 << 30,
) -> Iterator[Row]:
    """Rows for ``pages`` from a pool of ``jobs`` processes (default: one per core).

    The per-page deadline is ``config.timeout`` (plus a grace period for the hard kill).
    """
    if fmt not in schema.CONTENT_FORMATS:
        raise InvalidInput(
            f"format must be one of {', '.join(schema.CONTENT_FORMATS)}, got {fmt!r}"
        )
    config = config or Config()
    timeout = None if config.timeout is None else config.timeout + DEADLINE_GRACE
    with ExtractionPool(
        UnchromeWorker(config, fmt),
        jobs=jobs or os.cpu_count() or 1,
        timeout=timeout,
        memory_limit=memory_limit,
    ) as pool:
        yield from pool.map(pages)
