"""The class and id words that name what an element is: widgets that are never content
and consent managers and comment sections (prune), in-story chrome, a sidebar and the
body of a post (segmentation's verdicts). The stages compile their predicates from
these."""

from __future__ import annotations

import re
from functools import cache

# Class/id tokens of widgets that are never main content. Tokens are matched at word
# boundaries (start of the attribute or after a separator), so "header" does not hit
# "ad" and "shadow" does not hit "ad".
NOISE_WORDS = (
    r"ads?|ad[-_]?(?:slot|unit|box|wrap(?:per)?|container|banner|zone|block|space|label)s?"
    r"|adsbygoogle|advert\w*|sponsor\w*|promo(?:tion)?s?|dfp\w*|gpt[-_]ad\w*"
    r"|share\w*|sharing|social[-_]?(?:share|links|media|icons|buttons|bar)?\w*"
    r"|sharedaddy|addthis\w*|addtoany|a2a\w*"
    r"|newsletter\w*|subscribe\w*|subscription[-_]?(?:box|form|wall)\w*|signup\w*"
    r"|popup\w*|modal\w*|lightbox\w*|overlay"
    r"|disqus\w*|comment[-_]?(?:form|respond|reply[-_]?form)\w*|respond"
    r"|outbrain\w*|taboola\w*|skip[-_]?(?:link|to[-_]content)\w*|screen[-_]?reader\w*"
    r"|sr[-_]only|visually[-_]hidden|print[-_]only"
    # What the site leaves off the printed page (Tailwind's print:hidden, Bootstrap's
    # d-print-none): its own statement that this is not the story.
    r"|print:hidden|hidden[-_]print|d[-_]print[-_]none|no[-_]?print"
    # Per-post chrome of forums: signatures and the poster's join date and counters.
    r"|\w*signature\w*|message[-_]?user[-_]?extras|user[-_]?extras|post[-_]?profile"
    r"|(?:user|member|author|poster)[-_]?(?:stats|extras)"
)

# Consent managers: a privacy centre can hold more text than a short story, so these
# go whatever their size (see WIDGET_MAX_PAGE_SHARE).
CONSENT_WORDS = (
    r"cookie\w*|consent\w*|gdpr\w*|onetrust\w*|ot[-_]sdk\w*|cmp[-_]?(?:banner|modal|dialog|wrapper)"
)

# Comment sections proper: removed unless Config.include_comments.
COMMENT_WORDS = (
    r"comments?(?:[-_]?(?:area|section|list|wrap(?:per)?|container|thread))?"
    r"|commentlist|user[-_]?comments"
    # Customer reviews are the comments of product pages.
    r"|(?:product|customer|user)?[-_]?reviews(?:[-_]?(?:list|section|container|wrap(?:per)?|area|content))?"
    r"|review[-_]?(?:list|section|container|wrap(?:per)?|area)"
    # Third-party review widgets, named like Disqus is: by the widget, not the site.
    r"|yotpo\w*|jdgm\w*|judgeme\w*|okendo\w*|stamped[-_]\w*|bv[-_](?:rating|review)\w*"
    r"|pr[-_]review\w*|loox\w*|junip\w*|trustpilot\w*|reviews[-_]?io\w*"
)

# A class that also names content ("content-sidebar", "article-ad-wrapper") on an
# element holding real text is a layout wrapper, not a widget.
LAYOUT_WORDS = r"content|article|post|entry|story|main|body|text|page"

# Chrome that sits inside story containers: breadcrumbs, related-post lists, tag
# clouds, pagination, author boxes, "read more" teasers. Judged inside the winner
# only, and only when the block also looks like chrome (select.noise_elements).
CHROME_WORDS = (
    r"breadcrumbs?\w*|related\w*|recommend\w*|more[-_]?(?:stories|articles|news)"
    r"|read[-_]?more|tags?[-_]?(?:list|cloud|links)?|post[-_]?tags|tagcloud|pagination|pager"
    r"|nav|navbar|navigation|menu|sidebar|toc|table[-_]of[-_]contents|author[-_]?(?:bio|box)"
    r"|byline|post[-_]?meta|entry[-_]?meta|toolbar|trending\w*|popular[-_]?(?:posts|articles)"
)

# A sidebar's name (see segmentation.NAMED_SIDEBAR).
SIDEBAR_NAME = re.compile(r"(?:^|\s)sidebar(?:\s|$)")

# The body of a post, as blog and news templates name the element that holds the
# story and nothing else: WordPress's "entry-content", Blogger's "post-body", Movable
# Type's "entry-body", "article-body", "article__body", "story-text"... (whole class
# tokens or ids; 1,254 of the 4,004 suite pages name one). A modifier
# ("entry--text", one entry of a story split into many) is not one: read as a body, it
# cut a news page's story in half (-0.30). select.within_story_body reads it.
BODY_WORDS = r"(?:entry|post|article|story)(?:[-_]?|__)(?:content|body|text)|post[-_]?entry"


@cache
def body_name() -> re.Pattern[str]:
    """BODY_WORDS as whole class tokens or ids, in any case: compiled on first use, as
    only names that are not ASCII ask (segmentation reads ASCII names its own way)."""
    return re.compile(rf"(?:^|\s)(?:{BODY_WORDS})(?:\s|$)")


def _alternatives(words: str) -> list[str]:
    """The top-level alternatives of an alternation (the word lists here have no "|"
    in a character class and no escaped parenthesis)."""
    found: list[str] = []
    depth = start = 0
    for i, char in enumerate(words):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and not depth:
            found.append(words[start:i])
            start = i + 1
    found.append(words[start:])
    return found


def by_first_letter(words: str) -> str:
    r"""The same alternation with its alternatives grouped under their first letter
    ("ads?|advert\w*" -> "a(?:ds?|dvert\w*)"). sre tries the alternatives one by one
    at every separator; grouped, a letter that does not match skips its whole group."""
    groups: dict[str, list[str]] = {}
    others: list[str] = []
    for alternative in _alternatives(words):
        if alternative[0].isalpha() and alternative[1:2] not in ("?", "*", "+", "{"):
            groups.setdefault(alternative[0], []).append(alternative[1:])
        else:
            others.append(alternative)
    return "|".join([f"{c}(?:{'|'.join(rest)})" for c, rest in groups.items()] + others)


def _spread(alternative: str) -> list[str]:
    r"""``alternative`` as alternatives that each start with a letter where it can: a
    leading group spread over what follows it ("(?:user|member)[-_]?stats" ->
    "user[-_]?stats", "member[-_]?stats"; an optional one also gives what follows
    alone), an optional leading character class made two ("[-_]?reviews" ->
    "[-_]reviews", "reviews"). The same strings match."""
    if alternative.startswith("(?:"):
        depth, close = 1, 3
        while depth:
            depth += (alternative[close] == "(") - (alternative[close] == ")")
            close += 1
        close -= 1  # the group's ")"
        rest = alternative[close + 1 :]
        if rest[:1] in ("*", "+", "{"):
            return [alternative]
        optional = rest[:1] == "?"
        rest = rest[1:] if optional else rest
        spread = [a for inner in _alternatives(alternative[3:close]) for a in _spread(inner + rest)]
        return spread + (_spread(rest) if optional else [])
    if alternative.startswith("["):
        close = alternative.index("]", 2)
        if alternative[close + 1 : close + 2] == "?":
            rest = alternative[close + 2 :]
            return _spread(alternative[: close + 1] + rest) + _spread(rest)
    return [alternative]


def ranked_by_first_letter(word_lists: list[str]) -> tuple[str, tuple[int, ...]]:
    r"""Several word lists in one alternation grouped under first letters, as
    by_first_letter groups one, each list's alternatives under a letter in a capturing
    group of their own, the lists in their order: where words of several lists match
    at one position, the group that matches is the first list's. With the rank (the
    index in ``word_lists``) of each capturing group, by group number (0 for the whole
    match).

    That holds because at any position only one letter's group can match, and every
    alternative starts with a letter or with a character class holding none, ranked
    among those (a ValueError otherwise): "\w*signature\w*" must be left out."""
    letters: dict[str, list[list[str]]] = {}
    others: list[list[str]] = [[] for _ in word_lists]
    for rank, words in enumerate(word_lists):
        for alternative in (a for listed in _alternatives(words) for a in _spread(listed)):
            if alternative[:1].isalpha() and alternative[1:2] not in ("?", "*", "+", "{"):
                ranked = letters.setdefault(alternative[0], [[] for _ in word_lists])
                ranked[rank].append(alternative[1:])
            elif alternative.startswith("[") and not any(
                c.isalpha() for c in alternative[1 : alternative.index("]", 2)]
            ):
                others[rank].append(alternative)
            else:
                raise ValueError(f"{alternative!r} starts with neither a letter nor a class")
    parts: list[str] = []
    ranks = [0]
    for letter, ranked in letters.items():
        groups = []
        for rank, alternatives in enumerate(ranked):
            if alternatives:
                groups.append(f"({'|'.join(alternatives)})")
                ranks.append(rank)
        parts.append(f"{letter}(?:{'|'.join(groups)})")
    for rank, alternatives in enumerate(others):
        if alternatives:
            parts.append(f"({'|'.join(alternatives)})")
            ranks.append(rank)
    return "|".join(parts), tuple(ranks)
