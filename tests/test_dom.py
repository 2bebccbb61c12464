"""The compiled walks (unchrome._dom) read the DOM as selectolax's Python API reads it."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from unchrome import _dom, prune

PAGE = """<html><body class="page"><div id="top" class="">
<nav class="menu main"><a href="/">Home</a><!-- a comment --></nav>
<script>var x = "<div class='not-a-tag'>";</script><style>.a{}</style>
<p class="lead intro" id="p1">Text <b class="\u00e9t\u00e9 caf\u00e9">bold</b> more</p>
<svg class="icon"><title>Icon</title><path id="p"/></svg>
<template><div class="inside-template">never walked</div></template>
<form><input class="q"><button>Go</button></form>
<iframe src="x"></iframe><noscript><img class="pixel"></noscript>
<div id="">empty id</div><span class="a" id="b">both</span>
</div></body></html>"""


def test_named_finds_the_elements_with_a_class_or_an_id_and_their_names() -> None:
    body = LexborHTMLParser(PAGE).body
    assert body is not None
    # The selector list yields an element once per selector it matches (the <p> with a
    # class and an id twice, and prune used to judge it twice); the walk, once.
    expected = list(
        dict.fromkeys(
            (node.mem_id, f"{node.attrs.get('class') or ''} {node.id or ''}")
            for node in body.css("[class], [id]")
        )
    )
    got = [(node.mem_id, names) for node, names in _dom.named(body)]
    assert got == expected
    assert ("lead intro p1" in [names for _, names in got]) and len(got) >= 9


def test_tagged_finds_the_never_content_elements_in_document_order() -> None:
    body = LexborHTMLParser(PAGE).body
    assert body is not None
    ids = prune._NEVER_CONTENT_IDS
    expected = [node.mem_id for node in body.traverse() if node.tag_id in ids]
    got = [node.mem_id for node in _dom.tagged(body, ids)]
    assert got == expected
    assert {n.tag for n in _dom.tagged(body, ids)} >= {"script", "style", "button"}


def test_whitespace_before_a_blocks_first_text_is_left_out_however_it_is_spelled() -> None:
    # The walk skips a whitespace-only text node before a block's first words without
    # decoding it when its bytes are ASCII whitespace (str.isspace's: \x1c-\x1f too),
    # and decodes it otherwise (a no-break space is whitespace to str.isspace).
    from unchrome import segment

    for space in ("\t\n  ", "\x1c\x1f ", "\u00a0", "\u3000 "):
        tree = LexborHTMLParser(f"<html><body><p>{space}<b>words</b> after</p></body></html>")
        assert tree.body is not None
        (block,) = segment.segment(tree.body).blocks
        assert block.text == "words after"
        assert [node.text_content for node in block.nodes] == ["words", " after"]
