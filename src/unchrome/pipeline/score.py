"""Score: sum every element's text over the blocks it holds and rate the candidates.

A candidate's score is

    visible chars x (0.3 + 0.7 x share of its text inside <p>)
                  x max(0, 1 - 1.2 x share of its text inside <a>)

Numerator and denominator of both shares are sums over the same blocks (segment): each
block's length is added to every element holding it and, when the block is a <p> or
its text sits inside an <a>, to those elements' paragraph or link totals as well. A
share can therefore never exceed 1. (Counting links on a differently normalised string
once let the link share pass 1 and zeroed the real body.)
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

from unchrome._native import _blocks
from unchrome._native._blocks import element_sums
from unchrome.pipeline.segmentation import FLAG_IN_LINK, Segmentation

CANDIDATE_TAGS = frozenset({"article", "main", "section", "div"})

# Paragraph weight: text outside <p> still counts 30 %, so a body written with <br>
# line breaks or plain divs keeps a chance against a container of short <p> blurbs.
P_BASE = 0.3
P_WEIGHT = 0.7
# Link discount: a block whose text is over 83 % links scores zero.
LINK_PENALTY = 1.2


# --------------------------------------------------------------------------- blocks


@dataclass(slots=True)
class Aggregate:
    """Per-element sums over the blocks each element holds (float64 arrays by element
    id), plus the block-to-ancestor incidence they were summed over (int64 arrays).

    The counts come from the same blocks for numerator and denominator, so a share can
    never exceed 1.
    """

    chars: array
    p_chars: array
    a_chars: array
    card_chars: array
    block_of: array  # incidence: block index ...
    element_of: array  # ... and one of the elements holding it
    block_chars: array
    scores: array  # the density score of every element (density())


def density(chars: array, p_chars: array, a_chars: array) -> array:
    """The density score of every element, from its sums: the formula above, each
    share over max(chars, 1) (compiled: _blocks.density)."""
    return _blocks.density(chars, p_chars, a_chars, P_BASE, P_WEIGHT, LINK_PENALTY)


def aggregate(seg: Segmentation) -> Aggregate:
    """The sums of every element over the blocks it holds (_blocks.element_sums)."""
    chars, p_chars, a_chars, card_chars, block_of, element_of, block_chars = element_sums(
        seg.blocks, len(seg.nodes), FLAG_IN_LINK
    )
    return Aggregate(
        chars=chars,
        p_chars=p_chars,
        a_chars=a_chars,
        card_chars=card_chars,
        block_of=block_of,
        element_of=element_of,
        block_chars=block_chars,
        # Computed once: the selection and the block model's features both read them.
        scores=density(chars, p_chars, a_chars),
    )
