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
grouped by domain; it ships as ``blockmodel.npz`` inside the package (numpy's archive
of arrays, read here without numpy: see _read_npz). Inference is compiled: every tree
is walked for every block at once (_trees.raw_scores), so its cost does not grow with
Python loops over trees."""

from __future__ import annotations

import ast
import json
import re
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from unchrome._native import _arrays
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
from unchrome.model.trees import ObliviousTrees
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
        rows: list[int] | None = None,
    ) -> array:
        """The model's probability for every block (0 outside ``rows`` when given)."""
        n = len(seg.blocks)
        if not n or (rows is not None and not rows):
            return _arrays.doubles(n)
        xt = features(seg, agg, sel, ctx, self.vocab, columns=self.trees.used, rows=rows)
        found = self.trees.predict_by_feature(xt, n if rows is None else len(rows))
        if rows is None:
            return found
        probs = _arrays.doubles(n)
        for row, p in zip(rows, found, strict=True):
            probs[row] = p
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
    ) -> bytearray:
        """Which blocks are main content (see ``decide``), every threshold moved by
        ``favor`` (see FAVOR_SHIFT). ``bound_story`` False (Config.include_comments)
        keeps what follows an article's container (see within_container). ``check``
        is the extraction's deadline check, called with the stage just done."""
        region = _arrays.without(sel.in_root, sel.noise)
        if len(seg.blocks) > MAX_MODEL_BLOCKS:
            return region

        story = is_story(agg, sel)
        article = story or is_article(ctx)
        # Beside a story nothing outside the selection can join (unless the favor is
        # recall, see decide): only its blocks need the model (on WCXB article pages,
        # about a third of the blocks).
        rows = _arrays.indices(region) if story and FAVOR_SHIFT[favor] >= 0 else None
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
            after_story, keep = _arrays.without(keep, ended), ended
        if article and bound_story and not is_other_kind(ctx):
            # The second reading: what lies outside Readability's container must earn
            # its place (policy.within_container).
            box = read_container(seg, agg)
            if check is not None:
                check("container")
            bounded = within_container(seg.blocks, keep, probs, box.inside, chars)
            cut = _arrays.without(keep, bounded)
            after_story = cut if after_story is None else _arrays.either(after_story, cut)
            keep = bounded
        shift = FAVOR_SHIFT[favor]
        if shift:
            # Where the story ends is the balanced decision's call, as is the guard in
            # decide(): a favor moves thresholds only, so precision keeps a subset.
            keep = decide(probs, region, chars, drop_below, add_above, story, shift)
            if after_story is not None:
                keep = _arrays.without(keep, after_story)
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
    arrays = _read_npz(data)
    meta = json.loads(bytes(arrays["meta"][1]).decode("utf-8"))
    shape, feature = arrays["feature"]
    if len(shape) != 2 or arrays["border"][0] != shape or arrays["leaves"][0][0] != shape[0]:
        raise ValueError("the block model's trees are not of one shape")
    vocab = Vocabulary(meta["words"], meta["stems"], meta["tags"], meta["text_words"])
    trees = ObliviousTrees(
        feature,
        arrays["border"][1],
        arrays["leaves"][1],
        shape[1],
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


# The array types an exported model holds, by numpy's type string: array's type code.
_NPY_TYPES = {"i4": "i", "i8": "q", "f4": "f", "f8": "d", "u1": "B"}
_NPY_HEADER = re.compile(rb"\{.*\}", re.S)


def _read_npz(data: bytes) -> dict[str, tuple[tuple[int, ...], array]]:
    """The arrays of a numpy .npz archive (a zip of .npy files), as (shape, flat
    array) by name, read without numpy: its import was a third of a one-page command
    line's time. A model file that is not one is a ValueError."""
    import io
    import zipfile
    import zlib

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = {name: archive.read(name) for name in archive.namelist()}
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise ValueError(f"the block model is not a readable .npz archive: {error}") from None
    out = {name.removesuffix(".npy"): _read_npy(name, raw) for name, raw in members.items()}
    for key in ("meta", "feature", "border", "leaves"):
        if key not in out:
            raise ValueError(f"the block model has no {key}")
    return out


def _read_npy(name: str, raw: bytes) -> tuple[tuple[int, ...], array]:
    """One .npy file: a magic string, a header (a Python dict literal of the item type,
    the order and the shape) and the raw items. Only the little-endian C-order arrays
    of _NPY_TYPES are read."""
    if not raw.startswith(b"\x93NUMPY") or len(raw) < 10 or raw[6] not in (1, 2, 3):
        raise ValueError(f"{name} of the block model is not a .npy array")
    start = 10 if raw[6] == 1 else 12  # the header's length takes 2 bytes, or 4
    header_end = start + int.from_bytes(raw[8:start], "little")
    found = _NPY_HEADER.search(raw, start, header_end)
    try:
        header = ast.literal_eval(found.group().decode("latin-1")) if found else None
    except (ValueError, SyntaxError):
        header = None
    if not isinstance(header, dict) or header.get("fortran_order"):
        raise ValueError(f"{name} of the block model is not a C-order array")
    descr = str(header.get("descr", ""))
    code = _NPY_TYPES.get(descr[1:])
    if code is None or descr[0] not in "<|":
        raise ValueError(f"{name} of the block model holds {descr!r} items")
    items = array(code)
    items.frombytes(raw[header_end:])
    if sys.byteorder == "big" and descr[0] == "<":
        items.byteswap()
    shape = tuple(int(d) for d in header.get("shape", ()))
    count = 1
    for d in shape:
        count *= d
    if len(items) != count:
        raise ValueError(f"{name} of the block model holds {len(items)} items, not {count}")
    return shape, items
