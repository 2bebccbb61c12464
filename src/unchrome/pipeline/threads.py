"""Threads: reader comments that no class or id names. A comment system names its
sections ("comments", "commentlist": prune reads those), but many write their posts in
plain elements: a name, a time, the words, and a row of actions under them ("Reply",
"Like"). The row of actions is what every such post has and a story's paragraphs do
not, so a run of posts is found from it, on the blocks segment made, and flagged as a
comment section (FLAG_COMMENT): the selection leaves it out unless the page is a
discussion or Config.include_comments asks for it, as it does the named ones.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from unchrome.pipeline.segmentation import FLAG_COMMENT, Block, Segmentation, is_prose
from unchrome.rules.tags import HEADINGS

# "Reply" in the languages of the suites, as comment systems write the button under
# each post (a link, a button, a line of actions: "Like · Reply · 2h").
REPLY_WORDS = (
    r"reply|respond|antworten|répondre|repondre|responder|rispondi|beantwoorden|reageer"
    r"|odpowiedz|odpovědět|svara|svar|vastaa|yanıtla|cevapla|ответить|відповісти"
    r"|回复|回覆|返信|답글|답장|trả lời|balas|balasan|απάντηση"
)
# The lookahead for the words' first letters lets the search fail at most places with one
# test of a character class instead of trying every word there: 6.5 -> 5.3 ms over the
# 5,092 short blocks of the 4 MiB page of bench --profile, 0.25 -> 0.19 ms a WCXB page.
_REPLY_FIRSTS = "".join(sorted({word[0] for word in REPLY_WORDS.split("|")}))
_REPLY = re.compile(rf"(?<!\w)(?=[{_REPLY_FIRSTS}])(?:{REPLY_WORDS})(?!\w)", re.I)
# A row of actions is short: a few buttons and a counter. A block this long that says
# "reply" is a sentence ("...he did not reply to our questions").
ACTIONS_MAX_CHARS = 40
# A post is a comment's length, not a story's: a post longer than this is no comment
# of a thread (a forum's long posts are a discussion's content anyway, see
# kinds.is_discussion). The cap keeps a story with one stray "Reply" link in it from
# being read as a post beside the comments under it.
POST_MAX_CHARS = 1500
# The posts fill their thread: a heading ("5 responses") and a form may sit beside them.
THREAD_MIN_POST_SHARE = 0.7


def flag_threads(seg: Segmentation) -> bool:
    """Flag the blocks of each run of two or more posts (each holding one row of
    actions with a reply word) FLAG_COMMENT; say whether any were flagged.

    A post is the largest element around a row of actions that holds no other such
    row; a thread is the nearest element holding two posts or more, when posts fill
    most of its text."""
    blocks = seg.blocks
    rows = [
        i
        for i, b in enumerate(blocks)
        if len(b.text) <= ACTIONS_MAX_CHARS and b.path and _REPLY.search(b.text)
    ]
    if len(rows) < 2:
        return False
    under: dict[int, int] = {}  # element id -> rows of actions inside it
    for i in rows:
        for element in blocks[i].path:
            under[element] = under.get(element, 0) + 1
    # Each block's characters, summed per element of its path (only the elements that
    # hold a row of actions are asked for).
    chars: dict[int, int] = {}
    for b in blocks:
        for element in b.path:
            if element in under:
                chars[element] = chars.get(element, 0) + len(b.text)
    posts: set[int] = set()
    for i in rows:
        # None when two rows share their innermost element: no post of its own.
        post = next((e for e in blocks[i].path if under[e] == 1), None)
        if post is not None and chars[post] <= POST_MAX_CHARS:
            posts.add(post)
    if len(posts) < 2:
        return False
    # Posts by the elements around them: the nearest one holding two posts is a thread.
    holds: dict[int, int] = {}  # element -> posts inside it
    post_chars: dict[int, int] = {}  # element -> characters of the posts inside it
    parents = seg.parents
    for post in posts:
        parent = parents[post]
        while parent >= 0:
            holds[parent] = holds.get(parent, 0) + 1
            post_chars[parent] = post_chars.get(parent, 0) + chars[post]
            parent = parents[parent]
    threads: set[int] = set()
    for post in posts:
        parent = parents[post]
        while parent >= 0 and holds[parent] < 2:
            parent = parents[parent]
        if parent >= 0 and post_chars[parent] >= THREAD_MIN_POST_SHARE * chars[parent]:
            threads.add(parent)
    if not threads:
        return False
    inside = [any(e in threads for e in b.path) for b in blocks]
    # Comments follow a story: the prose ahead of the first thread outweighs the posts.
    # A forum's thread has no story ahead of it (its first post is a post, with its own
    # row of actions): two forum pages of the news set lost their replies (-0.18 and
    # -0.29 word F1) when a thread needed no story ahead of it.
    first = inside.index(True)
    story = sum(len(b.text) for b in blocks[:first] if is_prose(b))
    if story < sum(post_chars[t] for t in threads):
        return False
    for b, flagged in zip(blocks, inside, strict=True):
        if flagged:
            b.flags |= FLAG_COMMENT
    return True


# A post's author as a heading is a name or a handle, not a sentence: longer headings
# are a post's title or a section's.
AUTHOR_MAX_CHARS = 60
# A thread is two posts or more: one heading over a kept block is any section's.
MIN_POSTS = 2


def post_authors(blocks: Sequence[Block], keep: bytearray) -> None:
    """Keep the heading that opens each post of a thread: the poster's name, which forum
    software prints as the post's <h2>-<h6> (a user card's "Bagabaga" over "Member",
    the date and the post). The block model reads a short heading among badges and
    counters as chrome, and the thread lost who said what.

    A heading opens a post when it is the first heading of the nearest element around
    it that holds kept blocks (the post), the post holds no other heading of its rank,
    and every kept block of the post comes after it; a page has a thread when at least
    MIN_POSTS headings of one rank open one. A sidebar's heading fails the rank test:
    the element around it that holds kept blocks is the page's, the thread's headings
    in it.

    Measured on the pages whose kind is "forum" (the only ones it runs on): WCXB dev
    Markdown heading F1 0.787 -> 0.791 (forum 0.251 -> 0.439); word F1 WCXB forum
    0.8326 -> 0.8332, the news set's forum threads 0.7983 -> 0.7978 (their annotators
    leave the names out as often as in: magic-html's keep some threads' posters and
    not others'), every other page unchanged. Without the first-heading test a user
    card's title ("Member") came in with the name; without the rank test a sidebar's
    "People in this discussion" did."""
    first_kept: dict[int, int] = {}  # element -> its first kept block
    first_heading: dict[int, int] = {}  # element -> its first heading
    ranked: dict[tuple[int, str], int] = {}  # (element, heading tag) -> headings inside
    for i, block in enumerate(blocks):
        if keep[i]:
            for element in block.path:
                first_kept.setdefault(element, i)
        if block.kind in HEADINGS:
            for element in block.path:
                first_heading.setdefault(element, i)
                ranked[element, block.kind] = ranked.get((element, block.kind), 0) + 1
    by_rank: dict[str, list[int]] = {}
    for i, block in enumerate(blocks):
        if keep[i] or block.kind not in HEADINGS or block.kind == "h1":
            continue
        if len(block.text) > AUTHOR_MAX_CHARS or "\n" in block.text:
            continue
        # The nearest element around the heading (its own aside) holding a kept block.
        post = next((e for e in reversed(block.path) if e != block.owner and e in first_kept), None)
        if (
            post is not None
            and first_heading[post] == i
            and ranked[post, block.kind] == 1
            and first_kept[post] > i
        ):
            by_rank.setdefault(block.kind, []).append(i)
    for opening in by_rank.values():
        if len(opening) >= MIN_POSTS:
            for i in opening:
                keep[i] = True
