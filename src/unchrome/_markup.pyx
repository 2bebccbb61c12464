# cython: language_level=3
"""The attribute cap's first look, compiled: whether any tag of a text holds more than
``cap`` attributes, read as parse.cap_attributes's regex walk reads tags.

The regex walk cost about 0.7 ms at the mean page of the two sets to find, on every
real page, that no tag is over the cap. This scanner follows the same grammar (one
state per alternative of parse._walk_pattern, possessive as its quantifiers are) in a
C loop over the characters; only a text it finds over the cap goes to the regex walk,
which then caps it. tests/test_hostile_input.py holds the two to the same answer on
generated tag soup.
"""

from cpython.unicode cimport PyUnicode_READ_CHAR

# Python's case-blind matching folds these onto ASCII letters (İ and ı onto "i", ſ onto
# "s", the Kelvin sign onto "k"): the regex walk would read "<ſcript>" as a <script>. A
# text holding one goes to the regex walk, which reads it as it always has.
_FOLDS_ONTO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
_RAW_NAMES = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")


cdef inline bint _blank(unsigned int c) noexcept:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D


cdef inline bint _letter(unsigned int c) noexcept:
    return (c >= 0x41 and c <= 0x5A) or (c >= 0x61 and c <= 0x7A)


cdef inline unsigned int _lower(unsigned int c) noexcept:
    return c + 0x20 if c >= 0x41 and c <= 0x5A else c


cdef bint _name_at(str text, Py_ssize_t at, Py_ssize_t n, str name):
    """Whether ``name`` (lowercase ASCII) starts at ``at``, case-blind, followed by a
    blank, '/' or '>' (the walk's lookahead: not at the end of the text)."""
    cdef Py_ssize_t size = len(name), k
    if at + size >= n:
        return False
    for k in range(size):
        if _lower(PyUnicode_READ_CHAR(text, at + k)) != <unsigned int> ord(name[k]):
            return False
    cdef unsigned int after = PyUnicode_READ_CHAR(text, at + size)
    return _blank(after) or after == 0x2F or after == 0x3E


def over_attribute_cap(str text, Py_ssize_t cap) -> bool:
    """Whether the regex walk of parse.cap_attributes (at this ``cap``) stops before
    the end of ``text``: some tag holds more than ``cap`` attributes."""
    cdef Py_ssize_t n = len(text), i = 0, j, count, found
    cdef unsigned int c, quote
    cdef bint closing
    cdef str raw
    for fold in _FOLDS_ONTO_ASCII:
        if fold in text:
            return True
    while True:
        found = text.find("<", i)
        if found < 0:
            return False
        i = found
        if text.startswith("<!--", i):
            # <!--> and <!---> end at once; a comment ends at its first "-->" or
            # "--!>", or runs to the end of the text.
            if text.startswith("<!-->", i):
                i += 5
                continue
            if text.startswith("<!--->", i):
                i += 6
                continue
            j = i + 4
            while True:
                found = text.find("--", j)
                if found < 0:
                    return False
                if text.startswith("-->", found):
                    i = found + 3
                    break
                if text.startswith("--!>", found):
                    i = found + 4
                    break
                j = found + 1
            continue
        if i + 1 >= n:
            return False
        c = PyUnicode_READ_CHAR(text, i + 1)
        closing = c == 0x2F
        if closing:
            if i + 2 >= n or not _letter(PyUnicode_READ_CHAR(text, i + 2)):
                i += 1  # a '<' that opens no tag
                continue
            j = i + 2
        elif _letter(c):
            j = i + 1
        else:
            i += 1
            continue
        raw = None
        if not closing:
            if _name_at(text, j, n, "plaintext"):
                return False  # the rest of the text is its content
            for name in _RAW_NAMES:
                if _name_at(text, j, n, name):
                    raw = name
                    break
        # The name: a letter, then anything but blanks, '/' and '>'.
        j += 1
        while j < n:
            c = PyUnicode_READ_CHAR(text, j)
            if _blank(c) or c == 0x2F or c == 0x3E:
                break
            j += 1
        # The attributes, up to '>' or the end of the text.
        count = 0
        while True:
            while j < n:
                c = PyUnicode_READ_CHAR(text, j)
                if not (_blank(c) or c == 0x2F):
                    break
                j += 1
            if j >= n:
                return False
            if c == 0x3E:
                j += 1
                break
            if count == cap:
                return True
            count += 1
            # Its name: any first character, then anything but blanks, '/', '>', '='.
            j += 1
            while j < n:
                c = PyUnicode_READ_CHAR(text, j)
                if _blank(c) or c == 0x2F or c == 0x3E or c == 0x3D:
                    break
                j += 1
            # Its value, if an '=' follows (blanks around it): quoted up to the same
            # quote or the end of the text, or unquoted up to a blank or '>'.
            found = j
            while found < n and _blank(PyUnicode_READ_CHAR(text, found)):
                found += 1
            if found < n and PyUnicode_READ_CHAR(text, found) == 0x3D:
                found += 1
                while found < n and _blank(PyUnicode_READ_CHAR(text, found)):
                    found += 1
                j = found
                if j < n:
                    quote = PyUnicode_READ_CHAR(text, j)
                    if quote == 0x22 or quote == 0x27:
                        found = text.find(chr(quote), j + 1)
                        if found < 0:
                            return False
                        j = found + 1
                    else:
                        while j < n:
                            c = PyUnicode_READ_CHAR(text, j)
                            if _blank(c) or c == 0x3E:
                                break
                            j += 1
        i = j
        if raw is not None:
            # Raw text up to the element's own end tag, which the walk then reads as
            # a tag.
            while True:
                found = text.find("</", i)
                if found < 0:
                    return False
                if _name_at(text, found + 2, n, raw):
                    i = found
                    break
                i = found + 1
