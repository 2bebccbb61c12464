"""Score: count every element's text in one traversal and rate the candidates.

A candidate's score is

    visible chars x (0.3 + 0.7 x share of its text inside <p>)
                  x max(0, 1 - 1.2 x share of its text inside <a>)

Numerator and denominator of both shares come from the same counter in the same walk:
each text node's length is added once to its element's total and, when it sits inside
a <p> or an <a>, to that element's paragraph or link total as well. A share can
therefore never exceed 1. (Counting links on a differently normalised string once let
the link share pass 1 and zeroed the real body.)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np

from .parse import LexborNode
from .segment import FLAG_IN_LINK, Segmentation

CANDIDATE_TAGS = frozenset({"article", "main", "section", "div"})

# Paragraph weight: text outside <p> still counts 30 %, so a body written with <br>
# line breaks or plain divs keeps a chance against a container of short <p> blurbs.
P_BASE = 0.3
P_WEIGHT = 0.7
# Link discount: a block whose text is over 83 % links scores zero.
LINK_PENALTY = 1.2


CARD_BLOCKS = frozenset(
    {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "section", "article"}
)


# Inline elements whose text belongs to their block. <p> is not here: link pruning
# looks its tally up.
INLINE_TAGS = frozenset(
    {
        "a", "span", "b", "strong", "em", "i", "u", "small", "sup", "sub", "abbr",
        "cite", "code", "mark", "time", "font", "s", "q", "label", "bdi", "var", "kbd",
        "samp", "big", "strike", "ins", "del",
    }
)  # fmt: skip


@dataclass(slots=True)
class Tally:
    """Character counts of one element's subtree (text nodes under it)."""

    node: LexborNode
    chars: int = 0
    p_chars: int = 0
    a_chars: int = 0
    card_chars: int = 0  # text of link-wrapped cards: not link text for scoring
    elements: int = 0  # descendant elements, for text-to-tag density

    @property
    def p_share(self) -> float:
        return self.p_chars / self.chars if self.chars else 0.0

    @property
    def link_share(self) -> float:
        return self.a_chars / self.chars if self.chars else 0.0


def density_score(t: Tally) -> float:
    if not t.chars:
        return 0.0
    return (
        t.chars
        * (P_BASE + P_WEIGHT * t.p_chars / t.chars)
        * max(0.0, 1.0 - LINK_PENALTY * t.a_chars / t.chars)
    )


def tally_tree(
    root: LexborNode,
    *,
    max_depth: int = 1 << 30,
    too_deep: list[LexborNode] | None = None,
) -> dict[int, Tally]:
    """Tally every element under ``root`` (inclusive), keyed by ``mem_id``.

    An explicit stack replaces recursion; each element's counts are added to its
    parent's when the walk leaves it, so the whole tree costs one visit per node.
    The walk is also the depth guard of the scoring path (a separate guard walk cost
    0.8 ms a page): elements at ``max_depth`` are counted by their text and appended
    to ``too_deep`` for the caller to flatten (parse.flatten).
    """
    tallies: dict[int, Tally] = {}
    root_tally = Tally(root)
    tallies[root.mem_id] = root_tally
    # (node, tally, is_p, is_a, is_card) for each open element
    open_elements: list[tuple[LexborNode, Tally, bool, int, bool]] = []
    in_p = 1 if root.tag == "p" else 0
    in_a = 1 if root.tag == "a" else 0
    in_card = 0
    current = root_tally
    node: LexborNode | None = root.child
    if node is None:
        return tallies
    while True:
        tag = node.tag
        descended = False
        if tag == "-text":
            n = len(node.text_content.strip())
            if n:
                current.chars += n
                if in_p:
                    current.p_chars += n
                if in_a:
                    current.a_chars += n
                elif in_card:
                    current.card_chars += n
        elif tag is not None and tag[0] != "-":
            child = node.child
            current.elements += 1
            if child is not None and len(open_elements) + 1 >= max_depth:
                n = len(node.text(deep=True, strip=True))
                current.chars += n
                if in_p:
                    current.p_chars += n
                if in_a:
                    current.a_chars += n
                if too_deep is not None:
                    too_deep.append(node)
            elif child is not None:
                if tag in INLINE_TAGS:
                    # No stage looks up an inline element's tally: its text counts
                    # straight into the enclosing block's (a third fewer objects).
                    t = current
                else:
                    t = Tally(node)
                    tallies[node.mem_id] = t
                is_p = tag == "p"
                is_card = False
                if tag == "a":
                    is_a = 1
                elif in_a and tag in CARD_BLOCKS:
                    # A heading or paragraph wrapped in a link is a card (listing and
                    # collection pages), not navigation: its text is not link text.
                    is_a = -in_a
                    is_card = True
                else:
                    is_a = 0
                in_p += is_p
                in_a += is_a
                in_card += is_card
                open_elements.append((node, current, is_p, is_a, is_card))
                current = t
                node = child
                descended = True
        if descended:
            continue
        # Leave finished elements until one has a next sibling.
        while True:
            sibling = node.next
            if sibling is not None:
                node = sibling
                break
            if not open_elements:
                return tallies
            node, parent, is_p, is_a, is_card = open_elements.pop()
            in_p -= is_p
            in_a -= is_a
            in_card -= is_card
            if parent is not current:
                parent.chars += current.chars
                parent.p_chars += current.p_chars
                parent.a_chars += current.a_chars
                parent.card_chars += current.card_chars
                parent.elements += current.elements
                current = parent


# --------------------------------------------------------------------------- blocks


@dataclass(slots=True)
class Aggregate:
    """Per-element sums over the blocks each element holds (numpy arrays by element id),
    plus the block-to-ancestor incidence they were summed over.

    The counts come from the same blocks for numerator and denominator, so a share can
    never exceed 1, as in the tally walk.
    """

    chars: np.ndarray
    p_chars: np.ndarray
    a_chars: np.ndarray
    card_chars: np.ndarray
    block_of: np.ndarray  # incidence: block index ...
    element_of: np.ndarray  # ... and one of the elements holding it
    block_chars: np.ndarray

    def score(self) -> np.ndarray:
        """The density score of every element."""
        chars = np.maximum(self.chars, 1.0)
        return (
            self.chars
            * (P_BASE + P_WEIGHT * self.p_chars / chars)
            * np.maximum(0.0, 1.0 - LINK_PENALTY * self.a_chars / chars)
        )


def aggregate(seg: Segmentation) -> Aggregate:
    blocks = seg.blocks
    n = len(blocks)
    elements = len(seg.nodes)
    chars = np.fromiter((len(b.text) for b in blocks), dtype=np.float64, count=n)
    links = np.fromiter((b.link_chars for b in blocks), dtype=np.float64, count=n)
    card = np.fromiter((b.flags & FLAG_IN_LINK for b in blocks), dtype=bool, count=n)
    is_p = np.fromiter((b.kind == "p" for b in blocks), dtype=bool, count=n)
    links = np.minimum(links, chars)
    lengths = np.fromiter((len(b.path) for b in blocks), dtype=np.int64, count=n)
    element_of = np.fromiter(
        chain.from_iterable(b.path for b in blocks), dtype=np.int64, count=int(lengths.sum())
    )
    block_of = np.repeat(np.arange(n), lengths)

    def total(weights: np.ndarray) -> np.ndarray:
        return np.bincount(element_of, weights=weights[block_of], minlength=elements)

    return Aggregate(
        chars=total(chars),
        p_chars=total(np.where(is_p, chars, 0.0)),
        a_chars=total(np.where(card, 0.0, links)),
        card_chars=total(np.where(card, links, 0.0)),
        block_of=block_of,
        element_of=element_of,
        block_chars=chars,
    )
