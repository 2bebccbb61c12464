"""The metadata of one page: Metadata and extract_metadata, which reads every field
from one combined query of the unpruned tree."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from unchrome._native._dom import meta_contents, metadata_groups, page_elements, read_links
from unchrome.metadata.author import _pick_authors
from unchrome.metadata.common import _clean, _first, _node_text, _read_meta, _Resolver
from unchrome.metadata.dates import _H2_READ, _headline, _pick_dates
from unchrome.metadata.jsonld import _LD, _read_json_ld
from unchrome.metadata.language import _pick_language
from unchrome.metadata.title import _page_title, _pick_title, _site_keys


@dataclass
class Metadata:
    """Metadata of one page. Every field is optional: pages omit most of them."""

    title: str | None = None  # the document's headline (title._pick_title)
    # The title the pipeline's selection and block model read (title._page_title).
    page_title: str | None = None
    site_name: str | None = None
    author: str | None = None  # the authors joined by ", "
    authors: list[str] = field(default_factory=list)  # names only, in the page's order
    date: str | None = None  # ISO 8601: YYYY-MM-DD, or a full datetime when one was given
    date_modified: str | None = None  # ISO 8601, where the page states when it changed
    description: str | None = None
    language: str | None = None  # BCP 47, e.g. "en-US"
    image: str | None = None  # hero image, absolute URL
    canonical_url: str | None = None
    og_type: str | None = None  # raw og:type, used later to recognise social posts
    generator: str | None = None  # <meta name="generator">, for the page's kind
    json_ld: list[dict[str, Any]] = field(default_factory=list)  # flattened @graph
    # Every JSON-LD "@type" name, casefolded, read even from JSON that does not parse
    # (classify.detect_kind): sites ship broken JSON-LD, and only the names matter.
    ld_type_names: frozenset[str] = frozenset()
    # The first <base href> as written (stripped), for the renderings' links: read in
    # the same walk as the rest (a selector of its own walked the page again).
    base_href: str | None = None


_SITE_NAME_KEYS = ("og:site_name", "application-name", "apple-mobile-web-app-title")
_DESCRIPTION_KEYS = (
    "dc:description",
    "dcterm:description",
    "og:description",
    "description",
    "twitter:description",
)
_IMAGE_KEYS = (
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "twitter:image",
    "twitter:image:src",
)


def extract_metadata(
    tree: LexborHTMLParser,
    url: str | None = None,
    elements: list[LexborNode] | None = None,
    bylines: list[LexborNode] | None = None,
) -> Metadata:
    """Collect page metadata from meta tags, JSON-LD, links and a few DOM hints.

    ``tree`` must be the full page before any pruning. ``url`` is the page address, used
    to resolve relative image/canonical URLs and to recognise the site's name in titles.
    ``elements`` and ``bylines``: the page's elements metadata reads and its byline
    elements (_dom.page_elements' first and last lists), where the caller walked the
    page for them already (both, or the page is walked again for them).
    Never raises: on unexpected input the affected fields are simply ``None``.
    """
    try:
        if elements is None or bylines is None:
            root = tree.root
            found = page_elements(root) if root is not None else ([], [], [], [])
            elements, bylines = found[0], found[3]
        return _extract(tree, url, elements, bylines)
    except Exception:  # metadata is best-effort; a broken page must not fail extraction
        return Metadata()


def _extract(
    tree: LexborHTMLParser, url: str | None, elements: list[LexborNode], bylines: list[LexborNode]
) -> Metadata:
    # The elements metadata reads (_dom.page_elements: the head's tags, JSON-LD, h1/h2,
    # dated elements) sorted by what they are, in document order: by tag (<meta>,
    # <link>, JSON-LD, <base>, <title>, <h1>, <h2>); explicit datePublished / pubdate
    # elements; <time datetime>; elements whose class names a date.
    by_tag, marked, times, dated = metadata_groups(elements)
    metas = _read_meta(by_tag.get("meta", []))
    links = read_links(by_tag.get("link", []))  # the first href of each rel token
    objects, ld_type_names = _read_json_ld(by_tag.get("script", ()))
    ld = _LD(objects)
    bases = by_tag.get("base")
    base_href = (bases[0].attributes.get("href") or "").strip() if bases else None
    resolve = _Resolver(base_href, url)

    # The JSON-LD publisher is the organisation's plain name; og:site_name is more often
    # decorated with a slogan ("Aktuálně.cz - Víte, co se právě děje").
    site_name = next(ld.names(ld.get("publisher")), None) or _first(metas, _SITE_NAME_KEYS)

    # <head> title first: an inline <svg><title> in the body is an icon label.
    titles = by_tag.get("title", [])
    title_node = next((n for n in titles if n.parent and n.parent.tag == "head"), None)
    title_node = title_node or next(iter(titles), None)
    doc_title = _clean(title_node.text()) if title_node is not None else None
    h1_nodes = by_tag.get("h1", [])[:3]
    h1_texts = [_clean(_node_text(n)) for n in h1_nodes]
    h1s = [t for t in h1_texts if t]
    page_url = url or resolve.base or None
    site_keys = _site_keys(site_name, page_url)
    h2_nodes = by_tag.get("h2", [])[:_H2_READ]
    named_h1s = [node for node, text in zip(h1_nodes, h1_texts, strict=True) if text]
    title = _pick_title(metas, ld, doc_title, h1s, site_keys, h2_nodes, named_h1s)
    language = _pick_language(tree, metas)
    headline = _headline(h1_nodes, h1_texts, h2_nodes, title)
    date, date_modified = _pick_dates(
        marked,
        times,
        metas,
        ld,
        dated,
        headline,
        page_url,
        language,
    )

    description = _clean(ld.get("description")) or _first(metas, _DESCRIPTION_KEYS)

    image = resolve(
        _first(metas, _IMAGE_KEYS)
        or ld.url_of(ld.get("image"))
        or ld.url_of(ld.get("thumbnailUrl"))
        or links.get("image_src")
    )
    canonical = resolve(links.get("canonical") or metas.get("og:url"))

    citation_authors = meta_contents(by_tag.get("meta", []), "citation_author")
    authors = _pick_authors(bylines, metas, ld, citation_authors, site_keys, headline)

    return Metadata(
        title=title,
        page_title=_page_title(metas, ld, doc_title, h1s, site_keys),
        site_name=site_name,
        author=", ".join(authors) or None,
        authors=authors,
        date=date,
        date_modified=date_modified,
        description=description,
        language=language,
        image=image,
        canonical_url=canonical,
        og_type=metas.get("og:type"),
        generator=metas.get("generator"),
        json_ld=objects,
        ld_type_names=ld_type_names,
        base_href=base_href,
    )
