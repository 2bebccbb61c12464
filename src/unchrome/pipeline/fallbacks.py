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

from unchrome.pipeline.parse import LexborNode
from unchrome.rules.formats import ARC_METADATA_ID, DISCOURSE_STORE, NEXT_DATA_ID

_FUSION = re.compile(r"Fusion\.globalContent\s*=\s*")
_JSON = json.JSONDecoder()
# What reading an embedded payload may raise: malformed JSON, or JSON nested past the
# parser's stack (100,000 "[" raise RecursionError). Either way the payload is skipped
# and extraction goes on.
_UNREADABLE = (ValueError, RecursionError)
# Keys under which Next.js props and other app states usually keep a story body.
# "desc": a news app that server-renders a cut teaser ("...") keeps the whole story
# there (8 of the news set's Chinese pages, recall 0.12-0.40 without it).
_BODY_KEYS = frozenset(
    {"articlebody", "body", "content", "bodyhtml", "contenthtml", "html", "text", "story",
     "articletext", "fulltext", "description", "desc"}
)  # fmt: skip
# A JSON string shorter than this is a teaser, not a body.
MIN_JSON_BODY_CHARS = 200
# Bound the walk over app state: some __NEXT_DATA__ blobs hold megabytes of props.
MAX_JSON_NODES = 200_000


def _items(value: object) -> list[object]:
    """``value`` when it is a JSON array, else nothing: app state is input, and a number
    where a list belongs ("content_elements": 1) must not be iterated."""
    return value if isinstance(value, list) else []


def arc_xp_body(scripts: list[str]) -> str | None:
    """HTML from Arc XP ``Fusion.globalContent.content_elements``."""
    for script in scripts:
        match = _FUSION.search(script)
        if not match:
            continue
        try:
            content, _ = _JSON.raw_decode(script, match.end())
        except _UNREADABLE:
            continue
        if not isinstance(content, dict):
            continue
        parts: list[str] = []
        for element in _items(content.get("content_elements")):
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
                    for i in _items(element.get("items"))
                    if isinstance(i, dict) and isinstance(i.get("content"), str)
                ]
                if items:
                    tag = "ol" if element.get("list_type") == "ordered" else "ul"
                    parts.append(f"<{tag}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{tag}>")
            elif kind == "quote":
                inner = [
                    i.get("content")
                    for i in _items(element.get("content_elements"))
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
    except _UNREADABLE:
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
    except _UNREADABLE:
        return None
    if not isinstance(store, dict):
        return None
    for key, value in store.items():
        if not key.startswith("topic_") or not isinstance(value, str):
            continue
        try:
            topic = json.loads(value)
        except _UNREADABLE:
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


# The elements embedded_body reads besides JSON-LD: Next.js's data script, Arc XP's
# (every Arc XP page in the dev and news sets names its script "fusion-metadata"),
# Discourse's preloaded store and the server-rendered <noscript> copies. They are found
# in one compiled walk of the page with what classify reads (_dom.page_elements).
# Searching the markup for their names instead cost 0.4 ms a page on the WCXB dev
# pages (three substring searches over 300 KB).


@dataclass(frozen=True, slots=True)
class Sources:
    """What the embedded formats are read from, taken from the tree before pruning
    removes the scripts and <noscript> that hold them: the page is parsed once."""

    fusion_scripts: tuple[str, ...] = ()
    next_data: str | None = None
    preloaded: str | None = None
    noscript: str | None = None  # the largest <noscript>'s markup (Flarum puts whole
    # threads there for clients without JavaScript)


NO_SOURCES = Sources()


def sources(elements: list[LexborNode]) -> Sources:
    """The embedded sources of the page, read before pruning removes them, from its
    ``elements`` that may hold one (_dom.page_elements)."""
    fusion: list[str] = []
    next_data = preloaded = noscript = None
    noscript_chars = MIN_JSON_BODY_CHARS
    for node in elements:
        if node.tag == "noscript":
            size = len(node.text(deep=True, strip=True))
            if size > noscript_chars:
                noscript, noscript_chars = node.inner_html, size
        elif node.id == NEXT_DATA_ID:
            next_data = node.text(deep=True)
        elif node.id == ARC_METADATA_ID:
            fusion.append(node.text(deep=True))
        else:
            preloaded = node.attrs.get(DISCOURSE_STORE)
    if not (fusion or next_data or preloaded or noscript):
        return NO_SOURCES
    return Sources(tuple(fusion), next_data, preloaded, noscript)


def embedded_body(found: Sources, json_ld: list[dict[str, Any]]) -> str | None:
    """The first embedded body found, in order of how precisely its format is known."""
    return (
        arc_xp_body(list(found.fusion_scripts))
        or discourse_body(found.preloaded)
        or json_ld_body(json_ld)
        or next_data_body(found.next_data)
        or found.noscript
    )
