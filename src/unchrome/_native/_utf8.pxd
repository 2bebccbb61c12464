# UTF-8 read in place, as CPython's strict decoder reads it: shared by the compiled
# modules that read a page's bytes without decoding them (_markup.valid_utf8, _dom's
# text lengths and collapsed text).

from libc.stdint cimport uint64_t
from libc.string cimport memcpy


cdef inline Py_ssize_t utf8_width(const unsigned char *data, size_t k, size_t n) noexcept:
    """The length of the well-formed UTF-8 sequence at ``data[k]`` (a byte of 0x80 or
    more), as CPython's strict decoder accepts it; 0 if it is not one."""
    cdef unsigned char c = data[k], c1
    cdef Py_ssize_t width, j
    if 0xC2 <= c <= 0xDF:
        width = 2
    elif 0xE0 <= c <= 0xEF:
        width = 3
    elif 0xF0 <= c <= 0xF4:
        width = 4
    else:
        return 0
    if k + width > n:
        return 0
    c1 = data[k + 1]
    if (
        (c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 > 0x9F)
        or (c == 0xF0 and c1 < 0x90) or (c == 0xF4 and c1 > 0x8F)
    ):
        return 0
    for j in range(1, width):
        if data[k + j] & 0xC0 != 0x80:
            return 0
    return width


cdef inline bint ascii_word(const unsigned char *data) noexcept:
    """Whether the 8 bytes at ``data`` are all ASCII."""
    cdef uint64_t word
    memcpy(&word, data, 8)
    return word & 0x8080808080808080ULL == 0
