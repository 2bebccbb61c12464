# cython: language_level=3, boundscheck=False, wraparound=False
"""The density score's sums over the blocks, in one compiled pass over segmentation.Block
objects (score.aggregate).

numpy built them from the blocks' fields, read into arrays first (a generator per field
at first, later one compiled pass), with a repeat, four where and four bincount calls:
0.10 ms at the median news page; this pass 0.034 ms.
"""

from libc.stdint cimport int64_t

import numpy as np


def element_sums(list blocks, Py_ssize_t elements, int64_t card_flag):
    """The sums score.aggregate makes, in one pass over the blocks and their paths:

    - chars, p_chars, a_chars, card_chars: float64 by element id, the characters of
      the blocks each element holds, of those in a <p>, their link characters outside
      cards (at most the block's characters) and inside cards (``card_flag``);
    - block_of, element_of: int64, the incidence the sums run over (block index and
      element id, the paths one after the other);
    - block_chars: float64, each block's characters."""
    cdef Py_ssize_t n = len(blocks), i, k, total = 0, at = 0
    cdef int64_t element
    cdef double c, link
    cdef bint is_p, card
    cdef tuple path
    for i in range(n):
        total += len(<tuple?> blocks[i].path)
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
        path = <tuple?> block.path
        c = len(<str?> block.text)
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
