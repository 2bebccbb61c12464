"""The tag sets the stages read: which elements make blocks, headings, cards, media
whose children are fallback, and what is never content (pruned before scoring)."""

from __future__ import annotations

# The elements that make a block: the text between two of them is one paragraph.
BLOCK_TAGS = frozenset(
    {
        "p", "div", "section", "article", "main", "header", "footer", "aside", "nav",
        "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd",
        "blockquote", "pre", "table", "tr", "td", "th", "caption", "figure",
        "figcaption", "hr", "address", "details", "summary", "form", "fieldset",
        "center", "thead", "tbody", "tfoot", "hgroup", "menu", "body", "html",
        "legend", "option",
    }
)  # fmt: skip
# Paragraphs are judged by their length (Config.min_paragraph_chars, in characters); a
# one-word list item or caption is still content.
LENGTH_FILTERED = frozenset({"p", "blockquote"})

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

# Block elements an <a> may wrap to make a card: a linked heading or teaser is a card
# of a listing, not navigation, so its text does not count as link text.
CARD_BLOCKS = frozenset(
    {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "section", "article"}
)

# Replaced elements whose children are fallback for browsers without them ("Your browser
# does not support the audio element.", an <iframe>'s unparsed markup) or <track>
# labels: never shown. On the WCXB dev pages 93 such elements hold text, none of it
# hand-checked content. Their media stay for the HTML and Markdown renderings, which
# drop the fallback (render.sanitize).
MEDIA_WITH_FALLBACK = frozenset({"iframe", "video", "audio"})
# Elements whose text is never read: void ones and the media above.
NO_TEXT = frozenset({"img", "hr"}) | MEDIA_WITH_FALLBACK

# Elements that never carry readable main content. Among them a ruby annotation's
# reading (<rt>) and its fallback parentheses (<rp>): 子<rt>こども</rt> is the word 子,
# and read inline the reading would interleave with the text (子こども). Not <object>:
# its children are the fallback a browser shows when it cannot render the object, which
# is every plugin's today (Flash, Java, ActiveX) and any object without data, so they
# are read and pruned like any other element's. A Flash-era video's description lives
# there (16 CleanPortalEval pages of one news site: 0.963 -> 0.982; one WCXB page kept
# a review badge's score, -0.007; no other page of the suites changed).
NEVER_CONTENT = frozenset(
    {
        "script", "style", "noscript", "template", "link", "meta", "svg", "canvas",
        "button", "input", "select", "textarea", "option", "optgroup", "datalist",
        "dialog", "embed", "map", "head", "title", "nav", "footer", "rt", "rp",
    }
)  # fmt: skip
