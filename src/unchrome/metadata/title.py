"""The title: JSON-LD headline, og:title or <title>, with the site's name cut off."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from selectolax.lexbor import LexborNode

from unchrome.metadata.common import _clean, _first, _node_text, _norm_key
from unchrome.metadata.jsonld import _LD
from unchrome.urls import host as url_host

# Separators sites use between the headline and their own name. Plain hyphens and
# colons only count when spaced, so "Wi-Fi" and "Review: A console..." stay intact;
# full-width bars and colons (｜, ：) and underscores between words of scripts
# without spaces ("…_科技_腾讯网") count as they are, a spaced underscore too.
# The lookahead first: every separator begins with a space, a bar or an underscore,
# and re, which finds no first character to look for in the alternatives, tried
# all five at every letter of a title (15,901 titles and headings of the suites, the
# same splits: 4.0 -> 1.7 us a split).
_TITLE_SEP_RE = re.compile(
    r"(?=[\s|｜：_])"
    r"(?:\s+(?:[|\-–—·•»~/\\_]|::)\s+|\s*(?:\|)\s*$|\s*[｜：]\s*"
    r"|\s+_|(?<=[^\x00-\x7f])_(?=[^\x00-\x7f]))"
)
# The separators the pipeline's page title (_page_title) reads: the spaced ones alone
# (the lookahead as above).
_SPACED_SEP_RE = re.compile(r"(?=[\s|])(?:\s+(?:[|\-–—·•»~/\\]|::)\s+|\s*(?:\|)\s*$)")
# Han, kana and Hangul: written without spaces, a word is about two characters.
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"


@functools.cache
def _cjk_re() -> re.Pattern[str]:
    """_CJK, compiled where a text that is not ASCII is first counted: re builds the
    class's table a character at a time, 39,000 of them, 2.7 ms at import (a third of
    the metadata package's own), which a command line run on an ASCII page spent for
    nothing."""
    return re.compile(_CJK)


def _word_count(text: str, wide: bool = True) -> int:
    """Words: as spaces part them, or (``wide``) with two Han, kana or Hangul
    characters counted as one word."""
    if not wide or text.isascii():  # ASCII: no Han, kana or Hangul to count
        return len(text.split())
    cjk = _cjk_re()
    latin = sum(1 for word in text.split() if not cjk.search(word))
    return latin + (len(cjk.findall(text)) + 1) // 2


def _matches_site(segment: str, site_keys: list[str]) -> bool:
    key = _norm_key(segment)
    if not key:
        return True  # a segment of pure punctuation is decoration
    for site in site_keys:
        if key == site:
            return True
        # Near matches only: "The Washington Post" ~ "Washington Post", "Libération" ~
        # "Libération.fr"; a headline merely containing the site name must survive.
        if len(site) >= 4 and site in key and len(key) <= len(site) + 6:
            return True
        if len(key) >= 4 and key in site and len(key) * 2 >= len(site):
            return True
    return False


def _strip_site(title: str, site_keys: list[str], heuristic: bool = True, wide: bool = True) -> str:
    """Remove the site-name segment(s) from either end of a ``<title>``-style string.

    A segment is dropped when it matches the site name or host; failing that, and only
    with ``heuristic``, a short trailing segment (<= 3 words) after a long enough headline
    (>= 4 words) is taken to be the site name. Titles whose separated halves are both
    long are left alone: the dash is then part of the headline. ``wide=False`` reads
    the page title of the pipeline (_page_title): spaced separators only, at most one
    heuristic segment and only where no site name was found, words as spaces count them.
    """
    parts = (_TITLE_SEP_RE if wide else _SPACED_SEP_RE).split(title)
    parts = [p.strip() for p in parts if p and p.strip()]
    if len(parts) < 2:
        return title
    changed = False
    if site_keys:
        while len(parts) > 1 and _matches_site(parts[-1], site_keys):
            parts.pop()
            changed = True
        while len(parts) > 1 and _matches_site(parts[0], site_keys):
            parts.pop(0)
            changed = True
    # Portals name the section before the site ("…_科技_腾讯网", "… | Sport | BILD"):
    # up to two short trailing segments go.
    popped = 0
    while (
        heuristic
        and popped < (2 if wide else 1)
        and (wide or not changed)
        and len(parts) > 1
        and _word_count(parts[-1], wide) <= 3
        and _word_count(" ".join(parts[:-1]), wide) >= 4
    ):
        parts.pop()
        changed = True
        popped += 1
    if not changed:
        return title
    # Rebuild from the original text so inner separators keep their original spelling.
    start = title.find(parts[0])
    last = parts[-1]
    end = title.rfind(last) + len(last)
    result = title[start:end].strip() if start >= 0 and end > start else " - ".join(parts)
    return result or title


_REGISTRY_LABELS = frozenset(("co", "com", "org", "net", "gov", "ac", "edu", "ne", "or"))


def _site_keys(site_name: str | None, url: str | None) -> list[str]:
    """Comparison keys for the site: its declared name, then the registrable host label."""
    keys: list[str] = []
    if site_name:
        keys.append(_norm_key(site_name))
    if url:
        host = url_host(url)
        labels = [lab for lab in host.split(".") if lab and lab != "www"]
        # Skip second-level registry labels: "bbc.co.uk" is "bbc", not "co".
        while len(labels) >= 3 and labels[-2] in _REGISTRY_LABELS:
            labels = labels[:-1]
        if len(labels) >= 2:
            # "www.nytimes.com" -> "nytimes", also "nytimescom" so "TMZ.com" meets "tmz.com".
            keys.append(_norm_key(labels[-2]))
            keys.append(_norm_key("".join(labels[-2:])))
    return [k for k in keys if k]


_TOKEN_RE = re.compile(r"\W+")


def _tokens(text: str) -> list[str]:
    """The words of ``text``, casefolded, as _similarity compares them."""
    return [t for t in _TOKEN_RE.split(text.casefold()) if t]


def _share(known: set[str], tokens: list[str]) -> float:
    """Share of the text of ``tokens`` made of tokens in ``known`` (1.0: all of it)."""
    if not tokens:
        return 0.0
    unique = [t for t in tokens if t not in known]
    return 1.0 - len(" ".join(unique)) / len(" ".join(tokens))


def _similarity(a: str, b: str) -> float:
    """Share of ``b``'s text made of tokens that also occur in ``a`` (1.0: all of it)."""
    return _share(set(_tokens(a)), _tokens(b))


def _ld_title(ld: _LD, doc_title: str | None) -> str | None:
    """Headline of the JSON-LD article.

    ``headline`` is the article title by definition, but some sites stuff a summary into
    it (Wikipedia) or put the site name into ``name`` (aktualne.cz). When both exist and
    differ, take the one that better resembles ``<title>``, ``headline`` on a tie.
    """
    headline = _clean(ld.get("headline"))
    name = _clean(ld.get("name"))
    if (
        headline
        and name
        and headline != name
        and doc_title
        and _similarity(name, doc_title) > _similarity(headline, doc_title)
    ):
        return name
    return headline or name


# Whether og:title / JSON-LD headlines also lose a segment naming the site ("How to Build a
# Terrarium | eHow" -> "How to Build a Terrarium"). Readability keeps such titles verbatim,
# so this costs agreement with its expectations (0.915 instead of 0.977 on its 130 test
# pages, every difference being exactly a dropped site name) but gives cleaner titles.
_STRIP_SITE_FROM_PUBLISHER_TITLES = True


def _leading_part(title: str, others: list[str]) -> str | None:
    """The leading segments of ``title`` (split at its separators) that another title
    of the page is, case and punctuation aside; ``None`` if no other title is."""
    parts = [p for p in _TITLE_SEP_RE.split(title) if p and p.strip()]
    keys = {_norm_key(o) for o in others}
    for end in range(len(parts) - 1, 0, -1):
        head = " ".join(parts[:end])
        if _norm_key(head) in keys:
            return title[: title.find(parts[end - 1]) + len(parts[end - 1])].strip()
    return None


_PIPE_TAIL_RE = re.compile(r"\s+\|\s+([^|]+)$")


def _pipe_tail(title: str) -> str:
    """``title`` without a short segment after its last bar ("… | Opinion", "… | WRAL"):
    a bar parts a headline from a section or a site, rarely within a headline (a
    series or a chapter follows a dash or a colon)."""
    match = _PIPE_TAIL_RE.search(title)
    if match is None:
        return title
    head = title[: match.start()]
    if _word_count(match[1]) <= 3 and _word_count(head) >= 4:
        return head
    return title


def _declared(
    metas: dict[str, str], ld: _LD, doc_title: str | None, site_keys: list[str]
) -> str | None:
    """The first title the publisher declares: JSON-LD headline, og:title and its kin."""
    candidates = (
        _ld_title(ld, doc_title),
        _first(metas, ("dc:title", "dcterm:title", "og:title", "twitter:title", "parsely-title")),
        metas.get("title"),
    )
    # A "title" that is just the site's name is a homepage template value.
    return next(
        (c for c in candidates if c and not (site_keys and _norm_key(c) == site_keys[0])), None
    )


def _publisher_title(
    metas: dict[str, str],
    ld: _LD,
    doc_title: str | None,
    site_keys: list[str],
    h1s: list[str],
) -> str | None:
    """The title the publisher declares (_declared), else the ``<title>``, without the
    site's name."""
    candidate = _declared(metas, ld, doc_title, site_keys)
    if candidate:
        if not _STRIP_SITE_FROM_PUBLISHER_TITLES:
            return candidate
        # Publishers' own titles only lose a segment that is recognisably the site
        # name, or one that another of their titles goes without ("… | Sport" beside
        # an og:title without it): a short trailing segment there is as likely a
        # series or chapter name.
        title = _pipe_tail(_strip_site(candidate, site_keys, heuristic=False))
        others = [t for t in (metas.get("og:title"), metas.get("twitter:title"), *h1s) if t]
        return _leading_part(title, others) or title
    if not doc_title:
        return None
    title = _strip_site(doc_title, site_keys)
    return _leading_part(title, h1s) or title


def _page_title(
    metas: dict[str, str],
    ld: _LD,
    doc_title: str | None,
    h1s: list[str],
    site_keys: list[str],
) -> str | None:
    """The page's title as the pipeline reads it: the declared title less a site-name
    segment, else ``<title>`` less one, else (or where that is very short or very long)
    a lone wordier h1.

    The block model's title features were trained on this reading, and the selection
    keeps the heading that matches it; the headline of _pick_title (Result.title)
    differs from it on about one WCXB page in eight, and the selection took 180 of the
    1,677 WCXB, fundus and Readability pages differently with it. So the pipeline keeps
    this one until the model is trained on the headline.
    """
    candidate = _declared(metas, ld, doc_title, site_keys)
    if candidate:
        return _strip_site(candidate, site_keys, heuristic=False, wide=False)
    if doc_title:
        cleaned = _strip_site(doc_title, site_keys, wide=False)
        if not 15 <= len(cleaned) <= 150 and len(h1s) == 1 and _word_count(h1s[0], wide=False) > 4:
            return h1s[0]
        return cleaned
    return h1s[0] if h1s else None


# How much of its wording an h1 must share with a declared title, both ways (see
# _agreement), to be the story's headline rather than a logo, a section name or a
# widget's heading. WCXB dev, whose titles are the visible headline, "title is the
# headline" at 0.3 / 0.4 / 0.5 / 0.6 / 0.7: 0.772 / 0.764 / 0.746 / 0.734 / 0.714; the
# Readability pages, whose titles are <title>'s, 0.740 / 0.787 / 0.795 / 0.819 / 0.835;
# fundus 0.808 / 0.827 / 0.827 / 0.827 / 0.827. 0.5 is where neither convention loses
# much to the other.
_H1_AGREEMENT = 0.5
_MAX_H1_CHARS = 300
_PERMALINK_MARKS = " ¶§#🔗"
# A kicker ends with a colon before the headline it introduces.
_KICKER_END_RE = re.compile(r"\w\s*[:：]\s*$")


def _agreement(h1: str, sources: list[str]) -> float:
    """How much the h1 and the best-matching declared title share, both ways: the
    smaller of the share of the h1's text whose words the title has and the reverse
    (a logo h1 is a small part of a title that ends in the site's name)."""
    return _tokens_agreement(h1, _worded(sources))


def _worded(sources: list[str]) -> list[tuple[set[str], list[str]]]:
    """The words of each distinct source, as a set and in order, for _tokens_agreement."""
    return [(set(words), words) for words in map(_tokens, dict.fromkeys(sources))]


def _tokens_agreement(h1: str, sources: list[tuple[set[str], list[str]]]) -> float:
    """_agreement with the sources' words read already (_worded): each text is split
    into words once, where each comparison split both of its texts again (the sources
    repeat each other, and every h1 meets them all): _pick_title 0.074 -> 0.059 ms a
    page (mean of the suites)."""
    words = _tokens(h1)
    known = set(words)
    best = 0.0  # a share is never below it
    for source_set, source_words in sources:
        best = max(best, min(_share(source_set, words), _share(known, source_words)))
    return best


def _story_h1(h1s: list[str], sources: list[str], site_keys: list[str]) -> str | None:
    """The h1 that agrees best with the declared titles, if it agrees enough."""
    best, best_score = None, 0.0
    worded = _worded(sources)
    for h1 in h1s:
        if len(h1) > _MAX_H1_CHARS or _matches_site(h1, site_keys):
            continue
        score = _tokens_agreement(h1, worded)
        if score > best_score:
            best, best_score = h1, score
    return best if best_score >= _H1_AGREEMENT else None


def _logo_keys(
    doc_title: str | None, h1s: list[str], site_keys: list[str], h2s: Sequence[LexborNode]
) -> list[str]:
    """The site's name as a logo h1 gives it: an h1 that is the last segment of
    ``<title>`` while another segment is an h2, the story's heading under the logo
    ("What is Ownership? - The Rust Programming Language", an h1 "The Rust
    Programming Language" and an h2 "What Is Ownership?"): a name that host and
    og:site_name may not give."""
    if not doc_title or not h1s:
        return []
    parts = [p.strip() for p in _TITLE_SEP_RE.split(doc_title) if p and p.strip()]
    if len(parts) < 2 or _matches_site(parts[0], site_keys):
        return []  # "NASA SVS | Impact of …": the site leads, the h1 is the headline
    last = _norm_key(parts[-1])
    if not last or not any(_norm_key(h1) == last for h1 in h1s):
        return []
    # "The Art of Non-Conformity » Searching for Guinea Bissau" with that headline as
    # its h1: the h1 is the story's, and the site's name leads.
    heads = {_norm_key(part) for part in parts[:-1]}
    return [last] if any(_norm_key(_node_text(node)) in heads for node in h2s) else []


# What follows a title as the site's, not the headline's: a segment after a separator
# (" | WRAL", " - Japan Forum"), a source's host in brackets ("(latimes.com)"); and the
# marks glued to a title's last word ("?", "++"), which its key leaves out.
_GLUED_MARKS_RE = re.compile(r"^[^\w\s(]+")


@functools.cache
def _host_note_re() -> re.Pattern[str]:
    """Compiled on first use: asked only where no separator follows (1% of the WCXB dev
    pages); 0.13 ms of every start otherwise."""
    return re.compile(r"\s*\((?:[\w-]+\.)+[a-z]{2,}\)", re.IGNORECASE)


def _ends_inside_a_text(node: LexborNode, at: int) -> bool:
    """Whether the ``at``-th letter or digit (_norm_key) of an element's text falls
    inside one of its text nodes, that node going on after it: read up to there."""
    start = 0
    for child in node.traverse(include_text=True):
        if child.tag == "-text" and (size := len(_norm_key(child.text_content or ""))):
            if start + size > at:
                return start < at
            start += size
    return False


def _in_full(
    h1s: list[str], declared: str | None, nodes: Sequence[LexborNode | None] = ()
) -> str | None:
    """The h1 that says the declared title in full, if one does: it opens with the
    declared words and goes on in the same sentence ("Best High School Tutors in 2025"
    and an h1 "…, Reviewed by a Student"; "Networking" and "Networking in Compose"; a
    declared title cut at "…"): in the same text node of its element (``nodes``, in
    the order of ``h1s``: a comment count, a section and a date, an "[ edit ]" link in
    elements of their own glued to the headline are not its words), not after a
    separator or with a host in brackets, and agrees with it as the story's h1 must
    (_agreement: an h1 that runs on into its standfirst is not the headline). The
    declared title was cut for a search result or a social card; the h1 is what the
    reader sees."""
    if not declared:
        return None
    declared_key = _norm_key(declared)
    for index, h1 in enumerate(h1s):
        if len(h1) > _MAX_H1_CHARS:
            continue  # no headline (as in _story_h1), and a hostile page's 4 MB h1
        key = _norm_key(h1)
        if not declared_key or key == declared_key or not key.startswith(declared_key):
            continue
        node = nodes[index] if index < len(nodes) else None
        if node is not None and not _ends_inside_a_text(node, len(declared_key)):
            continue  # what follows is an element of its own: "149 Comments", "[ edit ]"
        # Where the declared words end in the h1: after as many letters and digits.
        seen, at = 0, 0
        while seen < len(declared_key) and at < len(h1):
            if h1[at].isalnum():
                seen += len(h1[at].casefold())
            at += 1
        rest = _GLUED_MARKS_RE.sub("", h1[at:])
        if _TITLE_SEP_RE.match(rest) or _host_note_re().match(rest):
            continue
        if _agreement(h1, [declared]) >= _H1_AGREEMENT:
            return h1
    return None


def _without_site_tail(h1: str, site_keys: list[str]) -> str:
    """``h1`` less a trailing segment that names the site ("Catering Tips | Cookshack"),
    as a ``<title>`` loses it; a leading one stays (a newsletter's or a series' name
    that is also the site's: "Digjitale Signal #18 – The World Without Work?")."""
    if len(h1) > _MAX_H1_CHARS:
        return h1
    parts = [p.strip() for p in _TITLE_SEP_RE.split(h1) if p and p.strip()]
    if len(parts) < 2 or not _matches_site(parts[-1], site_keys):
        return h1
    # Cut after the last segment kept, so that its inner separators keep their spelling.
    end = h1.rfind(parts[-2], 0, h1.rfind(parts[-1])) + len(parts[-2])
    return h1[:end].strip() or h1


def _pick_title(
    metas: dict[str, str],
    ld: _LD,
    doc_title: str | None,
    h1s: list[str],
    site_keys: list[str],
    h2s: Sequence[LexborNode] = (),
    h1_nodes: Sequence[LexborNode | None] = (),
) -> str | None:
    """The document's headline, by agreement of its sources. ``h1_nodes``: the
    elements of ``h1s``, in their order.

    The visible headline (the story's ``h1``) is what a reader sees and cites; the
    declared titles (JSON-LD headline, og:title, ``<title>``) are often written for
    search engines and social cards, with the site's name around them. So the h1 that
    shares most of its words with a declared title wins (that agreement tells the
    story's headline from a logo or a "Related" heading), except where one holds the
    other with a kicker or section glued in (below); an h1 that says the declared
    title in full (_in_full) wins over any declared one. Without such an h1 the declared
    title stands (see _publisher_title); a very short or very long ``<title>`` then gives
    way to a lone, wordier h1 (Readability's rule, which keeps e.g. "Base URL test"
    over an h1 "Lorem").
    """
    # A heading's permalink mark ("Working with forms ¶") is no part of it.
    h1s = [h1.rstrip(_PERMALINK_MARKS).rstrip() or h1 for h1 in h1s]
    site_keys = site_keys + _logo_keys(doc_title, h1s, site_keys, h2s)
    h1s = [_without_site_tail(h1, site_keys) for h1 in h1s]
    declared = _publisher_title(metas, ld, doc_title, site_keys, h1s)
    sources = [s for s in (declared, _ld_title(ld, doc_title), doc_title) if s]
    sources += [v for k in ("og:title", "twitter:title") if (v := metas.get(k))]
    # An h1 that says the declared title in full stands over it, JSON-LD's too (WCXB
    # dev: 13 titles more, one less; fundus and Readability unchanged).
    full = _in_full(h1s, declared, h1_nodes)
    if full is not None:
        return full
    # A JSON-LD article's headline is the story's own declared headline: there, it
    # stands over a differing h1 (a CMS's "SEO headline" is in og:title and <title>,
    # rarely in the article's structured data). WCXB dev "title is the headline" 0.748
    # with the h1 over it too, 0.732 without; fundus, whose publishers' parsers mostly
    # read that headline, 0.846 and 0.904.
    h1 = None if ld.article is not None else _story_h1(h1s, sources, site_keys)
    if h1 is not None:
        # The same text but for spacing: the declared spelling ("da : Thioune" in an
        # h1 whose colon sits in an element of its own).
        unspaced = "".join(h1.split())
        same = next((s for s in sources if "".join(s.split()) == unspaced), None)
        if same is not None:
            return same
        h1_key, declared_key = _norm_key(h1), _norm_key(declared or "")
        if declared and declared_key != h1_key:
            # An h1 that holds the declared title has a kicker or section glued in by
            # its markup ("Premier League Rückschlag im Titelkampf - ..."); a declared
            # title that holds the h1 after a colon, the kicker the h1 leaves to an
            # element of its own ("Nationaler Veteranentag: Orden fürs Morden").
            if declared_key in h1_key:
                return declared
            at = declared.casefold().rfind(h1.casefold()) if h1_key in declared_key else -1
            if at > 0 and _KICKER_END_RE.search(declared[:at]):
                return declared
        return h1
    if (
        declared
        and doc_title
        and declared == _strip_site(doc_title, site_keys)
        and not 15 <= len(declared) <= 150
        and len(h1s) == 1
        and _word_count(h1s[0]) > 4
    ):
        return h1s[0]
    return declared or (h1s[0] if h1s else None)
