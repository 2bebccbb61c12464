"""Dates: published and modified, from meta, JSON-LD, <time>, the text around the headline
and the URL, normalised to ISO 8601."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any

from selectolax.lexbor import LexborNode

from unchrome._native._dom import (
    class_words,
    lead_chars,
    named_around,
    texts_after,
    texts_before,
)
from unchrome.metadata.common import _clean, _hint, _node_text, _norm_key, _tag_ids
from unchrome.metadata.jsonld import _LD
from unchrome.metadata.title import _H1_AGREEMENT, _agreement
from unchrome.urls import path as url_path

# The larger patterns that about half the pages never ask (an ISO date, a date read
# after its year, a date in the URL, which a file read without its URL never has) are
# compiled on first use: 0.7 ms of every start of the command line.


@cache
def _iso_re() -> re.Pattern[str]:
    return re.compile(
        r"^(\d{4})-(\d{1,2})-(\d{1,2})"
        r"(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
        r"\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?",
        re.IGNORECASE,
    )


_SLASH_RE = re.compile(r"^(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b")
_COMPACT_RE = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
# English month names: the byline cleanup (author._date_tail_re) strips dates in these.
_MONTHS = {
    name: i
    for i, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))

# Month names for reading printed dates: English, German, French, Spanish, Italian,
# Portuguese and Dutch, full and abbreviated (the languages of the evaluation sets and
# their neighbours). Chinese, Japanese and Korean dates are numeric (年月日, 년월일).
_PRINTED_MONTHS = {
    name: i
    for i, names in enumerate(
        (
            "jan january januar jänner janvier janv enero ene gennaio gen janeiro januari",
            "feb february februar février févr fév febrero febbraio fevereiro fev februari",
            "mar march märz mär mars marzo março maart mrt",
            "apr april avril avr abril abr aprile",
            "may mai mayo maggio mag maio mei",
            "jun june juni juin junio giugno giu junho",
            "jul july juli juillet juil julio luglio lug julho",
            "aug august août agosto ago augustus",
            "sep sept september septembre septiembre settembre setembro",
            "oct october oktober okt octobre octubre ottobre ott outubro",
            "nov november novembre noviembre novembro",
            "dec december dezember dez décembre déc diciembre dic dicembre dezembro",
        ),
        start=1,
    )
    for name in names.split()
}
# Every date form read in text has a four-digit year, so the scan finds the years (one
# cheap regex, ~11 µs over 500 characters) and reads the few characters around each:
# one regex with every form, tried at every position of the same text, cost 85 µs
# (170 µs with the month names spelled out in it).
# (Digit neighbours are tested in Python: lookarounds doubled the scan's time.)
_YEAR_RE = re.compile(r"(?:19|20)\d\d")


# After the year: 2025-11-12, 2025/11/12, 2025.11.12; 2025年11月12日, 2025년 11월 12일.
# And 2023 Jan 7, as journals print it (PubMed Central, citation_publication_date).
@cache
def _year_first_re() -> re.Pattern[str]:
    return re.compile(
        r"(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?!\d)"
        r"|\s*[年년]\s*(?P<cm>\d{1,2})\s*[月월]\s*(?P<cd>\d{1,2})\s*[日号일]"
        r"|\s(?P<wm>[^\W\d_]{3,9})\.?\s(?P<wd>\d{1,2})(?!\d)"
    )


# Before the year, numeric: 12/11/2025, 12.11.2025, 12-11-2025.
_NUMERIC_BEFORE_RE = re.compile(r"(?<!\d)(\d{1,2})([-/.])(\d{1,2})\2$")
# Before the year, in words: "12 November", "Nov. 12,", "12. März", "12 de mayo de",
# "30th March": the day and month are the last two words, "de"/"of" aside.
_DAY_WORD_RE = re.compile(r"^(\d{1,2})(?:st|nd|rd|th|er|º)?$")
_FILLER_WORDS = frozenset(("de", "of", "del"))
# How much text before a year is read for the day and month (and, further back, the label)
_DATE_HEAD_CHARS = 24
# The word before a printed date that says what it dates. "Updated", "modified" and
# their translations name the modification date (a thread's "last post" too); "joined"
# and "registered" a forum member's, "founded" and "born" an infobox's, not the page's;
# anything else (or "published") the publication. Looked up with str.rfind: a regex of
# these words, tried at every position of the few characters before each date, cost
# 30 µs a date.
_DATE_LABELS: tuple[tuple[str, str], ...] = tuple(
    (word, kind)
    for kind, words in (
        (
            "modified",
            "updated|modified|edited|revised|last post|last reply|aktualisiert|geändert"
            "|mis à jour|mise à jour|actualizado|actualizada|aggiornato|aggiornata"
            "|atualizado|atualizada|bijgewerkt|更新|修改|수정",
        ),
        (
            "other",
            "joined|registered|member since|angemeldet|inscrit|founded|established|born"
            "|gegründet|geboren|fondé|fondée|fundado|fundada|fondato|fondata",
        ),
    )
    for word in words.split("|")
)
# How far before a printed date's day and month its label is looked for: "Last updated
# on " is 16 characters; 24 also reaches over a separator ("Updated: · ").
_LABEL_CHARS = 24


def _valid_date(year: int, month: int, day: int) -> bool:
    if not 1900 <= year <= 2100:
        return False
    try:
        datetime(year, month, day)
    except ValueError:
        return False
    return True


def _month_first(lang: str | None) -> bool:
    """Whether an ambiguous numeric date (3/4/2025) puts the month first: in US English,
    and in English pages that name no region, which are mostly American (WCXB dev: the
    slash dates by a headline on "en" pages, 3/4/2025, 10/31/2024, 2/24/2026, all read
    month first)."""
    if not lang:
        return True
    lang = lang.lower()
    return lang in ("en", "en-us")


def _printed_dates(text: str, lang: str | None = None) -> Iterator[tuple[int, str, str]]:
    """Every date printed in ``text``: ``(offset of its year, ISO date, kind)``, where
    kind is "published", "modified" or "other" after the label that precedes it."""
    last_end = 0
    month_first: bool | None = None  # for numeric dates, settled on the first one
    for year_match in _YEAR_RE.finditer(text):
        start, end = year_match.span()
        if text[start - 1 : start].isdigit() or text[end : end + 1].isdigit():
            continue  # part of a longer number
        if month_first is None and text[start - 1 : start] in ("/", "-"):
            month_first = _numeric_order(text, lang)
        ymd = _date_around(text, start, end, int(year_match[0]), bool(month_first))
        if ymd is None or not _valid_date(*ymd):
            continue
        label_from = max(last_end, start - _DATE_HEAD_CHARS - _LABEL_CHARS)
        last_end = end
        yield start, "{:04d}-{:02d}-{:02d}".format(*ymd), _label(text[label_from:start])


def _label(before: str) -> str:
    """What the label nearest the end of ``before`` says a date is."""
    before = before.lower()
    kind, at = "published", -1
    for word, word_kind in _DATE_LABELS:
        found = before.rfind(word)
        if found > at:
            kind, at = word_kind, found
    return kind


def _numeric_order(text: str, lang: str | None) -> bool:
    """Whether the numeric dates of ``text`` put the month first: as one of them with a
    day above 12 shows (28/11/2025 beside 01/12/2025), else as the page's language does."""
    for match in _NUMERIC_DATE_RE.finditer(text):
        if int(match[1]) > 12:
            return False
        if int(match[2]) > 12:
            return True
    return _month_first(lang)


_NUMERIC_DATE_RE = re.compile(r"(?<!\d)(\d{1,2})[-/](\d{1,2})[-/](?:19|20)\d\d(?!\d)")


def _date_around(
    text: str, start: int, end: int, year: int, month_first: bool
) -> tuple[int, int, int] | None:
    """Year, month and day of the date whose year is ``text[start:end]``, if it is one."""
    after = _year_first_re().match(text, end, end + 16)
    if after is not None:
        if after["m"]:
            return year, int(after["m"]), int(after["d"])
        if after["cm"]:
            return year, int(after["cm"]), int(after["cd"])
    before = _date_before(text, start, year, month_first)
    if before is not None or after is None:
        return before
    # Last, 2023 Jan 7: in "July 4, 2025 February 9, 2026" the year closes a date.
    month = _PRINTED_MONTHS.get(after["wm"].lower())
    return (year, month, int(after["wd"])) if month else None


def _date_before(
    text: str, start: int, year: int, month_first: bool
) -> tuple[int, int, int] | None:
    """Year, month and day of a date that ends with the year at ``start``, if it is one."""
    head = text[max(0, start - _DATE_HEAD_CHARS) : start]
    if not head:
        return None
    if head[-1] in "-/.":
        numeric = _NUMERIC_BEFORE_RE.search(head[-6:])
        if numeric is None:
            return None
        a, b = int(numeric[1]), int(numeric[3])
        # A day above 12 settles the order; a dotted date is day first everywhere it is
        # written (12.11.2025); otherwise the text's other dates or its language decide.
        if b > 12 or (a <= 12 and numeric[2] != "." and month_first):
            return year, a, b
        return year, b, a
    if not head[-1].isspace() and head[-1] != ",":
        return None  # "v2025", "ISO2025": not a year after words
    words = [w for w in head.lower().replace(",", " ").split() if w not in _FILLER_WORDS]
    if len(words) < 2:
        return None
    first, second = words[-2].rstrip("."), words[-1].rstrip(".")
    month = _PRINTED_MONTHS.get(second)
    day = _DAY_WORD_RE.match(first) if month else None
    if day is None:
        month = _PRINTED_MONTHS.get(first)
        day = _DAY_WORD_RE.match(second) if month else None
    return (year, month, int(day[1])) if month and day else None


def _format_tz(tz: str | None) -> str:
    if not tz:
        return ""
    if tz.upper() in ("Z", "UTC", "GMT"):
        return "+00:00"
    sign, digits = tz[0], tz[1:].replace(":", "")
    digits = digits.ljust(4, "0")
    return f"{sign}{digits[:2]}:{digits[2:4]}"


def _normalise_date(value: str | None, lang: str | None = None) -> str | None:
    """ISO 8601 out of the common date spellings, or ``None`` when nothing parses.

    Date-only inputs stay date-only; datetimes keep their offset (never converted, so the
    calendar date is the one the site printed). Fractional seconds are dropped.
    """
    value = _clean(value)
    if not value:
        return None
    m = _iso_re().match(value)
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
        if not _valid_date(y, mo, d):
            return None
        date = f"{y:04d}-{mo:02d}-{d:02d}"
        if m[4] is None:
            return date
        hh, mm, ss = int(m[4]), int(m[5]), int(m[6] or 0)
        if hh > 23 or mm > 59 or ss > 59:
            return date
        return f"{date}T{hh:02d}:{mm:02d}:{ss:02d}{_format_tz(m[8])}"
    m = _SLASH_RE.match(value) or _COMPACT_RE.match(value)
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
        return f"{y:04d}-{mo:02d}-{d:02d}" if _valid_date(y, mo, d) else None
    if value.isdigit() and len(value) in (9, 10, 12, 13):
        # Unix timestamps (seconds or milliseconds), as some CMSes put in meta tags.
        seconds = int(value) / (1000 if len(value) > 10 else 1)
        try:
            dt = datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
        return dt.isoformat() if 1990 <= dt.year <= 2100 else None
    if "," in value and ":" in value:
        # RFC 2822, as in feeds and some meta tags: "Wed, 25 Mar 2015 10:00:00 GMT".
        # email.utils is imported here, where a date is written so: its import took
        # 7 ms, a quarter of the metadata package's, which a command line run on one
        # page spent for a date few pages write that way.
        import email.utils

        try:
            dt = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            dt = None
        if dt is not None and 1900 <= dt.year <= 2100:
            return dt.replace(microsecond=0).isoformat()
    # A date written out ("March 25, 2015", "25. März 2015", "2015年3月25日").
    return next((iso for _, iso, _ in _printed_dates(value, lang)), None)


# Meta tags that name the publication date, most specific first. JSON-LD comes before
# them all: article:published_time is often rewritten on updates (it then equals
# dateModified), while datePublished keeps the first publication.
_PUBLISHED_META_KEYS = (
    "article:published_time",
    "parsely-pub-date",
    "og:published_time",
    "published_time",
    "itemprop:datepublished",
    "dc:date:issued",
    "dcterms:issued",
    "dc:date",
    "dcterms:date",
    "dcterms:created",
    "citation_publication_date",
    "sailthru:date",
    "article:published",
    "pubdate",
    "publishdate",
    "publish-date",
    "date",
)
# Other meta names that say "published" in a site's own spelling ("published",
# "w-published-date", "publication_date", "release_date"), read after the ones above.
_PUBLISHED_META_RE = re.compile(r"publi|pub_?date|release|issued")
_MODIFIED_META_KEYS = (
    "article:modified_time",
    "og:updated_time",
    "article:modified",
    "modified_time",
    "itemprop:datemodified",
    "dcterms:modified",
    "dc:date:modified",
    "dc:modified",
    "last-modified",
    "lastmod",
)
_MODIFIED_META_RE = re.compile(r"modif|updated|revised")
_MODIFIED_HINT_RE = re.compile(r"modif|updat|revis", re.IGNORECASE)


def _meta_date(
    metas: dict[str, str],
    keys: Iterable[str],
    pattern: re.Pattern[str],
    exclude: re.Pattern[str] | None = None,
) -> str | None:
    """The first meta date under ``keys``, else under any other name ``pattern`` finds
    (and ``exclude`` does not)."""
    for key in keys:
        value = metas.get(key)
        date = _normalise_date(value) if value else None
        if date:
            return date
    # One search of every name at once first (names hold no whitespace, the patterns
    # none either): on most pages none matches, where a search per name cost 40
    # searches (_meta_date 0.0077 -> 0.0068 ms a page, mean of the suites).
    if pattern.search("\n".join(metas)) is None:
        return None
    for key, value in metas.items():
        if pattern.search(key) and not (exclude and exclude.search(key)):
            date = _normalise_date(value)
            if date:
                return date
    return None


# The text read around the headline for a printed date: bylines and datelines sit just
# under it (or just above it, in a kicker), the story's own dates further on. WCXB dev
# date agreement with 200, 400, 600 and 1000 characters after the headline: 0.858,
# 0.867, 0.868, 0.868 (verbose bylines with an author bio need the 600); with 0, 30, 60
# and 160 characters before it: 0.865, 0.868, 0.868, 0.868 (60: reaches a kicker, but
# not the "today is ..." of a site's header, as on a Chinese page of the news set).
_AFTER_HEADLINE_CHARS = 600
_BEFORE_HEADLINE_CHARS = 60
# Nodes visited each way at most, whatever their text: bounds the walk on markup made
# of empty elements.
_HEADLINE_STEPS = 200
_NO_TEXT_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "select", "head"})
_NO_TEXT_IDS = _tag_ids(*_NO_TEXT_TAGS)


def _datelines(parts: list[str], lang: str | None) -> list[tuple[int, str, str]]:
    """The dates printed in ``parts``, the text nodes read by the headline."""
    return list(_printed_dates(" ".join(parts), lang))


# The longest text node read as a dateline. On the news set, three wire-service photo
# captions under the headline ("..., Friday, March 31, 2023. THE CANADIAN PRESS/...",
# 100-300 characters) passed their photo's day off as the story's; WCXB dev agreement
# is the same (0.868) with no limit and with 60 to 120 characters, 0.867 with 40.
_DATELINE_CHARS = 80


def _headline_dates(
    headline: LexborNode | None, lang: str | None, after_chars: int
) -> tuple[tuple[int, str, bool] | None, str | None]:
    """The publication date printed nearest the headline, with its distance from it in
    characters and whether it is printed in a byline's place (under the headline, or
    in the text just above it), and the modification date printed nearest it, reading
    ``after_chars`` characters after it."""
    if headline is None:
        return None, None
    # The text nodes around the headline, read by compiled walks (_dom.texts_after,
    # texts_before): each text node's text as a dateline, a long one blanked.
    steps, ids, line = _HEADLINE_STEPS, _NO_TEXT_IDS, _DATELINE_CHARS
    after = _datelines(texts_after(headline, after_chars, steps, ids, line), lang)
    before = texts_before(headline, _BEFORE_HEADLINE_CHARS, steps, ids, line)
    size = sum(len(part) + 1 for part in before)
    # Distance from the headline: after it, the offset; before it, the characters left.
    found = [(at, iso, kind, True) for at, iso, kind in after]
    # Above the headline, inside the story's <article> if it has one: further up may
    # be the previous teaser of a listing of stories that runs into this one (a
    # fundus page printed a related story's byline and January day, then, in the
    # story's article, its section's name above an April story).
    above = _datelines(before, lang)
    inside = _article_lead_chars(headline) if above else None
    found += [
        (size - at, iso, kind, inside is None or size - at <= inside) for at, iso, kind in above
    ]
    found.sort(key=lambda item: item[0])
    published = next(
        ((at, iso, under) for at, iso, kind, under in found if kind == "published"), None
    )
    modified = next((iso for _, iso, kind, _ in found if kind == "modified"), None)
    return published, modified


_ARTICLE_DEPTH = 10
_ARTICLE_LEAD_NODES = 200


def _article_lead_chars(headline: LexborNode) -> int | None:
    """The characters of text an <article> holding the headline has before it (its
    kicker, its section), or ``None`` where no article holds it (or its lead is too
    long to walk)."""
    article = headline.parent
    for _ in range(_ARTICLE_DEPTH):
        if article is None or article.tag == "article":
            break
        article = article.parent
    if article is None or article.tag != "article":
        return None
    return lead_chars(article, headline, _ARTICLE_LEAD_NODES, _NO_TEXT_IDS)


# The h2 elements compared with the title on a page without an h1 (forum software
# often has none, or an empty one): such a page names its story in an early h2, after
# the cart and menu headings of its template.
_H2_READ = 5


def _headline(
    h1s: list[LexborNode], h1_texts: list[str | None], h2s: list[LexborNode], title: str | None
) -> LexborNode | None:
    """The heading of the story: the h1 that holds the page's title (a site's logo is
    often an h1 too), else the first h1; on a page without one, the h2 that holds it."""
    key = _norm_key(title) if title else ""

    def holds_title(text: str) -> bool:
        text_key = _norm_key(text)
        return bool(key and text_key and (text_key in key or key in text_key))

    named = [node for node, text in zip(h1s, h1_texts, strict=True) if text]
    for node, text in zip(h1s, h1_texts, strict=True):
        if text and holds_title(text):
            return node
    if named:
        return named[0]
    # An h2 in the h1's place words the title its own way more often than an h1 does
    # ("7 Ways to Help You Transition to a Plant Based Diet" beside a title "7 Ways to
    # Transition to a Plant-Based Diet"): one that holds it, else one that agrees with
    # it as the story's h1 must (title._agreement).
    texts = [_node_text(node) for node in h2s]
    held = next((node for node, text in zip(h2s, texts, strict=True) if holds_title(text)), None)
    if held is not None or not title:
        return held
    return next(
        (
            node
            for node, text in zip(h2s, texts, strict=True)
            if _agreement(text, [title]) >= _H1_AGREEMENT
        ),
        None,
    )


def _pick_dates(
    marked: list[LexborNode],
    times: list[LexborNode],
    metas: dict[str, str],
    ld: _LD,
    dated: list[LexborNode],
    headline: LexborNode | None,
    url: str | None,
    lang: str | None,
) -> tuple[str | None, str | None]:
    """Publication and modification dates. ``marked``: elements flagged
    datePublished/pubdate; ``times``: ``<time datetime>`` elements, both in document
    order; ``dated``: elements whose class names a date; ``headline``: the page's h1.
    A forum thread's first dated element left after its furniture (user cards,
    comments, signatures) is its first post's."""
    published = _normalise_str(ld.get("datePublished")) or _meta_date(
        metas, _PUBLISHED_META_KEYS, _PUBLISHED_META_RE, _MODIFIED_META_RE
    )
    modified = _normalise_str(ld.get("dateModified")) or _meta_date(
        metas, _MODIFIED_META_KEYS, _MODIFIED_META_RE
    )
    # Dates in an infobox, a comment or a user card are not the page's (a Q&A page's
    # answers sit in "user" cards above their question's date: WCXB dev 0.868 -> 0.873).
    # The text read around the headline does not know where its dates sit: a day
    # such an element gives is not taken from there either.
    # (Each element tested once: the furniture's and the kept lists are its two sides.)
    marked_in = [(node, _in_furniture(node)) for node in marked[:_TIMES_READ]]
    times_in = [(node, _in_furniture(node)) for node in times[:_TIMES_READ]]
    furniture = [node for node, inside in marked_in + times_in if inside]
    furniture_days = {day[:10] for n in furniture if (day := _element_date(n, lang))}
    marked = [node for node, inside in marked_in if not inside]
    times = [node for node, inside in times_in if not inside]
    dated = [node for node in dated[:_DATED_ELEMENTS_READ] if not _in_furniture(node)]
    if published is None:
        # Elements next: a page can carry many <time> tags (comments, related stories),
        # and the first one is only probably the article's; an explicit datePublished/
        # pubdate marker beats document order.
        # A <time class="updated"> (or itemprop=dateModified) dates the last change.
        published_times = [t for t in times if not _MODIFIED_HINT_RE.search(_hint(t))]
        for node in marked[:1] + published_times[:1]:
            published = _element_date(node, lang)
            if published:
                break
    if modified is None:
        for node in times:
            if _MODIFIED_HINT_RE.search(_hint(node)):
                modified = _normalise_date(node.attributes.get("datetime"))
                break
    # Last resorts from JSON-LD: a date on any node (a WebPage's), the article's creation.
    published = (
        published
        or _normalise_str(ld.first_any("datePublished"))
        or _normalise_str(ld.get("dateCreated"))
    )
    # The dates printed by the headline: the publication date where nothing above gave
    # one, and also where it shows an earlier day than the markup, close under the
    # headline (a CMS rewrites article:published_time and datePublished when a story
    # is updated, while the byline keeps the day it first ran).
    # Where the markup gave a date, only the byline's part of the text can change it.
    after_chars = _AFTER_HEADLINE_CHARS if published is None else _EARLIER_PRINTED_CHARS
    printed, printed_modified = _headline_dates(headline, lang, after_chars)
    if printed is not None and printed[1][:10] not in furniture_days:
        at, iso, in_byline = printed
        if published is None or (
            in_byline
            and at <= _EARLIER_PRINTED_CHARS
            and _days_between(iso, published) >= _EARLIER_PRINTED_DAYS
        ):
            published = iso
    modified = modified or printed_modified
    if published is None:
        # Then a date the page prints where sites print the publication date: an element
        # named for it ("post-date", "published", "entry-meta"), the first that holds one.
        for node in dated:
            text = _node_text(node)[:_DATED_TEXT_CHARS]
            found = next(_printed_dates(text, lang), None)
            if found is None:
                continue
            if found[2] == "published":
                published = found[1]
                break
            if found[2] == "modified":
                modified = modified or found[1]
    # And the URL's own /2025/11/12/; where the page states no publication date at all,
    # the date it says it was last updated is the date it gives itself.
    published = published or _url_date(url) or modified
    return published, modified


# When a printed date beats the markup's: within this many characters of the headline
# (a byline; further on, the story's own dates begin), and at least two days earlier
# (one day apart is a time zone: the markup's UTC against the site's local day). WCXB
# dev date agreement: 0.858 without the rule; 0.865, 0.868, 0.868, 0.869 within 100,
# 200, 300 and 600 characters at one day apart; 0.867, 0.868, 0.868, 0.869 at two.
# The shorter reach and the wider gap are the cautious choice at the same score.
_EARLIER_PRINTED_CHARS = 200
_EARLIER_PRINTED_DAYS = 2


def _element_date(node: LexborNode, lang: str | None) -> str | None:
    """The date an element gives: its datetime or content attribute, or its text (a
    marked element may print the date as text only: <span itemprop=datePublished>)."""
    attrs = node.attributes
    value = attrs.get("datetime") or attrs.get("content") or _node_text(node)[:80]
    return _normalise_date(value, lang)


# Class or id words of the page's furniture around a date: comments, user and member
# cards, infoboxes, forum signatures.
_FURNITURE_WORDS = class_words(
    "comment", "usercard", "user-card", "user-info", "userinfo", "member", "infobox", "signature"
)
# (No tag: sites put the post's own date in an <aside> or a layout <table>; on WCXB
# dev, counting either as furniture lost six dates and found none.)
_FURNITURE_DEPTH = 8


def _in_furniture(node: LexborNode) -> bool:
    """Whether a dated element sits in a named piece of furniture (its own or one of
    its nearest ancestors' class or id says so). Read off lexbor's structs
    (_dom.named_around): a regex over each ancestor's lowered class and id, read
    through selectolax's attribute dicts, took 0.016 ms a page (mean of the suites)."""
    return named_around(node, _FURNITURE_WORDS, _FURNITURE_DEPTH)


def _days_between(earlier: str, later: str) -> int:
    """Days from ``earlier`` to ``later`` (ISO dates or datetimes; negative if reversed)."""
    return (datetime.fromisoformat(later[:10]) - datetime.fromisoformat(earlier[:10])).days


def _normalise_str(value: Any) -> str | None:
    return _normalise_date(value) if isinstance(value, str) else None


# <time> elements read for the one that dates the publication, or the one marked as
# the modification date: the first few, past which they date comments and teasers.
_TIMES_READ = 3
# Elements named like a publication date read for one, and how much of each: past the
# first few, a name like "date" is a comment's or a related story's.
_DATED_ELEMENTS_READ = 3
_DATED_TEXT_CHARS = 120


# /2025/11/12/, /2025-11-12-slug, /2023/october/03/ in a URL's path.
@cache
def _url_date_re() -> re.Pattern[str]:
    return re.compile(r"/((?:19|20)\d\d)[/-](\d{1,2}|[a-z]{3,9})[/-](\d{1,2})(?!\d)", re.I)


def _url_date(url: str | None) -> str | None:
    match = _url_date_re().search(url_path(url)) if url else None
    if match is None:
        return None
    month = _PRINTED_MONTHS.get(match[2].lower()) if match[2].isalpha() else int(match[2])
    y, d = int(match[1]), int(match[3])
    return f"{y:04d}-{month:02d}-{d:02d}" if month and _valid_date(y, month, d) else None
