"""Segment: the blocks one walk cuts the pruned page into, their text as a reader sees it,
and their link characters (pipeline.segment, compiled in _native._dom)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from unchrome._native import _dom
from unchrome.pipeline import segmentation


def _collapse_by_split(raw: str) -> str:
    lines = [" ".join(part.split()) for part in raw.split(segmentation.BR)]
    return "\n".join(line for line in lines if line)


def test_whitespace_before_a_blocks_first_text_is_left_out_however_it_is_spelled() -> None:
    # The walk skips a whitespace-only text node before a block's first words without
    # decoding it when its bytes are ASCII whitespace (str.isspace's: \x1c-\x1f too),
    # and decodes it otherwise (a no-break space is whitespace to str.isspace).
    from unchrome.pipeline import segment

    for space in ("\t\n  ", "\x1c\x1f ", "\u00a0", "\u3000 "):
        tree = LexborHTMLParser(f"<html><body><p>{space}<b>words</b> after</p></body></html>")
        assert tree.body is not None
        (block,) = segment.segment(tree.body).blocks
        assert block.text == "words after"
        assert [node.text_content for node in block.nodes] == ["words", " after"]


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            ["a", "b", "é", "日", "😀", " ", "\t", "\n", "\r", "\x0b", "\x1c", "\x85",
             "\xa0", "\u2003", "\u3000", "\u200b", segmentation.BR]
        ),
        max_size=60,
    )
)  # fmt: skip
def test_collapse_makes_a_blocks_text_as_split_and_join_do(raw: str) -> None:
    assert _dom.collapse(raw) == _collapse_by_split(raw)


def test_a_links_characters_leave_out_the_whitespace_around_it() -> None:
    body = LexborHTMLParser(
        "<p>Read <a href=/x>\u3000 the full story \n</a> here, and more words after</p>"
    ).body
    (block,) = _dom.segment(body).blocks
    assert block.link_chars == len("the full story")
