"""Input sniffing, before anything is decoded: what is no page is refused by name, a
page is let through (pipeline.sniff)."""

from __future__ import annotations

import random

import pytest

import unchrome
from pages import STORY, page, story_html
from unchrome import InvalidInput, UnsupportedContent

ARTICLE = page(story_html()).encode()


@pytest.mark.parametrize("data", [b"", b"   \n\t  \r\n", "", "   \n  ", bytearray(b"  ")])
def test_empty_input_is_invalid(data):
    with pytest.raises(InvalidInput) as info:
        unchrome.extract(data)
    assert info.value.code == "INVALID_INPUT"


@pytest.mark.parametrize("data", [None, 42, ["<p>x</p>"], {"html": "<p>x</p>"}])
def test_non_text_input_is_invalid(data):
    with pytest.raises(InvalidInput):
        unchrome.extract(data)


@pytest.mark.parametrize("seed", range(16))
def test_random_binary_is_unsupported_content(seed):
    data = random.Random(seed).randbytes(4096)
    with pytest.raises(UnsupportedContent) as info:
        unchrome.extract(data)
    assert info.value.code == "UNSUPPORTED_CONTENT"


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00",
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
    ],
    ids=["pdf", "png", "zip", "gzip"],
)
def test_known_binary_formats_are_unsupported(data):
    with pytest.raises(UnsupportedContent) as info:
        unchrome.extract(data)
    assert info.value.code == "UNSUPPORTED_CONTENT"


@pytest.mark.parametrize(
    "data",
    [
        b'{"id": 17, "title": "Ferry timetable", "tags": ["news", "sea"]}',
        b'  [{"id": 1}, {"id": 2}]',
        '{"title": "Ferry", "body": "no markup here"}',
        pytest.param(
            b'{"id": 17, "content": {"rendered": "<p>The ferry company said on Friday '
            b'that the winter timetable will start a week later.</p>"}}',
            id="json-with-html-string",
        ),
    ],
)
def test_json_is_unsupported(data):
    with pytest.raises(UnsupportedContent):
        unchrome.extract(data)


def test_non_html_content_type_is_unsupported():
    with pytest.raises(UnsupportedContent):
        unchrome.extract(ARTICLE, content_type="application/pdf")
    result = unchrome.extract(ARTICLE, content_type="text/html; charset=utf-8")
    assert STORY[0] in result.text
