"""What an HTML page points at: its links (``<a href>``, after ``<base href>``) and the
feeds it announces (``<link rel=alternate>`` of an RSS, Atom or JSON Feed type).

All links of the page, not only those of its main content: the navigation is how a
crawler reaches the rest of the site. ``rel=nofollow`` links are left out.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from unchrome.urls import resolve

FEED_LINK_TYPES = frozenset(
    {"application/rss+xml", "application/atom+xml", "application/feed+json", "application/json"}
)
# A page with more links than this is a link farm or a trap; the rest are ignored.
MAX_LINKS = 20_000


def _parse(html: bytes | str) -> LexborHTMLParser:
    return LexborHTMLParser(html if isinstance(html, str) else html.decode("utf-8", "replace"))


def _base(tree: LexborHTMLParser, url: str) -> str:
    base = tree.css_first("base[href]")
    href = base.attributes.get("href") if base is not None else None
    return resolve(url, href) or url if href else url


def page_links(html: bytes | str, url: str, *, limit: int = MAX_LINKS) -> list[str]:
    """The absolute targets of the page's ``<a href>``, in document order, at most
    ``limit`` (not yet normalised or filtered)."""
    tree = _parse(html)
    base = _base(tree, url)
    out: list[str] = []
    for node in tree.css("a[href]"):
        attrs = node.attributes
        if "nofollow" in (attrs.get("rel") or "").lower().split():
            continue
        target = resolve(base, attrs.get("href"))
        if target:
            out.append(target)
            if len(out) >= limit:
                break
    return out


def feed_links(html: bytes | str, url: str) -> list[str]:
    """The feeds the page announces, absolute."""
    tree = _parse(html)
    base = _base(tree, url)
    out: list[str] = []
    for node in tree.css("link[href]"):
        attrs = node.attributes
        rel = (attrs.get("rel") or "").lower().split()
        kind = (attrs.get("type") or "").split(";", 1)[0].strip().lower()
        if "alternate" in rel and kind in FEED_LINK_TYPES:
            target = resolve(base, attrs.get("href"))
            if target:
                out.append(target)
    return out
