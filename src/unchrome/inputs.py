"""Local inputs: pages compressed with gzip, zstd or brotli, and lists of URLs.

Used by the command line (``unchrome page.html.gz``, ``unchrome urls.txt``), by
``extract_file``, by ``unchrome warc`` on directories of HTML files, and by the
service for a body sent with ``Content-Encoding: gzip``. Decompression is streamed and stops one
byte past the extractor's cap (``Config.max_input_bytes``), so a small file that
inflates to gigabytes costs no more than a page at the cap; the extractor then flags
the result ``truncated``. gzip is the standard library's; zstd and brotli are read
with FastWARC's readers (a core dependency, which reads ``.warc.zst`` with them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from unchrome.errors import FileAccessError, InvalidInput, UnsupportedContent, import_extra

GZIP_MAGIC = b"\x1f\x8b"
# A WARC file opens with its first record's version line ("WARC/1.0", "WARC/1.1").
WARC_MAGIC = b"WARC/"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# Brotli streams have no magic number: they are known by the file name alone.
BROTLI_SUFFIX = ".br"
#: The file names of compressed pages (``unchrome warc`` on a directory reads these).
COMPRESSED_SUFFIXES = (".gz", ".zst", ".zstd", ".br")

_URL = re.compile(r"^https?://", re.IGNORECASE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_CHUNK = 1 << 20


def compression(head: bytes, name: str = "") -> str | None:
    """``gzip``, ``zstd`` or ``brotli`` when the bytes (or, for brotli, the name) say
    so; None for a plain file."""
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(ZSTD_MAGIC):
        return "zstd"
    if name.lower().endswith(BROTLI_SUFFIX):
        return "brotli"
    return None


def _reader(kind: str) -> Callable[[BinaryIO], BinaryIO]:
    """The decompressing reader of ``kind`` (see compression)."""
    if kind == "gzip":
        # Imported here: a plain page does without gzip (and the struct and
        # _compression modules it imports), 1.1 ms of a command-line start.
        import gzip

        return lambda raw: gzip.GzipFile(fileobj=raw)
    # Zstandard and Brotli come from FastWARC's stream readers, part of the [warc] extra.
    stream_io = import_extra("fastwarc.stream_io", "warc", f"reading a {kind}-compressed page")
    return stream_io.ZstdReader if kind == "zstd" else stream_io.BrotliReader


def read_page(stream: BinaryIO, name: str, max_bytes: int) -> bytes:
    """At most ``max_bytes`` + 1 bytes of the page that ``stream`` holds, decompressed
    when it is compressed. ``stream`` must be peekable (a file opened ``rb``,
    ``sys.stdin.buffer``). A stream that does not decompress is INVALID_INPUT."""
    peek = getattr(stream, "peek", None)
    head = peek(4)[:4] if peek is not None else b""
    kind = compression(head, name)
    data = stream.read(max_bytes + 1) if kind is None else inflate(stream, kind, name, max_bytes)
    if data.startswith(WARC_MAGIC):
        # Its records read as one page would be every page of the crawl run together.
        raise UnsupportedContent(
            f"{name} is a WARC archive, not a page: 'unchrome warc {name}' extracts each "
            "of its records"
        )
    return data


def inflate(stream: BinaryIO, kind: str, name: str, max_bytes: int) -> bytes:
    """At most ``max_bytes`` + 1 bytes of ``stream`` decompressed as ``kind`` (see
    compression); INVALID_INPUT when it does not decompress."""
    import zlib  # beside gzip (see _reader)

    try:
        return _read_at_most(_reader(kind)(stream), max_bytes + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InvalidInput(f"cannot decompress {name} ({kind}): {exc}") from None


def _read_at_most(reader: BinaryIO, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = reader.read(min(limit - size, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_page_file(path: str | Path, max_bytes: int) -> bytes:
    """A page file, decompressed (see read_page). Errors name the file: it is the
    caller's own."""
    from unchrome.errors import FileAccessError

    try:
        with Path(path).open("rb") as stream:
            return read_page(stream, str(path), max_bytes)
    except IsADirectoryError:
        raise FileAccessError(f"{path} is a directory") from None
    except FileNotFoundError:
        raise FileAccessError(f"cannot open {path}: no such file") from None
    except OSError as exc:
        raise FileAccessError(f"cannot read {path}: {exc.strerror or exc}") from None


# ----------------------------------------------------------------------------- URL lists


def is_url(text: str) -> bool:
    return _URL.match(text) is not None


def has_scheme(text: str) -> bool:
    """Whether ``text`` opens with a URL scheme (``ftp://``, ``file://``...)."""
    return _SCHEME.match(text) is not None


def url_list(path: Path) -> list[tuple[int, str]] | None:
    """The entries of a URL list, as (line number, text), or None when ``path`` is a
    page. A URL list is a ``.txt`` file that is not markup and names at least one
    http(s) URL; blank lines and ``#`` comments are skipped, and every other line is
    an entry, a URL or not (the caller reports a line that is not as that line's
    error, rather than reading the list as a page)."""
    if path.suffix.lower() != ".txt" or not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    if text.lstrip("\ufeff \t\r\n").startswith("<"):
        return None
    entries = [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return entries if any(is_url(entry) for _, entry in entries) else None


def read_confined(
    path: str | os.PathLike[str], *, root: str | os.PathLike[str] | None, max_bytes: int
) -> bytes:
    """Read at most ``max_bytes`` + 1 bytes of the page ``path`` holds, decompressed as
    read_page does (a ``.gz`` page reads as the page); ``path`` must stay inside
    ``root``.

    The check runs on the fully resolved path (symlinks followed), so neither ``..``
    nor a symlink can leave the root. Messages name only the file's base name: the
    service may echo them to remote callers.
    """
    name = Path(path).name or "file"
    base = Path(root if root is not None else os.getcwd()).resolve()
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = base / candidate
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError):
        raise FileAccessError(f"cannot open {name!r}: no such file") from None
    if root is not None and not resolved.is_relative_to(base):
        raise FileAccessError(f"{name!r} is outside the allowed root")
    if not resolved.is_file():
        raise FileAccessError(f"{name!r} is not a regular file")
    try:
        fh = resolved.open("rb")
    except OSError:
        raise FileAccessError(f"cannot read {name!r}") from None
    with fh:
        try:
            # One byte past the cap, so that extract() can report truncation.
            return read_page(fh, name, max_bytes)
        except OSError:
            raise FileAccessError(f"cannot read {name!r}") from None
