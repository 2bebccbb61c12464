"""Parse: HTML text to a DOM, repaired as a browser would, with markup guards.

Lexbor (through selectolax) is an HTML5-conformant parser written in C. On the WCXB
dev pages it parses in about 1.8 ms a page on this machine, roughly 3x faster than
lxml, and it repairs broken markup with the browser algorithm, which lxml's libxml2
HTML parser does not. It also parses a 100,000-deep document without recursing.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser, LexborNode

from unchrome._native._dom import swallowed_by_noscript
from unchrome._native._markup import (
    RAW_TEXT_NAMES,
    VOID_NAMES,
    max_tag_depth,
    opens_tag,
    over_attribute_cap,
    tag_opens,
)

__all__ = [
    "LexborHTMLParser",
    "LexborNode",
    "guard_markup",
    "parse",
]


def parse(markup: str | bytes) -> LexborHTMLParser:
    """Parse ``markup`` (guarded first) into a tree: a str, or the UTF-8 bytes of one
    (decode.Decoded.utf8), which lexbor reads as they are where the guard leaves them
    so (every real page). No stage walks the tree recursively: segment reads an
    element nested past ``Config.max_depth`` whole, and so does the HTML rendering.
    """
    guarded = guard_markup(markup)
    tree = LexborHTMLParser(guarded)
    if opens_tag(guarded, "noscript") and _swallowed_by_noscript(tree):
        text = guarded.decode("utf-8") if isinstance(guarded, bytes) else guarded
        tree = LexborHTMLParser(drop_broken_noscript_bodies(text))
    return tree


# Lexbor's tree builder scans the stack of open elements for every block start tag,
# so its time grows with the square of the nesting: 100,000 nested <div> took 15 s
# to parse (10,000: 0.15 s). Nesting cannot exceed the number of tags, so a document
# with fewer than TAG_COUNT_GUARD '<' parses in well under a second whatever its
# shape; only larger ones pay for the Python pass that caps the nesting first: 14 of
# the 1,497 WCXB dev pages (1-3 MB, up to 21,646 '<').
TAG_COUNT_GUARD = 16_384
MARKUP_DEPTH_CAP = 1024
_VOID_TAGS = frozenset(VOID_NAMES)


def guard_markup(markup: str | bytes) -> str | bytes:
    """``markup`` with its nesting capped when it has enough tags to be dangerous, and
    no element holding more than MAX_ATTRIBUTES attributes; a str, or the UTF-8 bytes
    of one, which come back as they are where nothing is capped and as a str where
    something is.

    Idempotent, so callers that parse the same text twice can run it once and parse
    the result. Ordinary pages come back as they are: one count of '<' and one
    compiled scan for a tag over the attribute cap (on UTF-8 bytes, 0.06 ms at the
    median news page; on the str, the count and the scan took 0.23 ms).
    """
    if isinstance(markup, bytes):
        # The str path below on the bytes, where it would change nothing: the depth
        # read only past TAG_COUNT_GUARD '<', the regex walk only over the cap. A large
        # page is read as it is (decoding 4 MiB to read it, and encoding it again for
        # lexbor, cost 8 ms).
        shallow = tag_opens(markup) <= TAG_COUNT_GUARD or (
            max_tag_depth(markup) <= MARKUP_DEPTH_CAP
        )
        if shallow and not over_attribute_cap(markup, MAX_ATTRIBUTES):
            return markup
        markup = markup.decode("utf-8")
    if markup.count("<") > TAG_COUNT_GUARD:
        markup = cap_tag_depth(markup, MARKUP_DEPTH_CAP)
    return cap_attributes(markup)


# Lexbor looks every new attribute up among the element's earlier ones, so its time
# grows with the square of the attributes of one element: one element with 25,000
# distinct attributes took 1.6 s to parse, 100,000 (1 MB) 38 s, 200,000 161 s, and
# the processing deadline cannot interrupt the parse. The most on one element of the
# 2,027 real pages at hand (the WCXB dev split, the news set, the Readability test
# pages) is 136, on one page (a div); the next are 71 and 70. The cap leaves almost
# twice that, and bounds a page packed with capped elements: 4 MiB of elements with
# 256 short distinct attributes each parses in 0.5-0.6 s (512 each: 0.8-1.0 s, 1,000
# each: 1.4-1.7 s; one each: 0.19 s).
MAX_ATTRIBUTES = 256
_WS = "\t\n\f\r "
# One attribute, as the HTML tokenizer reads it: a name (its first character may be
# '='), then optionally '=' and a value, quoted (up to the same quote, or the end of
# the text) or not. Possessive quantifiers: no backtracking, one pass over the text.
_ATTRIBUTE = (
    rf"[^{_WS}/>][^{_WS}/>=]*+"
    rf"(?:[{_WS}]*+=[{_WS}]*+(?:\"[^\"]*+\"?|'[^']*+'?|[^{_WS}>]*+))?+"
)
_ATTRIBUTES = rf"(?:[{_WS}/]*+{_ATTRIBUTE})"
_TAG_END = rf"[{_WS}/]*+(?:>|\Z)"
# The walk reads the raw-text elements (RAW_TEXT_NAMES) up to their own end tag:
# walking them as markup stopped in scripts ("for(a=0; a<n.length;" read as a tag) on
# 17 of the real pages.


def _raw_body(name: str) -> str:
    # A backreference to the start tag's name would do, but CPython 3.11's possessive
    # repeats mistrack a capture group inside them (SystemError): one alternative a name.
    return rf"(?:[^<]++|<(?!/(?i:{name})(?=[{_WS}/>])))*+"


def _walk_pattern(cap: int) -> re.Pattern[str]:
    """The walk of cap_attributes over tags of at most ``cap`` attributes: it stops
    at the first tag with more (or runs to the end of the text)."""
    return re.compile(
        r"(?:[^<]++"
        r"|<!---?>|<!--(?:[^-]++|-(?!-!?>))*+(?:--!?>)?"
        + "".join(
            rf"|<(?i:{name})(?=[{_WS}/>]){_ATTRIBUTES}{{0,{cap}}}+{_TAG_END}{_raw_body(name)}"
            for name in RAW_TEXT_NAMES
        )
        + rf"|<(?i:plaintext)(?=[{_WS}/>])(?s:.*)"
        rf"|</?[A-Za-z][^{_WS}/>]*+{_ATTRIBUTES}{{0,{cap}}}+{_TAG_END}"
        rf"|<(?!/?[A-Za-z]))*+"
    )


class _CapPatterns(NamedTuple):
    walk: re.Pattern[str]
    kept: re.Pattern[str]
    excess: re.Pattern[str]
    raw_after: dict[str, re.Pattern[str]]


@cache
def _cap_patterns() -> _CapPatterns:
    """The regexes of cap_attributes, compiled when a page first needs them: no real
    page has a tag over the cap, and the walk's pattern alone took 2.9 ms to compile,
    paid at import by every run of the command line."""
    return _CapPatterns(
        walk=_walk_pattern(MAX_ATTRIBUTES),
        # At a tag over the cap: its name and first MAX_ATTRIBUTES attributes, what
        # follows them up to its '>', and the raw text after a raw-text element's
        # start tag.
        kept=re.compile(rf"<(/?)([A-Za-z][^{_WS}/>]*+){_ATTRIBUTES}{{{MAX_ATTRIBUTES}}}+"),
        excess=re.compile(rf"{_ATTRIBUTES}*+"),
        # After a raw-text element's capped start tag: its '>' and its raw text.
        raw_after={name: re.compile(_TAG_END + _raw_body(name)) for name in RAW_TEXT_NAMES},
    )


def cap_attributes(text: str) -> str:
    """``text`` with the attributes past the first MAX_ATTRIBUTES of every tag dropped.

    One regex walk over the text; only a page with a tag over the cap pays for more,
    and that stays linear. The walk follows the tokenizer in HTML content. It does not
    follow the tree builder into <svg> and <math>, where <style> and <title> hold
    markup, nor a script's "<!--<script>" escapes, so a page built against the walk
    there could still hand the parser an uncapped tag.
    """
    # The compiled scanner answers first whether any tag is over the cap (on real
    # pages none is): 0.7 ms of regex walk at the mean page, a tenth of that in C.
    if not over_attribute_cap(text, MAX_ATTRIBUTES):
        return text
    patterns = _cap_patterns()
    end = len(text)
    stop = patterns.walk.match(text).end()
    if stop == end:
        return text
    pieces: list[str] = []
    last = 0
    while stop < end:
        kept = patterns.kept.match(text, stop)
        if kept is None:  # the walk stops only at such a tag; never loop on one
            break
        pieces.append(text[last : kept.end()])
        last = patterns.excess.match(text, kept.end()).end()
        resume = last
        raw = patterns.raw_after.get(kept.group(2).lower()) if not kept.group(1) else None
        if raw is not None:
            # Walked as markup, a '<' in its raw text (a script's) would read as a tag.
            resume = raw.match(text, last).end()
        stop = patterns.walk.match(text, resume).end()
    pieces.append(text[last:])
    return "".join(pieces)


# Lexbor parses as a browser with scripting off, reading <noscript> bodies as markup;
# browsers run scripts and read them as plain text up to </noscript>. The difference
# shows when a noscript body is broken: Google Tag Manager's <noscript><iframe ...>
# written without </iframe> (2 of the 1,497 WCXB dev pages) opens an iframe whose raw
# text swallows the rest of the page, and a landing page came out as 240 KB of markup
# (word F1 0.03). The bodies stay (app shells such as Flarum's server-render the page
# there, see fallbacks.noscript_body); a body whose raw text would run past
# </noscript> is dropped, and the page parsed again. The symptom is looked for
# in the tree (a compiled walk, _dom.swallowed_by_noscript), not in the text (a search
# of the whole text: 0.06 ms at the median page), on pages that have a noscript at all
# (a scan for its start tag: the walk of a 4 MiB page's tree takes 5 ms).
_RAW_TEXT_TAGS = frozenset(RAW_TEXT_NAMES)


def _swallowed_by_noscript(tree: LexborHTMLParser) -> bool:
    """Whether a raw-text element inside a <noscript> holds the noscript's end tag."""
    root = tree.root
    return root is not None and swallowed_by_noscript(root)


# Compiled on first use, as _tag below: only a page whose <noscript> swallowed the
# rest of it asks (see parse).
@cache
def _raw_text_start() -> re.Pattern[str]:
    return re.compile(rf"<({'|'.join(sorted(_RAW_TEXT_TAGS))})\b", re.I)


def drop_broken_noscript_bodies(text: str) -> str:
    """``text`` without the <noscript> bodies that open a raw-text element (<iframe>,
    <textarea>, <style>, ...) and leave it open. Closing the element instead is not
    enough: inside a <div> of the body, lexbor then ignores </noscript> and the page
    still ends up inside the noscript. A browser running scripts shows none of it.

    Plain substring searches for the lowercase tag (a case-blind regex over the page
    cost 0.19 ms at the median WCXB page). Each search starts past the previous body,
    so hostile input (20,000 unclosed <noscript>) stays linear.
    """
    pieces: list[str] = []
    last = 0
    start = text.find("<noscript")
    while start >= 0:
        body_start = text.find(">", start) + 1
        end = text.find("</noscript", body_start) if body_start else -1
        if end < 0:
            break
        opened = {name.lower() for name in _raw_text_start().findall(text, body_start, end)}
        if opened:
            body = text[body_start:end].lower()
            if any(f"</{name}" not in body for name in opened):
                pieces.append(text[last:body_start])
                last = end
        start = text.find("<noscript", end)
    return "".join(pieces) + text[last:] if pieces else text


# A tag as the tokenizer reads it (its attributes as in cap_attributes), a
# self-closing '/' read off the match's end. The "[^<>]*>" this replaces saw no tag
# where a quoted value holds a '<': 100,000 nested <div title="<"> went uncapped and
# took 28 s of CPU to end in a TIMEOUT. The third group is the '>' of a tag whose
# last character before it is a '/' (also one ending an unquoted value), empty
# otherwise: such a tag opens nothing.
@cache
def _tag() -> re.Pattern[str]:
    """Compiled on first use: only a page nested past the cap (none real) needs it;
    0.25 ms of every start otherwise."""
    return re.compile(
        rf"<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^{_WS}/>]*+{_ATTRIBUTES}*+[{_WS}/]*+(?:(?<=/)(>)|>)"
    )


def cap_tag_depth(text: str, cap: int) -> str:
    """Drop start and end tags nested deeper than ``cap``, keeping their text. A text
    that does not nest past ``cap`` (every real page) comes back as it is: the
    compiled _markup.max_tag_depth reads the depth as this loop does, in C (a 4 MiB
    page: about 60 ms as a findall and a cumulative sum, 7 ms in C)."""
    if max_tag_depth(text) <= cap:
        return text
    out: list[str] = []
    depth = 0
    last = 0
    void = _VOID_TAGS
    for match in _tag().finditer(text):
        closing, name, slash = match.group(1, 2, 3)
        end = match.end()
        if slash or name.lower() in void:
            continue
        if closing:
            drop = depth > cap
            depth = max(0, depth - 1)
        else:
            depth += 1
            drop = depth > cap
        if drop:
            out.append(text[last : match.start()])
            out.append(" ")
            last = end
    out.append(text[last:])
    return "".join(out)
