"""Block model: keep or drop each block of the page, from features of the block,
its ancestors, its neighbours and the page.

The density winner (score / select) is right for a news story and wrong for much of
the web: landing pages spread their content over sibling sections, listings are
repeated cards, product pages hide specifications in tabs, and story containers hold
calls to action, author boxes and "related" lists. The winner is one feature here
(FLAG_IN_ROOT) among the block's own text statistics, the class/id words and tags of
its ancestors, its neighbours, and page-level signals (schema.org types, og:type, URL
words).

The model is a gradient-boosted tree ensemble trained offline by
``tools/train_blockmodel.py`` on the WCXB development split, with cross-validation
grouped by domain; it ships as ``blockmodel.npz`` inside the package. Inference is
vectorised: every tree is walked for every block at once, one numpy step per tree
level, so its cost does not grow with Python loops over trees."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from unchrome.model.features import PageContext, feature_names, features
from unchrome.model.policy import (
    FAVOR_SHIFT,
    MAX_MODEL_BLOCKS,
    before_headline,
    decide,
    drop_thresholds,
    is_article,
    is_other_kind,
    is_story,
    profile_thresholds,
    story_end,
    within_container,
)
from unchrome.model.trees import ObliviousTrees, sigmoid
from unchrome.pipeline.container import read_container
from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import Segmentation, Vocabulary
from unchrome.pipeline.select import Selection

MODEL_FILE = "blockmodel.npz"


@dataclass
class BlockModel:
    vocab: Vocabulary
    trees: ObliviousTrees
    drop_below: float
    drop_structured_below: float
    add_above: float
    names: list[str]

    def probabilities(
        self,
        seg: Segmentation,
        agg: Aggregate,
        sel: Selection,
        ctx: PageContext,
        rows: np.ndarray | None = None,
    ) -> np.ndarray:
        """The model's probability for every block (0 outside ``rows`` when given)."""
        probs = np.zeros(len(seg.blocks))
        if not seg.blocks or (rows is not None and not len(rows)):
            return probs
        xt = features(seg, agg, sel, ctx, self.vocab, columns=self.trees.used, rows=rows)
        probs[slice(None) if rows is None else rows] = sigmoid(self.trees.raw_by_feature(xt))
        return probs

    def keep(
        self,
        seg: Segmentation,
        agg: Aggregate,
        sel: Selection,
        ctx: PageContext,
        favor: str = "balanced",
        bound_story: bool = True,
        check: Callable[[str], None] | None = None,
    ) -> np.ndarray:
        """Which blocks are main content (see ``decide``), every threshold moved by
        ``favor`` (see FAVOR_SHIFT). ``bound_story`` False (Config.include_comments)
        keeps what follows an article's container (see within_container). ``check``
        is the extraction's deadline check, called with the stage just done."""
        region = sel.in_root & ~sel.noise
        if len(seg.blocks) > MAX_MODEL_BLOCKS:
            return region

        story = is_story(agg, sel)
        article = story or is_article(ctx)
        # Beside a story nothing outside the selection can join (unless the favor is
        # recall, see decide): only its blocks need the model (on WCXB article pages,
        # about a third of the blocks).
        rows = np.flatnonzero(region) if story and FAVOR_SHIFT[favor] >= 0 else None
        probs = self.probabilities(seg, agg, sel, ctx, rows)
        if check is not None:
            check("model")
        structured, other, add_above = profile_thresholds(
            article, self.drop_structured_below, self.drop_below, self.add_above
        )
        drop_below = drop_thresholds(seg.blocks, structured, other, probs, agg.block_chars)
        chars = agg.block_chars
        keep = decide(probs, region, chars, drop_below, add_above, story)
        after_story = None
        if article:
            ended = before_headline(seg.blocks, story_end(seg.blocks, keep, probs))
            after_story, keep = keep & ~ended, ended
        if article and bound_story and not is_other_kind(ctx):
            # The second reading: what lies outside Readability's container must earn
            # its place (policy.within_container).
            box = read_container(seg, agg)
            if check is not None:
                check("container")
            bounded = within_container(seg.blocks, keep, probs, box.inside, chars)
            cut = keep & ~bounded
            after_story = cut if after_story is None else after_story | cut
            keep = bounded
        shift = FAVOR_SHIFT[favor]
        if shift:
            # Where the story ends is the balanced decision's call, as is the guard in
            # decide(): a favor moves thresholds only, so precision keeps a subset.
            keep = decide(probs, region, chars, drop_below, add_above, story, shift)
            if after_story is not None:
                keep &= ~after_story
        return keep


def load_model(data: bytes | None = None) -> BlockModel | None:
    """The packaged model (or one given as the bytes of its file); None when absent."""
    if data is None:
        return _packaged()
    return _from_npz(data)


@cache
def _packaged() -> BlockModel | None:
    # Read beside this module: the package holds compiled modules, so it is never
    # imported from a zip, and importlib.resources cost 1.6 ms of a command line's start.
    try:
        data = Path(__file__).with_name(MODEL_FILE).read_bytes()
    except OSError:
        return None
    return _from_npz(data)


def _from_npz(data: bytes) -> BlockModel:
    import io

    arrays = np.load(io.BytesIO(data), allow_pickle=False)
    meta = json.loads(bytes(arrays["meta"]).decode("utf-8"))
    vocab = Vocabulary(meta["words"], meta["stems"], meta["tags"], meta["text_words"])
    trees = ObliviousTrees(
        arrays["feature"].astype(np.int64),
        arrays["border"].astype(np.float32),
        arrays["leaves"].astype(np.float64),
        float(meta["bias"]),
        float(meta.get("scale", 1.0)),
    )
    names = feature_names(vocab)
    if names != meta["names"]:
        raise ValueError("the block model was trained on other features than this code builds")
    return BlockModel(
        vocab,
        trees,
        float(meta["drop_below"]),
        float(meta["drop_structured_below"]),
        float(meta["add_above"]),
        names,
    )
