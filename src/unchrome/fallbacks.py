"""Fallbacks: find the story when the DOM holds less than ``min_body_chars``.

Script-rendered pages ship their story as data. The rules here are keyed by the
*format* of that data, never by host name: Arc XP's ``Fusion.globalContent`` with typed
``content_elements``, schema.org ``articleBody`` in JSON-LD, and Next.js's
``__NEXT_DATA__`` when one of its props carries the body, and the server-rendered
``<noscript>`` copy some app shells keep. Each returns HTML so that the
normal renderers turn it into text and Markdown.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any

from .parse import LexborHTMLParser, LexborNode

_FUSION = re.compile(r"Fusion\.globalContent\s*=\s*")
_JSON = json.JSONDecoder()
# Keys under which Next.js props and other app states usually keep a story body.
_BODY_KEYS = frozenset(
    {"articlebody", "body", "content", "bodyhtml", "contenthtml", "html", "text", "story",
     "articletext", "fulltext", "description"}
)  # fmt: skip
# A JSON string shorter than this is a teaser, not a body.
MIN_JSON_BODY_CHARS = 200
# Bound the walk over app state: some __NEXT_DATA__ blobs hold megabytes of props.
MAX_JSON_NODES = 200_000


def arc_xp_body(scripts: list[str]) -> str | None:
    """HTML from Arc XP ``Fusion.globalContent.content_elements``."""
    for script in scripts:
        match = _FUSION.search(script)
        if not match:
            continue
        try:
            content, _ = _JSON.raw_decode(script, match.end())
        except ValueError:
            continue
        if not isinstance(content, dict):
            continue
        parts: list[str] = []
        for element in content.get("content_elements") or []:
            if not isinstance(element, dict):
                continue
            kind = element.get("type")
            value = element.get("content")
            if kind == "text" and isinstance(value, str):
                parts.append(f"<p>{value}</p>")
            elif kind == "header" and isinstance(value, str):
                level = element.get("level") if isinstance(element.get("level"), int) else 2
                level = min(max(level, 1), 6)
                parts.append(f"<h{level}>{value}</h{level}>")
            elif kind == "list":
                items = [
                    i.get("content")
                    for i in element.get("items") or []
                    if isinstance(i, dict) and isinstance(i.get("content"), str)
                ]
                if items:
                    tag = "ol" if element.get("list_type") == "ordered" else "ul"
                    parts.append(f"<{tag}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{tag}>")
            elif kind == "quote":
                inner = [
                    i.get("content")
                    for i in element.get("content_elements") or []
                    if isinstance(i, dict) and isinstance(i.get("content"), str)
                ]
                if inner:
                    parts.append(
                        "<blockquote>" + "".join(f"<p>{i}</p>" for i in inner) + "</blockquote>"
                    )
        if parts:
            return "".join(parts)
    return None


def has_type(item: dict[str, Any], name: str) -> bool:
    """Whether a JSON-LD object's ``@type`` (a string or a list of them) is ``name``."""
    kind = item.get("@type")
    return name in kind if isinstance(kind, list) else kind == name


def json_ld_body(json_ld: list[dict[str, Any]]) -> str | None:
    """HTML from the longest schema.org ``articleBody`` / ``text`` in JSON-LD, or a
    Product's ``description``: the product pages that render client-side keep their
    description there and show little else in the DOM."""
    best = ""
    for item in json_ld:
        if not isinstance(item, dict):
            continue
        product = has_type(item, "Product")
        for key in ("articleBody", "text", "description") if product else ("articleBody", "text"):
            value = item.get(key)
            if isinstance(value, str) and len(value) > len(best):
                best = value
    if len(best) < MIN_JSON_BODY_CHARS:
        return None
    return _text_or_html(best)


def next_data_body(script: str | None) -> str | None:
    """HTML from the longest body-like string in Next.js ``__NEXT_DATA__``."""
    if not script:
        return None
    try:
        data = json.loads(script)
    except ValueError:
        return None
    best = ""
    # Iterative walk: app state can be deep, and recursion would be a crash vector.
    stack: list[Any] = [data]
    visited = 0
    while stack and visited < MAX_JSON_NODES:
        value = stack.pop()
        visited += 1
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, str) and key.lower() in _BODY_KEYS and len(item) > len(best):
                    best = item
                elif isinstance(item, dict | list):
                    stack.append(item)
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, dict | list))
    if len(best) < MIN_JSON_BODY_CHARS:
        return None
    return _text_or_html(best)


def _text_or_html(value: str) -> str:
    """A JSON body may be HTML or plain text with newlines; give HTML either way."""
    if re.search(r"<(?:p|div|br|h[1-6]|ul|ol|li|blockquote)\b", value, re.I):
        return value
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n|\r?\n", value) if p.strip()]
    return "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)


def discourse_body(preloaded: str | None) -> str | None:
    """HTML of the posts in Discourse's preloaded store (``#data-preloaded``).

    Discourse serves browsers an empty shell and the whole thread as JSON in an
    attribute: ``{"topic_N": "<json string>"}`` with ``post_stream.posts[].cooked``.
    Four of the 112 WCXB forum pages are Discourse threads with no posts in the DOM.
    """
    if not preloaded:
        return None
    try:
        store = json.loads(preloaded)
    except ValueError:
        return None
    if not isinstance(store, dict):
        return None
    for key, value in store.items():
        if not key.startswith("topic_") or not isinstance(value, str):
            continue
        try:
            topic = json.loads(value)
        except ValueError:
            continue
        posts = (topic.get("post_stream") or {}).get("posts") if isinstance(topic, dict) else None
        if not isinstance(posts, list):
            continue
        parts = []
        for post in posts:
            if not isinstance(post, dict) or not isinstance(post.get("cooked"), str):
                continue
            author = html.escape(str(post.get("username") or ""))
            parts.append(f"<article><div>{author}</div><div>{post['cooked']}</div></article>")
        if parts:
            return "".join(parts)
    return None


def noscript_body(tree: LexborHTMLParser) -> str | None:
    """HTML of the largest ``<noscript>`` block, for app shells that server-render the
    page for clients without JavaScript there (Flarum puts whole threads in it)."""
    best: LexborNode | None = None
    best_len = MIN_JSON_BODY_CHARS
    for node in tree.css("body noscript"):
        size = len(node.text(deep=True, strip=True))
        if size > best_len:
            best, best_len = node, size
    return best.inner_html if best is not None else None


# Strings without which embedded_body can only find the JSON-LD body: the Arc XP
# script, Discourse's preloaded data, Next.js's data script, <noscript>.
_TREE_MARKERS = ("Fusion.globalContent", "data-preloaded", "__NEXT_DATA__")
_NOSCRIPT = re.compile("<noscript", re.I)


@dataclass(frozen=True, slots=True)
class Sources:
    """What the embedded formats are read from, taken from the tree before pruning
    removes the scripts and <noscript> that hold them: the page is parsed once."""

    fusion_scripts: tuple[str, ...] = ()
    next_data: str | None = None
    preloaded: str | None = None
    noscript: str | None = None


NO_SOURCES = Sources()


def sources(tree: LexborHTMLParser, markup: str) -> Sources:
    """The embedded sources of the page; none without reading the tree when the markup
    names no format that needs it (most pages: json_ld_body alone is left)."""
    if not any(marker in markup for marker in _TREE_MARKERS) and not _NOSCRIPT.search(markup):
        return NO_SOURCES
    fusion: tuple[str, ...] = ()
    if "Fusion.globalContent" in markup:
        fusion = tuple(
            text
            for s in tree.css("script:not([src])")
            if "Fusion.globalContent" in (text := s.text(deep=True) or "")
        )
    next_data = preloaded = None
    if "__NEXT_DATA__" in markup:
        script = tree.css_first("script#__NEXT_DATA__")
        next_data = script.text(deep=True) if script is not None else None
    if "data-preloaded" in markup:
        node = tree.css_first("#data-preloaded[data-preloaded]")
        preloaded = node.attrs.get("data-preloaded") if node is not None else None
    return Sources(fusion, next_data, preloaded, noscript_body(tree))


def embedded_body(found: Sources, json_ld: list[dict[str, Any]]) -> str | None:
    """The first embedded body found, in order of how precisely its format is known."""
    return (
        arc_xp_body(list(found.fusion_scripts))
        or discourse_body(found.preloaded)
        or json_ld_body(json_ld)
        or next_data_body(found.next_data)
        or found.noscript
    )
