"""What a request chooses (the format, the front matter, the Config's switches), read
alike on every endpoint: from the JSON body or the query where the endpoint has them,
else from the ``X-...`` headers, which mean the same everywhere they are documented."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, get_args

from fastapi import Header

from unchrome.config import Config
from unchrome.errors import InvalidInput
from unchrome.service.models import WITH_METADATA, Format, check_with_metadata

FORMATS: tuple[str, ...] = get_args(Format)


def flag(value: str | None, name: str) -> bool:
    """A boolean header: true/1/yes or false/0/no (absent: false)."""
    word = (value or "").strip().lower()
    if word in ("", "0", "false", "no"):
        return False
    if word in ("1", "true", "yes"):
        return True
    raise InvalidInput(f"{name} must be true or false, got {value!r}")


# The switches a trafilatura user reaches for (the CLI's --no-tables, --no-links,
# --no-images, --comments): header, JSON field, the Config field and its value when on.
SWITCHES: tuple[tuple[str, str, str, bool], ...] = (
    ("X-No-Tables", "no_tables", "include_tables", False),
    ("X-No-Links", "no_links", "include_links", False),
    ("X-No-Images", "no_images", "include_images", False),
    ("X-Comments", "comments", "include_comments", True),
)
SWITCH_MEANINGS = {
    "no_tables": "true: leave the tables out",
    "no_links": "true: links as their text",
    "no_images": "true: leave the images out of the Markdown",
    "comments": "true: keep the comment sections",
}


def _header(description: str) -> Any:
    return Header(description=description)


class Headers:
    """The option headers, one FastAPI dependency: each endpoint that takes them lists
    them all in the OpenAPI description."""

    def __init__(
        self,
        x_return_format: Annotated[
            str | None,
            _header("markdown (default), text or html; a format given in the query or the "
                    "JSON body wins"),
        ] = None,
        x_target_selector: Annotated[str | None, _header("CSS selector of the content")] = None,
        x_remove_selector: Annotated[str | None, _header("CSS selector of parts to drop")] = None,
        x_favor: Annotated[str | None, _header("precision, balanced (default) or recall")] = None,
        x_with_metadata: Annotated[str | None, _header(f"true: {WITH_METADATA}")] = None,
        x_no_tables: Annotated[str | None, _header(SWITCH_MEANINGS["no_tables"])] = None,
        x_no_links: Annotated[str | None, _header(SWITCH_MEANINGS["no_links"])] = None,
        x_no_images: Annotated[str | None, _header(SWITCH_MEANINGS["no_images"])] = None,
        x_comments: Annotated[str | None, _header(SWITCH_MEANINGS["comments"])] = None,
    ) -> None:  # fmt: skip
        self.format = x_return_format
        self.target_selector = x_target_selector
        self.remove_selector = x_remove_selector
        self.favor = x_favor
        self.with_metadata = x_with_metadata
        self.switches = {
            "no_tables": x_no_tables,
            "no_links": x_no_links,
            "no_images": x_no_images,
            "comments": x_comments,
        }


@dataclass(frozen=True)
class Choice:
    fmt: Format
    with_metadata: bool
    config: Config


def choose(base: Config, headers: Headers, given: Mapping[str, Any]) -> Choice:
    """The request's choices: ``given`` holds what the JSON body or the query set (their
    field names), and wins; the headers fill in the rest. A bad value is INVALID_INPUT
    (400), from Config's own validation where it is a Config field."""
    fmt = given.get("format") or (headers.format or "markdown").strip().lower()
    if fmt not in FORMATS:
        raise InvalidInput(f"X-Return-Format must be {', '.join(FORMATS)}, got {fmt!r}")
    if "with_metadata" in given:
        with_metadata = bool(given["with_metadata"])
    else:
        with_metadata = flag(headers.with_metadata, "X-With-Metadata")
    check_with_metadata(fmt, with_metadata)
    changes: dict[str, Any] = {}
    for field, header in (
        ("include_selector", "target_selector"),
        ("exclude_selector", "remove_selector"),
    ):
        value = given.get(header) or getattr(headers, header)
        if value:
            changes[field] = value
    favor = given.get("favor") or headers.favor
    if favor:
        changes["favor"] = favor.strip().lower()
    for header, name, field, on in SWITCHES:
        chosen = given[name] if name in given else flag(headers.switches[name], header)
        if chosen:
            changes[field] = on
    return Choice(fmt, with_metadata, base.with_(**changes) if changes else base)  # type: ignore[arg-type]
