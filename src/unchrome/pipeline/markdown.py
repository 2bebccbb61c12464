"""The Markdown rendering: the sanitized HTML of the selection (render.html) converted by
html-to-markdown, with what the converter gets wrong put right (images inside other
elements, markup the page shows as text, control characters), and the headline on top.
fence_lines tells code fences from text for whoever reads the Markdown back."""

from __future__ import annotations

import re
import sys
import threading
from functools import cache
from types import ModuleType

# The converter writes an image inside any other element as its alt text, words the
# page shows as a picture and the text rendering never holds ("A plate of pasta with
# a fork" inside a recipe card's link): images stay images wherever they sit.
_IMAGE_PARENTS = [
    "a", "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "span", "li", "dd", "dt", "td",
    "th", "caption", "figure", "figcaption", "picture", "blockquote", "section",
    "article", "header", "footer", "aside", "main", "strong", "b", "em", "i", "u",
    "small", "mark", "q", "cite", "label", "sup", "sub", "center", "font", "address",
]  # fmt: skip


def markdown(
    html: str,
    *,
    title: str | None = None,
    table_format: str = "markdown",
    include_images: bool = True,
    include_links: bool = True,
) -> str:
    native = _native()
    options = _options(native, table_format, include_images, include_links)
    # Markup the page shows as text ("&lt;a href=…&gt;" in a tutorial) must stay text:
    # the converter would write it as raw HTML, which a Markdown reader renders. Its
    # "<" goes through the converter as a private-use character, then comes back
    # escaped outside code and as it is inside.
    literal = "&lt;" in html
    if literal:
        html = html.replace("&lt;", _LT)
    try:
        converted = native.convert(html=html, options=options, visitor=None).content.strip()
    except native.InvalidInputError:
        # The converter calls a text "binary" when about a third of it is control
        # characters (a Shift JIS page full of \x06 bytes, found by the fuzzer). They
        # are invisible: convert again without them. Pages it accepts are unchanged.
        converted = native.convert(
            html=html.translate(_CONTROLS), options=options, visitor=None
        ).content.strip()
    if literal:
        # In a URL (a data: picture's "<svg") the converter percent-encoded it.
        converted = _restore_lt(_lt_in_url().sub("%3C", converted))
    if title:
        title = " ".join(title.split())
        first = converted.partition("\n")[0]
        if first.startswith("#") and first.lstrip("#").strip().casefold() == title.casefold():
            return converted  # it opens with its title already
        return f"# {title}\n\n{converted}"
    return converted


def _options(
    native: ModuleType, table_format: str, include_images: bool, include_links: bool
) -> object:
    """The compiled converter's options for ``markdown``: what is not given here is
    the converter's default, as it is the package's (see _native)."""
    return native.ConversionOptions(
        keep_inline_images_in=_IMAGE_PARENTS,
        # <abbr title="Virtual Private Network">VPN</abbr> is "VPN" on the page; the
        # converter would spell every one out, words neither the page nor the text show.
        expand_abbreviations=False,
        # "a***a", a masked name, is no emphasis: a literal asterisk is escaped.
        escape_asterisks=True,
        extract_metadata=False,
        heading_style=native.HeadingStyle.ATX,
        code_block_style=native.CodeBlockStyle.BACKTICKS,
        skip_images=not include_images,
        strip_tags=[] if include_links else ["a"],
        preserve_tags=["table"] if table_format == "html" else [],
        # A cell's paragraphs and lines part with <br>: a Markdown cell is one line.
        br_in_tables=True,
    )


_NATIVE = "html_to_markdown._html_to_markdown"
_NATIVE_LOCK = threading.Lock()


def _native() -> ModuleType:
    """html-to-markdown's compiled module (the converter, its options and errors),
    loaded on the first Markdown asked for (a page read as text or HTML does without)
    and without the package's Python layer: that layer declares the compiled options
    again as two dozen dataclasses and enums (html_to_markdown.options) and copies the
    caller's into the compiled ones at every call. Importing it took 10-15 ms of each
    command line run writing Markdown, the compiled module 1.5 ms. The options are
    built in ``markdown`` as the package's ``convert`` builds them, defaults included
    (tests/test_markdown.py holds the two equal). The module is registered under its
    own name: a later import of the package finds it there (a compiled module loads
    once), and the lock keeps two threads from loading it twice."""
    with _NATIVE_LOCK:
        module = sys.modules.get(_NATIVE)
        if module is not None:
            return module
        import importlib.machinery
        import importlib.util

        package = importlib.util.find_spec("html_to_markdown")
        locations = package.submodule_search_locations if package else None
        spec = importlib.machinery.PathFinder.find_spec(_NATIVE, locations) if locations else None
        if spec is None or spec.loader is None:  # a layout this does not know: the package's way
            import html_to_markdown._html_to_markdown as imported

            return imported
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[_NATIVE] = module
        return module


_LT = "\ue000"


# These two are compiled on first use: only a page showing markup as text asks (6% of
# the WCXB dev pages).
@cache
def _lt_in_url() -> re.Pattern[str]:
    return re.compile("%EE%80%80", re.I)


@cache
def _code_span_or_lt() -> re.Pattern[str]:
    return re.compile(r"(`+)(?:(?!\1).)*?\1|\ue000", re.S)


# A code fence's line: after indentation, list markers or quote marks ("5. ```bash" opens
# a list item's code block), a run of three backticks or tildes and its info string.
FENCE = re.compile(r"^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|>[ \t]?)*(`{3,}|~{3,})(.*)$")


def fence_lines(markdown: str) -> list[tuple[str, bool]]:
    """The lines of ``markdown``, each with whether it is inside a fenced code block
    (the fences themselves are not): a fence closes only on a run of its own character
    at least as long, with no info string (CommonMark)."""
    out: list[tuple[str, bool]] = []
    fence = ""
    for line in markdown.split("\n"):
        match = FENCE.match(line) if "``" in line or "~~" in line else None
        if match and not fence:
            fence = match.group(1)
            out.append((line, False))
        elif (
            match
            and match.group(1)[0] == fence[0]
            and len(match.group(1)) >= len(fence)
            and not match.group(2).strip()
        ):
            fence = ""
            out.append((line, False))
        else:
            out.append((line, bool(fence)))
    return out


def _restore_lt(markdown: str) -> str:
    """The "<" of the page's text back in converted Markdown: as it is inside code
    blocks and spans, escaped (``\\<``) elsewhere."""
    out: list[str] = []
    for line, fenced in fence_lines(markdown):
        if _LT in line:
            if fenced:
                line = line.replace(_LT, "<")
            else:
                line = _code_span_or_lt().sub(
                    lambda m: m.group(0).replace(_LT, "<") if m.group(1) else "\\<", line
                )
        out.append(line)
    return "\n".join(out)


# C0 control characters but tab, line feed, form feed and carriage return.
_CONTROLS = dict.fromkeys(c for c in range(32) if c not in (9, 10, 12, 13))
