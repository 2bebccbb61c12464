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
    if not base:
        return ref
    try:
        return urljoin(base, ref)
    except ValueError:
        return ref


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
