"""Where batch rows go: JSON Lines (built in) or Parquet (``pip install 'unchrome[parquet]'``).

Both write the columns of :data:`unchrome.scale.batch.COLUMNS` in that order, with missing
values as null, so a JSONL file and a Parquet file of the same run hold the same table.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Protocol

from unchrome.errors import FileAccessError, InvalidInput, import_extra
from unchrome.scale.batch import COLUMN_NAMES, COLUMNS, Row

_SURROGATE = re.compile("[\ud800-\udfff]")
SINK_FORMATS: tuple[str, ...] = ("jsonl", "parquet")
# Parquet row groups of this many rows: big enough to compress well, small enough that
# a run holds only a few MB of pending text.
PARQUET_BATCH_ROWS = 1000


class Sink(Protocol):
    def write(self, row: Row) -> None: ...

    def close(self) -> None: ...


# The file names each format is known by (``-``, standard output, is JSON Lines).
PARQUET_NAMES = (".parquet", ".pq")
JSONL_NAMES = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")


def sink_format(path: str | Path, explicit: str | None = None) -> str:
    """The output format: given, or from the file name (``.parquet`` / ``.pq``,
    ``.jsonl`` / ``.ndjson``, maybe ``.gz``). Any other name is refused: ``x.csv``
    written as JSON Lines would surprise whoever opens it."""
    if explicit is not None:
        if explicit not in SINK_FORMATS:
            raise InvalidInput(f"unknown output format {explicit!r}: use jsonl or parquet")
        return explicit
    name = str(path).lower()
    if name.endswith(PARQUET_NAMES):
        return "parquet"
    if name == "-" or name.endswith(JSONL_NAMES):
        return "jsonl"
    raise InvalidInput(
        f"cannot tell the output format of {Path(path).name!r} from its name: name it "
        "OUT.jsonl, OUT.jsonl.gz or OUT.parquet, or give --output-format jsonl|parquet"
    )


class _Closing:
    def __enter__(self) -> Any:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


def jsonl_line(row: Row) -> bytes:
    """One row as a line of JSON Lines: the columns in order, UTF-8, ending in a newline."""
    values = {k: row.get(k) for k in COLUMN_NAMES}
    try:
        data = json.dumps(values, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate must not make the file invalid UTF-8 for every reader
        # downstream: it becomes U+FFFD, as in Parquet.
        values = {k: _valid(v) for k, v in values.items()}
        data = json.dumps(values, ensure_ascii=False).encode("utf-8")
    return data + b"\n"


class JsonlSink(_Closing):
    """One JSON object a line, UTF-8; ``-`` is standard output, ``.gz`` is compressed."""

    def __init__(self, path: str | Path) -> None:
        self._own = str(path) != "-"
        self._stream: IO[bytes]
        try:
            if not self._own:
                self._stream = sys.stdout.buffer
            elif str(path).endswith(".gz"):
                self._stream = gzip.open(path, "wb")  # noqa: SIM115 - closed in close()
            else:
                self._stream = open(path, "wb")  # noqa: SIM115 - closed in close()
        except OSError as exc:
            raise FileAccessError(f"cannot write {path}: {exc.strerror}") from None

    def write(self, row: Row) -> None:
        self._stream.write(jsonl_line(row))

    def close(self) -> None:
        if self._own:
            self._stream.close()
        else:
            self._stream.flush()


def arrow_schema() -> Any:
    import pyarrow as pa

    types = {
        "str": pa.string(),
        "int": pa.int64(),
        "bool": pa.bool_(),
        "strs": pa.list_(pa.string()),
    }
    return pa.schema([pa.field(name, types[kind]) for name, kind in COLUMNS])


def rows_to_table(rows: list[Row]) -> Any:
    """A ``pyarrow.Table`` of rows with the fixed schema (all-null batches keep their types)."""
    import pyarrow as pa

    schema = arrow_schema()
    columns = {n: [r.get(n) for r in rows] for n in schema.names}
    try:
        return pa.Table.from_pydict(columns, schema)
    except UnicodeEncodeError:
        # Arrow strings are UTF-8: a lone surrogate becomes U+FFFD, as in JSON Lines.
        valid = {n: [_valid(v) for v in values] for n, values in columns.items()}
        return pa.Table.from_pydict(valid, schema)


def _valid(value: Any) -> Any:
    if isinstance(value, list):
        return [_valid(item) for item in value]
    return _SURROGATE.sub("\ufffd", value) if isinstance(value, str) else value


def _require_pyarrow() -> None:
    import_extra("pyarrow.parquet", "parquet", "Parquet output")


class ParquetSink(_Closing):
    """A Parquet file written in row groups of :data:`PARQUET_BATCH_ROWS` rows."""

    def __init__(self, path: str | Path, *, batch_rows: int = PARQUET_BATCH_ROWS) -> None:
        _require_pyarrow()
        import pyarrow.parquet as pq

        self._pending: list[Row] = []
        self._batch_rows = batch_rows
        try:
            self._writer = pq.ParquetWriter(str(path), arrow_schema(), compression="zstd")
        except OSError as exc:
            raise FileAccessError(f"cannot write {path}: {exc}") from None

    def write(self, row: Row) -> None:
        self._pending.append(row)
        if len(self._pending) >= self._batch_rows:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._writer.write_table(rows_to_table(self._pending))
            self._pending = []

    def close(self) -> None:
        self._flush()
        self._writer.close()


def open_sink(path: str | Path, fmt: str | None = None) -> JsonlSink | ParquetSink:
    """A sink for ``path`` in ``fmt`` (default: from the file name)."""
    if sink_format(path, fmt) == "parquet":
        if str(path) == "-":
            raise InvalidInput("Parquet cannot be written to standard output: give a file")
        return ParquetSink(path)
    return JsonlSink(path)
