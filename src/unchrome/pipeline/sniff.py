"""Input sniffing, before anything is decoded: the size cap, and the inputs that are no
page (a media type that is no markup, a PDF or image by its magic number, binary data,
JSON), each refused by name."""

from __future__ import annotations

import json
from collections.abc import Callable

from unchrome.errors import InvalidInput, UnsupportedContent
from unchrome.rules.formats import HTML_TYPES, XML_TYPES

# Magic numbers of formats that are surely not HTML: answering them with a clear
# UNSUPPORTED_CONTENT beats "extracting" a PDF's byte soup.
_MAGIC = (
    (b"%PDF-", "a PDF"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"RIFF", "RIFF media"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"\x7fELF", "an executable"),
)
# Media types extract() reads as markup (text/plain: servers label pages so by mistake).
_MARKUP_TYPES = HTML_TYPES | XML_TYPES | {"text/plain"}
# Share of control bytes in the first KiB above which the input is binary, not text.
# Random bytes hold 10.5% (27 of the 256 values), 2,027 real pages (the WCXB dev, news
# and Readability sets) none; at 0.1 half of 4 KiB random inputs passed for text.
BINARY_CONTROL_SHARE = 0.02
# UTF-16 without a byte order mark: every other byte of its ASCII markup is NUL.
UTF16_NUL_SHARE = 0.3
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


def refuse_json(head: str, text: Callable[[], str]) -> None:
    """An API response (WordPress's {"content": {"rendered": "<p>..."}}) is data, not
    a page, even when its strings hold HTML. The whole text is read only when its
    head opens like JSON."""
    if head.lstrip()[:1] in ("{", "[") and _is_json(text()):
        raise UnsupportedContent("the input is JSON, not HTML")


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except RecursionError:
        # Arrays or objects nested past the parser's stack: JSON, not a page.
        return True
    except ValueError:
        return False
    return True


def check_input(data: bytes | str, content_type: str | None, cap: int) -> tuple[bytes | str, bool]:
    """The input as bytes or str, cut at ``cap`` bytes (and whether it was), or a named
    refusal: not bytes or str (INVALID_INPUT), empty, a media type that is no markup, a
    file format's magic number, or binary data (UNSUPPORTED_CONTENT)."""
    if not isinstance(data, bytes | bytearray | memoryview | str):
        raise InvalidInput(f"expected bytes or str, got {type(data).__name__}")
    if isinstance(data, bytearray | memoryview):
        data = bytes(data)
    truncated = False
    if isinstance(data, bytes):
        if len(data) > cap:
            data, truncated = data[:cap], True
    elif len(data) > cap // 4 and len(data.encode("utf-8", "surrogatepass")) > cap:
        data, truncated = (
            data.encode("utf-8", "surrogatepass")[:cap].decode("utf-8", "ignore"),
            True,
        )
    # isspace() scans without copying; strip() copied up to 4 MiB on every call.
    if not data or data.isspace():
        raise InvalidInput("the input is empty")
    if content_type:
        mime = content_type.split(";", 1)[0].strip().lower()
        if mime and not (mime in _MARKUP_TYPES or mime.endswith(("+xml", "/xml"))):
            raise UnsupportedContent(f"content type {mime!r} is not HTML")
    if isinstance(data, bytes):
        head = data[:1024]
        for magic, name in _MAGIC:
            if head.startswith(magic):
                raise UnsupportedContent(f"the input is {name}, not HTML")
        # UTF-16 without a BOM is full of NULs too; decode() sniffs it, so only
        # call the input binary when it does not look like markup either.
        half = max(1, len(head) // 2)
        utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff") or (
            max(head[0::2].count(0), head[1::2].count(0)) > UTF16_NUL_SHARE * half
        )
        control = len(head) - len(head.translate(None, _CONTROL))
        if not utf16 and control > len(head) * BINARY_CONTROL_SHARE:
            raise UnsupportedContent("the input is binary data, not HTML")
    return data, truncated
