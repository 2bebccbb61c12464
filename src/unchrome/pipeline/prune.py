"""Prune: remove what is never main content, from the whole page, before scoring.

Scoring counts characters, so everything a reader never sees (scripts, hidden
elements, form controls) and the well-known widget patterns (ads, share bars, cookie
banners, comment widgets) must be gone first, or their text would vote for whatever
container holds them. Link lists are *not* pruned here: a link-heavy block can only be
judged inside the chosen body (see select.select_blocks). Comment sections stay in the
tree, named: the blocks inside them carry a flag, and the selection decides whether
the page is a discussion whose comments are its content.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial

from unchrome._native._dom import (
    attached,
    first_heading,
    hidden_attributes,
    in_code,
    named_kind,
    neighbour_text,
    prune_census,
    slug_id,
    text_length,
)
from unchrome.pipeline.parse import LexborHTMLParser, LexborNode
from unchrome.rules.names import (
    COMMENT_WORDS,
    CONSENT_WORDS,
    LAYOUT_WORDS,
    NOISE_WORDS,
    ranked_by_first_letter,
)
from unchrome.rules.tags import HEADINGS, NEVER_CONTENT

# The lexbor tag ids of rules.tags.NEVER_CONTENT: static for the tags lexbor knows,
# which all of these are (tests/test_pipeline checks each against a parsed element; an
# unknown tag's id would point into the throwaway document below). The pass that removes
# them walks the elements and filters by tag id: a lexbor selector list costs about one
# walk of the tree per selector, and the list of these tags (23 then) took 0.36 ms at
# the median dev page against 0.16 ms for the walk (prune_page 1.13 -> 0.94 ms).
# body.traverse() rather than body.css("*"), which builds a list of every element first
# (on a hostile page of a million <br>, 1.5 s and 81 MB against 0.8 s and none). Same
# elements in the same order on the dev pages: a type selector matches by tag id, inside
# <svg> too. The walk is compiled now (_dom.prune_census): it makes a node object for
# the matches alone.
# Read off one parser, as metadata.common._tag_ids reads its own: a parser per tag took
# 0.6 ms at import.
_PROBE = LexborHTMLParser("")
_NEVER_CONTENT_IDS = frozenset(_PROBE.create_node(tag).tag_id for tag in NEVER_CONTENT)
del _PROBE

# A <form> around the whole page (ASP.NET does this) must survive; a search or login
# form must not. Forms with less visible text than this are controls, not content.
FORM_MAX_TEXT = 400

# BEM names double the separator ("tab__content", "c-accordion__panel").
_PANEL = re.compile(
    r"(?:^|[^a-z0-9])(?:tab[-_]{0,2}(?:pane|panel|content)\w*"
    r"|accordion[-_]{0,2}(?:panel|content|body|collapse)\w*)",
    re.I,
)
# React Fizz numbers its streamed segments in hexadecimal ("S:0" ... "S:2e").
_REACT_SEGMENT = re.compile(r"S:[0-9a-f]+$")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def token_re(words: str, outside: str = "a-z0-9") -> re.Pattern[str]:
    """``words`` as whole tokens: at either end of the string or next to a character
    outside ``outside``, whatever the case."""
    return re.compile(rf"(?:^|[^{outside}])(?:{words})(?:$|[^{outside}])", re.I)


def _ascii_token_re(words: str, outside: str = "a-z0-9") -> re.Pattern[str]:
    """The same test as ``token_re(words, outside)`` for ASCII text that was lowercased
    and given a leading space (see _names_verdict)."""
    return re.compile(rf"[^{outside}](?:{words})(?:$|[^{outside}])")


_CONTENT_WORDS_ASCII = _ascii_token_re(LAYOUT_WORDS, "a-z")


# The consent, noise and comment words in one search, their alternatives grouped by
# first letter (rules.names.ranked_by_first_letter): the one search most class strings
# (92% of the distinct ones on the WCXB dev pages) need, 1.6 µs instead of 2.9 µs with
# the plain alternation. Each list's words under a letter are a capturing group of
# their own, consent's first, then noise's, then comments': the group that matches at a
# separator is the first of the three with a word there, and the words after the
# separator are a lookahead, so the next search starts at the next character and no
# separator goes untried (see _ascii_verdict). It replaced a pattern per list beside
# this one, the same words compiled twice: 1.4 ms of every start of the command line.
# Besides the grouping, "\w*signature\w*" is left to a substring test: between
# separators it matches wherever "signature" occurs (\w* reaches both ends of the word,
# and a word ends at a separator or at the end), and as the one pattern not starting
# with a letter it was tried in full at every separator.
_SIGNATURE = r"|\w*signature\w*"
_WIDGET_WORDS, _WIDGET_RANKS = ranked_by_first_letter(
    [CONSENT_WORDS, NOISE_WORDS.replace(_SIGNATURE, ""), COMMENT_WORDS]
)
_WIDGET_ASCII = re.compile(rf"[^a-z0-9](?=(?:{_WIDGET_WORDS})(?:$|[^a-z0-9]))")
assert _WIDGET_ASCII.groups == len(_WIDGET_RANKS) - 1  # no capturing group in the words
LAYOUT_WRAPPER_MIN_TEXT = 500
WIDGET_MAX_PAGE_SHARE = 0.4

_EXEMPT_TAGS = frozenset({"html", "body", "article", "main"})
# Landmarks that are navigation by definition.
_NAV_ROLES = frozenset({"navigation", "banner", "contentinfo", "menubar", "menu", "search"})
_EXEMPT_ROLES = frozenset({"main", "article"})
# What _dom.named_kind says of an element named like a widget: its tag or role exempts
# it (_EXEMPT_TAGS, _EXEMPT_ROLES), it is a link, or neither.
_OTHER, _EXEMPT, _LINK = 0, 1, 2

# NOT_NOISE is 0: _dom.prune_census leaves out the names cached as 0.
NOT_NOISE, NOISE, NOISE_UNLESS_WRAPPER, COMMENTS, ALWAYS_NOISE = 0, 1, 2, 3, 4


# Class tokens that say a widget is absent or hidden ("no-comments", "hide-read-more-ad",
# "ad-free"). On the WCXB dev pages such tokens sit on widgets' would-be places and, on
# one magazine, on every card of its listing (that page 0.27 -> 0.88 word F1; listing
# 0.771 -> 0.777; two other pages +0.002 and -0.003).
_NEGATED = re.compile(
    r"(?<![\w-])(?:(?:no|hide|hidden|without|disabled?)[-_][\w-]*|[\w-]*[-_]free)(?![\w-])",
    re.I,
)

# WordPress's post_class() marks a post's element with "hentry" (or "type-post" and
# "status-publish") and one class per category and tag of the post: "category-reviews",
# "tag-social-media". Those name the post's subjects. On one Dragnet game review, the
# class "category-reviews" made the whole story a comment section (customer reviews are
# a product page's comments). Typepad does the same with "entry-type-post" and
# "entry-category-camera_reviews", "entry-author-..." classes: two Dragnet blog posts
# (categories "camera_reviews" and "book_reviews") lost their whole story to it.
_WP_POST = re.compile(
    r"(?<![\w-])(?:hentry|type-post|status-publish|entry-type-post)(?![\w-])", re.I
)


# Compiled on first use: only a widget's name on a WordPress post's element asks (1% of
# the WCXB dev pages).
@cache
def _wp_terms() -> re.Pattern[str]:
    return re.compile(
        r"(?<![\w-])(?:category|tag)-[\w-]+|(?<![\w-])entry-(?:category|tag|author)-[\w-]+", re.I
    )


# One cache per include_comments value, keyed by the "class id" string.
_VERDICTS: tuple[dict[str, int], dict[str, int]] = ({}, {})
_VERDICT_CACHE_MAX = 1 << 16


# The verdict each capturing group of _WIDGET_ASCII stands for (by group number).
_WIDGET_VERDICTS = tuple((ALWAYS_NOISE, NOISE, COMMENTS)[rank] for rank in _WIDGET_RANKS)


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """The case-blind patterns, compiled when a page first has a non-ASCII name (0.2%
    of the names): with re.I over whole word lists they took 2.7 ms to compile, paid
    at import by every run of the command line."""
    return (
        token_re(CONSENT_WORDS),
        token_re(NOISE_WORDS),
        token_re(LAYOUT_WORDS, "a-z"),
        token_re(COMMENT_WORDS),
    )


def _ascii_verdict(text: str, include_comments: bool) -> int:
    """_verdict of lowercased ASCII names given a leading space, by _WIDGET_ASCII: the
    first list with a word at each separator (consent, noise, comments), the verdict
    the first of them anywhere gives."""
    noise = "signature" in text  # the one noise word _WIDGET_ASCII leaves out
    comments = False
    search = _WIDGET_ASCII.search
    found = search(text)
    while found is not None:
        verdict = _WIDGET_VERDICTS[found.lastindex]  # type: ignore[index]  # a group matched
        if verdict == ALWAYS_NOISE:
            return ALWAYS_NOISE
        if verdict == NOISE:
            noise = True
        else:
            comments = True
        found = search(text, found.end())
    if noise:
        return NOISE_UNLESS_WRAPPER if _CONTENT_WORDS_ASCII.search(text) else NOISE
    return COMMENTS if comments and not include_comments else NOT_NOISE


def _verdict(text: str, include_comments: bool, patterns: tuple[re.Pattern[str], ...]) -> int:
    consent, noise, content, comments = patterns
    if consent.search(text):
        return ALWAYS_NOISE
    if noise.search(text):
        return NOISE_UNLESS_WRAPPER if content.search(text) else NOISE
    if not include_comments and comments.search(text):
        return COMMENTS
    return NOT_NOISE


def _names_verdict(names: str, include_comments: bool) -> int:
    """What the class and id words say. Cached: a page repeats its class strings
    hundreds of times and sites of one CMS share them, so the regexes run once per
    distinct string. Hot callers look the cache up themselves (see _named_noise) and
    only miss here.

    Misses stay frequent (ids are unique; the 1,497 WCXB dev pages hold 273,000
    distinct "class id" strings), and with case-insensitive patterns that begin with
    "^ or a separator" sre tries every position: a miss cost 13.6 µs, the top cost of
    this stage. ASCII strings (all but 0.2%) therefore take a path giving the same
    verdicts in 2.9 µs: lowercased, the patterns need no re.I (they are lowercase, and
    only non-ASCII letters such as "ſ" or "K" fold onto ASCII ones); a leading space
    stands in for "^", so each pattern starts with a character class sre can scan
    for; and one combined search settles the common no-widget case.
    """
    cache = _VERDICTS[include_comments]
    verdict = cache.get(names)
    if verdict is not None:
        return verdict
    if names.isascii():
        verdict = _ascii_verdict(" " + names.lower(), include_comments)
    else:
        verdict = _verdict(names, include_comments, _patterns())
    if verdict != NOT_NOISE and _NEGATED.search(names):
        # "no-comments", "hide-read-more-ad": a state flag saying the widget is absent.
        verdict = _names_verdict(_NEGATED.sub(" ", names), include_comments)
    if verdict != NOT_NOISE and _WP_POST.search(names):
        # A WordPress post's own element: its category and tag classes name its
        # subjects ("category-reviews", "tag-sharing"), not a widget.
        verdict = _names_verdict(_wp_terms().sub(" ", _WP_POST.sub(" ", names)), include_comments)
    if len(cache) >= _VERDICT_CACHE_MAX:
        cache.clear()
    cache[names] = verdict
    return verdict


def _text_length(node: LexborNode) -> int:
    """Length of the visible text under ``node``: its text nodes, stripped, joined
    (``len(node.text(deep=True, strip=True, skip_empty=True))``).

    Counted in compiled code (_dom.text_length) without making the strings: ASCII
    and well-formed UTF-8 in place, anything else decoded as selectolax decodes it.
    Most of the time is the walk over lexbor's nodes, which selectolax pays too: for
    the pruned body, 0.097 against 0.111 ms at the median WCXB pages; prune_page
    0.285 -> 0.266 ms at the median news pages, 0.354 -> 0.341 ms at the WCXB ones.
    """
    return text_length(node)


# A hidden element holding this much text with few links is content that a script
# reveals (a product's description in a collapsed or deferred block, a size guide in a
# drawer), not a widget: menus are mostly links, pop-ups short.
HIDDEN_PROSE_MIN_CHARS = 1000
HIDDEN_PROSE_MAX_LINK_SHARE = 0.2
# Collapsed disclosure / accordion panels (see _is_hidden) with links under this share
# of their text stay. On the WCXB dev pages such panels of 20+ characters: 108 hold
# hand-checked content, 97 do not (currency pickers, licence notes: the block model
# weighs those); 223 more are half links or more, menus. Measured with the retrained
# model, WCXB dev word F1 0.888 -> 0.890 (collection +0.013, service +0.007, product
# +0.003, listing -0.004), out of fold 0.866 -> 0.868.
ACCORDION_MAX_LINK_SHARE = 0.5

# Documentation and wiki generators name a section after its heading
# (id="sharing-with-a-single-developer"), and the words of a heading may be widget
# words. Such an id of at least this many words does not make its element a widget;
# shorter ones ("share-this", "comments") are the widgets' own names. On Readability.js's
# test pages a Sphinx page lost four fifths of its text to the id above (agreement
# 0.894 -> 0.899 over the 130 pages); on the WCXB dev pages 12 pages up, 6 down (none
# by more than 0.003), no type moved by 0.001.
HEADING_ANCHOR_MIN_WORDS = 3
_ALNUM_WORD = re.compile(r"[a-z0-9]+")

_LETTER = re.compile(r"[^\W\d_]")  # see _in_running_text
# Widget words that a link names for what it opens or covers (see _named_noise).
_OPENER_WORDS = re.compile(r"(?<![a-z0-9])(?:lightbox\w*|overlay)(?![a-z0-9])", re.I)


def _is_hidden(node: LexborNode, widget_max_chars: float, controlled: frozenset[str]) -> bool:
    """Hidden chrome to remove. ``controlled``: the ids that buttons with aria-expanded
    name in aria-controls (disclosure panels).

    The attributes are read off lexbor's element (_dom.hidden_attributes) rather than
    through node.attributes and its gets: prune_page 0.330 -> 0.314 ms at the median
    WCXB pages, within noise at the news ones (fewer hidden elements)."""
    flagged, style, ident, role, names, labelled = hidden_attributes(node)
    if not (flagged or _HIDDEN_STYLE.search(style or "")):
        return False
    # Hidden, unless it holds most of the page: scripts reveal such wrappers (a
    # product page inside style="display: none" until its bundle runs; React
    # streaming SSR parks the resolved body in <div hidden id="S:0">).
    if _REACT_SEGMENT.match(ident or ""):
        return False
    # Tab and accordion panels are hidden for layout, not because they are chrome:
    # documentation keeps one code sample per language in them, product pages their
    # specifications.
    if role == "tabpanel" or _PANEL.search(names or ""):
        return False
    size = _text_length(node)
    if size > widget_max_chars:
        return False
    # So are disclosure and accordion panels: the element a button with aria-expanded
    # names in aria-controls, or the WAI-ARIA accordion's role="region" labelled by its
    # header button (a product's shipping terms and specifications, a service page's
    # FAQ answers). Sites collapse their menus the same way: a menu is mostly links.
    panel = ident in controlled or (role == "region" and bool(labelled))
    prose = size >= HIDDEN_PROSE_MIN_CHARS
    if not (panel or prose):
        return True
    links = _link_chars(node)  # once, for whichever of the two tests applies
    if panel and links < ACCORDION_MAX_LINK_SHARE * size:
        return False
    return not (prose and links < HIDDEN_PROSE_MAX_LINK_SHARE * size)


def _link_chars(node: LexborNode) -> int:
    return sum(len(a.text(deep=True, strip=True, skip_empty=True)) for a in node.css("a"))


def _is_nav_landmark(node: LexborNode) -> bool:
    return node.tag not in _EXEMPT_TAGS and node.attrs.get("role") in _NAV_ROLES


def _in_running_text(node: LexborNode) -> bool:
    """Whether an inline element sits inside a sentence: words right before or after
    it in the same parent. A glossary link named "popup" in the middle of prose is
    part of the sentence (Readability.js's clean-links page lost one word in twenty
    to such links). Only links are spared: screen-reader spans ("sr-only",
    "visually-hidden") also sit inside sentences, and sparing them cost five WCXB
    shop pages 0.04 to 0.33 of word F1."""
    return _LETTER.search(neighbour_text(node)) is not None


def _in_code(node: LexborNode) -> bool:
    """Whether the node lies inside <pre> or <code>. Syntax highlighters name their
    spans "comment" (highlight.js's hljs-comment, Prism's "token comment"), and
    pruning them cut the comments out of code samples: code blocks stay whole. (Only
    "comment" among their class names is a widget word, so only comment verdicts
    pay for this walk up the tree: asked of every widget, it cost 2% of a page.) The
    WCXB annotators disagree with themselves here (two translations of one React
    page: +0.012 and -0.015); documentation F1 is unchanged at 0.948."""
    return in_code(node)


def _is_heading_anchor(node: LexborNode, ident: str, least: int = HEADING_ANCHOR_MIN_WORDS) -> bool:
    """Whether ``ident`` is the slug of the node's own heading (its first h1-h6, or
    itself), as documentation and wiki generators name sections and headings; ids of
    fewer than ``least`` words are not read as one.

    Ads and widgets often carry ids of three words or more ("div-gpt-ad-1234"), so
    the heading is searched for often: found by a compiled walk (_dom.first_heading)
    instead of a lexbor selector list of six, prune_page 0.256 -> 0.224 ms at the
    median news pages, 0.316 -> 0.309 ms at the WCXB ones."""
    words = _ALNUM_WORD.findall(ident.lower())
    if len(words) < least:
        return False
    heading = first_heading(node)  # node.css_first("h1, h2, h3, h4, h5, h6"), itself included
    if heading is None:
        return False
    title = _ALNUM_WORD.findall(heading.text(deep=True).lower())
    # WordPress prefixes its heading ids with one word ("h-what-are-reviews").
    return bool(title) and (words == title or words[1:] == title)


def _named_noise(
    nodes: list[tuple[LexborNode, str]],
    include_comments: bool,
    widget_max_chars: float,
    comments: list[LexborNode],
    article_body_marked: bool,
) -> list[LexborNode]:
    """The elements whose class or id words mark them as widgets (the comment
    sections among them also go to ``comments``), from (element, "class id") pairs
    (_dom.prune_census: the compiled walk reads both attributes off lexbor's element).

    The census leaves out the elements whose names have a cached NOT_NOISE verdict
    (most of a page's); of the rest, a cached verdict is read inline with one dict
    lookup (a helper call per element cost a third of the stage).

    What is read of an element (its tag, role, id, the text beside a link) comes
    from lexbor's structs (_dom.named_kind, slug_id, neighbour_text, in_code), the
    tag and role first, since they exempt an element whatever its id says. Through
    selectolax (node.id, node.tag, node.attrs, a walk up node.parent) these reads
    cost about half the loop's time past the verdicts: prune_page 0.278 -> 0.253 ms
    at the median news pages, 0.347 -> 0.314 ms at the WCXB ones.
    """
    cache = _VERDICTS[include_comments]
    doomed: list[LexborNode] = []
    for node, names in nodes:
        verdict = cache.get(names)
        if verdict is None:
            verdict = _names_verdict(names, include_comments)
        if verdict == NOT_NOISE:
            continue
        kind = named_kind(node)
        if kind == _EXEMPT:
            continue
        # A heading named after its own words, however few (<h2 id="promotion">
        # Promotion</h2>, id="share-prices"), carries its anchor, not a widget's name:
        # pruned for it, a story lost its section headings. A heading whose id is not
        # its words (WordPress's <h3 id="comments">53 Responses to ...</h3>, id="respond"
        # over its comment form) is still named by it: kept, those cost eight Dragnet
        # pages 0.002 to 0.077 of word F1.
        least = 1 if node.tag in HEADINGS else HEADING_ANCHOR_MIN_WORDS
        ident = slug_id(node, least)
        if ident is not None and _is_heading_anchor(node, ident, least):
            # The id names the section after its heading ("sharing-with-a-single-
            # developer"): only the class can call it a widget.
            names = f"{node.attrs.get('class') or ''} "
            verdict = _names_verdict(names, include_comments)
            if verdict == NOT_NOISE:
                continue
        if kind == _LINK:
            if _in_running_text(node):
                continue
            # A link named after what it opens or covers (an image's lightbox, the
            # overlay link that makes a whole product card clickable) is not inside
            # that widget. Measured: WCXB dev 2 pages changed (a shoe shop's product
            # names +0.080, another shop -0.005). Links named "popup" or "modal" stay
            # widgets: they are UI actions ("+ wishlist", "Get reward points"), and
            # sparing them cost two shop pages 0.024 and 0.031.
            verdict = _names_verdict(_OPENER_WORDS.sub(" ", names), include_comments)
            if verdict == NOT_NOISE:
                continue
        if verdict == COMMENTS and _in_code(node):
            continue
        if verdict == COMMENTS:
            # A comment thread may outweigh the story: size says nothing. It stays
            # in the tree, named (see Pruned.comment_sections).
            comments.append(node)
            continue
        if verdict == ALWAYS_NOISE:
            # A consent centre may outweigh the story too.
            doomed.append(node)
            continue
        size = _text_length(node)
        if verdict == NOISE_UNLESS_WRAPPER and size >= LAYOUT_WRAPPER_MIN_TEXT:
            continue
        # No widget holds most of a page's text: an element that does is a wrapper
        # with an unlucky name (id="overlay-section") or swallowed the story through
        # unclosed markup (a share-button div left open around the article), and so
        # is one that holds the element marked as the article's body.
        if size <= widget_max_chars and not (article_body_marked and _holds_article_body(node)):
            doomed.append(node)
    return doomed


def _holds_article_body(node: LexborNode) -> bool:
    """Whether the element holds the one its page marks as the article's body
    (schema.org microdata, itemprop="articleBody"): then it is a wrapper whatever its
    name says. One CMS of the Dragnet pages opens a "share_wrapper" div that its
    markup never closes around the story; seven of its articles lost the whole story
    to it (Dragnet 0.879 -> 0.884, no page of another set changed)."""
    return node.css_first(_ARTICLE_BODY) is not None


_ARTICLE_BODY = '[itemprop~="articleBody" i]'


@dataclass(frozen=True, slots=True)
class Pruned:
    removed: int  # elements removed
    # The comment sections, by mem_id, left in the tree for segment to flag
    # (FLAG_COMMENT). Ids, not nodes: a section inside a removed widget goes with it,
    # and its id is then only never met again by segment's walk.
    comment_sections: frozenset[int]


def prune_page(
    tree: LexborHTMLParser,
    *,
    include_comments: bool = False,
    exclude_selector: str | None = None,
    should_remove: Callable[[LexborNode], bool] | None = None,
) -> Pruned:
    """Remove never-content elements from the whole document; say how many.

    One walk finds the elements each pass judges (_dom.prune_census); each pass then
    judges those still in the tree after the passes before it removed theirs.
    """
    body = tree.body
    if body is None:
        return Pruned(0, frozenset())
    disclosures, never, forms, hidden, roles, named, text_chars, article_bodies = prune_census(
        body,
        _NEVER_CONTENT_IDS,
        _VERDICTS[include_comments],
        partial(_names_verdict, include_comments=include_comments),
    )
    removed = 0
    # Read before the buttons go with the never-content elements.
    controlled = frozenset(
        ident for n in disclosures for ident in (n.attrs.get("aria-controls") or "").split()
    )
    if exclude_selector:
        removed += _decompose_all(tree.css(exclude_selector))
    removed += _decompose_all(attached(never))
    small_forms = [(f, _text_length(f)) for f in attached(forms)]
    small_forms = [(f, size) for f, size in small_forms if size < FORM_MAX_TEXT]
    # The page's text once they are gone: the census's count (which left the never
    # elements out) less the forms' (read while they are in the tree), or a count of
    # what the caller's selector left.
    body_chars = None if exclude_selector else text_chars - _outermost_chars(small_forms)
    removed += _decompose_all([f for f, _ in small_forms])
    if body_chars is None:
        body_chars = _text_length(body)
    widget_max_chars = WIDGET_MAX_PAGE_SHARE * body_chars
    removed += _decompose_all(
        [n for n in attached(hidden) if _is_hidden(n, widget_max_chars, controlled)]
    )
    removed += _decompose_all([n for n in attached(roles) if _is_nav_landmark(n)])
    comments: list[LexborNode] = []
    removed += _decompose_all(
        _named_noise(
            attached(named),
            include_comments,
            widget_max_chars,
            comments,
            # One look at the page, not one at each widget's subtree: most pages mark
            # no article body (the looks cost 0.08 ms a WCXB page). The census found
            # them; those the removals took are no longer attached.
            bool(attached(article_bodies)),
        )
    )
    comment_ids = frozenset(node.mem_id for node in comments)
    if should_remove is not None:
        removed += _decompose_all([n for n in body.traverse() if should_remove(n)])
    return Pruned(removed, comment_ids)


def _outermost_chars(removed: list[tuple[LexborNode, int]]) -> int:
    """The text length of elements to remove (given with their lengths), an element
    inside another counted once, with it. Asked while they are in the tree."""
    ids = {node.mem_id for node, _ in removed}
    total = 0
    for node, size in removed:
        parent = node.parent
        while parent is not None and parent.mem_id not in ids:
            parent = parent.parent
        if parent is None:
            total += size
    return total


def _decompose_all(nodes: list[LexborNode]) -> int:
    """Decompose nodes given in document order.

    Going backwards removes every descendant before its ancestor, so no node is
    touched after the subtree holding it was taken out of the tree (forwards, a nested
    match would be; selectolax 1.0.2's decompose unlinks the nodes and frees none, see
    _dom.prune_census).
    """
    for node in reversed(nodes):
        node.decompose()
    return len(nodes)
