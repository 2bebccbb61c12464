# cython: language_level=3, boundscheck=False, wraparound=False
"""The blocks' fields as arrays, in one compiled pass over segment.Block objects.

score.aggregate read them with a generator per field (np.fromiter) and
blockmodel.features with a list comprehension per field: each item a step of a
Python frame. At the middle fifth of the pages of both sets by time (102 blocks),
aggregate took 0.101 ms and the comprehensions of features 0.079 ms. With this pass
aggregate takes 0.066 ms there; over all 699 pages (means) aggregate went from 0.16 to
0.13-0.14 ms and features from 0.79-0.82 to 0.77-0.80 ms. score.aggregate now sums the
elements' characters in the same pass (element_sums).
"""

from libc.stdint cimport int64_t

import numpy as np


def block_columns(list blocks, dict kind_ids):
    """(chars, links, flags, kinds, depths, element_of, up) of ``blocks``:

    - chars, links: float64, the text's length and the link characters;
    - flags: int64, the FLAG_* bits;
    - kinds: int64, ``kind_ids`` of the block's kind, -1 for a kind it lacks;
    - depths: int64, the length of the block's path;
    - element_of: int64, the paths one after the other (block 0's elements first);
    - up: int64, shape (3, blocks), the innermost three elements of each path
      (parent, grandparent, great-grandparent), -1 where the path is shorter.
    """
    cdef Py_ssize_t n = len(blocks), i, k, d, total = 0, at = 0
    chars = np.empty(n, dtype=np.float64)
    links = np.empty(n, dtype=np.float64)
    flags = np.empty(n, dtype=np.int64)
    kinds = np.empty(n, dtype=np.int64)
    depths = np.empty(n, dtype=np.int64)
    up = np.full((3, n), -1, dtype=np.int64)
    cdef double[::1] chars_view = chars, links_view = links
    cdef int64_t[::1] flags_view = flags, kinds_view = kinds, depths_view = depths
    cdef int64_t[:, ::1] up_view = up
    cdef list paths = [None] * n
    cdef tuple path
    for i in range(n):
        block = blocks[i]
        chars_view[i] = len(<str> block.text)
        links_view[i] = block.link_chars
        flags_view[i] = block.flags
        kinds_view[i] = kind_ids.get(block.kind, -1)
        path = <tuple> block.path
        paths[i] = path
        d = len(path)
        depths_view[i] = d
        total += d
        for k in range(min(d, 3)):
            up_view[k, i] = path[d - 1 - k]
    element_of = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] element_view = element_of
    for i in range(n):
        path = <tuple> paths[i]
        for k in range(len(path)):
            element_view[at] = path[k]
            at += 1
    return chars, links, flags, kinds, depths, element_of, up


def element_sums(list blocks, Py_ssize_t elements, int64_t card_flag):
    """The sums score.aggregate makes, in one pass over the blocks and their paths:

    - chars, p_chars, a_chars, card_chars: float64 by element id, the characters of
      the blocks each element holds, of those in a <p>, their link characters outside
      cards (at most the block's characters) and inside cards (``card_flag``);
    - block_of, element_of: int64, the incidence the sums run over (block index and
      element id, the paths one after the other);
    - block_chars: float64, each block's characters.

    numpy built them with a repeat, four where and four bincount calls: 0.10 ms at the
    median news page."""
    cdef Py_ssize_t n = len(blocks), i, k, total = 0, at = 0
    cdef int64_t element
    cdef double c, link
    cdef bint is_p, card
    cdef tuple path
    for i in range(n):
        total += len(<tuple> blocks[i].path)
    chars = np.zeros(elements, dtype=np.float64)
    p_chars = np.zeros(elements, dtype=np.float64)
    a_chars = np.zeros(elements, dtype=np.float64)
    card_chars = np.zeros(elements, dtype=np.float64)
    block_of = np.empty(total, dtype=np.int64)
    element_of = np.empty(total, dtype=np.int64)
    block_chars = np.empty(n, dtype=np.float64)
    cdef double[::1] chars_view = chars, p_view = p_chars, a_view = a_chars
    cdef double[::1] card_view = card_chars, block_view = block_chars
    cdef int64_t[::1] block_of_view = block_of, element_of_view = element_of
    for i in range(n):
        block = blocks[i]
        path = <tuple> block.path
        c = len(<str> block.text)
        link = min(<double> block.link_chars, c)
        is_p = block.kind == "p"
        card = (<int64_t> block.flags & card_flag) != 0
        block_view[i] = c
        for k in range(len(path)):
            element = path[k]
            if element < 0 or element >= elements:
                raise ValueError(f"block {i} is held by element {element}, not one of {elements}")
            chars_view[element] += c
            if is_p:
                p_view[element] += c
            if card:
                card_view[element] += link
            else:
                a_view[element] += link
            block_of_view[at] = i
            element_of_view[at] = element
            at += 1
    return chars, p_chars, a_chars, card_chars, block_of, element_of, block_chars
