"""Polite fetching: one request at a time per host, a delay between two requests to the
same host, robots.txt asked first, and ``429`` / ``503`` answered by waiting as long as
``Retry-After`` says.

The delay between two requests to a host is robots.txt's ``Crawl-delay`` when it gives
one (at most :data:`MAX_CRAWL_DELAY`), else :attr:`Politeness.delay`, one second by
default: slow enough that a small site does not notice, and 3,600 pages an hour.
"""

from __future__ import annotations

import dataclasses
import email.utils
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from unchrome.errors import InvalidInput
from unchrome.net.fetch import Fetched, fetch
from unchrome.net.fetch_config import DEFAULT_FETCH_CONFIG, FetchConfig
from unchrome.site.robots import UNAVAILABLE_TTL, Robots, RobotsCache
from unchrome.site.urls import origin_of

log = logging.getLogger("unchrome.crawl")

DEFAULT_DELAY = 1.0
MAX_CRAWL_DELAY = 60.0
CRAWL_USER_AGENT = "Mozilla/5.0 (compatible; unchrome/0.1; +crawler)"
_RETRY_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class Politeness:
    """How gently a site is crawled."""

    delay: float = DEFAULT_DELAY  # seconds between two requests to a host, no Crawl-delay
    user_agent: str = CRAWL_USER_AGENT
    max_retry_after: float = 120.0  # a longer Retry-After: the page fails this run
    retries: int = 2  # retries of one URL after a 429 / 503
    robots_unavailable_for: float = UNAVAILABLE_TTL  # robots 5xx: disallowed this long

    def __post_init__(self) -> None:
        for name in ("delay", "max_retry_after", "robots_unavailable_for"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
                raise InvalidInput(f"Politeness.{name} must be a number of seconds >= 0")
        if not isinstance(self.retries, int) or not 0 <= self.retries <= 10:
            raise InvalidInput("Politeness.retries must be an integer from 0 to 10")


def product_token(user_agent: str) -> str:
    """The name robots.txt groups are matched against (RFC 9309: the crawler's product
    token, not its whole User-Agent, whose "Mozilla" would match a group meant for
    browsers): ``unchrome`` when the User-Agent names it, else its first product."""
    if re.search(r"\bunchrome\b", user_agent, re.I):
        return "unchrome"
    words = re.findall(r"[A-Za-z0-9_-]+", user_agent.split("/", 1)[0])
    return words[0].lower() if words else "unchrome"


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = datetime.now(UTC).timestamp() if now is None else now
    return max(0.0, when.timestamp() - current)


class PoliteFetcher:
    """Every request of a crawl goes through here (robots.txt included), one at a time."""

    def __init__(
        self,
        fetch_config: FetchConfig | None = None,
        politeness: Politeness | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.politeness = politeness or Politeness()
        base = fetch_config or DEFAULT_FETCH_CONFIG
        self.fc = dataclasses.replace(base, user_agent=self.politeness.user_agent)
        self.sleep, self.clock = sleep, clock
        self.agent = product_token(self.politeness.user_agent)
        self._last: dict[str, float] = {}  # host -> when its last request ended
        self.requests = 0
        self.robots_cache = RobotsCache(
            self._request, self.fc, unavailable_for=self.politeness.robots_unavailable_for
        )

    # -- robots.txt

    def robots(self, url: str) -> Robots:
        return self.robots_cache.get(origin_of(url))

    def allowed(self, url: str) -> bool:
        return self.robots(url).allowed(url, self.agent)

    def delay_for(self, url: str) -> float:
        robots = self.robots_cache._by_origin.get(origin_of(url))
        crawl_delay = robots.crawl_delay(self.agent) if robots else None
        if crawl_delay is not None:
            return min(max(crawl_delay, 0.0), MAX_CRAWL_DELAY)
        return self.politeness.delay

    # -- requests

    def get(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        fetch_config: FetchConfig | None = None,
    ) -> Fetched:
        """GET ``url`` (unjudged: any status comes back), after its host's delay; a 429
        or 503 is asked again after its ``Retry-After`` (bounded), and returned as it
        is when the retries are spent or the wait is too long."""
        fc = fetch_config or self.fc
        for attempt in range(self.politeness.retries + 1):
            answer = self._request(url, fc, headers)
            if answer.status not in _RETRY_STATUSES or attempt == self.politeness.retries:
                return answer
            wait = retry_after(answer.headers.get("retry-after"))
            if wait is None:
                wait = self.delay_for(url) * 2 ** (attempt + 1)
            if wait > self.politeness.max_retry_after:
                log.warning("%s: %d asks to wait %.0f s: not this run", url, answer.status, wait)
                return answer
            log.info("%s: %d, waiting %.1f s (Retry-After)", url, answer.status, wait)
            self._last[self._host(url)] = self.clock() + wait - self.delay_for(url)
        return answer  # pragma: no cover - the loop returns

    def _request(
        self, url: str, fc: FetchConfig, headers: Mapping[str, str] | None = None
    ) -> Fetched:
        host = self._host(url)
        last = self._last.get(host)
        if last is not None:
            wait = last + self.delay_for(url) - self.clock()
            if wait > 0:
                self.sleep(wait)
        try:
            self.requests += 1
            return fetch(url, fc, headers=headers, judge=False)
        finally:
            # From the end of one exchange to the start of the next: a slow server gets
            # its full delay too.
            self._last[host] = self.clock()

    @staticmethod
    def _host(url: str) -> str:
        return (urlsplit(url).netloc or "").lower()
