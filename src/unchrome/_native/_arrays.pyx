# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# distutils: extra_compile_args = -ffp-contract=off
"""The pipeline's arrays without numpy: per element and per block, numbers are
``array.array`` ("d" for float64, "q" for int64) and yes/no answers (masks) are
``bytearray`` of 0 and 1, one byte each.

numpy cost a one-page command line 55-65 ms of its start (its import, and the
``platform`` module it imports) for arrays of a few hundred to a few thousand items,
where each call costs more than its arithmetic. The few operations the selection and
the block model's policy make on whole arrays are these compiled loops; a mask's
other questions are bytearray's own, in C: ``1 in mask`` (any), ``mask.find(1)`` and
``mask.rfind(1)`` (first and last), ``mask.count(1)``.
"""

from cpython cimport array
from libc.stdlib cimport free, malloc, qsort

import array

cdef array.array _DOUBLE = array.array("d")
cdef array.array _INT64 = array.array("q")
cdef array.array _FLOAT = array.array("f")


cpdef array.array doubles(Py_ssize_t n):
    """``n`` float64 zeros."""
    return array.clone(_DOUBLE, n, True)


cpdef array.array floats(Py_ssize_t n):
    """``n`` float32 zeros."""
    return array.clone(_FLOAT, n, True)


cpdef array.array int64s(Py_ssize_t n):
    """``n`` int64 zeros."""
    return array.clone(_INT64, n, True)


cdef inline Py_ssize_t _same_size(Py_ssize_t a, Py_ssize_t b) except -1:
    if a != b:
        raise ValueError(f"arrays of {a} and {b} items do not pair up")
    return a


def both(const unsigned char[::1] a, const unsigned char[::1] b) -> bytearray:
    """Per item: set in ``a`` and in ``b``."""
    cdef Py_ssize_t n = _same_size(a.shape[0], b.shape[0]), i
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for i in range(n):
        o[i] = (a[i] != 0) & (b[i] != 0)
    return out


def either(const unsigned char[::1] a, const unsigned char[::1] b) -> bytearray:
    """Per item: set in ``a`` or in ``b``."""
    cdef Py_ssize_t n = _same_size(a.shape[0], b.shape[0]), i
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for i in range(n):
        o[i] = (a[i] != 0) | (b[i] != 0)
    return out


def without(const unsigned char[::1] a, const unsigned char[::1] b) -> bytearray:
    """Per item: set in ``a`` and not in ``b``."""
    cdef Py_ssize_t n = _same_size(a.shape[0], b.shape[0]), i
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for i in range(n):
        o[i] = (a[i] != 0) & (b[i] == 0)
    return out


def choose(
    const unsigned char[::1] condition,
    const unsigned char[::1] yes,
    const unsigned char[::1] no,
) -> bytearray:
    """Per item: ``yes``'s where ``condition`` is set, else ``no``'s (numpy's where)."""
    cdef Py_ssize_t n = _same_size(condition.shape[0], yes.shape[0]), i
    _same_size(n, no.shape[0])
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for i in range(n):
        o[i] = (yes[i] if condition[i] else no[i]) != 0
    return out


def indices(const unsigned char[::1] mask) -> list:
    """The positions of the set items, in order (numpy's flatnonzero)."""
    cdef Py_ssize_t i
    cdef list out = []
    for i in range(mask.shape[0]):
        if mask[i]:
            out.append(i)
    return out


def spread(list positions, const unsigned char[::1] values, Py_ssize_t n) -> bytearray:
    """A mask of ``n`` items holding ``values[k]`` at ``positions[k]`` and 0 elsewhere
    (numpy's ``out[positions] = values``)."""
    cdef Py_ssize_t k, at
    _same_size(len(positions), values.shape[0])
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for k in range(values.shape[0]):
        at = positions[k]
        if not 0 <= at < n:
            raise IndexError(f"position {at} is outside {n} items")
        o[at] = values[k] != 0
    return out


def at_least(const double[::1] values, double floor) -> bytearray:
    """Per item: ``values[i] >= floor``."""
    cdef Py_ssize_t n = values.shape[0], i
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for i in range(n):
        o[i] = values[i] >= floor
    return out


def at_least_each(const double[::1] values, const double[::1] floors) -> bytearray:
    """Per item: ``values[i] >= floors[i]``."""
    cdef Py_ssize_t n = _same_size(values.shape[0], floors.shape[0]), i
    out = bytearray(n)
    cdef unsigned char[::1] o = out
    for i in range(n):
        o[i] = values[i] >= floors[i]
    return out


def masked(const double[::1] values, const unsigned char[::1] mask):
    """Per item: the value where ``mask`` is set, else 0 (numpy's where(mask, values,
    0.0)), as float64 ("d")."""
    cdef Py_ssize_t n = _same_size(values.shape[0], mask.shape[0]), i
    out = doubles(n)
    cdef double[::1] o = out
    for i in range(n):
        if mask[i]:
            o[i] = values[i]
    return out


def clipped(const double[::1] values, double shift, double low, double high):
    """Per item: ``values[i] + shift`` within [low, high] (numpy's clip of the sum:
    maximum with ``low``, then minimum with ``high``; NaN stays), as float64 ("d")."""
    cdef Py_ssize_t n = values.shape[0], i
    cdef double x
    out = doubles(n)
    cdef double[::1] o = out
    for i in range(n):
        x = values[i] + shift
        if x < low:
            x = low
        if x > high:
            x = high
        o[i] = x
    return out


def total(const double[::1] values, const unsigned char[::1] mask=None) -> float:
    """The sum of ``values`` (where ``mask`` is set), added in order. The selection
    sums characters, whole numbers, which add up exactly in any order: the same sums
    as numpy's pairwise ones (see pairwise_sum for the rest)."""
    cdef Py_ssize_t n = values.shape[0], i
    cdef double s = 0.0
    if mask is None:
        for i in range(n):
            s += values[i]
        return s
    _same_size(n, mask.shape[0])
    for i in range(n):
        if mask[i]:
            s += values[i]
    return s


cdef double _pairwise(const double *a, Py_ssize_t n) noexcept nogil:
    """numpy's pairwise summation (umath's pairwise_sum), step for step: eight
    running sums over blocks of up to 128 items, halves above."""
    cdef double r[8]
    cdef double res
    cdef Py_ssize_t i, j, n2
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        for j in range(8):
            r[j] = a[j]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, n2) + _pairwise(a + n2, n - n2)


def pairwise_sum(const double[::1] values) -> float:
    """The sum of ``values`` as numpy's ``sum`` adds them (its pairwise summation):
    the block model's thresholds were measured on sums of probabilities made so."""
    if values.shape[0] == 0:
        return 0.0
    return _pairwise(&values[0], values.shape[0])


def argmax(const double[::1] values) -> int:
    """The position of the first largest value (numpy's argmax; NaN wins); -1 when
    there is none."""
    cdef Py_ssize_t n = values.shape[0], i, best = 0
    if n == 0:
        return -1
    for i in range(1, n):
        if values[i] > values[best] or (values[i] != values[i] and values[best] == values[best]):
            best = i
    return best


cdef struct _Ranked:
    double p
    Py_ssize_t index


cdef int _by_p_then_index(const void *a, const void *b) noexcept nogil:
    cdef const _Ranked *x = <const _Ranked *> a
    cdef const _Ranked *y = <const _Ranked *> b
    if x.p > y.p:
        return -1
    if x.p < y.p:
        return 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


def expected_f1(const double[::1] probs, const double[::1] weights) -> float:
    """policy.expected_f1: over the items taken from the most probable down, the
    highest 2 * sum(taken p * w) / (sum(taken w) + sum(all p * w)); 0 when the total
    p * w is not positive. The sums as numpy made them when the thresholds were
    measured: the total pairwise (pairwise_sum), the running sums in order, the items
    in numpy's stable order of -p (ties by position)."""
    cdef Py_ssize_t n = _same_size(probs.shape[0], weights.shape[0]), i
    if n == 0:
        return 0.0
    cdef double *mass = <double *> malloc(n * sizeof(double))
    cdef _Ranked *ranked = <_Ranked *> malloc(n * sizeof(_Ranked))
    cdef double total, kept_mass = 0.0, kept_weight = 0.0, f1, best = 0.0
    if mass is NULL or ranked is NULL:
        free(mass)
        free(ranked)
        raise MemoryError()
    try:
        for i in range(n):
            mass[i] = probs[i] * weights[i]
            ranked[i].p = probs[i]
            ranked[i].index = i
        total = _pairwise(mass, n)
        if total <= 0.0:
            return 0.0
        qsort(ranked, n, sizeof(_Ranked), _by_p_then_index)
        for i in range(n):
            kept_mass += mass[ranked[i].index]
            kept_weight += weights[ranked[i].index]
            f1 = 2.0 * kept_mass / (kept_weight + total)
            if i == 0 or f1 > best or f1 != f1:
                best = f1
        return best
    finally:
        free(mass)
        free(ranked)
