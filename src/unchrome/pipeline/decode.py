"""Bytes to text: the first stage of the pipeline.

``decode`` picks a character encoding the way browsers (and w3lib) do, most trusted source
first::

    override (manual) > byte order mark > Content-Type header > <meta> in the first 4 KB
    > byte sniffing > UTF-8 with replacement characters

It never raises: whatever the input, even binary garbage, it returns text.

Two deliberate departures from a browser, both because we extract content rather than
render pages faithfully:

* A declared legacy encoding loses to UTF-8 when the bytes have non-ASCII content and are
  valid UTF-8 as a whole. Templates that still say ``charset=iso-8859-1`` over a UTF-8 body
  are common, while legacy text that happens to be valid UTF-8 is vanishingly rare.
* A declaration that decodes with a high share of errors is treated as a lie and the next
  source is tried (meta after header, then sniffing), instead of rendering U+FFFD soup.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from functools import cache

from unchrome._native._markup import valid_utf8

__all__ = ["Decoded", "decode"]

# WHATWG's prescan reads 1024 bytes; real pages put big comments, scripts and link tags
# before their charset meta, so look a little further. Past this, sniffing takes over.
META_SCAN_BYTES = 4096
# Sniffing cost grows with its input; 64 KB holds plenty of text to tell encodings apart.
SNIFF_BYTES = 64 * 1024
# A declared encoding is believed despite decoding errors up to this share of the
# non-ASCII characters. Genuine UTF-8 with a few stray bytes stays far below it; text in a
# different encoding than declared lands far above it (nearly every non-ASCII byte fails).
MAX_ERROR_SHARE = 0.3


class Decoded:
    """Decoded text and the name of the encoding it was decoded from.

    ``encoding`` is a canonical lowercase WHATWG-style name ("utf-8", "shift_jis",
    "windows-1252", ...), not necessarily the Python codec that did the work: "shift_jis"
    is decoded with cp932, "euc-kr" with cp949, and so on.

    ``utf8``: the text's UTF-8 bytes where they are the input itself (whole, valid
    UTF-8 from which nothing was removed), else None. The text is then made from them
    on first use: lexbor parses UTF-8, so the pipeline parses these bytes and never
    needs the str (decoding took 0.15 ms at the median news page, and encoding the str
    again for lexbor 0.26 ms at the mean page of 699 of both sets).
    """

    __slots__ = ("_text", "encoding", "utf8")

    def __init__(self, text: str | None, encoding: str, utf8: bytes | None = None) -> None:
        if text is None and utf8 is None:
            raise ValueError("Decoded needs its text or the UTF-8 bytes of it")
        self._text = text
        self.encoding = encoding
        self.utf8 = utf8

    @property
    def text(self) -> str:
        if self._text is None:
            assert self.utf8 is not None
            self._text = self.utf8.decode("utf-8")
        return self._text

    def head(self, chars: int) -> str:
        """The text's first ``chars`` characters, without making the rest of it."""
        if self._text is not None or self.utf8 is None:
            return self.text[:chars]
        # A character takes at most four bytes; a cut one at the end is dropped.
        return self.utf8[: 4 * chars].decode("utf-8", "ignore")[:chars]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decoded):
            return NotImplemented
        return (self.text, self.encoding) == (other.text, other.encoding)

    def __hash__(self) -> int:
        return hash((self.text, self.encoding))

    def __repr__(self) -> str:
        return f"Decoded(text={self.text!r}, encoding={self.encoding!r})"


# Canonical name -> Python codecs to try in order. The first is the main one: it is used
# with errors="replace" when none of them decodes strictly. Later ones are supersets or
# siblings that real pages rely on (Microsoft or JIS X 0213 extensions, HKSCS vs cp950).
_DECODERS: dict[str, tuple[str, ...]] = {
    "utf-8": ("utf-8",),
    "utf-16le": ("utf-16-le",),
    "utf-16be": ("utf-16-be",),
    "utf-32le": ("utf-32-le",),
    "utf-32be": ("utf-32-be",),
    "windows-874": ("cp874",),
    "windows-1250": ("cp1250",),
    "windows-1251": ("cp1251",),
    "windows-1252": ("cp1252",),
    "windows-1253": ("cp1253",),
    "windows-1254": ("cp1254",),
    "windows-1255": ("cp1255",),
    "windows-1256": ("cp1256",),
    "windows-1257": ("cp1257",),
    "windows-1258": ("cp1258",),
    "iso-8859-2": ("iso8859-2",),
    "iso-8859-3": ("iso8859-3",),
    "iso-8859-4": ("iso8859-4",),
    "iso-8859-5": ("iso8859-5",),
    "iso-8859-6": ("iso8859-6",),
    "iso-8859-7": ("iso8859-7",),
    "iso-8859-8": ("iso8859-8",),
    "iso-8859-10": ("iso8859-10",),
    "iso-8859-13": ("iso8859-13",),
    "iso-8859-14": ("iso8859-14",),
    "iso-8859-15": ("iso8859-15",),
    "iso-8859-16": ("iso8859-16",),
    "koi8-r": ("koi8-r",),
    "koi8-u": ("koi8-u",),
    "ibm866": ("cp866",),
    "macintosh": ("mac-roman",),
    "x-mac-cyrillic": ("mac-cyrillic",),
    # Pages labelled Shift_JIS are written on Windows: cp932 (NEC and IBM extensions) is
    # what browsers decode; shift_jis_2004 rescues the JIS X 0213 characters it lacks.
    "shift_jis": ("cp932", "shift_jis_2004"),
    # Python's euc_jp lacks the NEC row 13 (circled digits...) that eucJP-ms pages use.
    "euc-jp": ("euc_jp", "euc_jis_2004"),
    # The _ext variant adds half-width katakana, which the WHATWG decoder accepts.
    "iso-2022-jp": ("iso2022_jp", "iso2022_jp_ext", "iso2022_jp_2"),
    "iso-2022-kr": ("iso2022_kr",),
    # WHATWG's euc-kr is Microsoft's Unified Hangul Code, a superset of EUC-KR.
    "euc-kr": ("cp949",),
    # GB18030 is a superset of GBK, which is a superset of GB2312.
    "gb18030": ("gb18030",),
    # WHATWG's big5 follows HKSCS; cp950 still holds a few Microsoft-only code points.
    "big5": ("big5hkscs", "cp950"),
}

# Labels per canonical name: the WHATWG Encoding Standard's labels, plus the spellings that
# Python codecs and charset-normalizer use, so sniffed names resolve through the same table.
_LABELS: dict[str, str] = {
    "utf-8": "utf-8 utf8 unicode-1-1-utf-8 unicode11utf8 unicode20utf8 x-unicode20utf8",
    "utf-16le": "utf-16 utf-16le utf16 ucs-2 unicode csunicode iso-10646-ucs-2 unicodefeff",
    "utf-16be": "utf-16be unicodefffe",
    "utf-32le": "utf-32 utf-32le utf32",
    "utf-32be": "utf-32be",
    # Browsers decode these as windows-1252, a superset that also covers the curly quotes
    # and dashes that "latin-1" pages actually contain.
    "windows-1252": (
        "windows-1252 cp1252 x-cp1252 iso-8859-1 iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 "
        "iso-ir-100 latin1 latin-1 l1 csisolatin1 ibm819 cp819 ascii us-ascii ansi_x3.4-1968 "
        "iso646-us x-user-defined"
    ),
    "windows-874": "windows-874 cp874 dos-874 tis-620 iso-8859-11 iso8859-11 iso885911",
    "windows-1250": "windows-1250 cp1250 x-cp1250",
    "windows-1251": "windows-1251 cp1251 x-cp1251",
    "windows-1253": "windows-1253 cp1253 x-cp1253",
    "windows-1254": (
        "windows-1254 cp1254 x-cp1254 iso-8859-9 iso8859-9 iso88599 iso_8859-9 latin5 l5 "
        "csisolatin5"
    ),
    "windows-1255": "windows-1255 cp1255 x-cp1255",
    "windows-1256": "windows-1256 cp1256 x-cp1256",
    "windows-1257": "windows-1257 cp1257 x-cp1257",
    "windows-1258": "windows-1258 cp1258 x-cp1258",
    "iso-8859-2": (
        "iso-8859-2 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 iso-ir-101 latin2 l2 csisolatin2"
    ),
    "iso-8859-3": "iso-8859-3 iso8859-3 iso88593 iso_8859-3 latin3 l3",
    "iso-8859-4": "iso-8859-4 iso8859-4 iso88594 iso_8859-4 latin4 l4",
    "iso-8859-5": "iso-8859-5 iso8859-5 iso88595 iso_8859-5 cyrillic csisolatincyrillic iso-ir-144",
    "iso-8859-6": "iso-8859-6 iso8859-6 iso88596 iso_8859-6 arabic iso-8859-6-i iso-8859-6-e",
    "iso-8859-7": "iso-8859-7 iso8859-7 iso88597 iso_8859-7 greek greek8",
    "iso-8859-8": (
        "iso-8859-8 iso8859-8 iso88598 iso_8859-8 hebrew iso-8859-8-i iso-8859-8-e visual logical"
    ),
    "iso-8859-10": "iso-8859-10 iso8859-10 iso885910 latin6 l6",
    "iso-8859-13": "iso-8859-13 iso8859-13 iso885913",
    "iso-8859-14": "iso-8859-14 iso8859-14 iso885914",
    "iso-8859-15": "iso-8859-15 iso8859-15 iso885915 iso_8859-15 latin9 latin-9 l9 csisolatin9",
    "iso-8859-16": "iso-8859-16 iso8859-16",
    "koi8-r": "koi8-r koi8 koi cskoi8r",
    "koi8-u": "koi8-u koi8-ru",
    "ibm866": "ibm866 cp866 866 csibm866",
    "macintosh": "macintosh mac csmacintosh x-mac-roman mac-roman",
    "x-mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian mac-cyrillic",
    "shift_jis": (
        "shift_jis shift-jis sjis x-sjis s-jis ms_kanji ms932 csshiftjis windows-31j cp932 "
        "shift-jis-2004 shift-jisx0213"
    ),
    "euc-jp": "euc-jp eucjp x-euc-jp cseucpkdfmtjapanese euc-jis-2004 euc-jisx0213 eucjp-ms",
    "iso-2022-jp": "iso-2022-jp iso2022-jp csiso2022jp iso2022-jp-ext iso2022-jp-2 iso-2022-jp-2",
    "iso-2022-kr": "iso-2022-kr iso2022-kr csiso2022kr",
    "euc-kr": (
        "euc-kr euckr cseuckr csksc56011987 iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 "
        "ksc5601 ksc_5601 windows-949 cp949 uhc"
    ),
    "gb18030": (
        "gb18030 gbk x-gbk gb2312 gb_2312 gb_2312-80 csgb2312 chinese csiso58gb231280 iso-ir-58 "
        "cp936 ms936 windows-936 euc-cn euccn"
    ),
    "big5": "big5 big5-hkscs big5hkscs cn-big5 csbig5 x-x-big5 cp950",
}

_LABEL_TO_CANON: dict[str, str] = {
    label: canon for canon, labels in _LABELS.items() for label in labels.split()
}

_UNICODE = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"})
_UTF16_32 = _UNICODE - {"utf-8"}


def _c1_fallback(err: UnicodeError) -> tuple[str, int]:
    # Python leaves a few windows-125x bytes (0x81, 0x8D, ...) undefined; the WHATWG
    # indexes map them to the C1 control of the same value. Doing the same keeps a stray
    # byte from counting as a decoding error that would throw out a correct declaration.
    if not isinstance(err, UnicodeDecodeError):
        raise err
    return err.object[err.start : err.end].decode("latin-1"), err.end


codecs.register_error("unchrome.c1", _c1_fallback)


def _resolve(label: str | bytes | None) -> str | None:
    """Canonical encoding name for a charset label, or None when the label is unknown."""
    if label is None:
        return None
    if isinstance(label, bytes):
        label = label.decode("ascii", "ignore")
    # Quotes, spaces and a trailing "/" (``<meta charset=utf-8/>``) are markup noise.
    key = label.strip().strip("\"'/").strip().lower()
    # Only names from the table resolve: codecs.lookup would also accept "rot13",
    # "utf-7" or "unicode_escape", which no web page means and some are unsafe.
    return _LABEL_TO_CANON.get(key) or _LABEL_TO_CANON.get(key.replace("_", "-"))


def _errors_for(canon: str) -> str:
    return "unchrome.c1" if canon.startswith("windows-") else "strict"


def _decode_as(data: bytes, canon: str, *, count: bool = True) -> tuple[str, int]:
    """Decode with a canonical encoding; return the text and its number of errors.

    Errors become U+FFFD. ``count=False`` skips counting them (0 is returned): where the
    result is final anyway, a pass over the text is wasted time.

    A truncated final character (pages are cut at a size limit) is dropped rather than
    counted: the incremental decoders with ``final=False`` keep it pending.
    """
    decoders = _DECODERS[canon]
    strict = _errors_for(canon)
    for codec in decoders:
        try:
            return codecs.getincrementaldecoder(codec)(strict).decode(data, False), 0
        except UnicodeDecodeError:
            continue
    errors = "replace" if strict == "strict" else strict
    text = codecs.getincrementaldecoder(decoders[0])(errors).decode(data, False)
    if not count:
        return text, 0
    # A document may contain real U+FFFD characters; counting them as errors errs on the
    # side of distrusting the declaration, which only costs a sniffing pass.
    return text, max(1, text.count("\ufffd"))


def _utf8_strict(data: bytes) -> tuple[bool, str | None, int]:
    """Whether ``data`` is strict UTF-8 (a truncated final character tolerated); the
    text, None where ``data`` is whole, valid UTF-8 (the text is then made from it on
    first use, see Decoded.utf8); and the first bad offset, -1 where valid."""
    if valid_utf8(data):
        return True, None, -1
    try:
        return True, codecs.utf_8_decode(data, "strict", False)[0], -1
    except UnicodeDecodeError as err:
        return False, None, err.start


def _too_many_errors(text: str, errors: int) -> bool:
    """Whether ``errors`` U+FFFD in ``text`` mean the encoding was wrong, not the bytes."""
    if not errors:
        return False
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return errors > MAX_ERROR_SHARE * non_ascii


# --- declarations ---------------------------------------------------------------------

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    # UTF-32 first: its little-endian BOM starts with the UTF-16 one.
    (codecs.BOM_UTF32_LE, "utf-32le"),
    (codecs.BOM_UTF32_BE, "utf-32be"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)


def _bom(data: bytes) -> tuple[str, int] | None:
    for bom, canon in _BOMS:
        if data.startswith(bom):
            if canon == "utf-32le":
                # FF FE 00 00 is also a UTF-16LE BOM followed by U+0000: only call it
                # UTF-32 when what follows decodes as such.
                head = data[4 : 4 + 1024]
                try:
                    head[: len(head) // 4 * 4].decode("utf-32-le")
                except UnicodeDecodeError:
                    continue
            return canon, len(bom)
    return None


_CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?\s*([^\s;"',]+)""", re.I)
_CHARSET_PARAM_B = re.compile(rb"""charset\s*=\s*["']?\s*([^\s;"',>/]+)""", re.I)
_COMMENT = re.compile(rb"<!--.*?-->", re.S)
_NAMED_META = frozenset({b"name", b"property", b"itemprop"})
_META_TAG = re.compile(rb"<meta[\s/][^>]*>", re.I)
_ATTR = re.compile(
    rb"""([^\s"'=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""",
)


def _header_charset(content_type: str | bytes | None) -> str | None:
    if not content_type:
        return None
    if isinstance(content_type, bytes):
        # Raw header bytes from a low-level client; header values are Latin-1 by HTTP.
        content_type = content_type.decode("latin-1")
    match = _CHARSET_PARAM.search(content_type)
    return _resolve(match.group(1)) if match else None


def _meta_charset(data: bytes) -> str | None:
    """Charset from the first ``<meta charset>`` / http-equiv Content-Type that resolves."""
    head = data[:META_SCAN_BYTES]
    if b"<!--" in head:
        # A commented-out meta is a leftover, not a declaration (the WHATWG prescan skips
        # comments too).
        head = _COMMENT.sub(b"", head)
    for tag in _META_TAG.finditer(head):
        attrs: dict[bytes, bytes] = {}
        for m in _ATTR.finditer(tag.group(0), 5):
            name = m.group(1).lower()
            if name not in attrs:
                attrs[name] = m.group(2) or m.group(3) or m.group(4) or b""
        label: bytes | None = None
        if b"charset" in attrs:
            label = attrs[b"charset"]
        elif b"content" in attrs:
            equiv = attrs.get(b"http-equiv", b"").strip().lower()
            # Tolerate a missing http-equiv (seen in the wild) unless the meta is
            # clearly something else, like a description that mentions "charset=".
            if equiv == b"content-type" or not (equiv or attrs.keys() & _NAMED_META):
                match = _CHARSET_PARAM_B.search(attrs[b"content"])
                label = match.group(1) if match else None
        canon = _resolve(label)
        if canon is not None:
            # The bytes we just matched are ASCII, so the document is not UTF-16/32 and
            # WHATWG says to read such a declaration as UTF-8.
            return "utf-8" if canon in _UTF16_32 else canon
    return None


# --- sniffing ---------------------------------------------------------------------------

_ISO2022_ESC = {
    "iso-2022-jp": re.compile(rb"\x1b(?:\$[@B]|\(J|\(I|\$\(D)"),
    "iso-2022-kr": re.compile(rb"\x1b\$\)C"),
}
_SCRIPT_STYLE = re.compile(rb"<(script|style)\b.*?</\1\s*>", re.I | re.S)
_TAG = re.compile(rb"<[^>]*>")
# C0 controls that text never contains (tab, newlines, form feed, SO/SI and ESC are left
# out: text and the ISO-2022 encodings use them).
_BINARY_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x10, 0x1B), *range(0x1C, 0x20)])
_HIGH_BYTES = bytes(range(0x80, 0x100))
_ASCII_BYTES = bytes(range(0x80))


def _sniff_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM: markup, spaces and digits are ASCII, whose high byte is zero.

    So zero bytes pile up at odd offsets (little-endian) or even ones (big-endian). Text
    (CJK, Cyrillic) has few zero bytes at either parity, and binary has them at both.
    """
    head = data[:1024]
    half = len(head) // 2
    if half < 4 or b"\x00" not in head:
        return None
    even, odd = head[0::2].count(0), head[1::2].count(0)
    many, few = max(even, odd), min(even, odd)
    # A handful of zeros in a short input prove nothing: stray NULs happen in UTF-8 too.
    if many < max(4, 0.05 * half) or few * 8 > many:
        return None
    return "utf-16le" if odd > even else "utf-16be"


def _sniff_iso2022(data: bytes) -> str | None:
    if b"\x1b" not in data:
        return None
    head = data[:SNIFF_BYTES]
    for canon, pattern in _ISO2022_ESC.items():
        if pattern.search(head):
            return canon
    return None


def _sample(data: bytes, bad_offset: int) -> bytes:
    """A bounded window of ``data`` that starts near its first non-UTF-8 byte.

    The head of a page is mostly ASCII markup and script; starting at the first byte that
    is not UTF-8 gives the sniffer the text it needs. Both ends are cut on a ``>``, ``<`` or
    newline, which are never trail bytes of the legacy multi-byte encodings, so no
    character is split.
    """
    start = max(data.rfind(b">", 0, bad_offset), data.rfind(b"\n", 0, bad_offset)) + 1
    end = start + SNIFF_BYTES
    if end >= len(data):
        return data[start:]
    window = data[start:end]
    cut = max(window.rfind(b"<"), window.rfind(b"\n"))
    return window[:cut] if cut > 0 else window


def _text_only(window: bytes) -> bytes:
    """Markup stripped from ``window`` so the sniffer weighs words, not tags and code."""
    text = _SCRIPT_STYLE.sub(b" ", window)
    text = _TAG.sub(b" ", text)
    return b" ".join(text.split())


# Latin-script single-byte encodings, in order of how common they are on the web: a tie
# goes to the earlier one. charset-normalizer tells Latin from Cyrillic or CJK reliably,
# but within this family it often ranks by accident (ISO-8859-2 Polish came out as
# ISO-8859-10, German as windows-1250), because they differ in a handful of letters that
# its statistics barely weigh.
_LATIN_CANDIDATES = (
    "windows-1252",
    "iso-8859-15",
    "windows-1250",
    "iso-8859-2",
    "windows-1254",
    "windows-1257",
    "iso-8859-16",
)
_LATIN_FAMILY = frozenset(_LATIN_CANDIDATES) | {
    "iso-8859-3",
    "iso-8859-4",
    "iso-8859-10",
    "iso-8859-13",
    "iso-8859-14",
    "macintosh",
}
# The non-ASCII letters of the languages these encodings serve. The right decoding spells
# one language with them; a wrong one turns some into symbols (©, ±, ¶) or into letters of
# another language (Czech "š" read as Polish "ą").
_LANGUAGE_LETTERS = (
    "äöüß",  # German
    "àâæçéèêëîïôœùûüÿ",  # French
    "áéíñóúü",  # Spanish
    "àáâãçéêíóôõú",  # Portuguese
    "àèéìíîòóùú",  # Italian
    "éëïóöü",  # Dutch
    "åäöæø",  # Scandinavian
    "áðéíóúýþæö",  # Icelandic
    "áčďéěíňóřšťúůýž",  # Czech
    "áäčďéíĺľňóôŕšťúýž",  # Slovak
    "ąćęłńóśźż",  # Polish
    "áéíóöőúüű",  # Hungarian
    "čćđšž",  # Slovene, Croatian, Bosnian
    "ăâîșțşţ",  # Romanian
    "çğıöşü",  # Turkish
    "äöõüšž",  # Estonian
    "āčēģīķļņšūž",  # Latvian
    "ąčęėįšųūž",  # Lithuanian
)


@cache
def _latin_tables() -> dict[str, list[str]]:
    """What each candidate makes of the bytes 0x80..0xFF, lowercased (one char per
    byte). Built when a page first needs a Latin guess: it loads seven codecs, about
    1.5 ms that every run of the command line paid at import."""
    return {
        canon: [c.lower() for c in _HIGH_BYTES.decode(_DECODERS[canon][0], "replace")]
        for canon in _LATIN_CANDIDATES
    }


def _best_latin(sample: bytes) -> str:
    """The Latin encoding under which the most non-ASCII bytes spell one language."""
    counts = Counter(sample.translate(None, _ASCII_BYTES))
    best, best_score = _LATIN_CANDIDATES[0], -1
    tables = _latin_tables()
    for canon in _LATIN_CANDIDATES:
        table = tables[canon]
        score = max(
            sum(n for byte, n in counts.items() if table[byte - 0x80] in letters)
            for letters in _LANGUAGE_LETTERS
        )
        if score > best_score:
            best, best_score = canon, score
    return best


def _charset_normalizer(sample: bytes) -> str | None:
    try:
        # Imported lazily: it is only needed for the few pages that are neither declared
        # nor UTF-8, and its import is not free.
        from charset_normalizer import from_bytes

        # preemptive_behaviour would re-read the meta tags we already looked at.
        matches = from_bytes(sample, preemptive_behaviour=False)
    except Exception:
        # A sniffer bug must not take a page down: falling back to UTF-8 is the contract.
        return None
    for match in matches:
        canon = _resolve(match.encoding)
        if canon is not None:
            return _best_latin(sample) if canon in _LATIN_FAMILY else canon
    # Text that is neither UTF-8 nor anything the sniffer recognises is most likely in a
    # Latin code page: browsers fall back to windows-1252 for the same reason.
    return _best_latin(sample)


def _sniff(data: bytes, bad_offset: int) -> str | None:
    """Guess the encoding of bytes that are not valid UTF-8; None when hopeless."""
    canon = _sniff_utf16(data)
    if canon:
        return canon
    window = _sample(data, bad_offset)
    if not window:
        return None
    if len(window) - len(window.translate(None, _BINARY_BYTES)) > 0.05 * len(window):
        # Binary (an image, a zip...): no encoding will make sense of it, don't spend
        # time asking the sniffer.
        return None
    # Mostly UTF-8 with a few stray bytes (a pasted windows-1252 quote, a mangled
    # character) is still UTF-8; a legacy encoding read as UTF-8 fails on most bytes.
    text, errors = _decode_as(window, "utf-8")
    if not _too_many_errors(text, errors):
        return "utf-8"
    sample = _text_only(window)
    if sample.isascii():
        # The non-ASCII bytes are all in attributes or scripts: sniff those instead.
        sample = window
    return _charset_normalizer(sample)


# --- the pipeline stage ---------------------------------------------------------------


def _finish(text: str | None, canon: str, data: bytes) -> Decoded:
    """The decoded text, cleaned. ``text`` None: ``data`` is whole, valid UTF-8 and is
    its text's UTF-8 bytes, unless cleaning changes the text."""
    if text is None:
        if b"\x00" not in data and not data.startswith(codecs.BOM_UTF8):
            return Decoded(None, canon, data)
        text = data.decode("utf-8")
    # lexbor (selectolax's parser) handles U+0000 inconsistently (replaced in some
    # contexts, dropped or truncating in others), and NUL is never content: remove it
    # here so every later stage sees the same text.
    # Only a zero byte decodes to U+0000 in the ASCII-compatible encodings, and memchr on
    # the bytes is much cheaper than a scan of a wide str.
    if (canon in _UTF16_32 or b"\x00" in data) and "\x00" in text:
        text = text.replace("\x00", "")
    if text.startswith("\ufeff"):
        # A BOM left in by an override or a sniffed UTF-16 is not content.
        text = text[1:]
    return Decoded(text, canon)


def decode(data: bytes, *, content_type: str | None = None, override: str | None = None) -> Decoded:
    """Decode an HTML document's bytes to text.

    Args:
        data: the raw document, as fetched or read from disk.
        content_type: the HTTP Content-Type header value, if any; its ``charset=``
            parameter is used.
        override: a charset chosen by the caller; it beats every other source. An unknown
            label is ignored.

    Returns:
        The text (never with NUL characters) and the canonical name of the encoding used.
        Never raises on any input.
    """
    if not isinstance(data, bytes):
        data = bytes(data)
    if not data:
        return Decoded("", "utf-8")

    canon = _resolve(override)
    if canon is not None:
        # The caller knows better than any heuristic: no error-rate second-guessing.
        return _finish(_decode_as(data, canon, count=False)[0], canon, data)

    bom = _bom(data)
    if bom is not None:
        canon, skip = bom
        return _finish(_decode_as(data[skip:], canon, count=False)[0], canon, data)

    declared: list[str] = []
    header = _header_charset(content_type)
    if header in _UTF16_32:
        if b"\x00" not in data[:1024]:
            # ASCII markup in UTF-16/32 is full of zero bytes: a server claiming it for a
            # document without any is wrong.
            header = None
        elif header.startswith("utf-16"):
            # The label alone doesn't say which byte order; the zero bytes do.
            header = _sniff_utf16(data) or header
    if header is not None:
        declared.append(header)
    meta = _meta_charset(data)
    if meta is not None and meta not in declared:
        declared.append(meta)

    # Strict UTF-8 is both the fast path and the check behind the first departure from
    # browsers (module docstring); it is computed once, when first needed.
    utf8: str | None = None
    valid = False
    bad_offset = -1
    utf8_checked = False
    fallback: tuple[str, str] | None = None
    for canon in declared:
        if canon not in _UTF16_32:
            if not utf8_checked:
                valid, utf8, bad_offset = _utf8_strict(data)
                utf8_checked = True
            if valid:
                if canon == "utf-8" or not data.isascii():
                    return _finish(utf8, "utf-8", data)
                # Pure ASCII reads the same in every ASCII-compatible encoding, so the
                # declaration can stand without a second pass, unless the bytes are
                # really 7-bit ISO-2022, whose escapes no ASCII text contains.
                iso2022 = _sniff_iso2022(data)
                if iso2022 is None:
                    return _finish(utf8, canon, data)
                return _finish(_decode_as(data, iso2022, count=False)[0], iso2022, data)
        text, errors = _decode_as(data, canon)
        if not _too_many_errors(text, errors):
            return _finish(text, canon, data)
        if fallback is None:
            fallback = (text, canon)

    if not utf8_checked:
        valid, utf8, bad_offset = _utf8_strict(data)
    if valid:
        # The path most of the web takes. 7-bit ISO-2022 text and UTF-16 without a BOM can
        # be valid UTF-8 too, so rule them out first (both checks are cheap).
        canon = _sniff_iso2022(data) or _sniff_utf16(data) or "utf-8"
        if canon == "utf-8":
            return _finish(utf8, canon, data)
        return _finish(_decode_as(data, canon, count=False)[0], canon, data)

    canon = _sniff(data, bad_offset)
    if canon is None:
        if fallback is not None:
            return _finish(*fallback, data)
        canon = "utf-8"
    return _finish(_decode_as(data, canon, count=False)[0], canon, data)
