"""unchrome on Ray Data (``pip install 'unchrome[ray]'``).

    import ray, unchrome.scale.ray

    ds = unchrome.scale.ray.read_warc(["crawl/a.warc.gz", "crawl/b.warc.gz"])
    rows = unchrome.scale.ray.extract(ds)
    rows.write_parquet("pages/")

``read_warc`` makes one read task per WARC file; each task streams its file and emits
blocks of ``rows_per_block`` pages, so no task holds a whole file. ``extract`` maps the
pages through :class:`Extract`, a callable class: each Ray actor builds one extractor
and, by default, runs it in a worker process of its own (the local pool of
:mod:`unchrome.scale.batch` with one worker), so that a page that hangs or crashes costs its
row and not the actor, exactly as in ``unchrome warc``. The rows are the same as the local
pool's, column for column (see :data:`unchrome.scale.batch.COLUMNS`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import ray
import ray.data
from ray.data import Datasource, ReadTask
from ray.data.block import BlockMetadata

from unchrome.config import Config
from unchrome.errors import InvalidInput
from unchrome.scale.batch import (
    COLUMN_NAMES,
    DEADLINE_GRACE,
    ExtractionPool,
    Row,
    UnchromeWorker,
    extract_page,
)
from unchrome.scale.sink import rows_to_table
from unchrome.scale.warc import Page, WarcReader, is_url
from unchrome.schema import CONTENT_FORMATS

#: The columns of a dataset of pages (what ``read_warc`` gives and ``extract`` reads).
PAGE_SCHEMA = pa.schema(
    [
        pa.field("payload", pa.binary()),
        pa.field("source", pa.string()),
        pa.field("url", pa.string()),
        pa.field("content_type", pa.string()),
        pa.field("warc_record_id", pa.string()),
        pa.field("warc_date", pa.string()),
        pa.field("warc_offset", pa.int64()),
        pa.field("http_status", pa.int64()),
        pa.field("error_code", pa.string()),
        pa.field("error", pa.string()),
    ]
)
ROWS_PER_BLOCK = 256


def pages_to_table(pages: Sequence[Page]) -> pa.Table:
    return pa.Table.from_pydict(
        {name: [getattr(p, name) for p in pages] for name in PAGE_SCHEMA.names}, PAGE_SCHEMA
    )


def table_to_pages(table: pa.Table) -> list[Page]:
    return [Page(**row) for row in table.select(PAGE_SCHEMA.names).to_pylist()]


def _read_file(path: str, rows_per_block: int, max_payload_bytes: int) -> Iterator[pa.Table]:
    reader = WarcReader([path], max_payload_bytes=max_payload_bytes)
    pages: list[Page] = []
    for page in reader:
        pages.append(page)
        if len(pages) >= rows_per_block:
            yield pages_to_table(pages)
            pages = []
    if pages:
        yield pages_to_table(pages)


class WarcDatasource(Datasource):
    """The HTML pages of WARC files: one read task per file, streamed in blocks."""

    def __init__(
        self,
        paths: Sequence[str | Path],
        *,
        rows_per_block: int = ROWS_PER_BLOCK,
        max_payload_bytes: int = Config().max_input_bytes,
    ) -> None:
        if not paths:
            raise InvalidInput("read_warc needs at least one WARC file")
        if rows_per_block < 1:
            raise InvalidInput("rows_per_block must be at least 1")
        self.paths = [str(p) for p in paths]
        self.rows_per_block = rows_per_block
        self.max_payload_bytes = max_payload_bytes

    def estimate_inmemory_data_size(self) -> int | None:
        sizes = [_size(p) for p in self.paths]
        return None if None in sizes else sum(s or 0 for s in sizes)

    def get_read_tasks(
        self, parallelism: int, per_task_row_limit: int | None = None, data_context: Any = None
    ) -> list[ReadTask]:
        # One task per file whatever `parallelism` asks: a WARC file is read front to back
        # (gzip members cannot be found without reading), so splitting it buys nothing.
        return [
            ReadTask(
                functools.partial(_read_file, path, self.rows_per_block, self.max_payload_bytes),
                BlockMetadata(
                    num_rows=None,
                    size_bytes=_size(path),
                    exec_stats=None,
                    input_files=(path,),
                ),
                schema=PAGE_SCHEMA,
                per_task_row_limit=per_task_row_limit,
            )
            for path in self.paths
        ]


def _size(path: str) -> int | None:
    try:
        if is_url(path):
            import fsspec

            fs, inner = fsspec.core.url_to_fs(path)
            return int(fs.size(inner))
        return Path(path).stat().st_size
    except (OSError, ValueError, ImportError):
        return None


def read_warc(
    paths: str | Path | Sequence[str | Path],
    *,
    rows_per_block: int = ROWS_PER_BLOCK,
    max_payload_bytes: int = Config().max_input_bytes,
) -> ray.data.Dataset:
    """A dataset of the HTML pages of ``paths`` (columns: :data:`PAGE_SCHEMA`)."""
    if isinstance(paths, str | Path):
        paths = [paths]
    missing = [str(p) for p in paths if _size(str(p)) is None]
    if missing:
        from unchrome.errors import FileAccessError

        raise FileAccessError(f"cannot read {', '.join(missing)}")
    source = WarcDatasource(
        paths, rows_per_block=rows_per_block, max_payload_bytes=max_payload_bytes
    )
    return ray.data.read_datasource(source, override_num_blocks=len(source.paths))


class Extract:
    """``map_batches`` callable class: one extractor per actor, pages in, rows out.

    With ``isolate`` (the default) the extractor runs in a child process of the actor with
    a hard per-page deadline and memory cap, as in the local pool; without it, in the
    actor itself, bound only by the extractor's own deadline (``Config.timeout``).
    """

    def __init__(
        self,
        config: Config | None = None,
        fmt: str = "both",
        *,
        isolate: bool = True,
        memory_limit: int | None = 2 << 30,
    ) -> None:
        if fmt not in CONTENT_FORMATS:
            raise InvalidInput(f"format must be one of {', '.join(CONTENT_FORMATS)}")
        self.config = config or Config()
        self.fmt = fmt
        self._pool: ExtractionPool | None = None
        self._extractor: Any = None
        if isolate:
            timeout = None if self.config.timeout is None else self.config.timeout + DEADLINE_GRACE
            self._pool = ExtractionPool(
                UnchromeWorker(self.config, fmt), jobs=1, timeout=timeout, memory_limit=memory_limit
            ).__enter__()
        else:
            from unchrome.pipeline.extractor import Extractor

            self._extractor = Extractor(self.config)

    def __call__(self, batch: pa.Table) -> pa.Table:
        pages = table_to_pages(batch)
        rows: list[Row]
        if self._pool is not None:
            rows = list(self._pool.map(pages))
        else:
            rows = [extract_page(self._extractor, page, self.fmt) for page in pages]
        return rows_to_table(rows)

    def __del__(self) -> None:
        pool = getattr(self, "_pool", None)  # None too when __init__ failed early
        if pool is not None:
            pool.close()


def extract(
    pages: ray.data.Dataset,
    *,
    config: Config | None = None,
    fmt: str = "both",
    concurrency: int | tuple[int, int] | None = None,
    batch_size: int = 64,
    isolate: bool = True,
) -> ray.data.Dataset:
    """Rows (``unchrome.scale.batch.COLUMNS``) for a dataset of pages from :func:`read_warc`.

    ``concurrency`` is the number of extracting actors (default: from 1 up to the
    cluster's CPUs, as Ray sees fit).
    """
    if concurrency is None:
        cpus = int(ray.cluster_resources().get("CPU", 1)) if ray.is_initialized() else 1
        concurrency = (1, max(1, cpus))
    if isinstance(concurrency, int):
        compute = ray.data.ActorPoolStrategy(size=concurrency)
    else:
        compute = ray.data.ActorPoolStrategy(min_size=concurrency[0], max_size=concurrency[1])
    return pages.map_batches(
        Extract,
        fn_constructor_kwargs={"config": config, "fmt": fmt, "isolate": isolate},
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=compute,
    )


def run_rows(
    paths: Sequence[str | Path],
    *,
    config: Config | None = None,
    fmt: str = "both",
    address: str | None = None,
    jobs: int | None = None,
) -> Iterator[Row]:
    """The rows of ``unchrome warc --engine ray``, in input order, as plain dicts.

    Connects to the cluster at ``address`` or starts a local Ray with ``jobs`` CPUs.
    """
    # The command prints its own progress and summary: Ray's per-stage logs would bury it.
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        else:
            ray.init(
                num_cpus=jobs,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
    context = ray.data.DataContext.get_current()
    keep_order = context.execution_options.preserve_order
    # The same rows in the same order as the local pool: Ray may otherwise emit blocks
    # as they finish.
    context.execution_options.preserve_order = True
    context.enable_progress_bars = False
    try:
        ds = extract(
            read_warc(paths, max_payload_bytes=(config or Config()).max_input_bytes),
            config=config,
            fmt=fmt,
        )
        for row in ds.iter_rows():
            yield {name: row.get(name) for name in COLUMN_NAMES}
    finally:
        context.execution_options.preserve_order = keep_order
        if started_here:
            ray.shutdown()
