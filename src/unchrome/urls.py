"""One tolerant URL resolver for every stage.

``urllib.parse`` raises ``ValueError`` on some malformed URLs (an unclosed IPv6 host,
``http://[::1``). A page may carry any of them in ``<base href>``, a link or an image; no
such value may turn an extraction into a crash. Browsers ignore what they cannot parse,
and so do these functions.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit


def resolve(base: str | None, ref: str | None) -> str | None:
    """``ref`` made absolute against ``base``; ``ref`` as it is when either cannot be
    parsed or there is no base; None for an empty ``ref``."""
    if ref is None:
        return None
    ref = ref.strip()
    if not ref:
        return None
    if not base or _joins_as_is(ref):
        return ref
    try:
        return urljoin(base, ref)
    except ValueError:
        return ref


def _joins_as_is(ref: str) -> bool:
    """Whether ``urljoin`` gives any base and this ``ref`` back unchanged: an absolute
    http(s) URL that urlparse and urlunparse write back as it is (printable ASCII, a
    host, no IPv6 brackets, no ";" params, no empty "?" or "#", which they drop).
    urljoin costs 4.5 us a URL, and the HTML rendering resolves some forty URLs at the
    median WCXB page, most of them absolute already: 13% of its time.
    (tests/test_urls.py holds it to urljoin on generated URLs.)"""
    if ref.startswith("https://"):
        rest = 8
    elif ref.startswith("http://"):
        rest = 7
    else:
        return False
    if not (ref.isascii() and ref.isprintable()) or ref[rest : rest + 1] in ("", "/", "?", "#"):
        return False
    if "[" in ref or "]" in ref or ";" in ref:
        return False
    before, hash_mark, fragment = ref.partition("#")
    if hash_mark and not fragment:
        return False
    _, question_mark, query = before.partition("?")
    return not (question_mark and not query)


def path(url: str | None) -> str:
    """The path of ``url``, "" when there is none or it cannot be parsed."""
    if not url:
        return ""
    try:
        return urlsplit(url).path
    except ValueError:
        return ""


def host(url: str | None) -> str:
    """The lower-cased host of ``url``, "" when there is none or it cannot be parsed."""
    if not url:
        return ""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


def is_web_url(url: str) -> bool:
    """Whether ``url`` is an absolute http(s) URL with a host and no control characters
    (a CR/LF would split a header or a log line wherever the URL is echoed)."""
    if not url or any(ord(c) < 32 or ord(c) == 127 for c in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
