"""unchrome: turn any web page into its main content.

import unchrome

result = unchrome.extract(html_bytes, url="https://example.com/story")
result.markdown, result.title, result.date

result = unchrome.read("https://example.com/story")  # fetched safely

for url in unchrome.map_site("https://example.com/"): ...  # the site's pages
for row in unchrome.crawl("https://example.com/", state_dir="site.state"): ...
"""

from __future__ import annotations

from unchrome.config import Config, Scorer

# Imported after the subpackage unchrome.crawl, the function takes its name in the
# package (unchrome.crawl is the function; its modules are imported by their full path).
from unchrome.crawl.crawler import crawl
from unchrome.crawl.discover import map_site
from unchrome.crawl.politeness import Politeness
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

__version__ = "0.1.0"


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
