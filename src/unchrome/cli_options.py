"""What the command lines share (``unchrome`` in cli, ``unchrome warc`` in cli_warc):
the exit code of each named failure (the table in cli's docstring) and the options both
take. With them here, the one arrow between the two commands is cli's dispatch to
cli_warc."""

from __future__ import annotations

import argparse
from dataclasses import replace

from unchrome.config import FAVORS
from unchrome.errors import UnchromeError
from unchrome.net.fetch_config import (
    ENV_ALLOW_ADDRESSES,
    ENV_ALLOW_PORTS,
    ENV_FETCH_DEADLINE,
    FetchConfig,
)
from unchrome.schema import CONTENT_FORMATS

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


def add_fetch_options(p: argparse.ArgumentParser) -> None:
    """``--timeout``, ``--allow-address`` and ``--allow-port`` (``unchrome``, ``unchrome
    map`` and ``unchrome crawl``): added to the environment's settings (fetch_config_of)."""
    p.add_argument(
        "--timeout",
        type=float,
        help=f"total seconds per fetch (default: {ENV_FETCH_DEADLINE}, else 10)",
    )
    p.add_argument(
        "--allow-address",
        action="append",
        default=[],
        metavar="CIDR",
        help="also allow fetching these (private) networks, e.g. 10.0.0.0/8; adds to "
        f"{ENV_ALLOW_ADDRESSES} (CIDRs, comma-separated)",
    )
    p.add_argument(
        "--allow-port",
        action="append",
        default=[],
        type=int,
        metavar="PORT",
        help=f"also allow this port besides 80 and 443; adds to {ENV_ALLOW_PORTS} "
        "(ports, comma-separated)",
    )


def fetch_config_of(opts: argparse.Namespace) -> FetchConfig:
    """The environment's fetch settings (FetchConfig.from_env, as the service reads
    them), add_fetch_options' flags added to them."""
    env = FetchConfig.from_env()
    return replace(
        env,
        allow_ports=(*env.allow_ports, *opts.allow_port),
        allow_addresses=(*env.allow_addresses, *opts.allow_address),
        deadline=env.deadline if opts.timeout is None else opts.timeout,
    )


def add_content_format_option(p: argparse.ArgumentParser) -> None:
    """``-f/--format``: the content columns a batch row fills (``unchrome warc`` and
    ``unchrome crawl``)."""
    p.add_argument(
        "-f",
        "--format",
        choices=CONTENT_FORMATS,
        default="both",
        help="content columns to fill: text and markdown (both, default), or one of them",
    )
