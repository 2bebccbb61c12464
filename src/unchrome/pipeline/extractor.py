"""The pipeline, one stage per module: decode → parse → prune → segment → select →
fallbacks → classify → render.

``Extractor`` holds a validated ``Config``; the module-level functions use a default
one. ``Extractor.extract`` orders the stages (its docstring lists them) and enforces
the input caps and the processing deadline; the stages live in their modules.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from html import escape
from typing import Any, Protocol

from unchrome import inputs, metadata
from unchrome._native import _arrays
from unchrome._native._dom import collapse, page_elements
from unchrome.config import DEFAULT_CONFIG, Config, Favor
from unchrome.errors import (
    ExtractFailed,
    ExtractTimeout,
    InvalidInput,
    UnchromeError,
)
from unchrome.model import blockmodel, features
from unchrome.pipeline import (
    classify,
    fallbacks,
    feed,
    kinds,
    markdown,
    prune,
    render,
    score,
    segment,
    segmentation,
    select,
    sniff,
    threads,
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
    # Seconds spent in each stage, when given a dict (the benchmark's --profile): the
    # time between two deadline checks goes to the stage the second one names.
    laps: dict[str, float] | None = None


@dataclass(frozen=True, slots=True)
class _Seen:
    """What one scoring pass saw: the blocks it scored (``seg``, a view of the page's
    and ``index``, their places in it), their sums, the density selection and the page
    context. The decision reads it, and the trace keeps the winning pass's."""

    seg: Segmentation
    agg: score.Aggregate
    sel: select.Selection
    ctx: features.PageContext
    index: list[int]


class _Deadline:
    """Config.timeout, from the start of one extraction: ``check`` raises TIMEOUT once
    it has passed. Checked between the stages and inside the loops that can run long
    on a large page (the segment walk, a data table's rows, between the selection's
    steps), so that an extraction ends at most about 0.15 s past its timeout on a 4 MiB
    page (tools/bench_worst_case.py measures the longest stretch between two checks);
    lexbor's parse is the one step it cannot interrupt (up to about 0.3 s; its nesting
    is capped first by parse.guard_markup)."""

    __slots__ = ("expires", "laps", "last")

    def __init__(self, timeout: float | None, laps: dict[str, float] | None = None) -> None:
        self.last = time.perf_counter()
        self.expires = self.last + timeout if timeout else None
        self.laps = laps  # Trace.laps

    def check(self, stage: str) -> None:
        if self.laps is not None:
            now = time.perf_counter()
            self.laps[stage] = self.laps.get(stage, 0.0) + now - self.last
            self.last = now
        if self.expires is not None and time.perf_counter() > self.expires:
            raise ExtractTimeout(f"processing deadline passed during {stage}")


def _no_check(stage: str) -> None:
    """No deadline (Config.timeout None)."""


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for one extraction, when it runs.

    It runs whenever allocations outnumber deallocations by 700, and every few runs
    walks every object that survived the ones before. A page's extraction makes
    objects that last until it ends and holds no cycle among them, so on a large page
    the collector walked a growing heap for nothing: on the 4 MiB page of bench
    --profile, segment took 46 ms with it running and 27 with it paused. The largest
    kinds (the blocks and the node handles) are not tracked at all (_dom._wrap); what
    is left is walked once, after. Measured on that page after every WCXB page (as bench
    --profile runs it), total ms: 114-119 paused alone, 108 with only the untracked
    objects, 90-95 with both (86.5-90 with the blocks' tuples untracked too). Ordinary
    pages gain nothing measurable. The pause is the process's: an extraction in
    another thread meanwhile sees the collector paused, and the one that paused it
    resumes it; a caller that had paused it finds it paused after.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


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
        # 0: the cyclic collector waits until the page is done (_collector_paused).
        with _collector_paused():
            started = time.perf_counter()
            cfg = self.config
            deadline = _Deadline(cfg.timeout, trace.laps if trace is not None else None)
            data, truncated = sniff.check_input(data, content_type, cfg.max_input_bytes)  # 1
            deadline.check("sniff")

            if feed.looks_like_feed(data, content_type):  # 2
                result = feed.extract_feed(data, url=url)
                result.truncated = result.truncated or truncated
                result.processing_time = time.perf_counter() - started
                return result

            markup, encoding = _decode(data, content_type, cfg.encoding)  # 3
            deadline.check("decode")

            tree = parse(markup)  # 4
            deadline.check("parse")
            # One walk for the elements read before pruning: metadata's (and its
            # bylines'), the embedded bodies' and the signs of a social post.
            elements, embedded_elements, social, bylines = (
                page_elements(tree.root) if tree.root is not None else ([], [], [], [])
            )
            meta = metadata.extract_metadata(tree, url, elements, bylines)
            shape = classify.detect_kind(meta.og_type, tree, meta.ld_type_names, social)
            kind = kinds.page_kind(meta, url, shape)
            base_url = _base_url(meta.base_href, url)
            embedded = fallbacks.sources(embedded_elements)
            deadline.check("metadata")

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

            # Reader comments no class names, found by their rows of "Reply" buttons, are
            # comment sections too.
            threaded = not cfg.include_comments and threads.flag_threads(seg)
            has_comments = bool(pruned.comment_sections) or threaded
            deadline.check("threads")
            # The model reads the page's address (its path's words and depth); a page given
            # without one is read at the address it declares (canonical, og:url), so that
            # the same page gives the same story with its URL and without. On the suites'
            # pages the URL moves the model's verdicts on 1,900 of 4,000 pages (WCXB dev
            # 0.896 -> 0.900 word F1 with it, the news set 0.885 -> 0.899).
            page_url = url or meta.canonical_url
            content, text, seen = self._select(  # 7
                seg, meta, page_url, has_comments, kind == "forum", model, deadline
            )
            deadline.check("select")

            content, text, fallback = self._fallback(content, text, embedded, meta, deadline)  # 8
            deadline.check("fallbacks")
            if trace is not None:
                if seen is not None:
                    trace.seg, trace.agg = seen.seg, seen.agg
                    trace.sel, trace.ctx = seen.sel, seen.ctx
                trace.fallback = fallback
                trace.content = content

            # 9: on the unfiltered text: a "deleted post" notice is often shorter than
            # min_paragraph_chars and would vanish, leaving only a "back" link.
            if len(text) <= classify.BOT_WALL_MAX_CHARS:
                # Its whitespace collapsed (no NUL reaches here: see segmentation.BR).
                screen = collapse(content.screen_text())
                classify.classify_block(meta.page_title, screen or _page_text(tree))
            else:
                classify.classify_block(meta.page_title, text)
            deadline.check("classify")
            has_body = bool(text.strip())
            if not has_body and not meta.page_title:
                raise ExtractFailed("no main content and no title found")

            words, minutes = render.count_words(text)  # 10
            return Result(
                url=url,
                title=meta.title,
                site_name=meta.site_name,
                author=meta.author,
                authors=meta.authors,
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
                _headline=content.heading,
                _render_html=partial(self._rendering, content, base_url) if has_body else None,
                _render_markdown=partial(
                    markdown.markdown,
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
        has_comments: bool,
        forum: bool,
        model: blockmodel.BlockModel | None,
        deadline: _Deadline | None = None,
    ) -> tuple[Content, str, _Seen | None]:
        """The content blocks, in up to three named passes over the same blocks:

        1. the selection without the comment sections;
        2. the comments' pass: forums and Q&A pages keep their posts in elements named
           "comment", so when the page without them has little left, or says it is a
           discussion, the selection is made again with them, and the longer one wins;
        3. the favor's pass: Config.favor moves the model's thresholds, not the page's
           kind, so the winning pass's scores are decided again with the favor's
           thresholds ("precision" keeps a subset of the balanced blocks, "recall" a
           superset).
        """
        favor = self.config.favor
        judge: Favor = "balanced" if model is not None else favor
        check = deadline.check if deadline is not None else _no_check
        seen = self._score(seg, meta, url, FLAG_COMMENT, deadline)  # 1
        content = self._decide(seg, meta, seen, model, judge, FLAG_COMMENT, forum, deadline)
        text = self._text(content)
        check("text")
        exclude = FLAG_COMMENT
        if has_comments and (  # 2
            kinds.is_discussion(meta.json_ld)
            or kinds.discussion_url(url)
            or (
                len(text) < kinds.COMMENTS_RETRY_CHARS
                and not kinds.is_product(meta)
                and not kinds.has_story(content, text)
            )
        ):
            with_comments = self._score(seg, meta, url, 0, deadline)
            retry = self._decide(seg, meta, with_comments, model, judge, 0, forum, deadline)
            retry_text = self._text(retry)
            check("text")
            if len(retry_text) > len(text):
                content, text, seen, exclude = retry, retry_text, with_comments, 0
        if judge != favor:  # 3
            content = self._decide(seg, meta, seen, model, favor, exclude, forum, deadline)
            text = self._text(content)
            check("text")
        return content, text, seen

    def _score(
        self,
        seg: Segmentation,
        meta: metadata.Metadata,
        url: str | None,
        exclude: int,
        deadline: _Deadline | None = None,
    ) -> _Seen | None:
        """The density score and selection of the blocks without the ``exclude`` flags
        (and the short paragraphs); None when the caller chose the content instead."""
        cfg = self.config
        if cfg.include_selector or not cfg.extract_article:
            return None
        check = deadline.check if deadline is not None else _no_check
        view, index = seg.view(FLAG_SHORT | exclude)
        agg = score.aggregate(view)
        check("score")
        sel = select.select_blocks(view, agg, cfg.scorer.score if cfg.scorer else None)
        check("score")
        ctx = features.PageContext(
            url=url,
            title=meta.page_title,
            og_type=meta.og_type,
            ld_types={t for item in meta.json_ld for t in metadata.ld_types(item)},
        )
        return _Seen(view, agg, sel, ctx, index)

    def _decide(
        self,
        seg: Segmentation,
        meta: metadata.Metadata,
        seen: _Seen | None,
        model: blockmodel.BlockModel | None,
        favor: Favor,
        exclude: int,
        forum: bool = False,
        deadline: _Deadline | None = None,
    ) -> Content:
        """Which of the scored blocks are content: the model's decision over the density
        selection (or the selection less its link lists), then the named sidebars and
        what follows a named post body left out."""
        cfg = self.config
        title = meta.page_title
        if seen is None:
            # The caller chose: the blocks its selector matched, or the whole page.
            wanted = FLAG_SELECTED if cfg.include_selector else 0
            keep = select.whole(seg, wanted, exclude)
            return select.settle(seg, keep, title, region=() if wanted else (0,))
        view, agg, sel = seen.seg, seen.agg, seen.sel
        if model is not None:
            # A caller who asks for comments keeps what follows the story's container.
            view_keep = model.keep(
                view,
                agg,
                sel,
                seen.ctx,
                favor,
                bound_story=not cfg.include_comments,
                check=deadline.check if deadline is not None else None,
            )
        else:
            # The density selection less its link lists: a caller's scorer, or no model.
            view_keep = _arrays.without(sel.in_root, sel.noise)
        # A named sidebar is no content, whatever the model said (select.sidebar_elements).
        view_keep = select.beside_sidebars(view_keep, sel.aside)
        if not cfg.include_comments:
            # The story ends with the post body the page names (select.within_story_body).
            # A discussion's thread outweighs its first post, which keeps it whole.
            view_keep = select.within_story_body(view.blocks, sel.body, view_keep)
        if forum:
            # A thread says who wrote each post.
            threads.post_authors(view.blocks, view_keep)
        if deadline is not None:
            deadline.check("select")
        settled = select.settle(
            seg,
            None,
            title,
            view=seen.index,
            shown=view,
            view_keep=view_keep,
            in_root=sel.in_root,
            exclude=exclude,
            region=sel.roots,
        )
        if deadline is not None:
            deadline.check("settle")
        return settled

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
        data = inputs.read_confined(path, root=root, max_bytes=self.config.max_input_bytes)
        result = self.extract(data, url=url, content_type=content_type)
        result.source = os.fspath(path)
        return result


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
        sniff.refuse_json(markup[:256], lambda: markup)
        return markup, None
    decoded = decode(data, content_type=content_type, override=override)
    sniff.refuse_json(decoded.head(256), lambda: decoded.text)
    return decoded.utf8 if decoded.utf8 is not None else decoded.text, decoded.encoding


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
]
