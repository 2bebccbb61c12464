"""unchrome as a datatrove extractor step (``pip install 'unchrome[datatrove]'``).

A FineWeb-style pipeline swaps trafilatura for unchrome by changing one line::

    from unchrome.scale.datatrove import Unchrome

    pipeline = [
        WarcReader("s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/", ...),
        URLFilter(),
        Unchrome(timeout=1.0),          # was: Trafilatura(favour_precision=True, timeout=1.0)
        LanguageFilter(),
        ...
    ]

The step is a datatrove ``BaseExtractor``: datatrove runs ``extract`` in a sandbox
process with its per-document timeout, and drops documents whose text comes back empty
(a page with no main content, a bot wall, a PDF: every ``UnchromeError``), counting them
as ``dropped`` in the step's stats.
"""

from __future__ import annotations

from typing import Any, ClassVar

from datatrove.pipeline.extractors.base import BaseExtractor

from unchrome.config import Config
from unchrome.errors import UnchromeError


class Unchrome(BaseExtractor):
    """Main-content text (or Markdown, with ``output="markdown"``) of each HTML document.

    Args:
        timeout: datatrove's per-document timeout in seconds (the sandbox kills past it);
            unchrome's own deadline is set to the same value, so most slow pages stop
            cleanly before the kill.
        output: ``"text"`` (default, like trafilatura's) or ``"markdown"``.
        config: an ``unchrome.Config`` for everything else (tables, comments, ...).
    """

    name = "⛏ unchrome"
    _requires_dependencies: ClassVar[list[str]] = ["unchrome"]

    def __init__(
        self, timeout: float = 1.0, output: str = "text", config: Config | None = None
    ) -> None:
        super().__init__(timeout)
        if output not in ("text", "markdown"):
            raise ValueError(f"output must be 'text' or 'markdown', got {output!r}")
        self.output = output
        self.config = (config or Config()).with_(timeout=timeout)
        self._extractor: Any = None

    def extract(self, text: str) -> str:
        """The main content of one HTML document, or "" when there is none."""
        if self._extractor is None:  # built once, inside datatrove's sandbox process
            from unchrome.pipeline.extractor import Extractor

            self._extractor = Extractor(self.config)
        try:
            result = self._extractor.extract(text)
        except UnchromeError:
            return ""
        return result.markdown if self.output == "markdown" else result.text
