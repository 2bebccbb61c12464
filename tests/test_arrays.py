"""The pipeline's arrays without numpy (unchrome._native._arrays): each operation against
the numpy expression it replaced."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unchrome._native import _arrays

masks = st.lists(st.booleans(), max_size=40)


def mask(values: list[bool]) -> bytearray:
    return bytearray(values)


@given(st.data())
def test_mask_operations_are_numpys(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 40))
    a, b, c = (data.draw(st.lists(st.booleans(), min_size=n, max_size=n)) for _ in range(3))
    x, y, z = np.array(a, dtype=bool), np.array(b, dtype=bool), np.array(c, dtype=bool)
    assert list(_arrays.both(mask(a), mask(b))) == (x & y).astype(int).tolist()
    assert list(_arrays.either(mask(a), mask(b))) == (x | y).astype(int).tolist()
    assert list(_arrays.without(mask(a), mask(b))) == (x & ~y).astype(int).tolist()
    assert list(_arrays.choose(mask(a), mask(b), mask(c))) == np.where(x, y, z).astype(int).tolist()
    assert _arrays.indices(mask(a)) == np.flatnonzero(x).tolist()


@given(st.lists(st.booleans(), max_size=30), st.data())
def test_spread_is_numpys_assignment_at_positions(values: list[bool], data) -> None:
    n = len(values) + data.draw(st.integers(0, 10))
    positions = sorted(data.draw(st.permutations(range(n)))[: len(values)])
    expected = np.zeros(n, dtype=bool)
    expected[positions] = values
    assert list(_arrays.spread(positions, mask(values), n)) == expected.astype(int).tolist()


def test_masks_of_other_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="pair up"):
        _arrays.both(bytearray(3), bytearray(4))
    with pytest.raises(ValueError, match="pair up"):
        _arrays.choose(bytearray(2), bytearray(2), bytearray(1))
    with pytest.raises(ValueError, match="pair up"):
        _arrays.total(array("d", [1.0]), bytearray(2))
    with pytest.raises(ValueError, match="pair up"):
        _arrays.spread([0, 1], bytearray(1), 3)
    with pytest.raises(IndexError, match="outside"):
        _arrays.spread([5], bytearray(1), 3)


@given(
    st.lists(st.floats(-1e12, 1e12), max_size=300),
    st.floats(0, 1),
    st.data(),
)
def test_comparisons_sums_and_argmax_are_numpys(values, floor, data) -> None:
    numbers = np.array(values, dtype=np.float64)
    doubles = array("d", values)
    assert list(_arrays.at_least(doubles, floor)) == (numbers >= floor).astype(int).tolist()
    floors = data.draw(st.lists(st.floats(0, 1), min_size=len(values), max_size=len(values)))
    expected = (numbers >= np.array(floors, dtype=np.float64)).astype(int).tolist()
    assert list(_arrays.at_least_each(doubles, array("d", floors))) == expected
    assert _arrays.argmax(doubles) == (int(numbers.argmax()) if values else -1)
    clipped = np.clip(numbers + (floor - 0.5), 0.05, 0.95)
    assert np.asarray(_arrays.clipped(doubles, floor - 0.5, 0.05, 0.95)).tobytes() == (
        clipped.tobytes()
    )
    picked = data.draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    where = np.where(np.array(picked, dtype=bool), numbers, 0.0)
    assert np.asarray(_arrays.masked(doubles, mask(picked))).tobytes() == where.tobytes()
    # numpy's pairwise summation, to the bit.
    assert _arrays.pairwise_sum(doubles) == (float(numbers.sum()) if values else 0.0)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 5000), max_size=300), st.data())
def test_masked_totals_of_whole_numbers_are_exact(counts, data) -> None:
    # Characters are whole numbers: their sum in order is numpy's in any order.
    picked = data.draw(st.lists(st.booleans(), min_size=len(counts), max_size=len(counts)))
    values = np.array(counts, dtype=np.float64)
    chosen = np.array(picked, dtype=bool)
    assert _arrays.total(array("d", counts)) == float(values.sum())
    assert _arrays.total(array("d", counts), mask(picked)) == float(values[chosen].sum())


def test_argmax_takes_the_first_largest_and_nan_wins() -> None:
    assert _arrays.argmax(array("d", [1.0, 3.0, 3.0, 2.0])) == 1
    assert _arrays.argmax(array("d", [1.0, float("nan"), 5.0, float("nan")])) == 1
    assert _arrays.argmax(array("d")) == -1


def test_new_arrays_are_zeros_of_their_type() -> None:
    assert _arrays.doubles(3) == array("d", [0.0] * 3)
    assert _arrays.floats(2) == array("f", [0.0] * 2)
    assert _arrays.int64s(4) == array("q", [0] * 4)
    assert _arrays.doubles(0) == array("d")
