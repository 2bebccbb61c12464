"""Quality benchmark: word-level F1 of the extracted text against the ground truth, on
WCXB (the dev split), the news set (``../shared/data/news``, other sites and
annotators, seven languages), the classic hand-labelled corpora
(``../shared/data/classic``: Dragnet, CleanEval, CleanPortalEval, a Chinese set) and
Readability.js's test pages (``../shared/data/readability``: agreement with its output).

Run from the repository root as ``python -m benchmarks.bench``::

    python -m benchmarks.bench                        # full dev split, unchrome only
    python -m benchmarks.bench --vs trafilatura       # same pages, same process, side by side
    python -m benchmarks.bench --vs trafilatura resiliparse    # both, interleaved page by page
    python -m benchmarks.bench --suite news --vs trafilatura   # the news set, per group
    python -m benchmarks.bench --suite both --vs trafilatura   # WCXB, then news
    python -m benchmarks.bench --suite classic --vs trafilatura readability  # per source
    python -m benchmarks.bench --suite all --vs trafilatura readability      # every suite
    python -m benchmarks.bench --suite both --vs trafilatura --favor precision  # both sides
    python -m benchmarks.bench --limit 100 --types article,forum --worst 10
    python -m benchmarks.bench --vs trafilatura --json dev-pages.json --markdown

Metric (the benchmark's own): tokens are ``\\w+`` runs of the lower-cased text; precision,
recall and F1 come from the multiset overlap of predicted and true tokens and are averaged
over pages, overall and per page type. On top of that, ``with`` snippets must appear in the
output and ``without`` snippets (boilerplate) must not; snippets are matched as substrings
after lower-casing and collapsing whitespace on both sides.

On the news and classic sets, as their READMEs say, each Han or kana character is one
token (Chinese and Japanese write no spaces; a \\w+ run would make a sentence one
token), pages are grouped by source (and type), and the Chinese pages get a row of
their own; a run over several suites ends with the Chinese pages of all of them. The
classic set's ``charset`` (what its crawler recorded, as an HTTP header would) reaches
every system alike: unchrome as the ``Content-Type`` it is given, the others through
the same decoded string.

The data is never copied into the repository: it is read from ``--data`` or, by default,
from ``../shared/data/<suite>`` next to the repository (see :func:`default_data_dirs`).

Metadata, where a set labels it (WCXB, fundus, Readability, the classic set's author
and date): each system's agreement with the labelled title (contains it; is it), authors
(the same set of names) and date (the same day), and the page ceiling, the share of the
labelled values that appear on the page at all (format_metadata_agreement; the rules in
docs/metadata.md).

Timing, per system: p50 and p99 of the per-page times (ms, raw bytes to text), the mean,
and pages/s of one process (1000 / mean ms); under the tables, each other system's p50
and p99 over unchrome's ("time ratio trafilatura / unchrome: p50 5.12, p99 4.30").

Everything runs in one process, one page at a time, so all systems see the same machine
state; there is deliberately no parallel mode, which would make the timings incomparable.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

PAGE_TYPES: tuple[str, ...] = (
    "article",
    "documentation",
    "service",
    "forum",
    "listing",
    "collection",
    "product",
)

#: Where the data sits relative to the parent directory of the repository.
DATA_SUBPATH = Path("shared", "data", "wcxb")
SUITES = ("wcxb", "news", "classic", "readability", "fundus")
#: ``--suite`` names that run several suites one after the other.
SUITE_GROUPS = {"both": ("wcxb", "news"), "all": SUITES}

PROGRESS_EVERY = 200

_TOKEN_RE = re.compile(r"\w+")


# --------------------------------------------------------------------------- metric


_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_TOKEN_RE = re.compile(rf"[{_CJK_CHARS}]|[^\W{_CJK_CHARS}]+")


def tokenize(text: str, cjk: bool = False) -> list[str]:
    """The benchmark's tokens: ``\\w+`` runs of the lower-cased text (Unicode-aware);
    with ``cjk``, each Han or kana character a token of its own (the news set's rule)."""
    return (_CJK_TOKEN_RE if cjk else _TOKEN_RE).findall(text.lower())


def score_text(predicted: str, truth: str, cjk: bool = False) -> tuple[float, float, float]:
    """Word-level ``(f1, precision, recall)`` of ``predicted`` against ``truth``.

    Tokens are counted as multisets (a word repeated three times in the truth is only
    fully recalled if it appears three times in the prediction). "Empty" means "no
    tokens", so a prediction made only of punctuation counts as empty: both empty is a
    perfect answer (the page has no main content and nothing was extracted), exactly one
    empty scores zero.
    """
    pred = Counter(tokenize(predicted, cjk))
    gold = Counter(tokenize(truth, cjk))
    if not pred and not gold:
        return 1.0, 1.0, 1.0
    if not pred or not gold:
        return 0.0, 0.0, 0.0
    overlap = sum((pred & gold).values())
    if overlap == 0:
        return 0.0, 0.0, 0.0
    precision = overlap / sum(pred.values())
    recall = overlap / sum(gold.values())
    return 2 * precision * recall / (precision + recall), precision, recall


def normalise_snippet(text: str) -> str:
    """Lower-case and collapse every whitespace run (including NBSP, newlines) to a space."""
    return " ".join(text.lower().split())


def snippet_found(snippet: str, text: str) -> bool:
    """Whether ``snippet`` occurs in ``text`` once both are normalised.

    A plain substring test, as the benchmark defines it: "home" is found in "homework".
    An empty snippet is trivially found; :func:`load_pages` drops empty snippets so they
    never reach the scores.
    """
    return normalise_snippet(snippet) in normalise_snippet(text)


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Page:
    """One benchmark page: where its HTML lives and what a perfect extraction contains."""

    file_id: str
    page_type: str
    url: str | None
    html_path: Path
    truth: str
    with_snippets: tuple[str, ...]
    without_snippets: tuple[str, ...]
    lang: str | None = None  # the news and classic sets' language tag
    cjk_tokens: bool = False  # each Han or kana character a token (news, classic)
    # What a crawler recorded of the page's media type and charset (the classic set's
    # charset), given to every system as an HTTP Content-Type header would be.
    content_type: str | None = None
    # The data set the page comes from, with its own annotators and convention ("wcxb",
    # "magic-html", "news-spiders", "dragnet", "cleaneval"...): the unit that
    # leave-one-corpus-out holds out (--loco).
    source: str = ""
    # WCXB's hand-checked metadata: {"title", "author", "date"} where the page has one.
    metadata: dict[str, str] = field(default_factory=dict)
    # WCXB's hand-made Markdown of the main content (the structure benchmark's truth).
    truth_markdown: str | None = None

    def read_html(self) -> bytes:
        """The captured page as raw bytes (decompressed here, outside any timed section)."""
        raw = self.html_path.read_bytes()
        return gzip.decompress(raw) if self.html_path.suffix == ".gz" else raw


def default_data_dirs() -> list[Path]:
    """Candidate data directories, in order of preference.

    The working directory comes first: running from the repository root makes
    ``../shared/data/wcxb`` right. The file-relative path (``<repo>/benchmarks/bench.py``
    → ``<repo>/../shared/data/wcxb``) covers a test or tool run from anywhere else.
    """
    return _data_dirs(DATA_SUBPATH)


def _data_dirs(subpath: Path) -> list[Path]:
    candidates = [Path.cwd().parent / subpath]
    parents = Path(__file__).resolve().parents
    if len(parents) > 2:
        candidates.append(parents[2] / subpath)
    return candidates


def resolve_data_dir(explicit: str | Path | None = None, suite: str = "wcxb") -> Path:
    """The data directory to use; raises :class:`FileNotFoundError` naming what was tried."""
    if explicit is not None:
        candidates = [Path(explicit)]
    else:
        candidates = _data_dirs(DATA_SUBPATH.parent / suite)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"{suite} data not found (tried: {tried}); pass --data DIR")


def _clean_snippets(raw: object) -> tuple[str, ...]:
    # An empty snippet would be "found" in every output and "hit" every without-list.
    if not isinstance(raw, list):
        return ()
    return tuple(s for s in raw if isinstance(s, str) and normalise_snippet(s))


def load_pages(
    data_dir: Path,
    split: str = "dev",
    types: Sequence[str] | None = None,
    limit: int | None = None,
) -> tuple[list[Page], list[str]]:
    """Read the ground truth of a split; returns ``(pages, skipped_file_ids)``.

    Pages whose ground truth has no ``main_content`` field at all are skipped (and
    reported) rather than scored: a missing annotation is not the same as an annotated
    empty page, which the metric handles. The type filter applies before ``limit``, so
    ``--types forum --limit 5`` gives five forum pages.
    """
    split_dir = data_dir / split
    html_dir = split_dir / "html"
    truth_dir = split_dir / "ground-truth"
    if not html_dir.is_dir() or not truth_dir.is_dir():
        raise FileNotFoundError(f"no {split!r} split under {data_dir} (need html/, ground-truth/)")

    # metadata.json only backs up the page type; the ground truth files carry it too.
    metadata_types: dict[str, str] = {}
    metadata_path = data_dir / "metadata.json"
    if metadata_path.is_file():
        files = json.loads(metadata_path.read_text(encoding="utf-8")).get("files", {})
        metadata_types = {k: v.get("page_type", "") for k, v in files.items()}

    wanted = set(types) if types else None
    pages: list[Page] = []
    skipped: list[str] = []
    for html_path in sorted(html_dir.glob("*.html.gz")):
        file_id = html_path.name.removesuffix(".html.gz")
        truth_path = truth_dir / f"{file_id}.json"
        if not truth_path.is_file():
            skipped.append(file_id)
            continue
        record = json.loads(truth_path.read_text(encoding="utf-8"))
        truth = record.get("ground_truth") or {}
        page_type = (
            (record.get("_internal") or {}).get("page_type", {}).get("primary")
            or metadata_types.get(file_id)
            or "unknown"
        )
        if wanted is not None and page_type not in wanted:
            continue
        if not isinstance(truth.get("main_content"), str):
            skipped.append(file_id)
            continue
        pages.append(
            Page(
                file_id=file_id,
                page_type=page_type,
                # ground_truth.url wins: in one dev page the top-level url names a
                # different document than the captured HTML, the inner one matches it.
                url=truth.get("url") or record.get("url") or None,
                html_path=html_path,
                truth=truth["main_content"],
                with_snippets=_clean_snippets(truth.get("with")),
                without_snippets=_clean_snippets(truth.get("without")),
                source="wcxb",
                metadata={
                    field_name: truth[key]
                    for field_name, key in (
                        ("title", "title"),
                        ("author", "author"),
                        ("date", "publish_date"),
                    )
                    if isinstance(truth.get(key), str) and truth[key].strip()
                },
                truth_markdown=(
                    truth["main_content_markdown"]
                    if isinstance(truth.get("main_content_markdown"), str)
                    else None
                ),
            )
        )
        if limit is not None and len(pages) >= limit:
            break
    return pages, skipped


def load_news(data_dir: Path, limit: int | None = None) -> list[Page]:
    """The news set: ``index.json`` rows (``expected`` is the truth, one block a line),
    grouped by ``source`` and ``type`` ("news-spiders article", "magic-html forum")."""
    rows = json.loads((data_dir / "index.json").read_text(encoding="utf-8"))
    pages = [
        _index_page(data_dir, row, f"{row['source']} {row['type']}", source=row["source"])
        for row in rows
    ]
    return pages[:limit] if limit is not None else pages


def _index_page(data_dir: Path, row: dict[str, Any], page_type: str, **fields: Any) -> Page:
    """A page of the sets laid out as ``index.json`` rows and ``pages/<id>.html.gz``
    (news, classic, fundus): ``expected`` is the truth, each Han or kana character a
    token; ``fields`` are the set's own (source, content type, metadata)."""
    return Page(
        file_id=row["id"],
        page_type=page_type,
        url=row.get("url") or None,
        html_path=data_dir / "pages" / f"{row['id']}.html.gz",
        truth=row["expected"],
        with_snippets=(),
        without_snippets=(),
        lang=row.get("lang"),
        cjk_tokens=True,
        **fields,
    )


def _classic_group(row: dict[str, Any]) -> str:
    source = row["source"]
    return f"{source} {row['type']}" if source == "chinese-hand" else source


def load_classic(data_dir: Path, limit: int | None = None) -> list[Page]:
    """The classic set: ``index.json`` rows grouped by ``source`` (the Chinese set by
    source and type: its forum threads apart from its articles); ``charset``, where the
    corpus recorded one, becomes the page's Content-Type."""
    rows = json.loads((data_dir / "index.json").read_text(encoding="utf-8"))
    pages = [
        _index_page(
            data_dir,
            row,
            _classic_group(row),
            content_type=f"text/html; charset={row['charset']}" if row.get("charset") else None,
            metadata={k: row[k] for k in ("author", "date") if isinstance(row.get(k), str)},
            source=row["source"],
        )
        for row in rows
    ]
    return pages[:limit] if limit is not None else pages


def load_readability(data_dir: Path, limit: int | None = None) -> list[Page]:
    """Readability.js's test pages: the truth is the text of its ``expected.html``
    (Readability.js's own output, so this measures agreement with it, not truth)."""
    from selectolax.lexbor import LexborHTMLParser

    pages = []
    for folder in sorted((data_dir / "test-pages").iterdir()):
        expected, source = folder / "expected.html", folder / "source.html"
        if not expected.is_file() or not source.is_file():
            continue
        tree = LexborHTMLParser(expected.read_text(encoding="utf-8"))
        truth = tree.body.text(separator=" ") if tree.body is not None else ""
        # Hand-checked by Readability.js's maintainers: title, byline, publishedTime.
        meta_path = folder / "expected-metadata.json"
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        known = {"title": meta.get("title"), "author": meta.get("byline"),
                 "date": meta.get("publishedTime")}  # fmt: skip
        pages.append(
            Page(
                file_id=folder.name,
                page_type="readability",
                url="http://fakehost/test/page.html",  # where Readability.js's tests run them
                html_path=source,
                truth=truth,
                with_snippets=(),
                without_snippets=(),
                metadata={k: v for k, v in known.items() if isinstance(v, str) and v.strip()},
                source="readability",
            )
        )
    return pages[:limit] if limit is not None else pages


def load_fundus(data_dir: Path, limit: int | None = None) -> list[Page]:
    """fundus's pages: ``index.json`` rows as in the news set; ``expected`` is the body as
    the publisher's hand-made fundus parser reads it (dek, section headings and paragraphs,
    no title, captions or bylines), grouped by ``source`` (``fundus-<country>``) under one
    group, ``fundus``. ``title``, ``authors`` and ``date`` are the same parser's metadata:
    ``author`` is the names joined by ", " (``authors`` as the list)."""
    rows = json.loads((data_dir / "index.json").read_text(encoding="utf-8"))
    pages = []
    for row in rows:
        authors = [a for a in row.get("authors") or [] if isinstance(a, str) and a.strip()]
        known = {"title": row.get("title"), "date": row.get("date"),
                 "author": ", ".join(authors) if authors else None}  # fmt: skip
        pages.append(
            _index_page(
                data_dir,
                row,
                "fundus",
                metadata={k: v for k, v in known.items() if isinstance(v, str) and v.strip()},
                source="fundus",
            )
        )
    return pages[:limit] if limit is not None else pages


def load_suite(
    suite: str,
    data_dir: Path,
    split: str = "dev",
    types: Sequence[str] | None = None,
    limit: int | None = None,
) -> tuple[list[Page], list[str]]:
    """One suite's pages and the ids skipped for want of a ground truth (WCXB only)."""
    if suite == "news":
        return load_news(data_dir, limit), []
    if suite == "classic":
        return load_classic(data_dir, limit), []
    if suite == "readability":
        return load_readability(data_dir, limit), []
    if suite == "fundus":
        return load_fundus(data_dir, limit), []
    return load_pages(data_dir, split, types, limit)


# Rows beside the groups of the news and classic sets: the Chinese pages of every group.
NEWS_EXTRA_ROWS: dict[str, Callable[[Page], bool]] = {
    "Chinese pages": lambda page: page.lang == "zh",
}


# --------------------------------------------------------------------------- systems


@dataclass
class System:
    """An extractor under test.

    ``extract(raw_bytes, url, content_type) -> text`` is the timed section, so it must
    contain all the work from raw bytes to plain text (decoding included) for the
    timings to compare; ``content_type`` is what a crawler recorded (mostly None).
    Exceptions listed in ``expected_errors`` are the system's named "nothing to extract"
    answers and score as empty output; anything else is a crash.
    """

    name: str
    extract: Callable[[bytes, str | None, str | None], str]
    expected_errors: tuple[type[BaseException], ...] = ()
    note: str = ""
    # A system that runs differently per page (--loco: the block model trained without
    # the page's source) gives the page's extract function instead.
    per_page: Callable[[Page], Callable[[bytes, str | None, str | None], str]] | None = None


def make_decoder() -> tuple[Callable[[bytes, str | None], str], str]:
    """Bytes → str for systems that take text: unchrome's own decoder when available.

    Feeding trafilatura the exact string unchrome works from keeps the comparison about
    extraction, not about charset sniffing. Before ``unchrome.pipeline.decode`` exists (or if it
    misbehaves), UTF-8 with replacement is the fallback: every dev page is valid UTF-8.
    """

    def utf8(raw: bytes, content_type: str | None = None) -> str:
        return raw.decode("utf-8", errors="replace")

    try:
        from unchrome.errors import UnchromeError
        from unchrome.pipeline.decode import decode

        probe = decode(b"<html><body><p>probe</p></body></html>").text
        if not isinstance(probe, str):
            raise TypeError("decode(...).text is not a str")
    except Exception:  # absent, half-written or different API: the fallback is still fair
        return utf8, "utf-8/replace"

    def unchrome_decode(raw: bytes, content_type: str | None = None) -> str:
        try:
            return decode(raw, content_type=content_type).text
        except UnchromeError:
            # unchrome's refusal to decode must not be charged to the other system.
            return utf8(raw)

    return unchrome_decode, "unchrome.pipeline.decode"


def load_block_model(path: Path | None) -> Any:
    """The block model in ``path`` (tools/train_blockmodel.py writes one trained
    without each corpus), or None for the packaged one."""
    if path is None:
        return None
    from unchrome.model import blockmodel

    return blockmodel.load_model(path.read_bytes())


def unchrome_system(favor: str = "balanced", model: Any = None) -> System:
    """unchrome's public entry point on raw bytes (its decoding is inside the timing)."""
    import unchrome

    config = unchrome.Config(favor=favor)  # type: ignore[arg-type]
    extractor = unchrome.Extractor(config, block_model=model)

    def run(raw: bytes, url: str | None, content_type: str | None = None) -> str:
        return extractor.extract(raw, url=url, content_type=content_type).text

    version = getattr(unchrome, "__version__", "?")
    note = f"unchrome {version}" + (f", favor={favor}" if favor != "balanced" else "")
    note += ", block model from --model" if model is not None else ""
    return System("unchrome", run, (unchrome.UnchromeError,), note=note)


# Markdown reduced to the words a reader sees: an image is a picture (its alt text is
# not running text), a link its anchor text, a code fence's language tag no word of the
# page, a backslash escape the character it escapes.
# A link's destination: <...> (spaces allowed) or a run without spaces whose
# parentheses balance one level deep, then an optional "title" (quotes inside it
# escaped: the converter writes a title attribute's quotes as \").
_MD_DEST = r"\((?:<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"(?:[^\"\\]|\\.)*\")?\)"
# Link text may hold one level of brackets ("[[1]](#cite_note-1)") and line breaks (a
# card: a link around a heading and a teaser).
_MD_LABEL = r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"
# An image, or the reference the converter writes for a player ("[video](clip.mp4)"):
# a picture or a film on the page, not words of it.
_MD_IMAGE = re.compile("(?:!" + _MD_LABEL + r"|\[(?:video|audio|iframe)\])" + _MD_DEST)
_MD_LINK = re.compile(_MD_LABEL + _MD_DEST)
_MD_FENCE_INFO = re.compile(r"^(\s*(?:```|~~~))[^\n`]*$", re.M)
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_EMPHASIS = re.compile(r"(?<!\\)\*+")
_MD_ORDERED_MARKER = re.compile(r"^(\s*(?:>\s*)*)\d+[.)](?=\s)", re.M)
_MD_EMPTY_LINK = re.compile(r"(?<!!)\[\s*\]\(")
_MD_TABLE_RULE = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+\s*$")


# An HTML tag, or an inline code span (kept as it is: a tag inside code is code).
_MD_TAG_OR_CODE = re.compile(r"(`+)(?:(?!\1).)*?\1|(?<!\\)</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>", re.S)


def _drop_tags(markdown: str) -> str:
    """``markdown`` less its HTML tags (a ``<br>`` in a table cell, a table written as
    HTML), except inside code blocks and code spans."""
    from unchrome.pipeline.markdown import fence_lines

    out: list[str] = []
    for line, fenced in fence_lines(markdown):
        if not fenced and "<" in line:
            line = _MD_TAG_OR_CODE.sub(lambda m: m.group(0) if m.group(1) else " ", line)
        out.append(line)
    return "\n".join(out)


def markdown_words(markdown: str) -> str:
    """The text a reader sees in ``markdown``: images and players left out, links reduced
    to their anchor text, HTML tags outside code, code-fence language tags, ordered-list
    numbers, emphasis marks and backslash escapes removed."""
    text = _MD_IMAGE.sub(" ", _drop_tags(markdown))
    # Innermost first: a link's text may hold an image or a bracketed reference.
    while True:
        reduced = _MD_LINK.sub(r"\1", text)
        if reduced == text:
            break
        text = reduced
    text = _MD_FENCE_INFO.sub(r"\1", text)
    text = _MD_ORDERED_MARKER.sub(r"\1", text)
    # Emphasis marks: the converter writes "*" for both (a literal one is escaped).
    text = _MD_EMPHASIS.sub("", text)
    return _MD_ESCAPE.sub(r"\1", text)


def empty_links(markdown: str) -> int:
    """Links with no anchor text (``[](...)``), not images."""
    return len(_MD_EMPTY_LINK.findall(markdown))


def header_only_tables(markdown: str) -> int:
    """Markdown tables whose header rule is followed by no body row."""
    lines = markdown.splitlines()
    count = 0
    for index, line in enumerate(lines):
        if _MD_TABLE_RULE.match(line.strip()):
            after = lines[index + 1].strip() if index + 1 < len(lines) else ""
            count += not after.startswith("|")
    return count


def unchrome_loco_system(models_dir: Path, favor: str = "balanced") -> System:
    """unchrome's text, each page extracted with the block model trained without the
    page's source (``models_dir``/without-<source>.npz, written by
    tools/train_blockmodel.py cv): leave one corpus out, the figure that predicts pages
    of conventions and sites nobody here has seen. A source with no such model (the
    Readability.js pages, which no model learns from) gets the packaged one."""
    import unchrome

    config = unchrome.Config(favor=favor)  # type: ignore[arg-type]
    extractors: dict[str, Any] = {}

    def extractor_for(page: Page) -> Callable[[bytes, str | None, str | None], str]:
        if page.source not in extractors:
            path = models_dir / f"without-{page.source}.npz"
            model = load_block_model(path) if path.is_file() else None
            extractors[page.source] = unchrome.Extractor(config, block_model=model)
        extractor = extractors[page.source]

        def run(raw: bytes, url: str | None, content_type: str | None = None) -> str:
            return extractor.extract(raw, url=url, content_type=content_type).text

        return run

    def unused(raw: bytes, url: str | None, content_type: str | None = None) -> str:
        raise AssertionError("the loco system runs per page")

    note = f"each page's block model trained without its source ({models_dir})"
    return System("unchrome loco", unused, (unchrome.UnchromeError,), note, extractor_for)


def unchrome_markdown_system(favor: str = "balanced", model: Any = None) -> System:
    """unchrome's Markdown, what the CLI and ``/r/`` give by default, scored as the
    words a reader sees (:func:`markdown_words`); timed from raw bytes to Markdown."""
    import unchrome

    config = unchrome.Config(favor=favor)  # type: ignore[arg-type]
    extractor = unchrome.Extractor(config, block_model=model)

    def run(raw: bytes, url: str | None, content_type: str | None = None) -> str:
        return markdown_words(extractor.extract(raw, url=url, content_type=content_type).markdown)

    return System("unchrome md", run, (unchrome.UnchromeError,), note="Markdown, as users get it")


@dataclass(frozen=True)
class RenderingCheck:
    """How far one page's Markdown strays from its text, and its Markdown defects."""

    disagreement: float  # 1 - word F1 between text and Markdown (min_paragraph_chars=0)
    empty_links: int
    header_only_tables: int  # of page tables that have body rows


def check_renderings(
    raw: bytes, url: str | None, cjk: bool = False, content_type: str | None = None
) -> RenderingCheck | None:
    """Text (every paragraph kept: ``min_paragraph_chars=0``) against the Markdown's
    words, the title heading left aside: one selection rendered twice must agree."""
    import unchrome
    from unchrome.pipeline.extractor import Trace

    trace = Trace()
    extractor = unchrome.Extractor(unchrome.Config(min_paragraph_chars=0))
    try:
        result = extractor.extract(raw, url=url, content_type=content_type, trace=trace)
    except unchrome.UnchromeError:
        return None
    markdown = result.markdown
    body = markdown_body(markdown, result.text)
    f1, _, _ = score_text(markdown_words(body), result.text, cjk)
    # A table of one row in the page has no body rows: the converter makes its row the
    # header, and that is no loss. Only the others count.
    single_rows = _kept_single_row_tables(trace)
    headers_only = max(0, header_only_tables(markdown) - single_rows)
    return RenderingCheck(1.0 - f1, empty_links(markdown), headers_only)


def _kept_single_row_tables(trace: Any) -> int:
    """Data tables of the selection that have a single row in the page."""
    content = trace.content
    if content is None:
        return 0
    rows: dict[int, list[int]] = {}
    for block, keep in zip(content.seg.blocks, content.keep, strict=True):
        if block.kind == "table" and block.nodes and block.nodes[0].tag == "tr":
            rows.setdefault(block.owner, []).append(keep)
    return sum(len(kept) == 1 and kept[0] for kept in rows.values())


def markdown_body(markdown: str, text: str) -> str:
    """The Markdown less the title heading it opens with when the headline left the
    text (the one line Markdown adds beyond syntax, links and images)."""
    if markdown.startswith("# "):
        first, _, rest = markdown.partition("\n")
        heading = tokenize(markdown_words(first))
        span = 4 * len(first) + 16
        in_text = tokenize(text[:span])[: len(heading)] == heading
        # The text may open with the same words as another block (a product name
        # under the headline): then the Markdown repeats them after its heading too.
        repeated = tokenize(markdown_words(rest[:span]))[: len(heading)] == heading
        if not in_text or repeated:
            return rest
    return markdown


def trafilatura_system(favor: str = "balanced", comments: bool = True) -> System | None:
    """trafilatura on the decoded page, or None if not installed: default settings, or
    with ``favor`` its ``favor_precision`` / ``favor_recall``; ``comments=False`` is its
    ``include_comments=False`` (unchrome's default: comments are no content), which
    the classic corpora's conventions reward (their articles' gold drops comments) and
    the forum threads of WCXB and news punish."""
    try:
        import trafilatura
    except ImportError:
        return None
    decode, how = make_decoder()
    options = {"favor_precision": favor == "precision", "favor_recall": favor == "recall"}
    options["include_comments"] = comments

    def run(raw: bytes, url: str | None, content_type: str | None = None) -> str:
        # Decoding is timed too, mirroring unchrome which starts from bytes.
        return trafilatura.extract(decode(raw, content_type), **options) or ""

    version = getattr(trafilatura, "__version__", "?")
    chosen = f", favor_{favor}=True" if favor != "balanced" else ""
    chosen += "" if comments else ", include_comments=False"
    name = "trafilatura" if comments else "trafilatura-nc"
    return System(name, run, (), note=f"trafilatura {version}{chosen}, input via {how}")


def resiliparse_system(favor: str = "balanced") -> System | None:
    """resiliparse's main-content text on the decoded page, or None if not installed.

    ``extract_plain_text`` takes the string and parses it itself, as fast as handing it
    an ``HTMLTree.parse`` tree; it has no precision or recall option, so ``favor`` only
    shows in the note.
    """
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLParserException
    except ImportError:
        return None
    from importlib.metadata import version

    decode, how = make_decoder()

    def run(raw: bytes, url: str | None, content_type: str | None = None) -> str:
        # Decoding is timed too, as for trafilatura: the same string, the same clock.
        return extract_plain_text(decode(raw, content_type), main_content=True)

    chosen = f", no favor option (its default for --favor {favor})" if favor != "balanced" else ""
    note = f"resiliparse {version('resiliparse')}, main_content=True{chosen}, input via {how}"
    # A document its parser refuses is its documented "nothing to extract" answer.
    return System("resiliparse", run, (HTMLParserException,), note=note)


def readability_system(favor: str = "balanced") -> System | None:
    """readability-lxml's article on the decoded page, or None if not installed:
    ``Document(html).summary()``, its HTML reduced to text one block a line (a line
    break at every block element, so that words of adjacent blocks stay apart)."""
    try:
        from lxml import html as lxml_html
        from readability import Document
        from readability.readability import Unparseable
    except ImportError:
        return None
    from importlib.metadata import version

    decode, how = make_decoder()
    blocks = frozenset(("p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td",
                        "th", "pre", "blockquote", "br", "dd", "dt", "table", "ul", "ol",
                        "section", "article", "figcaption"))  # fmt: skip

    def run(raw: bytes, url: str | None, content_type: str | None = None) -> str:
        summary = Document(decode(raw, content_type), url=url).summary(html_partial=True)
        if not summary.strip():
            return ""
        root = lxml_html.fragment_fromstring(summary, create_parent="div")
        for element in root.iter():
            if isinstance(element.tag, str) and element.tag in blocks:
                element.tail = "\n" + (element.tail or "")
        return root.text_content()

    chosen = f", no favor option (its default for --favor {favor})" if favor != "balanced" else ""
    note = f"readability-lxml {version('readability-lxml')}, summary() as text{chosen}"
    note += f", input via {how}"
    # A document it cannot parse is its documented "nothing to extract" answer.
    return System("readability", run, (Unparseable,), note=note)


#: ``--vs`` names and the functions that build those systems (None: not installed).
OTHER_SYSTEMS: dict[str, Callable[[str], System | None]] = {
    "trafilatura": trafilatura_system,
    "trafilatura-nc": lambda favor: trafilatura_system(favor, comments=False),
    "resiliparse": resiliparse_system,
    "readability": readability_system,
}


# --------------------------------------------------------------------------- running


@dataclass
class PageResult:
    """One system's outcome on one page."""

    f1: float
    precision: float
    recall: float
    ms: float
    words: int
    with_rate: float | None  # None when the page has no with-snippets
    without_hit: bool | None  # None when the page has no without-snippets
    without_rate: float | None
    error: str | None = None  # named failure code, scored as empty output
    crash: str | None = None  # unexpected exception, scored as empty output


def evaluate_output(page: Page, text: str, ms: float = 0.0) -> PageResult:
    """Score an extracted text against a page's ground truth and snippets."""
    f1, precision, recall = score_text(text, page.truth, page.cjk_tokens)
    normalised = normalise_snippet(text)  # once per page, not once per snippet
    with_rate = without_rate = None
    without_hit = None
    if page.with_snippets:
        found = sum(normalise_snippet(s) in normalised for s in page.with_snippets)
        with_rate = found / len(page.with_snippets)
    if page.without_snippets:
        hits = sum(normalise_snippet(s) in normalised for s in page.without_snippets)
        without_rate = hits / len(page.without_snippets)
        without_hit = hits > 0
    return PageResult(
        f1,
        precision,
        recall,
        ms,
        len(tokenize(text, page.cjk_tokens)),
        with_rate,
        without_hit,
        without_rate,
    )


def run_page(system: System, page: Page, raw: bytes) -> PageResult:
    """Run and time one system on one page; never raises for the system's own errors."""
    error = crash = None
    text = ""
    start = time.perf_counter()
    try:
        extract = system.extract if system.per_page is None else system.per_page(page)
        text = extract(raw, page.url, page.content_type)
    except system.expected_errors as exc:
        error = str(getattr(exc, "code", type(exc).__name__))
    except Exception as exc:
        crash = f"{type(exc).__name__}: {exc}"[:300]
    ms = (time.perf_counter() - start) * 1000.0
    if not isinstance(text, str):  # a wrong return type is a bug, not an empty page
        crash, text = f"returned {type(text).__name__}, not str", ""
    result = evaluate_output(page, text, ms)
    result.error, result.crash = error, crash
    return result


def run_benchmark(
    pages: Sequence[Page],
    systems: Sequence[System],
    progress: TextIO | None = sys.stderr,
    repeat: int = 1,
) -> dict[str, list[PageResult]]:
    """Run every system on every page, interleaved page by page, after one warm-up page.

    The warm-up (first page, untimed, unscored) keeps lazy imports and caches out of the
    first measured page. Each page is decompressed once, outside the timed sections.
    With ``repeat`` > 1 every system runs that many times on each page, in alternating
    order, and a page's time is its fastest run (the output scored is the first run's):
    on a shared machine a single run picks up whatever else the host was doing, and
    the time ratio of the same code moved between 3.7 and 4.1 from run to run.
    """
    results: dict[str, list[PageResult]] = {s.name: [] for s in systems}
    if pages:
        raw = pages[0].read_html()
        for system in systems:
            run_page(system, pages[0], raw)
    for index, page in enumerate(pages, start=1):
        raw = page.read_html()
        first: dict[str, PageResult] = {}
        for round_ in range(max(1, repeat)):
            for system in systems if round_ % 2 == 0 else list(reversed(systems)):
                result = run_page(system, page, raw)
                kept = first.setdefault(system.name, result)
                kept.ms = min(kept.ms, result.ms)
        for system in systems:
            results[system.name].append(first[system.name])
        if progress is not None and (index % PROGRESS_EVERY == 0 or index == len(pages)):
            print(f"bench: {index}/{len(pages)} pages", file=progress, flush=True)
    return results


# --------------------------------------------------------------------------- reporting


@dataclass
class Summary:
    """Aggregates of one system over a set of pages (rates are fractions, not percent)."""

    system: str
    pages: int
    f1: float
    precision: float
    recall: float
    with_rate: float | None
    without_pages: float | None  # share of pages where some without-snippet appears
    without_rate: float | None  # per-page share of without-snippets found, averaged
    failures: int
    crashes: int
    median_ms: float  # the p50 (the key kept for earlier --json files)
    mean_ms: float
    p99_ms: float
    pages_per_s: float  # one process, one page at a time: 1000 / mean_ms


def p99(ms: Sequence[float]) -> float:
    """The 99th percentile of per-page times, interpolated between the two nearest
    sorted values (``quantiles``' "inclusive" method, numpy's default "linear"); the
    default "exclusive" method extrapolates past the slowest page on small samples.
    With fewer than two times there is nothing to interpolate: the slowest (or 0)."""
    if len(ms) < 2:
        return max(ms, default=0.0)
    return statistics.quantiles(ms, n=100, method="inclusive")[98]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarise(system: str, results: Sequence[PageResult]) -> Summary:
    """Average the per-page scores; snippet rates only over pages that have snippets."""
    ms = [r.ms for r in results]
    mean_ms = _mean(ms) or 0.0
    return Summary(
        system=system,
        pages=len(results),
        f1=_mean([r.f1 for r in results]) or 0.0,
        precision=_mean([r.precision for r in results]) or 0.0,
        recall=_mean([r.recall for r in results]) or 0.0,
        with_rate=_mean([r.with_rate for r in results if r.with_rate is not None]),
        without_pages=_mean([float(r.without_hit) for r in results if r.without_hit is not None]),
        without_rate=_mean([r.without_rate for r in results if r.without_rate is not None]),
        failures=sum(r.error is not None for r in results),
        crashes=sum(r.crash is not None for r in results),
        median_ms=statistics.median(ms) if ms else 0.0,
        mean_ms=mean_ms,
        p99_ms=p99(ms),
        pages_per_s=1000.0 / mean_ms if mean_ms > 0 else 0.0,
    )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def format_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int] = (0,)
) -> str:
    """Fixed-width table: the ``left`` columns (text) left-aligned, numbers right-aligned."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).ljust(w) if i in left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def format_markdown(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The same table as GitHub Markdown (numbers right-aligned)."""
    align = ["---"] + ["---:"] * (len(headers) - 1)
    lines = [headers, align, *rows]
    return "\n".join("| " + " | ".join(str(c) for c in cells) + " |" for cells in lines)


OVERALL_HEADERS = (
    "system",
    "pages",
    "F1",
    "P",
    "R",
    "with%",
    "without-pages%",
    "without-snip%",
    "failed",
    "crashes",
    "p50 ms",
    "p99 ms",
    "mean ms",
    "pages/s",
)


def overall_rows(summaries: Sequence[Summary]) -> list[list[str]]:
    """One row per system for :data:`OVERALL_HEADERS`."""
    return [
        [
            s.system,
            str(s.pages),
            f"{s.f1:.3f}",
            f"{s.precision:.3f}",
            f"{s.recall:.3f}",
            _pct(s.with_rate),
            _pct(s.without_pages),
            _pct(s.without_rate),
            str(s.failures),
            str(s.crashes),
            f"{s.median_ms:.1f}",
            f"{s.p99_ms:.1f}",
            f"{s.mean_ms:.1f}",
            f"{s.pages_per_s:.1f}",
        ]
        for s in summaries
    ]


def time_ratios(summaries: Sequence[Summary]) -> list[str]:
    """One line per other system: its p50 and p99 over unchrome's (the first summary),
    so above 1 means unchrome is faster."""
    base = summaries[0] if summaries else None
    if base is None or base.median_ms <= 0 or base.p99_ms <= 0:
        return []
    return [
        f"time ratio {s.system} / {base.system}: "
        f"p50 {s.median_ms / base.median_ms:.2f}, p99 {s.p99_ms / base.p99_ms:.2f}"
        for s in summaries
        if not s.system.startswith("unchrome")
    ]


def per_type_table(
    pages: Sequence[Page],
    results: dict[str, list[PageResult]],
    extra: dict[str, Callable[[Page], bool]] | None = None,
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of F1/P/R per page type, systems side by side, then a row for
    each of the ``extra`` filters (the news set's Chinese pages) and an "all" row."""
    systems = list(results)
    headers = ["type", "pages"]
    for name in systems:
        headers += [f"{name} F1", "P", "R"]
    present = {p.page_type for p in pages}
    order = [t for t in PAGE_TYPES if t in present] + sorted(present - set(PAGE_TYPES))
    filters: dict[str, Callable[[Page], bool]] = {
        t: (lambda page, t=t: page.page_type == t) for t in order
    }
    filters.update({k: f for k, f in (extra or {}).items() if any(f(p) for p in pages)})
    filters["all"] = lambda page: True
    rows: list[list[str]] = []
    for page_type, wanted in filters.items():
        index = [i for i, p in enumerate(pages) if wanted(p)]
        row = [page_type, str(len(index))]
        for name in systems:
            s = summarise(name, [results[name][i] for i in index])
            row += [f"{s.f1:.3f}", f"{s.precision:.3f}", f"{s.recall:.3f}"]
        rows.append(row)
    return headers, rows


METADATA_FIELDS = ("title", "author", "date")
#: The columns of the metadata table: (heading, labelled field, rule of _same_metadata).
METADATA_COLUMNS = (
    ("title contains", "title", "contains"),
    ("title is", "title", "title"),
    ("author", "author", "author"),
    ("date", "date", "date"),
)
# Name separators in a labelled or extracted author string: commas, semicolons (the
# join trafilatura uses), "&", "|", "/", and "and" in the sets' languages.
_AND = r"(?:and|und|et|y|e|og|och|en|ve)"
_NAME_SPLIT_RE = re.compile(rf"\s*[,;&|/]\s*(?:{_AND}\s+)?|\s+{_AND}\s+", re.IGNORECASE)
# A label before the names ("By Ana Sandoiu", "Par Sébastien Farcis"), read off both sides.
_BY_LABEL_RE = re.compile(r"^(?:written\s+by|posted\s+by|by|von|par|por|di|da|av|door)\b\s*:?\s*",
                          re.IGNORECASE)  # fmt: skip


_QUOTES = str.maketrans("‘’‚‛“”„‟′″", "''''\"\"\"\"'\"")


def _key(text: str) -> str:
    """Case, spacing and typographic quotes aside (labels type "'" where pages print
    "’"): the comparison form of a title or a name."""
    return " ".join(text.translate(_QUOTES).split()).casefold()


def author_names(text: str) -> frozenset[str]:
    """The set of names an author string holds: split at the separators above, a
    leading "By"-style label dropped, each name compared case and spacing aside. The
    same rule reads the labelled value and every system's answer, so that "A, B", "A;
    B", "A and B" and "B, A" all agree with a label of "A, B"."""
    text = _BY_LABEL_RE.sub("", " ".join(text.split()))
    return frozenset(_key(name) for name in _NAME_SPLIT_RE.split(text) if name.strip())


def _same_metadata(name: str, got: str | None, truth: str) -> bool:
    """Whether an extracted value agrees with the labelled one, by the rule ``name``:

    * ``title``: the same words, case and spacing aside (the title *is* the headline);
    * ``contains``: the title contains the labelled headline (a site's name around it
      is forgiven);
    * ``author``: the same set of names (:func:`author_names`);
    * ``date``: the same day.
    """
    if not got:
        return False
    if name == "date":
        return got.strip()[:10] == truth.strip()[:10]
    if name == "contains":
        return _key(truth) in _key(got)
    if name == "author":
        return author_names(got) == author_names(truth)
    return _key(got) == _key(truth)


_TAG_RE = re.compile(r"<[^>]*>")


def on_page(name: str, html: str, truth: str) -> bool:
    """Whether the labelled value appears on the page at all: the ceiling of any system
    that copies it from the page. Titles and authors are looked for in the markup with
    entities decoded (the <title>, meta contents and attributes count) and in its text
    with the tags taken out (a name split by inline tags), case and spacing aside; a
    date's day as ISO digits (2025-11-12) or printed in any spelling unchrome reads."""
    import html as html_lib

    decoded = _key(html_lib.unescape(html))
    text = _key(html_lib.unescape(_TAG_RE.sub(" ", html)))
    if name == "date":
        day = truth.strip()[:10]
        if day in decoded or day.replace("-", "/") in decoded:
            return True
        from unchrome.metadata.dates import _printed_dates

        return any(iso == day for _, iso, _ in _printed_dates(text))
    if name == "author":
        return all(n in decoded or n in text for n in author_names(truth))
    return _key(truth) in decoded or _key(truth) in text


def unchrome_metadata(
    raw: bytes, url: str | None, content_type: str | None = None
) -> dict[str, str | None]:
    import unchrome

    try:
        result = unchrome.extract(raw, url=url, content_type=content_type)
    except unchrome.UnchromeError:
        return {}
    return {"title": result.title, "author": result.author, "date": result.date}


def trafilatura_metadata(
    raw: bytes, url: str | None, content_type: str | None = None
) -> dict[str, str | None]:
    """trafilatura's metadata (htmldate for the date), on the same decoded input."""
    import trafilatura

    decode, _ = make_decoder()
    found = trafilatura.bare_extraction(decode(raw, content_type), url=url, with_metadata=True)
    if found is None:
        return {}
    as_dict = found if isinstance(found, dict) else found.as_dict()
    return {name: as_dict.get(name) for name in METADATA_FIELDS}


def format_metadata_agreement(
    pages: Sequence[Page], systems: dict[str, Callable[[bytes, str | None, str | None], dict]]
) -> str:
    """Share of the pages with a labelled title, author or date on which each system
    agrees (``_same_metadata``, per METADATA_COLUMNS), and under them the page ceiling:
    the share of those pages whose labelled value appears on the page at all."""
    with_truth = [p for p in pages if p.metadata]
    found = {name: [extract(p.read_html(), p.url, p.content_type) for p in with_truth]
             for name, extract in systems.items()}  # fmt: skip
    headers = ["system", *(f"{heading} ({sum(f in p.metadata for p in with_truth)})"
                           for heading, f, _ in METADATA_COLUMNS)]  # fmt: skip
    rows = []
    for name, values in found.items():
        row = [name]
        for _, field_name, rule in METADATA_COLUMNS:
            judged = [(p, v) for p, v in zip(with_truth, values, strict=True)
                      if field_name in p.metadata]  # fmt: skip
            agree = sum(_same_metadata(rule, v.get(field_name), p.metadata[field_name])
                        for p, v in judged)  # fmt: skip
            row.append(f"{agree / len(judged):.3f}" if judged else "-")
        rows.append(row)
    decode, _ = make_decoder()
    markup = [decode(p.read_html(), p.content_type) for p in with_truth]
    ceiling = ["page ceiling"]
    for _, field_name, _ in METADATA_COLUMNS:
        judged = [(p, m) for p, m in zip(with_truth, markup, strict=True)
                  if field_name in p.metadata]  # fmt: skip
        held = sum(on_page(field_name, m, p.metadata[field_name]) for p, m in judged)
        ceiling.append(f"{held / len(judged):.3f}" if judged else "-")
    rows.append(ceiling)
    return "metadata agreement with the labelled fields:\n" + format_table(headers, rows)


def format_rendering_checks(pages: Sequence[Page], checks: Sequence[RenderingCheck | None]) -> str:
    """Text against Markdown, per page type: pages whose words differ by more than 2%
    and 5%, empty links, header-only tables."""
    headers = ["type", "pages", "differ >2%", "differ >5%", "empty links", "header-only tables"]
    present = {p.page_type for p in pages}
    order = [t for t in PAGE_TYPES if t in present] + sorted(present - set(PAGE_TYPES))
    rows = []
    for page_type in [*order, "all"]:
        chosen = [
            c
            for p, c in zip(pages, checks, strict=True)
            if c is not None and page_type in ("all", p.page_type)
        ]
        rows.append(
            [
                page_type,
                str(len(chosen)),
                str(sum(c.disagreement > 0.02 for c in chosen)),
                str(sum(c.disagreement > 0.05 for c in chosen)),
                str(sum(c.empty_links for c in chosen)),
                str(sum(c.header_only_tables for c in chosen)),
            ]
        )
    return "text and Markdown of one selection (min_paragraph_chars=0):\n" + format_table(
        headers, rows
    )


def _spelled_out(headers: Sequence[str]) -> list[str]:
    """Per-type headers with the system named on every metric ("P" → "unchrome P").

    The fixed-width table groups P and R under the F1 column that names the system; a
    Markdown table rendered in a README has no such visual grouping.
    """
    named: list[str] = []
    system = ""
    for header in headers:
        if header.endswith(" F1"):
            system = header.removesuffix(" F1")
        named.append(f"{system} {header}" if header in ("P", "R") and system else header)
    return named


def _worst_note(result: PageResult, page: Page) -> str:
    # Says why a page scores low when it is not a plain selection mistake: an annotated
    # empty page (any output scores 0), a named failure, a crash or an empty output.
    if result.crash:
        return "CRASH"
    if result.error:
        return result.error
    if not tokenize(page.truth):
        return "empty truth"
    return "empty output" if result.words == 0 else ""


def format_worst(
    pages: Sequence[Page], results: dict[str, list[PageResult]], system: str, count: int
) -> str:
    """The ``count`` pages with the lowest F1 for ``system``, other systems' F1 alongside."""
    others = [name for name in results if name != system]
    order = sorted(range(len(pages)), key=lambda i: (results[system][i].f1, pages[i].file_id))
    headers = ["file", "type", "F1", "P", "R", *(f"{o} F1" for o in others), "note", "url"]
    rows = []
    for i in order[:count]:
        r = results[system][i]
        rows.append(
            [
                pages[i].file_id,
                pages[i].page_type,
                f"{r.f1:.3f}",
                f"{r.precision:.3f}",
                f"{r.recall:.3f}",
                *(f"{results[o][i].f1:.3f}" for o in others),
                _worst_note(r, pages[i]),
                pages[i].url or "",
            ]
        )
    text_columns = (0, 1, len(headers) - 2, len(headers) - 1)
    return format_table(headers, rows, left=text_columns)


def write_json(
    path: Path,
    pages: Sequence[Page],
    results: dict[str, list[PageResult]],
    meta: dict[str, Any],
) -> None:
    """Per-page results for later analysis: one record per page, one entry per system."""
    records = []
    for i, page in enumerate(pages):
        record: dict[str, Any] = {"file_id": page.file_id, "type": page.page_type, "url": page.url}
        for name, system_results in results.items():
            record[name] = asdict(system_results[i])
        records.append(record)
    payload = {"meta": meta, "pages": records}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- CLI


def _type_list(value: str) -> list[str]:
    types = [t.strip() for t in value.split(",") if t.strip()]
    unknown = sorted(set(types) - set(PAGE_TYPES))
    if unknown or not types:
        raise argparse.ArgumentTypeError(
            f"unknown page type(s) {', '.join(unknown) or '(none)'}; "
            f"choose from {', '.join(PAGE_TYPES)}"
        )
    return types


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m benchmarks.bench`` command line."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench",
        description="Word-level F1 and timings of unchrome (and optionally trafilatura, "
        "resiliparse and readability-lxml) on WCXB, news, classic and Readability.js's pages.",
    )
    parser.add_argument(
        "--suite",
        choices=[*SUITES, *SUITE_GROUPS],
        default="wcxb",
        help="WCXB's dev split, the news set, the classic corpora, Readability.js's test "
        "pages; both (WCXB, then news) or all of them one after the other (default: wcxb)",
    )
    parser.add_argument(
        "--data", help="the suite's directory (default: ../shared/data/<suite> from cwd, then repo)"
    )
    parser.add_argument("--split", default="dev", help="split directory name (default: dev)")
    parser.add_argument("--limit", type=_positive_int, help="score only the first N pages")
    parser.add_argument("--types", type=_type_list, help="comma-separated page types to keep")
    parser.add_argument(
        "--vs",
        nargs="+",
        choices=list(OTHER_SYSTEMS),
        metavar="SYSTEM",
        help="also run these systems on the same pages: trafilatura, trafilatura-nc "
        "(include_comments=False), resiliparse, readability (readability-lxml), or several",
    )
    parser.add_argument(
        "--favor",
        choices=["balanced", "precision", "recall"],
        default="balanced",
        help="unchrome's Config.favor, and trafilatura's favor_precision / favor_recall "
        "(resiliparse has none and runs its default)",
    )
    parser.add_argument(
        "--model",
        type=Path,
        metavar="NPZ",
        help="run unchrome with this block model instead of the packaged one (the "
        "leave-one-corpus-out models of tools/train_blockmodel.py cv)",
    )
    parser.add_argument(
        "--loco",
        type=Path,
        metavar="DIR",
        help="also run 'unchrome loco': each page with the block model trained without its "
        "source (DIR/without-<source>.npz, from tools/train_blockmodel.py cv)",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write per-page results here")
    parser.add_argument(
        "--worst", type=_positive_int, metavar="N", help="list unchrome's N lowest-F1 pages"
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="also print the overall table (timings included) and the per-type one as Markdown",
    )
    parser.add_argument(
        "--structure",
        action="store_true",
        help="instead of word F1: the structure of unchrome's Markdown (headings, tables, "
        "code, lists) against WCXB's hand-made Markdown, beside trafilatura's and the page "
        "ceiling (what the page itself holds of the truth's structure), per page type",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instead of word F1: unchrome's time per page by stage (bench_profile), per "
        "suite, with each stage's ms per MB on the smallest and largest tenth of the pages",
    )
    parser.add_argument(
        "--repeat",
        type=_positive_int,
        default=1,
        metavar="N",
        help="time each page N times per system and keep the fastest (default 1)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the report; 0 on a completed run, 2 on setup errors.

    Crashes do not change the exit status: they are part of the measurement and are
    reported in the tables and listed below them.
    """
    args = build_parser().parse_args(argv)
    if args.structure:
        return run_structure(args)
    suites = SUITE_GROUPS.get(args.suite, (args.suite,))
    if args.profile:
        return run_profile(args, suites)
    if args.data is not None and len(suites) > 1:
        print(
            "bench: --data names one suite's directory; run the suites one by one", file=sys.stderr
        )
        return 2
    loaded: list[tuple[str, Path, list[Page], list[str]]] = []
    for suite in suites:
        try:
            data_dir = resolve_data_dir(args.data, suite)
            pages, skipped = load_suite(suite, data_dir, args.split, args.types, args.limit)
        except FileNotFoundError as exc:
            print(f"bench: {exc}", file=sys.stderr)
            return 2
        if not pages:
            print(f"bench: no {suite} pages selected", file=sys.stderr)
            return 2
        if skipped:
            print(
                f"bench: skipped {len(skipped)} page(s) without ground_truth.main_content: "
                + ", ".join(skipped),
                file=sys.stderr,
            )
        loaded.append((suite, data_dir, pages, skipped))

    try:
        model = load_block_model(args.model)
        systems = [unchrome_system(args.favor, model), unchrome_markdown_system(args.favor, model)]
        if args.loco is not None:
            systems.append(unchrome_loco_system(args.loco, args.favor))
    except ImportError as exc:
        print(f"bench: unchrome.extract is not importable: {exc}", file=sys.stderr)
        return 2
    for name in dict.fromkeys(args.vs or ()):  # each named once, in the order given
        other = OTHER_SYSTEMS[name](args.favor)
        if other is None:
            print(f"bench: {name} is not installed; running without it", file=sys.stderr)
        else:
            systems.append(other)

    chinese: list[tuple[Page, dict[str, PageResult]]] = []
    for index, (suite, data_dir, pages, skipped) in enumerate(loaded):
        if index:
            print("\n")
        json_out = args.json
        if json_out is not None and len(loaded) > 1:
            json_out = json_out.with_name(f"{json_out.stem}-{suite}{json_out.suffix}")
        results = _run_suite(args, suite, data_dir, pages, skipped, systems, json_out)
        chinese += [
            (page, {name: rs[i] for name, rs in results.items()})
            for i, page in enumerate(pages)
            if page.lang == "zh"
        ]
    if len({page.html_path.parent for page, _ in chinese}) > 1:
        print("\n")
        print(format_chinese(chinese))
    return 0


def run_profile(args: argparse.Namespace, suites: Sequence[str]) -> int:
    """``--profile``: unchrome's stages' share of its time per page, suite by suite
    (bench_profile)."""
    from benchmarks import bench_profile

    model = load_block_model(args.model)
    import unchrome

    extractor = unchrome.Extractor(
        unchrome.Config(favor=args.favor),  # type: ignore[arg-type]
        block_model=model,
    )
    everything: tuple[list[dict[str, float]], list[int]] = ([], [])
    for index, suite in enumerate(suites):
        try:
            data_dir = resolve_data_dir(args.data if len(suites) == 1 else None, suite)
            pages, _ = load_suite(suite, data_dir, args.split, args.types, args.limit)
        except FileNotFoundError as exc:
            print(f"bench: {exc}", file=sys.stderr)
            return 2
        if not pages:
            continue
        bench_profile.profile_pages(pages[:1], extractor)  # warm: the model, the caches
        laps, sizes = bench_profile.profile_pages(pages, extractor)
        everything[0].extend(laps)
        everything[1].extend(sizes)
        if index:
            print()
        print(f"{suite}: {len(pages)} pages, time by stage")
        headers, rows = bench_profile.format_profile(laps, sizes)
        print(format_table(headers, rows))
        if suite == "wcxb":
            # The input cap's worth of a real page: the median-sized article's body
            # repeated (bench_profile.big_page).
            articles = (
                sorted(
                    (p for p in pages if p.page_type == "article"),
                    key=lambda p: p.html_path.stat().st_size,
                )
                or pages
            )
            size, stages = bench_profile.profile_big_page(articles[len(articles) // 2], extractor)
            shown = ", ".join(
                f"{stage} {stages[stage] * 1000:.1f}"
                for stage in [*bench_profile.STAGES, "total"]
                if stages.get(stage, 0.0) >= 0.0005
            )
            print(
                f"a {size:,}-byte page (a median article's body repeated), median of 7 runs, "
                f"ms: {shown}"
            )
    if len(suites) > 1 and everything[0]:
        print(f"\nevery suite: {len(everything[0])} pages, time by stage")
        headers, rows = bench_profile.format_profile(*everything)
        print(format_table(headers, rows))
        if args.markdown:
            print()
            print(format_markdown(headers, rows))
    return 0


def run_structure(args: argparse.Namespace) -> int:
    """``--structure``: the structure metrics (bench_structure) of unchrome's Markdown
    and trafilatura's (``output_format="markdown"``, tables and formatting on) against
    WCXB's ``main_content_markdown``, overall and per page type."""
    from benchmarks import bench_structure

    if args.suite != "wcxb":
        print("bench: --structure runs on WCXB (its truth has a Markdown)", file=sys.stderr)
        return 2
    try:
        data_dir = resolve_data_dir(args.data, "wcxb")
        pages, _ = load_pages(data_dir, args.split, args.types, args.limit)
    except FileNotFoundError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    pages = [p for p in pages if p.truth_markdown is not None]
    if not pages:
        print("bench: no pages with a main_content_markdown", file=sys.stderr)
        return 2
    import unchrome

    extractor = unchrome.Extractor(unchrome.Config(favor=args.favor))  # type: ignore[arg-type]

    def ours(raw: bytes, page: Page) -> str:
        try:
            return extractor.extract(raw, url=page.url, content_type=page.content_type).markdown
        except unchrome.UnchromeError:
            return ""

    decode, _ = make_decoder()
    systems: dict[str, Callable[[bytes, Page], str]] = {"unchrome": ours}
    theirs = bench_structure.trafilatura_markdown()
    if theirs is not None:
        systems["trafilatura"] = lambda raw, page: theirs(decode(raw, page.content_type), page.url)
    else:
        print("bench: trafilatura is not installed; running without it", file=sys.stderr)
    print(f"WCXB {args.split} structure: {len(pages)} pages with a Markdown truth")
    # The last column, "page ceiling": the most any extractor keeping the page's own
    # structure can score against this truth (bench_structure.page_ceiling).
    scores: dict[str, list[bench_structure.StructureScore]] = {
        name: [] for name in [*systems, "page ceiling"]
    }
    for index, page in enumerate(pages, start=1):
        raw = page.read_html()
        title = page.metadata.get("title", "")
        truth = page.truth_markdown or ""
        outputs = []
        for name, run in systems.items():
            markdown = run(raw, page)
            outputs.append(markdown)
            scores[name].append(bench_structure.score_structure(markdown, truth, title))
        html = decode(raw, page.content_type)
        scores["page ceiling"].append(bench_structure.page_ceiling(html, truth, title, outputs))
        if index % PROGRESS_EVERY == 0 or index == len(pages):
            print(f"bench: {index}/{len(pages)} pages", file=sys.stderr, flush=True)
    headers, rows = bench_structure.format_overall(scores)
    print(format_table(headers, rows))
    present = {p.page_type for p in pages}
    order = [t for t in PAGE_TYPES if t in present] + sorted(present - set(PAGE_TYPES))
    type_headers, type_rows = bench_structure.format_by_type(
        [p.page_type for p in pages], order, scores
    )
    print()
    print(format_table(type_headers, type_rows))
    if args.markdown:
        print()
        print(format_markdown(headers, rows))
        print()
        print(format_markdown(type_headers, type_rows))
    return 0


def format_chinese(chinese: Sequence[tuple[Page, dict[str, PageResult]]]) -> str:
    """Mean F1 / P / R of every system over the Chinese pages of all suites run."""
    names = list(chinese[0][1]) if chinese else []
    headers = ["Chinese pages, every suite", "pages"]
    rows = []
    for name in names:
        headers += [f"{name} F1", "P", "R"]
        s = summarise(name, [results[name] for _, results in chinese])
        rows += [f"{s.f1:.3f}", f"{s.precision:.3f}", f"{s.recall:.3f}"]
    return format_table(headers, [["all", str(len(chinese)), *rows]])


def _run_suite(
    args: argparse.Namespace,
    suite: str,
    data_dir: Path,
    pages: list[Page],
    skipped: list[str],
    systems: list[System],
    json_out: Path | None,
) -> dict[str, list[PageResult]]:
    """Run every system on one suite's pages, print its report, return its results."""
    name = f"WCXB {args.split}" if suite == "wcxb" else suite
    print(f"{name}: {len(pages)} pages from {data_dir}")
    for system in systems:
        if system.note:
            print(f"  {system.name}: {system.note}")
    best_of = f", best of {args.repeat} runs per page" if args.repeat > 1 else ""
    print(
        "  timing: raw bytes to text (decoding included) for every system, after warm-up" + best_of
    )
    if any(p.cjk_tokens for p in pages):
        print("  tokens: each Han or kana character is one (the news and classic sets' rule)")
    print()

    results = run_benchmark(pages, systems, repeat=args.repeat)
    summaries = [summarise(name, rs) for name, rs in results.items()]

    print(format_table(OVERALL_HEADERS, overall_rows(summaries)))
    print()
    extra = NEWS_EXTRA_ROWS if any(p.lang == "zh" for p in pages) else None
    headers, rows = per_type_table(pages, results, extra)
    print(format_table(headers, rows))
    ratios = time_ratios(summaries)
    if ratios:
        print()
        print("\n".join(ratios))
    print()
    checks = [check_renderings(p.read_html(), p.url, p.cjk_tokens, p.content_type) for p in pages]
    print(format_rendering_checks(pages, checks))
    if any(p.metadata for p in pages):
        extractors: dict[str, Callable[[bytes, str | None, str | None], dict]] = {
            "unchrome": unchrome_metadata
        }
        if any(s.name == "trafilatura" for s in systems):
            extractors["trafilatura"] = trafilatura_metadata
        print()
        print(format_metadata_agreement(pages, extractors))

    for name, rs in results.items():
        crashed = [(p.file_id, r.crash) for p, r in zip(pages, rs, strict=True) if r.crash]
        if crashed:
            print()
            print(f"{name}: {len(crashed)} crash(es); first ones:")
            for file_id, crash in crashed[:5]:
                print(f"  {file_id}: {crash}")

    if args.worst:
        print()
        print(f"unchrome's {args.worst} worst pages by F1:")
        print(format_worst(pages, results, "unchrome", args.worst))
    if args.markdown:
        print()
        print(format_markdown(OVERALL_HEADERS, overall_rows(summaries)))
        print()
        print(format_markdown(_spelled_out(headers), rows))
    if json_out:
        meta = {
            "suite": suite,
            "split": args.split if suite == "wcxb" else None,
            "pages": len(pages),
            "skipped": skipped,
            "systems": {s.name: s.note for s in systems},
            "summary": [asdict(s) for s in summaries],
        }
        write_json(json_out, pages, results, meta)
        print(f"\nper-page results written to {json_out}", file=sys.stderr)
    return results


if __name__ == "__main__":
    sys.exit(main())
