"""The crawl's output file, written from the rows committed in its state.

JSON Lines grows as the crawl goes: each row is appended, flushed and ``fsync``-ed, and
then the file's length and the row's number are committed to the state. A crawl killed
between the two leaves a row (or half of one) past the recorded length: on resume the
file is cut back to it and the rows after the recorded one are written again, so every
page is in the file exactly once. Parquet cannot be appended to: it is written whole,
from the state's rows, when the run ends (to a temporary name, then renamed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from unchrome.errors import FileAccessError, InvalidInput
from unchrome.scale.sink import PARQUET_NAMES, ParquetSink, jsonl_line, sink_format
from unchrome.site.state import State


def crawl_format(path: str | Path, explicit: str | None = None) -> str:
    """jsonl or parquet; a compressed ``.jsonl.gz`` cannot be cut back on resume."""
    name = str(path)
    if name == "-" or name.endswith(".gz"):
        raise InvalidInput("crawl writes a file OUT.jsonl or OUT.parquet (resumable)")
    return sink_format(path, explicit)


class CrawlOutput:
    """Keeps ``path`` equal to the state's rows of this pass; use as a context manager."""

    def __init__(self, path: str | Path, state: State, fmt: str | None = None) -> None:
        self.path = Path(path)
        self.state = state
        self.fmt = crawl_format(path, fmt)
        self._stream: IO[bytes] | None = None
        self.seq = 0
        if self.fmt == "jsonl":
            self._open_jsonl()

    def __enter__(self) -> CrawlOutput:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _key(self) -> str:
        return f"out:{self.state.pass_}:{self.path.resolve()}"

    def _open_jsonl(self) -> None:
        recorded = self.state.get(self._key())
        try:
            if recorded is not None and self.path.exists():
                size, seq = (int(x) for x in recorded.split(":"))
                stream = open(self.path, "r+b")  # noqa: SIM115 - closed in __exit__
                stream.truncate(size)  # what was written after the last commit goes
                stream.seek(size)
                self.seq = seq
            else:
                stream = open(self.path, "wb")  # noqa: SIM115 - closed in __exit__
        except OSError as exc:
            raise FileAccessError(f"cannot write {self.path}: {exc.strerror}") from None
        self._stream = stream

    def sync(self) -> int:
        """Append the committed rows not yet in the file; how many. (JSON Lines only.)"""
        if self._stream is None:
            return 0
        count = 0
        for seq, row in self.state.rows(self.seq):
            self._stream.write(jsonl_line(row))
            self._stream.flush()
            os.fsync(self._stream.fileno())
            self.seq = seq
            self.state.set(self._key(), f"{self._stream.tell()}:{seq}")
            count += 1
        return count

    def finish(self) -> None:
        """Parquet: write the whole file from the state's rows."""
        if self.fmt != "parquet":
            self.sync()
            return
        suffix = next((s for s in PARQUET_NAMES if str(self.path).endswith(s)), ".parquet")
        tmp = self.path.with_name(self.path.name + ".partial" + suffix)
        with ParquetSink(tmp) as sink:
            for _seq, row in self.state.rows():
                sink.write(row)
        os.replace(tmp, self.path)
