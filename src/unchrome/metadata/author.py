"""The author: JSON-LD, meta, then a byline in the page."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from unchrome._native._dom import bylines, itemprop
from unchrome.metadata.common import _clean, _hint, _looks_like_url, _node_text
from unchrome.metadata.dates import _MONTH_ALT
from unchrome.metadata.jsonld import _LD

_BY_RE = re.compile(r"^(?:(?:posted|written)\s+)?by\b\s*[:\-]?\s*", re.IGNORECASE)
_MAX_BYLINE = 100
# Inside a byline block, the other people the page credits: "Reviewed by Robert
# Tschudi, Expert Reviewer", "Updated by Jon Linkov" are not its authors.
_OTHER_ROLE_RE = re.compile(
    r"(?:(?:medically\s+)?reviewed|updated|edited|fact[\s-]?checked|photos?|illustrations?)\s+by\b",
    re.IGNORECASE,
)


def _clean_author(value: str | None) -> str | None:
    value = _clean(value)
    if not value or _looks_like_url(value) or len(value) >= _MAX_BYLINE:
        return None
    value = _BY_RE.sub("", value).strip()
    return value or None


# Parts of a byline block that are not the name: "Games Editor", bios, dates, avatars.
_NOT_NAME_RE = re.compile(r"title|bio|date|time|avatar|photo|image|img|role|job|social|follow")
_SKIP_TAGS = frozenset(("html", "body", "meta", "link", "script", "style", "img", "svg"))


# A date glued to the name in byline blocks: "Joe Wee Monday, February 29, 2016 @ 11:10 PM".
_DATE_TAIL_RE = re.compile(
    r"[\s,|•·@-]*\b(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?"
    rf"\.?,?\s+)?(?:(?:{_MONTH_ALT})\.?\s+\d{{1,2}}\b|\d{{1,2}}\.?\s+(?:{_MONTH_ALT})\b"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}).*$",
    re.IGNORECASE,
)


_DATELINE_RE = re.compile(r"^(?:last\s+)?(?:updated|published|posted|modified)$", re.IGNORECASE)


def _byline_text(node: LexborNode) -> str | None:
    """Cleaned author text of an element, ``None`` if empty, too long, or only a date."""
    author = _clean_author(_node_text(node))
    if author:
        author = _DATE_TAIL_RE.sub("", author).strip(" ,|•·@-:") or None
        if author and _DATELINE_RE.match(author):
            return None  # "Last Updated: January 7, 2025" is a dateline, not a byline
    return author


def _usable(node: LexborNode) -> bool:
    if node.tag in _SKIP_TAGS:
        return False
    cls = (node.attributes.get("class") or "").lower()
    # Comment threads mark every commenter as an "author".
    return "comment" not in cls


def _dom_byline(tree: LexborHTMLParser) -> str | None:
    """Author from the first byline-looking element, narrowed to the name inside it.

    Byline blocks often wrap the name with a role, a date or a "By" label
    (``<div class=author><a>Ben Silverman</a><div class=author-title>Games Editor``).
    When the block contains nested byline-ish elements, the innermost ones that are not
    titles/dates/bios hold the name(s); several of them are joined ("A, B").
    """
    root = tree.root
    # The real byline sits near the top; don't scan comment threads: 30 matches at most.
    for node in bylines(root, 30) if root is not None else ():
        author = _byline_at(node)
        if author is not None:
            return author
    return None


def _byline_at(node: LexborNode) -> str | None:
    """The author ``node`` names if it is a usable byline element, else ``None``."""
    if not _usable(node) or _NOT_NAME_RE.search(_hint(node)):
        return None
    author = _byline_text(node)
    if not author:
        return None
    names: list[str] = []
    for inner in bylines(node, 10):
        if not _usable(inner) or _NOT_NAME_RE.search(_hint(inner)):
            continue
        text = _byline_text(inner)
        if not text or text.casefold() in ("by", "von", "par", "por") or _OTHER_ROLE_RE.match(text):
            continue
        # Keep the innermost: drop an earlier kept element that contains this one.
        if names and text in names[-1]:
            names[-1] = text
        elif text not in names:
            names.append(text)
    itemprop_name = itemprop(node, "name")
    if itemprop_name is not None and (text := _byline_text(itemprop_name)):
        return text
    return ", ".join(names) if names else author


def _pick_author(tree: LexborHTMLParser, metas: dict[str, str], ld: _LD) -> str | None:
    if ld.article is not None:
        # Only "author": "creator" is in practice often a CMS user handle ("CC7567").
        raw = ld.get("author")
        names: list[str] = []
        for name in ld.names(raw):
            cleaned = _clean_author(name)
            if cleaned and cleaned not in names:
                names.append(cleaned)
        if names:
            return ", ".join(names)
    for key in (
        "dc:creator",
        "dcterm:creator",
        "author",
        "og:article:author",
        "parsely-author",
        "article:author",
        "sailthru:author",
        "byl",
        "itemprop:author",
    ):
        author = _clean_author(metas.get(key))
        if author:
            return author
    return _dom_byline(tree)
