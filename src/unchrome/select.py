"""Select: pick the body node among the scored candidates, then clean inside it.

Semantic tags are distrusted: an <article> competes on the same density score as any
div. A page may carry two dozen widget-sized <article> cards while the story sits in a
plain div; the story wins because it has more paragraph text, not because of its tag.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .parse import LexborNode, next_after_subtree
from .score import CANDIDATE_TAGS, Aggregate, Tally, density_score
from .segment import Segmentation

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
    wanted = _headline_key(title)
    if len(wanted) < TITLE_MIN_CHARS:
        return False
    for root in roots:
        heading = root if root.tag == "h1" else root.css_first("h1")
        if heading is None:
            continue
        repeats = _repeats_title(wanted, heading.text(deep=True, separator=" "))
        if repeats and heading is not root:
            heading.decompose()
            return True
        return False
    return False


def _headline_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _repeats_title(wanted: str, heading: str) -> bool:
    """Whether a heading's text repeats the title (``wanted``, from _headline_key):
    one starts with the other, and the heading is long enough to be evidence."""
    found = _headline_key(heading)
    return len(found) >= TITLE_MIN_CHARS and (wanted.startswith(found) or found.startswith(wanted))


# --------------------------------------------------------------------------- blocks

# Siblings scoring at least this share of the winner's score join it: landing pages
# and listings spread their content over sibling sections.
SIBLING_RATIO = 0.2
# When the best candidate holds under half of the pruned page, no single container is
# the content (landing pages, link indexes, man pages): the pruned body is kept.
# Sweep on the WCXB dev split (share, max link share -> F1): 0.25/0.3 0.844,
# 0.25/any 0.846, 0.15/any 0.845, 0.35/any 0.846, 0.5/any 0.847 (service 0.807 -> 0.824,
# collection 0.646 -> 0.654, listing 0.655 -> 0.658). The link condition is gone.
ORPHAN_WINNER_SHARE = 0.5


@dataclass(slots=True)
class Selection:
    """The density stage's answer, per element and per block."""

    winner: int  # element id, -1 when no candidate has text
    roots: list[int]  # winner plus merged siblings, or [0] (the segmented root)
    orphan: bool  # no candidate held half of the page: the roots are the page
    in_root: np.ndarray  # per block
    noise: np.ndarray  # per block: inside a link list or named chrome of the roots


def select_blocks(seg: Segmentation, agg: Aggregate) -> Selection:
    """Winner, merged siblings and in-winner link lists, from the block sums.

    The same rules as select_body / with_siblings / prune_link_noise on the tally walk, read
    off the per-element sums instead of a walk of the tree.
    """
    n = len(seg.blocks)
    elements = len(seg.nodes)
    tags = seg.tags
    parents = seg.parents
    if not elements:
        nothing = np.zeros(n, dtype=bool)
        return Selection(-1, [], True, nothing, nothing)
    scores = agg.score()
    candidate = np.fromiter((t in CANDIDATE_TAGS for t in tags), dtype=bool, count=elements)
    candidate[0] = False  # the segmented root is the body: never a candidate
    ranked = np.where(candidate & (agg.chars > 0), scores, 0.0)
    winner = int(ranked.argmax()) if elements and ranked.max() > 0 else -1
    orphan = winner < 0 or agg.chars[winner] < ORPHAN_WINNER_SHARE * agg.chars[0]
    if orphan:
        roots = [0]
    else:
        parent = parents[winner]
        if parent <= 0 or tags[parent] in ("body", "html"):
            roots = [winner]
        else:
            threshold = max(SIBLING_RATIO * scores[winner], SIBLING_MIN_SCORE)
            siblings = np.flatnonzero((np.asarray(parents) == parent) & (scores >= threshold))
            roots = sorted({winner, *siblings.tolist()})
    root_set = set(roots)
    # Parents come before their children: one pass in id order propagates the roots.
    owner = [-1] * elements
    for element, parent in enumerate(parents):
        if element in root_set:
            owner[element] = element
        elif parent >= 0:
            owner[element] = owner[parent]
    root_of = np.array(owner, dtype=np.int64)
    doomed = _noise_elements(seg, agg, root_of, root_set)
    in_root = np.zeros(n, dtype=bool)
    noise = np.zeros(n, dtype=bool)
    if n:
        in_root = np.bincount(agg.block_of, weights=(root_of >= 0)[agg.element_of], minlength=n) > 0
        noise = np.bincount(agg.block_of, weights=doomed[agg.element_of], minlength=n) > 0
    return Selection(winner, roots, orphan, in_root, noise)


def _noise_elements(
    seg: Segmentation, agg: Aggregate, root_of: np.ndarray, roots: set[int]
) -> np.ndarray:
    """Per element: a navigation-like block inside a root (see prune_link_noise)."""
    elements = len(seg.nodes)
    doomed = np.zeros(elements, dtype=bool)
    inside = np.flatnonzero(root_of >= 0)
    if not len(inside):
        return doomed
    # Python lists: indexing one is several times cheaper than a numpy scalar read.
    chars, a_chars = agg.chars.tolist(), agg.a_chars.tolist()
    card_chars, root_list = agg.card_chars.tolist(), root_of.tolist()
    tags, chrome = seg.tags, seg.chrome
    for element in inside.tolist():
        if element in roots:
            continue
        tag = tags[element]
        if tag not in _LINK_BLOCK_TAGS and not chrome[element]:
            continue
        root = root_list[element]
        total = chars[root]
        t_chars = chars[element]
        if tag in _DROP_IN_WINNER_TAGS:
            doomed[element] = True
            continue
        if not t_chars:
            continue
        if tag in _LINK_BLOCK_TAGS:
            # A body that is itself mostly links is a link index: its lists are content.
            index_page = a_chars[root] > LINK_LIST_SHARE * total
            cards_are_links = card_chars[root] < CARDS_MAX_SHARE_IN_STORY * total
            links = a_chars[element] + (card_chars[element] if cards_are_links else 0.0)
            if (
                not index_page
                and links > LINK_LIST_SHARE * t_chars
                and t_chars < LINK_LIST_MAX_FRACTION * total
            ):
                doomed[element] = True
                continue
            if (
                chrome[element]
                and t_chars < LINK_LIST_MAX_FRACTION * total
                and (
                    a_chars[element] >= NAMED_NOISE_LINK_SHARE * t_chars
                    or t_chars < NAMED_NOISE_MAX_CHARS
                )
            ):
                doomed[element] = True
    return doomed


def kept_html_roots(
    seg: Segmentation,
    keep: Sequence[bool] | np.ndarray,
    dropped_elements: Sequence[int] = (),
    region: Sequence[int] = (),
) -> list[LexborNode]:
    """The subtree holding the kept blocks, with every subtree of dropped blocks removed.

    Elements holding no block at all (images, embeds, list items too short to be
    blocks) stay where they are; only the largest subtrees whose blocks were all
    dropped go, and the elements in ``dropped_elements`` (the title heading). The root
    is the deepest element that still holds every kept block, but never one inside the
    density selection's ``region`` elements: a story of one long paragraph and a
    diagram would otherwise shrink to the paragraph and lose the diagram.
    """
    blocks = seg.blocks
    parents = seg.parents
    holds_kept = np.zeros(len(seg.nodes), dtype=bool)
    kept_owners: set[int] = set()
    for block, k in zip(blocks, keep, strict=True):
        if k:
            kept_owners.add(block.owner)
            for element in block.path:
                holds_kept[element] = True
    if not kept_owners:
        return []
    doomed: set[int] = set(dropped_elements)
    for block, k in zip(blocks, keep, strict=True):
        if k:
            continue
        child = -1
        for element in reversed(block.path):
            if holds_kept[element]:
                break
            child = element
        if child >= 0:
            doomed.add(child)
    nodes = seg.nodes
    # Children before parents: a parent's decompose frees its subtree.
    for element in sorted(doomed, reverse=True):
        if not any(e in doomed for e in _ancestors(element, parents)):
            nodes[element].decompose()
    # The deepest element holding every kept block: walk down while one child holds all.
    children: dict[int, list[int]] = {}
    for element in np.flatnonzero(holds_kept).tolist():
        parent = parents[element]
        if parent >= 0:
            children.setdefault(parent, []).append(element)
    root = 0
    stop = set(region)
    while root not in kept_owners and root not in stop:
        inside = children.get(root, [])
        if len(inside) != 1:
            break
        root = inside[0]
    return [nodes[root]]


def _ancestors(element: int, parents: Sequence[int]) -> list[int]:
    out = []
    parent = parents[element]
    while parent >= 0:
        out.append(parent)
        parent = parents[parent]
    return out


def title_block(seg: Segmentation, in_root: np.ndarray, title: str) -> int:
    """Index of the first <h1> block of the roots when it repeats the page title, else -1.

    The title is Result.title already; in the body it is counted twice. On the WCXB
    dev split the hand-made main content leaves the title out on 500 of the 521
    article pages whose extracted text started with it.
    """
    wanted = _headline_key(title)
    if len(wanted) < TITLE_MIN_CHARS:
        return -1
    for index, block in enumerate(seg.blocks):
        if block.kind != "h1" or not in_root[index]:
            continue
        return index if _repeats_title(wanted, block.text) else -1
    return -1


def dropped_heading(seg: Segmentation, keep: np.ndarray, in_root: np.ndarray) -> int:
    """Index of the <h1> of the roots that the block model dropped ahead of the first
    kept block, else -1: the story's own headline, which the hand-made WCXB content
    leaves out (so the model learnt to drop it) but a Markdown document opens with."""
    kept = np.flatnonzero(keep)
    end = int(kept[0]) if len(kept) else len(seg.blocks)
    for index in range(end):
        if seg.blocks[index].kind == "h1" and in_root[index]:
            return index
    return -1
