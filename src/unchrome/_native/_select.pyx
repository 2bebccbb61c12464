# cython: language_level=3, boundscheck=False, wraparound=False
"""The density selection's loops over the elements, compiled (select.select_blocks).

Each was a Python loop over every block element of the page (about 180 at the median
news page): the candidate test by tag, the propagation of the roots down the element
tree, and the link-list and chrome verdicts inside the roots. Also the search of a
block's path that select.drop_repeats makes for every repeated block (innermost).
"""

from libc.stdint cimport int64_t

from unchrome._native._arrays cimport int64s


def candidates(list tags, frozenset names, const double[::1] chars):
    """Per element (mask): whether its tag is one of ``names`` and it holds text
    (``chars``, score.Aggregate's)."""
    cdef Py_ssize_t n = len(tags), i
    if chars.shape[0] != n:
        raise ValueError("one tag and one sum per element")
    out = bytearray(n)
    cdef unsigned char[::1] view = out
    for i in range(n):
        view[i] = chars[i] > 0 and tags[i] in names
    return out


def root_owners(list parents, set roots):
    """Per element (int64 array "q"): the root (an element of ``roots``) that holds it, or
    -1. Parents come before their children, so one pass in id order propagates them."""
    cdef Py_ssize_t n = len(parents), element
    cdef int64_t parent
    owner = int64s(n)
    cdef int64_t[::1] view = owner
    for element in range(n):
        view[element] = -1
    for element in range(n):
        if element in roots:
            view[element] = element
        else:
            parent = parents[element]
            if parent >= element:
                raise ValueError(f"element {element}'s parent {parent} does not come before it")
            if parent >= 0:
                view[element] = view[parent]
    return owner


def owned(const int64_t[::1] root_of):
    """Per element (mask): held by a root (``root_of``, root_owners')."""
    cdef Py_ssize_t n = root_of.shape[0], i
    out = bytearray(n)
    cdef unsigned char[::1] view = out
    for i in range(n):
        view[i] = root_of[i] >= 0
    return out


def noise_elements(
    list tags,
    list named_as,
    const double[::1] chars,
    const double[::1] a_chars,
    const double[::1] card_chars,
    const int64_t[::1] root_of,
    set roots,
    frozenset link_block_tags,
    frozenset drop_tags,
    *,
    double link_list_share,
    double link_list_max_fraction,
    double cards_max_share,
    double named_link_share,
    double named_max_chars,
):
    """Per element (mask): a navigation-like block inside a root, by the rules and
    thresholds select._noise_elements documents."""
    cdef Py_ssize_t n = len(tags), element
    cdef int64_t root
    cdef double total, t_chars, links
    cdef bint link_block, named, index_page, cards_are_links
    if not (
        len(named_as) == chars.shape[0] == a_chars.shape[0] == card_chars.shape[0]
        == root_of.shape[0] == n
    ):
        raise ValueError("one tag, chrome verdict, sum and root per element")
    doomed = bytearray(n)
    cdef unsigned char[::1] view = doomed
    for element in range(n):
        root = root_of[element]
        if root >= n:
            raise ValueError(f"element {element}'s root {root} is not an element")
        if root < 0 or element in roots:
            continue
        tag = tags[element]
        link_block = tag in link_block_tags
        named = named_as[element] & 1  # segmentation.NAMED_CHROME: sidebars too, not bodies
        if not link_block and not named:
            continue
        if tag in drop_tags:
            view[element] = 1
            continue
        total = chars[root]
        t_chars = chars[element]
        if t_chars == 0:
            continue
        if link_block:
            # A body that is itself mostly links is a link index: its lists are content.
            index_page = a_chars[root] > link_list_share * total
            cards_are_links = card_chars[root] < cards_max_share * total
            links = a_chars[element] + (card_chars[element] if cards_are_links else 0.0)
            if (
                not index_page
                and links > link_list_share * t_chars
                and t_chars < link_list_max_fraction * total
            ):
                view[element] = 1
                continue
            if (
                named
                and t_chars < link_list_max_fraction * total
                and (a_chars[element] >= named_link_share * t_chars or t_chars < named_max_chars)
            ):
                view[element] = 1
    return doomed


def blocks_inside(
    const int64_t[::1] block_of,
    const int64_t[::1] element_of,
    const unsigned char[::1] marked,
    Py_ssize_t blocks,
):
    """Per block (mask): whether an element holding it (the incidence
    ``block_of``/``element_of`` of score.Aggregate) is ``marked`` (one byte per
    element)."""
    cdef Py_ssize_t k, n = block_of.shape[0]
    cdef int64_t element, block
    out = bytearray(blocks)
    cdef unsigned char[::1] view = out
    for k in range(n):
        element = element_of[k]
        block = block_of[k]
        if element < 0 or element >= marked.shape[0] or block < 0 or block >= blocks:
            raise ValueError(f"incidence {k} names block {block}, element {element}: out of range")
        if marked[element]:
            view[block] = 1
    return out


def innermost(list tags, tuple path, frozenset names) -> int:
    """The innermost element of ``path`` (a block's block elements, outermost first)
    whose tag is one of ``names``, or -1. On the 4 MiB page of bench --profile, where
    each copy of the story repeats the first, drop_repeats asked 15,900 times: 9 ms as
    a Python loop."""
    cdef Py_ssize_t k, element, n = len(tags)
    for k in range(len(path) - 1, -1, -1):
        element = path[k]
        if element < 0 or element >= n:
            raise IndexError(f"element {element} of a path is not one of {n}")
        if tags[element] in names:
            return element
    return -1


def children(list parents, Py_ssize_t parent):
    """The elements whose parent is ``parent``, in id order: a winner's or a top
    candidate's siblings. ``np.flatnonzero(np.asarray(parents) == parent)`` made an
    array of the whole list first, 0.02 ms at the mean news page."""
    cdef Py_ssize_t n = len(parents), element
    cdef list found = []
    for element in range(n):
        if <Py_ssize_t> parents[element] == parent:
            found.append(element)
    return found
