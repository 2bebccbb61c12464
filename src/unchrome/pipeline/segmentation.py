"""The blocks a page is cut into, and the tables the cutting reads: what segment
produces (Block, Segmentation, the flags, the per-element name verdicts, the
Vocabulary of class/id words) and the tag sets and helpers its compiled walk
(``_dom.segment``) uses. Every later stage reads these; only ``segment`` and ``_dom``
make them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from selectolax.lexbor import LexborNode

# What a paragraph of prose is (is_prose, PROSE_CHARS): compiled, as the selection asks it
# of every block; named here with the blocks.
from unchrome._native._blocktext import PROSE_CHARS as PROSE_CHARS
from unchrome._native._blocktext import StemIndex, name_token_bits
from unchrome._native._blocktext import is_prose as is_prose
from unchrome.rules.names import (
    BODY_WORDS,
    CHROME_WORDS,
    SIDEBAR_NAME,
    body_name,
    by_first_letter,
)
from unchrome.rules.tags import BLOCK_TAGS, NO_TEXT

# Paragraphs shorter than this are flagged FLAG_SHORT: the density score and the block
# model never see them (the model was trained without them, at the default
# min_paragraph_chars), and they follow the blocks around them (select.settle_short).
SHORT_PARAGRAPH_CHARS = 20
# Line-break marker inside a block's buffer. NUL never reaches here: decode() and
# extract() strip it from the input.
BR = "\x00"

FLAG_IN_LINK = 1  # inside an <a> that wraps block elements (a card)
FLAG_ROW = 2  # one row of a data table
FLAG_SHORT = 4  # a paragraph under SHORT_PARAGRAPH_CHARS
FLAG_COMMENT = 8  # inside a comment section (prune.Pruned.comment_sections)
FLAG_SELECTED = 16  # inside an element that Config.include_selector matched

_NAME_SPLIT = re.compile(r"[^a-z0-9]+")
CHROME_NAMES = re.compile(rf"(?:^|[^a-z0-9])(?:{CHROME_WORDS})(?:$|[^a-z0-9])", re.I)
# The same test for lowercased ASCII names given a leading space: no re.I, and a
# pattern that starts with a character class, which sre scans for instead of trying
# every position (a miss cost ~13 us with the pattern above; see prune._names_verdict),
# its words grouped by their first letter (rules.names.by_first_letter).
_CHROME_GROUPED = by_first_letter(CHROME_WORDS)


@cache
def _chrome_names_ascii() -> re.Pattern[str]:
    """Compiled on first use: only names holding a post's body ask it (see
    _named_ascii), on 14% of the WCXB dev pages; 0.4 ms of every start otherwise."""
    return re.compile(rf"[^a-z0-9](?:{_CHROME_GROUPED})(?:$|[^a-z0-9])")


# Chrome or, failing it, the body of a post, in one search (see _named_ascii).
_CHROME_OR_BODY = re.compile(
    rf"[^a-z0-9](?P<chrome>{_CHROME_GROUPED})(?:$|[^a-z0-9])"
    rf"|\s(?P<body>{BODY_WORDS})(?:\s|$)"
)

# What the class/id words say of an element (Segmentation.named): nothing, in-story
# chrome (CHROME_NAMES), a sidebar, or the body of a post. Chrome is bit NAMED_CHROME:
# a sidebar is chrome too, a post's body is not.
# A sidebar: a class token or an id that is "sidebar" itself, the name pages written
# before <aside> give the column beside the story (Blogger's <div class="sidebar
# section" id="sidebar">, WordPress themes' id="sidebar"). Only the whole token:
# "content-sidebar-wrap" or "has-sidebar" name the layout around the story. Read as a
# word inside longer names, it lowered 52 pages (21 rose): WCXB dev 0.900 -> 0.879
# (articles -0.031), the news set -0.006, CleanPortalEval -0.033.
NAMED_NOTHING, NAMED_CHROME, NAMED_SIDEBAR, NAMED_BODY = 0, 1, 3, 4


@dataclass(slots=True)
class Block:
    """One paragraph-level run of text and where it sits."""

    kind: str  # tag of the innermost block element ("p", "h2", "li", "table", "pre", ...)
    text: str  # whitespace collapsed, lines joined with "\n"
    owner: int  # element id of the innermost block element (the <table> for its rows)
    link_chars: int  # characters of text inside <a>
    near_mask: int  # class/id words and tags of the owner and its parent (bit set)
    far_mask: int  # the same for every ancestor
    flags: int  # FLAG_* bits
    path: tuple[int, ...] = ()  # element ids of the block elements holding it
    # The text nodes its text came from, or the one element it reads whole (a <pre>,
    # a table row or caption, an element nested past max_depth): what the HTML and
    # Markdown renderings keep or leave out with the block.
    nodes: tuple[LexborNode, ...] = ()


@dataclass
class Segmentation:
    """The blocks of a subtree and the block elements that hold them.

    Element ids are assigned in document order, so a parent's id is always smaller
    than its children's.
    """

    blocks: list[Block] = field(default_factory=list)
    nodes: list[LexborNode] = field(default_factory=list)  # by element id
    tags: list[str] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)  # -1 for a root
    named: list[int] = field(default_factory=list)  # NAMED_* of the class/id words
    # The "class id" string of each element (None without either), as segment read it
    # for the names' verdicts: the container's class weight reads it again.
    class_ids: list[str | None] = field(default_factory=list)

    def view(self, exclude: int) -> tuple[Segmentation, list[int]]:
        """The blocks without any of the ``exclude`` flags, over the same elements, and
        the index of each in ``blocks``: what the density score and the model see."""
        index = [i for i, b in enumerate(self.blocks) if not b.flags & exclude]
        if len(index) == len(self.blocks):
            return self, index
        blocks = self.blocks
        seen = Segmentation([blocks[i] for i in index], self.nodes, self.tags, self.parents)
        seen.named = self.named
        seen.class_ids = self.class_ids
        return seen, index


class Vocabulary:
    """Class/id words and tag names mapped to bit positions, for the block model.

    ``words`` are matched as whole tokens of the class and id attributes (split on
    anything but letters and digits); ``stems`` as substrings, for words that sites glue
    to others ("commentlist", "sharebar"). Tags match by name. ``text_words`` are words
    of short blocks and headings ("share", "related"). Verdicts are cached per distinct
    class+id string: a page repeats its class strings hundreds of times.
    """

    def __init__(
        self,
        words: list[str] = (),  # type: ignore[assignment]
        stems: list[str] = (),  # type: ignore[assignment]
        tags: list[str] = (),  # type: ignore[assignment]
        text_words: list[str] = (),  # type: ignore[assignment]
    ) -> None:
        self.words = list(words)
        self.stems = list(stems)
        if any(not stem or _NAME_SPLIT.search(stem) for stem in self.stems):
            raise ValueError("stems are lowercase letters and digits (see _token_bits)")
        self.tags = list(tags)
        self.text_words = list(text_words)
        self.text_index = {w: i for i, w in enumerate(self.text_words)}
        self.size = len(self.words) + len(self.stems) + len(self.tags)
        self._word_bits = {w: 1 << i for i, w in enumerate(self.words)}
        base = len(self.words)
        # The stems inside a token are found by a compiled index (_blocktext.StemIndex):
        # a regex of all of them, grouped by first character, took 4 ms to compile at
        # the model's load, paid by every run of the command line. With empty caches
        # the dev pages meet 144 new tokens a page.
        self._stems = StemIndex(self.stems, [1 << (base + i) for i in range(len(self.stems))])
        base += len(self.stems)
        self.tag_bits = {t: 1 << (base + i) for i, t in enumerate(self.tags)}
        self._cache: dict[str, tuple[int, int]] = {}
        self._tokens: dict[str, int] = {}
        # ASCII names are split by the compiled name_token_bits, which yields no empty
        # token: unusable when "" is a word.
        self._ascii = "" not in self._word_bits

    def _token_bits(self, token: str) -> int:
        """The bits of one class/id token: its word, and every stem inside it. Stems
        are letters only, so a stem found in the lowered names lies inside one token:
        per token, the ~130 substring tests run once per distinct token instead of
        once per distinct class+id string (ids are mostly unique)."""
        bits = self._word_bits.get(token, 0) | self._stems.bits(token)
        if len(self._tokens) > 1 << 16:
            self._tokens.clear()
        self._tokens[token] = bits
        return bits

    def names(self, names: str) -> tuple[int, int]:
        """(bit set of the vocabulary words, NAMED_* of the names)."""
        verdict = self._cache.get(names)
        if verdict is not None:
            return verdict
        lowered = names.lower()
        if self._ascii and lowered.isascii():
            mask = name_token_bits(lowered, self._tokens, self._token_bits)
            named = _named_ascii(" " + lowered)
        else:
            mask = 0
            tokens = self._tokens
            for token in _NAME_SPLIT.split(lowered):
                bits = tokens.get(token)
                if bits is None:
                    bits = self._token_bits(token)
                mask |= bits
            named = NAMED_NOTHING
            if CHROME_NAMES.search(lowered):
                named = NAMED_SIDEBAR if SIDEBAR_NAME.search(lowered) else NAMED_CHROME
            elif body_name().search(lowered):
                named = NAMED_BODY
        verdict = (mask, named)
        if len(self._cache) > 1 << 16:
            self._cache.clear()
        self._cache[names] = verdict
        return verdict


def _named_ascii(text: str) -> int:
    """NAMED_* of lowercased ASCII names given a leading space: the chrome and body
    tests in one search (_CHROME_OR_BODY), which most names match in neither. Chrome
    wins over a body: the alternation tries it first at each position, so a body found
    first leaves chrome only further on. Two searches cost 1.9 us a new string on the
    WCXB dev pages, this one 1.1 us, with the same verdicts on all their 107,000."""
    found = _CHROME_OR_BODY.search(text)
    if found is None:
        return NAMED_NOTHING
    if found.lastgroup != "chrome" and not _chrome_names_ascii().search(text, found.start() + 1):
        return NAMED_BODY
    return NAMED_SIDEBAR if SIDEBAR_NAME.search(text) else NAMED_CHROME


EMPTY_VOCABULARY = Vocabulary()


# The text of a heading's permalink: a sign standing for "link" (an icon-only one holds
# no text, and the HTML rendering drops it as an empty link), or a zero-width space
# (Docusaurus' hash-link: ``## Features\u200b`` in Markdown, and in the heading's text).
# Compiled on first use: only a link to a fragment inside a heading asks, on one page
# in fourteen (WCXB dev); 0.2 ms of every start otherwise.
@cache
def _permalink_text() -> re.Pattern[str]:
    return re.compile(r"^[\s#¶§🔗\uf0c1\u200b\u2060\ufeff]*$")


# The words of a heading's tools: a wiki's "[edit]" (MediaWiki writes its brackets in
# spans around the link), a documentation page's "[source]", a blog's "permalink".
_HEADING_TOOL_TEXT = re.compile(
    r"^\s*\[?\s*(?:edit(?:\s+(?:section|source))?|source|view\s+source|permalink)\s*\]?\s*$",
    re.I,
)


def _is_permalink(link: LexborNode) -> bool:
    """A heading's permalink anchor or one of its tools (documentation generators, wikis,
    blogs), given a link or a span inside a heading: a link to a fragment whose text
    is a sign, or the fragment; or a link (or a span around one) that says "edit" or
    "[source]". It is no word of the heading, and its text is read as none: in
    Markdown it would be ``## Title[¶](…#x)``. Tested here, on the links and spans
    inside headings only, rather than in prune, where finding them took one more
    walk of the whole tree (0.17 ms at the median WCXB dev page)."""
    text = link.text(deep=True)
    if _HEADING_TOOL_TEXT.match(text):
        return link.tag == "a" or link.css_first("a") is not None
    if link.tag != "a":
        return False
    href = link.attrs.get("href") or ""
    if "#" not in href:
        return False
    # A sign, or the fragment itself printed as the link's text ("#section2").
    return bool(_permalink_text().match(text)) or text.strip() == href.strip()


# What segment() does with an element, by its tag.
_TEXT, _BR, _PRE, _TABLE, _SKIP, _INLINE, _BLOCK = range(7)


def _action(tag: str) -> int:
    """_TEXT: a text node; _BR: a line break; _PRE: read whole; _TABLE: read row by
    row when it holds data (_dom._is_data_table), else walked as a block; _SKIP: no text of its own
    (comments, images, media fallback); _INLINE / _BLOCK: walked, a block element
    (custom elements, "my-widget", count as blocks) ending the block before it."""
    if tag == "-text":
        return _TEXT
    if tag == "br":
        return _BR
    if tag == "pre":
        return _PRE
    if tag == "table":
        return _TABLE
    if tag in NO_TEXT or tag.startswith("-"):
        return _SKIP
    return _BLOCK if tag in BLOCK_TAGS or "-" in tag else _INLINE
