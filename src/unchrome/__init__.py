"""unchrome: turn any web page into its main content.

import unchrome

result = unchrome.extract(html_bytes, url="https://example.com/story")
result.markdown, result.title, result.date

result = unchrome.read("https://example.com/story")  # fetched safely

for url in unchrome.map_site("https://example.com/"): ...  # the site's pages
for row in unchrome.crawl("https://example.com/", state_dir="site.state"): ...
"""

from __future__ import annotations

import importlib
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

if TYPE_CHECKING:
    from unchrome.net.fetch_config import FetchConfig
    from unchrome.net.remote import aread, read
    from unchrome.pipeline.extractor import Extractor, extract, extract_file, extract_text
    from unchrome.result import Media, Result
    from unchrome.site.crawler import crawl
    from unchrome.site.discover import map_site
    from unchrome.site.politeness import Politeness

__version__ = "0.1.0"

# The rest of the API is imported on first use (PEP 562): the pipeline brings the parser,
# the compiled walks and the block model, fetching an HTTP client, the crawl both. A
# command that needs none of them (``unchrome --version``, ``--help``) or a program that
# only extracts does not pay for the others at start-up.
_LAZY = {
    "FetchConfig": "unchrome.net.fetch_config",
    "aread": "unchrome.net.remote",
    "read": "unchrome.net.remote",
    "Extractor": "unchrome.pipeline.extractor",
    "extract": "unchrome.pipeline.extractor",
    "extract_file": "unchrome.pipeline.extractor",
    "extract_text": "unchrome.pipeline.extractor",
    "Media": "unchrome.result",
    "Result": "unchrome.result",
    "crawl": "unchrome.site.crawler",
    "map_site": "unchrome.site.discover",
    "Politeness": "unchrome.site.politeness",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'unchrome' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup finds it without this hook
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


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
