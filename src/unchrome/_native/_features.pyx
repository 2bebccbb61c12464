# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
# distutils: extra_compile_args = -ffp-contract=off
"""The block model's feature matrix, assembled in one compiled pass: blockmodel.features
is a short Python function around ``assemble``.

In Python (numpy) the matrix was some sixty numpy calls and Python loops on arrays of
about a hundred blocks: the per-block columns, the kind one-hot, the neighbours'
series, windows and runs, the statistics of three ancestor levels, the repeated shapes
and texts (a Counter each), and the scatter of the words blocks say. Each call cost
more than its arithmetic. Here they are C loops that write the tested rows of the
output straight, for the wanted blocks; what depends only on the tested columns
(which group and feature each output row is, the words to look up) is worked out once
per columns array (Layout) instead of once per call.

Every value is the one numpy computed, bit for bit (tests/test_blockmodel.py holds
``assemble`` to a numpy reference):

- the arithmetic is the same double operations in the same order: the cumulative sum
  of the window means is sequential as numpy's add.accumulate is, each window mean is
  (csum[hi] - csum[lo]) / (hi - lo), np.minimum and np.maximum keep NaN as numpy's
  do. Floating-point contraction is off (-ffp-contract=off): a build for a target
  with FMA must not fuse a multiply and an add numpy does apart;
- the logarithms are the C library's. numpy's SIMD log and log1p (AVX-512), which the
  trees were fit on, differ from them by an ulp for some values (on the development
  machine log1p for 2,000 of the integers below 200,000, log for 157 of 200,000
  ratios); a feature is a float32, and the float32 of every value on all 4,063 pages
  of the suites is the same either way (tools/output_digest.py);
- float64 becomes float32 by a C cast, which rounds to nearest even as numpy's
  assignment does.

Arrays are flat (array.array and bytearray, see _arrays): a matrix's rows one after
the other.
"""

from cpython.dict cimport PyDict_GetItem, PyDict_SetDefault
from cpython.object cimport PyObject
from libc.math cimport log, log1p
from libc.stdint cimport int64_t

from array import array

from unchrome._native._arrays cimport doubles, floats, int64s

from unchrome._native._blocktext import TEXT_STATS, mask_bits, text_stats, word_hits

# The columns of the per-block group and of the neighbour group, in the order
# ``assemble`` writes them (blockmodel takes its names from here).
BLOCK_FEATURES = (
    "log_chars", "log_words", "link_share", "punct_share", "digit_share", "upper_share",
    "sentence_end", "mean_word_len", "lines", "stopword_share", "title_overlap",
    "title_same", "depth", "in_root", "link_noise", "in_link", "row", "position",
    "char_position", "repeat_shape", "repeat_text", "path_best",
    "owner_share", "owner_link", "owner_p", "owner_score",
    "parent_share", "parent_link", "parent_p", "parent_score",
    "grand_share", "grand_link", "grand_p", "grand_score",
)  # fmt: skip
NEIGHBOUR_FEATURES = (
    "prev_log_chars", "prev_link", "prev_heading", "prev_in_root",
    "next_log_chars", "next_link", "next_heading", "next_in_root",
    "win_in_root", "win_link", "win_log_chars", "win_heading",
    "run_in_root",
)  # fmt: skip

# The groups of columns, in the order of blockmodel.feature_names.
cdef enum:
    G_BLOCK = 0
    G_KIND = 1
    G_NEIGHBOUR = 2
    G_PAGE = 3
    G_MASK = 4
    G_SAYS = 5
    G_UNDER = 6
    GROUPS = 7

# Per-block columns: the text statistics (text_stats's columns 1-9 are features 3-11).
cdef enum:
    F_LOG_CHARS = 0
    F_LOG_WORDS = 1
    F_LINK = 2
    F_TEXT_FIRST = 3
    F_TEXT_LAST = 11
    F_DEPTH = 12
    F_IN_ROOT = 13
    F_NOISE = 14
    F_IN_LINK = 15
    F_ROW = 16
    F_POSITION = 17
    F_CHAR_POSITION = 18
    F_REPEAT_SHAPE = 19
    F_REPEAT_TEXT = 20
    F_PATH_BEST = 21
    F_ELEMENTS = 22  # then 4 per ancestor level: share, link, p, score

# The window of the neighbour means: the blocks within this many of a block.
cdef Py_ssize_t RADIUS = 2


cdef class Layout:
    """Where each tested column goes: the group and the feature within the group of
    every output row, and what the tested columns need computed.

    ``columns`` are sorted indices into the full feature list (None: all of them),
    ``widths`` the widths of the seven groups in order: per-block, kinds, neighbours,
    page, ancestor bits (near then far), says, under. ``kind_ids`` numbers the kinds
    (any other is ``len(kind_ids)``), ``headings`` are the kinds that are headings,
    ``text_index`` maps the vocabulary's text words to their columns, and ``in_link``,
    ``row`` are the flag bits of the two flag features.
    """

    cdef readonly Py_ssize_t width
    cdef readonly object group  # per output row: its group (int64)
    cdef readonly object local  # per output row: its feature within the group (int64)
    cdef int64_t[::1] group_v, local_v
    cdef readonly Py_ssize_t mask_first, mask_count, mask_size, words_first, page_width
    cdef readonly object mask_tested  # the tested bits (int64), for mask_bits
    cdef readonly object says_row, under_row  # per text word: its output row or -1
    cdef int64_t[::1] says_v, under_v
    cdef readonly dict index  # the text words whose says or under column is tested
    cdef readonly dict kind_ids
    cdef Py_ssize_t other_kind
    cdef unsigned char[::1] heading_v  # per kind id (and other): is a heading
    cdef readonly object heading
    cdef int64_t in_link, row_flag
    cdef readonly bint page, neighbours, words
    cdef readonly bint text, log_words, shapes, repeats, path_best, elements, scores

    def __init__(
        self,
        columns,
        tuple widths not None,
        dict kind_ids not None,
        headings,
        dict text_index not None,
        int64_t in_link,
        int64_t row,
    ):
        cdef Py_ssize_t starts[GROUPS + 1]
        cdef Py_ssize_t g, r, j, c, total = 0
        if len(widths) != GROUPS:
            raise ValueError("widths must give the seven groups")
        for g in range(GROUPS):
            starts[g] = total
            if widths[g] < 0:
                raise ValueError("a group's width is negative")
            total += widths[g]
        starts[GROUPS] = total
        if widths[G_BLOCK] != len(BLOCK_FEATURES) or widths[G_NEIGHBOUR] != len(NEIGHBOUR_FEATURES):
            raise ValueError("the per-block and neighbour groups are the compiled ones")
        if widths[G_KIND] != len(kind_ids) + 1:
            raise ValueError("the kind group is the kinds and one other")
        if widths[G_MASK] % 2 or widths[G_SAYS] != widths[G_UNDER]:
            raise ValueError("the bit and word groups do not fit the vocabulary")
        for i in text_index.values():
            if not 0 <= i < widths[G_SAYS]:
                raise ValueError("a text word's column is outside its group")
        cdef const int64_t[::1] cv = array("q", range(total)) if columns is None else columns
        cdef Py_ssize_t n = cv.shape[0]
        for r in range(n):
            if not 0 <= cv[r] < total:
                raise ValueError("a column is outside the features")
            if r and cv[r] < cv[r - 1]:
                raise ValueError("columns must be sorted")
        self.width = n
        self.group = int64s(n)
        self.local = int64s(n)
        self.group_v = self.group
        self.local_v = self.local
        words = widths[G_SAYS]
        self.says_row = int64s(words)
        self.under_row = int64s(words)
        self.says_v = self.says_row
        self.under_v = self.under_row
        self.says_v[:] = -1
        self.under_v[:] = -1
        self.mask_first = -1
        self.mask_count = 0
        self.words_first = n
        self.mask_size = widths[G_MASK] // 2
        self.page_width = widths[G_PAGE]
        tested_bits = []
        g = 0
        for r in range(n):
            c = cv[r]
            while c >= starts[g + 1]:
                g += 1
            j = c - starts[g]
            self.group_v[r] = g
            self.local_v[r] = j
            if g == G_MASK:
                if self.mask_first < 0:
                    self.mask_first = r
                self.mask_count += 1
                tested_bits.append(j)
            elif g == G_SAYS or g == G_UNDER:
                self.words_first = min(self.words_first, r)
                # As the dict of the Python code: a column asked twice is written
                # at its last row.
                if g == G_SAYS:
                    self.says_v[j] = r
                else:
                    self.under_v[j] = r
            elif g == G_PAGE:
                self.page = True
            elif g == G_NEIGHBOUR:
                self.neighbours = True
            elif g == G_BLOCK:
                if j == F_LOG_WORDS or F_TEXT_FIRST <= j <= F_TEXT_LAST:
                    self.text = True
                self.log_words = self.log_words or j == F_LOG_WORDS
                self.shapes = self.shapes or j == F_REPEAT_SHAPE
                self.repeats = self.repeats or j == F_REPEAT_TEXT
                self.path_best = self.path_best or j == F_PATH_BEST
                self.elements = self.elements or j >= F_ELEMENTS
        if self.mask_first < 0:
            self.mask_first = 0
        self.mask_tested = array("q", tested_bits)
        self.scores = self.path_best or self.elements
        self.words = self.words_first < n
        self.index = {
            word: i
            for word, i in text_index.items()
            if self.says_v[i] >= 0 or self.under_v[i] >= 0
        }
        if sorted(kind_ids.values()) != list(range(len(kind_ids))):
            raise ValueError("kind_ids must number the kinds from 0")
        # A copy: the tables sized from it must not outlive a change to the caller's.
        self.kind_ids = dict(kind_ids)
        self.other_kind = len(kind_ids)
        self.heading = bytearray(len(kind_ids) + 1)
        self.heading_v = self.heading
        for kind in headings:
            if kind in kind_ids:
                self.heading_v[kind_ids[kind]] = 1
        self.in_link = in_link
        self.row_flag = row


cdef inline double _minimum(double a, double b) noexcept nogil:
    """np.minimum: NaN wins."""
    return a if (a <= b or a != a) else b


cdef inline double _maximum(double a, double b) noexcept nogil:
    """np.maximum: NaN wins."""
    return a if (a >= b or a != a) else b


cdef inline Py_ssize_t _bisect_left(const int64_t[::1] a, Py_ssize_t x) noexcept nogil:
    """bisect.bisect_left over ``a``, step for step."""
    cdef Py_ssize_t lo = 0, hi = a.shape[0], mid
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef object _doubles(const unsigned char[::1] mask, Py_ssize_t n, str what):
    """A mask of ``n`` blocks as float64 values (numpy's astype)."""
    if mask.shape[0] != n:
        raise ValueError(f"{what} must have one value per block")
    out = doubles(n)
    cdef double[::1] o = out
    cdef Py_ssize_t i
    for i in range(n):
        o[i] = 1.0 if mask[i] else 0.0
    return out


def assemble(
    Layout layout not None,
    list blocks not None,
    rows,
    agg,
    sel,
    str title not None,
    list page_row,
) -> object:
    """The tested columns of the feature matrix, feature-major: a float32 array of
    layout.width rows of one value per block of ``rows``, the rows one after the other. ``rows`` (block indices; None: every block) are the
    blocks whose features are written; ``agg`` is the page's score.Aggregate, ``sel``
    its select.Selection, ``title`` the page's title and ``page_row`` the page
    group's values (None when the layout tests none of them)."""
    cdef Py_ssize_t n = len(blocks), count, i, k, r, j, b, level, e, d, t, lo, hi
    cdef int64_t[::1] pick
    pick_array = array("q", range(n) if rows is None else rows)
    pick = pick_array
    count = pick.shape[0]
    for k in range(count):
        if not 0 <= pick[k] < n:
            raise IndexError("a row is not a block")
    out = floats(layout.width * count)
    if count == 0:
        return out
    cdef float[::1] o = out
    if layout.page and (page_row is None or len(page_row) != layout.page_width):
        raise ValueError("the layout tests page features: page_row must give them all")

    # One pass over the blocks: lengths, links, flags, kinds, depths, the innermost
    # three elements of the path, and the shapes' and texts' counts.
    heading_array = bytearray(n)
    cdef double[::1] chars = doubles(n), link = doubles(n)
    cdef double[::1] cumulative = doubles(n)
    cdef unsigned char[::1] heading = heading_array
    cdef int64_t[::1] flags = int64s(n)
    cdef int64_t[::1] kinds = int64s(n)
    cdef int64_t[::1] depths = int64s(n)
    # The innermost three elements of each block's path, a row of the blocks each.
    cdef int64_t[::1] up = int64s(3 * n)
    up[:] = -1
    # Each block's shape and text numbered (the first block with it gives the number),
    # and the blocks of each number counted: Counter's counts, one hash a block. Four
    # rows of the blocks: the shape's number, the count of each shape number, the
    # text's number, the count of each text number.
    cdef int64_t[::1] same = int64s(4 * n)
    cdef list texts = [None] * n
    cdef dict shapes = {}, repeats = {}
    cdef dict kind_ids = layout.kind_ids
    cdef PyObject *found
    cdef tuple path
    cdef str text
    cdef double x
    for i in range(n):
        block = blocks[i]
        text = <str?> block.text
        texts[i] = text
        chars[i] = len(text)
        # np.cumsum(chars): sequential, the first item as it is.
        cumulative[i] = chars[i] if i == 0 else cumulative[i - 1] + chars[i]
        # np.minimum(links / chars, 1.0); 0 / 0 is NaN, as numpy's.
        link[i] = _minimum(<double> block.link_chars / chars[i], 1.0)
        flags[i] = block.flags
        found = PyDict_GetItem(kind_ids, block.kind)
        kinds[i] = <Py_ssize_t> <object> found if found is not NULL else layout.other_kind
        heading[i] = layout.heading_v[kinds[i]]
        path = <tuple?> block.path
        d = len(path)
        depths[i] = d
        for k in range(min(d, 3)):
            up[k * n + i] = path[d - 1 - k]
        if layout.shapes:
            found = PyDict_SetDefault(shapes, (block.kind, block.near_mask, d), len(shapes))
            same[0 * n + i] = <Py_ssize_t> <object> found
            same[1 * n + same[0 * n + i]] += 1
        if layout.repeats:
            found = PyDict_SetDefault(repeats, text, len(repeats))
            same[2 * n + i] = <Py_ssize_t> <object> found
            same[3 * n + same[2 * n + i]] += 1
    # log1p of the C library (see the module's docstring).
    cdef double[::1] log_chars = doubles(n)
    for i in range(n):
        log_chars[i] = log1p(chars[i])

    # The statistics of the wanted blocks' texts (_blocktext.text_stats).
    cdef const double[::1] table
    cdef double[::1] log_words
    cdef Py_ssize_t stats_width = len(TEXT_STATS)
    if layout.text:
        table = text_stats(texts if rows is None else [texts[pick[k]] for k in range(count)], title)
        if layout.log_words:
            log_words = doubles(count)
            for k in range(count):
                log_words[k] = log1p(table[k * stats_width])

    # In the selection and its noise, as float64 (numpy's astype).
    cdef const double[::1] in_root = _doubles(sel.in_root, n, "in_root")
    cdef const double[::1] noise = _doubles(sel.noise, n, "noise")

    # The elements: density scores, the best on each block's path, and the shares of
    # the innermost three.
    cdef const double[::1] e_chars, a_chars, p_chars, scores
    cdef const int64_t[::1] block_of, element_of
    cdef double page_chars = 1.0, win_score = 1.0
    cdef Py_ssize_t elements = 0, winner = sel.winner
    cdef double[::1] path_best
    cdef double[::1] e_log
    if layout.scores:
        e_chars = agg.chars
        elements = e_chars.shape[0]
        scores = agg.scores
        if scores.shape[0] != elements:
            raise ValueError("one score per element")
        if winner >= elements:
            raise IndexError("the winner is not an element")
        win_score = scores[winner] if winner >= 0 else 0.0
        win_score = win_score or 1.0
        page_chars = e_chars[0] + 1.0 if elements else 1.0
    if layout.path_best:
        path_best = doubles(n)
        block_of = agg.block_of
        element_of = agg.element_of
        if block_of.shape[0] != element_of.shape[0]:
            raise ValueError("block_of and element_of pair up")
        # np.maximum.at(path_best, block_of, scores[element_of] / win_score)
        for t in range(block_of.shape[0]):
            b, e = block_of[t], element_of[t]
            if not (0 <= b < n and 0 <= e < elements):
                raise IndexError("the incidence names a block or element that is not there")
            path_best[b] = _maximum(path_best[b], scores[e] / win_score)
    if layout.elements and elements:
        a_chars = agg.a_chars
        p_chars = agg.p_chars
        if a_chars.shape[0] != elements or p_chars.shape[0] != elements:
            raise ValueError("one value per element")
        # log((chars + 1) / page chars) of each wanted block's three elements, a row
        # per level (0.0 where there is none: -1.0 is written there).
        e_log = doubles(3 * count)
        for level in range(3):
            for k in range(count):
                e = up[level * n + pick[k]]
                if e >= elements:
                    raise IndexError("a block's element is not in the aggregate")
                if e >= 0:
                    e_log[level * count + k] = log((e_chars[e] + 1.0) / page_chars)

    # The neighbours' series (log chars, link share, heading, in the selection), their
    # sums for the window means, and the runs of the selection.
    cdef double[::1] csum
    cdef double[::1] runs
    cdef double total_chars = 0.0
    if layout.neighbours:
        # Four rows of n + 1 sums.
        csum = doubles(4 * (n + 1))
        # np.cumsum of each series: sequential, the first item as it is.
        for i in range(n):
            if i == 0:
                csum[0 * (n + 1) + 1] = log_chars[0]
                csum[1 * (n + 1) + 1] = link[0]
                csum[2 * (n + 1) + 1] = <double> heading[0]
                csum[3 * (n + 1) + 1] = in_root[0]
            else:
                csum[0 * (n + 1) + i + 1] = csum[0 * (n + 1) + i] + log_chars[i]
                csum[1 * (n + 1) + i + 1] = csum[1 * (n + 1) + i] + link[i]
                csum[2 * (n + 1) + i + 1] = csum[2 * (n + 1) + i] + <double> heading[i]
                csum[3 * (n + 1) + i + 1] = csum[3 * (n + 1) + i] + in_root[i]
        runs = doubles(n)
        i = 0
        while i < n:
            k = i + 1
            while k < n and in_root[k] - in_root[k - 1] == 0:
                k += 1
            for t in range(i, k):
                runs[t] = <double> (k - i) / <double> n
            i = k
    for i in range(n):
        total_chars += chars[i]  # integers: exact in any order, as numpy's pairwise sum
    total_chars = total_chars or 1.0

    cdef Py_ssize_t g
    cdef float *row
    cdef double value
    cdef double scale = <double> max(n, 1)
    for r in range(layout.width):
        g = layout.group_v[r]
        j = layout.local_v[r]
        row = &o[r * count]
        if g == G_BLOCK:
            if j == F_CHAR_POSITION:
                # (np.cumsum(chars) - chars) / total_chars
                for k in range(count):
                    b = pick[k]
                    row[k] = <float> ((cumulative[b] - chars[b]) / total_chars)
                continue
            if j >= F_ELEMENTS:
                level = (j - F_ELEMENTS) // 4
                t = (j - F_ELEMENTS) % 4
                for k in range(count):
                    e = up[level * n + pick[k]]
                    if e < 0 or not elements:
                        row[k] = -1.0
                    elif t == 0:
                        row[k] = <float> e_log[level * count + k]
                    else:
                        x = e_chars[e]
                        if t == 3:
                            value = scores[e] / win_score
                        else:
                            value = (a_chars[e] if t == 1 else p_chars[e]) / _maximum(x, 1.0)
                        row[k] = <float> value
                continue
            for k in range(count):
                b = pick[k]
                if j == F_LOG_CHARS:
                    value = log_chars[b]
                elif j == F_LOG_WORDS:
                    value = log_words[k]
                elif j == F_LINK:
                    value = link[b]
                elif j <= F_TEXT_LAST:
                    value = table[k * stats_width + j - 2]
                elif j == F_DEPTH:
                    value = <double> depths[b]
                elif j == F_IN_ROOT:
                    value = in_root[b]
                elif j == F_NOISE:
                    value = noise[b]
                elif j == F_IN_LINK:
                    value = 1.0 if flags[b] & layout.in_link else 0.0
                elif j == F_ROW:
                    value = 1.0 if flags[b] & layout.row_flag else 0.0
                elif j == F_POSITION:
                    value = <double> b / scale
                elif j == F_REPEAT_SHAPE:
                    value = <double> same[1 * n + same[0 * n + b]] / scale
                elif j == F_REPEAT_TEXT:
                    value = <double> same[3 * n + same[2 * n + b]]
                else:  # F_PATH_BEST
                    value = path_best[b]
                row[k] = <float> value
        elif g == G_KIND:
            for k in range(count):
                row[k] = 1.0 if kinds[pick[k]] == j else 0.0
        elif g == G_NEIGHBOUR:
            for k in range(count):
                b = pick[k]
                if j < 8:
                    # prev (j < 4) or next of series j % 4; 0 past either end.
                    i = b - 1 if j < 4 else b + 1
                    if i < 0 or i >= n:
                        value = 0.0
                    elif j % 4 == 0:
                        value = log_chars[i]
                    elif j % 4 == 1:
                        value = link[i]
                    elif j % 4 == 2:
                        value = <double> heading[i]
                    else:
                        value = in_root[i]
                elif j < 12:
                    # The window means in the order in_root, link, log chars, heading.
                    t = 3 if j == 8 else 1 if j == 9 else 0 if j == 10 else 2
                    lo = max(b - RADIUS, 0)
                    hi = min(b + RADIUS + 1, n)
                    value = (csum[t * (n + 1) + hi] - csum[t * (n + 1) + lo]) / <double> (hi - lo)
                else:
                    value = runs[b]
                row[k] = <float> value
        elif g == G_PAGE:
            value = page_row[j]
            for k in range(count):
                row[k] = <float> value
        elif g == G_SAYS or g == G_UNDER:
            for k in range(count):
                row[k] = 0.0

    if layout.mask_count:
        # The tested bits of the blocks' ancestor bit sets (_blocktext.mask_bits).
        mask_bits(
            blocks,
            None if rows is None else pick_array,
            layout.mask_size,
            layout.mask_tested,
            out,
            layout.mask_first,
        )

    cdef int64_t[::1] column_of
    cdef const int64_t[::1] says_row = layout.says_v, under_row = layout.under_v
    cdef Py_ssize_t word, column
    if layout.words:
        # The words short blocks and headings say (_blocktext.word_hits), scattered:
        # (block, word) pairs into the says rows, stretches of blocks under a heading
        # into the under rows.
        marked = None
        if rows is not None:
            marked = bytearray(n)
            column_of = int64s(n)
            column_of[:] = -1
            for k in range(count):
                marked[pick[k]] = 1
                column_of[pick[k]] = k
        said_rows, said_words, stretches = word_hits(texts, heading_array, layout.index, marked)
        for t in range(len(said_rows)):
            b = said_rows[t]
            word = said_words[t]
            r = says_row[word]
            column = b if rows is None else column_of[b]
            if r >= 0 and column >= 0:
                o[r * count + column] = 1.0
        for start, end, hits in stretches:
            lo = _bisect_left(pick, start)
            hi = _bisect_left(pick, end)
            for word in hits:
                r = under_row[word]
                if r >= 0:
                    for k in range(lo, hi):
                        o[r * count + k] = 1.0
    return out
