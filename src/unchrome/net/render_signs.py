"""When a page is worth rendering in a browser (Config.render "auto"): its static
extraction is thin and its HTML shows signs of being built by its scripts (an empty app
root, a plea to enable JavaScript)."""

from __future__ import annotations

import re

from unchrome.result import Result

MiB = 1024 * 1024

# Elements client-side frameworks render into: empty in the HTML, filled by a script.
_APP_ROOTS = (
    "#root, #app, #__next, #__nuxt, #___gatsby, #svelte, #main-app, #react-root, "
    "[data-reactroot], app-root, [ng-version]"
)
_ALMOST_EMPTY = 40  # characters: "Loading…" and a spinner's label are not content
_JS_PLEA = re.compile(r"\bjavascript\b|\bjs\b", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
# Below this many characters of text a static extraction is "thin": a teaser, a
# cookie line, a title alone.
THIN_CHARS = 200


def client_rendering_sign(html: bytes | str, limit: int = 4 * MiB) -> str | None:
    """The sign that ``html`` is built by its scripts in the browser, or None.

    Signs: an app root (``#root``, ``#app``, ``#__next``, ``app-root``...) with no text
    in it, a ``noscript`` asking for JavaScript, or a body of scripts and no text.
    """
    from selectolax.lexbor import LexborHTMLParser

    if isinstance(html, bytes):
        # The signs are ASCII markup: no charset detection needed to see them.
        html = html[:limit].decode("utf-8", "replace")
    tree = LexborHTMLParser(html[:limit])
    for node in tree.css(_APP_ROOTS):
        if len(node.text(deep=True, strip=True)) < _ALMOST_EMPTY:
            name = node.attributes.get("id") or node.tag
            return f"an empty app root ({name})"
    for node in tree.css("noscript"):
        # A noscript's content is raw text to the parser: drop the tags (a tracking
        # pixel's "?js=0" is no plea), read what a person would.
        if _JS_PLEA.search(_TAG.sub(" ", node.text(deep=True))):
            return "a noscript asking for JavaScript"
    body = tree.body
    if body is not None and body.css_first("script") is not None:
        tree.strip_tags(["script", "style", "noscript", "template", "svg"])
        body = tree.body
        if body is None or len(body.text(deep=True, strip=True)) < _ALMOST_EMPTY:
            return "a body of scripts and no text"
    return None


def is_thin(result: Result | None) -> bool:
    """No result (the extraction failed), no body, or a body of a few words."""
    return result is None or not result.has_body or len(result.text.strip()) < THIN_CHARS


def should_render(html: bytes | str, static: Result | None) -> bool:
    """``render="auto"``'s condition: the static extraction is thin or failed, and the
    page shows client-rendering signs."""
    return is_thin(static) and client_rendering_sign(html) is not None
