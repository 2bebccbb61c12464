"""Page metadata: title, author, date, site, language, hero image, canonical URL.

Everything here reads the *unpruned* parse tree (scripts still present, so JSON-LD is
available). The pipeline budget is a few milliseconds per page, so the code never walks
the whole tree in Python: one compiled walk (_dom.page_elements, shared with the
pipeline's other readings before pruning) fetches ``meta``, head ``link``, JSON-LD
scripts, ``base``, ``title``, ``h1``, ``h2``, date elements and the first byline-looking
elements, bounded compiled walks read the few hundred characters around the headline
for a printed date and a byline, and the rest works on small dicts and strings. About
0.26 ms per page on WCXB dev, 0.31 on the news set and 0.19 on the classic set (median,
``extract_metadata`` alone; docs/metadata-speed.md).

Source precedence per field was tuned against the Readability test pages (see
``tests/test_metadata.py``), using generic rules only.
"""

from unchrome.metadata.jsonld import ld_types
from unchrome.metadata.page import Metadata, extract_metadata
from unchrome.rules.formats import ARTICLE_TYPES as ARTICLE_NAMES

__all__ = ["ARTICLE_NAMES", "Metadata", "extract_metadata", "ld_types"]
