"""Select: decide once which blocks of the segmented page are the main content.

The density stage (select_blocks) picks the winning container from per-element sums
over the blocks: semantic tags are distrusted, an <article> competes on the same
density score as any div. A page may carry two dozen widget-sized <article> cards while
the story sits in a plain div; the story wins because it has more paragraph text, not
because of its tag. The block model (blockmodel) then refines that choice block by
block, and settle() turns the answer into the one Content every rendering reads: the
headline taken out, short paragraphs following their neighbours, repeats dropped.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from unchrome._native import _arrays
from unchrome._native._blocktext import prose_chars
from unchrome._native._select import (
    blocks_inside,
    candidates,
    children,
    innermost,
    noise_elements,
    owned,
    root_owners,
)
from unchrome.pipeline.parse import LexborHTMLParser, LexborNode
from unchrome.pipeline.prune import token_re
from unchrome.pipeline.score import CANDIDATE_TAGS, Aggregate
from unchrome.pipeline.segmentation import (
    FLAG_ROW,
    FLAG_SHORT,
    NAMED_BODY,
    NAMED_SIDEBAR,
    Block,
    Segmentation,
    is_prose,
)
from unchrome.rules.tags import HEADINGS, LENGTH_FILTERED

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
# ... unless the best candidate holds this share of the page's prose (paragraphs of
# sentences, segmentation.is_prose): then it is the story, and what outweighs it is a
# sidebar of teasers, link lists, blogrolls and widgets around a short article. Measured
# with the shipped model before it was retrained (share -> word F1): off: Dragnet
# 0.891, CleanEval 0.916, WCXB dev 0.899; 0.5: Dragnet 0.910, CleanEval 0.917, WCXB
# 0.897 (collection -0.022); 0.7: 0.908, 0.917, 0.899 (collection -0.004); 0.8: 0.908,
# 0.918, 0.899 (collection -0.004); the news set's articles +0.011 at each. Taking the
# best candidate on every such page instead (the prose aside) lifted Dragnet as much
# and cost CleanEval's multi-part pages 0.05.
ORPHAN_PROSE_SHARE = 0.8


@dataclass(slots=True)
class Selection:
    """The density stage's answer, per element and per block. A mask is a bytearray
    of one 0 or 1 per block (see _arrays)."""

    winner: int  # element id, -1 when no candidate has text
    roots: list[int]  # winner plus merged siblings, or [0] (the segmented root)
    orphan: bool  # no candidate held half of the page: the roots are the page
    in_root: bytearray  # per block
    noise: bytearray  # per block: inside a link list or named chrome of the roots
    # per block: inside a sidebar (see sidebar_elements), never content
    aside: bytearray = field(default_factory=bytearray)
    # per block: inside an element named the body of a post (see within_story_body)
    body: bytearray = field(default_factory=bytearray)


def select_blocks(
    seg: Segmentation, agg: Aggregate, score: Callable[[LexborNode], float] | None = None
) -> Selection:
    """Winner, merged siblings and in-winner link lists, from the block sums.

    With ``score`` (a caller's Scorer) the caller's score ranks the candidates and its
    winner stands alone: no siblings merged, no page-wide fallback; only the link lists
    inside it go.
    """
    n = len(seg.blocks)
    elements = len(seg.nodes)
    tags = seg.tags
    parents = seg.parents
    if not elements:
        return Selection(-1, [], True, bytearray(n), bytearray(n), bytearray(n), bytearray(n))
    scores = agg.scores
    candidate = candidates(tags, CANDIDATE_TAGS, agg.chars)  # ... holding text
    candidate[0] = False  # the segmented root is the body: never a candidate
    if score is not None:
        ranked = _arrays.doubles(elements)
        for element in _arrays.indices(candidate):
            ranked[element] = score(seg.nodes[element])
    else:
        ranked = _arrays.masked(scores, candidate)
    best = _arrays.argmax(ranked)
    winner = best if best >= 0 and ranked[best] > 0 else -1
    orphan = winner < 0 or (
        score is None
        and agg.chars[winner] < ORPHAN_WINNER_SHARE * agg.chars[0]
        and not _holds_the_prose(seg, agg, winner)
    )
    if orphan:
        roots = [0]
    elif score is not None:
        roots = [winner]
    else:
        parent = parents[winner]
        if parent <= 0 or tags[parent] in ("body", "html"):
            roots = [winner]
        else:
            threshold = max(SIBLING_RATIO * scores[winner], SIBLING_MIN_SCORE)
            siblings = [e for e in children(parents, parent) if scores[e] >= threshold]
            roots = sorted({winner, *siblings})
    root_set = set(roots)
    root_of = root_owners(parents, root_set)
    doomed = (
        _noise_elements(seg, agg, root_of, root_set)
        if not (orphan and score is not None)
        else bytearray(elements)
    )
    # The blocks inside a root, and those inside a doomed element.
    in_root = blocks_inside(agg.block_of, agg.element_of, owned(root_of), n)
    noise = blocks_inside(agg.block_of, agg.element_of, doomed, n)
    # A caller's scorer stands alone: its winner keeps its sidebars. Most pages name
    # none, and skip the walk over the incidence.
    sidebars = sidebar_elements(seg, agg, winner) if score is None else None
    aside = (
        blocks_inside(agg.block_of, agg.element_of, sidebars, n)
        if sidebars is not None and 1 in sidebars
        else bytearray(n)
    )
    return Selection(winner, roots, orphan, in_root, noise, aside, _in_post_body(seg, agg))


def beside_sidebars(keep: bytearray, aside: bytearray) -> bytearray:
    """``keep`` less the blocks of named sidebars (Selection.aside), unless they are all
    it holds: a page is never refused for its only text."""
    beside = _arrays.without(keep, aside)
    return beside if 1 in beside else keep


# The body of a post that the page names (segmentation.NAMED_BODY: "entry-content",
# "post-body", "article__body"...) is where its story ends, when the blocks inside it
# hold at least this share of the prose the selection keeps: what follows it (reader
# comments, "related posts", an author box, the blog's widgets) is not the story, however
# much the block model likes it one block at a time. Under the share, the name is not
# the story's (a teaser's "post-content" in a listing, a lead in its own element).
# Measured with the shipped model (word F1, text, against the code before): share 0.5:
# Dragnet 0.920 -> 0.929, CleanEval, news, WCXB dev and Readability.js's pages within
# +-0.001 (91 pages up, 6 down on every suite); 0.3: Dragnet 0.931, WCXB article
# -0.0006; 0.7: Dragnet 0.926; any share: WCXB article -0.012, the news set's forums
# -0.009.
STORY_BODY_SHARE = 0.5


def within_story_body(blocks: Sequence[Block], body: bytearray, keep: bytearray) -> bytearray:
    """``keep`` less the blocks after the last one inside a named post body (``body``,
    Selection.body), when the kept blocks inside it hold STORY_BODY_SHARE of the kept
    prose (segmentation.is_prose)."""
    if 1 not in body:
        return keep
    prose = inside = 0
    for index in _arrays.indices(keep):
        block = blocks[index]
        if is_prose(block):
            prose += len(block.text)
            if body[index]:
                inside += len(block.text)
    if not prose or inside < STORY_BODY_SHARE * prose:
        return keep
    ended = keep.copy()
    last = body.rfind(1)
    ended[last + 1 :] = bytes(len(ended) - last - 1)
    return ended


def _in_post_body(seg: Segmentation, agg: Aggregate) -> bytearray:
    """Per block: inside an element named the body of a post (segmentation.NAMED_BODY)."""
    named = _elements_named(seg, NAMED_BODY)
    if named is None:
        return bytearray(len(seg.blocks))
    return blocks_inside(agg.block_of, agg.element_of, named, len(seg.blocks))


def _elements_named(seg: Segmentation, verdict: int) -> bytearray | None:
    """Per element: whether its class/id words say ``verdict`` (a segmentation.NAMED_*);
    None when no element's do, which most pages show in one scan in C."""
    said = seg.named
    if verdict not in said:
        return None
    # One byte per element, 1 where it says ``verdict``: bytearray's translate, in C.
    table = bytearray(256)
    table[verdict] = 1
    return bytearray(said).translate(table)


# An element named a sidebar that holds this share of the density winner's text and
# more than this share of its paragraph text (<p>) is the layout around the story, a
# wrapper in another name, not a side column. Either share alone misjudged pages: by
# paragraphs alone, a short post's sidebar of paragraph teasers was a wrapper (3
# Dragnet pages kept their sidebars); by text alone, the sidebar of a blog whose
# whole page wins, longer than the post but in widgets, was one (Dragnet +0.003
# instead of +0.008).
SIDEBAR_WRAPPER_TEXT_SHARE = 0.9
SIDEBAR_WRAPPER_P_SHARE = 0.5


def sidebar_elements(seg: Segmentation, agg: Aggregate, winner: int) -> bytearray:
    """Per element: named a sidebar (segmentation.NAMED_SIDEBAR), neither holding the
    ``winner`` nor wrapping its story (SIDEBAR_WRAPPER_TEXT_SHARE of its text and
    SIDEBAR_WRAPPER_P_SHARE of its paragraphs). Whatever the block model makes of its
    blocks one by one (a blog's "Recent comments" and "Most read" widgets read like
    prose and headlines), a column the page names its sidebar is not the story; one
    that holds the density winner, or its story, is the layout around it (a news
    site's <div class="sidebar" id="body_main"> around the whole article).

    Measured with the shipped model (word F1, text): Dragnet 0.910 -> 0.918 (56 pages
    up, 4 down: the sidebars of Blogger and WordPress blogs beside short posts),
    CleanEval 0.918 -> 0.918 (3 up; one page whose hand-kept text is a blog's "Recent
    comments" sidebar -0.06), WCXB dev 0.899 -> 0.900 (5 pages up, one product page
    -0.07), the news set, the Chinese pages and Readability.js's pages unchanged.
    """
    named = _elements_named(seg, NAMED_SIDEBAR)
    if named is None:
        return bytearray(len(seg.named))
    if winner >= 0:
        chars, p_chars = agg.chars, agg.p_chars
        text_floor = SIDEBAR_WRAPPER_TEXT_SHARE * chars[winner]
        p_floor = SIDEBAR_WRAPPER_P_SHARE * p_chars[winner]
        for element in _arrays.indices(named):
            if chars[element] >= text_floor and p_chars[element] > p_floor:
                named[element] = False
    parents = seg.parents
    element = winner
    while element >= 0:
        named[element] = False
        element = parents[element]
    return named


def _holds_the_prose(seg: Segmentation, agg: Aggregate, winner: int) -> bool:
    """Whether the element ``winner`` holds ORPHAN_PROSE_SHARE of the page's prose."""
    blocks = seg.blocks
    prose = prose_chars(blocks)
    total = _arrays.total(prose)
    if total <= 0:
        return False
    marked = bytearray(len(seg.nodes))
    marked[winner] = 1
    inside = blocks_inside(agg.block_of, agg.element_of, marked, len(blocks))
    return _arrays.total(prose, inside) >= ORPHAN_PROSE_SHARE * total


def _noise_elements(
    seg: Segmentation, agg: Aggregate, root_of: array, roots: set[int]
) -> bytearray:
    """Per element: a navigation-like block inside a root (not a root itself):

    - nav, aside or menu;
    - a link list: a list, div, section, table... (_LINK_BLOCK_TAGS) whose link text
      (cards counting as links in a story) is over LINK_LIST_SHARE of its text, unless
      it holds LINK_LIST_MAX_FRACTION of its root or the root is itself mostly links
      (a link index, whose lists are content);
    - such a block named like in-story chrome (segmentation.CHROME_NAMES) that also looks
      like it: link-heavy or short.

    Compiled (_select.noise_elements): the Python loop over the elements took 0.06 ms
    at the median news page.
    """
    return noise_elements(
        seg.tags,
        seg.named,
        agg.chars,
        agg.a_chars,
        agg.card_chars,
        root_of,
        roots,
        _LINK_BLOCK_TAGS,
        _DROP_IN_WINNER_TAGS,
        link_list_share=LINK_LIST_SHARE,
        link_list_max_fraction=LINK_LIST_MAX_FRACTION,
        cards_max_share=CARDS_MAX_SHARE_IN_STORY,
        named_link_share=NAMED_NOISE_LINK_SHARE,
        named_max_chars=NAMED_NOISE_MAX_CHARS,
    )


def html_root(seg: Segmentation, keep: bytearray, region: Sequence[int] = ()) -> int:
    """The element the HTML rendering starts from: the deepest one holding every kept
    block, but never one inside the density selection's ``region`` elements (a story
    of one long paragraph and a diagram would otherwise shrink to the paragraph and
    lose the diagram). -1 when nothing is kept."""
    blocks = seg.blocks
    kept = _arrays.indices(keep)
    if not kept or not seg.nodes:
        return -1
    common = list(blocks[kept[0]].path)
    for index in kept[1:]:
        path = blocks[index].path
        size = min(len(common), len(path))
        cut = next((i for i in range(size) if common[i] != path[i]), size)
        del common[cut:]
        if not common:
            return 0
    stop = set(region)
    root = 0
    for element in common:
        root = element
        if element in stop:
            break
    return root


# A heading this short is no evidence of being the title ("News", "Overview").
TITLE_MIN_CHARS = 10


def _headline_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _repeats_title(wanted: str, heading: str) -> bool:
    """Whether a heading's text repeats the title (``wanted``, from _headline_key):
    one starts with the other, and the heading is long enough to be evidence."""
    found = _headline_key(heading)
    return len(found) >= TITLE_MIN_CHARS and (wanted.startswith(found) or found.startswith(wanted))


def title_block(seg: Segmentation, in_root: bytearray, title: str) -> int:
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


def dropped_heading(seg: Segmentation, keep: bytearray, in_root: bytearray) -> int:
    """Index of the <h1> of the roots that the block model dropped ahead of the first
    kept block, else -1: the story's own headline, which the hand-made WCXB content
    leaves out (so the model learnt to drop it) but a Markdown document opens with."""
    end = keep.find(1)
    if end < 0:
        end = len(seg.blocks)
    for index in range(end):
        if seg.blocks[index].kind == "h1" and in_root[index]:
            return index
    return -1


# --------------------------------------------------------------------------- content

# Repeated blocks at least this long are printed once (a pull quote, a caption shown
# twice for two screen sizes); short ones ("Reply", a price) may repeat as they are.
DUPLICATE_MIN_CHARS = 30


@dataclass(slots=True)
class Content:
    """The one decision every rendering reads: which blocks of ``seg`` are content."""

    seg: Segmentation  # every block of the page, or of a fallback's fragment
    keep: bytearray  # per block of seg (a mask, see Selection)
    heading: str | None = None  # the headline taken out of the body: Markdown opens with it
    region: tuple[int, ...] = ()  # the density selection's elements (see html_root)
    repeats: bytearray | None = None  # per block: left out as a repeat of a kept one

    def screen_text(self) -> str:
        """Every word the selection shows, repeats and short paragraphs included: what
        the bot-wall and dead-page screens are judged on."""
        shown = self.keep if self.repeats is None else _arrays.either(self.keep, self.repeats)
        return " ".join(b.text for b, k in zip(self.seg.blocks, shown, strict=True) if k)

    def blocks(self, min_paragraph_chars: int = 0) -> list[Block]:
        """The kept blocks, less paragraphs under ``min_paragraph_chars`` characters."""
        return [
            b
            for b, k in zip(self.seg.blocks, self.keep, strict=True)
            if k and not (b.kind in LENGTH_FILTERED and len(b.text) < min_paragraph_chars)
        ]


def whole(seg: Segmentation, wanted: int = 0, exclude: int = 0) -> bytearray:
    """Every block carrying all ``wanted`` flags and none of ``exclude``: the caller's
    selector (FLAG_SELECTED) or the whole pruned page."""
    return bytearray((b.flags & wanted) == wanted and not b.flags & exclude for b in seg.blocks)


def settle(
    seg: Segmentation,
    keep: bytearray | None,
    title: str | None,
    *,
    view: Sequence[int] | None = None,
    shown: Segmentation | None = None,
    view_keep: bytearray | None = None,
    in_root: bytearray | None = None,
    exclude: int = 0,
    region: Sequence[int] = (),
) -> Content:
    """The final Content from a choice over blocks.

    ``keep`` is per block of ``seg``. When the choice was made over a view (the blocks
    the density score and the model see, ``seg.view``), pass ``shown`` (that view),
    ``view`` (its indices in ``seg``), ``view_keep`` and the density ``in_root``
    instead: the short paragraphs the view left out then follow their neighbours
    (settle_short), and an <h1> the model dropped ahead of the story is still the
    Markdown's headline (dropped_heading).
    """
    heading = -1
    if view is not None and shown is not None and view_keep is not None and in_root is not None:
        headings_over_kept(shown.blocks, view_keep)
        heading = title_block(shown, in_root, title) if title else -1
        if heading >= 0:
            view_keep[heading] = False
        else:
            heading = dropped_heading(shown, view_keep, in_root)
        keep = _arrays.spread(list(view), view_keep, len(seg.blocks))
        heading = view[heading] if heading >= 0 else -1
        settle_short(seg, keep, exclude)
    else:
        if keep is None:
            raise ValueError("settle needs keep, or view, view_keep and in_root")
        if title:
            heading = title_block(seg, keep, title)
            if heading >= 0:
                keep[heading] = False
    if heading >= 0 and _opens_with(seg.blocks, keep, seg.blocks[heading].text):
        heading = -1
    settle_table_headers(seg.blocks, keep)
    repeats = drop_repeats(seg.blocks, keep, seg.tags, seg.nodes)
    text = seg.blocks[heading].text if heading >= 0 else None
    return Content(seg, keep, text, tuple(region), repeats)


def _opens_with(blocks: Sequence[Block], keep: bytearray, headline: str) -> bool:
    """Whether the kept blocks, before their first paragraph of prose, hold a heading
    that says the ``headline`` again (a page repeats its <h1> as the body's first <h3>,
    under a byline): the Markdown then shows that heading where the page has it rather
    than printing the headline twice."""
    wanted = _headline_key(headline)
    for index in _arrays.indices(keep):
        block = blocks[index]
        if is_prose(block):
            return False
        if block.kind in HEADINGS and _headline_key(block.text) == wanted:
            return True
    return False


def headings_over_kept(blocks: Sequence[Block], keep: bytearray) -> None:
    """Keep a section heading (<h2>-<h6>) whose section opens with a kept paragraph of
    prose: the block model doubts short blocks, and a heading it dropped over a kept
    paragraph left that section without its title. The headings above it go with it
    while each ranks above the one below ("Part 2" <h2> over "Costs" <h3>); a run of
    headings of one rank is a list of teasers, of which only the last heads the
    paragraph. The <h1> is the headline's, which title_block and dropped_heading
    settle. Measured on the WCXB dev pages' hand-made Markdown (bench --structure):
    heading F1 0.781 -> 0.787. Over any kept block (not only prose) and along any run
    of headings it read 0.790, but kept the teaser headings of "More like this"
    boxes: the news set lost 0.002 of word F1 (precision 0.905 -> 0.901)."""
    below = 0  # the rank (1-6) of the heading kept just below; 0: none
    following = False  # whether the block after the current heading run is kept prose
    kept = keep.copy()  # as it was: the loop keeps headings in ``keep``
    for i in range(len(blocks) - 1, -1, -1):
        block = blocks[i]
        kind = block.kind
        if kind in HEADINGS:
            rank = int(kind[1])
            if following and rank > 1 and (not below or rank < below):
                keep[i] = True
                below = rank
            else:
                following = False
        else:
            following = kept[i] and is_prose(block)
            below = 0


def settle_short(seg: Segmentation, keep: bytearray, exclude: int = 0) -> None:
    """Decide the short paragraphs (FLAG_SHORT) that the density score and the model do
    not see: one joins when kept blocks stand on both sides of it, or when the kept
    block beside it sits in the same container (a story's closing "Thanks for
    reading." stays, a lone "Advertisement" between two dropped widgets does not). A
    control never joins: a link to a place on the page or a link dressed as a button
    (_is_control)."""
    blocks = seg.blocks
    unseen = FLAG_SHORT | exclude
    short = [i for i, b in enumerate(blocks) if b.flags & FLAG_SHORT and not b.flags & exclude]
    if not short:
        return
    kept = keep.copy()
    n = len(blocks)
    # The nearest blocks on each side that the selection saw, for every block in two
    # passes: walking out from each short paragraph was quadratic on a page of
    # thousands of short ones (50,000 one-line cards: minutes).
    seen_before = [-1] * n
    seen_after = [n] * n
    last = -1
    for i in range(n):
        seen_before[i] = last
        if not blocks[i].flags & unseen:
            last = i
    last = n
    for i in range(n - 1, -1, -1):
        seen_after[i] = last
        if not blocks[i].flags & unseen:
            last = i
    for i in short:
        if _is_control(blocks[i]):
            keep[i] = False
            continue
        p, q = seen_before[i], seen_after[i]
        kept_p = p >= 0 and kept[p]
        kept_q = q < n and kept[q]
        path = blocks[i].path
        # The element holding the paragraph: the kept neighbour must lie inside it.
        container = path[-2] if len(path) >= 2 else -1
        keep[i] = (kept_p and kept_q) or any(
            k and container >= 0 and container in blocks[j].path
            for j, k in ((p, kept_p), (q, kept_q))
        )


# A link dressed as a button ("btn", "button", "cta" in its class): a control.
_BUTTON_CLASS = token_re(r"\w*btn\w*|\w*button\w*|cta\w*")


def _is_control(block: Block) -> bool:
    """A short paragraph that is only a link to a place on this page ("Back to top",
    "Skip to comments") or a link dressed as a button ("Add to cart", "Book Now"): a
    control of the page, not a sentence of the story."""
    if not block.nodes or block.link_chars < len(block.text.strip()):
        return False
    for node in block.nodes:
        link = node.parent
        button = False
        while link is not None and link.tag != "a":
            button = button or bool(_BUTTON_CLASS.search(link.attributes.get("class") or ""))
            link = link.parent
        if link is None:
            return False
        href = link.attributes.get("href") or ""
        button = button or bool(_BUTTON_CLASS.search(link.attributes.get("class") or ""))
        if not button and (not href.startswith("#") or href.startswith("#!")):
            return False
    return True


# lexbor's id of the <tr> tag: a row block's node is its <tr> (or the table's <caption>).
# Compared by id, not by name (.tag decodes the name: 4 ms over the 3,420 rows of the 4
# MiB page of bench --profile).
_ROW_TAG_ID = LexborHTMLParser("<table><tr><td>x</table>").css_first("tr").tag_id


def settle_table_headers(blocks: Sequence[Block], keep: bytearray) -> None:
    """A data table's first row heads the others: a table whose only kept row is its
    first keeps nothing (a header without rows says nothing), and one that keeps rows
    keeps its first as well (in Markdown the first row is the header; without it a
    kept row would become one, over no rows). A first row holding a cell's worth of
    text (LAYOUT_CELL_CHARS) heads nothing: it is the story of a page laid out with a
    table, which stays or goes on its own."""
    rows: dict[int, list[int]] = {}
    for index, block in enumerate(blocks):
        if block.flags & FLAG_ROW and block.nodes and block.nodes[0].tag_id == _ROW_TAG_ID:
            rows.setdefault(block.owner, []).append(index)
    if not rows:
        return
    kept = keep.copy()
    for indices in rows.values():
        if len(indices) < 2:
            continue
        first = indices[0]
        if len(blocks[first].text) >= LAYOUT_CELL_CHARS:
            continue
        keep[first] = any(kept[i] for i in indices[1:])


# A table repeats its own cells ("Yes", a price, a result shared by two rows): a block of
# a table cell stays whatever it repeats of the same table. Not a cell of this length or
# longer: that is a column of a page laid out with a table (a forum's post, a sidebar),
# whose repeats are widgets like any other.
LAYOUT_CELL_CHARS = 1200
_CELLS = frozenset({"td", "th"})
_QUOTES = frozenset({"blockquote", "q"})
_CODE = frozenset({"pre", "code"})
_TABLE = frozenset({"table"})


def _repeat_in_place(
    block: Block,
    first: Block,
    tags: list[str],
    nodes: Sequence[LexborNode] | None,
) -> bool:
    """Whether ``block``, which repeats the text of the kept ``first``, stays: code
    repeats its lines, and a table its cells (LAYOUT_CELL_CHARS). A quote does not: a
    reply quoting a post kept above prints it once."""
    path = block.path
    if innermost(tags, path, _CODE) >= 0:
        return True
    if innermost(tags, path, _QUOTES) >= 0:
        return False
    cell = innermost(tags, path, _CELLS)
    if cell < 0:
        return False
    table = innermost(tags, path, _TABLE)
    if table < 0 or table != innermost(tags, first.path, _TABLE):
        return False
    return nodes is None or len(nodes[cell].text(deep=True)) < LAYOUT_CELL_CHARS


def drop_repeats(
    blocks: Sequence[Block],
    keep: bytearray,
    tags: list[str] | None = None,
    nodes: Sequence[LexborNode] | None = None,
) -> bytearray:
    """Keep only the first of kept blocks with the same text (DUPLICATE_MIN_CHARS and
    longer; table rows and code excepted); return the blocks dropped as repeats.

    Given the segmentation's element ``tags`` (and ``nodes``), a repeat inside code, or
    inside a cell of the same table as its first copy, stays (_repeat_in_place); a
    widget repeated around the story (a newsletter box, a signature) goes.

    A repeat inside a quote goes as any other: a reply quoting a post of the page prints
    the post once, in the post (a quote shown above the post it quotes goes instead).
    The annotators differ here: WCXB's print a quoted post once, the news set's forum
    threads and CleanEval's twice. Keeping quotes lifted the news set's forums (word F1
    0.7995 -> 0.8030) and lowered WCXB's (0.8331 -> 0.8156), so they go.
    """
    repeats = bytearray(len(blocks))
    seen: dict[str, int] = {}
    for index in _arrays.indices(keep):
        block = blocks[index]
        text = block.text
        if len(text) < DUPLICATE_MIN_CHARS or block.kind in ("table", "pre"):
            continue
        first = seen.get(text)
        if first is None:
            seen[text] = index
        elif tags is None or not _repeat_in_place(block, blocks[first], tags, nodes):
            if (
                tags is not None
                and innermost(tags, blocks[first].path, _QUOTES) >= 0
                and innermost(tags, block.path, _QUOTES) < 0
            ):
                # The quote came first (a reply above the post it quotes): the post
                # stays, the quote goes.
                index, seen[text] = first, index
            keep[index] = False
            repeats[index] = True
    _drop_lines_repeated_inside(blocks, keep, repeats, seen)
    return repeats


def _drop_lines_repeated_inside(
    blocks: Sequence[Block], keep: bytearray, repeats: bytearray, seen: dict[str, int]
) -> None:
    """A kept block whose text is one line of another kept block (a summary box
    repeating the story's first sentence, where the story's lines are one block broken
    by <br>) goes: the longer block cannot print a line less. ``seen`` maps the text of
    each block drop_repeats kept once (DUPLICATE_MIN_CHARS and longer) to its index."""
    lines: dict[str, int] = {}
    for text, index in seen.items():
        if "\n" in text:
            for line in text.split("\n"):
                if len(line) >= DUPLICATE_MIN_CHARS:
                    lines.setdefault(line, index)
    if not lines:
        return
    for text, index in seen.items():
        if lines.get(text, index) != index and keep[index]:
            keep[index] = False
            repeats[index] = True
