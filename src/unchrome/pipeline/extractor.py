"""The pipeline, one stage per module: decode → parse → prune → segment → select →
fallbacks → classify → render.

``Extractor`` holds a validated ``Config``; the module-level functions use a default
one. ``Extractor.extract`` orders the stages (its docstring lists them) and enforces
the input caps and the processing deadline; the stages live in their modules.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from html import escape
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from unchrome import metadata
from unchrome._native._dom import collapse, page_elements
from unchrome.config import DEFAULT_CONFIG, Config, Favor
from unchrome.errors import (
    ExtractFailed,
    ExtractTimeout,
    FileAccessError,
    InvalidInput,
    UnchromeError,
    UnsupportedContent,
)
from unchrome.formats import HTML_TYPES, XML_TYPES
from unchrome.model import blockmodel, features
from unchrome.pipeline import (
    classify,
    fallbacks,
    feed,
    prune,
    render,
    score,
    segment,
    segmentation,
    select,
)
from unchrome.pipeline.decode import decode
from unchrome.pipeline.parse import LexborHTMLParser, parse
from unchrome.pipeline.segmentation import (
    FLAG_COMMENT,
    FLAG_SELECTED,
    FLAG_SHORT,
    Segmentation,
    Vocabulary,
)
from unchrome.pipeline.select import Content
from unchrome.result import Rendering, Result
from unchrome.urls import resolve

# Magic numbers of formats that are surely not HTML: answering them with a clear
# UNSUPPORTED_CONTENT beats "extracting" a PDF's byte soup.
_MAGIC = (
    (b"%PDF-", "a PDF"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
    (b"RIFF", "RIFF media"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"\x7fELF", "an executable"),
)
# Media types extract() reads as markup (text/plain: servers label pages so by mistake).
_MARKUP_TYPES = HTML_TYPES | XML_TYPES | {"text/plain"}
# Share of control bytes in the first KiB above which the input is binary, not text.
# Random bytes hold 10.5% (27 of the 256 values), 2,027 real pages (the WCXB dev, news
# and Readability sets) none; at 0.1 half of 4 KiB random inputs passed for text.
BINARY_CONTROL_SHARE = 0.02
# UTF-16 without a byte order mark: every other byte of its ASCII markup is NUL.
UTF16_NUL_SHARE = 0.3
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


# Below this many characters of text once comment sections are pruned, the comments
# are probably the page's content (a forum thread) and extraction runs again with them,
# unless what is left is a story (see _has_story).
COMMENTS_RETRY_CHARS = 600
# A story short enough for the retry is still one with two paragraphs of prose
# (segmentation.is_prose), or one of them in a text of at least this many characters:
# a blog post of a few sentences above its readers' comments, which the Dragnet and
# Chinese annotators leave out. Without this rule the retry pulled whole comment
# threads into 27 such articles (Dragnet 0.879 -> 0.885, the Chinese articles 0.919
# -> 0.933); at 250 characters a forum's opening post counted as a story too (the
# news set's forum threads -0.007), at 350 one Q&A page loses its answers (-0.002).
STORY_PARAGRAPHS = 2
ONE_PARAGRAPH_STORY_CHARS = 350


# Embedded JSON bodies are looked for below min_body_chars (the design) and also on
# thin pages, where a longer embedded body replaces the DOM text: app shells such as
# Discourse show 100-300 characters of chrome around an empty thread.
THIN_BODY_CHARS = 600


@dataclass
class Trace:
    """What one extraction saw and decided, for the training tool and the tests.

    With ``vocabulary`` set, the page is segmented with it and the density selection is
    kept as it is, without the block model: the training tool records the pipeline as
    it stands without a model. The other fields are filled in by ``extract``.
    """

    vocabulary: Vocabulary | None = None
    seg: Segmentation | None = None  # the blocks the density score and the model saw
    agg: score.Aggregate | None = None
    sel: select.Selection | None = None
    ctx: features.PageContext | None = None
    fallback: str | None = None  # the fallback's text, when one replaced the page's
    content: Content | None = None  # the selection every rendering reads


@dataclass(frozen=True, slots=True)
class _Seen:
    """What one selection pass saw, kept for the trace of the pass that wins."""

    seg: Segmentation
    agg: score.Aggregate
    sel: select.Selection
    ctx: features.PageContext


class _Deadline:
    """Config.timeout, from the start of one extraction: ``check`` raises TIMEOUT once
    it has passed. Checked between the stages and inside the loops that can run long
    on a large page (the segment walk, a data table's rows, between the selection's
    steps), so that an extraction ends at most about 0.15 s past its timeout on a 4 MiB
    page (tools/bench_worst_case.py measures the longest stretch between two checks);
    lexbor's parse is the one step it cannot interrupt (up to about 0.3 s; its nesting
    is capped first by parse.guard_markup)."""

    __slots__ = ("expires",)

    def __init__(self, timeout: float | None) -> None:
        self.expires = time.perf_counter() + timeout if timeout else None

    def check(self, stage: str) -> None:
        if self.expires is not None and time.perf_counter() > self.expires:
            raise ExtractTimeout(f"processing deadline passed during {stage}")


def _no_check(stage: str) -> None:
    """No deadline (Config.timeout None)."""


class Extractor:
    """A reusable extraction pipeline for one configuration."""

    def __init__(
        self, config: Config | None = None, *, block_model: blockmodel.BlockModel | None = None
    ) -> None:
        """``block_model``: another block model than the packaged one (one of
        ``blockmodel.load_model(data)``): the benchmark scores the models that
        tools/train_blockmodel.py trained without a corpus on that corpus."""
        if config is not None and not isinstance(config, Config):
            raise InvalidInput("config must be an unchrome.Config")
        self.config = config or DEFAULT_CONFIG
        self.block_model = block_model

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
            if mime and not (mime in _MARKUP_TYPES or mime.endswith(("+xml", "/xml"))):
                raise UnsupportedContent(f"content type {mime!r} is not HTML")
        if isinstance(data, bytes):
            head = data[:1024]
            for magic, name in _MAGIC:
                if head.startswith(magic):
                    raise UnsupportedContent(f"the input is {name}, not HTML")
            # UTF-16 without a BOM is full of NULs too; decode() sniffs it, so only
            # call the input binary when it does not look like markup either.
            half = max(1, len(head) // 2)
            utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff") or (
                max(head[0::2].count(0), head[1::2].count(0)) > UTF16_NUL_SHARE * half
            )
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
        trace: Trace | None = None,
    ) -> Result:
        """Extract the main content and metadata of one document:

        1. check the input: size cap (then ``truncated``), media type, binary formats;
        2. a feed (RSS, Atom) is read as a feed;
        3. decode the bytes to text; JSON is refused;
        4. parse once; read the metadata and the embedded bodies before pruning;
        5. prune what is never content (comment sections stay, named);
        6. segment the pruned page into blocks, once;
        7. select the content blocks (density, then the block model, or the caller's
           selector, scorer or whole page); a discussion's comments come back;
        8. fall back on a thin page: an embedded body, then ``og:description``;
        9. classify: a bot wall or a dead page is a named error;
        10. render: the text now, the HTML and Markdown of the same blocks on first use.
        """
        started = time.perf_counter()
        cfg = self.config
        deadline = _Deadline(cfg.timeout)
        data, truncated = self._check_input(data, content_type)  # 1

        if feed.looks_like_feed(data, content_type):  # 2
            result = feed.extract_feed(data, url=url)
            result.truncated = result.truncated or truncated
            result.processing_time = time.perf_counter() - started
            return result

        markup, encoding = _decode(data, content_type, cfg.encoding)  # 3
        deadline.check("decode")

        tree = parse(markup)  # 4
        # One walk for the elements read before pruning: metadata's, the embedded
        # bodies' and the signs of a social post.
        elements, embedded_elements, social = (
            page_elements(tree.root) if tree.root is not None else ([], [], [])
        )
        meta = metadata.extract_metadata(tree, url, elements)
        kind = classify.detect_kind(meta.og_type, tree, meta.ld_type_names, social)
        base_url = _base_url(meta.base_href, url)
        embedded = fallbacks.sources(embedded_elements)
        deadline.check("parse")

        pruned = prune.prune_page(  # 5
            tree,
            include_comments=cfg.include_comments,
            exclude_selector=cfg.exclude_selector,
            should_remove=cfg.scorer.should_remove if cfg.scorer else None,
        )
        deadline.check("prune")

        model = self._model(trace)
        vocabulary = (
            trace.vocabulary
            if trace is not None and trace.vocabulary is not None
            else model.vocab
            if model is not None
            else segmentation.EMPTY_VOCABULARY
        )
        seg = self._segment(tree, pruned, vocabulary, deadline)  # 6
        deadline.check("segment")

        content, text, seen = self._select(seg, meta, url, pruned, model, deadline)  # 7
        deadline.check("select")

        content, text, fallback = self._fallback(content, text, embedded, meta, deadline)  # 8
        deadline.check("fallbacks")
        if trace is not None:
            if seen is not None:
                trace.seg, trace.agg, trace.sel, trace.ctx = seen.seg, seen.agg, seen.sel, seen.ctx
            trace.fallback = fallback
            trace.content = content

        # 9: on the unfiltered text: a "deleted post" notice is often shorter than
        # min_paragraph_chars and would vanish, leaving only a "back" link.
        if len(text) <= classify.BOT_WALL_MAX_CHARS:
            # Its whitespace collapsed (no NUL reaches here: see segmentation.BR).
            screen = collapse(content.screen_text())
            classify.classify_block(meta.title, screen or _page_text(tree))
        else:
            classify.classify_block(meta.title, text)
        has_body = bool(text.strip())
        if not has_body and not meta.title:
            raise ExtractFailed("no main content and no title found")

        words, minutes = render.count_words(text)  # 10
        return Result(
            url=url,
            title=meta.title,
            site_name=meta.site_name,
            author=meta.author,
            date=meta.date,
            date_modified=meta.date_modified,
            description=meta.description,
            language=meta.language,
            image=meta.image,
            canonical_url=meta.canonical_url,
            kind=kind,
            text=text,
            has_body=has_body,
            word_count=words,
            reading_time=minutes,
            processing_time=time.perf_counter() - started,
            truncated=truncated,
            encoding=encoding,
            _render_html=partial(self._rendering, content, base_url) if has_body else None,
            _render_markdown=partial(
                render.markdown,
                # The headline left the body (select.settle); a Markdown document
                # still opens with it.
                title=content.heading,
                table_format=cfg.table_format,
                include_images=cfg.include_images,
                include_links=cfg.include_links,
            ),
        )

    # -- stages ---------------------------------------------------------------------

    def _model(self, trace: Trace | None) -> blockmodel.BlockModel | None:
        """The block model, unless the caller chose the content (a scorer, a selector,
        the whole page) or the training tool traces the pipeline without it."""
        cfg = self.config
        if not cfg.extract_article or cfg.include_selector or cfg.scorer is not None:
            return None
        if trace is not None and trace.vocabulary is not None:
            return None
        return self.block_model or blockmodel.load_model()

    def _segment(
        self,
        tree: LexborHTMLParser,
        pruned: prune.Pruned,
        vocabulary: Vocabulary,
        deadline: _Deadline | None = None,
    ) -> Segmentation:
        body = tree.body
        if body is None:
            return Segmentation()
        cfg = self.config
        marks = dict.fromkeys(pruned.comment_sections, FLAG_COMMENT)
        if cfg.include_selector:
            for node in tree.css(cfg.include_selector):
                marks[node.mem_id] = marks.get(node.mem_id, 0) | FLAG_SELECTED
        return segment.segment(
            body,
            vocabulary,
            include_tables=cfg.include_tables,
            max_depth=cfg.max_depth,
            marks=marks,
            deadline=deadline,
        )

    def _select(
        self,
        seg: Segmentation,
        meta: metadata.Metadata,
        url: str | None,
        pruned: prune.Pruned,
        model: blockmodel.BlockModel | None,
        deadline: _Deadline | None = None,
    ) -> tuple[Content, str, _Seen | None]:
        """The content blocks without the comment sections, or with them when the page
        is a discussion: forums and Q&A pages keep their posts in elements named
        "comment", and when the page without them has little left, or says it is a
        discussion, the comments are the content."""
        favor = self.config.favor
        # Whether the comments are the content is the balanced selection's call:
        # Config.favor moves the model's thresholds, not the page's kind, so that
        # "precision" keeps a subset of the balanced blocks and "recall" a superset.
        judge: Favor = "balanced" if model is not None else favor
        choose = partial(self._choose, seg, meta, url, model, deadline=deadline)
        content, seen = choose(judge, exclude=FLAG_COMMENT)
        text = self._text(content)
        exclude = FLAG_COMMENT
        if pruned.comment_sections and (
            _is_discussion(meta.json_ld)
            or _discussion_url(url)
            or (
                len(text) < COMMENTS_RETRY_CHARS
                and not _is_product(meta)
                and not _has_story(content, text)
            )
        ):
            retry, retry_seen = choose(judge, exclude=0)
            retry_text = self._text(retry)
            if len(retry_text) > len(text):
                content, text, seen, exclude = retry, retry_text, retry_seen, 0
        if judge != favor:
            content, seen = choose(favor, exclude=exclude)
            text = self._text(content)
        return content, text, seen

    def _choose(
        self,
        seg: Segmentation,
        meta: metadata.Metadata,
        url: str | None,
        model: blockmodel.BlockModel | None,
        favor: Favor,
        *,
        exclude: int,
        deadline: _Deadline | None = None,
    ) -> tuple[Content, _Seen | None]:
        """One selection over the blocks without the ``exclude`` flags."""
        cfg = self.config
        check = deadline.check if deadline is not None else _no_check
        title = meta.title
        if cfg.include_selector or not cfg.extract_article:
            # The caller chose: the blocks its selector matched, or the whole page.
            wanted = FLAG_SELECTED if cfg.include_selector else 0
            keep = select.whole(seg, wanted, exclude)
            return select.settle(seg, keep, title, region=() if wanted else (0,)), None
        view, index = seg.view(FLAG_SHORT | exclude)
        agg = score.aggregate(view)
        check("select")
        sel = select.select_blocks(view, agg, cfg.scorer.score if cfg.scorer else None)
        check("select")
        ctx = features.PageContext(
            url=url,
            title=title,
            og_type=meta.og_type,
            ld_types={t for item in meta.json_ld for t in metadata.ld_types(item)},
        )
        if model is not None:
            view_keep = model.keep(view, agg, sel, ctx, favor)
        else:
            # The density selection less its link lists: a caller's scorer, or no model.
            view_keep = sel.in_root & ~sel.noise
        # A named sidebar is no content, whatever the model said (select.sidebar_elements).
        view_keep = select.beside_sidebars(view_keep, sel.aside)
        if not cfg.include_comments:
            # The story ends with the post body the page names (select.within_story_body).
            # A discussion's thread outweighs its first post, which keeps it whole.
            view_keep = select.within_story_body(view.blocks, sel.body, view_keep)
        check("select")
        content = select.settle(
            seg,
            None,
            title,
            view=index,
            shown=view,
            view_keep=view_keep,
            in_root=sel.in_root,
            exclude=exclude,
            region=sel.roots,
        )
        return content, _Seen(view, agg, sel, ctx)

    def _fallback(
        self,
        content: Content,
        text: str,
        embedded: fallbacks.Sources,
        meta: metadata.Metadata,
        deadline: _Deadline | None = None,
    ) -> tuple[Content, str, str | None]:
        """On a thin page, the embedded body (by format), then og:description; say
        which text replaced the page's, if one did."""
        cfg = self.config
        fallback = None
        if len(text) < max(cfg.min_body_chars, THIN_BODY_CHARS):
            body_html = fallbacks.embedded_body(embedded, meta.json_ld)
            if body_html:
                found = self._fragment(body_html, deadline)
                found_text = self._text(found)
                if len(found_text) > len(text):
                    content, text = found, found_text
                    fallback = found_text
        if len(text) < cfg.min_body_chars and meta.description:
            described = self._fragment(f"<div>{escape(meta.description, quote=False)}</div>")
            described_text = self._text(described)
            if len(described_text) > len(text):
                content, text = described, described_text
                fallback = described_text
        return content, text, fallback

    def _fragment(self, markup: str, deadline: _Deadline | None = None) -> Content:
        """Content made of every block of an HTML fragment (an embedded body), pruned
        like a page."""
        tree = parse(markup)
        prune.prune_page(tree, include_comments=True)
        seg = (
            segment.segment(
                tree.body,
                segmentation.EMPTY_VOCABULARY,
                include_tables=self.config.include_tables,
                max_depth=self.config.max_depth,
                deadline=deadline,
            )
            if tree.body is not None
            else Segmentation()
        )
        return select.settle(seg, select.whole(seg), None, region=(0,))

    def _text(self, content: Content) -> str:
        return render.text(content.blocks(self.config.min_paragraph_chars))

    def _rendering(self, content: Content, base_url: str | None) -> Rendering:
        cfg = self.config
        markup, media = render.html(content, base_url, max_depth=cfg.max_depth)
        return Rendering(
            html=markup,
            images=media.images if cfg.include_images else [],
            links=media.links if cfg.include_links else [],
            videos=media.videos,
            audios=media.audios,
        )

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


def _base_url(href: str | None, url: str | None) -> str | None:
    """The page URL resolved against ``<base href>`` (``href``, as metadata read it);
    an unparsable base is ignored, as browsers do."""
    if href and not href.lower().startswith(("javascript:", "data:")):
        return resolve(url, href)
    return url


def _decode(
    data: bytes | str, content_type: str | None, override: str | None
) -> tuple[str | bytes, str | None]:
    """The markup, as a str or as the UTF-8 bytes of one (the input's own, see
    Decoded.utf8: parse reads them as they are), and the encoding it was read from."""
    if isinstance(data, str):
        markup = data.replace("\x00", "")
        _refuse_json(markup[:256], lambda: markup)
        return markup, None
    decoded = decode(data, content_type=content_type, override=override)
    _refuse_json(decoded.head(256), lambda: decoded.text)
    return decoded.utf8 if decoded.utf8 is not None else decoded.text, decoded.encoding


def _refuse_json(head: str, text: Callable[[], str]) -> None:
    """An API response (WordPress's {"content": {"rendered": "<p>..."}}) is data, not
    a page, even when its strings hold HTML. The whole text is read only when its
    head opens like JSON."""
    if head.lstrip()[:1] in ("{", "[") and _is_json(text()):
        raise UnsupportedContent("the input is JSON, not HTML")


_DISCUSSION_TYPES = frozenset({"DiscussionForumPosting", "QAPage", "Question", "Conversation"})


def _is_discussion(json_ld: list[dict[str, Any]]) -> bool:
    for item in json_ld:
        kind = item.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if any(isinstance(k, str) and k in _DISCUSSION_TYPES for k in kinds):
            return True
    return False


# A URL naming the page a discussion (Reddit's /comments/, forum software's /threads/,
# /discussion/, viewtopic.php, showthread.php, Discuz!'s mod=viewthread, and /forum/ or
# /topic/ paths that end in a thread's number): its posts are the content, even where
# they sit in comment-named elements and the page outside them is long. On the WCXB dev
# pages 35 forum URLs say so; one, whose sidebar rules outweighed the 600 characters
# that trigger the retry, went 0.09 -> 0.42 (forum 0.833 -> 0.836), no other page
# changed. The numbered /forum/ and /topic/ paths took two news-set threads from 0.13
# and 0.09 to 0.37 and 0.84; without the number, /topic/ names a subject's listing
# (/topics/machine-learning) and /forum/ a board, and a WCXB thread whose content is
# its first post alone lost 0.93.
_DISCUSSION_PATH = re.compile(
    r"/(?:comments|threads?|discussions?)/"
    r"|/(?:forums?|topics?)/(?:[^/?]*/)*\d"
    r"|(?:view|show)(?:thread|topic)\b",
    re.I,
)


def _discussion_url(url: str | None) -> bool:
    """Whether the URL's path or query names a discussion (see _DISCUSSION_PATH)."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return _DISCUSSION_PATH.search(f"{parts.path}?{parts.query}") is not None


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except RecursionError:
        # Arrays or objects nested past the parser's stack: JSON, not a page.
        return True
    except ValueError:
        return False
    return True


def _has_story(content: Content, text: str) -> bool:
    """Whether the selection without the comments is a story (see STORY_PARAGRAPHS)."""
    prose = sum(segmentation.is_prose(block) for block in content.blocks())
    return prose >= STORY_PARAGRAPHS or (prose >= 1 and len(text) >= ONE_PARAGRAPH_STORY_CHARS)


def _is_product(meta: metadata.Metadata) -> bool:
    """A product page: its "comments" are customer reviews, never the content."""
    if meta.og_type and "product" in meta.og_type.lower():
        return True
    return any(fallbacks.has_type(item, "Product") for item in meta.json_ld)


def _page_text(tree: LexborHTMLParser) -> str:
    body = tree.body
    return " ".join(body.text(deep=True, separator=" ").split()) if body is not None else ""


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


class FetchedPage(Protocol):
    """What extract_fetched reads of a fetched page (``unchrome.net.fetch.Fetched``): the
    pipeline does not import the network layer, which sits above it."""

    url: str
    content_type: str | None
    body: bytes
    truncated: bool


def extract_fetched(page: FetchedPage, config: Config | None = None) -> Result:
    """Extract a fetched page (``unchrome.net.fetch.Fetched``), carrying the fetch's
    facts into the Result: a body cut at the byte cap is ``truncated``, and the final
    URL stands in for a page that names none."""
    result = extract(page.body, url=page.url, content_type=page.content_type, config=config)
    if page.truncated:
        result.truncated = True
    if not result.url:
        result.url = page.url
    return result


__all__ = [
    "DEFAULT_EXTRACTOR",
    "Extractor",
    "UnchromeError",
    "extract",
    "extract_fetched",
    "extract_file",
    "extract_text",
    "read_confined",
]
