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


def add_favor_option(p: argparse.ArgumentParser) -> None:
    """``--favor``, Config.favor on the command line (``unchrome`` and ``unchrome warc``)."""
    p.add_argument(
        "--favor",
        choices=FAVORS,
        default="balanced",
        help="leave doubtful blocks out (precision) or keep them (recall); default balanced",
    )
