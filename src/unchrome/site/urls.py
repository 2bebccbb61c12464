"""One spelling per page: URL normalisation and the same-site rule.

RFC 3986 normalisation (scheme and host case, IDNA, the default port, dot segments,
percent-encoding case) is url-normalize's; what it leaves is ours: the fragment (never
sent to the server) and the tracking parameters (``utm_*``, ``fbclid``...), which name
the same page under a thousand URLs. Other query parameters stay, in their order: a
``?page=2`` is another page.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from url_normalize import url_normalize

from unchrome.urls import is_web_url

# Parameters that say where a visitor came from, never which page they see.
_TRACKING_PREFIXES = ("utm_", "mtm_", "pk_")
_TRACKING = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "igshid",
        "ref_src",
        "spm",
    }
)


def normalize(url: str) -> str | None:
    """The normal form of an absolute http(s) ``url``, or None when it is none (another
    scheme, no host, unparseable)."""
    if not is_web_url(url):
        return None
    try:
        normal = url_normalize(url.strip())
        parts = urlsplit(normal or "")
    except (ValueError, UnicodeError):
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if not _tracking(k)]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, ""))


def _tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in _TRACKING or lowered.startswith(_TRACKING_PREFIXES)


def site_of(url: str) -> str:
    """The site a URL belongs to: its host without ``www.``, with the port when it is
    not the scheme's default. http and https of one host are one site."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    try:
        port = parts.port
    except ValueError:
        return host
    default = 443 if parts.scheme == "https" else 80
    return host if port in (None, default) else f"{host}:{port}"


def origin_of(url: str) -> str:
    """``scheme://host[:port]``: where robots.txt of ``url`` lives."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
