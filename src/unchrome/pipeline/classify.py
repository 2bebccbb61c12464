"""Recognise pages that are not the page: bot walls, dead-page screens, social posts.

A fetch can "succeed" (HTTP 200) and still hand back a Cloudflare challenge, a captcha,
or a "this post has been deleted" screen. Extracting those would return the wall as if
it were the article, so ``classify_block`` turns them into named errors instead.

Detection is phrase lists plus length caps. The caps are what keep real articles safe:
a story *about* Cloudflare that quotes "Access denied" is thousands of characters long,
while a challenge page is a few lines. A page only counts as a bot wall when its body
text is at most ``BOT_WALL_MAX_CHARS`` and matches a bot-wall phrase, and only as a
not-found screen when the text is at most ``NOT_FOUND_MAX_CHARS`` and matches a
not-found phrase. Pages longer than the caps skip every regex, so the common case
(a real article) costs one ``len()``; a short page costs one scan per class.

``detect_kind`` tells social posts from articles by page shape (ActivityPub links,
oEmbed discovery, JSON-LD types), never by host-name tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Literal

from selectolax.lexbor import LexborHTMLParser, LexborNode

from unchrome.errors import BlockedBySite, PageNotFound
from unchrome.rules.formats import ARTICLE_TYPES, PROFILE_USERNAME
from unchrome.rules.phrases import (
    BOT_WALL_PATTERNS,
    BOT_WALL_PHRASES,
    BOT_WALL_TITLES,
    NOT_FOUND_PATTERNS,
    NOT_FOUND_PHRASES,
    NOT_FOUND_TITLES,
)

__all__ = [
    "BOT_WALL_MAX_CHARS",
    "NOT_FOUND_MAX_CHARS",
    "classify_block",
    "detect_kind",
]

# Challenge pages carry some boilerplate (Ray ID, "Performance & security by ...",
# localised help text) but stay well under this; articles are far longer.
BOT_WALL_MAX_CHARS = 3_000
# Dead-page screens are shorter still; a lower cap keeps short news briefs that
# mention "page not found" safe.
NOT_FOUND_MAX_CHARS = 1_500
# A bare "404" is too common in prose to count except in the title or in a text
# this short (a typical "404 / Go home" screen).
BARE_404_MAX_CHARS = 300
# A wall is the page: its phrase is its headline, in the title or at the top of its
# text ("Sorry, you have been blocked", then the help text). A phrase further down a
# short page is someone's words about a wall: a 1,300-character blog post whose one
# reader comment said "access denied" was refused as a wall. Challenge and dead-page
# screens put the phrase within their first 200 characters even behind a site name
# or a logo's alt text; this leaves room for a longer header.
SCREEN_LEAD_CHARS = 400

# ------------------------------------------------------------------------- compiling
#
# Python's ``re`` tries the branches of an alternation one after another at every
# position, so a plain "a|b|c|..." of a few hundred phrases costs milliseconds on a
# 3,000-character page. Two tricks keep a miss in the tens of microseconds:
#
# * the phrases are merged into a prefix trie, so each position tests a few dozen
#   first characters instead of every phrase;
# * word-spaced phrases (Latin, Cyrillic) carry their leading word edge as a literal
#   space, and the text gets a space in front of it and after opening punctuation.
#   Every branch then begins with a literal, which lets ``re`` skip, in C, all
#   positions whose character cannot start a phrase (most letters of the text).
#
# Matching is case-insensitive by lower-casing the text: ``re.IGNORECASE`` would
# disable that position skipping and is several times slower.


def _spaced_script(phrase: str) -> bool:
    """True when every letter is from a script that separates words with spaces.

    Such phrases get word-edge guards, which keep "captcha" out of "reCAPTCHA" (form
    footers say "protected by reCAPTCHA" on legitimate pages) and "403 forbidden" out
    of "1403 forbidden". CJK and Hangul (>= U+2E80) attach particles and punctuation
    without spaces, so phrases containing them are matched anywhere.
    """
    return all(ord(ch) < 0x2E80 for ch in phrase)


def _variants(phrases: Iterable[str]) -> list[str]:
    """Lower-case, and add the "е" spelling of Russian "ё" phrases (most sites drop it)."""
    out = {p.lower() for p in phrases}
    out.update(p.replace("ё", "е") for p in list(out) if "ё" in p)
    return sorted(out)


# Trie keys marking "a phrase ends here"; neither character appears in phrases.
_END = "\x00"  # end anywhere (CJK, or a phrase ending in punctuation)
_END_AT_WORD_EDGE = "\x01"  # end only where a word ends: not "page not foundation"

_Trie = dict[str, "_Trie"]


def _trie_regex(phrases: Iterable[str]) -> str:
    """Build one regex matching any of ``phrases``, preferring the longest."""
    trie: _Trie = {}
    for phrase in phrases:
        node = trie
        spaced = _spaced_script(phrase)
        for ch in (" " + phrase) if spaced and phrase[0].isalnum() else phrase:
            node = node.setdefault(ch, {})
        node.setdefault(_END_AT_WORD_EDGE if spaced and phrase[-1].isalnum() else _END, {})

    def emit(node: _Trie) -> str:
        branches = sorted(
            re.escape(ch) + emit(child)
            for ch, child in node.items()
            if ch not in (_END, _END_AT_WORD_EDGE)
        )
        # Ends go last, so that longer phrases through this node are tried first.
        if _END_AT_WORD_EDGE in node:
            branches.append(r"(?!\w)")
        elif _END in node:
            branches.append("")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    # The top level stays a bare alternation (no group): ``re`` only computes its
    # "possible first characters" skip table when every top-level branch starts
    # with a literal.
    return "|".join(sorted(re.escape(ch) + emit(child) for ch, child in trie.items()))


def _compile(phrases: Iterable[str], patterns: Iterable[str] = ()) -> re.Pattern[str]:
    return re.compile("|".join([_trie_regex(_variants(phrases)), *patterns]))


def _compile_titles(phrases: Iterable[str]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, _variants(phrases))))


@cache
def _screens() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The bot-wall and dead-page patterns (text, text, title, title), built on first
    use: some 18 ms of building and compiling that a real article, which returns on
    its length, never needs, and a one-page run of the command line would pay."""
    return (
        _compile(BOT_WALL_PHRASES, BOT_WALL_PATTERNS),
        _compile(NOT_FOUND_PHRASES, NOT_FOUND_PATTERNS),
        _compile_titles(BOT_WALL_TITLES),
        _compile_titles(NOT_FOUND_TITLES),
    )


# "404" standing alone: not part of a longer number, a decimal, or a word like "404px".
# These three are compiled on first use too: only a page short enough to be a screen
# (BOT_WALL_MAX_CHARS) asks them, a fifth of the WCXB dev pages.
@cache
def _bare_404_re() -> re.Pattern[str]:
    return re.compile(r"(?<![\w.,])404(?!\w|[.,]\d)")


# Title separators between the page name and the site name: "Captcha | Example".
@cache
def _title_split_re() -> re.Pattern[str]:
    return re.compile(r"\s[|\-–—:·•»]\s|\s?[|｜]\s?")


# Curly quotes and apostrophes become straight, "…" becomes "...", full-width
# punctuation that appears in phrases becomes ASCII, zero-width characters go, and
# opening punctuation gets a space after it so that a quoted phrase ('"Access
# denied"') still starts at a space. A regex substitution instead of str.translate:
# these characters are rare, and ``re`` skips to them in C.
_FOLD = {
    "\u2018": "'",
    "\u2019": "'",
    "\u02bc": "'",
    "\u2032": "'",
    "\u00b4": "'",
    "\u201c": '" ',
    "\u201d": '"',
    "\u201e": '" ',
    "\u2026": "...",
    "\uff01": "!",
    "\uff1f": "?",
    "\uff1a": ":",
    "\uff03": "#",
    "\uff5c": " | ",
    "\u200b": "",
    "\u200c": "",
    "\u200d": "",
    "\u2060": "",
    "\ufeff": "",
    '"': '" ',
    "(": "( ",
    "[": "[ ",
    "{": "{ ",
    "«": "« ",
    "¿": "¿ ",
    "¡": "¡ ",
    "|": " | ",
}


@cache
def _fold_re() -> re.Pattern[str]:
    return re.compile("[" + re.escape("".join(_FOLD)) + "]")


def _fold_char(match: re.Match[str]) -> str:
    return _FOLD[match.group(0)]


def _normalise(value: str) -> str:
    """Fold typography and case so phrase lists need one spelling of each phrase.

    The result starts with a space so that a phrase at the very start of the text
    still has the leading space its regex branch expects.
    """
    return " " + " ".join(_fold_re().sub(_fold_char, value).lower().split())


def _normalised_lead(text: str, chars: int) -> str:
    """``_normalise(text)[:chars]``, normalising no more of ``text`` than that needs
    (classify_block took 0.041 ms a page at the median news pages, whose screen texts
    run to 2,000 characters, and 0.030 ms so). A prefix of the text normalises to the
    whole's normalisation up to its last space: the word the cut splits, and a final
    sigma lowered as final because the cut hid the letter after it, lie past that
    space."""
    take = 2 * chars
    while take < len(text):
        part = _normalise(text[:take])
        if part.rfind(" ") >= chars:
            return part[:chars]
        take *= 2
    return _normalise(text)[:chars]


def _title_segment_match(pattern: re.Pattern[str], title: str) -> str | None:
    """Return the first title segment that is, in full, one of the generic titles."""
    for segment in _title_split_re().split(title):
        segment = segment.strip(" .!?")
        if segment and pattern.fullmatch(segment):
            return segment
    return None


def _short(matched: str) -> str:
    matched = matched.strip()
    return matched if len(matched) <= 60 else matched[:57] + "..."


# --------------------------------------------------------------------------- public


def classify_block(title: str | None, text: str) -> None:
    """Raise when the page is a bot wall or a dead-page screen; return None otherwise.

    ``title`` is the document title (may be None); ``text`` is the extracted body
    text. Raises ``BlockedBySite`` for challenges and access refusals (checked
    first: a challenge page that also says "404" is still a wall) and
    ``PageNotFound`` for "page not found" / "post deleted" screens. Both only fire
    under the length caps, and a phrase in the text only counts at its top
    (``SCREEN_LEAD_CHARS``), so articles and posts quoting such phrases pass.
    """
    # Lengths are measured on the text as given (the extractor's output is already
    # tidy), so the common case, a real article, returns before any other work.
    length = len(text)
    if length > BOT_WALL_MAX_CHARS:
        return
    head = _normalise(title) if title else ""
    lead = _normalised_lead(text, SCREEN_LEAD_CHARS + 1) if text else ""
    bot_wall, not_found, bot_wall_title, not_found_title = _screens()
    found = bot_wall.search(head) or bot_wall.search(lead)
    matched = found.group(0) if found else None
    if matched is None and head:
        matched = _title_segment_match(bot_wall_title, head)
    if matched is not None:
        raise BlockedBySite(
            f"page looks like a bot wall / access challenge (matched {_short(matched)!r})"
        )

    if length > NOT_FOUND_MAX_CHARS:
        return
    found = not_found.search(head) or not_found.search(lead)
    if found is None and head:
        found = _bare_404_re().search(head)
    if found is None and length < BARE_404_MAX_CHARS:
        found = _bare_404_re().search(_normalise(text) if text else "")
    matched = found.group(0) if found else None
    if matched is None and head:
        matched = _title_segment_match(not_found_title, head)
    if matched is not None:
        raise PageNotFound(
            f"page looks like a not-found / deleted-content screen (matched {_short(matched)!r})"
        )


Kind = Literal["article", "social"]

# twitter:card is normally summary/summary_large_image/player/app; a few platforms
# put the post kind there instead.
_SOCIAL_TWITTER_CARDS = frozenset({"tweet", "status", "post", "toot"})
# oEmbed discovery alone is not social (WordPress emits it on every post); it only
# counts on a short page that does not call itself an article.
_OEMBED_SHORT_CHARS = 3_000


def detect_kind(
    og_type: str | None,
    tree: LexborHTMLParser,
    ld: frozenset[str],
    signals: list[LexborNode],
) -> Kind:
    """Return "social" when the page is shaped like a social post, else "article".

    Signals, strongest first:

    * JSON-LD ``DiscussionForumPosting`` -> "article" (forum threads read like
      articles, even though schema.org files them under SocialMediaPosting);
      ``SocialMediaPosting`` -> "social"; an Article-family type -> "article".
    * a ``twitter:card`` naming a post kind ("tweet", "status", ...) -> "social".
    * an ActivityPub alternate (``application/activity+json``) -> "social" when the
      page names a ``profile:username`` (Mastodon marks statuses ``og:type=article``
      but always adds it) or does not call itself an article; blogs with an
      ActivityPub plugin keep og:type "article" and stay articles.
    * oEmbed discovery on a short page whose og:type is set and not "article".
    """
    og = (og_type or "").strip().lower()

    # ld: the page's JSON-LD @type names, lower-cased (metadata.Metadata.ld_type_names).
    if "discussionforumposting" in ld:
        return "article"
    if "socialmediaposting" in ld:
        return "social"
    if ld & ARTICLE_TYPES:
        return "article"

    activity_pub = oembed = has_username = False
    # signals: the page's link[rel~="alternate"][type], meta[name="twitter:card"] and
    # meta[property="profile:username"] elements (_dom.page_elements).
    for node in signals:
        attrs = node.attributes
        if node.tag == "link":
            link_type = (attrs.get("type") or "").lower()
            # ActivityStreams is also announced as ld+json with the AS profile.
            if "activity+json" in link_type or "activitystreams" in link_type:
                activity_pub = True
            elif "json+oembed" in link_type:
                oembed = True
        elif attrs.get("property") == PROFILE_USERNAME:
            has_username = True
        elif (attrs.get("content") or "").strip().lower() in _SOCIAL_TWITTER_CARDS:
            return "social"

    if activity_pub and (has_username or og != "article"):
        return "social"
    if oembed and og and og != "article":
        body = tree.body
        text = body.text(deep=True, separator=" ", strip=True) if body is not None else ""
        if len(text) <= _OEMBED_SHORT_CHARS:
            return "social"
    return "article"
