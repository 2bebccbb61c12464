"""Reading pages out of WARC files (FastWARC) and out of directories of HTML files.

A reader yields one :class:`Page` per input record that should be extracted:

* a WARC ``response`` (or ``resource``) record whose HTTP ``Content-Type`` is HTML or
  XHTML, or whose payload sniffs as HTML when the header is missing;
* a record that could not be read (a truncated or corrupt gzip member, garbage where a
  record should start, a payload shorter than its declared length): a Page that carries
  its error, so that it becomes a failed row instead of vanishing.

Everything else (``request``, ``revisit``, ``metadata``, ``warcinfo`` records and
responses that are images, PDFs, scripts...) is skipped and counted in
:attr:`WarcReader.skipped`, so a summary can account for every record of the file.

Reading streams: one record is in memory at a time, never the whole file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import BinaryIO
from urllib.parse import quote, urljoin

from unchrome.errors import FileAccessError, InvalidInput, UnchromeError, import_extra
from unchrome.inputs import COMPRESSED_SUFFIXES, read_page_file
from unchrome.rules.formats import HTML_TYPES

#: HTTP media types treated as HTML.
# How far a corrupt region is searched for the next record start. Past this the rest
# of the file is given up (one failed row), so a file of noise cannot make us scan forever
# in small steps.
_SCAN_CHUNK = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."

# A payload without a Content-Type is HTML when it starts (after a BOM and blanks, maybe
# a comment or XML declaration) with a tag that only HTML documents start with.
_SNIFF = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*"
    rb"<(?:!doctype\s+html|html|head|body|title|meta|div|p|script|style|link|table|h1|a)[\s>/]",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(slots=True)
class Page:
    """One document to extract, with where it came from.

    ``error_code`` / ``error`` are set when the record could not be read: such a page has
    no payload and is reported as failed without extraction.
    """

    payload: bytes
    source: str
    url: str | None = None
    content_type: str | None = None
    warc_record_id: str | None = None
    warc_date: str | None = None
    warc_offset: int | None = None
    http_status: int | None = None
    error_code: str | None = None
    error: str | None = None


def sniff_html(payload: bytes) -> bool:
    """Whether a payload without a Content-Type looks like an HTML document."""
    return _SNIFF.match(payload[:2048]) is not None


def is_html_type(content_type: str | None) -> bool:
    if not content_type:
        return False
    return content_type.split(";", 1)[0].strip().lower() in HTML_TYPES


def _fastwarc() -> ModuleType:
    """FastWARC's reader, from the [warc] extra."""
    return import_extra("fastwarc.warc", "warc", "reading WARC files")


class WarcReader:
    """The HTML pages of one or more WARC files (``.warc``, ``.warc.gz``), in file order.

    ``max_payload_bytes`` bounds what is read of one payload (a 2 GB video record must
    not be pulled into memory); the extractor cuts at ``Config.max_input_bytes`` anyway,
    so reading one byte more than that is enough for it to flag ``truncated``.
    """

    def __init__(self, paths: Iterable[str | Path], *, max_payload_bytes: int = 4 << 20) -> None:
        self.paths = [str(p) for p in paths]
        self.max_payload_bytes = max_payload_bytes
        self.skipped: Counter[str] = Counter()

    def __iter__(self) -> Iterator[Page]:
        for path in self.paths:
            yield from self.read_file(path)

    def read_file(self, path: str | Path) -> Iterator[Page]:
        """The pages of one file: a local path, or a URL (``s3://...``) through fsspec."""
        with open_input(path) as handle:
            yield from self._read_stream(handle, str(path))

    def _read_stream(self, handle: BinaryIO, source: str) -> Iterator[Page]:
        ArchiveIterator = _fastwarc().ArchiveIterator

        head = handle.read(3)
        magic = _GZIP_MAGIC if head == _GZIP_MAGIC else _WARC_MAGIC
        start = 0
        reported = False  # a row was written for the broken region we are in
        while True:
            handle.seek(start)
            last_good: int | None = None
            try:
                for record in ArchiveIterator(handle, parse_http=True, auto_decode="all"):
                    last_good, reported = record.stream_pos, False
                    page = self._page(record, source)
                    if page is not None:
                        yield page
                return
            except OSError as exc:
                # The record after `last_good` is broken: report it once, then go on from
                # the next place where a record can start (a gzip member or a "WARC/1."
                # line). Restarting there may fail again before any record (the magic bytes
                # also occur by chance inside compressed data, and the first hit may be the
                # broken member itself): that is the same region, so no second row.
                broken_at = start if last_good is None else last_good + 1
                if not reported:
                    reported = True
                    yield Page(
                        b"",
                        source,
                        warc_offset=broken_at,
                        error_code=InvalidInput.code,
                        error=f"unreadable WARC record after offset {broken_at}: {exc}",
                    )
                resume = self._next_magic(handle, broken_at + 1, magic)
                if resume is None:
                    return
                start = resume

    @staticmethod
    def _next_magic(handle: BinaryIO, offset: int, magic: bytes) -> int | None:
        position = offset
        while True:
            handle.seek(position)
            chunk = handle.read(_SCAN_CHUNK + len(magic))
            if len(chunk) < len(magic):
                return None
            found = chunk.find(magic)
            if found >= 0:
                return position + found
            position += _SCAN_CHUNK

    def _page(self, record: object, source: str) -> Page | None:
        WarcRecordType = _fastwarc().WarcRecordType

        rtype = record.record_type  # type: ignore[attr-defined]
        if rtype not in (WarcRecordType.response, WarcRecordType.resource):
            self.skipped[str(rtype)] += 1
            return None
        headers = record.headers  # type: ignore[attr-defined]
        url = headers.get("WARC-Target-URI")
        record_id = record.record_id  # type: ignore[attr-defined]
        date = headers.get("WARC-Date")
        offset = record.stream_pos  # type: ignore[attr-defined]
        content_type: str | None
        status: int | None = None
        if record.is_http:  # type: ignore[attr-defined]
            http = record.http_headers  # type: ignore[attr-defined]
            content_type = http.get("Content-Type")
            status = http.status_code
        else:
            content_type = headers.get("Content-Type")
        if content_type and not is_html_type(content_type):
            self.skipped["non_html"] += 1
            record.consume()  # type: ignore[attr-defined]
            return None
        expected = record.content_length  # type: ignore[attr-defined]

        def unreadable(reason: str) -> Page:
            return Page(
                b"", source, url, content_type, record_id, date, offset, status,
                InvalidInput.code, reason,
            )  # fmt: skip

        try:
            payload = record.reader.read(self.max_payload_bytes + 1)  # type: ignore[attr-defined]
        except OSError as exc:  # a payload whose Content-Encoding does not decode
            return unreadable(f"unreadable payload: {exc}")
        if not content_type and not sniff_html(payload):
            self.skipped["non_html"] += 1
            return None
        if len(payload) < min(expected, self.max_payload_bytes + 1) and not _decoded(record):
            return unreadable(f"truncated record: {len(payload)} of {expected} payload bytes")
        return Page(payload, source, url, content_type, record_id, date, offset, status)


def is_url(path: str | Path) -> bool:
    return "://" in str(path)


def open_input(path: str | Path) -> BinaryIO:
    """A seekable binary file: local, or remote through fsspec (``s3://``, ``gs://``...)."""
    try:
        if not is_url(path):
            return Path(path).open("rb")
        try:
            import fsspec
        except ImportError:
            raise FileAccessError(
                f"reading {path} needs fsspec (and its driver for the scheme): pip install fsspec"
            ) from None
        handle: BinaryIO = fsspec.open(str(path), "rb").open()
        return handle
    except OSError as exc:
        raise FileAccessError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # fsspec: an unknown protocol
        raise FileAccessError(f"cannot read {path}: {exc}") from None


def _decoded(record: object) -> bool:
    # A gzip- or chunked-encoded payload decodes to a length unrelated to Content-Length.
    http = record.http_headers  # type: ignore[attr-defined]
    return bool(http.get("Content-Encoding") or http.get("Transfer-Encoding"))


def read_html_files(
    paths: Iterable[str | Path], *, base_url: str | None = None, max_bytes: int = 4 << 20
) -> Iterator[Page]:
    """Pages from HTML files (``.html``, ``.htm``, ``.xhtml``, each maybe compressed:
    ``.gz``, ``.zst``, ``.br``) and directories of them.

    A directory is walked recursively in sorted order (the output order is stable); a
    file that cannot be read or decompressed becomes a failed page, like a broken record.
    ``base_url`` gives the pages their URLs: a file given by name gets ``base_url``
    itself, a file inside a directory its path under the directory resolved against
    ``base_url`` (``docs/a/b.html.gz`` -> ``<base_url>/a/b.html``). At most
    ``max_bytes`` + 1 bytes of a page are read (decompressed), enough for the extractor
    to flag ``truncated``.
    """
    for path in paths:
        path = Path(path)
        if path.is_dir():
            base = base_url if base_url is None or base_url.endswith("/") else base_url + "/"
            for file in sorted(p for p in path.rglob("*") if p.is_file() and _is_html_name(p)):
                url = urljoin(base, quote(_page_name(file.relative_to(path)))) if base else None
                yield _html_file(file, url, max_bytes)
        else:
            yield _html_file(path, base_url, max_bytes)


_HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def _is_html_name(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith(_HTML_SUFFIXES) or name.endswith(
        tuple(html + packed for html in _HTML_SUFFIXES for packed in COMPRESSED_SUFFIXES)
    )


def _page_name(relative: Path) -> str:
    """The URL path of a page file: its path without the compression suffix."""
    name = relative.as_posix()
    for suffix in COMPRESSED_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _html_file(path: Path, url: str | None, max_bytes: int) -> Page:
    try:
        data = read_page_file(path, max_bytes)
    except UnchromeError as exc:
        return Page(b"", str(path), url, error_code=exc.code, error=str(exc))
    return Page(data, str(path), url)


def is_warc_path(path: str | Path) -> bool:
    return str(path).lower().endswith((".warc", ".warc.gz", ".warc.zst"))
