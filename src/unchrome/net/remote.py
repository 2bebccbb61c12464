"""Read a page on the web: fetch it safely (``fetch``), render it in a headless browser
when ``Config.render`` asks (``browser``, the [render] extra), and extract it
(``extractor``). ``read(url)`` and its async twin ``aread(url)``, which the package
exports; the service and the command line call them."""

from __future__ import annotations

import anyio

from unchrome.config import Config
from unchrome.net.fetch import afetch, fetch
from unchrome.net.fetch_config import DEFAULT_FETCH_CONFIG, FetchConfig
from unchrome.pipeline.extractor import extract_fetched
from unchrome.result import Result


def read(
    url: str, *, config: Config | None = None, fetch_config: FetchConfig | None = None
) -> Result:
    """Fetch ``url`` safely and return its main content.

    Raises a named :class:`~unchrome.errors.UnchromeError` on every failure.
    ``config.render`` ("auto", "always") renders the page in a headless browser first:
    see :mod:`unchrome.net.browser`.
    """
    page = fetch(url, fetch_config)
    if config is None or config.render == "never":
        return _from(url, extract_fetched(page, config))
    from unchrome.net.browser import read_rendering  # late: the [render] extra is optional

    return _from(url, read_rendering(page, config, fetch_config or DEFAULT_FETCH_CONFIG))


async def aread(
    url: str, *, config: Config | None = None, fetch_config: FetchConfig | None = None
) -> Result:
    """Async :func:`read`. Extraction runs in a worker thread: a heavy page must not
    stall the event loop (and every other request of the service)."""
    page = await afetch(url, fetch_config)
    if config is None or config.render == "never":
        return _from(url, await anyio.to_thread.run_sync(extract_fetched, page, config))
    from unchrome.net.browser import aread_rendering

    return _from(url, await aread_rendering(page, config, fetch_config or DEFAULT_FETCH_CONFIG))


def _from(url: str, result: Result) -> Result:
    """The result, naming the URL asked for as its source (its ``url`` is the page's
    own: where the redirects ended, or its canonical)."""
    result.source = url
    return result
