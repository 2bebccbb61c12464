"""The language: <html lang>, then meta."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

from unchrome.metadata.common import _clean

_LANG_RE = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")


def _normalise_lang(value: str | None) -> str | None:
    """BCP 47 casing: ``en_us`` -> ``en-US``, ``zh-hant-tw`` -> ``zh-Hant-TW``."""
    value = _clean(value)
    if not value:
        return None
    value = re.split(r"[,;\s]", value, maxsplit=1)[0].replace("_", "-")
    if not _LANG_RE.match(value):
        return None
    parts = value.split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 2 and part.isalpha():
            out.append(part.upper())
        elif len(part) == 4 and part.isalpha():
            out.append(part.title())
        else:
            out.append(part.lower())
    return "-".join(out)


def _pick_language(tree: LexborHTMLParser, metas: dict[str, str]) -> str | None:
    root = tree.root  # the <html> element, without a tree-wide query
    attrs = root.attributes if root is not None and root.tag == "html" else {}
    for value in (
        attrs.get("lang"),
        attrs.get("xml:lang"),
        metas.get("content-language"),
        metas.get("dc:language"),
        metas.get("language"),
        metas.get("og:locale"),
    ):
        lang = _normalise_lang(value)
        if lang:
            return lang
    return None
