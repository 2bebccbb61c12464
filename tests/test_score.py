"""The per-element sums of the density score (score.aggregate, compiled as
_blocks.element_sums) against the numpy bincounts they replaced."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unchrome.pipeline import score
from unchrome.pipeline.segmentation import (
    FLAG_IN_LINK,
    FLAG_ROW,
    Block,
    Segmentation,
)


def ref_sums(blocks: list[Block], elements: int) -> dict[str, np.ndarray]:
    chars = np.array([len(b.text) for b in blocks], dtype=np.float64)
    links = np.minimum(np.array([b.link_chars for b in blocks], dtype=np.float64), chars)
    card = np.array([b.flags & FLAG_IN_LINK > 0 for b in blocks], dtype=bool)
    is_p = np.array([b.kind == "p" for b in blocks], dtype=bool)
    lengths = np.array([len(b.path) for b in blocks], dtype=np.int64)
    element_of = np.array([e for b in blocks for e in b.path], dtype=np.int64)
    block_of = np.repeat(np.arange(len(blocks)), lengths)

    def total(weights: np.ndarray) -> np.ndarray:
        return np.bincount(element_of, weights=weights[block_of], minlength=elements).astype(
            np.float64
        )

    return {
        "chars": total(chars),
        "p_chars": total(np.where(is_p, chars, 0.0)),
        "a_chars": total(np.where(card, 0.0, links)),
        "card_chars": total(np.where(card, links, 0.0)),
        "block_of": block_of,
        "element_of": element_of,
        "block_chars": chars,
    }


@st.composite
def segmentations(draw: st.DrawFn) -> Segmentation:
    elements = draw(st.integers(0, 12))
    blocks = []
    for _ in range(draw(st.integers(0, 15))):
        path = (
            tuple(sorted(draw(st.sets(st.integers(0, elements - 1), max_size=5))))
            if elements
            else ()
        )
        text = draw(st.text(min_size=1, max_size=30))
        blocks.append(
            Block(
                draw(st.sampled_from(["p", "li", "h2", "div", "table"])),
                text,
                path[-1] if path else -1,
                draw(st.integers(0, 40)),  # link characters, at times over the text's
                0,
                0,
                draw(st.sampled_from([0, FLAG_IN_LINK, FLAG_ROW, FLAG_IN_LINK | FLAG_ROW])),
                path,
            )
        )
    return Segmentation(blocks, [None] * elements, ["div"] * elements, [-1] * elements)


@settings(max_examples=300, deadline=None)
@given(segmentations())
def test_element_sums_match_the_bincounts(seg: Segmentation) -> None:
    agg = score.aggregate(seg)
    expected = ref_sums(seg.blocks, len(seg.nodes))
    for name, values in expected.items():
        got = getattr(agg, name)
        # float64 sums and int64 incidence (arrays "d" and "q"), even where no block
        # is summed (bincount makes int64 zeros of an empty input; the reference casts
        # them).
        assert got.typecode == ("q" if name in ("block_of", "element_of") else "d")
        assert np.array_equal(np.asarray(got), values), name


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 1e6, allow_nan=False),
            st.floats(0, 1, allow_nan=False),
            st.floats(0, 1, allow_nan=False),
        ),
        max_size=40,
    )
)
def test_compiled_density_is_the_numpy_formula_to_the_bit(sums) -> None:
    """score.density (compiled: _blocks.density) against the numpy expression it
    replaced, on sums whose shares run from none to all."""
    chars = np.array([c for c, _, _ in sums], dtype=np.float64)
    p_chars = np.array([c * p for c, p, _ in sums], dtype=np.float64)
    a_chars = np.array([c * a for c, _, a in sums], dtype=np.float64)
    safe = np.maximum(chars, 1.0)
    expected = (
        chars
        * (score.P_BASE + score.P_WEIGHT * p_chars / safe)
        * np.maximum(0.0, 1.0 - score.LINK_PENALTY * a_chars / safe)
    )
    got = score.density(
        array("d", chars.tobytes()), array("d", p_chars.tobytes()), array("d", a_chars.tobytes())
    )
    assert np.asarray(got).tobytes() == expected.tobytes()


def test_paragraph_link_and_card_characters_land_on_every_ancestor() -> None:
    blocks = [
        Block("p", "a" * 10, 2, 4, 0, 0, 0, (0, 1, 2)),
        Block("li", "b" * 6, 3, 6, 0, 0, FLAG_IN_LINK, (0, 3)),
        Block("p", "c" * 5, 1, 9, 0, 0, 0, (0, 1)),  # link characters capped at 5
    ]
    agg = score.aggregate(Segmentation(blocks, [None] * 4, ["div"] * 4, [-1, 0, 1, 0]))
    assert agg.chars.tolist() == [21.0, 15.0, 10.0, 6.0]
    assert agg.p_chars.tolist() == [15.0, 15.0, 10.0, 0.0]
    assert agg.a_chars.tolist() == [9.0, 9.0, 4.0, 0.0]
    assert agg.card_chars.tolist() == [6.0, 0.0, 0.0, 6.0]


def test_a_path_outside_the_element_table_is_refused() -> None:
    blocks = [Block("p", "text", 5, 0, 0, 0, 0, (0, 5))]
    with pytest.raises(ValueError, match="element 5"):
        score.aggregate(Segmentation(blocks, [None] * 2, ["div"] * 2, [-1, 0]))
