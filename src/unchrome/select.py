"""Select: pick the body node among the scored candidates, then clean inside it.

Semantic tags are distrusted: an <article> competes on the same density score as any
div. A page may carry two dozen widget-sized <article> cards while the story sits in a
plain div; the story wins because it has more paragraph text, not because of its tag.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .parse import LexborNode, next_after_subtree
from .score import CANDIDATE_TAGS, Tally, density_score

# Blocks that are pure navigation inside the chosen body: judged by their link share.
_LINK_BLOCK_TAGS = frozenset(
    {"ul", "ol", "dl", "nav", "div", "section", "aside", "table", "header", "footer", "p", "menu"}
)
# Above this share of link text a block is a link list ... 0.6 cut documentation link
# indexes with a line of description per link (wiki "see also" pages); on the WCXB dev
# split 0.8 scored best (0.6: 0.834, 0.8: 0.836, 0.9: 0.836 with article 0.930 -> 0.929).
LINK_LIST_SHARE = 0.8
# ... unless it is a large part of the body (a page that *is* a list of links).
LINK_LIST_MAX_FRACTION = 0.5

# Chrome that sits inside story containers: breadcrumbs, related-post lists, tag
# clouds, pagination, author boxes, "read more" teasers.
_WINNER_NOISE = re.compile(
    r"(?:^|[^a-z0-9])(?:breadcrumbs?\w*|related\w*|recommend\w*|more[-_]?(?:stories|articles|news)"
    r"|read[-_]?more|tags?[-_]?(?:list|cloud|links)?|post[-_]?tags|tagcloud|pagination|pager"
    r"|nav|navbar|navigation|menu|sidebar|toc|table[-_]of[-_]contents|author[-_]?(?:bio|box)"
    r"|byline|post[-_]?meta|entry[-_]?meta|toolbar|trending\w*|popular[-_]?(?:posts|articles)"
    r")(?:$|[^a-z0-9])",
    re.I,
)
# A block named like chrome is dropped only when it also looks like chrome: link-heavy
# or short. Page builders name whole story sections "...-widget-..." or "...-meta".
NAMED_NOISE_LINK_SHARE = 0.3
NAMED_NOISE_MAX_CHARS = 300
# Measured on the WCXB dev split: 0.2, 0.35 and 0.5 all give 0.839 overall (article
# 0.930 -> 0.935); with no such condition listings fell from 0.654 to 0.557.
CARDS_MAX_SHARE_IN_STORY = 0.35
# Siblings scoring under this are never merged, however weak the winner is.
SIBLING_MIN_SCORE = 10.0
_DROP_IN_WINNER_TAGS = frozenset({"nav", "aside", "menu"})


def select_body(
    tallies: dict[int, Tally], score: Callable[[LexborNode], float] | None = None
) -> LexborNode | None:
    """The best-scoring candidate element, or None when no candidate has text."""
    best: LexborNode | None = None
    best_score = 0.0
    for tally in tallies.values():
        node = tally.node
        if node.tag not in CANDIDATE_TAGS or not tally.chars:
            continue
        value = score(node) if score is not None else density_score(tally)
        if value > best_score:
            best, best_score = node, value
    return best


def with_siblings(winner: LexborNode, tallies: dict[int, Tally], ratio: float) -> list[LexborNode]:
    """The winner plus the siblings that score close to it, in document order.

    Landing pages and listings spread their content over sibling sections (hero,
    features, pricing, FAQ); the single best section loses the rest.
    """
    parent = winner.parent
    top = tallies.get(winner.mem_id)
    if parent is None or top is None or parent.tag in ("body", "html"):
        return [winner]
    threshold = max(SIBLING_MIN_SCORE, ratio * density_score(top))
    roots: list[LexborNode] = []
    node = parent.child
    while node is not None:
        if node.mem_id == winner.mem_id:
            roots.append(node)
        elif node.is_element_node:
            t = tallies.get(node.mem_id)
            if t is not None and density_score(t) >= threshold:
                roots.append(node)
        node = node.next
    return roots


def prune_link_noise(winner: LexborNode, tallies: dict[int, Tally]) -> int:
    """Remove navigation-like blocks inside the winner; return how many."""
    top = tallies.get(winner.mem_id)
    total = top.chars if top is not None else 0
    # Cards are the content of a listing; in a story they are "related posts" teasers.
    # Where they are a small part of the body, they count as links again here.
    cards_are_links = top is not None and top.card_chars < CARDS_MAX_SHARE_IN_STORY * total
    # A body that is itself mostly links is a link index (news river, category page):
    # its link blocks are the content.
    index_page = top is not None and top.a_chars > LINK_LIST_SHARE * total
    doomed: list[LexborNode] = []
    stack: list[LexborNode] = []
    node: LexborNode | None = winner.child
    while node is not None:
        tag = node.tag
        remove = False
        if tag in _LINK_BLOCK_TAGS:
            if tag in _DROP_IN_WINNER_TAGS:
                remove = True
            else:
                t = tallies.get(node.mem_id)
                if (
                    not index_page
                    and t is not None
                    and t.chars
                    and (
                        t.a_chars + (t.card_chars if cards_are_links else 0)
                        > LINK_LIST_SHARE * t.chars
                        and t.chars < LINK_LIST_MAX_FRACTION * total
                    )
                ):
                    remove = True
            if not remove:
                attrs = node.attributes
                names = f"{attrs.get('class') or ''} {attrs.get('id') or ''}"
                if len(names) > 2 and _WINNER_NOISE.search(names):
                    t = tallies.get(node.mem_id)
                    remove = t is None or (
                        t.chars < LINK_LIST_MAX_FRACTION * total
                        and (
                            t.a_chars >= NAMED_NOISE_LINK_SHARE * t.chars
                            or t.chars < NAMED_NOISE_MAX_CHARS
                        )
                    )
        if remove:
            doomed.append(node)
        elif tag is not None and tag[0] != "-":
            child = node.child
            if child is not None:
                stack.append(node)
                node = child
                continue
        node = next_after_subtree(node, stack)
    for gone in doomed:
        gone.decompose()
    return len(doomed)


# A heading this short is no evidence of being the title ("News", "Overview").
TITLE_MIN_CHARS = 10


def drop_title_heading(roots: list[LexborNode], title: str) -> bool:
    """Remove the body's first <h1> when it repeats the page title.

    The title is Result.title already; in the body it is counted twice. On the WCXB
    dev split the hand-made main content leaves the title out on 500 of the 521
    article pages whose extracted text started with it.
    """
    wanted = " ".join(title.split()).casefold()
    if len(wanted) < TITLE_MIN_CHARS:
        return False
    for root in roots:
        heading = root if root.tag == "h1" else root.css_first("h1")
        if heading is None:
            continue
        found = " ".join(heading.text(deep=True, separator=" ").split()).casefold()
        repeats = len(found) >= TITLE_MIN_CHARS and (
            wanted.startswith(found) or found.startswith(wanted)
        )
        if repeats and heading is not root:
            heading.decompose()
            return True
        return False
    return False
