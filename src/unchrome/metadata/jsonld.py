"""JSON-LD: read leniently (sites ship broken JSON), flattened, and queried by type."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from selectolax.lexbor import LexborNode

from unchrome.metadata.common import _clean
from unchrome.rules.formats import ARTICLE_TYPES

_TRAILING_COMMA_RE = re.compile(r",\s*([}\]])")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

# Main-content types that are not articles. Only used when no article object exists,
# because news pages routinely embed VideoObjects for clips beside the story.
_SECONDARY_TYPES = frozenset(
    t.casefold() for t in ("Review", "Recipe", "HowTo", "VideoObject", "PodcastEpisode", "QAPage")
)


def _unwrap(text: str) -> str:
    """Strip ``<![CDATA[ ... ]]>`` / ``<!-- ... -->`` wrappers (also ``//``-commented).

    Plain string operations: end-anchored regexes rescan the whole script at every
    position, which costs milliseconds on 50 kB JSON-LD blobs.
    """
    text = text.strip()
    for opener, closer in (("<![CDATA[", "]]>"), ("<!--", "-->")):
        head = text[2:].lstrip() if text.startswith("//") else text
        if head.startswith(opener):
            text = head[len(opener) :].strip()
        if text.endswith(closer):
            text = text[: -len(closer)].rstrip()
            text = text[:-2].rstrip() if text.endswith("//") else text
    return text


# json.loads(text, strict=False) made a decoder for each script (its keyword makes
# one); this one decodes the same way: a BOM, which json.loads refuses with a
# ValueError of its own, it refuses with another.
_DECODER = json.JSONDecoder(strict=False)


def _parse_json_lenient(text: str) -> Any:
    """``json.loads`` that survives the usual hand-written JSON-LD damage, else ``None``."""
    try:
        return _DECODER.decode(text)
    except RecursionError:  # absurd nesting: no cleanup will make it usable
        return None
    except ValueError:
        pass
    cleaned = _unwrap(text)
    cleaned = _CONTROL_RE.sub(" ", cleaned)
    cleaned = _TRAILING_COMMA_RE.sub(r"\1", cleaned).strip().rstrip(";")
    try:
        return _DECODER.decode(cleaned)
    except (ValueError, RecursionError):
        return None


def _flatten_ld(data: Any, out: list[dict[str, Any]], depth: int = 0) -> None:
    """Append every top-level object, expanding lists and ``@graph`` containers."""
    if depth > 5:  # adversarial nesting; real pages nest one or two levels
        return
    if isinstance(data, list):
        for item in data:
            _flatten_ld(item, out, depth + 1)
    elif isinstance(data, dict):
        graph = data.get("@graph")
        if graph is not None:
            _flatten_ld(graph, out, depth + 1)
            # Keep the wrapper too when it carries its own properties, not just @context.
            if any(k not in ("@context", "@graph") for k in data):
                out.append({k: v for k, v in data.items() if k != "@graph"})
        else:
            out.append(data)
            # WebPage/QAPage wrappers often nest the actual Article as mainEntity.
            main = data.get("mainEntity")
            if isinstance(main, dict | list):
                _flatten_ld(main, out, depth + 1)


# "@type": a string or a list of strings, matched without parsing the JSON.
_LD_TYPE_RE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')
_LD_NAME_RE = re.compile(r'"([^"]+)"')


def _read_json_ld(nodes: Iterable[LexborNode]) -> tuple[list[dict[str, Any]], frozenset[str]]:
    """The JSON-LD objects (flattened @graph) and every @type name of the scripts."""
    objects: list[dict[str, Any]] = []
    names: set[str] = set()
    for node in nodes:
        text = node.text()
        if text and text.strip():
            _flatten_ld(_parse_json_lenient(text), objects)
            for value in _LD_TYPE_RE.findall(text):
                names.update(map(str.lower, _LD_NAME_RE.findall(value)))
    return objects, frozenset(names)


def ld_types(obj: dict[str, Any]) -> list[str]:
    """``@type`` as casefolded bare names ("http://schema.org/NewsArticle" -> "newsarticle")."""
    raw = obj.get("@type")
    types = raw if isinstance(raw, list) else [raw]
    return [re.split(r"[/:#]", t)[-1].casefold() for t in types if isinstance(t, str)]


class _LD:
    """The JSON-LD objects of a page, with ``@id`` references resolvable."""

    def __init__(self, objects: list[dict[str, Any]]) -> None:
        self.objects = objects
        self.by_id: dict[str, dict[str, Any]] = {}
        for obj in objects:
            oid = obj.get("@id")
            if isinstance(oid, str) and len(obj) > 1:
                self.by_id.setdefault(oid, obj)
        self.article = next(
            (o for o in objects if any(t in ARTICLE_TYPES for t in ld_types(o))), None
        ) or next((o for o in objects if any(t in _SECONDARY_TYPES for t in ld_types(o))), None)
        # A QAPage is a wrapper: its question (mainEntity) is the post, with the
        # asker as its author and its dates.
        if self.article is not None and "qapage" in ld_types(self.article):
            main = self.deref(self.article.get("mainEntity"))
            main = main[0] if isinstance(main, list) and main else main
            if isinstance(main, dict):
                self.article = main

    def deref(self, value: Any) -> Any:
        """Follow ``{"@id": ...}`` stubs (Yoast-style graphs) to the full node."""
        if isinstance(value, dict) and "@id" in value and len(value) <= 2:
            target = self.by_id.get(value["@id"]) if isinstance(value["@id"], str) else None
            if target is not None:
                return target
        return value

    def names(self, value: Any) -> Iterator[str]:
        """Names out of a string, a Person/Organization object, or a list of those."""
        value = self.deref(value)
        if isinstance(value, list):
            for item in value[:20]:
                yield from self.names(item)
        elif isinstance(value, dict):
            name = value.get("name")
            if isinstance(name, list):  # some CMSes emit "name": ["A", "B"]
                name = next((n for n in name if isinstance(n, str)), None)
            if not name:
                # A Person described by its parts only: {"givenName": "Anna Giulia",
                # "familyName": "Fink"}.
                parts = (value.get("givenName"), value.get("familyName"))
                name = " ".join(p for p in parts if isinstance(p, str) and p.strip())
            cleaned = _clean(name)
            if cleaned:
                yield cleaned
        else:
            cleaned = _clean(value)
            if cleaned:
                yield cleaned

    def url_of(self, value: Any) -> str | None:
        """A URL out of an ImageObject, a string, or a list of either."""
        value = self.deref(value)
        if isinstance(value, list):
            for item in value:
                url = self.url_of(item)
                if url:
                    return url
            return None
        if isinstance(value, dict):
            return _clean(value.get("url")) or _clean(value.get("contentUrl"))
        return _clean(value)

    def get(self, key: str) -> Any:
        """``key`` from the main article object, if any."""
        return self.article.get(key) if self.article is not None else None

    def first_any(self, key: str) -> Any:
        """``key`` from the article object, else from the first object that has it."""
        value = self.get(key)
        if value:
            return value
        for obj in self.objects:
            value = obj.get(key)
            if value:
                return value
        return None
