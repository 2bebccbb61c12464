"""The block model's features: of each block (its text statistics, the tags and class/id
words of its ancestors, its neighbours) and of the page (schema.org types, og:type, URL
words), laid out in the columns the trees read."""

from __future__ import annotations

import math
import re
from array import array
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from unchrome._native import _blocktext
from unchrome._native._features import BLOCK_FEATURES, NEIGHBOUR_FEATURES, Layout, assemble
from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import (
    FLAG_IN_LINK,
    FLAG_ROW,
    Block,
    Segmentation,
    Vocabulary,
)
from unchrome.pipeline.select import Selection
from unchrome.rules.tags import HEADINGS
from unchrome.urls import path as url_path

if TYPE_CHECKING:
    import numpy as np

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
    columns: array | None = None,
    rows: list[int] | None = None,
) -> array:
    """The feature matrix, feature-major: a float32 array of one row per column of
    ``feature_names`` (or of ``columns``), each holding one value per block (or per
    block of ``rows``), the rows one after the other.

    With ``columns`` (sorted indices), only those features: inference passes the
    features its trees test (about a quarter of them) and reads them row by row
    (ObliviousTrees.raw_by_feature). With ``rows`` (sorted block indices), only those
    blocks' values: a block's features read the other blocks' lengths, links and
    kinds, but not their words, so the word statistics, the dearest part, are computed
    for these rows alone.
    """
    # The matrix is written by the compiled _features.assemble, feature-major: only the
    # tested columns, for the wanted blocks. Which group and feature each output row
    # is, and the text words to look up, come from a Layout made once per columns
    # array. Assembled with numpy (a step per column group, a Counter per page, the
    # words scattered by a Python loop), features() took 0.50 ms a call at the middle
    # fifth of the news pages and 0.67 ms at the WCXB dev pages' (means, best of three
    # runs), compiled 0.27 and 0.38 ms, the same matrices on all 1,895 pages.
    layout = _layout(vocab, None if columns is None else columns.tobytes())
    page_row = _page_row(len(seg.blocks), agg, sel, ctx) if layout.page else None
    return assemble(layout, seg.blocks, rows, agg, sel, ctx.title or "", page_row)


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
        None if columns is None else array("q", columns),
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
    (headings are read everywhere: the blocks under them need their words).

    As numpy matrices, for tools/train_blockmodel.py and the tests: extraction reads
    the words inside _features.assemble, and never imports numpy."""
    import numpy as np

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
