"""What kind of page the selection is looking at, where that changes what is content:
a discussion (its comments are the content), a product (its comments are reviews, never
the content), and whether what is left without the comments is still a story."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from unchrome import metadata
from unchrome.pipeline import fallbacks, segmentation
from unchrome.pipeline.select import Content

# Below this many characters of text once comment sections are pruned, the comments
# are probably the page's content (a forum thread) and extraction runs again with them,
# unless what is left is a story (see has_story).
COMMENTS_RETRY_CHARS = 600
# A story short enough for the retry is still one with two paragraphs of prose
# (segmentation.is_prose), or one of them in a text of at least this many characters:
# a blog post of a few sentences above its readers' comments, which the Dragnet and
# Chinese annotators leave out. Without this rule the retry pulled whole comment
# threads into 27 such articles (Dragnet 0.879 -> 0.885, the Chinese articles 0.919
# -> 0.933); at 250 characters a forum's opening post counted as a story too (the
# news set's forum threads -0.007), at 350 one Q&A page loses its answers (-0.002).
STORY_PARAGRAPHS = 2
ONE_PARAGRAPH_STORY_CHARS = 350


DISCUSSION_TYPES = frozenset({"DiscussionForumPosting", "QAPage", "Question", "Conversation"})


def is_discussion(json_ld: list[dict[str, Any]]) -> bool:
    for item in json_ld:
        kind = item.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if any(isinstance(k, str) and k in DISCUSSION_TYPES for k in kinds):
            return True
    return False


# A URL naming the page a discussion (Reddit's /comments/, forum software's /threads/,
# /discussion/, viewtopic.php, showthread.php, Discuz!'s mod=viewthread, and /forum/ or
# /topic/ paths that end in a thread's number): its posts are the content, even where
# they sit in comment-named elements and the page outside them is long. On the WCXB dev
# pages 35 forum URLs say so; one, whose sidebar rules outweighed the 600 characters
# that trigger the retry, went 0.09 -> 0.42 (forum 0.833 -> 0.836), no other page
# changed. The numbered /forum/ and /topic/ paths took two news-set threads from 0.13
# and 0.09 to 0.37 and 0.84; without the number, /topic/ names a subject's listing
# (/topics/machine-learning) and /forum/ a board, and a WCXB thread whose content is
# its first post alone lost 0.93.
_DISCUSSION_PATH = re.compile(
    r"/(?:comments|threads?|discussions?)/"
    r"|/(?:forums?|topics?)/(?:[^/?]*/)*\d"
    r"|(?:view|show)(?:thread|topic)\b",
    re.I,
)


def discussion_url(url: str | None) -> bool:
    """Whether the URL's path or query names a discussion (see _DISCUSSION_PATH)."""
    if not url:
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return _DISCUSSION_PATH.search(f"{parts.path}?{parts.query}") is not None


def has_story(content: Content, text: str) -> bool:
    """Whether the selection without the comments is a story (see STORY_PARAGRAPHS)."""
    prose = sum(segmentation.is_prose(block) for block in content.blocks())
    return prose >= STORY_PARAGRAPHS or (prose >= 1 and len(text) >= ONE_PARAGRAPH_STORY_CHARS)


def is_product(meta: metadata.Metadata) -> bool:
    """A product page: its "comments" are customer reviews, never the content."""
    if meta.og_type and "product" in meta.og_type.lower():
        return True
    return any(fallbacks.has_type(item, "Product") for item in meta.json_ld)


# ------------------------------------------------------------------ the page's kind

#: The values of Result.kind, and what each page is (docs/metadata.md).
KINDS = (
    "article",  # a story, a post, a guide: the default
    "forum",  # a discussion thread, a question and its answers
    "product",  # one product for sale
    "collection",  # a shop's category: many products
    "listing",  # an index of stories or links (a category, tag, archive or search page)
    "documentation",  # a manual's or a reference's page
    "service",  # a business presenting a service it offers
    "social",  # a social network's post (classify.detect_kind)
    "feed",  # an RSS or Atom feed (feed.extract_feed)
)

# JSON-LD types (casefolded) that say what the page is, beside those of the article.
_FORUM_TYPES = frozenset(("discussionforumposting", "qapage"))
_COLLECTION_TYPES = frozenset(("collectionpage", "itemlist", "offercatalog", "searchresultspage"))
_LISTING_TYPES = _COLLECTION_TYPES | frozenset(("blog",))
_DOCUMENTATION_TYPES = frozenset(("techarticle", "apireference"))
_SERVICE_TYPES = frozenset(
    ("service", "localbusiness", "professionalservice", "financialservice", "legalservice")
)
# Path segments that name what a page is, anywhere in the URL's path.
_PATH_WORD = re.compile(r"[a-z]+")
_COLLECTION_PATH = frozenset(("collections", "collection", "shop"))
_LISTING_PATH = frozenset(
    ("category", "categories", "tag", "tags", "archive", "archives", "search")
)
_DOCUMENTATION_PATH = frozenset(("docs", "doc", "documentation", "manual", "reference", "api"))
_SERVICE_PATH = frozenset(("services", "service"))
# Documentation generators, as their <meta name="generator"> names them.
_DOCUMENTATION_GENERATORS = re.compile(
    r"sphinx|mkdocs|docusaurus|rustdoc|gitbook|vitepress|docfx|antora|jsdoc|javadoc|doxygen",
    re.IGNORECASE,
)


def page_kind(meta: metadata.Metadata, url: str | None, shape: str) -> str:
    """What the page is (one of KINDS), from what the pipeline knows before selection:
    the shape classify.detect_kind read ("social" or "article"), the JSON-LD types,
    og:type, the generator and the URL's path. The first that says so wins, in the
    order of KINDS after "article"; a page nothing speaks for is an article."""
    if shape == "social":
        return "social"
    types = meta.ld_type_names
    og = (meta.og_type or "").lower()
    words = _path_words(url)
    if types & _FORUM_TYPES or discussion_url(url):
        return "forum"
    products = "product" in types or "offer" in types
    if og == "product.group" or (
        products and (types & _COLLECTION_TYPES or words & _COLLECTION_PATH)
    ):
        return "collection"
    if og.startswith("product") or "product" in types:
        return "product"
    if types & metadata.ARTICLE_NAMES and not types & _DOCUMENTATION_TYPES:
        return "article"
    if (
        types & _DOCUMENTATION_TYPES
        or words & _DOCUMENTATION_PATH
        or _DOCUMENTATION_GENERATORS.search(meta.generator or "")
    ):
        return "documentation"
    if types & _LISTING_TYPES or words & _LISTING_PATH:
        return "listing"
    if types & _SERVICE_TYPES or words & _SERVICE_PATH:
        return "service"
    return "article"


def _path_words(url: str | None) -> frozenset[str]:
    if not url:
        return frozenset()
    try:
        path = urlsplit(url).path
    except ValueError:
        return frozenset()
    return frozenset(_PATH_WORD.findall(path.lower()))
