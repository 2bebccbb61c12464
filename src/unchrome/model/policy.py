"""From the model's probabilities to a decision: which blocks of the density selection
it drops and which it adds, the thresholds by page profile and by the model's
confidence, and where an article's story ends."""

from __future__ import annotations

from array import array

from unchrome._native import _arrays
from unchrome._native._blocktext import ends_sentence
from unchrome.model.features import PageContext
from unchrome.pipeline.kinds import DISCUSSION_TYPES, discussion_url
from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import FLAG_ROW, PROSE_CHARS, Block, is_prose
from unchrome.pipeline.select import Selection
from unchrome.rules.formats import ARTICLE_TYPES

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
    probs: array,
    chars: array,
) -> array:
    """Per block, the probability below which decide() drops it from the selection:
    ``structured`` or ``other`` by its kind, moved by the page's expected F1 (see
    EXPECTED_F1_PIVOT)."""
    kinds = STRUCTURED_KINDS
    by_kind = array("d", [structured if b.kind in kinds else other for b in blocks])
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


def expected_f1(probs: array, weights: array) -> float:
    """The best word F1 the model expects on the page, reading each block's p as the
    chance it is content and ``weights`` as its size: over the sets it could keep
    (the blocks above some probability), the highest
    2 * sum(kept p * w) / (sum(kept w) + sum(all p * w)). 0 when it expects nothing.
    (Compiled: _arrays.expected_f1, the sums as numpy's were when it was measured.)"""
    return _arrays.expected_f1(probs, weights)


def adapt_drop_thresholds(drop_below: array, probs: array, chars: array) -> array:
    """``drop_below`` moved by the page's expected F1 (see EXPECTED_F1_PIVOT)."""
    expected = expected_f1(probs, chars)
    if expected <= 0.0:
        return drop_below
    shift = DROP_SHIFT_PER_F1 * (expected - EXPECTED_F1_PIVOT)
    return _arrays.clipped(drop_below, shift, *DROP_THRESHOLD_RANGE)


def decide(
    probs: array,
    region: bytearray,
    chars: array,
    drop_below: array,
    add_above: float,
    story: bool = False,
    shift: float = 0.0,
) -> bytearray:
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
    outside = _arrays.at_least(probs, add_above) if not story else bytearray(len(probs))
    keep = _arrays.choose(region, _arrays.at_least_each(probs, drop_below), outside)
    selected = _arrays.total(chars, region)
    if (
        _arrays.total(chars, keep) < WINNER_GUARD_SHARE * selected
        and _arrays.total(
            chars, _arrays.both(_arrays.both(keep, region), _arrays.at_least(probs, CONFIDENT_P))
        )
        < CONFIDENT_SHARE * selected
    ):
        return region.copy()
    if shift:
        # Config.favor: the same decision with every threshold moved (FAVOR_SHIFT), the
        # guard above judged on the balanced one, so that "precision" keeps a subset
        # of what "balanced" keeps and "recall" a superset.
        low, high = DROP_THRESHOLD_RANGE
        # "recall" lets blocks outside the selection join beside a story too: a
        # listing of paragraph cards reads as a story, and its introduction, above the
        # grid, could join under no favor.
        if not story or shift < 0:
            outside = _arrays.at_least(probs, min(max(add_above + shift, low), high))
        moved = _arrays.clipped(drop_below, shift, low, high)
        keep = _arrays.choose(region, _arrays.at_least_each(probs, moved), outside)
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


def story_end(blocks: list[Block], keep: bytearray, probs: array | None = None) -> bytearray:
    """``keep`` less what follows an article's story: from the first linked headline
    after the story's last paragraph of prose (and the label or heading just before
    it: "Most read", "More from World"), the rest of the selection is teaser cards,
    rankings or the next story. A card's summary (see CARD_SUMMARY_CHARS) is not a
    paragraph of the story. Blocks between the last paragraph and that headline
    (a sign-off, "(END)", a credit line) stay. A page with fewer than
    STORY_MIN_PARAGRAPHS paragraphs of prose is left as it is, and so is a block the
    model is sure of (``probs``, see STORY_END_SURE_P)."""
    kept = _arrays.indices(keep)
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
    after = tail[first:]
    if probs is not None:
        # A card's summary goes with its headline, however sure the model is of the
        # summary alone, when the cards are a feed after a story that outweighs them:
        # a "More headlines" feed's one-line summaries read as prose to the model (p
        # 0.6 to 0.8 on a feed of six cards, while their headlines were cut). Where
        # the cards outweigh the prose before them they are the page (a listing that
        # says it is an article): applied there too, four WCXB dev listing and
        # documentation pages lost 0.02 to 0.23 of word F1. So did a training plans
        # page whose summaries the model is sure of (CONFIDENT_P; they read 0.89 to
        # 0.95) and a listing whose linked headlines follow one another.
        story = sum(len(blocks[i].text) for i in prose)
        feed = story >= sum(len(blocks[i].text) for i in after)
        sure = {
            i
            for n, i in enumerate(after)
            if probs[i] >= STORY_END_SURE_P
            and not (
                feed
                and n > 0
                and probs[i] < CONFIDENT_P
                and probs[after[n - 1]] < STORY_END_SURE_P
                and is_linked_headline(blocks[after[n - 1]])
                and not is_linked_headline(blocks[i])
                and len(blocks[i].text) <= CARD_SUMMARY_CHARS
            )
        }
        after = [i for i in after if i not in sure]
    for index in after:
        cut[index] = False
    return cut


def before_headline(blocks: list[Block], keep: bytearray) -> bytearray:
    """``keep`` less the rows of data tables kept ahead of an article's headline (its
    first <h1> kept): a programme schedule, a market ticker or a timetable the
    template puts at the top of the story's container. A story's own tables follow
    its headline. Measured before it was written: on the article pages of WCXB dev,
    the news set and fundus, 37 pages keep blocks ahead of their headline, none of
    them a table row (paragraphs, 98% of them in the truth, and list items, 62%, stay)."""
    kept = _arrays.indices(keep)
    headline = next((i for i in kept if blocks[i].kind == "h1"), None)
    if headline is None:
        return keep
    rows = [i for i in kept if i < headline and blocks[i].flags & FLAG_ROW]
    if not rows:
        return keep
    cut = keep.copy()
    for index in rows:
        cut[index] = False
    return cut


def is_story(agg: Aggregate, sel: Selection) -> bool:
    """Whether the density winner is a story of paragraphs (see STORY_P_SHARE)."""
    if sel.orphan or sel.winner < 0:
        return False
    winner = sel.winner
    return agg.p_chars[winner] >= STORY_P_SHARE * max(agg.chars[winner], 1.0)


# The second reading (pipeline.container): on an article, what the model keeps outside
# Readability's container must earn its place. The block model fits the sites it learned
# from; on sites it never saw, the story's edges (a schedule widget above the headline,
# a "More headlines" feed after the story, a promo and a copyright line closing it) are
# where it errs, and Readability's site-blind reading does not keep them. Only where
# both readings agree on the story: the kept blocks inside the container hold at least
# CONTAINER_MIN_RATIO of what the model keeps, and CONTAINER_MIN_AGREE of the container
# (a container that is the comments, a tab or a sidebar is not the story, and changes
# nothing). Then a block outside the container stays when the model is sure of it
# (CONTAINER_SURE_P), when it lies between two blocks of the container, or when it is a
# paragraph of prose in the unbroken run that leads into the container (a lead or a
# deck written outside the body's element).
#
# Word F1 / precision / recall, each page's block model trained without its corpus
# (train_blockmodel cv --loco-only; bench --loco), before -> after:
#   news set         0.861 / 0.849 / 0.922 -> 0.866 / 0.858 / 0.920
#     news-spiders   0.906 / 0.879 / 0.963 -> 0.914 / 0.892 / 0.962
#   WCXB dev         0.859 / 0.891 / 0.870 -> 0.859 / 0.892 / 0.868
# and with the shipped model, which learned from none of them:
#   fundus           0.974 / 0.969 / 0.982 -> 0.975 / 0.972 / 0.982
#   Readability.js   0.910 / 0.957 / 0.897 -> 0.911 / 0.959 / 0.896
#   classic          0.927 / 0.930 / 0.946 -> 0.927 / 0.932 / 0.944
# Tried and not kept: no run leading into the container (CleanPortalEval -0.014: its
# leads sit outside the body's element); the run after it as well (the news-spiders
# gain gone: captions and bylines are prose too); headings in the leading run (decks,
# which the news sets leave out); every page, not only articles (classic +0.002, but
# WCXB listing -0.009 and the news set's Chinese pages -0.010); CONTAINER_SURE_P 0.95
# (WCXB collection -0.003); CONTAINER_MIN_AGREE 0.3 or 0.8 (within 0.001).
CONTAINER_MIN_RATIO = 0.5
CONTAINER_MIN_AGREE = 0.6
CONTAINER_SURE_P = 0.9
KEPT_OUTSIDE_KINDS = frozenset({"pre", "table"})


def within_container(
    blocks: list[Block],
    keep: bytearray,
    probs: array,
    inside: bytearray,
    chars: array,
) -> bytearray:
    """``keep`` bounded by the container reading (``inside``, per block: see
    CONTAINER_MIN_RATIO)."""
    kept = _arrays.total(chars, keep)
    both = _arrays.both(keep, inside)
    agreed = _arrays.total(chars, both)
    if (
        kept <= 0.0
        or agreed < CONTAINER_MIN_RATIO * kept
        or agreed < CONTAINER_MIN_AGREE * _arrays.total(chars, inside)
    ):
        return keep
    earn = _arrays.either(inside, _arrays.at_least(probs, CONTAINER_SURE_P))
    # Code and a table's rows keep their place (as in decide, they leave only on strong
    # evidence): Readability's paragraph points miss them, and a story's listing or data
    # table after its last paragraph is its own (WCXB dev Markdown: table rows 0.773 ->
    # 0.762 and code blocks 0.673 -> 0.661 when they had to earn it too).
    for index in _arrays.indices(_arrays.without(keep, earn)):
        earn[index] = blocks[index].kind in KEPT_OUTSIDE_KINDS
    first, last = both.find(1), both.rfind(1)
    earn[first : last + 1] = b"\x01" * (last + 1 - first)
    for index in reversed(_arrays.indices(keep[:first])):
        if not is_prose(blocks[index]):
            break
        earn[index] = True
    return _arrays.both(keep, earn)


def is_other_kind(ctx: PageContext) -> bool:
    """A product page or a discussion by what it says of itself (og:type, JSON-LD, a
    thread's URL): their reviews, specifications and posts are not one container's."""
    types = {t.casefold() for t in ctx.ld_types}
    return (
        "product" in (ctx.og_type or "").lower()
        or "product" in types
        or any(t.casefold() in types for t in DISCUSSION_TYPES)
        or discussion_url(ctx.url)
    )
