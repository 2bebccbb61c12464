"""Page kinds the selection asks about: when the comments are the content (a discussion),
and when what is left without them is still a story (pipeline.kinds)."""

from __future__ import annotations

import unchrome
from pages import page, story_html


def test_a_discussion_url_brings_the_comments_back_as_content():
    # A link post with a long sidebar of community rules: without its comment section
    # the page still has well over 600 characters, but the URL says it is a discussion.
    rules = "".join(
        f"<p>Rule {i}: posts must link to published research, stay on topic and be "
        f"civil; anecdotes and jokes are removed by the moderators without notice.</p>"
        for i in range(8)
    )
    replies = "".join(
        f'<div class="comment"><p>Reply {i}: this could help people with hearing loss '
        f"if the same approach works for the cells of the inner ear, and it might "
        f"also tell us why some people lose their hearing earlier than others.</p></div>"
        for i in range(12)
    )
    html = page(
        f'<div class="side">{rules}</div>'
        f'<div class="content"><h1>Hair follicles grown in the lab</h1>'
        f'<div class="commentarea">{replies}</div></div>'
    )
    thread = unchrome.extract(html, url="https://forum.example/r/science/comments/1abc/hair/")
    assert "Reply 5: this could help people" in thread.text
    story = unchrome.extract(html, url="https://news.example/2026/03/hair-follicles/")
    assert "Reply 5" not in story.text
    # Forum software's own URL shapes say the same (vBulletin, phpBB, Discuz!, MyBB).
    for url in (
        "https://board.example/forum/science/1586800-hair-follicles",
        "https://board.example/viewtopic.php?t=2322",
        "https://bbs.example/forum.php?mod=viewthread&tid=38733",
        "https://board.example/showthread.php?tid=77",
        "https://board.example/topic/2322-hair-follicles",
    ):
        assert "Reply 5: this could help people" in unchrome.extract(html, url=url).text, url
    # A subject's listing or a board is not a thread.
    for url in ("https://news.example/topic/science/", "https://board.example/forum/science"):
        assert "Reply 5" not in unchrome.extract(html, url=url).text, url


def test_a_short_blog_post_keeps_its_readers_comments_out():
    # Two paragraphs of prose under 600 characters are a story: the retry with the
    # comments (meant for threads whose posts sit in comment-named elements) once
    # pulled a whole comment thread into such posts.
    story = (
        "<p>The abbot asked his favourite pupil how his spiritual progress was coming "
        "along, and the pupil said he gave every moment of the day to God.</p>"
        "<p>Then all that is left now, said the abbot, is to forgive your enemies.</p>"
    )
    html = page(
        f'<div class="post"><h1>Forgiving your enemies</h1>{story}</div>'
        f'<div class="comments">{_readers_comments(12)}</div>'
    )
    result = unchrome.extract(html, url="https://blog.example/2012/06/27/forgiving/")
    assert "forgive your enemies" in result.text
    assert "Comment 3" not in result.text


def test_a_thread_whose_opening_post_is_no_story_keeps_its_replies():
    # One short question above the replies: the replies are the page's content.
    html = page(
        '<div class="topic"><h1>How do I start getting art commissions?</h1>'
        "<p>Any advice welcome.</p></div>"
        f'<div class="comments">{_readers_comments(12)}</div>'
    )
    result = unchrome.extract(html, url="https://board.example/art-commissions/")
    assert "Comment 3: I have tried to forgive" in result.text


def _forum_thread(sidebar: str = "") -> str:
    # Forum software's posts: a user card (the name as a heading, a title, badges), the
    # date, then the words.
    posts = "".join(
        f'<article class="message"><div class="user"><h4 class="name">{name}</h4>'
        f'<h5 class="title">Member</h5><ul><li>{i + 1} posts</li></ul></div>'
        f'<div class="main"><ul><li>Mar {i + 6}, 2024</li><li>#{i + 1}</li></ul>'
        f'<div class="body">Post {i}: {text}</div></div></article>'
        for i, (name, text) in enumerate(
            [
                (
                    "Bagabaga",
                    "I just got a fifty gallon tank for free and plan a fish "
                    "only tank with a canister filter and almost no substrate at all.",
                ),
                (
                    "Reefing102",
                    "A snowflake eel would likely grow too large for fifty "
                    "gallons; a dwarf lion would likely be the better choice for you.",
                ),
                (
                    "Dbroncos",
                    "A little small for a flame angel, I think, though some "
                    "people keep them in tanks of that size for years without trouble.",
                ),
            ]
        )
    )
    return page(
        f'{sidebar}<h1>New tank thoughts</h1><div class="thread">{posts}</div>',
        head="<title>New tank thoughts</title>",
    )


def test_a_forum_thread_says_who_wrote_each_post() -> None:
    url = "https://forum.example/threads/new-tank-thoughts.32375893/"
    markdown = unchrome.extract(_forum_thread(), url=url).markdown
    for name in ("Bagabaga", "Reefing102", "Dbroncos"):
        assert f"#### {name}" in markdown
    # The poster's name, not the user card's other headings.
    assert "Member" not in markdown
    # In the order of the thread: each name over its post.
    assert markdown.index("Reefing102") < markdown.index("Post 1:") < markdown.index("Dbroncos")


def test_a_sidebar_heading_does_not_open_a_post() -> None:
    sidebar = (
        '<div class="side"><h4>People in this discussion</h4>'
        '<a href="/u/1">Bagabaga</a> <a href="/u/2">Dbroncos</a></div>'
    )
    url = "https://forum.example/threads/new-tank-thoughts.32375893/"
    markdown = unchrome.extract(_forum_thread(sidebar), url=url).markdown
    assert "People in this discussion" not in markdown
    assert "#### Dbroncos" in markdown


def test_an_articles_headings_are_not_read_as_posters() -> None:
    # Outside a discussion, a heading the model dropped stays dropped.
    url = "https://news.example/2024/03/new-tank-thoughts/"
    markdown = unchrome.extract(_forum_thread(), url=url).markdown
    assert "#### Bagabaga" not in markdown


def _readers_comments(count: int) -> str:
    return "".join(
        f'<div class="comment"><p class="author">Reader {i} July {i + 1}, 2012 at 3:56 pm</p>'
        f"<p>Comment {i}: I have tried to forgive the people who hurt me, and it is hard "
        f"work, but your story made me think again about what it asks of us.</p></div>"
        for i in range(count)
    )


# ------------------------------------------------------------------ Result.kind

_BODY = "<h1>Opening hours</h1>" + story_html()


def _kind(head: str = "", url: str | None = None) -> str:
    return unchrome.extract(page(_BODY, head="<title>Opening hours</title>" + head), url=url).kind


def _ld(kind: str, **more: object) -> str:
    import json

    obj = {"@context": "https://schema.org", "@type": kind, **more}
    return f'<script type="application/ld+json">{json.dumps(obj)}</script>'


def test_a_forum_thread_is_a_forum_not_an_article() -> None:
    assert _kind(_ld("DiscussionForumPosting", headline="Opening hours")) == "forum"
    assert _kind(url="https://forum.example/threads/opening-hours.1234/") == "forum"


def test_a_product_page_is_a_product_and_a_shops_category_a_collection() -> None:
    assert _kind('<meta property="og:type" content="product">') == "product"
    assert _kind(_ld("Product", name="Lamp", offers={"@type": "Offer", "price": "9"})) == "product"
    assert _kind('<meta property="og:type" content="product.group">') == "collection"
    listed = _ld("ItemList", itemListElement=[{"@type": "Product", "name": "Lamp"}])
    assert _kind(listed + _ld("Product", name="Lamp")) == "collection"


def test_documentation_listing_and_service_pages_by_their_markup_or_path() -> None:
    assert _kind(_ld("TechArticle", headline="Opening hours")) == "documentation"
    assert _kind('<meta name="generator" content="Sphinx 7.2.6">') == "documentation"
    assert _kind(url="https://lib.example/docs/opening-hours") == "documentation"
    assert _kind(_ld("CollectionPage")) == "listing"
    assert _kind(url="https://lib.example/category/news/") == "listing"
    assert _kind(_ld("ProfessionalService", name="Library")) == "service"
    assert _kind(url="https://lib.example/services/room-booking") == "service"


def test_an_article_stays_an_article_whatever_its_path_says() -> None:
    assert _kind() == "article"
    assert _kind(
        _ld("NewsArticle", headline="Opening hours"), "https://lib.example/services/x"
    ) == ("article")
