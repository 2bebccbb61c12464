"""robots.txt read as RFC 9309 says, parsed by Protego.

* 2xx: the rules; only the first 500 KiB are read (the RFC's minimum; the rest ignored).
* 4xx (401 and 403 included): no rules, everything allowed.
* 5xx, 429, or the server unreachable: everything disallowed, for ``unavailable_for``
  seconds, after which it is asked again.
* Redirects: followed (five hops), each through the SSRF guard like any fetch.

Protego rather than ``urllib.robotparser``: the standard parser knows neither ``*`` and
``$`` patterns nor the longest-match rule between Allow and Disallow, both RFC 9309.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from protego import Protego

from unchrome.errors import (
    BlockedBySite,
    ForbiddenAddress,
    InvalidURL,
    PageNotFound,
    UnchromeError,
)
from unchrome.net.fetch import Fetched
from unchrome.net.fetch_config import FetchConfig

log = logging.getLogger("unchrome.crawl")

ROBOTS_MAX_BYTES = 500 * 1024
# How long a robots.txt answer is kept: a day when read (RFC 9309 asks for no more),
# and minutes when the server failed, so a crawl asks again soon.
ROBOTS_TTL = 24 * 3600.0
UNAVAILABLE_TTL = 300.0

Fetch = Callable[[str, FetchConfig], Fetched]


@dataclass(frozen=True)
class Robots:
    """One origin's robots.txt: its rules, or everything allowed or disallowed."""

    origin: str
    rules: Protego | None = None
    allow_all: bool = False
    reason: str = ""  # why there are no rules (a 404, a 503...)
    read_at: float = 0.0

    def allowed(self, url: str, agent: str) -> bool:
        if self.rules is not None:
            return bool(self.rules.can_fetch(url, agent))
        return self.allow_all

    def crawl_delay(self, agent: str) -> float | None:
        if self.rules is None:
            return None
        delay = self.rules.crawl_delay(agent)
        return float(delay) if delay is not None else None

    @property
    def unavailable(self) -> bool:
        return self.rules is None and not self.allow_all

    @property
    def sitemaps(self) -> list[str]:
        return list(self.rules.sitemaps) if self.rules is not None else []


def robots_config(fc: FetchConfig) -> FetchConfig:
    return dataclasses.replace(
        fc, max_bytes=ROBOTS_MAX_BYTES, max_decompressed=ROBOTS_MAX_BYTES, max_redirects=5
    )


def read_robots(origin: str, fetch: Fetch, fc: FetchConfig) -> Robots:
    """Fetch and judge ``origin``/robots.txt (``fetch`` must not judge the answer)."""
    now = time.monotonic()
    try:
        answer = fetch(origin + "/robots.txt", robots_config(fc))
    except (ForbiddenAddress, InvalidURL) as exc:
        # A robots.txt redirected somewhere refused: as unreachable, we may not crawl.
        log.warning("robots.txt of %s: %s: %s", origin, exc.code, exc)
        return Robots(origin, reason=f"{exc.code}: {exc}", read_at=now)
    except (PageNotFound, BlockedBySite) as exc:  # pragma: no cover - fetch does not judge
        return Robots(origin, allow_all=True, reason=exc.code, read_at=now)
    except UnchromeError as exc:
        log.warning("robots.txt of %s unreachable: %s: %s", origin, exc.code, exc)
        return Robots(origin, reason=f"unreachable: {exc.code}", read_at=now)
    status = answer.status
    if 200 <= status < 300:
        text = answer.body[:ROBOTS_MAX_BYTES].decode("utf-8", "replace")
        return Robots(origin, rules=Protego.parse(text), read_at=now)
    if 400 <= status < 500 and status != 429:
        return Robots(origin, allow_all=True, reason=f"robots.txt answered {status}", read_at=now)
    log.warning("robots.txt of %s answered %d: the site is not crawled for now", origin, status)
    return Robots(origin, reason=f"robots.txt answered {status}", read_at=now)


class RobotsCache:
    """robots.txt per origin, read once and kept for its time to live."""

    def __init__(
        self,
        fetch: Fetch,
        fc: FetchConfig,
        *,
        ttl: float = ROBOTS_TTL,
        unavailable_for: float = UNAVAILABLE_TTL,
    ) -> None:
        self.fetch, self.fc = fetch, fc
        self.ttl, self.unavailable_for = ttl, unavailable_for
        self._by_origin: dict[str, Robots] = {}

    def get(self, origin: str) -> Robots:
        robots = self._by_origin.get(origin)
        now = time.monotonic()
        if robots is not None:
            ttl = self.unavailable_for if robots.unavailable else self.ttl
            if now - robots.read_at < ttl:
                return robots
        robots = read_robots(origin, self.fetch, self.fc)
        self._by_origin[origin] = robots
        return robots
