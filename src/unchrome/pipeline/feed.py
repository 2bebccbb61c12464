"""RSS / Atom / RDF feeds: a title plus the entry list, as a Result of kind "feed".

Parsing is feedparser's (well kept, lenient with broken feeds, sanitizes entry HTML).
Two traps of its API are avoided on purpose: ``feedparser.parse(str)`` *fetches* the
string when it looks like a URL, and ``feedparser.parse(bytes)`` first tries to *open it
as a file name*. A page body of ``/etc/passwd`` would then read a local file. The data is
therefore always handed over as an in-memory stream.
"""

from __future__ import annotations

import html
import io
import re
import time
from typing import Any

from unchrome.errors import ExtractFailed
from unchrome.pipeline.parse import cap_attributes
from unchrome.result import Media, Result
from unchrome.rules.formats import XML_FEED_TYPES

# A feed's root element is its document's first: only an XML declaration, processing
# instructions, comments, a doctype and whitespace may come before it. A page whose
# markup merely holds "<rdf:RDF" (Movable Type blogs put a trackback RDF block in a
# comment near the top of every post, two CleanEval blog pages among them) is a page.
_PROLOG = re.compile(rb"(?:\s+|<\?.*?\?>|<!--.*?-->|<!doctype[^>]*>)*", re.IGNORECASE | re.DOTALL)
_ROOT = re.compile(rb"<(?:rss|feed|rdf:RDF)\b", re.IGNORECASE)
_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z0-9]*)[^>]*>")
# Block tags separate words; inline ones (<b>, <a>) must not split "post</b>." apart.
_BLOCK_TAGS = frozenset({
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th",
    "table", "blockquote", "section", "article", "img", "hr", "pre",
})  # fmt: skip
_SPACE = re.compile(r"\s+")
_MD_SPECIAL = re.compile(r"([\\\[\]()*_`<>#])")

MAX_ENTRIES = 200  # bounds the output of a feed with a million entries
SUMMARY_CHARS = 280


def looks_like_feed(data: bytes | str, content_type: str | None) -> bool:
    """Cheap test: a feed content type, or a document whose first element (in the
    first ~1 KB) is a feed's root."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media in XML_FEED_TYPES:
        return True
    head = data[:1024]
    if isinstance(head, str):
        head = head.encode("utf-8", "replace")
    # UTF-16 feeds: the markup bytes survive this; a BOM is no markup.
    head = head.replace(b"\x00", b"").removeprefix(b"\xef\xbb\xbf")
    head = head.removeprefix(b"\xff\xfe").removeprefix(b"\xfe\xff")
    prolog = _PROLOG.match(head)
    return _ROOT.match(head, prolog.end() if prolog else 0) is not None


def extract_feed(data: bytes | str, *, url: str | None = None) -> Result:
    """Parse a feed into a Result: kind "feed", title, and the entries as a list."""
    import feedparser  # late: only feeds pay for the import

    # A str may hold lone surrogates (a caller's surrogateescape decoding): they are
    # dropped, as the HTML parser drops them; strict encoding raised
    # UnicodeEncodeError (found by the fuzzer).
    raw = data.encode("utf-8", "ignore") if isinstance(data, str) else bytes(data)
    # feedparser's time grows with the square of one element's attributes too (an
    # <item> with 4,000 took 0.27 s, 8,000 1.06 s, 100,000 over two minutes): the
    # same cap as for pages. Latin-1 maps each byte to one character and back, so the
    # markup is walked in any ASCII-compatible encoding and the bytes stay as they
    # are; a UTF-16 feed's markup is not seen.
    raw = cap_attributes(raw.decode("latin-1")).encode("latin-1")
    headers = {"content-location": url} if url else {}
    try:
        parsed = feedparser.parse(io.BytesIO(raw), response_headers=headers)
    except (ValueError, OverflowError, RecursionError) as exc:
        # feedparser's SGML fallback calls chr() on any numeric character reference:
        # "&#x110000;" raised ValueError out of it (found by the markup fuzz test).
        raise ExtractFailed(f"the feed could not be parsed ({type(exc).__name__})") from None
    info: Any = parsed.feed
    entries = [_entry(e) for e in parsed.entries[:MAX_ENTRIES]]
    title = _clean(info.get("title")) or None
    if not title and not entries:
        raise ExtractFailed("the feed has no title and no entries")

    description = _text(info.get("subtitle") or info.get("description") or "") or None
    markdown = _markdown(title, description, entries)
    text = _plain(title, description, entries)
    links = [Media(url=e["link"], text=e["title"]) for e in entries if e["link"]]
    image = info.get("image", {}).get("href") if isinstance(info.get("image"), dict) else None
    return Result(
        url=url or _safe_link(info.get("link")),
        title=title,
        site_name=title,
        description=description,
        language=info.get("language") or None,
        image=_safe_link(image),
        date=_iso(info.get("updated_parsed") or info.get("published_parsed")),
        date_modified=_iso(info.get("updated_parsed")),
        kind="feed",
        markdown=markdown,
        text=text,
        html=_html(title, entries),
        has_body=bool(entries),
        links=links,
        word_count=len(text.split()),
        reading_time=max(1, len(text.split()) // 230) if entries else 0,
        encoding=parsed.get("encoding") or None,
    )


def _entry(entry: Any) -> dict[str, str]:
    return {
        "title": _clean(entry.get("title")) or "(untitled)",
        "link": _safe_link(entry.get("link")) or "",
        "date": _iso(entry.get("published_parsed") or entry.get("updated_parsed")) or "",
        "summary": _shorten(_text(entry.get("summary") or "")),
    }


def _safe_link(link: Any) -> str | None:
    # javascript: and data: links from a hostile feed must not reach the Markdown.
    if isinstance(link, str) and re.match(r"https?://", link.strip(), re.IGNORECASE):
        return link.strip()
    return None


def _iso(parsed_time: Any) -> str | None:
    if not parsed_time:
        return None
    try:
        return time.strftime("%Y-%m-%d", parsed_time)
    except (TypeError, ValueError):
        return None


def _clean(value: Any) -> str:
    return _SPACE.sub(" ", html.unescape(str(value or ""))).strip()


def _text(fragment: str) -> str:
    return _clean(_TAG.sub(lambda m: " " if m.group(2).lower() in _BLOCK_TAGS else "", fragment))


def _shorten(text: str) -> str:
    if len(text) <= SUMMARY_CHARS:
        return text
    return text[: SUMMARY_CHARS - 1].rsplit(" ", 1)[0] + "…"


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _markdown(title: str | None, description: str | None, entries: list[dict[str, str]]) -> str:
    parts: list[str] = []
    if title:
        parts.append(f"# {_md(title)}\n")
    if description:
        parts.append(f"{_md(description)}\n")
    lines: list[str] = []
    for e in entries:
        head = f"[{_md(e['title'])}]({e['link']})" if e["link"] else _md(e["title"])
        line = f"- {head}" + (f" — {e['date']}" if e["date"] else "")
        if e["summary"]:
            line += f"\n  {_md(e['summary'])}"
        lines.append(line)
    if lines:
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def _plain(title: str | None, description: str | None, entries: list[dict[str, str]]) -> str:
    parts = [p for p in (title, description) if p]
    for e in entries:
        line = e["title"] + (f" ({e['date']})" if e["date"] else "")
        if e["link"]:
            line += f"\n{e['link']}"
        if e["summary"]:
            line += f"\n{e['summary']}"
        parts.append(line)
    return "\n\n".join(parts)


def _html(title: str | None, entries: list[dict[str, str]]) -> str:
    esc = html.escape
    items = []
    for e in entries:
        head = f'<a href="{esc(e["link"])}">{esc(e["title"])}</a>' if e["link"] else esc(e["title"])
        date = f" <time>{esc(e['date'])}</time>" if e["date"] else ""
        summary = f"<p>{esc(e['summary'])}</p>" if e["summary"] else ""
        items.append(f"<li>{head}{date}{summary}</li>")
    heading = f"<h1>{esc(title)}</h1>" if title else ""
    return f"{heading}<ul>{''.join(items)}</ul>"
