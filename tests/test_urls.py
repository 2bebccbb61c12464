"""urls.resolve: its shortcut for absolute URLs gives what urljoin gives."""

from __future__ import annotations

from urllib.parse import urljoin

from hypothesis import given, settings
from hypothesis import strategies as st

from unchrome.urls import resolve

BASES = [
    "https://example.org/news/2026/story.html?page=2#top",
    "http://example.org/",
    "HTTPS://Example.org/a;b/c",
    "file:///tmp/page.html",
    "http://[::1",  # urllib refuses it: the reference is given back
]
# Characters urlsplit and urlunsplit treat apart, and a few others.
TRICKY = "/?#;[]:@%&=+ \t\n.-_~\\é\x00"


def urljoin_resolve(base: str | None, ref: str | None) -> str | None:
    """resolve as it was before its shortcut."""
    if ref is None or not ref.strip():
        return None
    ref = ref.strip()
    if not base:
        return ref
    try:
        return urljoin(base, ref)
    except ValueError:
        return ref


refs = st.tuples(
    st.sampled_from(["https://", "http://", "HTTP://", "ftp://", "//", "", "https:/", " https://"]),
    st.text(alphabet=st.sampled_from("abcXYZ019" + TRICKY), max_size=30),
).map("".join)


@settings(max_examples=3000)
@given(st.sampled_from(BASES), refs)
def test_resolve_gives_what_urljoin_gives(base: str, ref: str) -> None:
    assert resolve(base, ref) == urljoin_resolve(base, ref)


def test_resolve_by_hand() -> None:
    base = "https://example.org/news/story.html"
    assert (
        resolve(base, "https://cdn.example.org/a.jpg?w=800")
        == "https://cdn.example.org/a.jpg?w=800"
    )
    assert resolve(base, "/img/a.jpg") == "https://example.org/img/a.jpg"
    # What urljoin writes back otherwise: an empty query dropped, the scheme lowered.
    assert resolve(base, "https://cdn.example.org/a.jpg?") == "https://cdn.example.org/a.jpg"
    assert resolve(base, "HTTPS://cdn.example.org/a.jpg") == "https://cdn.example.org/a.jpg"
    assert resolve(base, "  ") is None
    assert resolve(None, "a.jpg") == "a.jpg"
