"""Container: a second, simpler reading of the same blocks, Readability's.

The density selection and the block model read the page block by block; the model fits
the sites it learned from. Readability's reading is coarser and site-blind: every
paragraph scores its parent and grandparent (one point, one per comma, one per hundred
characters up to three), the element with the best score less its link share is the
story's container, and its siblings join when they score near it or are prose
themselves. It knows nothing of any site, and where it agrees with the model the
story's edges are where both put them (see ``policy.within_container``).

It reads the blocks ``segment`` cut (the same parse, the same pruning, the sums of
``score``) rather than the DOM a second time: a paragraph is a block whose innermost
block element is a <p>, <pre> or <td>, or a div-like element holding text of its own
(Readability turns a div without block children into a paragraph).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from unchrome._native import _arrays
from unchrome._native._blocks import paragraph_points
from unchrome._native._select import blocks_inside, children, owned, root_owners
from unchrome.pipeline.score import Aggregate
from unchrome.pipeline.segmentation import Block, Segmentation
from unchrome.rules.names import by_first_letter

# The blocks Readability scores as paragraphs, by the tag that holds their text.
PARAGRAPH_KINDS = frozenset(
    {"p", "pre", "td", "div", "section", "article", "main", "font", "center", "span"}
    | {"h2", "h3", "h4", "h5", "h6"}
)
# How far up a paragraph's points go (Readability.js: five ancestors), and what each
# level gets of them: all, half, then a third per level.
_LEVEL_DIVIDERS = (1.0, 2.0, 6.0, 9.0, 12.0)
# Readability skips paragraphs shorter than this (characters).
MIN_PARAGRAPH_CHARS = 25
# A paragraph's commas are Readability.js's: Latin, Arabic, the small and vertical
# forms, the CJK full-width comma and the ideographic one (Chinese and Japanese prose);
# see _blocks.paragraph_points.
# A candidate's score before its paragraphs' (readability-lxml's score_node).
TAG_SCORE = {
    "div": 5.0,
    "pre": 3.0,
    "td": 3.0,
    "blockquote": 3.0,
    "address": -3.0,
    "ol": -3.0,
    "ul": -3.0,
    "dl": -3.0,
    "dd": -3.0,
    "dt": -3.0,
    "li": -3.0,
    "form": -3.0,
    "h1": -5.0,
    "h2": -5.0,
    "h3": -5.0,
    "h4": -5.0,
    "h5": -5.0,
    "h6": -5.0,
    "th": -5.0,
}
# The class/id weight (readability-lxml's class_weight): +-25 for names that say
# story or chrome.
NAME_WEIGHT = 25.0
_NEGATIVE_NAMES = re.compile(
    r"combx|comment|com-|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo"
    r"|related|scroll|shoutbox|sidebar|sponsor|shopping|tags|tool|widget",
    re.I,
)
_POSITIVE_NAMES = re.compile(
    r"article|body|content|entry|hentry|main|page|pagination|post|text|blog|story", re.I
)
# The same tests for lowercased ASCII names: no re.I, the words grouped by their first
# letter (rules.names.by_first_letter). A new "class id" string took 7.6 us, now 1.1 us,
# with the same weights on all 1,918 the news set's pages meet.
_NEGATIVE_ASCII = re.compile(by_first_letter(_NEGATIVE_NAMES.pattern))
_POSITIVE_ASCII = re.compile(by_first_letter(_POSITIVE_NAMES.pattern))
# Siblings join the top candidate when they score this share of it, and at least
# SIBLING_MIN_SCORE (readability-lxml's get_article).
SIBLING_SHARE = 0.2
SIBLING_MIN_SCORE = 10.0
# ... or when they are prose: a paragraph over PROSE_CHARS with under PROSE_LINK_SHARE
# of links, or a shorter one with no link that ends a sentence.
PROSE_CHARS = 80
PROSE_LINK_SHARE = 0.25
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)")


@dataclass(slots=True)
class Container:
    """Readability's reading of the page: per block, inside its container or not."""

    top: int  # element id of the top candidate, -1 when no paragraph scored
    roots: list[int]  # the top candidate and the siblings that joined it
    inside: bytearray  # per block (a mask, see select.Selection)


def read_container(seg: Segmentation, agg: Aggregate) -> Container:
    """The top candidate by Readability's scores, and its siblings."""
    blocks = seg.blocks
    parents = seg.parents
    tags = seg.tags
    n_elements = len(seg.nodes)
    nothing = Container(-1, [], bytearray(len(blocks)))
    if not blocks or not n_elements:
        return nothing
    # Readability.js: a paragraph's parent gets its points, the grandparent half, each
    # ancestor further up (to the fifth) a third of them per level; then each element
    # scored gets its tag's score (_blocks.paragraph_points).
    scores, scored = paragraph_points(
        blocks,
        parents,
        tags,
        PARAGRAPH_KINDS,
        MIN_PARAGRAPH_CHARS,
        _LEVEL_DIVIDERS,
        TAG_SCORE,
    )
    candidates = _arrays.indices(scored)
    if not candidates:
        return nothing
    chars, a_chars = agg.chars, agg.a_chars

    def link_share(element: int) -> float:
        return min(a_chars[element] / max(chars[element], 1.0), 1.0)

    # The class/id weight moves a score by at most NAME_WEIGHT: it is read (from the
    # element's attributes, the costly part) only for the candidates it could lift to
    # the top, and for the top candidate's siblings. The answer is the same as reading
    # it for every candidate: 0.5 ms less at the median WCXB page, where a page scores
    # some 40 candidates.
    keep_share = {e: 1.0 - link_share(e) for e in candidates}
    best_floor = max((scores[e] - NAME_WEIGHT) * keep_share[e] for e in candidates)
    weighed: set[int] = set()

    def weigh(element: int) -> None:
        if element not in weighed:
            weighed.add(element)
            scores[element] += _name_weight(seg, element)

    def final_of(element: int) -> float:
        weigh(element)
        return scores[element] * keep_share[element]

    for element in candidates:
        if (scores[element] + NAME_WEIGHT) * keep_share[element] >= best_floor:
            weigh(element)
    # The first best final score among the candidates weighed.
    best = max(weighed, key=lambda e: (final_of(e), -e))
    top = _climb(parents, scored, final_of, best)
    roots = [top]
    parent = parents[top]
    own_text_cache: dict[int, str] = {}
    if parent >= 0:
        threshold = max(SIBLING_MIN_SCORE, SIBLING_SHARE * final_of(top))
        for sibling in children(parents, parent):
            if sibling != top and (
                (scored[sibling] and final_of(sibling) >= threshold)
                or (
                    tags[sibling] == "p"
                    and _is_prose(
                        chars[sibling],
                        link_share(sibling),
                        lambda e=sibling: _own_text(blocks, own_text_cache, e),
                    )
                )
            ):
                roots.append(sibling)
        roots.sort()
    root_of = root_owners(parents, set(roots))
    inside = blocks_inside(agg.block_of, agg.element_of, owned(root_of), len(blocks))
    return Container(top, roots, inside)


def _climb(
    parents: list[int], scored: bytearray, final_of: Callable[[int], float], top: int
) -> int:
    """Readability.js's move up from the top candidate: to a parent whose score rises
    above the candidate's within the first steps (the content is spread over several of
    its children), stopping where the scores fall under a third of the candidate's."""
    last = final_of(top)
    threshold = last / 3.0
    parent = parents[top]
    while parent > 0:
        if scored[parent]:
            score = final_of(parent)
            if score < threshold:
                break
            if score > last:
                top = parent
                break
            last = score
        parent = parents[parent]
    return top


def _name_weight(seg: Segmentation, element: int) -> float:
    """The class/id weight of an element, from the "class id" string segment read."""
    names = seg.class_ids[element]
    if names is None:
        return 0.0
    weight = _WEIGHTS.get(names)
    if weight is None:
        weight = 0.0
        if names.strip():
            text, negative, positive = names, _NEGATIVE_NAMES, _POSITIVE_NAMES
            if names.isascii():
                text, negative, positive = names.lower(), _NEGATIVE_ASCII, _POSITIVE_ASCII
            if negative.search(text):
                weight -= NAME_WEIGHT
            if positive.search(text):
                weight += NAME_WEIGHT
        if len(_WEIGHTS) > 1 << 16:
            _WEIGHTS.clear()
        _WEIGHTS[names] = weight
    return weight


# Weights by "class id" string: a site repeats its class names on every page.
_WEIGHTS: dict[str, float] = {}


def _is_prose(chars: float, link_share: float, text: Callable[[], str]) -> bool:
    """A <p> sibling that reads as prose (Readability's test for unscored siblings)."""
    if chars > PROSE_CHARS:
        return link_share < PROSE_LINK_SHARE
    if link_share > 0 or chars == 0:
        return False
    return bool(_SENTENCE_END.search(text()))


def _own_text(blocks: list[Block], cache: dict[int, str], element: int) -> str:
    """The text of the blocks ``element`` holds itself, the blocks read once a page."""
    if not cache:
        for block in blocks:
            cache[block.owner] = cache.get(block.owner, "") + " " + block.text
        cache.setdefault(-1, "")
    return cache.get(element, "")
