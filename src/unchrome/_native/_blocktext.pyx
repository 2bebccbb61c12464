# cython: language_level=3, boundscheck=False, wraparound=False
"""The statistics of a block's text, compiled: the block model's word statistics and
character shares of each block, and the short words a block or the heading above it
says ("Share", "Related posts"); blockmodel.features reads both, and the bits of the
blocks' ancestor class/id sets that its trees test (mask_bits). Also the word count of
the extracted text (word_count, for render.count_words).

In Python these were a loop over the blocks that made a new string for every word of
every block (a lowered copy of the sample, its split, the words tested against the
stopwords and the title one by one) and an array of the code points of all samples
joined, classed by a numpy table. Here one pass over a block's characters counts the
classes, cuts the words and looks each one up in a C hash table of the stopwords and
title words, making no string; only a non-ASCII text is lowered, by Python's
``str.lower`` (full case mapping: "İ" lowers to two characters, a final "Σ" to "ς").
The words a short block says become strings only where a dict of words has to be
asked, after the count of its words has let it through.

The character sets and the whitespace are Python's: a word ends at what ``str.split``
takes for whitespace (``Py_UNICODE_ISSPACE``: \\x1c-\\x1f, \\x85 and the no-break
spaces too) or at a character of WORD_PUNCT; a word a block says is a run of re's
``\\w`` (``Py_UNICODE_ISALNUM`` or "_"). tests/test_blocktext.py holds every
function here to a plain Python reference on generated text.
"""

from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from unchrome._native._arrays cimport doubles, int64s

from unchrome.rules.tags import HEADINGS

cdef extern from "Python.h":
    int Py_UNICODE_ISSPACE(unsigned int ch) nogil
    int Py_UNICODE_ISALNUM(unsigned int ch) nogil
    int PyUnicode_KIND(object text)
    void *PyUnicode_DATA(object text)
    unsigned int PyUnicode_READ(int kind, void *data, Py_ssize_t index) nogil
    bint PyUnicode_IS_ASCII(object text)
    object PyUnicode_Substring(object text, Py_ssize_t start, Py_ssize_t end)
    Py_ssize_t PyUnicode_Count(object text, object sub, Py_ssize_t start, Py_ssize_t end) except -1

# Short function words of the languages the dev split carries most. Their share in a
# block separates running prose from labels, menus and button text in any of them.
STOPWORDS = frozenset(
    [
        "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with",
        "from", "as", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that",
        "these", "those", "you", "your", "we", "our", "they", "their", "he", "she", "his", "her",
        "not", "no", "can", "will", "would", "should", "may", "might", "have", "has", "had", "do",
        "does", "did", "so", "if", "than", "then", "there", "which", "who", "what", "when", "where",
        "how", "all", "any", "more", "most", "some", "such", "into", "about", "over", "also", "der",
        "die", "das", "und", "oder", "ein", "eine", "einer", "ist", "sind", "war", "nicht", "mit",
        "von", "zu", "im", "den", "dem", "des", "auf", "für", "sich", "auch", "es", "als", "wie",
        "bei", "aus", "le", "la", "les", "un", "une", "des", "du", "de", "et", "ou", "est", "sont",
        "pas", "pour", "dans", "sur", "avec", "que", "qui", "il", "elle", "au", "aux", "ce",
        "cette", "el", "los", "las", "y", "o", "es", "son", "por", "para", "con", "del", "se",
        "que", "una", "lo", "al", "como", "más", "il", "lo", "gli", "uno", "di", "che", "non",
        "per", "da", "nel", "della", "o", "os", "um", "uma", "do", "da", "em", "não", "para", "com",
        "que", "é", "het", "een", "van", "en", "de", "niet", "op", "te", "zijn",
    ]
)  # fmt: skip

# Text statistics read at most this much of a block: a share of punctuation or digits
# is as clear in the first 400 characters as in the whole, and long blocks are rare.
STATS_SAMPLE_CHARS = 400
# The words a block splits into are cut at these as at spaces ("Home|About", "(new)").
WORD_PUNCT = ".,;:!?()[]{}\"'“”‘’«»/|·•—–-…。、！？，；：（）「」『』《》【】"
# The punctuation of the punctuation share. Full-width CJK punctuation counts as its
# Latin counterpart does (a Chinese paragraph punctuates with ，。；：！？).
SHARE_PUNCT = ".,;:!?。、！？，；：．"
# A block whose text ends in one of these ends a sentence.
SENTENCE_ENDS = '.!?。！？:)"”»：）」』．'
# Chinese and Japanese write no spaces: each Han or kana character counts as a word, or
# a Japanese paragraph would read as one very long word (a menu label).
CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
# A block "says" its words when it is shorter than this many characters and has at most
# SAYS_MAX_WORDS words ("Share", "Read more", "Sign up"); a heading this short passes
# its words to the blocks under it, however many it has.
SAYS_MAX_CHARS = 80
SAYS_MAX_WORDS = 6

# What each character of the Basic Multilingual Plane is to the statistics, as bits. A
# character past the BMP is none of these: every set above lies inside it.
cdef enum:
    CUT = 1  # in WORD_PUNCT
    PUNCT = 2  # in SHARE_PUNCT
    DIGIT = 4  # 0-9
    CAPITAL = 8  # A-Z
    END = 16  # in SENTENCE_ENDS
    CJK = 32  # a Han or kana character
    WORD = 64  # an ASCII \w character (past ASCII, Py_UNICODE_ISALNUM is asked)

cdef unsigned char _FLAGS[0x10000]
cdef Py_ssize_t _i
cdef Py_UCS4 _c
memset(_FLAGS, 0, sizeof(_FLAGS))
for _c in WORD_PUNCT:
    _FLAGS[_c] |= CUT
for _c in SHARE_PUNCT:
    _FLAGS[_c] |= PUNCT
for _c in SENTENCE_ENDS:
    _FLAGS[_c] |= END
for _i in range(0x30, 0x3A):
    _FLAGS[_i] |= DIGIT | WORD
for _i in range(0x41, 0x5B):
    _FLAGS[_i] |= CAPITAL | WORD
for _i in range(0x61, 0x7B):
    _FLAGS[_i] |= WORD
_FLAGS[0x5F] |= WORD
for _lo, _hi in CJK_RANGES:
    for _i in range(_lo, _hi + 1):
        _FLAGS[_i] |= CJK


cdef inline unsigned char _flags(unsigned int c) noexcept nogil:
    return _FLAGS[c] if c < 0x10000 else 0


cdef inline unsigned int _fold(unsigned int c) noexcept nogil:
    """ASCII lowering: the A-Z of a text not lowered by str.lower (an ASCII text; in a
    lowered one there are none left)."""
    return c + 0x20 if 0x41 <= c <= 0x5A else c


cdef inline bint _cuts(unsigned int c) noexcept nogil:
    """Whether ``c`` ends a word of the statistics: whitespace or WORD_PUNCT."""
    return Py_UNICODE_ISSPACE(c) or (_flags(c) & CUT)


cdef inline bint _is_word(unsigned int c) noexcept nogil:
    """Whether ``c`` is a character of re's \\w (str pattern)."""
    if c < 0x80:
        return _FLAGS[c] & WORD
    return Py_UNICODE_ISALNUM(c)


cdef inline uint64_t _hash(int kind, void *data, Py_ssize_t start, Py_ssize_t end) noexcept:
    """FNV-1a over the folded code points of text[start:end]."""
    cdef uint64_t h = 14695981039346656037ULL
    cdef Py_ssize_t k
    for k in range(start, end):
        h = (h ^ _fold(PyUnicode_READ(kind, data, k))) * 1099511628211ULL
    return h


cdef class _WordSet:
    """A set of distinct lowercase words, each with its number (in insertion order),
    looked up by a slice of a text's code points without making a string: open
    addressing over a power-of-two table."""

    cdef unsigned int *chars  # the words' code points, one after the other
    cdef Py_ssize_t *start  # per word: where its code points start in chars
    cdef Py_ssize_t *length
    cdef uint64_t *hashes
    cdef Py_ssize_t *slots  # word number + 1, 0 for an empty slot
    cdef Py_ssize_t mask
    cdef readonly Py_ssize_t size
    cdef readonly Py_ssize_t longest

    def __cinit__(self, words):
        words = list(dict.fromkeys(words))
        cdef Py_ssize_t count = len(words), total = 0, k, at, slot, capacity = 8
        cdef str word
        cdef Py_UCS4 c
        for word in words:
            total += len(word)
        while capacity < 2 * count:
            capacity *= 2
        self.chars = <unsigned int *> malloc(max(total, 1) * sizeof(unsigned int))
        self.start = <Py_ssize_t *> malloc(max(count, 1) * sizeof(Py_ssize_t))
        self.length = <Py_ssize_t *> malloc(max(count, 1) * sizeof(Py_ssize_t))
        self.hashes = <uint64_t *> malloc(max(count, 1) * sizeof(uint64_t))
        self.slots = <Py_ssize_t *> malloc(capacity * sizeof(Py_ssize_t))
        if not (self.chars and self.start and self.length and self.hashes and self.slots):
            raise MemoryError()
        memset(self.slots, 0, capacity * sizeof(Py_ssize_t))
        self.mask = capacity - 1
        self.size = count
        self.longest = 0
        at = 0
        for k in range(count):
            word = words[k]
            self.start[k] = at
            self.length[k] = len(word)
            self.longest = max(self.longest, len(word))
            for c in word:
                self.chars[at] = c
                at += 1
            self.hashes[k] = _hash(PyUnicode_KIND(word), PyUnicode_DATA(word), 0, len(word))
            slot = self.hashes[k] & self.mask
            while self.slots[slot]:
                slot = (slot + 1) & self.mask
            self.slots[slot] = k + 1

    def __dealloc__(self):
        free(self.chars)
        free(self.start)
        free(self.length)
        free(self.hashes)
        free(self.slots)

    cdef Py_ssize_t find(
        self, int kind, void *data, Py_ssize_t start, Py_ssize_t end, uint64_t h
    ) noexcept:
        """The number of the word text[start:end] (A-Z folded; ``h`` its _hash), or
        -1."""
        cdef Py_ssize_t n = end - start, slot, word, k
        cdef unsigned int *chars
        if n > self.longest:
            return -1
        slot = h & self.mask
        while self.slots[slot]:
            word = self.slots[slot] - 1
            if self.hashes[word] == h and self.length[word] == n:
                chars = self.chars + self.start[word]
                for k in range(n):
                    if _fold(PyUnicode_READ(kind, data, start + k)) != chars[k]:
                        break
                else:
                    return word
            slot = (slot + 1) & self.mask
        return -1


cdef _WordSet _STOPWORD_SET = _WordSet(STOPWORDS)


cdef inline Py_ssize_t _next_word(
    int kind, void *data, Py_ssize_t n, Py_ssize_t *at
) noexcept:
    """The start of the next word of the statistics from ``at[0]``, which is left at its
    end; -1 when none is left."""
    cdef Py_ssize_t k = at[0], start
    while k < n and _cuts(PyUnicode_READ(kind, data, k)):
        k += 1
    if k >= n:
        at[0] = n
        return -1
    start = k
    while k < n and not _cuts(PyUnicode_READ(kind, data, k)):
        k += 1
    at[0] = k
    return start


cdef inline bint _ends_sentence(int kind, void *data, Py_ssize_t length) noexcept:
    """Whether the last character of a text past whitespace (``str.rstrip``'s) is in
    SENTENCE_ENDS."""
    cdef Py_ssize_t last = length - 1
    while last >= 0 and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, last)):
        last -= 1
    return last >= 0 and (_flags(PyUnicode_READ(kind, data, last)) & END) != 0


def ends_sentence(str text not None) -> bool:
    """Whether ``text`` ends a sentence: ``text.rstrip()[-1:]`` is in SENTENCE_ENDS."""
    return _ends_sentence(PyUnicode_KIND(text), PyUnicode_DATA(text), len(text))


# A block is a paragraph of prose when it has at least PROSE_CHARS characters, ends a
# sentence and is mostly not link text: what a story is made of, and what a sidebar of
# teasers, link lists and widgets is not (select's orphan rule, policy.story_end,
# the extractor's comment retry).
PROSE_CHARS = 60
PROSE_LINK_SHARE = 0.5
cdef Py_ssize_t _PROSE_CHARS = PROSE_CHARS
cdef double _PROSE_LINK_SHARE = PROSE_LINK_SHARE
cdef frozenset _HEADING_KINDS = HEADINGS


cpdef bint is_prose(object block) except -1:
    """Whether a block (segmentation.Block) reads as a paragraph of a story (see
    PROSE_CHARS). Compiled: the selection asks it of every block of the page."""
    cdef str text = block.text
    cdef Py_ssize_t size = len(text)
    return (
        size >= _PROSE_CHARS
        and block.link_chars < _PROSE_LINK_SHARE * size
        and block.kind not in _HEADING_KINDS
        and _ends_sentence(PyUnicode_KIND(text), PyUnicode_DATA(text), size)
    )


def prose_chars(list blocks not None):
    """Per block (float64 array "d"): its characters where it reads as prose
    (is_prose), else 0."""
    cdef Py_ssize_t n = len(blocks), i
    out = doubles(n)
    cdef double[::1] view = out
    for i in range(n):
        block = blocks[i]
        if is_prose(block):
            view[i] = len(<str> block.text)
    return out


def words(str text not None) -> list:
    """The words of ``text`` as the statistics count them: lowered, cut at whitespace
    and WORD_PUNCT (``text.lower()`` with WORD_PUNCT blanked, then ``str.split()``)."""
    lowered = text.lower()
    cdef int kind = PyUnicode_KIND(lowered)
    cdef void *data = PyUnicode_DATA(lowered)
    cdef Py_ssize_t n = len(lowered), at = 0, start
    out = []
    while True:
        start = _next_word(kind, data, n, &at)
        if start < 0:
            return out
        out.append(PyUnicode_Substring(lowered, start, at))


# The columns of text_stats, in order.
TEXT_STATS = (
    "words", "punct_share", "digit_share", "upper_share", "sentence_end",
    "mean_word_len", "lines", "stopword_share", "title_overlap", "title_same",
)  # fmt: skip


def text_stats(list texts not None, str title not None) -> object:
    """The statistics of each text, one row per text, columns as in TEXT_STATS: a
    float64 array ("d") of the rows one after the other.

    Of the first STATS_SAMPLE_CHARS characters (the sample): the words (Han and kana
    characters count one each) scaled to the whole text's length, the shares of
    punctuation, digits and capitals among the characters, the mean length of a word
    (CJK characters not counted), the shares of stopwords among the words and of the
    title's distinct words found among them. Of the whole text: whether it ends a
    sentence (its last character past whitespace in SENTENCE_ENDS), its newlines, and
    whether it is the title (lowered, whitespace collapsed in the title). An empty text
    has zeros.
    """
    cdef Py_ssize_t count = len(texts), row, k
    cdef _WordSet title_set = _WordSet(words(title))
    title_norm = " ".join(title.lower().split())
    cdef Py_ssize_t title_size = title_set.size, title_length = len(title_norm)
    # Words longer than any stopword or title word are not looked up (nor hashed).
    cdef Py_ssize_t longest = max(_STOPWORD_SET.longest, title_set.longest)
    cdef uint64_t h
    cdef Py_ssize_t width = len(TEXT_STATS)
    out = doubles(count * width)
    cdef double[::1] table = out
    # Per title word, the last text that had it: a word counts once per text.
    cdef int64_t[::1] seen = int64s(max(title_size, 1))
    seen[:] = -1
    # 16% of the blocks of a page repeat an earlier block's text ("Share", "Read more",
    # a price): each distinct text is read once and its row copied.
    cdef dict known = {}
    cdef PyObject *found
    cdef str text
    cdef object lowered
    cdef int kind, lkind
    cdef void *data
    cdef void *ldata
    cdef Py_ssize_t length, n, ln, at, start, nwords, letters, stops, hits, word, cjk
    cdef Py_ssize_t punct, digits, capitals, lines, nw
    cdef unsigned char f
    cdef bint ascii
    for row in range(count):
        text = texts[row]
        if text is None:
            raise TypeError("texts must be str")
        found = PyDict_GetItem(known, text)
        if found is not NULL:
            for k in range(len(TEXT_STATS)):
                table[row * width + k] = table[(<Py_ssize_t> <object> found) * width + k]
            continue
        known[text] = row
        length = len(text)
        if length == 0:
            continue
        n = min(length, STATS_SAMPLE_CHARS)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        ascii = PyUnicode_IS_ASCII(text)
        punct = digits = capitals = cjk = lines = 0
        for k in range(n):
            f = _flags(PyUnicode_READ(kind, data, k))
            punct += (f & PUNCT) != 0
            digits += (f & DIGIT) != 0
            capitals += (f & CAPITAL) != 0
            cjk += (f & CJK) != 0
        lines = PyUnicode_Count(text, "\n", 0, length)
        # The words of the sample, lowered. An ASCII text is lowered as it is read
        # (_fold); any other goes through str.lower, which may change its length.
        if ascii:
            lowered, lkind, ldata, ln = text, kind, data, n
        else:
            lowered = PyUnicode_Substring(text, 0, n).lower()
            lkind, ldata, ln = PyUnicode_KIND(lowered), PyUnicode_DATA(lowered), len(lowered)
        nwords = letters = stops = hits = 0
        at = 0
        while True:
            start = _next_word(lkind, ldata, ln, &at)
            if start < 0:
                break
            nwords += 1
            letters += at - start
            if at - start > longest:
                continue
            h = _hash(lkind, ldata, start, at)
            stops += _STOPWORD_SET.find(lkind, ldata, start, at, h) >= 0
            if title_size:
                word = title_set.find(lkind, ldata, start, at, h)
                if word >= 0 and seen[word] != row:
                    seen[word] = row
                    hits += 1
        nw = nwords + cjk
        table[row * width + 0] = <double> (nw * length) / <double> n
        table[row * width + 1] = <double> punct / <double> n
        table[row * width + 2] = <double> digits / <double> n
        table[row * width + 3] = <double> capitals / <double> n
        table[row * width + 4] = _ends_sentence(kind, data, length)
        nw = nw or 1
        table[row * width + 5] = <double> max(0, letters - cjk) / <double> nw
        table[row * width + 6] = <double> lines
        table[row * width + 7] = <double> stops / <double> nw
        table[row * width + 8] = <double> hits / <double> title_size if title_size else 0.0
        table[row * width + 9] = 1.0 if length == title_length and text.lower() == title_norm else 0.0
    return out


def word_hits(
    list texts not None,
    const unsigned char[::1] headings not None,
    dict index not None,
    const unsigned char[::1] wanted=None,
) -> tuple:
    """The words of ``index`` (word -> column) that short texts say, as (text, column)
    pairs, and the stretches under the headings that say any: (first text, end, the
    heading's word columns), a stretch running to the next heading's first text.

    A text says its words when shorter than SAYS_MAX_CHARS with at most SAYS_MAX_WORDS
    words; words are the ``\\w+`` runs of the lowered text. ``headings`` marks the
    headings (a stretch starts under every one, whatever its length); with ``wanted``,
    only the texts it marks say anything (headings are read everywhere: the texts
    under them need their words).
    """
    cdef Py_ssize_t count = len(texts), i, n, k, nwords, start
    cdef str text
    cdef object lowered
    cdef int kind
    cdef void *data
    cdef bint heading, in_word, ascii, capitals
    cdef unsigned int c
    cdef PyObject *column
    said_rows = []
    said_words = []
    starts = []
    heads = []
    if headings.shape[0] != count or (wanted is not None and wanted.shape[0] != count):
        raise ValueError("headings (and wanted) must mark each text once")
    for i in range(count):
        text = texts[i]
        if text is None:
            raise TypeError("texts must be str")
        heading = headings[i]
        n = len(text)
        if n >= SAYS_MAX_CHARS:
            if heading:
                starts.append(i + 1)
                heads.append([])
            continue
        if wanted is not None and not wanted[i] and not heading:
            continue
        # Count the words first (an ASCII text need not be lowered for that): a text
        # past SAYS_MAX_WORDS that is no heading makes no string at all.
        ascii = PyUnicode_IS_ASCII(text)
        lowered = text if ascii else text.lower()
        kind, data, n = PyUnicode_KIND(lowered), PyUnicode_DATA(lowered), len(lowered)
        nwords = 0
        in_word = capitals = False
        for k in range(n):
            c = PyUnicode_READ(kind, data, k)
            capitals = capitals or (ascii and (_flags(c) & CAPITAL))
            if _is_word(c):
                if not in_word:
                    nwords += 1
                    in_word = True
            else:
                in_word = False
        if nwords > SAYS_MAX_WORDS and not heading:
            continue
        if capitals:
            lowered = text.lower()
            data = PyUnicode_DATA(lowered)
        hits = []
        k = 0
        while k < n:
            if not _is_word(PyUnicode_READ(kind, data, k)):
                k += 1
                continue
            start = k
            while k < n and _is_word(PyUnicode_READ(kind, data, k)):
                k += 1
            column = PyDict_GetItem(index, PyUnicode_Substring(lowered, start, k))
            if column is not NULL:
                hits.append(<object> column)
        if hits and nwords <= SAYS_MAX_WORDS:
            said_rows += [i] * len(hits)
            said_words += hits
        if heading:
            starts.append(i + 1)
            heads.append(hits)
    stretches = [
        (starts[k], starts[k + 1] if k + 1 < len(starts) else count, heads[k])
        for k in range(len(starts))
        if heads[k]
    ]
    return said_rows, said_words, stretches


def mask_bits(
    list blocks not None,
    const int64_t[::1] rows,
    Py_ssize_t size,
    const int64_t[::1] tested not None,
    float[::1] out not None,
    Py_ssize_t first_row=0,
) -> None:
    """Write the ``tested`` bits of the blocks' ancestor bit sets into ``out`` (a
    float32 matrix, its rows one after the other), one row per tested bit from row
    ``first_row`` on and one column per block of ``rows`` (every block when None): bit
    t of ``near_mask`` for t < ``size``, else bit t - ``size`` of ``far_mask``.

    The bit sets are Python ints of ``size`` bits, read as ``int.to_bytes`` gives them
    (little-endian), once per distinct value: a page repeats its sets (at the mean page
    of the two sets 40 distinct ones among the 217 of 109 blocks).
    """
    cdef Py_ssize_t count = len(blocks) if rows is None else rows.shape[0]
    cdef Py_ssize_t nbytes = (size + 7) // 8, j, r, t, block, offset
    cdef dict unpacked = {}
    if first_row < 0 or out.shape[0] < (first_row + tested.shape[0]) * count:
        raise ValueError("out must hold a row of the blocks for each tested bit")
    for r in range(tested.shape[0]):
        if not 0 <= tested[r] < 2 * size:
            raise ValueError("a tested bit is outside the two bit sets")
    if count == 0:
        return
    # Each block's two sets, near then far, as pointers to the bytes ``unpacked`` holds.
    cdef const unsigned char **sets = <const unsigned char **> malloc(
        2 * max(count, 1) * sizeof(unsigned char *)
    )
    if sets is NULL:
        raise MemoryError()
    cdef bytes value
    cdef unsigned char shift
    cdef float *row
    try:
        for j in range(count):
            block = j if rows is None else rows[j]
            b = blocks[block]
            value = _mask_bytes(unpacked, b.near_mask, nbytes)
            sets[j] = value
            value = _mask_bytes(unpacked, b.far_mask, nbytes)
            sets[count + j] = value
        # Row by row: each bit's row of ``out`` is written in order.
        for r in range(tested.shape[0]):
            t = tested[r]
            offset = 0 if t < size else count
            if t >= size:
                t -= size
            shift = t & 7
            t >>= 3
            row = &out[(first_row + r) * count]
            for j in range(count):
                row[j] = (sets[offset + j][t] >> shift) & 1
    finally:
        free(sets)


cdef inline bytes _mask_bytes(dict unpacked, object mask, Py_ssize_t nbytes):
    """``mask.to_bytes(nbytes, "little")``, made once per distinct value (``unpacked``
    holds them)."""
    cdef PyObject *found = PyDict_GetItem(unpacked, mask)
    if found is not NULL:
        return <bytes> found
    value = mask.to_bytes(nbytes, "little")
    unpacked[mask] = value
    return value


def word_count(str text not None) -> tuple:
    """(words, cjk) of ``text``, for its word count and reading time: ``cjk`` is the
    number of Han and kana characters (CJK_RANGES), ``words`` the runs of other
    characters between whitespace (``str.split``'s) and those characters, which stand
    for a word each. In Python, the text split into a list of its words (and for CJK a
    regex substitution first) took 0.045 ms at the median news page."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_ssize_t n = len(text), i, words = 0, cjk = 0
    cdef unsigned int c
    cdef bint inside = False
    for i in range(n):
        c = PyUnicode_READ(kind, data, i)
        if _flags(c) & CJK:
            cjk += 1
            inside = False
        elif Py_UNICODE_ISSPACE(c):
            inside = False
        elif not inside:
            words += 1
            inside = True
    return words, cjk


def name_token_bits(str lowered not None, dict tokens not None, object token_bits):
    """The bits of the class/id tokens of ``lowered``, a lowercase ASCII "class id"
    string, ORed (segmentation.Vocabulary.names): its tokens are its runs of letters
    and digits; ``tokens`` holds the bits of the tokens seen before, and
    ``token_bits(token)`` works out (and keeps) a new one's.

    In Python the split (an encode, a translate table and bytes.split) and the loop
    over the tokens cost 1.2 us a string, about a quarter of a new string's verdict."""
    cdef Py_ssize_t n = len(lowered), i = 0, start
    cdef Py_UCS4 c
    cdef PyObject *found
    mask = 0
    while i < n:
        c = lowered[i]
        if not (u'a' <= c <= u'z' or u'0' <= c <= u'9'):
            i += 1
            continue
        start = i
        i += 1
        while i < n:
            c = lowered[i]
            if not (u'a' <= c <= u'z' or u'0' <= c <= u'9'):
                break
            i += 1
        token = lowered[start:i]
        found = PyDict_GetItem(tokens, token)
        bits = <object> found if found is not NULL else token_bits(token)
        if bits:
            mask |= bits
    return mask


cdef class StemIndex:
    """The stems of a vocabulary (lowercase ASCII letters and digits), for the bits of
    the ones inside a token (segmentation.Vocabulary): at each character of the token,
    the stems starting with it are compared in place.

    A regex of all the stems (grouped by first character) settled a new token in 1.7 us
    but took 4 ms to compile, paid by every run of the command line; this index is
    built in microseconds. tests/test_blocktext.py holds it to ``stem in token``."""

    cdef bytes _chars  # the stems, end to end, ordered by first character
    cdef Py_ssize_t _first[129]  # stems starting with chr(c): entries _first[c] to _first[c + 1]
    cdef Py_ssize_t *_offset  # each entry's start in _chars
    cdef Py_ssize_t *_length
    cdef list _bits  # each entry's bit (a Python int: a vocabulary holds over 64 bits)

    def __cinit__(self):
        self._offset = NULL
        self._length = NULL

    def __init__(self, list stems not None, list bits not None):
        cdef Py_ssize_t n = len(stems), k, c, at = 0
        if len(stems) != len(bits):
            raise ValueError("one bit per stem")
        for stem in stems:
            if not stem or not stem.isascii() or not stem.isalnum() or stem != stem.lower():
                raise ValueError(f"a stem is lowercase ASCII letters and digits: {stem!r}")
        order = sorted(range(n), key=lambda i: ord(stems[i][0]))
        free(self._offset)  # __init__ called again on the same index
        free(self._length)
        self._offset = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        self._length = <Py_ssize_t *> malloc((n + 1) * sizeof(Py_ssize_t))
        if self._offset == NULL or self._length == NULL:
            raise MemoryError()
        self._bits = []
        for k in range(129):
            self._first[k] = 0
        for k in range(n):
            stem = stems[order[k]]
            self._offset[k] = at
            self._length[k] = len(stem)
            at += len(stem)
            self._bits.append(bits[order[k]])
            self._first[ord(stem[0]) + 1] = k + 1
        for c in range(1, 129):  # a character no stem starts with: an empty range
            if self._first[c] < self._first[c - 1]:
                self._first[c] = self._first[c - 1]
        self._chars = "".join(stems[i] for i in order).encode("ascii")

    def __dealloc__(self):
        free(self._offset)
        free(self._length)

    def bits(self, str token not None):
        """The bits of the stems inside ``token``, ORed (0 for none)."""
        cdef Py_ssize_t n = len(token), i, j, e, length
        cdef int kind = PyUnicode_KIND(token)
        cdef void *data = PyUnicode_DATA(token)
        cdef const unsigned char *chars = self._chars
        cdef const unsigned char *stem
        cdef unsigned int c
        mask = 0
        for i in range(n):
            c = PyUnicode_READ(kind, data, i)
            if c > 127:
                continue
            for e in range(self._first[c], self._first[c + 1]):
                length = self._length[e]
                if length > n - i:
                    continue
                stem = chars + self._offset[e]
                j = 1
                while j < length and PyUnicode_READ(kind, data, i + j) == stem[j]:
                    j += 1
                if j == length:
                    mask |= self._bits[e]
        return mask
