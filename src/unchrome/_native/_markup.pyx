# cython: language_level=3
"""The scans of the raw page, compiled: whether any tag of a text holds more than
``cap`` attributes, read as parse.cap_attributes's regex walk reads tags; how deep its
tags nest; how many '<' it holds; and whether bytes are valid UTF-8 (decode then
leaves them to lexbor as they are, see decode.Decoded.utf8).

The regex walk cost about 0.7 ms at the mean page of the two sets to find, on every
real page, that no tag is over the cap. This scanner follows the same grammar (one
state per alternative of parse._walk_pattern, possessive as its quantifiers are) in a
C loop over the characters (0.35 against 0.86 ms at every tenth WCXB dev page, 277,000
characters at the mean); only a text it finds over the cap goes to the regex walk,
which then caps it. tests/test_hostile_input.py holds the two to the same answer on
generated tag soup.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memchr, memcpy

from unchrome._native._utf8 cimport ascii_word, utf8_width

cdef extern from "Python.h":
    int Py_UNICODE_ISALNUM(unsigned int ch) nogil
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)

# The text as stored: a str's one, two or four bytes a character (PEP 393), or UTF-8
# bytes (one byte each where the markup is, ASCII; see _name_at for the rest). Each
# scanner is compiled once per width and reads the units directly.
ctypedef fused chars:
    uint8_t
    uint16_t
    uint32_t

# The elements whose text the tokenizer reads raw, up to their own end tag (a '<'
# inside them opens no tag; <noscript> is markup, as lexbor parses with scripting off),
# and the void elements, whose start tag opens nothing. parse reads both from here.
RAW_TEXT_NAMES = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")
VOID_NAMES = (
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
)
# The same names as C strings for the scanners (the bytes kept alive here).
_NAME_BYTES = [name.encode("ascii") for name in RAW_TEXT_NAMES + VOID_NAMES]
cdef const char *_RAW_NAMES[8]
cdef const char *_VOID_NAMES[14]
cdef int _r
for _r in range(8):
    _RAW_NAMES[_r] = _NAME_BYTES[_r]
for _r in range(14):
    _VOID_NAMES[_r] = _NAME_BYTES[8 + _r]


cdef inline bint _blank(unsigned int c) noexcept:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef inline bint _letter(unsigned int c) noexcept:
    return (c >= 0x41 and c <= 0x5A) or (c >= 0x61 and c <= 0x7A)


cdef inline bint _same_letter(unsigned int c, unsigned char letter) noexcept:
    """Whether ``c`` matches the lowercase ASCII ``letter`` as Python's case-blind regex
    matching has it: either case, and the four letters it folds onto ASCII ones (İ and ı
    onto "i", ſ onto "s", the Kelvin sign onto "k"), so "<ſcript>" is a <script> here
    as in the regex walk."""
    if c == letter or (c >= 0x41 and c <= 0x5A and c + 0x20 == letter):
        return True
    if c < 0x80:
        return False
    return (
        (letter == 0x69 and (c == 0x130 or c == 0x131))
        or (letter == 0x73 and c == 0x17F)
        or (letter == 0x6B and c == 0x212A)
    )


cdef bint _name_at(
    const chars *data, Py_ssize_t at, Py_ssize_t n, const char *name, bint utf8
):
    """Whether ``name`` (lowercase ASCII) starts at ``at``, case-blind, followed by a
    blank, '/' or '>' (the walk's lookahead: not at the end of the text). ``utf8``: the
    text is UTF-8 bytes, where the four letters that fold onto ASCII ones take two or
    three bytes (İ C4 B0, ı C4 B1, ſ C5 BF, K E2 84 AA)."""
    cdef Py_ssize_t k = 0, j = at, width
    cdef unsigned int c
    while name[k] != 0:
        if j >= n:
            return False
        c = data[j]
        width = 1
        if utf8 and c >= 0x80:
            if c == 0xC4 and j + 1 < n and (data[j + 1] == 0xB0 or data[j + 1] == 0xB1):
                c, width = 0x100 + data[j + 1] - 0x80, 2
            elif c == 0xC5 and j + 1 < n and data[j + 1] == 0xBF:
                c, width = 0x17F, 2
            elif c == 0xE2 and j + 2 < n and data[j + 1] == 0x84 and data[j + 2] == 0xAA:
                c, width = 0x212A, 3
            else:
                return False
        if not _same_letter(c, name[k]):
            return False
        j += width
        k += 1
    if j >= n:
        return False
    cdef unsigned int after = data[j]
    return _blank(after) or after == 0x2F or after == 0x3E


cdef inline Py_ssize_t _name_end(
    const chars *data, Py_ssize_t j, Py_ssize_t n
) noexcept:
    """Where the rest of a tag's name ends: the first blank, '/' or '>' from ``j``."""
    cdef unsigned int c
    while j < n:
        c = data[j]
        if _blank(c) or c == 0x2F or c == 0x3E:
            break
        j += 1
    return j


cdef inline Py_ssize_t _find(
    const chars *data, Py_ssize_t start, Py_ssize_t n, unsigned int c
) noexcept:
    """The index of the first ``c`` at or after ``start``, or -1."""
    cdef Py_ssize_t k
    cdef const char *found
    if start >= n:
        return -1
    if chars is uint8_t:
        if c > 0x7F:  # never asked: the markup's characters are ASCII
            return -1
        found = <const char *> memchr(<const char *> data + start, c, n - start)
        return -1 if found == NULL else found - <const char *> data
    for k in range(start, n):
        if data[k] == c:
            return k
    return -1


cdef inline Py_ssize_t _find_pair(
    const chars *data, Py_ssize_t start, Py_ssize_t n, unsigned int a, unsigned int b
) noexcept:
    """The index of the first ``a`` followed by ``b`` at or after ``start``, or -1."""
    cdef Py_ssize_t found = _find(data, start, n, a)
    while found >= 0 and (found + 1 >= n or data[found + 1] != b):
        found = _find(data, found + 1, n, a)
    return found


cdef inline bint _at(const chars *data, Py_ssize_t at, Py_ssize_t n, const char *what):
    """Whether the ASCII ``what`` starts at ``at``."""
    cdef Py_ssize_t k = 0
    while what[k] != 0:
        if at + k >= n or data[at + k] != <unsigned char> what[k]:
            return False
        k += 1
    return True


cdef Py_ssize_t _attributes_end(
    const chars *data, Py_ssize_t j, Py_ssize_t n, Py_ssize_t cap
) noexcept:
    """Where a tag's attributes, read from ``j`` as the tokenizer reads them, end: the
    index after its '>'; -1 when the text ends first (inside a value too); -2 when a
    (cap + 1)-th attribute starts (``cap`` < 0: no cap)."""
    cdef Py_ssize_t count = 0, found
    cdef unsigned int c = 0, quote
    while True:
        while j < n:
            c = data[j]
            if not (_blank(c) or c == 0x2F):
                break
            j += 1
        if j >= n:
            return -1
        if c == 0x3E:
            return j + 1
        if count == cap:
            return -2
        count += 1
        # Its name: any first character, then anything but blanks, '/', '>', '='.
        j += 1
        while j < n:
            c = data[j]
            if _blank(c) or c == 0x2F or c == 0x3E or c == 0x3D:
                break
            j += 1
        # Its value, if an '=' follows (blanks around it): quoted up to the same
        # quote or the end of the text, or unquoted up to a blank or '>'.
        found = j
        while found < n and _blank(data[found]):
            found += 1
        if found < n and data[found] == 0x3D:
            found += 1
            while found < n and _blank(data[found]):
                found += 1
            j = found
            if j < n:
                quote = data[j]
                if quote == 0x22 or quote == 0x27:
                    found = _find(data, j + 1, n, quote)
                    if found < 0:
                        return -1
                    j = found + 1
                else:
                    while j < n:
                        c = data[j]
                        if _blank(c) or c == 0x3E:
                            break
                        j += 1


def over_attribute_cap(text, Py_ssize_t cap) -> bool:
    """Whether the regex walk of parse.cap_attributes (at this ``cap``) stops before
    the end of ``text``: some tag holds more than ``cap`` attributes. ``text``: a str,
    or the UTF-8 bytes of one (read alike)."""
    cdef int kind
    cdef void *data
    cdef const unsigned char *raw_bytes
    if type(text) is bytes:
        raw_bytes = <bytes> text
        return _over_attribute_cap(<const uint8_t *> raw_bytes, len(text), cap, True)
    kind = PyUnicode_KIND(<str> text)
    data = PyUnicode_DATA(text)
    if kind == 1:
        return _over_attribute_cap(<const uint8_t *> data, len(text), cap, False)
    if kind == 2:
        return _over_attribute_cap(<const uint16_t *> data, len(text), cap, False)
    return _over_attribute_cap(<const uint32_t *> data, len(text), cap, False)


cdef bint _over_attribute_cap(const chars *data, Py_ssize_t n, Py_ssize_t cap, bint utf8):
    cdef Py_ssize_t i = 0, j, found
    cdef unsigned int c
    cdef bint closing
    cdef const char *raw
    cdef int r
    while True:
        found = _find(data, i, n, 0x3C)
        if found < 0:
            return False
        i = found
        if _at(data, i, n, b"<!--"):
            # <!--> and <!---> end at once; a comment ends at its first "-->" or
            # "--!>", or runs to the end of the text.
            if _at(data, i, n, b"<!-->"):
                i += 5
                continue
            if _at(data, i, n, b"<!--->"):
                i += 6
                continue
            j = i + 4
            while True:
                found = _find_pair(data, j, n, 0x2D, 0x2D)  # "--"
                if found < 0:
                    return False
                if _at(data, found, n, b"-->"):
                    i = found + 3
                    break
                if _at(data, found, n, b"--!>"):
                    i = found + 4
                    break
                j = found + 1
            continue
        if i + 1 >= n:
            return False
        c = data[i + 1]
        closing = c == 0x2F
        j = i + 1
        raw = NULL
        if not closing:
            # The walk tries the raw-text elements and <plaintext> before any other
            # tag, by case-blind names: "<ſcript" is one (see _same_letter).
            for r in range(8):
                if _name_at(data, j, n, _RAW_NAMES[r], utf8):
                    raw = _RAW_NAMES[r]
                    break
            if raw == NULL and _name_at(data, j, n, b"plaintext", utf8):
                return False  # the rest of the text is its content
        if raw == NULL:
            if closing:
                if i + 2 >= n or not _letter(data[i + 2]):
                    i += 1  # a '<' that opens no tag
                    continue
                j = i + 2
            elif not _letter(c):
                i += 1
                continue
        # The name: a letter, then anything but blanks, '/' and '>'; the attributes,
        # up to '>' or the end of the text.
        j = _attributes_end(data, _name_end(data, j + 1, n), n, cap)
        if j == -1:
            return False  # the tag runs to the end of the text
        if j == -2:
            if raw != NULL and not _letter(data[i + 1]):
                # Over the cap, the raw-text alternative fails, and a name that
                # starts with a folded letter is no [A-Za-z] tag either: the walk
                # reads its '<' as opening no tag and goes on.
                i += 1
                continue
            return True
        i = j
        if raw != NULL:
            # Raw text up to the element's own end tag, which the walk then reads as
            # a tag.
            while True:
                found = _find_pair(data, i, n, 0x3C, 0x2F)  # "</"
                if found < 0:
                    return False
                if _name_at(data, found + 2, n, raw, utf8):
                    i = found
                    break
                i = found + 1


cdef inline bint _word(unsigned int c) noexcept:
    """A character of \\w, as Python's regex has it for str patterns."""
    return c == 0x5F or Py_UNICODE_ISALNUM(c)


cdef inline bint _name_char(unsigned int c) noexcept:
    """[a-zA-Z0-9-]"""
    return _letter(c) or (0x30 <= c <= 0x39) or c == 0x2D


cdef bint _void(const chars *data, Py_ssize_t start, Py_ssize_t end) noexcept:
    """Whether text[start:end] (ASCII letters, digits and '-') is a void tag's name,
    in any case."""
    cdef int v
    cdef Py_ssize_t k
    cdef const char *name
    for v in range(14):
        name = _VOID_NAMES[v]
        k = 0
        while (
            start + k < end
            and name[k] != 0
            and _same_letter(data[start + k], name[k])
        ):
            k += 1
        if start + k == end and name[k] == 0:
            return True
    return False


def max_tag_depth(text) -> int:
    """How deep the tags of ``text`` nest, read as parse._TAG's finditer reads them
    (at every '<', anywhere: in scripts and comments too), a void or self-closing
    tag opening nothing and an end tag at depth 0 closing nothing. ``text``: a str, or
    the UTF-8 bytes of one (read alike: a 4 MiB page is not decoded to be read)."""
    cdef int kind
    cdef void *data
    cdef const unsigned char *raw_bytes
    if type(text) is bytes:
        raw_bytes = <bytes> text
        return _max_tag_depth(<const uint8_t *> raw_bytes, len(text), True)
    kind = PyUnicode_KIND(<str> text)
    data = PyUnicode_DATA(text)
    if kind == 1:
        return _max_tag_depth(<const uint8_t *> data, len(text), False)
    if kind == 2:
        return _max_tag_depth(<const uint16_t *> data, len(text), False)
    return _max_tag_depth(<const uint32_t *> data, len(text), False)


cdef inline bint _word_at(const chars *data, Py_ssize_t k, Py_ssize_t n, bint utf8) noexcept:
    """Whether the character at ``k`` is one of \\w (False past the end); in UTF-8
    bytes, the character whose sequence starts there."""
    cdef unsigned int c
    cdef Py_ssize_t width, j
    if k >= n:
        return False
    c = data[k]
    if not utf8 or c < 0x80:
        return _word(c)
    width = utf8_width(<const unsigned char *> data, k, n)
    if width == 0:
        return False  # not UTF-8 (the caller's bytes are): no character of \\w
    c &= 0x7F >> width
    for j in range(1, width):
        c = (c << 6) | (data[k + j] & 0x3F)
    return _word(c)


cdef Py_ssize_t _max_tag_depth(const chars *data, Py_ssize_t n, bint utf8):
    cdef Py_ssize_t i = 0, p, j, e, q, end
    cdef Py_ssize_t depth = 0, deepest = 0
    cdef bint closing
    cdef unsigned int c
    while True:
        p = _find(data, i, n, 0x3C)
        if p < 0:
            return deepest
        j = p + 1
        closing = j < n and data[j] == 0x2F
        if closing:
            j += 1
        if j >= n or not _letter(data[j]):
            i = p + 1
            continue
        # The name, [a-zA-Z][a-zA-Z0-9-]*, backs off to its longest prefix that ends
        # at a word boundary (\\b); the rest of it is read as what follows the name.
        e = j + 1
        while e < n and _name_char(data[e]):
            e += 1
        q = e
        while q > j and _word(data[q - 1]) == _word_at(data, q, n, utf8):
            q -= 1
        if q == j:
            i = p + 1
            continue
        end = _attributes_end(data, _name_end(data, q, n), n, -1)
        if end < 0:
            i = p + 1  # no '>' ends it: no tag here
            continue
        if data[end - 2] != 0x2F and not _void(data, j, q):
            if closing:
                if depth > 0:
                    depth -= 1
            else:
                depth += 1
                if depth > deepest:
                    deepest = depth
        i = end


def opens_tag(text, str name) -> bool:
    """Whether ``text`` (a str, or UTF-8 bytes) holds a '<' followed by ``name`` (lowercase
    ASCII letters) in either case: where it does not, the parser made no such element
    (it makes elements only from start tags, and reads their names case-blind in ASCII
    only)."""
    cdef bytes wanted = name.encode("ascii")
    cdef const char *lowered = wanted
    cdef int kind
    cdef void *data
    cdef const unsigned char *raw_bytes
    if type(text) is bytes:
        raw_bytes = <bytes> text
        return _opens_tag(<const uint8_t *> raw_bytes, len(text), lowered, len(wanted))
    kind = PyUnicode_KIND(<str> text)
    data = PyUnicode_DATA(text)
    if kind == 1:
        return _opens_tag(<const uint8_t *> data, len(text), lowered, len(wanted))
    if kind == 2:
        return _opens_tag(<const uint16_t *> data, len(text), lowered, len(wanted))
    return _opens_tag(<const uint32_t *> data, len(text), lowered, len(wanted))


cdef bint _opens_tag(const chars *data, Py_ssize_t n, const char *name, Py_ssize_t size) noexcept:
    cdef Py_ssize_t at = _find(data, 0, n, 0x3C), k
    cdef unsigned int c
    while at >= 0:
        if at + size < n:
            for k in range(size):
                c = data[at + 1 + k]
                if c != <unsigned char> name[k] and not (
                    0x41 <= c <= 0x5A and c + 0x20 == <unsigned char> name[k]
                ):
                    break
            else:
                return True
        at = _find(data, at + 1, n, 0x3C)
    return False


def tag_opens(bytes data) -> int:
    """How many '<' ``data`` holds. Counted in runs of 255 bytes into a byte-sized
    count, a loop the compiler vectorises: 0.009 ms at the median news page, where
    memchr from one '<' to the next took 0.027 ms (bytes.count, comparing every byte
    one by one, 0.15 ms at the mean page of 699 of both sets)."""
    cdef const unsigned char *s = data
    cdef Py_ssize_t n = len(data), k = 0, j, run, count = 0
    cdef unsigned char part
    while k < n:
        run = min(n - k, 255)
        part = 0
        for j in range(run):
            part += s[k + j] == 0x3C
        count += part
        k += run
    return count


def valid_utf8(bytes data) -> bool:
    """Whether ``data`` is whole, valid UTF-8: what data.decode("utf-8") accepts (no
    overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut at the end),
    found without building the str (a page read as UTF-8 is parsed from its bytes, and
    its text made only if a stage asks for it): 0.016 ms at the median news page,
    where decoding took 0.068 ms and decode() 0.128 ms with it, 0.029 ms without."""
    cdef const unsigned char *s = data
    cdef Py_ssize_t n = len(data), i = 0, width
    while i < n:
        # Eight ASCII bytes at a time where they are.
        while i + 8 <= n and ascii_word(s + i):
            i += 8
        if i >= n:
            break
        if s[i] < 0x80:
            i += 1
            continue
        width = utf8_width(s, i, n)
        if width == 0:
            return False
        i += width
    return True
