"""Configuration: one validated dataclass, plus the pluggable ``Scorer`` protocol."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, Protocol, runtime_checkable

from unchrome.errors import InvalidInput

MiB = 1024 * 1024

Favor = Literal["precision", "balanced", "recall"]
FAVORS: tuple[str, ...] = ("precision", "balanced", "recall")
Render = Literal["never", "auto", "always"]
RENDER_MODES: tuple[str, ...] = ("never", "auto", "always")


@runtime_checkable
class Scorer(Protocol):
    """Bring-your-own scoring.

    ``score(node)`` returns a candidate's score (higher wins); ``should_remove(node)``
    is asked for every element before scoring and prunes it when True. ``node`` is a
    selectolax ``LexborNode``.
    """

    def score(self, node: Any) -> float: ...

    def should_remove(self, node: Any) -> bool: ...


@dataclass(frozen=True)
class Config:
    """How to extract: validated when made (a bad value is INVALID_INPUT); ``with_()``
    gives a changed copy.

    max_input_bytes (int, 4 MiB): input past this is cut, and Result.truncated says so.
    min_body_chars (int, 80): below this many characters of text the body is missing,
        and the fallbacks (an embedded body, og:description) are tried.
    min_paragraph_chars (int, 0): the plain text leaves out paragraphs shorter than
        this (characters); the HTML and the Markdown keep them. 0: none left out.
    max_depth (int, 512): elements nested deeper are read whole, as their text.
    timeout (float or None, 30.0): the processing deadline in seconds, checked between
        the stages and inside the long ones; past it extraction raises TIMEOUT (at most
        about 0.1-0.3 s late on a 4 MiB page). None: no deadline.
    table_format ("markdown" or "html"): how tables appear in the Markdown.
    extract_article (bool, True): False keeps the whole pruned page (no selection).
    encoding (str or None): the input's encoding, used before any detection.
    include_selector (str or None): CSS; the content is what it matches.
    exclude_selector (str or None): CSS; what it matches is dropped first.
    include_comments (bool, False): keep comment sections, and what follows the
        post body a page names (select.within_story_body), where comments sit.
    include_tables, include_images, include_links (bool, True): keep them in the
        renderings (images and links: in the Markdown and the media lists).
    favor ("precision", "balanced" or "recall"): leave out the blocks the block model
        doubts, or keep them (trafilatura's favor_precision / favor_recall).
    scorer (Scorer or None): your own score(node) and should_remove(node); like
        include_selector and extract_article=False, it switches the block model off.
    render ("never", "auto" or "always"): whether read() renders a fetched page in a
        headless browser first (the [render] extra); "auto" only when the static
        extraction is thin and the page shows client-rendering signs.
    """

    # 4 MiB covers the largest page of the WCXB dev split (about 2.6 MiB) with room; past
    # it the input is cut and Result.truncated says so.
    max_input_bytes: int = 4 * MiB
    # Below this many characters a body is considered missing and the fallbacks run.
    min_body_chars: int = 80
    # Plain text drops <p>/<blockquote> shorter than this (characters, never bytes:
    # a 20-character Japanese sentence is 60 bytes of UTF-8). A rule of the text
    # rendering only: the selection, the HTML and the Markdown keep them. Off by
    # default: a short paragraph already stays only beside kept blocks of its story
    # (select.settle_short), and a fixed count is blind to script (a 12-character
    # Chinese paragraph is a sentence) and to one-line blog paragraphs and subheads.
    # 20 -> 0 raised word F1 on every group of every suite: WCXB dev 0.898 -> 0.899,
    # news 0.894 -> 0.897, Dragnet +0.001, the Chinese pages of news and classic 0.899
    # -> 0.908, Readability.js's pages 0.903 -> 0.909.
    min_paragraph_chars: int = 0
    # Deeper elements are read whole, as their text; no stage recurses on depth.
    max_depth: int = 512
    # Processing deadline in seconds (None: no deadline) -> ExtractTimeout.
    timeout: float | None = 30.0
    table_format: Literal["markdown", "html"] = "markdown"
    # False: whole-body mode (no candidate selection, only pruning).
    extract_article: bool = True
    # Manual encoding override, used before any detection.
    encoding: str | None = None
    include_selector: str | None = None
    exclude_selector: str | None = None
    include_comments: bool = False
    include_tables: bool = True
    include_images: bool = True
    include_links: bool = True
    # Which error to prefer when the block model is unsure: "precision" leaves out
    # doubtful blocks (less chrome, some content lost), "recall" keeps them. Like
    # trafilatura's favor_precision / favor_recall; ignored when the caller chooses
    # the content (a selector, a scorer, the whole page).
    favor: Favor = "balanced"
    # Whether a *fetched* page (read/aread) is rendered in a headless browser before
    # extraction (unchrome.net.browser, the [render] extra): "auto" only when the static
    # extraction is thin and the page shows client-rendering signs. Local HTML is never
    # rendered: there is no origin to load its scripts' requests from.
    render: Render = "never"
    scorer: Scorer | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("max_input_bytes", "max_depth"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise InvalidInput(f"Config.{name} must be a positive integer, got {value!r}")
        for name in ("min_body_chars", "min_paragraph_chars"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidInput(f"Config.{name} must be a non-negative integer, got {value!r}")
        if self.timeout is not None and (
            not isinstance(self.timeout, int | float) or self.timeout <= 0
        ):
            raise InvalidInput(
                f"Config.timeout must be a positive number or None, got {self.timeout!r}"
            )
        if self.table_format not in ("markdown", "html"):
            raise InvalidInput(
                f"Config.table_format must be 'markdown' or 'html', got {self.table_format!r}"
            )
        if self.favor not in FAVORS:
            raise InvalidInput(
                f"Config.favor must be one of {', '.join(FAVORS)}, got {self.favor!r}"
            )
        if self.render not in RENDER_MODES:
            raise InvalidInput(
                f"Config.render must be one of {', '.join(RENDER_MODES)}, got {self.render!r}"
            )
        if self.encoding is not None:
            import codecs

            try:
                codecs.lookup(self.encoding)
            except LookupError:
                raise InvalidInput(f"Config.encoding: unknown encoding {self.encoding!r}") from None
        for name in ("include_selector", "exclude_selector"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise InvalidInput(f"Config.{name} must be a non-empty CSS selector string")
            if value is not None and not _valid_selector(value):
                raise InvalidInput(f"Config.{name}: {value!r} is not a valid CSS selector")
        if self.scorer is not None and not isinstance(self.scorer, Scorer):
            raise InvalidInput("Config.scorer must provide score(node) and should_remove(node)")

    def with_(self, **changes: Any) -> Config:
        """A copy with some fields changed (validated again)."""
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise InvalidInput(f"unknown Config fields: {', '.join(sorted(unknown))}")
        return replace(self, **changes)


DEFAULT_CONFIG = Config()


def _valid_selector(selector: str) -> bool:
    """Whether lexbor compiles ``selector``: asked of an empty document, so a caller's
    typo is an INVALID_INPUT when the Config is made, not an error mid-extraction."""
    from selectolax.lexbor import LexborHTMLParser, SelectolaxError

    try:
        LexborHTMLParser("").css(selector)
    except SelectolaxError:
        return False
    return True
