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
level, so its cost does not grow with Python loops over trees.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources

import numpy as np

from unchrome._native import _blocktext
from unchrome._native._blocktext import ends_sentence
from unchrome._native._features import BLOCK_FEATURES, NEIGHBOUR_FEATURES, Layout, assemble
from unchrome._native._trees import raw_scores
from unchrome.formats import ARTICLE_TYPES
from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import (
    FLAG_IN_LINK,
    FLAG_ROW,
    HEADINGS,
    PROSE_CHARS,
    Block,
    Segmentation,
    Vocabulary,
    is_prose,
)
from unchrome.pipeline.select import Selection
from unchrome.urls import path as url_path

MODEL_FILE = "blockmodel.npz"

# Tags whose presence among a block's ancestors the model sees.
ANCESTOR_TAGS = (
    "article", "main", "section", "aside", "header", "footer", "nav", "form", "table",
    "ul", "ol", "li", "dl", "blockquote", "figure", "details", "summary", "a", "h1",
    "h2", "h3", "h4", "h5", "h6", "p", "label", "address", "center", "menu", "span",
    "strong", "em", "b", "small", "time", "button", "fieldset", "tbody", "td", "th",
)  # fmt: skip

# Substring stems of class/id words: sites glue words together ("commentlist",
# "sharebar", "postcontent"), which whole-token matching misses.
NAME_STEMS = (
    "comment", "share", "social", "related", "recommend", "sidebar", "widget", "footer",
    "header", "nav", "menu", "breadcrumb", "cookie", "consent", "newsletter", "subscri",
    "promo", "advert", "sponsor", "banner", "popup", "modal", "author", "byline", "meta",
    "tag", "categor", "date", "price", "product", "review", "rating", "cart", "faq",
    "hero", "feature", "pricing", "testimonial", "card", "teaser", "thumb", "gallery",
    "carousel", "slide", "caption", "content", "article", "post", "entry", "story",
    "body", "text", "main", "title", "headline", "summary", "desc", "detail", "spec",
    "toc", "pagination", "pager", "search", "login", "signup", "cta", "button", "btn",
    "form", "footnote", "reference", "code", "highlight", "doc", "markdown", "prose",
    "rich", "wysiwyg", "forum", "thread", "reply", "message", "answer", "question",
    "vote", "user", "avatar", "signature", "quote", "list", "item", "grid", "tile",
    "filter", "facet", "sort", "bio", "contact", "legal", "disclaimer", "copyright",
    "award", "badge", "logo", "icon", "label", "note", "alert", "notice", "tab",
    "accordion", "collapse", "toggle", "hidden", "mobile", "desktop", "print", "skip",
)  # fmt: skip

# Words of the URL path that say what kind of page it is.
URL_WORDS = (
    "blog", "news", "article", "articles", "post", "posts", "story", "stories",
    "product", "products", "shop", "store", "item", "p", "dp", "buy", "forum", "forums",
    "thread", "threads", "questions", "question", "t", "topic", "topics", "discussion",
    "community", "docs", "doc", "documentation", "api", "guide", "guides", "reference",
    "manual", "wiki", "category", "categories", "tag", "tags", "collection",
    "collections", "search", "list", "services", "service", "solutions", "pricing",
    "about", "features", "help", "support", "faq", "learn", "courses", "events",
    "jobs", "recipes", "reviews", "html", "htm", "php", "aspx",
)  # fmt: skip

# schema.org types grouped by the kind of page they announce.
LD_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("article", frozenset({
        "article", "newsarticle", "blogposting", "reportagenewsarticle",
        "analysisnewsarticle", "opinionnewsarticle", "scholarlyarticle", "techarticle",
        "report", "liveblogposting", "socialmediaposting",
    })),
    ("product", frozenset({"product", "productgroup", "offer", "aggregateoffer", "car"})),
    ("discussion", frozenset({"discussionforumposting", "qapage", "question", "answer",
                              "conversation", "comment"})),
    ("list", frozenset({"itemlist", "collectionpage", "searchresultspage", "offercatalog"})),
    ("faq", frozenset({"faqpage"})),
    ("howto", frozenset({"howto", "recipe", "course"})),
    ("organization", frozenset({"organization", "localbusiness", "corporation",
                                "professionalservice", "service", "store"})),
    ("software", frozenset({"softwareapplication", "webapplication", "mobileapplication",
                            "softwaresourcecode", "apireference"})),
    ("event", frozenset({"event", "jobposting", "place", "realestatelisting"})),
    ("breadcrumb", frozenset({"breadcrumblist"})),
    ("webpage", frozenset({"webpage", "website", "aboutpage", "contactpage", "itempage"})),
)  # fmt: skip

KINDS = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "table", "pre", "blockquote",
         "dt", "dd", "figcaption", "caption", "td", "th", "div", "section", "article",
         "span", "a", "label", "summary", "address")  # fmt: skip
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}

_WORD = re.compile(r"\w+")


@dataclass
class PageContext:
    """What the block model knows of the page beyond its blocks."""

    url: str | None = None
    title: str | None = None
    og_type: str | None = None
    ld_types: set[str] = field(default_factory=set)


# --------------------------------------------------------------------------- features

# BLOCK_FEATURES and NEIGHBOUR_FEATURES, the per-block and neighbour groups, are the
# compiled assembly's (_features), in the order it writes them.
PAGE_FEATURES = (
    "page_log_chars", "page_log_blocks", "page_link", "page_p",
    "winner_share", "winner_link", "winner_p", "orphan", "roots",
    "og_article", "og_product", "og_website", "og_other", "url_depth", "url_date",
)  # fmt: skip


def feature_names(vocab: Vocabulary) -> list[str]:
    names = list(BLOCK_FEATURES)
    names += [f"kind_{k}" for k in KINDS] + ["kind_other"]
    names += list(NEIGHBOUR_FEATURES) + list(PAGE_FEATURES)
    names += [f"ld_{g}" for g, _ in LD_GROUPS] + [f"url_{w}" for w in URL_WORDS]
    labels = vocab.words + [f"~{s}" for s in vocab.stems] + [f"<{t}>" for t in vocab.tags]
    names += [f"near:{n}" for n in labels] + [f"far:{n}" for n in labels]
    names += [f"says:{w}" for w in vocab.text_words]
    names += [f"under:{w}" for w in vocab.text_words]
    return names


_DATE_PATH = re.compile(r"/(?:19|20)\d\d/")


def features(
    seg: Segmentation,
    agg: Aggregate,
    sel: Selection,
    ctx: PageContext,
    vocab: Vocabulary,
    columns: np.ndarray | None = None,
    rows: np.ndarray | None = None,
) -> np.ndarray:
    """The feature matrix, one row per block, columns as in ``feature_names``.

    With ``columns`` (sorted indices), only those features, feature-major: shape
    (len(columns), blocks). Inference passes the features its trees test (about a
    quarter of them) and reads them row by row (ObliviousTrees.raw_by_feature).
    With ``rows`` (sorted block indices), only those blocks' rows: a block's features
    read the other blocks' lengths, links and kinds, but not their words, so the word
    statistics, the dearest part, are computed for these rows alone.
    """
    # The matrix is written by the compiled _features.assemble, feature-major: only the
    # tested columns, for the wanted blocks. Which group and feature each output row
    # is, and the text words to look up, come from a Layout made once per columns
    # array. Assembled with numpy (a step per column group, a Counter per page, the
    # words scattered by a Python loop), features() took 0.50 ms a call at the middle
    # fifth of the news pages and 0.67 ms at the WCXB dev pages' (means, best of three
    # runs), compiled 0.27 and 0.38 ms, the same matrices on all 1,895 pages.
    layout = _layout(vocab, None if columns is None else _column_bytes(columns))
    page_row = _page_row(len(seg.blocks), agg, sel, ctx) if layout.page else None
    out = assemble(layout, seg.blocks, rows, agg, sel, ctx.title or "", page_row)
    return out if columns is not None else out.T.copy()


def _column_bytes(columns: np.ndarray) -> bytes:
    return np.ascontiguousarray(columns, dtype=np.int64).tobytes()


@lru_cache(maxsize=8)
def _layout(vocab: Vocabulary, columns: bytes | None) -> Layout:
    """Where each of ``columns`` (int64 bytes; None: every feature) goes."""
    size = len(vocab.text_words)
    widths = (
        len(BLOCK_FEATURES),
        len(KINDS) + 1,
        len(NEIGHBOUR_FEATURES),
        len(PAGE_FEATURES) + len(LD_GROUPS) + len(URL_WORDS),
        2 * vocab.size,
        size,
        size,
    )
    return Layout(
        None if columns is None else np.frombuffer(columns, dtype=np.int64),
        widths,
        _KIND_INDEX,
        HEADINGS,
        vocab.text_index,
        FLAG_IN_LINK,
        FLAG_ROW,
    )


def _page_row(n: int, agg: Aggregate, sel: Selection, ctx: PageContext) -> list[float]:
    """The page's features (PAGE_FEATURES, then LD_GROUPS and URL_WORDS), the same for
    each of its ``n`` blocks."""
    winner = sel.winner
    og = (ctx.og_type or "").strip().lower()
    path = url_path(ctx.url).lower()
    path_words = set(_WORD.findall(path.replace("_", " ")))
    body_chars = float(agg.chars[0]) if len(agg.chars) else 0.0
    body_a = float(agg.a_chars[0]) if len(agg.chars) else 0.0
    body_p = float(agg.p_chars[0]) if len(agg.chars) else 0.0
    w_chars = float(agg.chars[winner]) if winner >= 0 else 0.0
    page_row = [
        math.log1p(body_chars),
        math.log1p(n),
        body_a / body_chars if body_chars else 0.0,
        body_p / body_chars if body_chars else 0.0,
        w_chars / body_chars if body_chars else 0.0,
        float(agg.a_chars[winner]) / w_chars if w_chars else 0.0,
        float(agg.p_chars[winner]) / w_chars if w_chars else 0.0,
        1.0 if sel.orphan else 0.0,
        float(len(sel.roots)),
        1.0 if og == "article" else 0.0,
        1.0 if "product" in og else 0.0,
        1.0 if og == "website" else 0.0,
        1.0 if og and og not in ("article", "website") and "product" not in og else 0.0,
        float(path.strip("/").count("/") + 1) if path.strip("/") else 0.0,
        1.0 if _DATE_PATH.search(path) else 0.0,
    ]
    page_row += [1.0 if ctx.ld_types & members else 0.0 for _, members in LD_GROUPS]
    page_row += [1.0 if w in path_words else 0.0 for w in URL_WORDS]
    return page_row


# The most words of a block that says them (tools/train_blockmodel.py builds the
# vocabulary of such words with it).
SAYS_MAX_WORDS = _blocktext.SAYS_MAX_WORDS


def text_word_columns(
    blocks: list[Block],
    vocab: Vocabulary,
    index: dict[str, int] | None = None,
    rows: set[int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Words of short blocks ("Share", "Read more", "Sign up") and of the heading a
    block sits under ("Related posts", "Comments"), over a vocabulary of such words.

    ``index`` (word -> column) may hold only some of the vocabulary: the columns of the
    others stay 0, and inference, which reads only the words its trees test, looks up
    fewer words. With ``rows``, the "says" columns are filled for those blocks only
    (headings are read everywhere: the blocks under them need their words)."""
    n = len(blocks)
    size = len(vocab.text_words)
    says = np.zeros((n, size))
    under = np.zeros((n, size))
    if not size:
        return says, under
    if index is None:
        index = vocab.text_index
    wanted = None
    if rows is not None:
        wanted = bytearray(n)
        for i in rows:
            wanted[i] = 1
    said_rows, said_words, stretches = _blocktext.word_hits(
        [b.text for b in blocks], bytes(b.kind in HEADINGS for b in blocks), index, wanted
    )
    says[said_rows, said_words] = 1.0
    for start, end, hits in stretches:
        under[start:end, hits] = 1.0
    return says, under


# --------------------------------------------------------------------------- model


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
        self.used = np.unique(feature)
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
        return _sigmoid(self.raw(x))


def _sigmoid(raw: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-raw))


# Out of fold (seeds 7 / 11), 0.7 lifts collection 0.690 -> 0.698 / 0.688 -> 0.695 but
# shows boilerplate on 10.7% / 10.5% of the pages instead of 9.9% / 10.0%; 0.4 costs
# collection 0.011.
WINNER_GUARD_SHARE = 0.5
# The guard stands down when the model is sure of a real part of the selection: the
# blocks it keeps with p >= CONFIDENT_P hold at least CONFIDENT_SHARE of the
# selection's characters. A product page whose selection also holds a carousel of
# related items or a seller's other listings is not unlike the pages the model learned
# from; only its chrome outweighs the content. Out of fold on the WCXB dev pages
# (seeds 7 and 11), product 0.678 -> 0.687 and 0.682 -> 0.685, article +0.001, no type
# down, "without" 10.0% -> 9.9% and 10.1% -> 10.0%; of Readability.js's 130 pages one
# changes (closer to Readability's output), agreement 0.898 (seed 11) either way. Only
# blocks inside the selection count: a model sure of one block outside it and of
# nothing inside is the unfamiliar page the guard is for.
# Share 0.15 cost listing 0.005-0.008; p 0.95 changes nothing. In-sample the gain looks
# ten times larger (the model is sure of the pages it was fit on): out of fold is the
# figure to trust.
CONFIDENT_P = 0.85
CONFIDENT_SHARE = 0.2
# Above this many blocks the model is not run and the density selection stands. The
# WCXB dev pages hold at most 1,664 blocks (99.9th percentile 1,329); a hostile page of
# 400,000 one-word list items made the feature matrices take 5.8 GB and 30 s.
MAX_MODEL_BLOCKS = 5000
# A winner holding at least this share of its text in <p> is a story: complete in
# itself, so nothing outside it is added. Cost 0.001 of out-of-fold word F1 on WCXB
# listing pages (0.722 -> 0.721, no other type moved) when measured, and keeps the
# teaser widgets beside a story out of it: the model gave such teasers 0.66-0.92,
# because on listing pages teasers are the content.
STORY_P_SHARE = 0.8


# List items, table rows, code, quotes and captions inside the story are its content
# far more often than a paragraph-sized block that the model doubts (a call to action,
# an affiliate disclosure): they leave it only on strong evidence (see decide). So does
# the top heading: the hand-made WCXB content leaves headlines out, so the model learnt
# to drop them, but only one that repeats the title is a duplicate (select.title_block
# drops that one). Out of fold, h1 here moves no type by more than 0.001.
STRUCTURED_KINDS = frozenset(
    {"li", "dt", "dd", "table", "td", "th", "pre", "blockquote", "figcaption", "caption", "h1"}
)


# Config.favor moves every threshold of decide() by this much: up to leave doubtful
# blocks out, down to keep them. From the grid of tools/train_blockmodel.py cv, out of
# fold (mean precision / recall, WCXB dev; news set):
#   shift -0.2   0.865 / 0.922; 0.798 / 0.934
#   shift -0.1   0.874 / 0.914; 0.821 / 0.928
#   shift  0     0.885 / 0.899; 0.846 / 0.918
#   shift +0.1   0.896 / 0.878; 0.873 / 0.907
#   shift +0.2   0.909 / 0.832; 0.900 / 0.884
# Precision climbs slowly and recall falls fast past +0.1; recall gains little past
# -0.2. trafilatura 2.3.1 in the same benchmark: favor_precision P 0.863 / 0.835,
# favor_recall R 0.824 / 0.885.
FAVOR_SHIFT: dict[str, float] = {"precision": 0.1, "balanced": 0.0, "recall": -0.2}


def drop_thresholds(
    blocks: list[Block],
    structured: float,
    other: float,
    probs: np.ndarray,
    chars: np.ndarray,
) -> np.ndarray:
    """Per block, the probability below which decide() drops it from the selection:
    ``structured`` or ``other`` by its kind, moved by the page's expected F1 (see
    EXPECTED_F1_PIVOT)."""
    kinds = STRUCTURED_KINDS
    by_kind = np.fromiter(
        (structured if b.kind in kinds else other for b in blocks), np.float64, len(blocks)
    )
    return adapt_drop_thresholds(by_kind, probs, chars)


# The drop thresholds follow the model's confidence in the page as a whole: where it
# expects a word F1 of EXPECTED_F1_PIVOT on the page (expected_f1), the thresholds
# above hold; each 0.1 of expected F1 less lowers them by DROP_SHIFT_PER_F1 / 10, so
# a page the model is unsure of keeps more of its density selection, and a page it is
# sure of sheds a little more. The F1-optimal threshold of a calibrated classifier is
# half the F1 it reaches (Lipton et al., 2014), which moves the same way; the slope
# and pivot are measured. Out of fold on the WCXB dev pages (seeds 7 / 11): all 0.872
# -> 0.874 / 0.871 -> 0.875, service +0.004 / +0.009, listing +0.011 / +0.007,
# collection 0.690 -> 0.700 / 0.688 -> 0.703, product +0.003, documentation -0.001 /
# -0.002, "without" 9.9% -> 9.5% / 10.0% -> 9.1%; Readability.js's pages 0.901 ->
# 0.902 / 0.898 -> 0.897. Slopes 1.5-2.5 measure within 0.001 of each other, 1.0
# keeps only a third of the collection gain; a pivot of 0.94 trades "without" (10.5% /
# 10.9%) for service (+0.004). Moving the add threshold for blocks outside the
# selection the same way lifted listing further (0.743) but added teasers to articles
# (Readability.js's pages 0.895): only the drop thresholds move. A block's characters
# stand in for its words: the same figures to the third decimal, and no split of
# every block's text.
EXPECTED_F1_PIVOT = 0.9
DROP_SHIFT_PER_F1 = 1.5
DROP_THRESHOLD_RANGE = (0.05, 0.95)


def expected_f1(probs: np.ndarray, weights: np.ndarray) -> float:
    """The best word F1 the model expects on the page, reading each block's p as the
    chance it is content and ``weights`` as its size: over the sets it could keep
    (the blocks above some probability), the highest
    2 * sum(kept p * w) / (sum(kept w) + sum(all p * w)). 0 when it expects nothing."""
    mass = probs * weights
    total = float(mass.sum())
    if total <= 0.0:
        return 0.0
    order = np.argsort(-probs, kind="stable")
    f1 = 2.0 * np.cumsum(mass[order]) / (np.cumsum(weights[order]) + total)
    return float(f1.max())


def adapt_drop_thresholds(
    drop_below: np.ndarray, probs: np.ndarray, chars: np.ndarray
) -> np.ndarray:
    """``drop_below`` moved by the page's expected F1 (see EXPECTED_F1_PIVOT)."""
    expected = expected_f1(probs, np.asarray(chars, dtype=np.float64))
    if expected <= 0.0:
        return drop_below
    shift = DROP_SHIFT_PER_F1 * (expected - EXPECTED_F1_PIVOT)
    return np.clip(drop_below + shift, *DROP_THRESHOLD_RANGE)


def decide(
    probs: np.ndarray,
    region: np.ndarray,
    chars: np.ndarray,
    drop_below: np.ndarray | float,
    add_above: float,
    story: bool = False,
    shift: float = 0.0,
) -> np.ndarray:
    """Which blocks are main content, given the model's probabilities.

    The density selection (``region``: the winner and its merged siblings, less their
    link lists) is the prior. A block inside it stays unless the model is fairly sure
    it is chrome (p < ``drop_below``, per block: see STRUCTURED_KINDS); a block
    outside joins only when the model is fairly sure it is content (p >= ``add_above``),
    and never beside a ``story`` (see STORY_P_SHARE). The thresholds come from the
    grid of tools/train_blockmodel.py on out-of-fold predictions (seed 7, the drop
    thresholds adapted to the page as the extractor does, see EXPECTED_F1_PIVOT),
    scored by word F1 and by the share of pages showing boilerplate snippets
    ("without"):

        drop below (structured / other), add above   F1      without
        0.5 / 0.5, 0.5 (one threshold)                0.876   10.7%
        0.3 / 0.3, 0.6                                0.872   15.5%
        0.3 / 0.6, 0.6                                0.874    9.5%
        0.6 / 0.6, 0.6                                0.874    8.9%
        density selection alone                       0.859   28.4%

    The third row is used (chosen before the thresholds adapted, when it read 0.866
    and 9.3%, and still the best F1 under 10%): affiliate disclosures, newsletter
    boxes and calls to action at the story's edges go (a paragraph needs p >= 0.6 to
    stay), while a story's short list items, which the model doubts more often, stay;
    with 0.6 for them too documentation loses 0.004 and Readability.js's pages
    0.003.

    When the model keeps less than half of what the selection holds, the page is
    unlike the ones it learned from (a short synthetic page, a script it rarely saw)
    and the selection is kept as it is. Measured with out-of-fold predictions of an
    earlier fit under one threshold of 0.5: WCXB dev 0.862 -> 0.868 (listing +0.04,
    product +0.02), and on Readability.js's test pages 0.871 -> 0.889. Unless the
    model is sure of a real part of the selection (see CONFIDENT_P).
    """
    outside = probs >= add_above if not story else np.zeros(len(probs), dtype=bool)
    keep = np.where(region, probs >= drop_below, outside)
    selected = chars[region].sum()
    if (
        chars[keep].sum() < WINNER_GUARD_SHARE * selected
        and chars[keep & region & (probs >= CONFIDENT_P)].sum() < CONFIDENT_SHARE * selected
    ):
        return region.copy()
    if shift:
        # Config.favor: the same decision with every threshold moved (FAVOR_SHIFT), the
        # guard above judged on the balanced one, so that "precision" keeps a subset
        # of what "balanced" keeps and "recall" a superset.
        low, high = DROP_THRESHOLD_RANGE
        outside = probs >= min(max(add_above + shift, low), high) if not story else outside
        keep = np.where(region, probs >= np.clip(drop_below + shift, low, high), outside)
    return keep


# Pages that are not articles (neither is_article nor a story of paragraphs: listings,
# collections, products, service pages) keep a block inside the selection from p 0.5 and
# add one outside it from p 0.5, the balanced thresholds; an article keeps the stricter
# ones of decide(). An article's edges hold affiliate notes and teasers the model is
# unsure of; a listing's items are the content the model is unsure of. Out of fold on the
# WCXB dev pages (the shipped seed-7 run / a WCXB-only run on the same folds): listing
# 0.719 -> 0.723 / 0.720 -> 0.728, collection +0.007 / +0.007, service +0.004 / +0.005,
# documentation +0.001, article and forum unchanged, all 0.873 -> 0.874 / 0.873 ->
# 0.874, "without" 8.2% -> 9.1% / 8.6% -> 9.7%; the news set unchanged within 0.001
# (0.865 -> 0.864). Applying it to every page that is not a story (og:type "article"
# pages included) lifted listing as much and cost the news set 0.004.
PAGE_PROFILE_DROP_BELOW = 0.5
PAGE_PROFILE_ADD_ABOVE = 0.5


def profile_thresholds(
    article: bool, structured: float, other: float, add_above: float
) -> tuple[float, float, float]:
    """decide()'s (drop structured below, drop other below, add above) for a page: as
    given on an article, at most the page profile's elsewhere (see
    PAGE_PROFILE_DROP_BELOW)."""
    if article:
        return structured, other, add_above
    return (
        structured,
        min(other, PAGE_PROFILE_DROP_BELOW),
        min(add_above, PAGE_PROFILE_ADD_ABOVE),
    )


def is_article(ctx: PageContext) -> bool:
    """Whether the page says it is an article: ``og:type`` or a JSON-LD article type."""
    if (ctx.og_type or "").strip().lower() == "article":
        return True
    return any(t.casefold() in ARTICLE_TYPES for t in ctx.ld_types)


# The article profile (story_end): a story is paragraphs of prose (segmentation.is_prose).
# A story has at least this many paragraphs of prose: a listing whose one paragraph of
# introduction heads a list of linked titles is not one (the WCXB dev listings that
# say og:type "article" lost up to 0.8 word F1 each when their list was cut).
STORY_MIN_PARAGRAPHS = 2
# A linked headline: at least this share of the block is link text, and no sentence.
HEADLINE_LINK_SHARE = 0.9
# A paragraph of prose right after a linked headline is the card's summary, not the
# story's, when it is no longer than this (a sentence or two).
CARD_SUMMARY_CHARS = 300
# What the block model is this sure of stays, even after the story: some sites mark
# listings and documentation as articles (og:type, TechArticle), and their cards of a
# linked title and a paragraph are the content. With the WCXB-trained model, 0.9
# still cut 0.007 off documentation and 0.004 off listing pages, 0.7 0.003 and none,
# 0.6 no more and 0.004 off the news set's news-spiders pages.
STORY_END_SURE_P = 0.7


def is_linked_headline(block: Block) -> bool:
    """Whether a block is a link and nothing else, and no sentence: the headline of a
    teaser card, a ranking's entry, a "read more" line."""
    size = len(block.text)
    return (
        size > 0
        and block.link_chars >= HEADLINE_LINK_SHARE * size
        and not ends_sentence(block.text)
    )


def story_end(blocks: list[Block], keep: np.ndarray, probs: np.ndarray | None = None) -> np.ndarray:
    """``keep`` less what follows an article's story: from the first linked headline
    after the story's last paragraph of prose (and the label or heading just before
    it: "Most read", "More from World"), the rest of the selection is teaser cards,
    rankings or the next story. A card's summary (see CARD_SUMMARY_CHARS) is not a
    paragraph of the story. Blocks between the last paragraph and that headline
    (a sign-off, "(END)", a credit line) stay. A page with fewer than
    STORY_MIN_PARAGRAPHS paragraphs of prose is left as it is, and so is a block the
    model is sure of (``probs``, see STORY_END_SURE_P)."""
    kept = np.flatnonzero(keep).tolist()
    # A teaser card's summary is prose too, but it follows its linked headline.
    prose = [
        i
        for n, i in enumerate(kept)
        if is_prose(blocks[i])
        and not (
            n > 0
            and is_linked_headline(blocks[kept[n - 1]])
            and len(blocks[i].text) <= CARD_SUMMARY_CHARS
        )
    ]
    if len(prose) < STORY_MIN_PARAGRAPHS:
        return keep
    tail = [i for i in kept if i > prose[-1]]
    first = next((n for n, i in enumerate(tail) if is_linked_headline(blocks[i])), None)
    if first is None:
        return keep
    while first > 0 and not is_prose(blocks[tail[first - 1]]):
        label = blocks[tail[first - 1]]
        if len(label.text) >= PROSE_CHARS or ends_sentence(label.text):
            break
        first -= 1
    cut = keep.copy()
    after = np.array(tail[first:])
    if probs is not None:
        after = after[probs[after] < STORY_END_SURE_P]
    cut[after] = False
    return cut


def is_story(agg: Aggregate, sel: Selection) -> bool:
    """Whether the density winner is a story of paragraphs (see STORY_P_SHARE)."""
    if sel.orphan or sel.winner < 0:
        return False
    winner = sel.winner
    return bool(agg.p_chars[winner] >= STORY_P_SHARE * max(agg.chars[winner], 1.0))


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
        probs[slice(None) if rows is None else rows] = _sigmoid(self.trees.raw_by_feature(xt))
        return probs

    def keep(
        self,
        seg: Segmentation,
        agg: Aggregate,
        sel: Selection,
        ctx: PageContext,
        favor: str = "balanced",
    ) -> np.ndarray:
        """Which blocks are main content (see ``decide``), every threshold moved by
        ``favor`` (see FAVOR_SHIFT)."""
        region = sel.in_root & ~sel.noise
        if len(seg.blocks) > MAX_MODEL_BLOCKS:
            return region

        story = is_story(agg, sel)
        article = story or is_article(ctx)
        # Beside a story nothing outside the selection can join: only its blocks need
        # the model (on WCXB article pages, about a third of the blocks).
        rows = np.flatnonzero(region) if story else None
        probs = self.probabilities(seg, agg, sel, ctx, rows)
        structured, other, add_above = profile_thresholds(
            article, self.drop_structured_below, self.drop_below, self.add_above
        )
        drop_below = drop_thresholds(seg.blocks, structured, other, probs, agg.block_chars)
        chars = agg.block_chars
        keep = decide(probs, region, chars, drop_below, add_above, story)
        after_story = None
        if article:
            ended = story_end(seg.blocks, keep, probs)
            after_story, keep = keep & ~ended, ended
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
    try:
        data = resources.files(__package__).joinpath(MODEL_FILE).read_bytes()
    except (FileNotFoundError, OSError):
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
