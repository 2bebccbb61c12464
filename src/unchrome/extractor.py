"""The pipeline: decode → parse → prune → score → select → fallbacks → render.

``Extractor`` holds a validated ``Config``; the module-level functions use a default
one. Each stage lives in its own module; this file only orders them and enforces the
input caps and the processing deadline.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from . import blockmodel, classify, fallbacks, feed, metadata, prune, render, score, segment, select
from .config import DEFAULT_CONFIG, Config
from .decode import decode
from .errors import (
    ExtractFailed,
    ExtractTimeout,
    FileAccessError,
    InvalidInput,
    UnchromeError,
    UnsupportedContent,
)
from .parse import LexborHTMLParser, LexborNode, flatten, guard_markup, parse
from .result import Rendering, Result

# Magic numbers of formats that are surely not HTML: answering them with a clear
# UNSUPPORTED_CONTENT beats "extracting" a PDF's byte soup.
_MAGIC = (
    (b"%PDF-", "PDF"),
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"RIFF", "RIFF media"),
    (b"\x00\x00\x01\x00", "icon"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"\x7fELF", "executable"),
)
_HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml")
# Share of control bytes in the first KiB above which the input is binary, not text.
BINARY_CONTROL_SHARE = 0.1
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


# Below this many characters of text once comment sections are pruned, the comments
# are probably the page's content (a forum thread) and extraction runs again with them.
COMMENTS_RETRY_CHARS = 600


# Embedded JSON bodies are looked for below min_body_chars (the design) and also on
# thin pages, where a longer embedded body replaces the DOM text: app shells such as
# Discourse show 100-300 characters of chrome around an empty thread.
THIN_BODY_CHARS = 600


# Set by the training tool: segment with this vocabulary and keep the density
# winner's blocks, so the training data sees the pipeline as it stands without a model.
TRACE_VOCAB: segment.Vocabulary | None = None


class _TraceModel:
    def __init__(self, vocab: segment.Vocabulary) -> None:
        self.vocab = vocab


class _Content:
    """The main content found by one pass: its text, and its HTML roots on demand."""

    __slots__ = ("_build", "_roots", "comment_sections", "heading", "text")

    def __init__(
        self,
        text: str,
        heading: str | None,
        roots: list[LexborNode] | None,
        build: Callable[[], list[LexborNode]] | None = None,
        comment_sections: int = 0,
    ) -> None:
        self.text = text
        # The headline taken out of the body text; Markdown still opens with it.
        self.heading = heading
        # Comment sections pruned on the way (see Extractor.extract's retry).
        self.comment_sections = comment_sections
        self._roots = roots
        self._build = build

    def roots(self) -> list[LexborNode]:
        """The subtrees holding the content; built once, on first use (it edits the
        tree: dropped blocks are removed from it)."""
        if self._roots is None:
            self._roots = self._build() if self._build is not None else []
            self._build = None
        return self._roots


def _rendering(content: _Content, base_url: str | None, cfg: Config) -> Rendering:
    roots = content.roots()
    media = render.sanitize(roots, base_url)
    return Rendering(
        html="".join(r.html or "" for r in roots),
        images=media.images if cfg.include_images else [],
        links=media.links if cfg.include_links else [],
        videos=media.videos,
        audios=media.audios,
    )


class _Deadline:
    __slots__ = ("expires",)

    def __init__(self, timeout: float | None) -> None:
        self.expires = time.perf_counter() + timeout if timeout else None

    def check(self, stage: str) -> None:
        if self.expires is not None and time.perf_counter() > self.expires:
            raise ExtractTimeout(f"processing deadline passed during {stage}")


class Extractor:
    """A reusable extraction pipeline for one configuration."""

    def __init__(self, config: Config | None = None) -> None:
        if config is not None and not isinstance(config, Config):
            raise InvalidInput("config must be an unchrome.Config")
        self.config = config or DEFAULT_CONFIG

    # -- input --------------------------------------------------------------------

    def _check_input(self, data: bytes | str, content_type: str | None) -> tuple[bytes | str, bool]:
        if not isinstance(data, bytes | bytearray | memoryview | str):
            raise InvalidInput(f"expected bytes or str, got {type(data).__name__}")
        if isinstance(data, bytearray | memoryview):
            data = bytes(data)
        cap = self.config.max_input_bytes
        truncated = False
        if isinstance(data, bytes):
            if len(data) > cap:
                data, truncated = data[:cap], True
        elif len(data) > cap // 4 and len(data.encode("utf-8", "surrogatepass")) > cap:
            data, truncated = (
                data.encode("utf-8", "surrogatepass")[:cap].decode("utf-8", "ignore"),
                True,
            )
        # isspace() scans without copying; strip() copied up to 4 MiB on every call.
        if not data or data.isspace():
            raise InvalidInput("the input is empty")
        if content_type:
            mime = content_type.split(";", 1)[0].strip().lower()
            if mime and not (mime in _HTML_TYPES or mime.endswith(("+xml", "/xml"))):
                raise UnsupportedContent(f"content type {mime!r} is not HTML")
        if isinstance(data, bytes):
            head = data[:1024]
            for magic, name in _MAGIC:
                if head.startswith(magic):
                    raise UnsupportedContent(f"the input is a {name}, not HTML")
            # UTF-16 without a BOM is full of NULs too; decode() sniffs it, so only
            # call the input binary when it does not look like markup either.
            utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff") or b"<\x00" in head or b"\x00<" in head
            control = len(head) - len(head.translate(None, _CONTROL))
            if not utf16 and control > len(head) * BINARY_CONTROL_SHARE:
                raise UnsupportedContent("the input is binary data, not HTML")
        return data, truncated

    # -- pipeline -------------------------------------------------------------------

    def extract(
        self,
        data: bytes | str,
        *,
        url: str | None = None,
        content_type: str | None = None,
        trace: dict[str, Any] | None = None,
    ) -> Result:
        started = time.perf_counter()
        cfg = self.config
        deadline = _Deadline(cfg.timeout)
        data, truncated = self._check_input(data, content_type)

        if feed.looks_like_feed(data, content_type):
            result = feed.extract_feed(data, url=url)
            result.truncated = result.truncated or truncated
            result.processing_time = time.perf_counter() - started
            return result

        if isinstance(data, bytes):
            decoded = decode(data, content_type=content_type, override=cfg.encoding)
            text, encoding = decoded.text, decoded.encoding
        else:
            text, encoding = data.replace("\x00", ""), None
        if text[:256].lstrip()[:1] in ("{", "[") and _is_json(text):
            # An API response (WordPress's {"content": {"rendered": "<p>..."}}) is
            # data, not a page, even when its strings hold HTML.
            raise UnsupportedContent("the input is JSON, not HTML")
        deadline.check("decode")

        # The scoring walk guards depth itself; other paths need the guard walk.
        scoring = cfg.extract_article and not cfg.include_selector
        text = guard_markup(text)  # once: the retry and the fallbacks parse it again
        tree = parse(text, max_depth=None if scoring else cfg.max_depth, guarded=True)
        deadline.check("parse")
        meta = metadata.extract_metadata(tree, url)
        kind = classify.detect_kind(meta.og_type, tree)
        base_url = _base_url(tree, url)
        deadline.check("metadata")

        content = self._main_content(tree, meta, url, deadline, trace=trace)
        if (
            not cfg.include_comments
            and content.comment_sections
            and (
                _is_discussion(meta.json_ld)
                or _discussion_url(url)
                or (len(content.text) < COMMENTS_RETRY_CHARS and not _is_product(meta))
            )
        ):
            # Forums and Q&A pages keep their posts in elements named "comment": when
            # the page without its comment sections has little left, or says it is a
            # discussion, the comments are the content. Parse again to get them back
            # (when any were pruned: otherwise the second pass would be the first).
            tree = parse(text, max_depth=None if scoring else cfg.max_depth, guarded=True)
            retry_trace: dict[str, Any] | None = {} if trace is not None else None
            retry = self._main_content(
                tree, meta, url, deadline, include_comments=True, trace=retry_trace
            )
            if len(retry.text) > len(content.text):
                content = retry
                if trace is not None and retry_trace is not None:
                    trace.update(retry_trace)

        if len(content.text) < max(cfg.min_body_chars, THIN_BODY_CHARS):
            fallback_roots = self._fallback_roots(text, meta.json_ld)
            if fallback_roots:
                fallback_text = render.render_text(
                    fallback_roots,
                    min_paragraph_chars=cfg.min_paragraph_chars,
                    include_tables=cfg.include_tables,
                )
                if len(fallback_text) > len(content.text):
                    content = _Content(fallback_text, None, fallback_roots)
                    if trace is not None:
                        trace["fallback"] = fallback_text
        if (
            len(content.text) < cfg.min_body_chars
            and meta.description
            and (len(meta.description) > len(content.text))
        ):
            desc_tree = LexborHTMLParser(f"<p>{_escape(meta.description)}</p>")
            roots = [desc_tree.body] if desc_tree.body is not None else []
            content = _Content(meta.description, None, roots)
            if trace is not None:
                trace["fallback"] = meta.description
        deadline.check("fallbacks")
        body_text = content.text

        # Classify on the unfiltered text: a "deleted post" notice is often shorter than
        # min_paragraph_chars and vanishes from body_text, leaving only a "back" link.
        if len(body_text) <= classify.BOT_WALL_MAX_CHARS:
            roots = content.roots()
            screen_text = " ".join(r.text(deep=True, separator=" ") for r in roots).split()
            classify.classify_block(meta.title, " ".join(screen_text) or _page_text(tree))
        else:
            classify.classify_block(meta.title, body_text)

        has_body = bool(body_text.strip())
        if not has_body and not meta.title:
            raise ExtractFailed("no main content and no title found")

        words, minutes = render.count_words(body_text)
        return Result(
            url=url,
            title=meta.title,
            site_name=meta.site_name,
            author=meta.author,
            date=meta.date,
            description=meta.description,
            language=meta.language,
            image=meta.image,
            canonical_url=meta.canonical_url,
            kind=kind,
            text=body_text,
            has_body=has_body,
            word_count=words,
            reading_time=minutes,
            processing_time=time.perf_counter() - started,
            truncated=truncated,
            encoding=encoding,
            _render_html=partial(_rendering, content, base_url, cfg) if has_body else None,
            _render_markdown=partial(
                render.render_markdown,
                # The headline left the body (select.title_block, dropped_heading);
                # a Markdown document still opens with it.
                title=content.heading,
                table_format=cfg.table_format,
                include_images=cfg.include_images,
                include_links=cfg.include_links,
            ),
        )

    def _main_content(
        self,
        tree: LexborHTMLParser,
        meta: metadata.Metadata,
        url: str | None,
        deadline: _Deadline,
        *,
        include_comments: bool | None = None,
        trace: dict[str, Any] | None = None,
    ) -> _Content:
        """Prune, then select the main content and render its text."""
        cfg = self.config
        title = meta.title
        pruned = prune.prune_page(
            tree,
            include_comments=cfg.include_comments if include_comments is None else include_comments,
            exclude_selector=cfg.exclude_selector,
            should_remove=cfg.scorer.should_remove if cfg.scorer else None,
        )
        deadline.check("prune")
        body = tree.body
        model = self._model()
        if body is None or model is None:
            roots = self._choose_roots(tree)
            title_dropped = bool(title) and select.drop_title_heading(roots, title or "")
            deadline.check("select")
            text = (
                render.render_text(
                    roots,
                    min_paragraph_chars=cfg.min_paragraph_chars,
                    include_tables=cfg.include_tables,
                )
                if roots
                else ""
            )
            return _Content(
                text,
                title if title_dropped else None,
                roots,
                comment_sections=pruned.comment_sections,
            )

        seg = segment.segment(
            body,
            model.vocab,
            min_paragraph_chars=cfg.min_paragraph_chars,
            include_tables=cfg.include_tables,
            max_depth=cfg.max_depth,
        )
        flatten(seg.too_deep)
        agg = score.aggregate(seg)
        sel = select.select_blocks(seg, agg)
        ctx = blockmodel.PageContext(
            url=url,
            title=title,
            og_type=meta.og_type,
            ld_types={t for item in meta.json_ld for t in metadata.ld_types(item)},
        )
        if trace is not None:
            trace.update(seg=seg, agg=agg, sel=sel, ctx=ctx)
        if isinstance(model, blockmodel.BlockModel):
            keep = model.keep(seg, agg, sel, ctx)
        else:
            # Tracing for the training tool: the density winner's blocks, as without
            # a model.
            keep = sel.in_root & ~sel.noise
        title_index = select.title_block(seg, sel.in_root, title) if title else -1
        if title_index >= 0:
            keep[title_index] = False
        else:
            title_index = select.dropped_heading(seg, keep, sel.in_root)
        deadline.check("select")
        text = render.blocks_text([b for b, k in zip(seg.blocks, keep, strict=True) if k])
        title_owner = [seg.blocks[title_index].owner] if title_index >= 0 else []
        heading = seg.blocks[title_index].text if title_index >= 0 else None
        return _Content(
            text,
            heading,
            None,
            partial(select.kept_html_roots, seg, keep, title_owner, sel.roots),
            comment_sections=pruned.comment_sections,
        )

    def _model(self) -> blockmodel.BlockModel | _TraceModel | None:
        cfg = self.config
        if not cfg.extract_article or cfg.include_selector or cfg.scorer is not None:
            return None
        if TRACE_VOCAB is not None:
            return _TraceModel(TRACE_VOCAB)
        return blockmodel.load_model()

    def _choose_roots(self, tree: LexborHTMLParser) -> list[LexborNode]:
        cfg = self.config
        body = tree.body
        if body is None:
            return []
        if cfg.include_selector:
            return _outermost(tree.css(cfg.include_selector))
        if not cfg.extract_article:
            return [body]
        too_deep: list[LexborNode] = []
        tallies = score.tally_tree(body, max_depth=cfg.max_depth, too_deep=too_deep)
        flatten(too_deep)
        winner = select.select_body(tallies, cfg.scorer.score if cfg.scorer else None)
        if winner is None:
            return [body]
        if cfg.scorer is not None:
            # The caller's scorer chose: no merging or overriding by our own score.
            select.prune_link_noise(winner, tallies)
            return [winner]
        page = tallies[body.mem_id]
        won = tallies[winner.mem_id]
        if won.chars < select.ORPHAN_WINNER_SHARE * page.chars:
            # No container holds most of the text (see ORPHAN_WINNER_SHARE): keep the
            # pruned body rather than one section of it.
            select.prune_link_noise(body, tallies)
            return [body]
        roots = select.with_siblings(winner, tallies, select.SIBLING_RATIO)
        for root in roots:
            select.prune_link_noise(root, tallies)
        return roots

    def _fallback_roots(self, text: str, json_ld: list[dict[str, Any]]) -> list[LexborNode]:
        # The page tree has lost its scripts to pruning; fallbacks are rare, so parse
        # the page again rather than copy every script up front, and only when the
        # markup names one of the formats that need the tree (a thin page is one in
        # six on WCXB dev, and most of them hold none).
        if fallbacks.names_tree_format(text):
            tree = parse(text, max_depth=None, guarded=True)
            body_html = fallbacks.embedded_body(tree, json_ld)
        else:
            body_html = fallbacks.json_ld_body(json_ld)
        if not body_html:
            return []
        fragment = parse(body_html, max_depth=self.config.max_depth)
        prune.prune_page(fragment, include_comments=True)
        return [fragment.body] if fragment.body is not None else []

    def extract_text(self, data: bytes | str, **kwargs: Any) -> str:
        return self.extract(data, **kwargs).text

    def extract_file(
        self,
        path: str | os.PathLike[str],
        *,
        root: str | os.PathLike[str] | None = None,
        url: str | None = None,
        content_type: str | None = None,
    ) -> Result:
        data = read_confined(path, root=root, max_bytes=self.config.max_input_bytes)
        return self.extract(data, url=url, content_type=content_type)


def read_confined(
    path: str | os.PathLike[str], *, root: str | os.PathLike[str] | None, max_bytes: int
) -> bytes:
    """Read at most ``max_bytes`` + 1 bytes of ``path``, which must stay inside ``root``.

    The check runs on the fully resolved path (symlinks followed), so neither ``..``
    nor a symlink can leave the root. Messages name only the file's base name: the
    service may echo them to remote callers.
    """
    name = Path(path).name or "file"
    base = Path(root if root is not None else os.getcwd()).resolve()
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = base / candidate
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError):
        raise FileAccessError(f"cannot open {name!r}: no such file") from None
    if root is not None and not resolved.is_relative_to(base):
        raise FileAccessError(f"{name!r} is outside the allowed root")
    if not resolved.is_file():
        raise FileAccessError(f"{name!r} is not a regular file")
    try:
        with resolved.open("rb") as fh:
            # Read one byte past the cap so extract() can report truncation.
            return fh.read(max_bytes + 1)
    except OSError:
        raise FileAccessError(f"cannot read {name!r}") from None


def _outermost(nodes: list[LexborNode]) -> list[LexborNode]:
    """Drop matches nested in an earlier match, so no text is rendered twice."""
    kept: list[LexborNode] = []
    ids: set[int] = set()
    for node in nodes:
        parent = node.parent
        nested = False
        while parent is not None:
            if parent.mem_id in ids:
                nested = True
                break
            parent = parent.parent
        if not nested:
            kept.append(node)
            ids.add(node.mem_id)
    return kept


def _base_url(tree: LexborHTMLParser, url: str | None) -> str | None:
    base = tree.css_first("base[href]")
    href = (base.attributes.get("href") or "").strip() if base is not None else ""
    if href and not href.lower().startswith(("javascript:", "data:")):
        return urljoin(url, href) if url else href
    return url


_DISCUSSION_TYPES = frozenset({"DiscussionForumPosting", "QAPage", "Question", "Conversation"})


def _is_discussion(json_ld: list[dict[str, Any]]) -> bool:
    for item in json_ld:
        kind = item.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if any(isinstance(k, str) and k in _DISCUSSION_TYPES for k in kinds):
            return True
    return False


# A URL naming the page a discussion (Reddit's /comments/, forum software's /threads/ and
# /discussion/): its posts are the content, even where they sit in comment-named
# elements and the page outside them is long. On the WCXB dev pages 35 forum URLs say
# so; one, whose sidebar rules outweighed the 600 characters that trigger the retry,
# went 0.09 -> 0.42 (forum 0.833 -> 0.836), no other page changed.
_DISCUSSION_PATH = re.compile(r"/(?:comments|threads?|discussions?)/", re.I)


def _discussion_url(url: str | None) -> bool:
    return url is not None and _DISCUSSION_PATH.search(urlsplit(url).path) is not None


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _is_product(meta: metadata.Metadata) -> bool:
    """A product page: its "comments" are customer reviews, never the content."""
    if meta.og_type and "product" in meta.og_type.lower():
        return True
    return any(fallbacks.has_type(item, "Product") for item in meta.json_ld)


def _page_text(tree: LexborHTMLParser) -> str:
    body = tree.body
    return " ".join(body.text(deep=True, separator=" ").split()) if body is not None else ""


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


DEFAULT_EXTRACTOR = Extractor()


def _extractor(config: Config | None) -> Extractor:
    return DEFAULT_EXTRACTOR if config is None else Extractor(config)


def extract(
    data: bytes | str,
    *,
    url: str | None = None,
    content_type: str | None = None,
    config: Config | None = None,
) -> Result:
    """Extract the main content and metadata of one HTML document."""
    return _extractor(config).extract(data, url=url, content_type=content_type)


def extract_text(
    data: bytes | str,
    *,
    url: str | None = None,
    content_type: str | None = None,
    config: Config | None = None,
) -> str:
    """Only the plain text of the main content."""
    return _extractor(config).extract(data, url=url, content_type=content_type).text


def extract_file(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    url: str | None = None,
    content_type: str | None = None,
    config: Config | None = None,
) -> Result:
    """Extract a local file; with ``root``, the path may not leave that folder."""
    return _extractor(config).extract_file(path, root=root, url=url, content_type=content_type)


__all__ = [
    "DEFAULT_EXTRACTOR",
    "Extractor",
    "UnchromeError",
    "extract",
    "extract_file",
    "extract_text",
    "read_confined",
]
