"""The lists of formats more than one stage reads, written once: media types of pages
and feeds, the schema.org types of an article, and the markers of embedded formats that
the compiled walk before pruning finds (_dom.page_elements) and the stages then read
(fallbacks, classify).

(The block model's own JSON-LD groups, features.LD_GROUPS, stay beside the model: they
are features it was trained on.)
"""

from __future__ import annotations

# Media types of an HTML page.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# Generic XML: a page or a feed, told apart by its root element.
XML_TYPES = frozenset({"application/xml", "text/xml"})
# Feeds in XML (feed.extract_feed reads these), and every feed type a server may send.
XML_FEED_TYPES = frozenset({"application/rss+xml", "application/atom+xml", "application/rdf+xml"})
FEED_TYPES = XML_FEED_TYPES | {"application/feed+json"}

# Embedded bodies, by the format that writes them (fallbacks.sources reads them):
# Next.js's app state, <script id="__NEXT_DATA__">; Arc XP's, <script id="fusion-metadata">;
# Discourse's preloaded store, <div id="data-preloaded" data-preloaded="{...}">.
NEXT_DATA_ID = "__NEXT_DATA__"
ARC_METADATA_ID = "fusion-metadata"
DISCOURSE_STORE = "data-preloaded"
# Signs of a social post (classify.detect_kind): <meta name="twitter:card"> naming a post
# kind, <meta property="profile:username">.
TWITTER_CARD = "twitter:card"
PROFILE_USERNAME = "profile:username"

# Schema.org types (casefolded) whose headline, author and date describe the page's
# main content, and which make the page an article rather than a social post.
ARTICLE_TYPES = frozenset(
    t.casefold()
    for t in (
        "Article",
        "AdvertiserContentArticle",
        "NewsArticle",
        "AnalysisNewsArticle",
        "AskPublicNewsArticle",
        "BackgroundNewsArticle",
        "OpinionNewsArticle",
        "ReportageNewsArticle",
        "ReviewNewsArticle",
        "Report",
        "SatiricalArticle",
        "ScholarlyArticle",
        "MedicalScholarlyArticle",
        "SocialMediaPosting",
        "BlogPosting",
        "LiveBlogPosting",
        "DiscussionForumPosting",
        "TechArticle",
        "APIReference",
    )
)
