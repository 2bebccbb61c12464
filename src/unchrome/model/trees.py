"""The trees: a boosted ensemble of oblivious trees, evaluated for every block at once."""

from __future__ import annotations

import numpy as np

from unchrome._native._trees import raw_scores


class ObliviousTrees:
    """A boosted ensemble of oblivious (symmetric) trees, evaluated for all rows at once.

    In an oblivious tree every node of one level tests the same feature against the
    same border, so a row's leaf is the binary number its ``depth`` tests spell. The
    compiled _trees.raw_scores reads them so for every block and every tree.
    """

    def __init__(
        self,
        feature: np.ndarray,
        border: np.ndarray,
        leaves: np.ndarray,
        bias: float,
        scale: float = 1.0,
    ) -> None:
        self.feature = feature  # (trees, depth) int
        self.border = border  # (trees, depth) float32: test is value > border
        self.leaves = leaves  # (trees, 2 ** depth) float64
        self.bias = bias
        self.scale = scale
        # The features the trees test, and each split's row among them.
        # np.unique's result, without np.unique: it imports numpy.ma on first use
        # (8 ms of a one-page command line's start).
        self.used = np.array(sorted(set(feature.ravel().tolist())), dtype=feature.dtype)
        self._rows = np.searchsorted(self.used, feature).astype(np.intc)
        self._borders = np.ascontiguousarray(border, dtype=np.float32)
        self._leaves = np.ascontiguousarray(leaves, dtype=np.float64)

    def raw_by_feature(self, xt: np.ndarray) -> np.ndarray:
        """Raw scores from the ``used`` features, one row per feature, one column per
        block (feature-major: each split reads one contiguous row, see _trees)."""
        xt = np.ascontiguousarray(xt, dtype=np.float32)
        return raw_scores(xt, self._rows, self._borders, self._leaves) * self.scale + self.bias

    def raw(self, x: np.ndarray) -> np.ndarray:
        """Raw scores of a full row-major feature matrix (one row per block)."""
        if not len(x):
            return np.zeros(0)
        return self.raw_by_feature(np.ascontiguousarray(x[:, self.used].T))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Probabilities, one per row."""
        return sigmoid(self.raw(x))


def sigmoid(raw: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-raw))
