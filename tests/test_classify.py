"""Bot walls, dead-page screens and social-post shape (unchrome.pipeline.classify)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from unchrome._native._dom import page_elements
from unchrome.errors import BlockedBySite, PageNotFound
from unchrome.metadata import extract_metadata
from unchrome.pipeline import classify
from unchrome.pipeline.classify import (
    BOT_WALL_MAX_CHARS,
    NOT_FOUND_MAX_CHARS,
    classify_block,
    detect_kind,
)

# ------------------------------------------------------------------ bot-wall fixtures

CLOUDFLARE_TEXT = """example.com
Verifying you are human. This may take a few seconds.
example.com needs to review the security of your connection before proceeding.
Ray ID: 8a1b2c3d4e5f6789
Performance & security by Cloudflare"""

BOT_WALLS = [
    pytest.param("Just a moment...", CLOUDFLARE_TEXT, id="en-cloudflare-challenge"),
    pytest.param("Just a moment…", "", id="en-cloudflare-title-only-ellipsis"),
    pytest.param(
        "Attention Required! | Cloudflare",
        "Sorry, you have been blocked\nYou are unable to access example.com\n"
        "Why have I been blocked?\nCloudflare Ray ID: 8a1b2c3d4e5f6789",
        id="en-cloudflare-block",
    ),
    pytest.param(
        "Access Denied",
        'You don\u2019t have permission to access "http://www.example.com/news/" on this '
        "server.\nReference #18.5e3b1002.1629830000.2a0b1c3d",
        id="en-akamai",
    ),
    pytest.param(
        None,
        "Access to this page has been denied.\nPress & Hold to confirm you are a human "
        "(and not a bot).\nReference ID 0a1b2c3d-0000-11ee-8f2e-123456789abc",
        id="en-perimeterx",
    ),
    pytest.param(
        None,
        "Request unsuccessful. Incapsula incident ID: 1234000560041237891-123456789",
        id="en-incapsula",
    ),
    pytest.param(
        "example.com",
        "Please enable JS and disable any ad blocker",
        id="en-datadome",
    ),
    pytest.param(
        "Robot Check",
        "Enter the characters you see below\nSorry, we just need to make sure you're not a robot.",
        id="en-captcha",
    ),
    pytest.param(
        "보안 확인",
        "비정상적인 접근이 감지되었습니다.\n잠시 후 다시 시도해 주세요.",
        id="ko-abnormal-access",
    ),
    pytest.param(
        "エラー",
        "アクセスが拒否されました\nこのページを表示する権限がありません。",
        id="ja-access-denied",
    ),
    pytest.param(
        "访问验证",
        "为了保障您的账号安全，请完成下方验证后继续访问。\n请按住滑块，拖动到最右边",
        id="zh-hans-verification",
    ),
    pytest.param(
        None,
        "安全驗證\n我們偵測到您的網路有異常流量，請完成驗證以繼續瀏覽。",
        id="zh-hant-verification",
    ),
    pytest.param(
        "Accès refusé",
        "Vous n'avez pas l'autorisation d'accéder à cette page.",
        id="fr-access-denied",
    ),
    pytest.param(
        None,
        "Vérification que vous n\u2019êtes pas un robot…\nCela peut prendre quelques secondes.",
        id="fr-robot-check",
    ),
    pytest.param(
        "Zugriff verweigert",
        "Sie haben keine Berechtigung, diese Seite aufzurufen.",
        id="de-access-denied",
    ),
    pytest.param(
        None,
        "Bitte bestätigen Sie, dass Sie kein Roboter sind.\nIch bin kein Roboter",
        id="de-robot-check",
    ),
    pytest.param(
        "Acceso denegado",
        "No tienes permiso para acceder a esta página.",
        id="es-access-denied",
    ),
    pytest.param(
        None,
        "Verificando que no eres un robot. Esto puede tardar unos segundos.",
        id="es-robot-check",
    ),
    pytest.param(None, "Acesso negado. Você não tem permissão.", id="pt-access-denied"),
    pytest.param(None, "Accesso negato alla risorsa richiesta.", id="it-access-denied"),
    pytest.param(None, "Доступ запрещен. Подтвердите, что вы не робот.", id="ru-access-denied"),
]

# ----------------------------------------------------------------- not-found fixtures

NOT_FOUND = [
    pytest.param("404 Not Found", "Not Found\nnginx", id="en-nginx-title"),
    pytest.param(
        "Page not found – Example News",
        "Oops! That page can\u2019t be found.\nIt looks like nothing was found at this "
        "location. Maybe try a search?",
        id="en-wordpress",
    ),
    pytest.param(
        None, "Hmm...this page doesn\u2019t exist. Try searching for something else.", id="en-curly"
    ),
    pytest.param(
        None,
        "The page you requested could not be found. Check the address and try again.",
        id="en-requested",
    ),
    pytest.param(None, "THIS POST HAS BEEN DELETED", id="en-deleted-upper"),
    pytest.param(None, "404\nGo back home", id="en-bare-404-tiny"),
    pytest.param(
        "커뮤니티 - 자유게시판",
        "삭제된 게시물입니다.\n목록으로 돌아가기",
        id="ko-deleted-post",
    ),
    pytest.param(
        None,
        "요청하신 페이지를 찾을 수 없습니다.\n입력하신 주소가 정확한지 다시 한번 확인해 주세요.",
        id="ko-not-found",
    ),
    pytest.param(
        None,
        "존재하지 않는 게시물이거나 삭제된 게시물입니다.",
        id="ko-missing-post",
    ),
    pytest.param(
        "404 | サンプルニュース",
        "お探しのページは見つかりませんでした。\nURLが正しいかご確認ください。\nトップページへ戻る",
        id="ja-404",
    ),
    pytest.param(None, "ページが見つかりません", id="ja-short"),
    pytest.param(
        None,
        "抱歉，您访问的页面不存在。\n返回首页",
        id="zh-hans-not-found",
    ),
    pytest.param(
        None,
        "找不到網頁\n您要找的網頁可能已被移除或暫時無法使用。",
        id="zh-hant-not-found",
    ),
    pytest.param(
        "Page introuvable",
        "Désolé, cette page n'existe pas ou a été déplacée.\nRetour à l'accueil",
        id="fr-not-found",
    ),
    pytest.param(
        None,
        "Seite nicht gefunden\nDiese Seite existiert nicht. Zur Startseite",
        id="de-not-found",
    ),
    pytest.param(
        None,
        "Página no encontrada\nLo sentimos, esta página no existe. Volver al inicio",
        id="es-not-found",
    ),
    pytest.param(None, "Página não encontrada. Voltar para a home.", id="pt-not-found"),
    pytest.param(None, "Pagina non trovata. Torna alla home.", id="it-not-found"),
    pytest.param(None, "Страница не найдена. Вернуться на главную.", id="ru-not-found"),
]


@pytest.mark.parametrize(("title", "text"), BOT_WALLS)
def test_bot_walls_raise_blocked(title: str | None, text: str) -> None:
    with pytest.raises(BlockedBySite) as info:
        classify_block(title, text)
    assert info.value.code == "BLOCKED_BY_SITE"
    assert info.value.http_status == 403


@pytest.mark.parametrize(("title", "text"), NOT_FOUND)
def test_dead_pages_raise_not_found(title: str | None, text: str) -> None:
    with pytest.raises(PageNotFound) as info:
        classify_block(title, text)
    assert info.value.code == "PAGE_NOT_FOUND"
    assert info.value.http_status == 404


def test_message_names_the_match_without_dumping_the_page() -> None:
    with pytest.raises(BlockedBySite) as info:
        classify_block("Just a moment...", CLOUDFLARE_TEXT)
    message = str(info.value)
    assert "bot wall" in message
    assert "Ray ID" not in message
    assert len(message) < 120

    with pytest.raises(PageNotFound) as info_nf:
        classify_block(None, "Seite nicht gefunden. Zur Startseite")
    assert "seite nicht gefunden" in str(info_nf.value)
    assert "Startseite" not in str(info_nf.value)


def test_bot_wall_wins_over_not_found() -> None:
    with pytest.raises(BlockedBySite):
        classify_block("404", "Access denied. Error 404.")


# ---------------------------------------------------------------- must not raise

ARTICLE_PARAGRAPHS = [
    "When the outage began shortly after nine in the morning, readers trying to open "
    "the city council's planning portal were greeted by a plain white screen reading "
    '"Access denied", followed a few minutes later by a "page not found" message that '
    "confused even the staff who maintain the site.",
    "The council's digital services lead said the problem was traced to a firewall rule "
    "pushed overnight by a contractor. The rule was meant to block a wave of automated "
    "requests that had been scraping planning documents, but it matched ordinary "
    "browsers as well, and every visitor was treated as a suspected bot.",
    "Residents who had deadlines for objections to two large housing developments were "
    "the most affected. Several told this newspaper they had spent the morning "
    "refreshing the page, and one architect said she had driven to the civic centre to "
    "hand in paper copies rather than risk missing the cut-off at noon.",
    "By early afternoon the rule had been rolled back and the portal was working again. "
    "The council has since extended the objection deadline by a week and promised a "
    "review of how changes to its security settings are tested before they go live.",
    "Opposition councillors called the episode avoidable. They pointed out that the same "
    "portal had failed during the consultation on the new cycle lanes last spring, and "
    "asked for the contractor's service agreement to be published in full so residents "
    "can see what standards of availability the council is paying for.",
    "The digital services team said most of the traffic it had tried to block came from "
    "a handful of data centres abroad. It is now evaluating a managed protection service "
    "that challenges suspicious visitors with a short check instead of refusing them "
    "outright, which it hopes will stop the scraping without locking out residents.",
]
LONG_ARTICLE = "\n\n".join(ARTICLE_PARAGRAPHS * 3)


def test_long_article_quoting_phrases_passes() -> None:
    assert len(LONG_ARTICLE) > 4_000
    # Guard against the fixture silently losing the phrases it is meant to quote.
    assert "Access denied" in LONG_ARTICLE and "page not found" in LONG_ARTICLE
    assert classify_block("Council planning portal outage", LONG_ARTICLE) is None
    # Even a title that is itself a wall phrase does not count past the caps.
    assert classify_block("Access Denied: the day the portal broke", LONG_ARTICLE) is None
    assert classify_block("Page not found", LONG_ARTICLE) is None


def test_long_non_english_article_quoting_phrases_passes() -> None:
    paragraph = (
        "어제 오전 시청 홈페이지에 접속한 시민들은 '페이지를 찾을 수 없습니다'라는 안내와 "
        "함께 '비정상적인 접근'이라는 경고 문구를 보고 당황했다. 시 관계자는 보안 설정을 "
        "바꾸는 과정에서 생긴 오류라고 설명했다. "
    )
    article = paragraph * 40
    assert len(article) > 4_000
    assert classify_block("시청 홈페이지 장애", article) is None


SHORT_LEGIT = (
    "Release notes 2.3.1\n"
    "The client now retries requests that fail with HTTP 503 or 429, backing off "
    "exponentially up to five times. Responses with status 404 from the package index "
    "are reported as a missing package instead of a crash, and a 401 or 403 now prints "
    "a hint about expired tokens. Timeouts default to 30 seconds and can be changed "
    "with the --timeout flag. Thanks to everyone who reported the error codes they saw "
    "on flaky networks; the new log lines include the status code and the request id."
)


def test_short_legit_page_mentioning_error_codes_passes() -> None:
    assert 300 < len(SHORT_LEGIT) < NOT_FOUND_MAX_CHARS
    assert classify_block("Release notes 2.3.1", SHORT_LEGIT) is None


@pytest.mark.parametrize(
    ("title", "text"),
    [
        pytest.param(
            "Contact us",
            "Send us a message and we will answer within two working days. This site is "
            "protected by reCAPTCHA and the Google Privacy Policy and Terms of Service apply.",
            id="recaptcha-footer",
        ),
        pytest.param(None, "Our new page not foundation course starts in May.", id="word-end"),
        pytest.param(
            None, "¿Quieres un robot de cocina? Compara los mejores modelos.", id="word-start"
        ),
        pytest.param("Route 1404", "Scenic drive notes, 12 km, mostly flat.", id="longer-number"),
        pytest.param(None, "", id="empty"),
        pytest.param("Hello", "A short but perfectly fine page.", id="plain-short"),
    ],
)
def test_near_misses_pass(title: str | None, text: str) -> None:
    assert classify_block(title, text) is None


def test_length_caps_are_per_class() -> None:
    filler = "The committee met again on Tuesday to discuss the budget. "
    between = (filler * ((NOT_FOUND_MAX_CHARS + 300) // len(filler) + 1))[
        : NOT_FOUND_MAX_CHARS + 300
    ]
    assert NOT_FOUND_MAX_CHARS < len(between) < BOT_WALL_MAX_CHARS
    # Between the caps: still short enough for a wall, too long for a dead-page screen.
    with pytest.raises(BlockedBySite):
        classify_block(None, "Access denied. " + between)
    assert classify_block(None, "Page not found. " + between) is None

    past_wall_cap = filler * (BOT_WALL_MAX_CHARS // len(filler) + 2)
    assert classify_block("Just a moment...", "Access denied. " + past_wall_cap) is None


def test_bare_404_only_in_title_or_tiny_text() -> None:
    with pytest.raises(PageNotFound):
        classify_block("Error | 404", "Sorry about that. Try the search box above.")
    with pytest.raises(PageNotFound):
        classify_block(None, "Error 404\nBack")
    medium = "We moved things around. " * 20 + "Code 404."
    assert 300 < len(medium) < NOT_FOUND_MAX_CHARS
    assert classify_block(None, medium) is None


# ---------------------------------------------------------------------- detect_kind

MASTODON_STATUS = """<!DOCTYPE html><html lang="en"><head>
<meta charset="utf-8"><title>Alice (@alice@social.example)</title>
<link href="https://social.example/api/oembed?format=json&amp;url=https%3A%2F%2Fsocial.example%2F%40alice%2F1"
  rel="alternate" type="application/json+oembed">
<link href="https://social.example/users/alice/statuses/1" rel="alternate"
  type="application/activity+json">
<meta content="Example Social" property="og:site_name">
<meta content="article" property="og:type">
<meta content="Alice (@alice@social.example)" property="og:title">
<meta content="2024-05-01T10:00:00Z" property="og:published_time">
<meta content="alice" property="profile:username">
<meta content="summary" name="twitter:card">
</head><body><div id="mastodon"><noscript>To use the web application, please enable
JavaScript.</noscript></div></body></html>"""

NEWS_ARTICLE = """<!DOCTYPE html><html><head><title>Council portal outage</title>
<meta property="og:type" content="article">
<meta name="twitter:card" content="summary_large_image">
<link rel="alternate" type="application/json+oembed" href="https://news.example/oembed?url=x">
<script type="application/ld+json">{"@context": "https://schema.org",
 "@type": "NewsArticle", "headline": "Council portal outage"}</script>
</head><body><article><h1>Council portal outage</h1><p>When the outage began...</p>
</article></body></html>"""

BLOG_WITH_ACTIVITYPUB = """<html><head><title>Notes on gardening</title>
<meta property="og:type" content="article">
<link rel="alternate" type="application/activity+json" href="https://blog.example/?p=12">
</head><body><article><p>Tomatoes again this year.</p></article></body></html>"""


def _tree(html: str) -> LexborHTMLParser:
    return LexborHTMLParser(html)


def _kind(og_type: str | None, html: str) -> str:
    tree = _tree(html)
    social = page_elements(tree.root)[2] if tree.root is not None else []
    return detect_kind(og_type, tree, extract_metadata(tree).ld_type_names, social)


def test_mastodon_status_is_social() -> None:
    assert _kind("article", MASTODON_STATUS) == "social"


def test_news_article_is_article() -> None:
    assert _kind("article", NEWS_ARTICLE) == "article"


def test_blog_with_activitypub_plugin_stays_article() -> None:
    assert _kind("article", BLOG_WITH_ACTIVITYPUB) == "article"
    # The same page without og:type=article has only the ActivityPub shape left.
    assert _kind(None, BLOG_WITH_ACTIVITYPUB) == "social"


@pytest.mark.parametrize(
    ("og_type", "head", "expected"),
    [
        pytest.param(
            "article",
            '<script type="application/ld+json">'
            '{"@type": "SocialMediaPosting", "headline": "x"}</script>',
            "social",
            id="ld-social-posting",
        ),
        pytest.param(
            # A federated forum thread: ActivityPub-shaped, but forum posts read as
            # articles.
            "website",
            '<link rel="alternate" type="application/activity+json" href="/t/1">'
            '<script type="application/ld+json">'
            '{"@type": ["DiscussionForumPosting"], "headline": "x"}</script>',
            "article",
            id="ld-forum-posting",
        ),
        pytest.param(None, '<meta name="twitter:card" content="tweet">', "social", id="tweet-card"),
        pytest.param(
            "video.other",
            '<link rel="alternate" type="application/json+oembed" href="/oembed">',
            "social",
            id="oembed-short-non-article",
        ),
        pytest.param(
            "article",
            '<link rel="alternate" type="application/json+oembed" href="/oembed">',
            "article",
            id="oembed-article",
        ),
        pytest.param("website", "", "article", id="plain"),
    ],
)
def test_detect_kind_shapes(og_type: str | None, head: str, expected: str) -> None:
    html = f"<html><head><title>t</title>{head}</head><body><p>Short post.</p></body></html>"
    assert _kind(og_type, html) == expected


def test_oembed_on_long_page_is_article() -> None:
    body = "<p>" + "A long paragraph of reporting. " * 200 + "</p>"
    html = (
        '<html><head><link rel="alternate" type="application/json+oembed" href="/o">'
        f"</head><body>{body}</body></html>"
    )
    assert _kind("video.other", html) == "article"


# Letters whose lowering depends on what follows (a final sigma), changes the length
# (İ) or is folded first (curly quotes, the ellipsis), and every kind of whitespace.
LEAD_ALPHABET = "abcΣσςΑΒİIı“”‘’…！ \t\n\u00a0\u2003\u3000\x1c.'-·" + "\u0301\u00ad"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=LEAD_ALPHABET, max_size=300), st.integers(1, 60))
def test_the_normalised_lead_is_the_lead_of_the_normalised_text(text: str, chars: int) -> None:
    assert classify._normalised_lead(text, chars) == classify._normalise(text)[:chars]


def test_the_lead_of_a_text_cut_after_a_sigma_reads_it_as_the_whole_text_does() -> None:
    # Normalising the first six characters alone lowers the Σ as a final sigma (ς):
    # in the whole text a letter follows it (σ).
    text = "    aΣb and more words after it"
    assert classify._normalised_lead(text, 3) == " aσ"
    assert classify._normalised_lead(text, 3) == classify._normalise(text)[:3]
