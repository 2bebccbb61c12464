"""unchrome: turn any web page into its main content.

import unchrome

result = unchrome.extract(html_bytes, url="https://example.com/story")
result.markdown, result.title, result.date

result = unchrome.read("https://example.com/story")  # fetched safely

for url in unchrome.map_site("https://example.com/"): ...  # the site's pages
for row in unchrome.crawl("https://example.com/", state_dir="site.state"): ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unchrome.config import Config, Scorer
from unchrome.errors import (
    BlockedBySite,
    ExtractFailed,
    ExtractTimeout,
    FileAccessError,
    ForbiddenAddress,
    InvalidInput,
    InvalidURL,
    PageNotFound,
    RenderUnavailable,
    UnchromeError,
    UnsupportedContent,
    UpstreamError,
    UpstreamTimeout,
)
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.remote import aread, read
from unchrome.pipeline.extractor import Extractor, extract, extract_file, extract_text
from unchrome.result import Media, Result

if TYPE_CHECKING:
    from unchrome.crawl.crawler import crawl
    from unchrome.crawl.discover import map_site
    from unchrome.crawl.politeness import Politeness

__version__ = "0.1.0"

# The crawl's names load on first use: a page's extraction, and the command line's
# start-up, need none of its modules (robots.txt, XML and SQLite readers).
_LAZY = {
    "crawl": "unchrome.crawl.crawler",
    "map_site": "unchrome.crawl.discover",
    "Politeness": "unchrome.crawl.politeness",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'unchrome' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "BlockedBySite",
    "Config",
    "ExtractFailed",
    "ExtractTimeout",
    "Extractor",
    "FetchConfig",
    "FileAccessError",
    "ForbiddenAddress",
    "InvalidInput",
    "InvalidURL",
    "Media",
    "PageNotFound",
    "Politeness",
    "RenderUnavailable",
    "Result",
    "Scorer",
    "UnchromeError",
    "UnsupportedContent",
    "UpstreamError",
    "UpstreamTimeout",
    "__version__",
    "aread",
    "crawl",
    "extract",
    "extract_file",
    "extract_text",
    "map_site",
    "read",
]
