"""Sitemaps (``urlset``, ``sitemapindex``, gzipped or not) and feeds (RSS, Atom, JSON
Feed): the URLs they list, parsed as a stream.

XML is parsed by defusedxml's ``iterparse`` (the standard library's expat underneath):
a document that declares entities (the billion-laughs bomb, external entities) is
refused, not expanded. Elements are dropped as soon as their URL is read, so memory
stays flat however many URLs a sitemap lists, and a gzipped sitemap is inflated as it
is parsed, under the same byte cap as a plain one.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Literal
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from unchrome.errors import InvalidInput

MiB = 1024 * 1024
# The sitemaps protocol's own limits: 50,000 URLs and 50 MB (uncompressed) a file.
MAX_SITEMAP_BYTES = 50 * MiB
MAX_SITEMAP_URLS = 50_000

Kind = Literal["page", "sitemap"]


@dataclass(frozen=True, slots=True)
class Entry:
    """A URL a sitemap or feed lists: a page, or (in an index) another sitemap."""

    kind: Kind
    url: str


class _Capped(io.RawIOBase):
    """A reader that ends after ``limit`` bytes and says so (``cut``)."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self.stream, self.left, self.cut = stream, limit, False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.left <= 0:
            self.cut = self.cut or bool(self.stream.read(1))
            return 0
        # A short read is not the end: fill the buffer (peek must see the first bytes).
        want, data = min(len(buffer), self.left), b""
        while len(data) < want:
            more = self.stream.read(want - len(data))
            if not more:
                break
            data += more
        self.left -= len(data)
        buffer[: len(data)] = data
        return len(data)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def parse(
    data: bytes | IO[bytes],
    *,
    max_bytes: int = MAX_SITEMAP_BYTES,
    max_urls: int = MAX_SITEMAP_URLS,
) -> Iterator[Entry]:
    """The entries of a sitemap or feed, in document order, at most ``max_urls``.

    Raises :class:`InvalidInput` for a document that is no sitemap or feed (HTML, say),
    that declares entities, or that breaks off (malformed, truncated, cut at
    ``max_bytes``); the entries before the fault have been yielded by then.
    """
    stream: IO[bytes] = io.BytesIO(data) if isinstance(data, bytes) else data
    head = stream.read(2)
    stream = _Rewound(head, stream)
    if head == b"\x1f\x8b":
        stream = gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[assignment]
    capped = _Capped(stream, max_bytes)
    reader = io.BufferedReader(capped, 64 * 1024)
    try:
        first = reader.peek(256)[:256].lstrip(b"\xef\xbb\xbf \t\r\n")
        if first.startswith((b"{", b"[")):
            yield from _json_feed(reader, max_bytes, max_urls)
            return
        if _HTML_START.match(first):
            raise InvalidInput("not a sitemap or feed: the document is HTML")
        yield from _xml(reader, max_urls)
    except DefusedXmlException as exc:
        raise InvalidInput(f"refused XML: {type(exc).__name__} (entity declarations)") from None
    except ParseError as exc:
        if capped.cut:
            raise InvalidInput(f"sitemap over {max_bytes} bytes: read up to the cap") from None
        raise InvalidInput(f"malformed XML: {exc}") from None
    except (OSError, EOFError, zlib.error) as exc:  # a corrupt or truncated gzip
        raise InvalidInput(f"corrupt gzip: {exc}") from None


_HTML_START = re.compile(rb"(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S)


class _Rewound(io.RawIOBase):
    """``stream`` with the bytes already read from it put back in front."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self.head, self.stream = head, stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = min(len(buffer), len(self.head))
        buffer[:n] = self.head[:n]
        self.head = self.head[n:]
        data = self.stream.read(len(buffer) - n) if n < len(buffer) else b""
        buffer[n : n + len(data)] = data
        return n + len(data)


# Elements whose end completes one entry, by root kind.
_RECORDS = {"urlset": "url", "sitemapindex": "sitemap", "rss": "item", "rdf": "item"}


def _xml(stream: IO[bytes], max_urls: int) -> Iterator[Entry]:
    events = iterparse(stream, events=("start", "end"), forbid_dtd=False, forbid_entities=True)
    stack: list[Element] = []
    root = ""
    count = 0
    for event, element in events:
        if event == "start":
            if not stack:
                root = _local(element.tag)
                if root not in (*_RECORDS, "feed"):
                    raise InvalidInput(f"not a sitemap or feed: the document is <{root}>")
            stack.append(element)
            continue
        stack.pop()
        name = _local(element.tag)
        record = _RECORDS.get(root, "entry")
        if name != record:
            continue
        url = _entry_url(element, root)
        # The entry is read: drop it (and what its parent holds), so that memory does not
        # grow with the document.
        element.clear()
        if stack:
            stack[-1].clear()
        if url:
            yield Entry("sitemap" if root == "sitemapindex" else "page", url)
            count += 1
            if count >= max_urls:
                return


def _entry_url(element: Element, root: str) -> str | None:
    if root in ("urlset", "sitemapindex"):
        for child in element:
            if _local(child.tag) == "loc":
                return (child.text or "").strip() or None
        return None
    if root == "feed":  # Atom: <link href> whose rel is alternate (the default)
        for child in element:
            if _local(child.tag) == "link" and child.get("rel", "alternate") == "alternate":
                return (child.get("href") or "").strip() or None
        return None
    guid = None
    for child in element:  # RSS 2.0 / RSS 1.0: <link>, else a permalink <guid>
        name = _local(child.tag)
        if name == "link" and (child.text or "").strip():
            return (child.text or "").strip()
        if name == "guid" and child.get("isPermaLink", "true") != "false":
            guid = (child.text or "").strip() or None
    return guid


def _json_feed(stream: IO[bytes], max_bytes: int, max_urls: int) -> Iterator[Entry]:
    raw = stream.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise InvalidInput(f"JSON feed over {max_bytes} bytes")
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise InvalidInput(f"malformed JSON feed: {exc}") from None
    items = doc.get("items") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise InvalidInput("not a JSON Feed: no items list")
    for item in items[:max_urls]:
        if isinstance(item, dict):
            url = item.get("url") or item.get("external_url")
            if isinstance(url, str) and url.strip():
                yield Entry("page", url.strip())
