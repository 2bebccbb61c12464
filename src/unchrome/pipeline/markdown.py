"""The Markdown rendering: the sanitized HTML of the selection (render.html) converted by
html-to-markdown, with what the converter gets wrong put right (images inside other
elements, markup the page shows as text, control characters), and the headline on top.
fence_lines tells code fences from text for whoever reads the Markdown back."""

from __future__ import annotations

import re
from functools import cache

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
    # Imported on the first Markdown asked for: a page read as text or HTML (the
    # command line's --format text, a library caller reading .text) does without the
    # converter, 25-30 ms of a process's start.
    import html_to_markdown

    options = html_to_markdown.ConversionOptions(
        keep_inline_images_in=_IMAGE_PARENTS,
        # <abbr title="Virtual Private Network">VPN</abbr> is "VPN" on the page; the
        # converter would spell every one out, words neither the page nor the text show.
        expand_abbreviations=False,
        # "a***a", a masked name, is no emphasis: a literal asterisk is escaped.
        escape_asterisks=True,
        extract_metadata=False,
        heading_style="atx",
        code_block_style="backticks",
        skip_images=not include_images,
        strip_tags=[] if include_links else ["a"],
        preserve_tags=["table"] if table_format == "html" else [],
        # A cell's paragraphs and lines part with <br>: a Markdown cell is one line.
        br_in_tables=True,
    )
    # Markup the page shows as text ("&lt;a href=…&gt;" in a tutorial) must stay text:
    # the converter would write it as raw HTML, which a Markdown reader renders. Its
    # "<" goes through the converter as a private-use character, then comes back
    # escaped outside code and as it is inside.
    literal = "&lt;" in html
    if literal:
        html = html.replace("&lt;", _LT)
    try:
        converted = html_to_markdown.convert(html, options).content.strip()
    except html_to_markdown.InvalidInputError:
        # The converter calls a text "binary" when about a third of it is control
        # characters (a Shift JIS page full of \x06 bytes, found by the fuzzer). They
        # are invisible: convert again without them. Pages it accepts are unchanged.
        converted = html_to_markdown.convert(html.translate(_CONTROLS), options).content.strip()
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
