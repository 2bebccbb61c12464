"""The compiled statistics of a block's text (_blocktext) against plain Python.

The references below are the Python the module replaced, written for reading, not
speed: str.lower, str.translate, str.split and re on whole strings. Generated text
mixes ASCII, letters whose lowering changes the length ("İ") or depends on context
("Σ"), the Kelvin sign (it lowers to an ASCII "k"), CJK, characters past the Basic
Multilingual Plane and every kind of whitespace str.split knows (and some it does not).
"""

from __future__ import annotations

import re
from array import array
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unchrome._native import _blocktext

# The definitions as the Python code had them, kept apart from the module's own.
WORD_PUNCT = ".,;:!?()[]{}\"'“”‘’«»/|·•—–-…。、！？，；：（）「」『』《》【】"
SPACE_PUNCT = str.maketrans({c: " " for c in WORD_PUNCT})
SHARE_PUNCT = set(".,;:!?。、！？，；：．")
SENTENCE_ENDS = frozenset('.!?。！？:)"”»：）」』．')
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def ref_words(text: str) -> list[str]:
    return text.lower().translate(SPACE_PUNCT).split()


def ref_ends_sentence(text: str) -> bool:
    return text.rstrip()[-1:] in SENTENCE_ENDS


def ref_stats(text: str, title: str) -> list[float]:
    if not text:
        return [0.0] * len(_blocktext.TEXT_STATS)
    title_words = set(ref_words(title))
    title_norm = " ".join(title.lower().split())
    sample = text[: _blocktext.STATS_SAMPLE_CHARS]
    words = ref_words(sample)
    cjk = len(CJK.findall(sample))
    nwords = (len(words) + cjk) or 1
    size = len(sample)
    return [
        (len(words) + cjk) * len(text) / size,
        sum(c in SHARE_PUNCT for c in sample) / size,
        sum("0" <= c <= "9" for c in sample) / size,
        sum("A" <= c <= "Z" for c in sample) / size,
        float(ref_ends_sentence(text)),
        max(0, len("".join(words)) - cjk) / nwords,
        float(text.count("\n")),
        sum(w in _blocktext.STOPWORDS for w in words) / nwords,
        len(title_words.intersection(words)) / len(title_words) if title_words else 0.0,
        float(len(text) == len(title_norm) and text.lower() == title_norm),
    ]


_SAYS_WORD = re.compile(r"\w+")


def ref_word_hits(
    texts: list[str], headings: list[bool], index: dict[str, int], wanted: list[bool] | None
) -> tuple[list[int], list[int], list[tuple[int, int, list[int]]]]:
    stretches: list[tuple[int, list[int]]] = []
    said_rows: list[int] = []
    said_words: list[int] = []
    for i, text in enumerate(texts):
        if len(text) >= 80:
            if headings[i]:
                stretches.append((i + 1, []))
            continue
        if wanted is not None and not wanted[i] and not headings[i]:
            continue
        words = _SAYS_WORD.findall(text.lower())
        if len(words) > 6 and not headings[i]:
            continue
        hits = [index[w] for w in words if w in index]
        if hits and len(words) <= 6:
            said_rows += [i] * len(hits)
            said_words += hits
        if headings[i]:
            stretches.append((i + 1, hits))
    ends = [start for start, _ in stretches[1:]] + [len(texts)] if stretches else []
    return (
        said_rows,
        said_words,
        [(start, end, hits) for (start, hits), end in zip(stretches, ends, strict=True) if hits],
    )


WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2007\u2028\u2029\u202f\u3000"
NOT_WHITESPACE = "\u200b\ufeff\x00\x1b"  # zero-width space, BOM, NUL, ESC: str.split keeps
ODD_LETTERS = "İıΣσςßﬁŉǅ\u212a\u0130\u0307ÀÉéñüÇçÆ"
CJK_TEXT = "東京は晴れです。カタカナ「引用」！？，；：（）【】\uf900\u3400\u4dbf"
PAST_BMP = "𝐀𝟘😀\U00020000"
PIECES = [
    *sorted(_blocktext.STOPWORDS),
    "The", "AND", "Für", "MÁS", "Read more", "Share", "related posts", "Istanbul",
]  # fmt: skip
ALPHABET = (
    "abcxyzABCXYZ0129_" + WORD_PUNCT + "".join(SHARE_PUNCT) + "".join(SENTENCE_ENDS)
    + WHITESPACE + NOT_WHITESPACE + ODD_LETTERS + CJK_TEXT + PAST_BMP + "\ud800\udfff#&*+=<>"
)  # fmt: skip


def _texts(max_size: int) -> st.SearchStrategy[str]:
    piece = st.one_of(
        st.text(alphabet=ALPHABET, max_size=12),
        st.sampled_from(PIECES),
        st.text(max_size=6),  # any code point at all
    )
    separator = st.sampled_from([" ", "", "\n", ", ", "\xa0", "|", "\u3000"])
    return st.lists(st.tuples(piece, separator), max_size=max_size).map(
        lambda parts: "".join(p + s for p, s in parts)
    )


TEXT = _texts(20)
LONG_TEXT = st.one_of(TEXT, _texts(200))  # past STATS_SAMPLE_CHARS too


@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_words_match_lower_translate_split(text: str) -> None:
    assert _blocktext.words(text) == ref_words(text)


@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_ends_sentence_matches_rstrip(text: str) -> None:
    assert _blocktext.ends_sentence(text) is ref_ends_sentence(text)


def ref_is_prose(block: SimpleNamespace) -> bool:
    size = len(block.text)
    return (
        size >= 60
        and block.link_chars < 0.5 * size
        and block.kind not in {"h1", "h2", "h3", "h4", "h5", "h6"}
        and ref_ends_sentence(block.text)
    )


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.builds(
            SimpleNamespace,
            kind=st.sampled_from(["p", "li", "h2", "h6", "div", "table"]),
            text=LONG_TEXT,
            link_chars=st.integers(min_value=0, max_value=400),
        ),
        max_size=6,
    )
)
def test_prose_is_a_long_sentence_mostly_not_links_and_no_heading(blocks: list) -> None:
    # The selection, the model's policy and the thread finder read prose through these.
    assert [_blocktext.is_prose(b) for b in blocks] == [ref_is_prose(b) for b in blocks]
    expected = [len(b.text) if ref_is_prose(b) else 0.0 for b in blocks]
    assert _blocktext.prose_chars(blocks).tolist() == expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LONG_TEXT, max_size=8), TEXT, st.data())
def test_text_stats_match_the_python_statistics(
    texts: list[str], title: str, data: st.DataObject
) -> None:
    # Repeats (read once, copied) and the title itself among the texts, in other cases
    # too (a title with "İ" is equal to its own lowering only after str.lower).
    if texts:
        texts += data.draw(st.lists(st.sampled_from(texts), max_size=3))
    texts += [title, " ".join(title.split()), " ".join(title.upper().split())]
    table = _blocktext.text_stats(texts, title)
    assert table.typecode == "d"
    assert len(table) == len(texts) * len(_blocktext.TEXT_STATS)
    for text, row in zip(texts, stat_rows(table), strict=True):
        # Exactly equal, not close: the block model's features must not move.
        assert row == ref_stats(text, title), (text, title)


def stat_rows(table: array) -> list[list[float]]:
    """text_stats's flat table as its rows."""
    width = len(_blocktext.TEXT_STATS)
    return [table[i : i + width].tolist() for i in range(0, len(table), width)]


def test_text_stats_by_hand() -> None:
    text = "The cat sat on the mat.\n"
    (row,) = stat_rows(_blocktext.text_stats([text], "THE   Cat"))
    stats = dict(zip(_blocktext.TEXT_STATS, row, strict=True))
    # 6 words over the 24 characters (all of them sampled); 1 punctuation mark and 1
    # capital; letters 3+3+3+2+3+3.
    assert stats == {
        "words": 6.0,
        "punct_share": 1 / 24,
        "digit_share": 0.0,
        "upper_share": 1 / 24,
        "sentence_end": 1.0,
        "mean_word_len": 17 / 6,
        "lines": 1.0,
        "stopword_share": 3 / 6,  # the, on, the
        "title_overlap": 1.0,  # both title words, each counted once
        "title_same": 0.0,
    }
    # Japanese: every kana or Han character is a word; the title is the text.
    (row,) = stat_rows(_blocktext.text_stats(["東京は晴れ"], "東京は晴れ"))
    assert row[0] == 6.0  # the run itself, and its 5 characters
    assert row[5] == 0.0  # 5 letters less the 5 CJK characters
    assert row[9] == 1.0
    # A text is the title when its lowering is, and it is as long: "İ" lowers to two
    # characters.
    assert [row[9] for row in stat_rows(_blocktext.text_stats(["İ", "i̇"], "İ"))] == [0.0, 1.0]
    assert len(_blocktext.text_stats([], "")) == 0


def test_words_and_sentence_ends_by_hand() -> None:
    # "İ" lowers to "i" and a combining dot: one word still, one character longer.
    assert _blocktext.words("Home|About  İstanbul\x1cfür—más") == [
        "home", "about", "i̇stanbul", "für", "más",
    ]  # fmt: skip
    assert _blocktext.words("zero\u200bwidth") == ["zero\u200bwidth"]
    assert _blocktext.ends_sentence("Done.  \n\x85")
    assert _blocktext.ends_sentence("完了。")
    assert not _blocktext.ends_sentence("Menu")
    assert not _blocktext.ends_sentence(" \t")


SAYS_PIECES = ["Share", "READ more", "related", "Posts", "İstanbul", "i̇stanbul", "x_1", "١٢"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.one_of(
                _texts(5),
                _texts(30),  # past SAYS_MAX_CHARS and SAYS_MAX_WORDS too
                st.lists(st.sampled_from(SAYS_PIECES), max_size=8).map(" ".join),
                # About SAYS_MAX_CHARS long.
                st.tuples(st.sampled_from(SAYS_PIECES), st.integers(76, 84)).map(
                    lambda p: (p[0] + " " + "y" * 90)[: p[1]]
                ),
            ),
            st.booleans(),
            st.booleans(),
        ),
        max_size=12,
    ),
    st.sets(st.sampled_from([w.lower() for w in SAYS_PIECES] + ["x", "the", "1", "東京"])),
    st.booleans(),
)
def test_word_hits_match_the_python_loop(
    blocks: list[tuple[str, bool, bool]], vocabulary: set[str], every: bool
) -> None:
    texts = [text for text, _, _ in blocks]
    headings = [heading for _, heading, _ in blocks]
    wanted = None if every else [mark for _, _, mark in blocks]
    index = {word: column for column, word in enumerate(sorted(vocabulary))}
    got = _blocktext.word_hits(
        texts, bytes(headings), index, None if wanted is None else bytes(wanted)
    )
    assert got == ref_word_hits(texts, headings, index, wanted)


def test_word_hits_by_hand() -> None:
    texts = ["Related posts", "Share", "one two three four five six seven", "Read more", "x"]
    index = {"related": 0, "share": 1, "more": 2, "seven": 3}
    said_rows, said_words, stretches = _blocktext.word_hits(
        texts, bytes([1, 0, 0, 0, 0]), index, bytes([1, 1, 1, 0, 1])
    )
    # The heading says "related" and so covers the rest; block 2 has too many words,
    # block 3 is not wanted.
    assert (said_rows, said_words) == ([0, 1], [0, 1])
    assert stretches == [(1, 5, [0])]
    # A heading too long to say anything still ends the stretch above it.
    long_heading = "Related " + "words " * 20
    _, _, stretches = _blocktext.word_hits(
        ["Related", "a", long_heading, "b"], bytes([1, 0, 1, 0]), index
    )
    assert stretches == [(1, 3, [0])]
    # SAYS_MAX_CHARS: 79 characters say their words, 80 do not.
    said_rows, _, _ = _blocktext.word_hits(
        ["Share " + "x" * 73, "Share " + "x" * 74], bytes([0, 0]), index
    )
    assert said_rows == [0]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 80),
    st.data(),
)
def test_mask_bits_read_the_bits_of_the_sets(size: int, data: st.DataObject) -> None:
    bit_set = st.integers(0, 2**size - 1)
    pairs = data.draw(st.lists(st.tuples(bit_set, bit_set), max_size=10))
    # Repeated values, as equal ints that are different objects.
    pairs += [(int(str(near)), int(str(far))) for near, far in pairs[:3]]
    blocks = [SimpleNamespace(near_mask=near, far_mask=far) for near, far in pairs]
    rows = data.draw(st.none() | st.sets(st.integers(0, max(len(blocks) - 1, 0))).map(sorted))
    if not blocks:
        rows = None
    tested = sorted(data.draw(st.sets(st.integers(0, 2 * size - 1))))
    wanted = range(len(blocks)) if rows is None else rows
    # Written from its second row on: the rows above and below stay as they were.
    out = array("f", [7.0] * (len(tested) + 2) * len(wanted))
    _blocktext.mask_bits(
        blocks,
        None if rows is None else array("q", rows),
        size,
        array("q", tested),
        out,
        1,
    )
    width = len(wanted)
    assert out[:width].tolist() == out[-width or len(out) :].tolist() == [7.0] * width
    expected = [
        [
            float(
                blocks[i].near_mask >> t & 1 if t < size else blocks[i].far_mask >> (t - size) & 1
            )
            for i in wanted
        ]
        for t in tested
    ]
    assert [out[(1 + r) * width : (2 + r) * width].tolist() for r in range(len(tested))] == expected


def test_mask_bits_refuse_bits_past_the_sets() -> None:
    out = array("f", [0.0])
    block = SimpleNamespace(near_mask=1, far_mask=2)
    with pytest.raises(ValueError, match="outside"):
        _blocktext.mask_bits([block], None, 4, array("q", [8]), out)
    with pytest.raises(ValueError, match="row of the blocks"):
        _blocktext.mask_bits([block, block], None, 4, array("q", [0]), out)
    with pytest.raises(ValueError, match="row of the blocks"):
        _blocktext.mask_bits([block], None, 4, array("q", [0]), out, 1)
    _blocktext.mask_bits([block], None, 4, array("q", [0]), out)
    assert out.tolist() == [1.0]


# The word count's definition as render.count_words had it: Han and kana characters
# are words of their own, the rest is split at str.split's whitespace.
REF_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def ref_word_count(text: str) -> tuple[int, int]:
    return len(REF_CJK.sub(" ", text).split()), len(REF_CJK.findall(text))


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        TEXT, LONG_TEXT, st.text(alphabet="日本語のテキスト 漢字 a b\u3000\u00a0,", max_size=40)
    )
)
def test_word_count_matches_split_with_cjk_as_words(text: str) -> None:
    assert _blocktext.word_count(text) == ref_word_count(text)


def test_word_count_by_hand() -> None:
    assert _blocktext.word_count("") == (0, 0)
    assert _blocktext.word_count("  two\u00a0words\u2003") == (2, 0)
    # Each Han character is a word; the Latin run beside them is one more.
    assert _blocktext.word_count("東京都GDP 2024") == (2, 3)
    assert _blocktext.word_count("\u3040\u30ff\u3400\u4dbf\u4e00\u9fff\uf900\ufaff") == (0, 8)
    # Just outside the ranges: ordinary characters, one word.
    assert _blocktext.word_count("\u303f\u3100\u33ff\u4dc0\u4dff\ua000\uf8ff\ufb00") == (1, 0)


# Stems as a vocabulary has them: lowercase ASCII letters and digits, some prefixes of
# others, some sharing a first character, one of a single character.
STEMS = ["comment", "comments", "com", "share", "sharebar", "ad", "nav", "x", "2col", "zz"]
STEM_TOKENS = st.one_of(
    st.text(alphabet="abcdehilmnorstvwxz0129" + ODD_LETTERS + "_-é\u212a😀", max_size=16),
    st.lists(st.sampled_from([*STEMS, "o", "m", "ré", "\u212a", "😀", "\ud800"]), max_size=5).map(
        "".join
    ),
    st.text(max_size=8),  # any code point at all
)


def ref_stem_bits(token: str, stems: list[str], bits: list[int]) -> int:
    mask = 0
    for stem, bit in zip(stems, bits, strict=True):
        if stem in token:
            mask |= bit
    return mask


@settings(max_examples=1000, deadline=None)
@given(STEM_TOKENS)
def test_stem_index_finds_the_stems_a_substring_test_finds(token: str) -> None:
    # Bits past 64 too: a vocabulary's stems sit after its words.
    bits = [1 << (100 + i) for i in range(len(STEMS))]
    index = _blocktext.StemIndex(STEMS, bits)
    assert index.bits(token) == ref_stem_bits(token, STEMS, bits)


def test_stem_index_by_hand() -> None:
    index = _blocktext.StemIndex(["comment", "com", "share"], [1, 2, 4])
    assert index.bits("commentlist") == 3
    assert index.bits("co") == 0
    assert index.bits("sharecom") == 6
    assert index.bits("ré-share\u212a") == 4  # around non-ASCII characters
    assert index.bits("") == 0
    assert _blocktext.StemIndex([], []).bits("comment") == 0
    index.__init__(["x"], [8])  # initialised again: its new stems alone
    assert index.bits("commentx") == 8


@pytest.mark.parametrize("stems", [[""], ["Comment"], ["co-op"], ["ré"], ["a b"]])
def test_stem_index_refuses_what_is_not_a_stem(stems: list[str]) -> None:
    with pytest.raises(ValueError, match="stem"):
        _blocktext.StemIndex(stems, [1])


def test_stem_index_wants_a_bit_per_stem() -> None:
    with pytest.raises(ValueError, match="one bit per stem"):
        _blocktext.StemIndex(["ad", "nav"], [1])
