#!/usr/bin/env python3
"""Coverage-guided fuzzing of ``unchrome.extract`` with atheris (libFuzzer).

Run by hand, never in CI (it runs until stopped or until -max_total_time):

    pip install -e '.[fuzz]'        # atheris: a manylinux wheel with libFuzzer inside
    mkdir -p /tmp/fuzz-out
    nice -n 10 python tools/fuzz_extract.py -max_total_time=1800 -timeout=30 \\
        -rss_limit_mb=4096 -max_len=65536 -artifact_prefix=/tmp/fuzz-out/ [CORPUS_DIR]

atheris 3.1.0 has wheels for Python 3.12 and later only; on 3.11 pip takes 3.0.0,
which works the same. The instrumented code grows the process by about 15 MB every
1,000 inputs (the same inputs uninstrumented stay flat), so a 30-minute run meets
-rss_limit_mb=4096 once: libFuzzer stops with "out-of-memory" and an oom-* file that
is no finding. Run it again on the same CORPUS_DIR to go on. -minimize_crash runs this
file itself: have the environment's python first on PATH.

30 minutes (-max_total_time=1800) on one core is the run the hostile-input issue asks
for. Without CORPUS_DIR the harness writes its seeds (the small pages of
tests/fixtures, and a few hand-made ones) to a new temporary directory and grows the
corpus there; give a directory to keep the corpus between runs (seeds are added to
it when it is empty). A finding is written to -artifact_prefix as crash-<sha1> (an
exception that is not an UnchromeError, or an input slower than SLOW_SECONDS) or
timeout-<sha1> (libFuzzer's -timeout, for an input that never returns). Replay one
with ``python tools/fuzz_extract.py FILE``; shrink it with -minimize_crash=1
-runs=10000 FILE.

What is checked: ``extract`` returns a Result whose renderings (text, Markdown, HTML,
JSON) can all be read, or raises an UnchromeError with a code; anything else is a
finding. The input is read as: one flags byte, then optional URL, content type and
configuration drawn from the data, then the document (bytes, or text when a flag
says so). Seeds start with a zero flags byte: the document as bytes, no options.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["unchrome"]):
    import unchrome
    from unchrome import Config, UnchromeError

# One input slower than this is a finding: the WCXB pages take 9 ms at the median and
# under 0.5 s at the worst, and the fuzzer's inputs are at most -max_len bytes, so a
# few seconds means a superlinear path, not a big page. (libFuzzer's -timeout catches
# the inputs that never come back; this catches the slow ones that do.)
SLOW_SECONDS = 3.0

_FLAG_URL = 1
_FLAG_CONTENT_TYPE = 2
_FLAG_CONFIG = 4
_FLAG_TEXT = 8  # the document as str (decoded here), not bytes
_FLAG_UNICODE = 16  # with _FLAG_TEXT: any code points, lone surrogates included

_URLS = (
    "https://example.com/2024/05/06/story.html",
    "http://news.example.org/a/b?c=d#e",
    "https://forum.example.net/t/topic/123",
    "https://example.com/",
)
_CONTENT_TYPES = (
    "text/html",
    "text/html; charset=utf-8",
    "text/html; charset=shift_jis",
    "application/xhtml+xml",
    "application/rss+xml",
    "application/atom+xml",
    "text/xml",
    "text/plain",
    "application/json",
    "application/pdf",
)
_ENCODINGS = (None, "utf-8", "latin-1", "cp1252", "shift_jis", "utf-16", "gb18030", "koi8-r")
_SELECTORS = (None, "article", "main p", ".content", "#story", "div > p", "p:first-child")
_TIMEOUTS = (None, 30.0, 0.001)

_SEEDS = (
    b"<!doctype html><html><head><title>T</title></head><body><article><h1>Head</h1>"
    + b"<p>A paragraph long enough to count as the body of a small page. </p>" * 3
    + b"</article></body></html>",
    b"<?xml version='1.0'?><rss version='2.0'><channel><title>F</title><item><title>I"
    b"</title><link>https://example.com/i</link><description>D</description></item>"
    b"</channel></rss>",
    b'<html><head><script type=\'application/ld+json\'>{"@type":"NewsArticle",'
    b'"headline":"H","articleBody":"Body text of the embedded article.",'
    b'"datePublished":"2024-05-06"}</script></head><body><div id=\'root\'></div>'
    b"</body></html>",
    b"<html><head><meta charset='shift_jis'></head><body><p>\x93\xfa\x96\x7b\x8c\xea"
    b"</p><table><tr><td>a</td><td>b</td></tr></table></body></html>",
)


# Tokens for libFuzzer's -dict (written next to the seeds when no -dict is given): the
# markup, entities and embedded-JSON names the stages branch on, which random byte
# mutations would take long to spell.
_DICTIONARY = (
    *(
        f"<{t}>".encode()
        for t in [
            "div",
            "p",
            "article",
            "main",
            "body",
            "head",
            "html",
            "title",
            "h1",
            "table",
            "tr",
            "td",
            "th",
            "ul",
            "li",
            "pre",
            "code",
            "br",
            "svg",
            "math",
            "template",
            "iframe",
            "noscript",
            "textarea",
            "style",
            "script",
            "rt",
            "ruby",
            "rss",
            "channel",
            "item",
            "entry",
        ]
    ),
    *(f"</{t}>".encode() for t in ["div", "p", "noscript", "script", "table"]),
    b'<script type="application/ld+json">',
    b'<script id="__NEXT_DATA__">',
    b"<a href=",
    b"<img src=",
    b"<meta charset=",
    b'<meta property="og:',
    b'<meta name="',
    b'content="',
    b"<time datetime=",
    b"<base href=",
    b'<link rel="canonical" href=',
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"]]>",
    b"<?xml",
    b"<feed",
    b"<rss",
    b"&amp;",
    b"&#x",
    b"&#",
    b"&nbsp;",
    b"charset=",
    b'class="comment',
    b'id="content"',
    b"globalContent",
    b'"@type":',
    b'"articleBody":',
    b'"headline":',
    b'"@graph":',
    b'"datePublished":',
    b'{"props":{"pageProps":',
    b"\\u00",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
)


class SlowInput(Exception):
    """An input that took longer than SLOW_SECONDS."""


def _config(fdp: atheris.FuzzedDataProvider) -> Config:
    return Config(
        extract_article=fdp.ConsumeBool(),
        include_comments=fdp.ConsumeBool(),
        include_tables=fdp.ConsumeBool(),
        include_images=fdp.ConsumeBool(),
        include_links=fdp.ConsumeBool(),
        table_format="html" if fdp.ConsumeBool() else "markdown",
        max_depth=fdp.ConsumeIntInRange(1, 600),
        min_body_chars=fdp.ConsumeIntInRange(0, 1000),
        min_paragraph_chars=fdp.ConsumeIntInRange(0, 100),
        max_input_bytes=fdp.ConsumeIntInRange(1, 1 << 22),
        encoding=fdp.PickValueInList(list(_ENCODINGS)),
        include_selector=fdp.PickValueInList(list(_SELECTORS)),
        exclude_selector=fdp.PickValueInList(list(_SELECTORS)),
        timeout=fdp.PickValueInList(list(_TIMEOUTS)),
    )


def _run(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    flags = fdp.ConsumeIntInRange(0, 255)
    url = content_type = config = None
    if flags & _FLAG_URL:
        url = fdp.PickValueInList(list(_URLS)) + fdp.ConsumeUnicodeNoSurrogates(
            fdp.ConsumeIntInRange(0, 32)
        )
    if flags & _FLAG_CONTENT_TYPE:
        content_type = fdp.PickValueInList(list(_CONTENT_TYPES))
    if flags & _FLAG_CONFIG:
        try:
            config = _config(fdp)
        except UnchromeError:
            return  # an invalid Config is refused when made: nothing to extract
    document: bytes | str
    if flags & _FLAG_TEXT and flags & _FLAG_UNICODE:
        document = fdp.ConsumeUnicode(fdp.remaining_bytes())
    else:
        document = fdp.ConsumeBytes(fdp.remaining_bytes())
        if flags & _FLAG_TEXT:
            document = document.decode("utf-8", "replace")
    try:
        result = unchrome.extract(document, url=url, content_type=content_type, config=config)
        # The renderings are lazy: read them all, as the CLI and the service do.
        result.to_json()
    except UnchromeError as exc:
        if not exc.code or exc.code == "ERROR":
            raise AssertionError(f"an UnchromeError without its own code: {exc!r}") from exc


def test_one_input(data: bytes) -> None:
    started = time.perf_counter()
    _run(data)
    took = time.perf_counter() - started
    if took > SLOW_SECONDS:
        raise SlowInput(f"{took:.1f} s for {len(data)} bytes")


def _seed_corpus(directory: Path) -> None:
    """The seeds, each behind a zero flags byte: the small fixture pages (under 8 KB:
    the fuzzer mutates small inputs faster) and the hand-made ones above."""
    fixtures = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
    pages = [p.read_bytes() for p in sorted(fixtures.rglob("*.html")) if p.stat().st_size < 8192]
    for i, page in enumerate([*pages, *_SEEDS]):
        (directory / f"seed-{i:02d}").write_bytes(b"\x00" + page)


def _write_dictionary(path: Path) -> None:
    # libFuzzer's dictionary format: one quoted token a line, \xHH escapes allowed.
    path.write_text("".join('"' + "".join(f"\\x{b:02x}" for b in t) + '"\n' for t in _DICTIONARY))


def main() -> None:
    args = sys.argv[1:]
    dirs = [Path(a) for a in args if not a.startswith("-") and Path(a).is_dir()]
    files = [a for a in args if not a.startswith("-") and Path(a).is_file()]
    if not files:
        if not dirs:
            corpus = Path(tempfile.mkdtemp(prefix="unchrome-fuzz-"))
            sys.argv.append(str(corpus))
            dirs = [corpus]
            print(f"corpus: {corpus}", file=sys.stderr)
        if not any(dirs[0].iterdir()):
            _seed_corpus(dirs[0])
        if not any(a.startswith("-dict=") for a in args):
            dictionary = Path(tempfile.mkdtemp(prefix="unchrome-fuzz-dict-")) / "html.dict"
            _write_dictionary(dictionary)
            sys.argv.insert(1, f"-dict={dictionary}")
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
