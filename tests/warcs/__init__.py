"""Small WARC files written by the tests themselves, and misbehaving page handlers.

The handlers are module-level classes so that the pool can pickle them into its
worker processes.
"""

from __future__ import annotations

import gzip
import io
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fastwarc.warc import WarcRecord, WarcRecordType

from unchrome.scale.batch import Row, base_row
from unchrome.scale.warc import Page

STORY = (
    "The ferry company said on Friday that the winter timetable will start a week later "
    "than planned, because the new boat needs more sea trials before it can carry cars. "
)


def article(title: str, words: str = "") -> bytes:
    body = "".join(f"<p>{STORY}{words} Paragraph {i} of {title}.</p>" for i in range(4))
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"</head><body><nav><a href='/'>Home</a></nav><article><h1>{title}</h1>{body}"
        "</article></body></html>"
    ).encode()


@dataclass
class Rec:
    """One WARC record to write: ``kind`` is a WarcRecordType name."""

    uri: str
    body: bytes = b""
    content_type: str | None = "text/html; charset=utf-8"
    kind: str = "response"
    status: str = "200 OK"
    http: bool = True
    extra_headers: Sequence[str] = field(default_factory=tuple)


def record_bytes(rec: Rec) -> bytes:
    record = WarcRecord()
    record.init_headers(getattr(WarcRecordType, rec.kind))
    record.headers["WARC-Target-URI"] = rec.uri
    if rec.http and rec.kind in ("response", "request", "revisit"):
        record.headers["Content-Type"] = f"application/http; msgtype={rec.kind}"
        first = f"HTTP/1.1 {rec.status}" if rec.kind != "request" else "GET / HTTP/1.1"
        lines = [first]
        if rec.content_type is not None:
            lines.append(f"Content-Type: {rec.content_type}")
        lines += [*rec.extra_headers, f"Content-Length: {len(rec.body)}"]
        block = ("\r\n".join(lines) + "\r\n\r\n").encode() + rec.body
    else:
        if rec.content_type is not None:
            record.headers["Content-Type"] = rec.content_type
        block = rec.body
    record.set_bytes_content(block)
    out = io.BytesIO()
    record.write(out)
    return out.getvalue()


def write_warc(path: Path, records: Sequence[Rec | bytes]) -> Path:
    """A ``.warc`` or ``.warc.gz`` (one gzip member a record, as crawlers write them).

    ``bytes`` items are written as they are (inside a gzip file: as raw member bytes).
    """
    gz = path.name.endswith(".gz")
    with open(path, "wb") as f:
        for rec in records:
            if isinstance(rec, bytes):
                f.write(rec)
            else:
                data = record_bytes(rec)
                f.write(gzip.compress(data) if gz else data)
    return path


def member(rec: Rec) -> bytes:
    return gzip.compress(record_bytes(rec))


# ------------------------------------------------------------------- pool handlers


def _row(page: Page) -> Row:
    row = base_row(page)
    row.update(status="ok", text=page.payload.decode("utf-8", "replace"))
    return row


@dataclass(frozen=True)
class Echo:
    """Answers with the payload as text; misbehaves on payloads naming a trick."""

    def __call__(self) -> Callable[[Page], Row]:
        hoard: list[bytearray] = []

        def handle(page: Page) -> Row:
            if page.payload == b"crash":
                os._exit(7)
            if page.payload == b"kill":
                os.kill(os.getpid(), 9)
            if page.payload == b"hang":
                time.sleep(60)
            if page.payload == b"hog":
                # Touch every page so that it is resident, then hold it.
                hoard.append(bytearray(os.urandom(1 << 20)) * 400)
                time.sleep(60)
            if page.payload == b"raise":
                raise RuntimeError("a bug")
            return _row(page)

        return handle


@dataclass(frozen=True)
class BrokenFactory:
    def __call__(self) -> Callable[[Page], Row]:
        raise RuntimeError("cannot build the extractor")


def page(payload: bytes, url: str | None = None) -> Page:
    return Page(payload, "test", url=url)
