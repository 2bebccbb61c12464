"""The block pass: segmentation, the density selection read off the blocks, the packaged
model's inference and its decision rule."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import zipfile
from array import array
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from selectolax.lexbor import LexborHTMLParser

import unchrome
from unchrome._native import _blocktext
from unchrome.config import Config
from unchrome.model import blockmodel, features, policy
from unchrome.model.policy import adapt_drop_thresholds, decide, expected_f1
from unchrome.model.trees import ObliviousTrees
from unchrome.pipeline import render, score, segment, segmentation, select
from unchrome.pipeline.extractor import Trace


def mask(values) -> bytearray:  # type: ignore[no-untyped-def]
    """A mask as the pipeline holds one (see _arrays): a byte of 0 or 1 per item."""
    return bytearray(bool(v) for v in values)


def doubles(values) -> array:  # type: ignore[no-untyped-def]
    return array("d", [float(v) for v in values])


def bools(values) -> list[bool]:  # type: ignore[no-untyped-def]
    return [bool(v) for v in values]


def full_matrix(flat: array, blocks: int) -> np.ndarray:
    """features()'s feature-major flat float32 array as a (blocks, features) matrix."""
    values = np.frombuffer(flat, dtype=np.float32)
    return values.reshape(-1, blocks).T.copy() if blocks else values.reshape(0, 0)


def feature_matrix(  # type: ignore[no-untyped-def]
    seg, agg, sel, ctx, vocab, columns=None, rows=None
) -> np.ndarray:
    """features() as a numpy matrix: (columns, blocks) with ``columns`` (as inference
    reads it), else (blocks, features) (as the training tool reads it)."""
    count = len(seg.blocks) if rows is None else len(rows)
    flat = features.features(
        seg,
        agg,
        sel,
        ctx,
        vocab,
        columns=None if columns is None else array("q", [int(c) for c in columns]),
        rows=None if rows is None else [int(r) for r in rows],
    )
    width = len(features.feature_names(vocab)) if columns is None else len(columns)
    matrix = np.frombuffer(flat, dtype=np.float32).reshape(width, count)
    return matrix.copy() if columns is not None else matrix.T.copy()


STORY = [
    f"Paragraph {i} of the story tells what the council decided on Monday evening, "
    "and why the library will open on Sundays again from next month."
    for i in range(6)
]


def body_of(html: str) -> LexborHTMLParser:
    return LexborHTMLParser(f"<html><body>{html}</body></html>")


def segmented(html: str) -> segmentation.Segmentation:
    tree = body_of(html)
    assert tree.body is not None
    seg = segment.segment(tree.body)
    seg.tree = tree  # type: ignore[attr-defined]  # keep the nodes' tree alive
    return seg


# ------------------------------------------------------------------------ segment


def test_the_compiled_walk_refuses_a_selectolax_whose_node_structs_it_was_not_built_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # unchrome._native._dom reads lexbor's node structs as the pinned selectolax lays them
    # out: under any other version it must fail at import with the fix, not read garbage.
    import selectolax

    from unchrome._native import _dom

    monkeypatch.setattr(selectolax, "__version__", "0.3.21")
    with pytest.raises(ImportError, match=r"selectolax==1\.0\.2"):
        _dom._check_selectolax()


def test_blocks_come_in_document_order_with_their_kind_and_links():
    seg = segmented(
        "<div><h2>Heading of the part</h2><p>Text of the first paragraph, long enough.</p>"
        '<ul><li><a href="/x">Linked item</a></li><li>plain</li></ul></div>'
    )
    assert [(b.kind, b.text) for b in seg.blocks] == [
        ("h2", "Heading of the part"),
        ("p", "Text of the first paragraph, long enough."),
        ("li", "Linked item"),
        ("li", "plain"),
    ]
    assert seg.blocks[2].link_chars == len("Linked item")
    assert seg.blocks[3].link_chars == 0
    # Each path runs from the outermost block element to the block's own element.
    for block in seg.blocks:
        assert block.path[-1] == block.owner
        assert all(seg.parents[c] == p for p, c in zip(block.path, block.path[1:], strict=False))


def test_short_paragraphs_are_flagged_and_left_out_of_the_view_but_short_items_are_not():
    seg = segmented("<p>tiny</p><ul><li>one</li></ul><p>A paragraph that is long enough.</p>")
    assert [b.text for b in seg.blocks] == ["tiny", "one", "A paragraph that is long enough."]
    assert [bool(b.flags & segmentation.FLAG_SHORT) for b in seg.blocks] == [True, False, False]
    view, index = seg.view(segmentation.FLAG_SHORT)
    assert [b.text for b in view.blocks] == ["one", "A paragraph that is long enough."]
    assert index == [1, 2]


def test_data_table_rows_are_blocks_and_layout_tables_are_walked():
    seg = segmented(
        "<table><tr><th>Size</th><th>Weight</th></tr><tr><td>10 cm</td><td>2 kg</td></tr></table>"
        "<table><tr><td><p>A story laid out in a table cell, as old sites do.</p>"
        "<p>Its second paragraph sits in the same cell of the layout.</p></td></tr></table>"
    )
    rows = [b for b in seg.blocks if b.flags & segmentation.FLAG_ROW]
    assert len(rows) == 2 and "10 cm" in rows[1].text and "2 kg" in rows[1].text
    paragraphs = [b for b in seg.blocks if b.kind == "p"]
    assert len(paragraphs) == 2


def test_br_breaks_survive_inside_a_block():
    seg = segmented("<p>First line of the verse<br>second line of the verse</p>")
    assert seg.blocks[0].text == "First line of the verse\nsecond line of the verse"


def test_depth_guard_reads_too_deep_elements_whole_without_recursion():
    depth = 5000
    tree = body_of("<div>" * depth + "deep text at the bottom" + "</div>" * depth)
    assert tree.body is not None
    seg = segment.segment(tree.body, max_depth=100)
    assert "deep text at the bottom" in " ".join(b.text for b in seg.blocks)
    # The element past the guard is the block's one node: the renderings take it whole.
    deep = next(b for b in seg.blocks if "deep text" in b.text)
    assert len(deep.nodes) == 1 and deep.nodes[0].tag == "div"
    assert max(len(b.path) for b in seg.blocks) < 100


def test_marks_flag_every_block_inside_the_marked_element():
    tree = body_of(
        f"<p>{STORY[0]}</p><div id='c'><p>{STORY[1]}</p><span id='s'>inline note</span></div>"
    )
    assert tree.body is not None
    marks = {tree.css_first("#c").mem_id: segmentation.FLAG_COMMENT}
    seg = segment.segment(tree.body, marks=marks)
    flagged = [b.text for b in seg.blocks if b.flags & segmentation.FLAG_COMMENT]
    assert flagged == [STORY[1], "inline note"]


# ------------------------------------------------------------- density, read off blocks


def test_aggregate_counts_sum_the_blocks_each_element_holds():
    html = (
        '<div id="nav"><a href="/a">Home</a> <a href="/b">News</a></div>'
        f'<div id="story">{"".join(f"<p>{p}</p>" for p in STORY)}</div>'
    )
    seg = segmented(html)
    agg = score.aggregate(seg)
    ids = {node.id: element for element, node in enumerate(seg.nodes) if node.id}
    assert agg.chars[ids["story"]] == sum(len(p) for p in STORY)
    assert agg.p_chars[ids["story"]] == agg.chars[ids["story"]]
    # "Home News": the links' characters over the block's (the joining space is not
    # link text).
    assert agg.a_chars[ids["nav"]] == len("HomeNews")
    assert agg.chars[ids["nav"]] == len("Home News")
    assert agg.chars[0] == agg.chars[ids["nav"]] + agg.chars[ids["story"]]
    # A share can never pass 1: numerator and denominator come from the same blocks.
    assert all(a <= c for a, c in zip(agg.a_chars, agg.chars, strict=True))
    assert all(p <= c for p, c in zip(agg.p_chars, agg.chars, strict=True))


def test_selection_picks_the_story_over_the_link_list():
    seg = segmented(
        '<div class="menu">'
        + "".join(f'<a href="/{i}">Section {i}</a> ' for i in range(30))
        + "</div>"
        f'<div class="story">{"".join(f"<p>{p}</p>" for p in STORY)}</div>'
    )
    sel = select.select_blocks(seg, score.aggregate(seg))
    assert sel.winner >= 0 and seg.nodes[sel.winner].attributes.get("class") == "story"
    assert [b.text for b, k in zip(seg.blocks, sel.in_root, strict=True) if k] == STORY


def test_html_keeps_a_blockless_image_beside_a_single_kept_paragraph():
    html = (
        f'<article id="a"><p>{STORY[0]}</p><img src="/d.png" alt="diagram"></article>'
        '<aside id="s"><p>A sidebar paragraph that the decision dropped entirely.</p></aside>'
    )
    seg = segmented(html)
    keep = np.array([b.text == STORY[0] for b in seg.blocks])
    article = next(i for i, n in enumerate(seg.nodes) if n.id == "a")
    content = select.Content(seg, keep, region=(article,))
    html_out, media = render.html(content, "https://example.org/")
    assert "diagram" in html_out and STORY[0] in html_out
    assert "sidebar" not in html_out
    assert [m.url for m in media.images] == ["https://example.org/d.png"]


# --------------------------------------------------------------------------- decide


def test_decide_keeps_the_selection_unless_the_model_is_sure():
    probs = doubles([0.9, 0.35, 0.1, 0.65, 0.95])
    region = mask([True, True, True, False, False])
    chars = doubles([100.0] * 5)
    keep = decide(probs, region, chars, drop_below=doubles([0.3] * 5), add_above=0.8)
    # Inside: dropped only below 0.3. Outside: added only from 0.8.
    assert bools(keep) == [True, True, False, False, True]


def test_decide_falls_back_to_the_selection_when_the_model_keeps_too_little():
    probs = doubles([0.1, 0.1, 0.1, 0.9])
    region = mask([True, True, True, False])
    chars = doubles([500.0, 500.0, 500.0, 50.0])
    keep = decide(probs, region, chars, drop_below=doubles([0.3] * 4), add_above=0.8)
    assert keep == region


def test_decide_trusts_the_model_when_it_is_sure_of_part_of_the_selection():
    # A product description the model is sure of, inside a selection that also holds
    # a carousel of related items three times its size: the carousel goes, although
    # the model keeps less than half of the selection.
    probs = doubles([0.95, 0.9, 0.1, 0.1, 0.1])
    region = mask([True] * 5)
    chars = doubles([300.0, 200.0, 500.0, 500.0, 500.0])
    keep = decide(probs, region, chars, drop_below=doubles([0.6] * 5), add_above=0.8)
    assert bools(keep) == [True, True, False, False, False]
    # Only doubtful keeps (p below the confident level): the selection stands.
    unsure = decide(doubles([0.7, 0.7, 0.1, 0.1, 0.1]), region, chars, doubles([0.6] * 5), 0.8)
    assert unsure == region
    # Sure of one block outside the selection and of nothing inside it: the page is
    # unlike the model's, and the selection stands.
    outside = decide(
        doubles([0.1, 0.1, 0.1, 0.95]),
        mask([True, True, True, False]),
        doubles([500.0, 500.0, 500.0, 400.0]),
        doubles([0.3] * 4),
        0.8,
    )
    assert bools(outside) == [True, True, True, False]


def test_decide_with_a_favor_shift_keeps_a_subset_or_a_superset():
    probs = doubles([0.9, 0.55, 0.7, 0.45, 0.75, 0.5])
    region = mask([True, True, True, True, False, False])
    chars = doubles([100.0] * 6)
    floors = doubles([0.6] * 6)
    balanced = decide(probs, region, chars, drop_below=floors, add_above=0.6)
    precise = decide(probs, region, chars, drop_below=floors, add_above=0.6, shift=0.2)
    recalled = decide(probs, region, chars, drop_below=floors, add_above=0.6, shift=-0.2)
    assert bools(balanced) == [True, False, True, False, True, False]
    assert bools(precise) == [True, False, False, False, False, False]
    assert bools(recalled) == [True, True, True, True, True, True]


# --------------------------------------------------------------------- story end


def block(text: str, kind: str = "p", linked: bool = False) -> segmentation.Block:
    return segmentation.Block(kind, text, -1, len(text) if linked else 0, 0, 0, 0)


TEASERS = [
    "Rail strike called off after a late offer",
    "Ten new homes for the old mill site",
    "Harbour wall repairs to start in June",
]


def test_story_end_cuts_teasers_and_their_heading_after_the_story():
    blocks = [
        *(block(p) for p in STORY[:3]),
        block("(END)"),
        block("More from the city", kind="h2"),
        *(block(t, kind="h3", linked=True) for t in TEASERS),
        block("A one-line summary of the rail strike teaser, which ends a sentence."),
    ]
    keep = policy.story_end(blocks, mask([True] * len(blocks)))
    kept = [b.text for b, k in zip(blocks, keep, strict=True) if k]
    # The story and its sign-off stay; the heading and every card after it go.
    assert kept == [*STORY[:3], "(END)"]


def test_story_end_leaves_what_the_model_is_sure_of():
    blocks = [*(block(p) for p in STORY[:3]), *(block(t, kind="h3", linked=True) for t in TEASERS)]
    keep = mask([True] * len(blocks))
    probs = doubles([0.9, 0.9, 0.9, 0.95, 0.2, 0.5])
    kept = policy.story_end(blocks, keep, probs)
    assert bools(kept) == [True, True, True, True, False, False]


def test_story_end_leaves_a_listing_with_one_paragraph_of_introduction():
    blocks = [block(STORY[0]), *(block(t, kind="li", linked=True) for t in TEASERS * 4)]
    keep = mask([True] * len(blocks))
    assert all(policy.story_end(blocks, keep))


def test_story_end_leaves_links_inside_the_story_and_a_story_without_teasers():
    inside = [block(STORY[0]), block(TEASERS[0], linked=True), *(block(p) for p in STORY[1:4])]
    keep = mask([True] * len(inside))
    assert all(policy.story_end(inside, keep))
    plain = [*(block(p) for p in STORY[:4]), block("Photo: the reading room", kind="figcaption")]
    assert all(policy.story_end(plain, mask([True] * len(plain))))


def test_an_article_page_ends_with_its_story_not_with_the_ranking_under_it():
    ranking = "".join(f'<li><a href="/news/{i}">{t}</a></li>' for i, t in enumerate(TEASERS * 3))
    html = (
        "<html><head><title>Library opens on Sundays</title>"
        '<meta property="og:type" content="article"></head><body>'
        "<div class='page'><h1>Library opens on Sundays</h1>"
        + "".join(f"<p>{p}</p>" for p in STORY[:4])
        + f"<h2>Most read</h2><ol>{ranking}</ol></div></body></html>"
    )
    text = unchrome.extract(html, url="https://news.example/2026/12/library").text
    assert STORY[3] in text
    assert "Most read" not in text
    assert not any(t in text for t in TEASERS)


def test_a_listing_keeps_the_items_the_model_is_unsure_of_where_an_article_drops_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The page profile (policy.profile_thresholds): on a page that is not an
    # article, a block inside the selection stays from p 0.5; an article's stay from
    # 0.6. The per-page adaptation of the thresholds is held still to see only that.
    monkeypatch.setattr(policy, "adapt_drop_thresholds", lambda drop, probs, chars: drop)

    def probabilities(self, seg, agg, sel, ctx, rows=None):  # type: ignore[no-untyped-def]
        return doubles(0.55 if b.text.startswith("Oak shelf") else 0.99 for b in seg.blocks)

    monkeypatch.setattr(blockmodel.BlockModel, "probabilities", probabilities)
    intro = " ".join(STORY[:2])
    items = "".join(
        f"<div class='item'>Oak shelf model {i}, 80 cm wide, solid wood, in stock</div>"
        for i in range(8)
    )

    def page(head: str) -> str:
        return (
            f"<html><head><title>Shelves</title>{head}</head><body><div class='shop'>"
            f"<h1>Shelves</h1><div>{intro}</div><div>{intro}</div>{items}</div></body></html>"
        )

    listing = unchrome.extract(page(""), url="https://shop.example/shelves").text
    assert listing.count("Oak shelf model") == 8
    article = unchrome.extract(
        page('<meta property="og:type" content="article">'), url="https://shop.example/shelves"
    ).text
    assert intro in article
    assert "Oak shelf model" not in article


def test_expected_f1_is_the_best_over_every_set_of_blocks():
    # The best set is always the blocks above some probability, whatever their sizes:
    # the prefix search must find the optimum of a search over all subsets.
    rng = np.random.default_rng(3)
    for _ in range(20):
        probs = rng.random(7)
        weights = rng.integers(1, 400, 7).astype(float)
        total = (probs * weights).sum()
        best = 0.0
        for subset in range(1, 1 << 7):
            kept = np.array([(subset >> i) & 1 for i in range(7)], dtype=bool)
            best = max(best, 2 * (probs * weights)[kept].sum() / (weights[kept].sum() + total))
        assert expected_f1(doubles(probs), doubles(weights)) == pytest.approx(best)
    assert expected_f1(doubles([1.0, 0.0]), doubles([100.0, 50.0])) == pytest.approx(1.0)
    assert expected_f1(doubles([0.0] * 3), doubles([1.0] * 3)) == 0.0


def numpy_expected_f1(probs: np.ndarray, weights: np.ndarray) -> float:
    """policy.expected_f1 as numpy computed it when the thresholds were measured."""
    mass = probs * weights
    total = float(mass.sum())
    if total <= 0.0:
        return 0.0
    order = np.argsort(-probs, kind="stable")
    return float((2.0 * np.cumsum(mass[order]) / (np.cumsum(weights[order]) + total)).max())


@pytest.mark.parametrize("n", [1, 5, 8, 9, 40, 127, 128, 129, 300, 1000])
def test_compiled_expected_f1_is_numpys_to_the_bit(n):
    # Its sums in numpy's order (pairwise for the total, ties of p in place), so the
    # thresholds move on every page as they did when they were measured.
    rng = np.random.default_rng(n)
    for _ in range(20):
        # Probabilities with ties, sizes of blocks (whole numbers of characters).
        probs = np.round(rng.random(n), 2)
        weights = rng.integers(1, 2000, n).astype(float)
        got = expected_f1(doubles(probs), doubles(weights))
        assert got == numpy_expected_f1(probs, weights)


def test_an_unsure_page_keeps_more_of_its_selection_and_a_sure_one_less():
    region = mask([True] * 4)
    chars = doubles([200.0] * 4)
    base = doubles([0.6] * 4)
    # The model is lukewarm about the whole page: a paragraph at 0.5, dropped under the
    # fixed threshold, stays.
    unsure = doubles([0.7, 0.7, 0.7, 0.5])
    assert bools(decide(unsure, region, chars, base, 0.6)) == [True, True, True, False]
    adapted = adapt_drop_thresholds(base, unsure, chars)
    assert all(a < b for a, b in zip(adapted, base, strict=True))
    assert bools(decide(unsure, region, chars, adapted, 0.6)) == [True, True, True, True]
    # Sure of the page: a block at 0.65 that would pass the fixed threshold goes.
    sure = doubles([0.99, 0.99, 0.99, 0.65])
    adapted = adapt_drop_thresholds(base, sure, chars)
    assert all(a > b for a, b in zip(adapted, base, strict=True))
    assert bools(decide(sure, region, chars, adapted, 0.6)) == [True, True, True, False]
    assert bools(decide(sure, region, chars, base, 0.6)) == [True, True, True, True]
    # Nothing to go on (no probability computed): the thresholds stay.
    assert adapt_drop_thresholds(base, doubles([0.0] * 4), chars) == base


# ------------------------------------------------------------------ tree inference


def reference_raw(
    feature: np.ndarray, border: np.ndarray, leaves: np.ndarray, scale: float, bias: float, x
) -> np.ndarray:
    """Row by row, split by split, the way CatBoost documents oblivious trees."""
    out = np.zeros(len(x))
    for row in range(len(x)):
        total = 0.0
        for t in range(feature.shape[0]):
            leaf = 0
            for d in range(feature.shape[1]):
                if x[row, feature[t, d]] > border[t, d]:
                    leaf |= 1 << d
            total += float(leaves[t, leaf])  # float64 sums, as the trees add
        out[row] = total * scale + bias
    return out


@pytest.mark.parametrize("depth", [4, 8, 9])
def test_compiled_trees_match_the_reference_walk(depth):
    # The same comparisons in float32 and the same sum in tree order: the same bits.
    rng = np.random.default_rng(3)
    n_trees, n_features = 20, 7
    feature = rng.integers(0, n_features, (n_trees, depth))
    border = rng.normal(size=(n_trees, depth)).astype(np.float32)
    leaves = rng.normal(size=(n_trees, 1 << depth)).astype(np.float32)
    trees = ObliviousTrees(
        array("q", feature.ravel().tolist()),
        array("f", border.ravel().tobytes()),
        array("f", leaves.ravel().tobytes()),
        depth,
        0.25,
        1.5,
    )
    assert list(trees.used) == sorted(set(feature.ravel().tolist()))
    x = rng.normal(size=(50, n_features)).astype(np.float32)
    # The trees read a row per tested feature, a column per block.
    xt = np.ascontiguousarray(x[:, list(trees.used)].T).ravel()
    expected = reference_raw(feature, border, leaves, 1.5, 0.25, x)
    assert np.asarray(trees.raw_by_feature(xt, 50)).tobytes() == expected.tobytes()
    assert len(trees.raw_by_feature(array("f"), 0)) == 0
    probs = trees.predict_by_feature(xt, 50)
    assert all(0 < p < 1 for p in probs)


def test_trees_refuse_arrays_that_do_not_describe_them():
    with pytest.raises(ValueError, match="depth"):
        ObliviousTrees(array("q", [0, 1, 2]), array("f", [0.0] * 3), array("f", [0.0] * 4), 2, 0.0)
    with pytest.raises(ValueError, match="leaves"):
        ObliviousTrees(array("q", [0, 1]), array("f", [0.0] * 2), array("f", [0.0] * 3), 2, 0.0)
    trees = ObliviousTrees(array("q", [0, 1]), array("f", [0.0] * 2), array("f", [0.0] * 4), 2, 0.0)
    with pytest.raises(ValueError, match="row of the blocks"):
        trees.raw_by_feature(array("f", [0.0] * 5), 2)


def test_the_model_file_is_read_without_numpy_as_numpy_reads_it():
    # blockmodel._read_npz against numpy's own reader: on the packaged model, and on an
    # archive with the model's four members and an array of every type it reads.
    packaged = (Path(blockmodel.__file__).parent / blockmodel.MODEL_FILE).read_bytes()
    made = io.BytesIO()
    np.savez_compressed(
        made,
        meta=np.frombuffer(b"{}", dtype=np.uint8),
        feature=np.arange(-6, 6, dtype=np.int32).reshape(3, 4),
        border=np.array([[0.1, np.inf], [-2.5, 1e-8]], dtype=np.float32),
        leaves=np.array([np.pi, -0.0]),
        longs=np.array([1 << 40, -3], dtype=np.int64),
    )
    for data in (packaged, made.getvalue()):
        expected = np.load(io.BytesIO(data))
        found = blockmodel._read_npz(data)
        assert set(found) == set(expected.files)
        for name, (shape, values) in found.items():
            assert shape == expected[name].shape, name
            assert np.asarray(values).tobytes() == expected[name].ravel().tobytes(), name


def test_a_model_file_of_other_arrays_is_refused():
    made = io.BytesIO()
    np.savez(made, meta=np.zeros(2, dtype=np.complex64), feature=np.zeros(1, np.int32))
    with pytest.raises(ValueError, match="holds"):
        blockmodel._read_npz(made.getvalue())
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("meta.npy", b"not numpy")
    with pytest.raises(ValueError, match=r"not a \.npy array"):
        blockmodel._read_npz(archive.getvalue())
    made = io.BytesIO()
    np.savez(made, meta=np.zeros(2, dtype=np.uint8))
    with pytest.raises(ValueError, match="has no feature"):
        blockmodel._read_npz(made.getvalue())
    # Not an archive, or one cut short: a ValueError naming it, not zipfile's errors.
    packaged = (Path(blockmodel.__file__).parent / blockmodel.MODEL_FILE).read_bytes()
    for data in (b"not a model", packaged[: len(packaged) // 2], b""):
        with pytest.raises(ValueError, match="npz"):
            blockmodel.load_model(data)


def test_packaged_model_loads_and_builds_its_own_feature_width():
    model = blockmodel.load_model()
    assert model is not None, "the model file must ship inside the package"
    assert 0 < model.drop_structured_below <= model.drop_below < 1
    assert 0 < model.add_above < 1
    assert max(model.trees.feature) < len(model.names)
    trace = Trace()
    html = (
        "<html><head><title>Library</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<article>{''.join(f'<p>{p}</p>' for p in STORY)}</article></body></html>"
    )
    unchrome.Extractor().extract(html, trace=trace)
    assert trace.seg is not None and trace.agg and trace.sel and trace.ctx
    flat = features.features(trace.seg, trace.agg, trace.sel, trace.ctx, model.vocab)
    assert flat.typecode == "f"
    assert len(flat) == len(trace.seg.blocks) * len(model.names)
    assert np.isfinite(np.asarray(flat)).all()


def test_inference_columns_and_rows_are_slices_of_the_full_matrix():
    # Inference asks only for the tested columns, feature-major, and beside a story
    # only for the selection's rows; the training tool builds the full matrix. Both
    # must describe a block the same way, or the trees read other values than they
    # were fit on.
    model = blockmodel.load_model()
    assert model is not None
    trace = Trace()
    html = (
        "<html><head><title>Library opens on Sundays</title></head><body>"
        "<nav><ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li></ul></nav>"
        "<h1>Library opens on Sundays</h1><div class='share'>Share</div>"
        f"<article>{''.join(f'<p>{p}</p>' for p in STORY)}<ul><li>Opening hours</li></ul>"
        "</article><aside><h2>Related posts</h2><p>Read more about the council.</p></aside>"
        "<p>Поддержите нас: 图书馆 周日 开放 (kana テスト).</p></body></html>"
    )
    unchrome.Extractor().extract(html, trace=trace)
    args = (trace.seg, trace.agg, trace.sel, trace.ctx, model.vocab)
    full = feature_matrix(*args)  # type: ignore[arg-type]
    n = len(full)
    assert n > 5
    columns = model.trees.used
    rows = np.array([1, 3, n - 1])
    assert np.array_equal(feature_matrix(*args, columns=columns), full[:, columns].T)  # type: ignore[arg-type]
    assert np.array_equal(
        feature_matrix(*args, columns=columns, rows=rows),  # type: ignore[arg-type]
        full[rows][:, columns].T,
    )
    assert np.array_equal(feature_matrix(*args, rows=rows), full[rows])  # type: ignore[arg-type]


KIND_OF = {kind: i for i, kind in enumerate(features.KINDS)}
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


# The feature matrix as numpy and Python computed it before _features.assemble wrote it
# (the computation the packaged trees were fit on): every column, one row per block.
# assemble must give the same float32 bits.
def reference_features(
    seg: segmentation.Segmentation,
    agg: score.Aggregate,
    sel: select.Selection,
    ctx: features.PageContext,
    vocab: segmentation.Vocabulary,
) -> np.ndarray:
    # The pipeline's arrays (array.array and bytearray masks) as numpy's.
    pipeline_agg = agg
    agg = SimpleNamespace(  # type: ignore[assignment]
        **{
            name: np.asarray(getattr(pipeline_agg, name))
            for name in ("chars", "a_chars", "p_chars", "scores", "block_of", "element_of")
        }
    )
    blocks = seg.blocks
    n = len(blocks)
    width = len(features.feature_names(vocab))
    if not n:
        return np.zeros((0, width), dtype=np.float32)
    texts = [b.text for b in blocks]
    chars = np.array([len(t) for t in texts], dtype=np.float64)
    links = np.array([b.link_chars for b in blocks], dtype=np.float64)
    flags = np.array([b.flags for b in blocks], dtype=np.int64)
    other = len(features.KINDS)
    kinds = np.array([KIND_OF.get(b.kind, other) for b in blocks])
    heading = np.array([b.kind in HEADINGS for b in blocks], dtype=np.float64)
    up = [np.array([b.path[-1 - k] if len(b.path) > k else -1 for b in blocks]) for k in range(3)]
    table = np.frombuffer(_blocktext.text_stats(texts, ctx.title or ""), dtype=np.float64)
    table = table.reshape(n, len(_blocktext.TEXT_STATS))
    with np.errstate(divide="ignore", invalid="ignore"):
        link = np.minimum(links / chars, 1.0)
    log_chars = np.log1p(chars)
    in_root = np.frombuffer(sel.in_root, dtype=np.uint8).astype(np.float64)
    scores = agg.scores
    win_score = (float(scores[sel.winner]) if sel.winner >= 0 else 0.0) or 1.0
    page_chars = float(agg.chars[0]) + 1.0 if len(agg.chars) else 1.0

    def element_stats(elements: np.ndarray) -> list[np.ndarray]:
        if not len(agg.chars):
            return [np.full(n, -1.0)] * 4
        missing = elements < 0
        safe = np.where(missing, 0, elements)
        e_chars = agg.chars[safe]
        denominator = np.maximum(e_chars, 1.0)
        values = (
            np.log((e_chars + 1.0) / page_chars),
            agg.a_chars[safe] / denominator,
            agg.p_chars[safe] / denominator,
            scores[safe] / win_score,
        )
        return [np.where(missing, -1.0, v) for v in values]

    path_best = np.zeros(n)
    if len(agg.element_of):
        np.maximum.at(path_best, agg.block_of, scores[agg.element_of] / win_score)
    shapes = Counter((b.kind, b.near_mask, len(b.path)) for b in blocks)
    repeats = Counter(texts)
    columns = [
        log_chars,
        np.log1p(table[:, 0]),
        link,
        *table[:, 1:].T,
        np.array([len(b.path) for b in blocks], dtype=np.float64),
        in_root,
        np.frombuffer(sel.noise, dtype=np.uint8).astype(np.float64),
        (flags & segmentation.FLAG_IN_LINK) > 0,
        (flags & segmentation.FLAG_ROW) > 0,
        np.arange(n) / n,
        (np.cumsum(chars) - chars) / (chars.sum() or 1.0),
        np.array([shapes[(b.kind, b.near_mask, len(b.path))] for b in blocks]) / n,
        np.array([repeats[t] for t in texts], dtype=np.float64),
        path_best,
        *element_stats(up[0]),
        *element_stats(up[1]),
        *element_stats(up[2]),
    ]
    columns += list(kinds == np.arange(other + 1)[:, None])
    series = [log_chars, link, heading, in_root]
    before = [np.concatenate([[0.0], s[:-1]]) for s in series]
    after = [np.concatenate([s[1:], [0.0]]) for s in series]
    window = []
    for s in series:
        csum = np.concatenate([[0.0], np.cumsum(s)])
        lo = np.maximum(np.arange(n) - 2, 0)
        hi = np.minimum(np.arange(n) + 3, n)
        window.append((csum[hi] - csum[lo]) / (hi - lo))
    runs = np.zeros(n)
    start = 0
    for i in range(1, n + 1):
        if i == n or in_root[i] - in_root[i - 1] != 0:
            runs[start:i] = (i - start) / n
            start = i
    columns += [*before, *after, window[3], window[1], window[0], window[2], runs]
    columns += [np.full(n, v) for v in features._page_row(n, pipeline_agg, sel, ctx)]
    for masks in ([b.near_mask for b in blocks], [b.far_mask for b in blocks]):
        columns += [np.array([(mask >> t) & 1 for mask in masks]) for t in range(vocab.size)]
    says, under = features.text_word_columns(blocks, vocab)
    columns += [*says.T, *under.T]
    assert len(columns) == width
    return np.column_stack([np.asarray(c, dtype=np.float64) for c in columns]).astype(np.float32)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal shapes and float32 bit patterns (NaN included)."""
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


SMALL_VOCAB = segmentation.Vocabulary(
    words=["share", "nav", "post"],
    stems=["comment", "promo"],
    tags=["aside", "footer"],
    text_words=["share", "related", "posts", "read", "more", "комментарии", "评论"],
)
GENERATED_TEXTS = [
    "Share",
    "Read more",
    "Related posts",
    "READ MORE about it",
    "Комментарии",
    "评论 (3)",
    "A paragraph that says what happened, and why it matters: the council met.",
    "Line one\nline two\nline three",
    "x" * 120,
    "Menu | Home | News | Sports",
    "2024-05-01",
    "The end.",
]


def generated_page(
    rng: np.random.Generator,
    n: int,
    elements: int,
    vocab: segmentation.Vocabulary,
    empty_texts: bool = False,
) -> tuple[segmentation.Segmentation, score.Aggregate, select.Selection, features.PageContext]:
    """Blocks of random kinds, texts, links, flags and paths over a random element tree;
    the selection drawn at random too (the features read it, not how it was made)."""
    parents = [-1] + [int(rng.integers(0, e)) for e in range(1, elements)]
    kinds = [*features.KINDS, "nav", "x-widget"]
    texts = GENERATED_TEXTS + ([""] if empty_texts else [])
    # A few bit sets per page, so that blocks share shapes as a page's do.
    bits = (1 << vocab.size) - 1
    masks = [int.from_bytes(rng.bytes(vocab.size // 8 + 1), "little") & bits for _ in range(4)]
    blocks = []
    for _ in range(n):
        path: list[int] = []
        if elements and rng.random() < 0.9:
            e = int(rng.integers(0, elements))
            while e >= 0:
                path.insert(0, e)
                e = parents[e]
        text = texts[int(rng.integers(0, len(texts)))]
        blocks.append(
            segmentation.Block(
                kind=kinds[int(rng.integers(0, len(kinds)))],
                text=text,
                owner=path[-1] if path else 0,
                link_chars=int(rng.integers(0, len(text) + 2)),
                near_mask=masks[int(rng.integers(0, 2))],
                far_mask=masks[int(rng.integers(0, 4))],
                flags=int(rng.integers(0, 64)),
                path=tuple(path),
            )
        )
    seg = segmentation.Segmentation(blocks, [None] * elements, ["div"] * elements, parents)  # type: ignore[list-item]
    agg = score.aggregate(seg)
    winner = int(rng.integers(-1, elements)) if elements else -1
    sel = select.Selection(
        winner, [max(winner, 0)], bool(rng.random() < 0.3), rng.random(n) < 0.6, rng.random(n) < 0.2
    )
    ctx = features.PageContext(
        url=[
            "https://example.com/news/2024/05/some-post.html",
            None,
            "https://shop.example/p/item_1",
        ][n % 3],
        title=["Related posts", None, "A paragraph that says what happened"][n % 3],
        og_type=["article", None, "product.item", "website", "video"][n % 5],
        ld_types={"newsarticle", "breadcrumblist"} if n % 2 else set(),
    )
    return seg, agg, sel, ctx


@pytest.mark.parametrize(
    ("seed", "n", "elements"),
    [
        (0, 0, 5),
        (1, 1, 3),
        (2, 2, 1),
        (3, 7, 4),
        (4, 40, 30),
        (5, 120, 60),
        (6, 25, 0),
        (7, 60, 200),
    ],
)
@pytest.mark.parametrize("vocab", ["small", "packaged"])
def test_compiled_features_match_the_numpy_reference_on_generated_pages(seed, n, elements, vocab):
    # Every column of every block against the numpy computation, bit for bit: a wrong
    # group order, an off-by-one in a window or a run, a sum in another order, C's log
    # for numpy's or a different rounding to float32 all show here. Pages without
    # elements (all paths empty, an empty aggregate) and with no winner included.
    model = blockmodel.load_model()
    assert model is not None
    v = SMALL_VOCAB if vocab == "small" else model.vocab
    rng = np.random.default_rng(seed)
    seg, agg, sel, ctx = generated_page(rng, n, elements, v)
    full = feature_matrix(seg, agg, sel, ctx, v)
    assert same_bits(full, reference_features(seg, agg, sel, ctx, v))
    assert np.isfinite(full).all()


def test_compiled_features_keep_numpys_nan_for_a_block_without_text():
    # A block of no characters has a link share of 0/0: NaN, carried into the
    # neighbours' link columns and window, as numpy carried it. The innermost element
    # of such a block has no characters either: its shares divide by 1, not by 0.
    rng = np.random.default_rng(11)
    seg, agg, sel, ctx = generated_page(rng, 60, 100, SMALL_VOCAB, empty_texts=True)
    seg.blocks[10].text = ""
    seg.blocks[10].link_chars = 0
    seg.blocks[10].path = (0, 99)
    agg = score.aggregate(seg)
    assert agg.chars[99] == 0
    full = feature_matrix(seg, agg, sel, ctx, SMALL_VOCAB)
    names = features.feature_names(SMALL_VOCAB)
    assert np.isnan(full[10, names.index("link_share")])
    assert np.isnan(full[11, names.index("prev_link")])
    assert full[10, names.index("owner_link")] == 0.0
    assert same_bits(full, reference_features(seg, agg, sel, ctx, SMALL_VOCAB))


@pytest.mark.parametrize("seed", range(6))
def test_column_and_row_subsets_are_the_full_matrix_gathered(seed):
    # Inference asks for the tested columns feature-major and, beside a story, for
    # some rows: each must be the full matrix's values (the Layout of a columns array
    # is cached, so a second call with other columns must not reuse the first's).
    model = blockmodel.load_model()
    assert model is not None
    rng = np.random.default_rng(100 + seed)
    n, elements = int(rng.integers(1, 80)), int(rng.integers(0, 40))
    seg, agg, sel, ctx = generated_page(rng, n, elements, model.vocab)
    args = (seg, agg, sel, ctx, model.vocab)
    full = feature_matrix(*args)
    width = full.shape[1]
    for _ in range(4):
        columns = np.sort(rng.choice(width, int(rng.integers(0, width)), replace=False))
        rows = np.sort(rng.choice(n, int(rng.integers(0, n + 1)), replace=False))
        assert same_bits(feature_matrix(*args, columns=columns), full[:, columns].T.copy())
        assert same_bits(feature_matrix(*args, rows=rows), full[rows])
        part = feature_matrix(*args, columns=columns, rows=rows)
        assert same_bits(part, full[rows][:, columns].T.copy())
    used = model.trees.used
    assert same_bits(feature_matrix(*args, columns=used), full[:, used].T.copy())
    empty = np.zeros(0, dtype=np.intp)
    assert feature_matrix(*args, columns=used, rows=empty).shape == (len(used), 0)
    assert feature_matrix(*args, rows=empty).shape == (0, width)


FIXTURES = Path(__file__).parent / "fixtures" / "pipeline"
PAGES = {path.name: path.read_bytes() for path in sorted(FIXTURES.glob("*.html"))} | {
    "one block": f"<p>{STORY[0]}</p>".encode(),
    "no block": b"<p>Too short.</p>",
    "no element": "".join(f"<p>{p}</p>" for p in STORY).encode(),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_compiled_features_match_the_numpy_reference_on_real_pages(name):
    # The pipeline's own segmentations, the model's vocabulary: the full matrix, the
    # tested columns and the selection's rows, against the reference. "no element" is
    # read with max_depth=1: the body whole, no element, an empty aggregate.
    model = blockmodel.load_model()
    assert model is not None
    trace = Trace()
    config = Config(max_depth=1) if name == "no element" else Config()
    url = "https://example.com/news/a-story"
    with contextlib.suppress(unchrome.UnchromeError):  # "no block" has too little text
        unchrome.Extractor(config).extract(PAGES[name], url=url, trace=trace)
    assert trace.seg is not None and trace.agg is not None and trace.sel is not None
    assert trace.ctx is not None
    assert len(trace.seg.blocks) == {"one block": 1, "no block": 0}.get(name, len(trace.seg.blocks))
    args = (trace.seg, trace.agg, trace.sel, trace.ctx, model.vocab)
    full = feature_matrix(*args)
    assert same_bits(full, reference_features(*args))
    rows = np.flatnonzero(trace.sel.in_root)
    used = model.trees.used
    part = feature_matrix(*args, columns=used, rows=rows)
    assert same_bits(part, full[rows][:, used].T.copy())


def test_features_refuse_columns_and_rows_they_cannot_place():
    # Unsorted or out-of-range columns used to leave rows of np.empty unwritten; a row
    # that is not a block must not be read past the arrays.
    rng = np.random.default_rng(5)
    seg, agg, sel, ctx = generated_page(rng, 10, 5, SMALL_VOCAB)
    args = (seg, agg, sel, ctx, SMALL_VOCAB)
    width = len(features.feature_names(SMALL_VOCAB))
    for columns in ([3, 1], [0, width], [-1, 2]):
        with pytest.raises(ValueError, match="column"):
            features.features(*args, columns=array("q", columns))
    for rows in ([0, 10], [-1]):
        with pytest.raises(IndexError):
            features.features(*args, rows=rows)


def test_a_model_built_for_other_features_is_refused():
    buffer = io.BytesIO()
    meta = {
        "words": [], "stems": [], "tags": [], "text_words": [], "bias": 0.0, "scale": 1.0,
        "drop_below": 0.5, "drop_structured_below": 0.3, "add_above": 0.5,
        "names": ["not", "ours"],
    }  # fmt: skip
    np.savez(
        buffer,
        feature=np.zeros((1, 1), dtype=np.int32),
        border=np.zeros((1, 1), dtype=np.float32),
        leaves=np.zeros((1, 2), dtype=np.float32),
        meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
    )
    with pytest.raises(ValueError, match="other features"):
        blockmodel.load_model(buffer.getvalue())


def test_pages_past_the_block_cap_keep_the_selection_without_running_the_model(monkeypatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("features built for a page past MAX_MODEL_BLOCKS")

    monkeypatch.setattr(blockmodel, "MAX_MODEL_BLOCKS", 50)
    monkeypatch.setattr(blockmodel, "features", refuse)
    items = "".join(f"<li>Item number {i} of a long list</li>" for i in range(80))
    result = unchrome.extract(f"<html><body><article><ul>{items}</ul></article></body></html>")
    assert result.text.count("Item number") == 80


def test_vocabulary_splits_ascii_names_as_the_regex_does():
    # Vocabulary.names splits ASCII class/id strings in compiled code; every ASCII
    # character must separate tokens (or not) as segmentation._NAME_SPLIT does.
    bits = {"ab": 1, "cd": 2, "e": 4, "abx": 8, "xcd": 16, "ex": 32}
    for code in range(128):
        names = f"Ab{chr(code)}cD e{chr(code)}".lower()
        expected = [t for t in segmentation._NAME_SPLIT.split(names) if t]
        seen: list[str] = []

        def new_token(token: str, seen: list[str] = seen) -> int:
            seen.append(token)
            return 0

        mask = _blocktext.name_token_bits(names, {}, new_token)
        assert seen == expected, repr(chr(code))
        assert mask == 0
        want = 0
        for token in expected:
            want |= bits.get(token, 0)
        assert _blocktext.name_token_bits(names, bits, lambda t: 0) == want, repr(chr(code))


def test_vocabulary_token_bits_of_the_packaged_stems_are_its_words_and_substrings():
    # The stems are found by a compiled index (_blocktext.StemIndex): each token's bits
    # must be its word's and those of every stem inside it, as a substring test reads them.
    vocab = blockmodel.load_model().vocab
    words = {w: 1 << i for i, w in enumerate(vocab.words)}
    stems = {s: 1 << (len(vocab.words) + i) for i, s in enumerate(vocab.stems)}
    tokens = [
        *vocab.words, *vocab.stems, *(a + b for a in vocab.stems[:20] for b in vocab.stems[-20:]),
        "x" + vocab.stems[0], vocab.stems[-1] + "9", "ré" + vocab.stems[1] + "é", "", "a1b2c3",
    ]  # fmt: skip
    for token in tokens:
        want = words.get(token, 0)
        for stem, bit in stems.items():
            if stem in token:
                want |= bit
        assert vocab._token_bits(token) == want, token


def test_vocabulary_verdicts_of_ascii_names_match_the_case_blind_patterns():
    # The ASCII path reads chrome and body in one search; any names it reads must get
    # the verdict the general (re.I) path gives them.
    vocab = segmentation.Vocabulary(["nav", "content"], ["comment"], ["div"])
    cases = [
        "entry-content", "post-body related-posts", "related-posts post-body", "sidebar",
        "site-sidebar", "Sidebar main", "ENTRY-CONTENT", "nav entry-content",
        "entry-content nav", "story__text", "post_entry", "tags-list entry-content",
        "content", "x entry--text", "breadcrumbs", "menu-item-12", "a_b-c d",
    ]  # fmt: skip
    for names in cases:
        lowered = names.lower()
        named = segmentation.NAMED_NOTHING
        if segmentation.CHROME_NAMES.search(lowered):
            named = (
                segmentation.NAMED_SIDEBAR
                if segmentation.SIDEBAR_NAME.search(lowered)
                else segmentation.NAMED_CHROME
            )
        elif segmentation.body_name().search(lowered):
            named = segmentation.NAMED_BODY
        assert vocab.names(names)[1] == named, names


def test_an_extractor_given_a_block_model_uses_it_instead_of_the_packaged_one():
    # The benchmark scores models trained without a corpus on that corpus
    # (bench --model): the model handed to the Extractor must be the one that decides.
    packaged = blockmodel.load_model()
    sure = dataclasses.replace(
        packaged,
        trees=ObliviousTrees(
            packaged.trees.feature,
            packaged.trees.border,
            packaged.trees.leaves,
            packaged.trees.depth,
            packaged.trees.bias + 100.0,  # every block content, p = 1
            packaged.trees.scale,
        ),
    )
    cards = "".join(
        f"<li><h3>Product {i}</h3><span>Warm wool socks, size {i}</span></li>" for i in range(12)
    )
    html = (
        "<html><body><div class='side'><h4>Opening hours</h4>"
        "<span>Monday to Friday, nine to five</span></div>"
        f"<main><ul>{cards}</ul></main></body></html>"
    )
    assert "Opening hours" not in unchrome.Extractor().extract(html).text
    # A listing is no story: a block outside the selection joins when the model is sure.
    assert "Opening hours" in unchrome.Extractor(block_model=sure).extract(html).text
