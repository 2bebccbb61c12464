"""What the command lines share (``unchrome`` in cli, ``unchrome warc`` in cli_warc):
the exit code of each named failure (the table in cli's docstring) and the options both
take. With them here, the one arrow between the two commands is cli's dispatch to
cli_warc."""

from __future__ import annotations

import argparse

from unchrome.config import FAVORS
from unchrome.errors import UnchromeError

EXIT_CODES: dict[str, int] = {
    "INVALID_INPUT": 3,
    "INVALID_URL": 3,
    "FILE_ACCESS": 3,
    "FORBIDDEN_ADDRESS": 4,
    "BLOCKED_BY_SITE": 5,
    "PAGE_NOT_FOUND": 6,
    "UNSUPPORTED_CONTENT": 7,
    "EXTRACT_FAILED": 8,
    "UPSTREAM_ERROR": 9,
    "UPSTREAM_TIMEOUT": 10,
    "TIMEOUT": 10,
    "RENDER_UNAVAILABLE": 11,
    "EXTRA_MISSING": 12,
}
EXIT_OK, EXIT_OTHER, EXIT_USAGE = 0, 1, 2


def exit_code(error: BaseException) -> int:
    if isinstance(error, UnchromeError):
        return EXIT_CODES.get(error.code, EXIT_OTHER)
    return EXIT_OTHER


def add_content_options(p: argparse.ArgumentParser) -> None:
    """The switches a trafilatura user reaches for, on Config's fields (``unchrome`` and
    ``unchrome warc``; the service takes them as X-No-Tables... headers)."""
    p.add_argument(
        "--no-tables", action="store_true", help="leave the tables out (Config.include_tables)"
    )
    p.add_argument(
        "--no-links",
        action="store_true",
        help="write the Markdown's links as their text, and list none (Config.include_links)",
    )
    p.add_argument(
        "--no-images",
        action="store_true",
        help="leave the images out of the Markdown, and list none (Config.include_images)",
    )
    p.add_argument(
        "--comments",
        action="store_true",
        help="keep the comment sections (Config.include_comments)",
    )


def content_config(opts: argparse.Namespace) -> dict[str, bool]:
    """The Config fields of add_content_options' switches."""
    return {
        "include_tables": not opts.no_tables,
        "include_links": not opts.no_links,
        "include_images": not opts.no_images,
        "include_comments": opts.comments,
    }


def add_favor_option(p: argparse.ArgumentParser) -> None:
    """``--favor``, Config.favor on the command line (``unchrome`` and ``unchrome warc``)."""
    p.add_argument(
        "--favor",
        choices=FAVORS,
        default="balanced",
        help="leave doubtful blocks out (precision) or keep them (recall); default balanced",
    )
