# cython: language_level=3, boundscheck=False, wraparound=False
# distutils: extra_compile_args = -ffp-contract=off
"""The density score's sums over the blocks, in one compiled pass over segmentation.Block
objects (score.aggregate).

numpy built them from the blocks' fields, read into arrays first (a generator per field
at first, later one compiled pass), with a repeat, four where and four bincount calls:
0.10 ms at the median news page; this pass 0.034 ms.
"""

from libc.stdint cimport int64_t

from unchrome._native._arrays cimport doubles, int64s


def element_sums(list blocks, Py_ssize_t elements, int64_t card_flag):
    """The sums score.aggregate makes, in one pass over the blocks and their paths:

    - chars, p_chars, a_chars, card_chars: float64 (array "d") by element id, the characters of
      the blocks each element holds, of those in a <p>, their link characters outside
      cards (at most the block's characters) and inside cards (``card_flag``);
    - block_of, element_of: int64 (array "q"), the incidence the sums run over (block index and
      element id, the paths one after the other);
    - block_chars: float64, each block's characters."""
    cdef Py_ssize_t n = len(blocks), i, k, total = 0, at = 0
    cdef int64_t element
    cdef double c, link
    cdef bint is_p, card
    cdef tuple path
    for i in range(n):
        total += len(<tuple?> blocks[i].path)
    chars = doubles(elements)
    p_chars = doubles(elements)
    a_chars = doubles(elements)
    card_chars = doubles(elements)
    block_of = int64s(total)
    element_of = int64s(total)
    block_chars = doubles(n)
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


def density(
    const double[::1] chars,
    const double[::1] p_chars,
    const double[::1] a_chars,
    double p_base,
    double p_weight,
    double link_penalty,
):
    """The density score of every element from its sums (score.density documents the
    formula and its constants): chars x (p_base + p_weight x p share) x max(0, 1 -
    link_penalty x link share), each share over max(chars, 1). The same double
    operations in the same order as the numpy expression it replaces."""
    cdef Py_ssize_t n = chars.shape[0], i
    if p_chars.shape[0] != n or a_chars.shape[0] != n:
        raise ValueError("one sum of each kind per element")
    cdef double safe, c, penalty
    out = doubles(n)
    cdef double[::1] o = out
    for i in range(n):
        c = chars[i]
        safe = c if c >= 1.0 else 1.0
        penalty = 1.0 - link_penalty * a_chars[i] / safe
        o[i] = c * (p_base + p_weight * p_chars[i] / safe) * (penalty if penalty > 0.0 else 0.0)
    return out


# Readability.js's commas: Latin, Arabic, the small and vertical
# forms, the CJK full-width comma and the ideographic one.
cdef inline bint _is_comma(Py_UCS4 c) noexcept:
    return (
        c == u',' or c == 0x060C or c == 0xFE50 or c == 0xFE10 or c == 0xFE11
        or c == 0x2E41 or c == 0x2E34 or c == 0x2E32 or c == 0xFF0C or c == 0x3001
    )


def paragraph_points(
    list blocks,
    list parents,
    list tags,
    frozenset kinds,
    Py_ssize_t min_chars,
    tuple dividers,
    dict tag_scores,
):
    """Readability's scores of the elements (container.read_container): every block of
    ``kinds`` with at least ``min_chars`` characters gives its parent element and the
    ancestors above it 1 + its commas + one per hundred characters (up to three),
    divided by ``dividers`` level by level; then each element reached gets the score
    of its tag (``tag_scores``, 0 for the others).

    Returns (scores, reached): float64 (array "d") and a mask (bytearray) by element id. The Python loop this
    replaces, and the two lists it made into arrays, cost 0.06 ms at the mean news
    page; the sums are the same double additions in the same order."""
    cdef Py_ssize_t elements = len(parents), levels = len(dividers), level, i, ancestor
    cdef Py_ssize_t commas, length
    cdef double points
    cdef double divide[8]
    cdef str text
    cdef Py_UCS4 c
    if levels > 8:
        raise ValueError("at most eight ancestor levels")
    for level in range(levels):
        divide[level] = dividers[level]
    scores = doubles(elements)
    reached = bytearray(elements)
    cdef double[::1] score_view = scores
    cdef unsigned char[::1] reached_view = reached
    for i in range(len(blocks)):
        block = blocks[i]
        if block.kind not in kinds:
            continue
        text = <str?> block.text
        length = len(text)
        if length < min_chars:
            continue
        commas = 0
        for c in text:
            if _is_comma(c):
                commas += 1
        points = 1.0 + <double> commas + <double> min(length // 100, 3)
        ancestor = block.owner
        if not 0 <= ancestor < elements:
            raise ValueError(f"block {i} is owned by element {ancestor}, not one of {elements}")
        ancestor = <Py_ssize_t> parents[ancestor]
        for level in range(levels):
            if ancestor < 0:
                break
            if ancestor >= elements:
                raise ValueError(f"element {ancestor} is not one of {elements}")
            score_view[ancestor] += points / divide[level]
            reached_view[ancestor] = 1
            ancestor = <Py_ssize_t> parents[ancestor]
    for i in range(elements):
        if reached_view[i]:
            score_view[i] += <double> tag_scores.get(tags[i], 0.0)
    return scores, reached
