"""Parse: HTML text to a DOM, repaired as a browser would, with markup guards.

Lexbor (through selectolax) is an HTML5-conformant parser written in C. On the WCXB
dev pages it parses in about 1.8 ms a page on this machine, roughly 3x faster than
lxml, and it repairs broken markup with the browser algorithm, which lxml's libxml2
HTML parser does not. It also parses a 100,000-deep document without recursing.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

__all__ = [
    "LexborHTMLParser",
    "LexborNode",
    "guard_markup",
    "parse",
]


def parse(text: str) -> LexborHTMLParser:
    """Parse ``text`` (its markup guarded first) into a tree. No stage walks it
    recursively: segment reads an element nested past ``Config.max_depth`` whole, and
    so does the HTML rendering.
    """
    text = guard_markup(text)
    tree = LexborHTMLParser(text)
    if _swallowed_by_noscript(tree):
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
_VOID = "area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr"
# The attributes are matched greedily up to the '>' and a self-closing '/' read off
# the match's end: the lazy "[^<>]*?(/?)>" it replaces tried the end at every
# character: 40 ms a page on those 14 pages instead of 18 ms, for the same output.
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^<>]*>")
_VOID_TAGS = frozenset(_VOID.split("|"))


def guard_markup(text: str) -> str:
    """``text`` with its nesting capped when it has enough tags to be dangerous.

    Idempotent and cheap on ordinary pages (one str.count), so callers that parse the
    same text twice can run it once and parse the result.
    """
    if text.count("<") > TAG_COUNT_GUARD:
        return cap_tag_depth(text, MARKUP_DEPTH_CAP)
    return text


# Lexbor parses as a browser with scripting off, reading <noscript> bodies as markup;
# browsers run scripts and read them as plain text up to </noscript>. The difference
# shows when a noscript body is broken: Google Tag Manager's <noscript><iframe ...>
# written without </iframe> (2 of the 1,497 WCXB dev pages) opens an iframe whose raw
# text swallows the rest of the page, and a landing page came out as 240 KB of markup
# (word F1 0.03). The bodies stay (app shells such as Flarum's server-render the page
# there, see fallbacks.noscript_body); a body whose raw text would run past
# </noscript> is dropped, and the page parsed again. The symptom is looked for
# in the tree (0.01 ms: lexbor lists the noscript elements), not in the text (a search
# of the whole text: 0.06 ms at the median page).
_RAW_TEXT_TAGS = frozenset(
    {"iframe", "textarea", "title", "style", "xmp", "script", "noembed", "noframes"}
)


def _swallowed_by_noscript(tree: LexborHTMLParser) -> bool:
    """Whether a raw-text element inside a <noscript> holds the noscript's end tag."""
    walked: set[int] = set()  # nested noscripts are walked with their outermost one
    for noscript in tree.tags("noscript"):
        if noscript.mem_id in walked:
            continue
        for node in noscript.traverse():
            tag = node.tag
            if tag == "noscript":
                walked.add(node.mem_id)
            elif tag in _RAW_TEXT_TAGS and "</noscript" in node.text():
                return True
    return False


_RAW_TEXT_START = re.compile(rf"<({'|'.join(sorted(_RAW_TEXT_TAGS))})\b", re.I)


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
        opened = {name.lower() for name in _RAW_TEXT_START.findall(text, body_start, end)}
        if opened:
            body = text[body_start:end].lower()
            if any(f"</{name}" not in body for name in opened):
                pieces.append(text[last:body_start])
                last = end
        start = text.find("<noscript", end)
    return "".join(pieces) + text[last:] if pieces else text


def cap_tag_depth(text: str, cap: int) -> str:
    """Drop start and end tags nested deeper than ``cap``, keeping their text."""
    out: list[str] = []
    depth = 0
    last = 0
    void = _VOID_TAGS
    for match in _TAG.finditer(text):
        closing, name = match.group(1, 2)
        end = match.end()
        if text[end - 2] == "/" or name.lower() in void:
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
