"""The output schema, defined once: every field that the extraction of a page gives,
its type, its meaning and which outputs carry it.

Every output is derived from :data:`FIELDS`, so that no door names a thing differently:

* ``library``: ``Result.to_dict()`` / ``Result.to_json()``, and so the CLI's
  ``--format json`` (and the docstring ``help(Result)`` shows);
* ``service``: the JSON answers of ``unchrome serve`` and their OpenAPI model, where
  the content comes in the requested format only (``format`` names it);
* ``rows``: the batch rows of ``unchrome warc`` (JSON Lines and Parquet columns), which
  also say where each record came from and whether it was extracted.

The YAML front matter of ``--with-metadata`` (:func:`front_matter`) takes its fields
from here too. The README's schema table is this table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LIBRARY, SERVICE, ROWS = "library", "service", "rows"
_EVERYWHERE = frozenset({LIBRARY, SERVICE, ROWS})
_PAGE = frozenset({LIBRARY, SERVICE})
_ROWS = frozenset({ROWS})

#: The field types: JSON strings, integers, numbers, booleans, lists of strings
#: (``strs``), and lists of media objects ``{"url", "text", "title"}`` (absolute URLs;
#: alt or anchor text; title).
TYPES = ("str", "int", "float", "bool", "strs", "media")


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str  # one of TYPES
    meaning: str
    outputs: frozenset[str] = _EVERYWHERE
    nullable: bool = True  # null (None) when the page does not say

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"unknown field type {self.type!r}")


FIELDS: tuple[Field, ...] = (
    Field("url", "str", "the page's URL as given (the base of its links), or null"),
    Field("warc_record_id", "str", "the WARC record's id (null for an HTML file)", _ROWS),
    Field("warc_date", "str", "the WARC record's date", _ROWS),
    Field(
        "source",
        "str",
        "the input the page was read from: the file (the WARC file of a record), the URL "
        "asked for, or `-` (standard input); null for a document given to `extract()`",
        frozenset({LIBRARY, ROWS}),
    ),
    Field("warc_offset", "int", "the record's offset in its WARC file", _ROWS),
    Field("http_status", "int", "the recorded HTTP status", _ROWS),
    Field("status", "str", "`ok`, or the error code of a page that failed", _ROWS, False),
    Field("error", "str", "the error message of a page that failed", _ROWS),
    Field("title", "str", "the page's title (the headline, without the site's name)"),
    Field("site_name", "str", "the site's name"),
    Field("author", "str", 'the authors\' names joined by ", "'),
    Field(
        "authors",
        "strs",
        'the authors\' names, one an item (no "By", roles, dates or outlet); empty when '
        "the page names none",
        nullable=False,
    ),
    Field(
        "date",
        "str",
        "ISO 8601: the publication date, or where the page states none, the last update",
    ),
    Field("date_modified", "str", "ISO 8601: when the page says it was last changed"),
    Field("description", "str", "the page's own summary (meta description, og:description)"),
    Field("language", "str", "the content's language (BCP 47, as the page declares it)"),
    Field("image", "str", "the hero image, absolute URL"),
    Field("canonical_url", "str", "the page's canonical URL, absolute"),
    Field("hostname", "str", "the host of the URL", _ROWS),
    Field(
        "kind",
        "str",
        "what the page is: `article`, `forum`, `product`, `listing`, `collection`, "
        "`documentation`, `service`, `social` or `feed` (see docs/metadata.md)",
        nullable=False,
    ),
    Field(
        "format",
        "str",
        "which content field the answer carries: `markdown`, `text` or `html`",
        frozenset({SERVICE}),
        False,
    ),
    Field("markdown", "str", "the main content as Markdown", nullable=False),
    Field(
        "text",
        "str",
        "the main content as plain text: paragraphs apart by a blank line, list items and "
        "table rows one a line",
        nullable=False,
    ),
    Field("html", "str", "the main content as sanitized HTML", _PAGE, False),
    Field("has_body", "bool", "whether any main content was found", _PAGE, False),
    Field("images", "media", "the images of the main content", frozenset({LIBRARY}), False),
    Field("links", "media", "the links of the main content", frozenset({LIBRARY}), False),
    Field("videos", "media", "the videos of the main content", frozenset({LIBRARY}), False),
    Field("audios", "media", "the audio files of the main content", frozenset({LIBRARY}), False),
    Field("word_count", "int", "words of the text (CJK-aware)", nullable=False),
    Field("reading_time", "int", "minutes, at least 1 when there is a body", _PAGE, False),
    Field("processing_time", "float", "seconds the extraction took", _PAGE, False),
    Field("truncated", "bool", "the input was cut at Config.max_input_bytes", nullable=False),
    Field("encoding", "str", "the character encoding the bytes were read in (null for a str)"),
)

BY_NAME: dict[str, Field] = {f.name: f for f in FIELDS}
#: The content fields: the service carries the requested one, the rows those asked for.
CONTENT = ("markdown", "text", "html")
#: The content columns a batch or crawl row can carry (``--format``): both or one.
CONTENT_FORMATS: tuple[str, ...] = ("both", "markdown", "text")


def fields(output: str) -> tuple[Field, ...]:
    """The fields of one output (LIBRARY, SERVICE or ROWS), in order."""
    return tuple(f for f in FIELDS if output in f.outputs)


def names(output: str) -> tuple[str, ...]:
    return tuple(f.name for f in fields(output))


# ----------------------------------------------------------------------- front matter

#: The fields of the YAML front matter (``--with-metadata``), in this order; the ones
#: the page does not give are left out.
FRONT_MATTER = ("title", "author", "date", "date_modified", "url", "site_name", "language", "image")


def front_matter(values: Mapping[str, Any]) -> str:
    """A YAML front-matter block (``---`` lines around ``key: "value"`` lines) of the
    FRONT_MATTER fields that ``values`` holds. Values are JSON strings, which YAML
    reads as double-quoted scalars: a title with a colon, a quote or a line break
    stays one string, and a date stays a string rather than becoming a YAML date."""
    lines = ["---"]
    for name in FRONT_MATTER:
        value = values.get(name)
        if value:
            lines.append(f"{name}: {json.dumps(str(value), ensure_ascii=False)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def docstring(output: str = LIBRARY) -> str:
    """One line per field of ``output``: name, type, meaning (for help(Result))."""
    return "\n".join(
        f"    {f.name} ({f.type}{' or None' if f.nullable else ''}): {f.meaning}"
        for f in fields(output)
    )


# Row columns taken from the Result as they are (the others: the record's own, its url
# and source among them, hostname, status and error, and the content columns the run
# asked for).
ROW_RESULT_FIELDS = tuple(
    f.name
    for f in FIELDS
    if ROWS in f.outputs
    and LIBRARY in f.outputs
    and f.name not in CONTENT
    and f.name not in ("url", "source")
)


def markdown_table() -> str:
    """The README's schema table: field, type, meaning, and the outputs that carry it."""
    rows = ["| field | type | meaning | in |", "|---|---|---|---|"]
    for f in FIELDS:
        kind = f"{f.type}{' or null' if f.nullable else ''}"
        where = "all" if f.outputs == _EVERYWHERE else ", ".join(sorted(f.outputs))
        rows.append(f"| `{f.name}` | {kind} | {f.meaning} | {where} |")
    return "\n".join(rows)
