"""The extraction result: content in three renderings plus page metadata."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field
from html import escape
from typing import Any

from unchrome import schema


@dataclass(frozen=True)
class Media:
    """An image, link, video or audio found in the main content (URL made absolute)."""

    url: str
    text: str = ""  # alt text for images, anchor text for links
    title: str = ""


@dataclass
class Rendering:
    """The sanitized main-content HTML and the media found in it."""

    html: str = ""
    images: list[Media] = field(default_factory=list)
    links: list[Media] = field(default_factory=list)
    videos: list[Media] = field(default_factory=list)
    audios: list[Media] = field(default_factory=list)


# Media lists computed on first access with the HTML; each is also an __init__ argument.
_MEDIA = ("images", "links", "videos", "audios")
_LIBRARY_FIELDS = schema.names(schema.LIBRARY)


@dataclass(repr=False)
class Result:
    url: str | None = None
    source: str | None = None  # the file, URL or "-" it was read from (see unchrome.schema)
    title: str | None = None
    site_name: str | None = None
    author: str | None = None  # the authors joined by ", "
    authors: list[str] = field(default_factory=list)  # names only
    date: str | None = None  # ISO 8601: the publication date (else the last update stated)
    date_modified: str | None = None  # ISO 8601, where the page states when it changed
    description: str | None = None
    language: str | None = None
    image: str | None = None  # hero image, absolute URL
    canonical_url: str | None = None
    kind: str = "article"  # one of pipeline.kinds.KINDS
    # Markdown, HTML and the media lists are rendered on first access (see below).
    markdown: InitVar[str | None] = None
    text: str = ""
    html: InitVar[str | None] = None  # sanitized main-content HTML
    has_body: bool = False
    images: InitVar[list[Media] | None] = None
    links: InitVar[list[Media] | None] = None
    videos: InitVar[list[Media] | None] = None
    audios: InitVar[list[Media] | None] = None
    word_count: int = 0
    reading_time: int = 0  # minutes, at least 1 when there is a body
    processing_time: float = 0.0  # seconds
    truncated: bool = False
    encoding: str | None = None
    # The headline the selection took out of the body (the Markdown opens with it).
    _headline: str | None = field(default=None, repr=False, compare=False)
    _markdown: str | None = field(default=None, repr=False, compare=False)
    _render_markdown: Callable[[str], str] | None = field(default=None, repr=False, compare=False)
    _rendering: Rendering | None = field(default=None, repr=False, compare=False)
    _render_html: Callable[[], Rendering] | None = field(default=None, repr=False, compare=False)

    def __post_init__(
        self,
        markdown: str | None,
        html: str | None,
        images: list[Media] | None,
        links: list[Media] | None,
        videos: list[Media] | None,
        audios: list[Media] | None,
    ) -> None:
        if isinstance(markdown, str):
            self._markdown = markdown
        media = (images, links, videos, audios)
        if self._render_html is None or html is not None or any(m is not None for m in media):
            # Given (or nothing to render from): no lazy rendering.
            self._rendering = Rendering(html or "", *(list(m or []) for m in media))

    def to_dict(self) -> dict[str, Any]:
        """Every field of the library's schema (unchrome.schema), in its order; the
        media as ``{"url", "text", "title"}`` objects."""
        out: dict[str, Any] = {}
        for name in _LIBRARY_FIELDS:
            value = getattr(self, name)
            out[name] = [_media_dict(m) for m in value] if name in _MEDIA else value
        return out

    def to_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def to_markdown(self, *, with_metadata: bool = False) -> str:
        """The Markdown; ``with_metadata``: opened by a YAML front matter of the title,
        author, dates, URL, site name, language and image (trafilatura's
        ``with_metadata=True``; unchrome.schema.front_matter)."""
        return self._with_metadata(self.markdown) if with_metadata else self.markdown

    def to_text(self, *, with_metadata: bool = False, headline: bool = False) -> str:
        """The plain text; ``with_metadata`` as for to_markdown; ``headline``: opened by
        the headline the Markdown opens with, as a document shows it (the ``text``
        field leaves it out: it is the body, what the benchmarks score)."""
        head = self._shown_headline() if headline else None
        text = f"{head}\n\n{self.text}" if head and self.text else head or self.text
        return self._with_metadata(text) if with_metadata else text

    def to_html(self, *, headline: bool = False) -> str:
        """The sanitized HTML; ``headline``: opened by the headline, an ``<h1>``, as the
        Markdown opens with it."""
        head = self._shown_headline() if headline else None
        return f"<h1>{escape(head, quote=False)}</h1>\n{self.html}" if head else self.html

    def _shown_headline(self) -> str | None:
        """The headline the Markdown opens with and the body leaves out, or None (no
        headline taken out, or the text opens with it already)."""
        if not self._headline:
            return None
        head = " ".join(self._headline.split())
        first = self.text.lstrip().partition("\n")[0].strip()
        return None if first.casefold() == head.casefold() else head

    def _with_metadata(self, content: str) -> str:
        values = {name: getattr(self, name) for name in schema.FRONT_MATTER}
        return schema.front_matter(values) + ("\n" + content if content else "")

    def __repr__(self) -> str:
        # The metadata and the size of the content: a docs page's text is 40 KB, and
        # the Markdown would be rendered (and kept) only to be printed.
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in ("url", "title", "site_name", "author", "date", "language", "kind")
            if getattr(self, name) is not None
        )
        return (
            f"Result({shown}, text=<{len(self.text):,} chars>, word_count={self.word_count}, "
            f"has_body={self.has_body}, truncated={self.truncated})"
        )


def _media_dict(media: Media) -> dict[str, str]:
    return {"url": media.url, "text": media.text, "title": media.title}


def _rendering(self: Result) -> Rendering:
    """The sanitized HTML and media lists, rendered on first access and kept.

    Sanitizing walks the chosen subtree and resolves every URL (about a fifth of an
    extraction on the WCXB dev split); callers who want only the text never pay it.
    """
    if self._rendering is None:
        render = self._render_html
        self._rendering = render() if render is not None else Rendering()
        self._render_html = None
    return self._rendering


def _markdown(self: Result) -> str:
    """The main content as Markdown.

    Rendered on first access and kept: the converter is the largest single cost of an
    extraction (1.2 ms of 9 ms a page on the WCXB dev split), and callers who want the
    text for an index or an LLM never need it.
    """
    if self._markdown is None:
        render = self._render_markdown
        html = self.html
        self._markdown = render(html) if render is not None and html else ""
    return self._markdown


def _set_markdown(self: Result, value: str) -> None:
    self._markdown = value


def _lazy_part(name: str) -> property:
    def get(self: Result) -> Any:
        return getattr(_rendering(self), name)

    def set_(self: Result, value: Any) -> None:
        setattr(_rendering(self), name, value)

    return property(get, set_)


Result.__doc__ = f"""The main content of one page, in three renderings, and its metadata.

Markdown, HTML and the media lists are rendered on first access (and kept); the text
is ready. ``to_dict()`` / ``to_json()`` give these fields (unchrome.schema), in order:

{schema.docstring(schema.LIBRARY)}
"""

# Installed after the dataclass is built, so that these names stay __init__ arguments
# (InitVar) while reads go through the lazy renderers.
Result.markdown = property(_markdown, _set_markdown)  # type: ignore[assignment,method-assign]
for _name in ("html", *_MEDIA):
    setattr(Result, _name, _lazy_part(_name))
