"""Render: the one selection (select.Content) as plain text, sanitized HTML and Markdown.

Plain text joins the kept blocks (its rules are ours: which short paragraphs to drop,
how tables read as text). The HTML is written from the same blocks: the text nodes of
the kept blocks and nothing of the dropped ones. Markdown is a solved problem and goes
to html-to-markdown, a maintained converter with a Rust core, fed with that HTML."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from html import escape, unescape

from unchrome._native._blocktext import word_count
from unchrome._native._dom import AttributeNames, block_holders, class_and_id, write_html
from unchrome.pipeline.parse import LexborNode
from unchrome.pipeline.segmentation import CHROME_NAMES, FLAG_ROW, Block
from unchrome.pipeline.select import LAYOUT_CELL_CHARS, Content, html_root
from unchrome.result import Media
from unchrome.rules.tags import BLOCK_TAGS, HEADINGS, MEDIA_WITH_FALLBACK
from unchrome.urls import resolve

# Items of a list read one per line; other blocks are separated by a blank line.
_LINE_ITEMS = frozenset({"li", "dt", "dd", "tr"})

# Attributes that survive sanitizing; everything else (event handlers, styles, data-*)
# goes, which also keeps the Markdown converter's input small.
_KEEP_ATTRS = frozenset(
    {"href", "src", "alt", "title", "colspan", "rowspan", "datetime", "lang", "dir", "start"}
)
_URL_ATTRS = ("href", "src")
_LAZY_SRC = ("data-src", "data-lazy-src", "data-original", "data-url", "data-lazy")
# What the writer reads of an element: the attributes it keeps and those a lazy image
# hides its address in (read off lexbor's element, not as a dict of all of them).
_WRITTEN_ATTRIBUTES = AttributeNames((*sorted(_KEEP_ATTRS), *_LAZY_SRC, "srcset", "data-srcset"))
_CODE_LANG = re.compile(
    r"(?:^|\s)(?:language-|lang-|highlight-(?:source-)?|brush:\s*)([\w+#.-]+)", re.I
)
# URLs no reader of the output can follow, or that run code: a script, an inline
# document or picture (a data: image's base64 bulk in the Markdown, an inline page
# that runs its own scripts) and a file on someone's disk. Browsers drop ASCII tabs
# and newlines anywhere in a URL and spaces and control characters around it
# ("java\tscript:" runs), so the test reads it with those removed (_scheme_text).
_UNSAFE_SCHEME = re.compile(r"(?:javascript|vbscript|data|file):", re.I)
_URL_IGNORED = re.compile(r"[\t\n\r]|^[\x00-\x20]+")
# What a browser's URL parser percent-encodes in a URL's path and query: whitespace,
# quotes, angle brackets and the backtick. A page's broken markup can leave them in
# an href (an affiliate link whose href ran on into '">Razor <img src=...'); kept
# raw, the Markdown printed the markup as the link's destination.
_URL_ESCAPES = str.maketrans({c: f"%{ord(c):02X}" for c in ' "<>`\t\n\r'})
_VIDEO_EMBED = re.compile(r"/(?:embed|player|video)s?/|[?&]v=|\.(?:mp4|webm|m3u8)(?:$|\?)", re.I)


def text(blocks: Sequence[Block]) -> str:
    """Plain text of blocks: items of a list (and rows of a table) one per line, other
    blocks separated by a blank line, code with its lines as the page shows them."""
    out: list[str] = []
    prev = ""
    for block in blocks:
        kind = block.kind
        if out:
            out.append("\n" if kind in _LINE_ITEMS and prev in _LINE_ITEMS else "\n\n")
        if kind == "pre" and block.nodes and block.nodes[0].tag == "pre":
            out.append(code_text(block.nodes[0]))
        else:
            out.append(block.text)
        prev = kind
    return "".join(out)


# Inside a <pre>, elements that hold one line each: highlighters write a line per
# element (Prism's "token-line", CodeMirror's "cm-line", "code-line", "line") with no
# line feed between them; a browser shows them on lines of their own. Not the gutter's
# "line-number" / "lineno" spans.
_CODE_LINE_TAGS = frozenset({"div", "p", "li", "tr", "table", "ol", "ul"})
_CODE_LINE_CLASS = re.compile(r"(?:^|\s)(?:[\w-]*-)?line(?:\s|$)", re.I)
# A cheap test first: a <pre> holding none of these reads as its plain text (a class
# merely containing "line", "inline" say, takes the full walk, which decides exactly).
_CODE_LINE_SELECTOR = "br, " + ", ".join(sorted(_CODE_LINE_TAGS)) + ", [class*=line i]"


def code_text(pre: LexborNode) -> str:
    """The text of a <pre> as a browser shows it: its whitespace as it is, a line feed
    at each <br> and around each element that holds a line (_CODE_LINE_TAGS, a
    highlighter's line span), non-breaking spaces as spaces; blank lines at its ends
    dropped."""
    if pre.css_first(_CODE_LINE_SELECTOR) is None:
        # No element that breaks a line: the text as lexbor reads it, in C (the walk
        # below, node by node in Python, cost 0.17 ms a WCXB page).
        return (pre.text(deep=True) or "").replace("\xa0", " ").strip("\n")
    out: list[str] = []

    def newline() -> None:
        if out and not out[-1].endswith("\n"):
            out.append("\n")

    # An explicit stack of (node, entered): no recursion on deep markup.
    stack: list[tuple[LexborNode, bool]] = [(pre, False)]
    while stack:
        node, entered = stack.pop()
        tag = node.tag or ""
        if entered:
            newline()
            continue
        if tag == "-text":
            out.append(node.text_content)
            continue
        if tag == "br":
            out.append("\n")
            continue
        if tag.startswith("-"):
            continue
        line = node is not pre and (
            tag in _CODE_LINE_TAGS
            or (len(node.attrs) and _CODE_LINE_CLASS.search(node.attrs.get("class") or ""))
        )
        if line:
            newline()
            stack.append((node, True))
        children = []
        child = node.child
        while child is not None:
            children.append(child)
            child = child.next
        stack.extend((c, False) for c in reversed(children))
    return "".join(out).replace("\xa0", " ").strip("\n")


# Characters that show nothing: a text of them alone is no content (a heading holding
# only zero-width spaces would be written as an empty ``## ``).
_INVISIBLE = " \t\n\r\f\v\xa0\u200b\u200c\u200d\u2060\ufeff"


def _blank(value: str) -> bool:
    return value.isspace() or not value.strip(_INVISIBLE)


@dataclass
class MediaLists:
    images: list[Media] = field(default_factory=list)
    links: list[Media] = field(default_factory=list)
    videos: list[Media] = field(default_factory=list)
    audios: list[Media] = field(default_factory=list)


# Elements written without a closing tag.
_VOID = frozenset({"img", "br", "hr", "source", "track", "wbr", "area", "col"})
# Elements that are content without any text: a picture or a player.
_VISUAL = frozenset({"img", "video", "audio", "iframe"})
# The parts of a layout table that go (their cells become divisions).
_LAYOUT_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "colgroup", "col"})
_LAYOUT_CELLS = frozenset({"td", "th", "caption"})
# A table whose text is mostly links (this share) in cells of a few words (this many
# characters a cell on average) is a navigation bar drawn with a table.
NAV_LINK_SHARE = 0.8
NAV_CELL_CHARS = 30
# Elements written as a division: the segmented root, and the containers the Markdown
# converter drops whole (a forum that wraps its thread in a <form>; a <nav> the
# selection kept, a documentation page's contents).
_AS_DIVISION = frozenset({"body", "html", "form", "nav"})
# Inline formatting around a heading (``<b><h2>…</h2></b>``), or a disclosure's
# <summary> holding one (React's docs: ``<summary><h5>Deep Dive</h5>``): written, the
# converter prints ``**## …**``, a heading no Markdown reader sees. Only its content is
# written.
_INLINE_WRAPPERS = frozenset(
    {"b", "strong", "em", "i", "u", "s", "mark", "small", "big", "font", "span", "label",
     "summary"}
)  # fmt: skip


@dataclass(slots=True)
class _Open:
    """An element being written: where its output starts, and the counts before it."""

    tag: str  # the tag written, "" when only its content is (a layout table's parts)
    start: int  # index in the output of its opening tag
    kept: int
    dropped: int
    visual: int
    breaks: int
    media: int
    blank: int  # pictures without alt text before it
    names: str  # class and id, for the chrome test of a picture-only element
    layout: bool  # inside a layout table (its innermost table)
    unit: bool  # inside a kept block's element (a table row): all its text is kept
    link: LexborNode | None = None  # a card's link around a heading, moved into it
    inner: bool = False  # a heading holding its card's link: close the link first


def html(
    content: Content, base_url: str | None, *, max_depth: int = 1 << 30
) -> tuple[str, MediaLists]:
    """The sanitized HTML of the kept blocks, and the media found in it.

    One walk from the selection's root (select.html_root) writes each element with its
    allowed attributes and URLs made absolute, and each text node of a kept block; the
    text of a dropped block is left out, so this HTML (and the Markdown made from it)
    holds the words of the text rendering and no others. An element that ends up with
    no kept text goes, with its pictures when it held a dropped block's text or is
    named like in-story chrome (a related-posts strip of thumbnails); an element with no
    block at all keeps its pictures (a figure between two paragraphs). So does an
    empty link: a heading's permalink anchor never reaches the Markdown as ``[](…)``.
    A layout table (not data to _dom._is_data_table) is written as divisions, one per cell; a
    <pre> as a code block with its language. The tree is only read.
    """
    seg = content.seg
    root_id = html_root(seg, content.keep, content.region)
    media = MediaLists()
    if root_id < 0:
        return "", media
    root = seg.nodes[root_id]
    keep = list(content.keep)
    # The nodes of the kept blocks and of the dropped ones, and the elements up to the
    # written root that hold a kept block's node and those that hold a dropped block's
    # text (its whitespace is none: the walk writes it as it is).
    kept_ids, dropped_ids, holds_kept, holds_dropped = block_holders(seg.blocks, keep, root)
    data_tables: set[int] = set()
    # Headings and list items: blocks a link or an inline element cannot hold in Markdown.
    wrapped: list[LexborNode] = []
    for block, kept in zip(seg.blocks, keep, strict=True):
        if block.flags & FLAG_ROW:
            data_tables.add(seg.nodes[block.owner].mem_id)
        elif kept and (block.kind in HEADINGS or block.kind == "li"):
            wrapped.append(seg.nodes[block.owner])
    writer = _Writer(base_url, kept_ids, dropped_ids, data_tables, max_depth)
    writer.wrappers = _block_wrappers(wrapped, root.mem_id)
    writer.holds_kept, writer.holds_dropped = holds_kept, holds_dropped
    markup = writer.write(root)
    for bucket, item in writer.media:
        getattr(media, bucket).append(item)
    return markup, media


def _block_wrappers(blocks: Sequence[LexborNode], root: int) -> dict[int, LexborNode]:
    """The links and inline elements around kept headings and list items, by mem_id, up
    to the written root. The converter cannot put a block inside a link or a bold run:
    a card's link around its heading and teaser (``<a><h3>…</h3><p>…``) would be one
    line of link text, a product tile's link around its list of features one more,
    and ``<b><h2>…`` would be ``**## …**``."""
    wrappers: dict[int, LexborNode] = {}
    seen: set[int] = {root}
    for block in blocks:
        node = block.parent
        # Siblings share their ancestors: each is looked at once.
        while node is not None and node.mem_id not in seen:
            seen.add(node.mem_id)
            if node.tag == "a" or node.tag in _INLINE_WRAPPERS:
                wrappers[node.mem_id] = node
            node = node.parent
    return wrappers


class _Writer:
    """The walk of ``html``: an explicit stack, no recursion."""

    def __init__(
        self,
        base_url: str | None,
        kept_ids: set[int],
        dropped_ids: set[int],
        data_tables: set[int],
        max_depth: int,
    ) -> None:
        self.base_url = base_url
        self.kept_ids = kept_ids
        self.dropped_ids = dropped_ids
        self.data_tables = data_tables
        self.max_depth = max_depth
        self.out: list[str] = []
        self.media: list[tuple[str, Media]] = []
        self.seen_media: set[tuple[str, str]] = set()
        self.kept = self.dropped = self.visual = self.breaks = self.blank = 0
        # Links and inline elements around kept headings and list items (_block_wrappers).
        self.wrappers: dict[int, LexborNode] = {}
        # The elements holding a kept block's node, and those holding a dropped one's
        # text (see html): an element of the second set only is left out unread.
        self.holds_kept: set[int] = set()
        self.holds_dropped: set[int] = set()

    def write(self, root: LexborNode) -> str:
        return write_html(root, self, _blank)

    def _visit(self, node: LexborNode, stack: list[_Open]) -> tuple[bool, bool]:
        """Write what an element contributes before its children; say whether it
        opened it (pushed on ``stack``) and whether to walk its children. (Text nodes
        are written by the walk, _dom.write_html.)"""
        tag = node.tag or ""
        unit = bool(stack) and stack[-1].unit
        mem = node.mem_id
        if not unit and mem in self.dropped_ids:
            self.dropped += 1
            return False, False
        kept_unit = not unit and mem in self.kept_ids
        if tag == "pre" and (kept_unit or unit):
            self._code_block(node)
            return False, False
        if (kept_unit and tag not in ("tr", "caption")) or len(stack) >= self.max_depth:
            # An element read whole: nested past max_depth.
            if kept_unit or unit:
                self.out.append(escape(node.text(deep=True, separator=" "), quote=False))
                self.kept += 1
            return False, False
        layout = stack[-1].layout if stack else False
        if tag == "table":
            layout = not self._grid(node, mem in self.data_tables)
        written = tag
        link: LexborNode | None = None
        if mem in self.wrappers:
            # Around a heading or a list item: only its content is written. A link to
            # another page goes into its heading (``### [Title](…)``), the teaser after
            # it plain; a link around a list (a product tile) is left out.
            written = ""
            if tag == "a" and not self._self_link(node, None):
                link = node
        elif layout and tag in _LAYOUT_PARTS:
            written = ""
        elif (layout and tag in _LAYOUT_CELLS) or tag in _AS_DIVISION:
            written = "div"
        elif tag == "a" and self._self_link(node, stack):
            # A heading that links to itself (``## [Why flexbox?](#why_flexbox)``): a
            # heading, not a link. Its text stays.
            written = ""
        elif tag == "label":
            # A form's label is a span of text to a reader; the converter drops the line
            # breaks inside a label nested in another (a colour picker's swatches).
            written = "span"
        if (
            not unit
            and mem not in self.holds_kept
            and mem in self.holds_dropped
            and written not in ("a", "td", "th")
        ):
            # Nothing of the content inside and a dropped block's text: _close would
            # take it out whole. It is left out here as _close would leave it, without
            # reading its subtree (its attributes, its links' URLs): on a page whose
            # selection's root is the body, most of the walk.
            self.dropped += 1
            if written in BLOCK_TAGS or "-" in written:
                parent = stack[-1].tag if stack else ""
                inline = bool(parent) and parent not in BLOCK_TAGS and "-" not in parent
                self.out.append("<br>" if inline else " ")
            return False, False
        attrs = self._open_tag(node, written) if written else {}
        if attrs is None:
            # A picture with nothing to show: it still parts the words around it, as
            # in the text (segment).
            self.out.append(" ")
            return False, False
        if tag == "br" and unit:
            # Inside a table row: a Markdown table cell holds no line break, and the
            # converter would glue the lines' words together.
            self.out.pop()
            self.out.append(" ")
            return False, False
        if tag == "br":
            self.breaks += 1
        if tag in _VOID:
            self.visual += tag in _VISUAL
            self.blank += tag == "img" and not (attrs.get("alt") or "").strip()
            self._collect(tag, node, attrs)
            return False, False
        names = class_and_id(node)
        stack.append(
            _Open(
                written,
                len(self.out) - (1 if written else 0),
                self.kept,
                self.dropped,
                self.visual,
                self.breaks,
                len(self.media),
                self.blank,
                names,
                layout,
                unit or kept_unit,
                link,
            )
        )
        self.visual += tag in _VISUAL
        self.blank += tag in MEDIA_WITH_FALLBACK
        if tag in _MEDIA_TAGS:
            self._collect(tag, node, attrs)
        if tag in HEADINGS and written:
            card = next((frame.link for frame in reversed(stack) if frame.link), None)
            if card is not None:
                link_attrs = self._open_tag(card, "a") or {}
                self._collect("a", card, link_attrs)
                stack[-1].inner = True
        if tag in MEDIA_WITH_FALLBACK:
            # What a player shows where it does not play: never content. Its
            # <source> and <track> children stay.
            for child in node.iter():
                if child.tag in ("source", "track"):
                    child_attrs = self._open_tag(child, child.tag) or {}
                    self._collect(child.tag, child, child_attrs)
            return True, False
        return True, node.child is not None

    def _close(self, frame: _Open, stack: list[_Open]) -> None:
        kept = self.kept - frame.kept
        dropped = self.dropped - frame.dropped
        visual = self.visual - frame.visual
        if frame.tag == "a" and not kept and visual and self.blank - frame.blank == visual:
            # A link around pictures with no alt text (a product's gallery thumbnails,
            # a video's poster): ``[![](…)](…)`` says nothing to a reader. The pictures
            # stay in the media lists.
            del self.out[frame.start :]
            self.visual, self.blank = frame.visual, frame.blank
            self.out.append(" ")
            return
        if kept or (
            visual and not dropped and not (frame.names and CHROME_NAMES.search(frame.names))
        ):
            if (frame.tag == "a" or frame.inner) and len(self.media) > frame.media:
                # The link's text is known now: the text written inside it.
                bucket, item = self.media[frame.media]
                if bucket == "links":
                    words = "".join(
                        unescape(piece) for piece in self.out[frame.start + 1 :] if piece[:1] != "<"
                    )
                    self.media[frame.media] = (bucket, replace(item, text=" ".join(words.split())))
            if frame.inner:
                self.out.append("</a>")
            if frame.tag:
                self.out.append(f"</{frame.tag}>")
            return
        if frame.tag in ("td", "th"):
            # A data table's cell stays, empty, when nothing of it is content (an icon,
            # a blank): the cells after it keep their columns.
            del self.out[frame.start + 1 :]
            del self.media[frame.media :]
            self.visual, self.blank = frame.visual, frame.blank
            self.out.append(f"</{frame.tag}>")
            return
        # Nothing of the content inside: the element goes, with what it held. A line
        # break it held stays, unless it held a dropped block: a <span><br></span>
        # between two runs of text keeps their words apart.
        del self.out[frame.start :]
        del self.media[frame.media :]
        self.visual, self.blank = frame.visual, frame.blank
        if self.breaks > frame.breaks and not dropped:
            self.out.append("<br>")
        elif frame.tag in BLOCK_TAGS or "-" in frame.tag:
            # A block element parts the words before and after it, even empty: the
            # text's blocks end there (segment). Inside a line (a swatch <div> in a
            # <label>) only a line break keeps the converter from gluing the words.
            parent = stack[-1].tag if stack else ""
            inline = bool(parent) and parent not in BLOCK_TAGS and "-" not in parent
            self.out.append("<br>" if inline else " ")

    def _self_link(self, link: LexborNode, stack: list[_Open] | None) -> bool:
        """Whether a link inside a heading (any link: ``stack`` None) points at this
        page itself: a fragment, or the page's own URL with one (a heading's anchor to
        its own section)."""
        if stack is not None and not any(frame.tag in HEADINGS for frame in stack):
            return False
        href = (link.attrs.get("href") or "").strip() if len(link.attrs) else ""
        if href.startswith("#"):
            return True
        if "#" not in href or not self.base_url:
            return False
        target = resolve(self.base_url, href)
        return target is not None and target.split("#")[0] == self.base_url.split("#")[0]

    def _grid(self, table: LexborNode, rows_read: bool) -> bool:
        """Whether a table is a grid of data by its shape, not by its tags: most rows cut
        into the same two columns or more, at least two rows showing the selection's
        text in two cells or more, and no navigation bar (cells of a few words, all
        links: Prev / Up / Home / Next). A table segment walked as a layout box
        (``rows_read`` False: its cells hold blocks, Sphinx's and many CMSs'
        <td><p>...</p></td>) must also hold no table and no cell of a page's length (a
        forum post, a column of the site)."""
        if not rows_read and table.css_first("tr table") is not None:
            return False
        kept = self.kept_ids
        widths: list[int] = []
        filled = 0
        long_cell = False
        headed = False
        for tr in table.css("tr"):
            cells = tr.css("td, th")
            if not widths:
                headed = len(cells) >= 3 and all(cell.tag == "th" for cell in cells)
            widths.append(len(cells))
            if len(cells) < 2:
                continue
            texts = 0
            for cell in cells:
                if not rows_read and len(cell.text(deep=True)) >= LAYOUT_CELL_CHARS:
                    if not headed:
                        # A column of a page laid out with a table: decided here, not
                        # after a walk of every other cell's text nodes.
                        return False
                    long_cell = True
                texts += rows_read or any(
                    node.tag == "-text" and node.mem_id in kept and not node.text_content.isspace()
                    for node in cell.traverse(include_text=True)
                )
            filled += texts >= 2
        if filled < 2 and not rows_read:
            return False
        common = max(set(widths), key=widths.count) if widths else 0
        if common < 2 or widths.count(common) * 2 < len(widths):
            return False
        if long_cell and not (headed and widths[0] == common):
            return False
        words = table.text(deep=True, separator=" ")
        chars = len(words.strip())
        links = sum(len(a.text(deep=True).strip()) for a in table.css("a"))
        cells = sum(widths)
        return not (chars and links >= NAV_LINK_SHARE * chars and chars < NAV_CELL_CHARS * cells)

    def _open_tag(self, node: LexborNode, written: str) -> dict[str, str | None] | None:
        """Write the opening tag with the allowed attributes and return them; write
        nothing and return None for an image without a source (the converter would
        print the link around it with its address as text)."""
        present = _WRITTEN_ATTRIBUTES.read(node)
        tag = node.tag or ""
        if not present and tag != "img":
            # Most elements keep no attribute (an image without one is left out below).
            self.out.append(f"<{written}>")
            return {}
        if tag in ("img", "source"):
            src = present.get("src") or ""
            if not src or src.startswith("data:"):
                for lazy in _LAZY_SRC:
                    if present.get(lazy):
                        present["src"] = present[lazy]
                        break
                else:
                    srcset = present.get("srcset") or present.get("data-srcset") or ""
                    if srcset:
                        present["src"] = srcset.split(",")[0].strip().split(" ")[0]
        kept: dict[str, str | None] = {}
        for name, value in present.items():
            if name not in _KEEP_ATTRS:
                continue
            if name in _URL_ATTRS:
                if value is None or _unsafe_url(value):
                    continue
                value = resolve(self.base_url, value)
                if value is None or _unsafe_url(value):
                    # Resolved against a file: page's own URL.
                    continue
                value = value.translate(_URL_ESCAPES)
            kept[name] = value
        if tag == "img" and not kept.get("src"):
            return None
        parts = [written]
        for name, value in kept.items():
            if name == "title" and tag in MEDIA_WITH_FALLBACK:
                # The converter would print a player's title as a link's text: words
                # the page shows as a film. It stays in the media lists.
                continue
            parts.append(name if value is None else f'{name}="{escape(value)}"')
        self.out.append(f"<{' '.join(parts)}>")
        return kept

    def _code_block(self, pre: LexborNode) -> None:
        """A <pre> as a code block: its text with its whitespace, and its language."""
        code = code_text(pre)
        self.kept += 1
        language = _code_language(pre)
        opening = f'<code class="language-{escape(language)}">' if language else "<code>"
        self.out.append(f"<pre>{opening}{escape(code, quote=False)}</code></pre>")

    def _collect(self, tag: str, node: LexborNode, attrs: dict[str, str | None]) -> None:
        if tag in _MEDIA_TAGS:  # most elements are none: no call for them
            _collect(tag, node, attrs, self.media, self.seen_media)


def _unsafe_url(value: str) -> bool:
    """Whether a link or a source is one of the _UNSAFE_SCHEME URLs, read as a browser
    reads it."""
    return _UNSAFE_SCHEME.match(_URL_IGNORED.sub("", value)) is not None


def _code_language(pre: LexborNode) -> str | None:
    """The language of a code block, from the class of the <pre>, its <code> or the
    wrappers around it (Sphinx's ``highlight-python``, Prism's ``language-js``)."""
    candidates: list[LexborNode | None] = [pre, pre.css_first("code")]
    parent = pre.parent
    for _ in range(3):
        if parent is None:
            break
        candidates.append(parent)
        parent = parent.parent
    for node in candidates:
        if node is None or not node.is_element_node or not len(node.attrs):
            continue
        match = _CODE_LANG.search(node.attrs.get("class") or "")
        if match:
            return match.group(1).lower()
    return None


# The elements _collect reads: pictures, links, players and their sources, embeds.
_MEDIA_TAGS = frozenset({"img", "a", "video", "audio", "source", "iframe"})


def _collect(
    tag: str,
    node: LexborNode,
    attrs: dict[str, str | None],
    media: list[tuple[str, Media]],
    seen: set[tuple[str, str]],
) -> None:
    """Add an image, link, video or audio to ``media`` as (MediaLists field, item); a
    link's text is filled in when the element closes (only its kept words count)."""
    if tag == "img":
        url = attrs.get("src")
        bucket = "images"
        text = attrs.get("alt") or ""
    elif tag == "a":
        url = attrs.get("href")
        if not url or url.startswith("#"):
            return
        bucket = "links"
        text = ""
    elif tag in ("video", "audio", "source", "iframe"):
        url = attrs.get("src")
        if tag == "source":
            parent = node.parent
            ptag = parent.tag if parent is not None else ""
            if ptag not in ("video", "audio"):
                return
            tag = ptag or tag
        if tag == "iframe":
            if not url or not _VIDEO_EMBED.search(url):
                return
            tag = "video"
        bucket = "videos" if tag == "video" else "audios"
        text = ""
    else:
        return
    if not url or (tag, url) in seen:
        return
    seen.add((tag, url))
    media.append((bucket, Media(url=url, text=text, title=attrs.get("title") or "")))


# Reading speeds: ~230 words a minute for space-separated scripts, ~500 characters a
# minute for Chinese and Japanese (commonly cited averages).
WORDS_PER_MINUTE = 230
CJK_CHARS_PER_MINUTE = 500


def count_words(text: str) -> tuple[int, int]:
    """(word count, reading minutes). Words are whitespace-separated, as ``wc -w``
    counts them, except that each Han or kana character counts as a word: Chinese and
    Japanese do not separate words with spaces (compiled: _blocktext.word_count)."""
    words, cjk = word_count(text)
    total = words + cjk
    if not total:
        return 0, 0
    minutes = words / WORDS_PER_MINUTE + cjk / CJK_CHARS_PER_MINUTE
    return total, max(1, round(minutes))
