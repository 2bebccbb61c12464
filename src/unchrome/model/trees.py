"""The trees: a boosted ensemble of oblivious trees, evaluated for every block at once."""

from __future__ import annotations

from array import array

from unchrome._native._trees import raw_scores, sigmoid


class ObliviousTrees:
    """A boosted ensemble of oblivious (symmetric) trees, evaluated for all rows at once.

    In an oblivious tree every node of one level tests the same feature against the
    same border, so a row's leaf is the binary number its ``depth`` tests spell. The
    compiled _trees.raw_scores reads them so for every block and every tree.

    ``feature`` and ``border`` hold a row of ``depth`` splits per tree, ``leaves`` a row
    of 2 ** ``depth`` values per tree, each flat (the rows one after the other).
    """

    def __init__(
        self,
        feature: array,
        border: array,
        leaves: array,
        depth: int,
        bias: float,
        scale: float = 1.0,
    ) -> None:
        if depth <= 0 or len(feature) % depth or len(border) != len(feature):
            raise ValueError("the trees' splits do not fill rows of their depth")
        if len(leaves) != (len(feature) // depth) << depth:
            raise ValueError("the trees' leaves do not fill a row of 2 ** depth per tree")
        self.feature = array("q", feature)  # int: the feature each split tests
        self.border = array("f", border)  # float32: the test is value > border
        self.leaves = array("f", leaves)  # float32, as the model file holds them
        self.depth = depth
        self.bias = bias
        self.scale = scale
        # The features the trees test (sorted), and each split's row among them.
        self.used = array("q", sorted(set(self.feature)))
        row_of = {f: r for r, f in enumerate(self.used)}
        self._rows = array("q", [row_of[f] for f in self.feature])

    @property
    def trees(self) -> int:
        return len(self.feature) // self.depth

    def raw_by_feature(self, xt: array, blocks: int) -> array:
        """Raw scores from the ``used`` features: ``xt`` (float32) holds a row per
        feature, a column per block, the rows one after the other (feature-major:
        each split reads one contiguous row, see _trees)."""
        return raw_scores(
            xt, blocks, self._rows, self.border, self.leaves, self.depth, self.scale, self.bias
        )

    def predict_by_feature(self, xt: array, blocks: int) -> array:
        """Probabilities, one per block, from the ``used`` features (as raw_by_feature)."""
        return sigmoid(self.raw_by_feature(xt, blocks))
