"""Start-up: a command imports what it needs. A shell loop that calls ``unchrome`` once a
page, or ``unchrome --version`` in a script, pays for every module imported at start;
timings live in the benchmark, what is imported is asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PAGE = (
    "<!doctype html><html><head><title>A story</title></head><body><article>"
    "<h1>A story</h1>"
    + "<p>This is a paragraph of the story, with words in it.</p>" * 6
    + "</article></body></html>"
)


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json\nprint(json.dumps(list(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_version_and_help_import_no_pipeline_client_or_converter() -> None:
    for argv in (["--version"], ["--help"]):
        code = (
            "import contextlib, io\nfrom unchrome.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try:\n        main({argv!r})\n    except SystemExit:\n        pass"
        )
        loaded = _modules_after(code)
        for heavy in ("numpy", "httpx", "httpcore", "html_to_markdown", "selectolax"):
            assert heavy not in loaded, (argv, heavy)
        assert not any(m.startswith("unchrome.pipeline") for m in loaded), argv


def test_one_local_page_imports_no_http_client_service_or_crawl(tmp_path: Path) -> None:
    page = tmp_path / "story.html"
    page.write_text(PAGE, encoding="utf-8")
    code = (
        "import contextlib, io\nfrom unchrome.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    main([{str(page)!r}, '--format', 'text'])\n"
        "assert 'paragraph of the story' in out.getvalue()"
    )
    loaded = _modules_after(code)
    for heavy in ("httpx", "httpcore", "fastapi", "warcio", "pyarrow"):
        assert heavy not in loaded, heavy
    assert not any(m.startswith(("unchrome.site", "unchrome.service")) for m in loaded)
    # One input runs without a pool, a file needs no network guard, the renderer's
    # default is read without the browser's process helpers, and text needs no
    # Markdown converter; a plain file is read without gzip.
    for unneeded in (
        "concurrent.futures",
        "gzip",
        "unchrome.net.netguard",
        "subprocess",
        "html_to_markdown",
    ):
        assert unneeded not in loaded, unneeded


def test_one_page_as_markdown_runs_without_numpy(tmp_path: Path) -> None:
    # The pipeline's arrays are array.array and bytearray (unchrome._native._arrays):
    # numpy's import was a third of a one-page command line's time.
    page = tmp_path / "story.html"
    page.write_text(PAGE, encoding="utf-8")
    code = (
        "import contextlib, io\nfrom unchrome.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    main([{str(page)!r}])\n"
        "assert 'paragraph of the story' in out.getvalue()"
    )
    assert "numpy" not in _modules_after(code)


def test_import_unchrome_is_light_and_its_api_complete() -> None:
    loaded = _modules_after("import unchrome")
    assert "numpy" not in loaded and "httpx" not in loaded
    # Every name of the public API still resolves, on first use.
    import unchrome

    for name in unchrome.__all__:
        assert getattr(unchrome, name) is not None, name
    # The crawl function keeps its name after the crawl modules are imported.
    from unchrome.site import state  # noqa: F401

    assert callable(unchrome.crawl)


# Patterns compiled on first use (functools.cache'd functions): what only some pages
# need. A plain story needs none of them.
RARE_PATTERNS = {
    "unchrome.metadata.author": [
        "_date_tail_re", "_label_re", "_tail_re", "_url_re", "_split_re", "_credential_re",
        "_role_re", "_placeholder_re", "_other_role_re", "_not_name_re", "_connector_re",
    ],
    "unchrome.metadata.dates": ["_iso_re", "_year_first_re", "_url_date_re"],
    "unchrome.metadata.title": ["_host_note_re"],
    "unchrome.pipeline.parse": ["_tag", "_raw_text_start", "_cap_patterns"],
    "unchrome.pipeline.prune": ["_wp_terms", "_patterns"],
    "unchrome.pipeline.segmentation": ["_chrome_names_ascii", "_permalink_text"],
    "unchrome.pipeline.markdown": ["_lt_in_url", "_code_span_or_lt"],
    "unchrome.rules.names": ["body_name"],
}  # fmt: skip


def test_a_plain_page_compiles_none_of_the_patterns_kept_for_rarer_pages(tmp_path: Path) -> None:
    page = tmp_path / "story.html"
    page.write_text(PAGE, encoding="utf-8")
    code = (
        "import contextlib, importlib, io, json, sys\nfrom unchrome.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    main([{str(page)!r}])\n"
        "assert out.getvalue().startswith('# A story'), out.getvalue()\n"
        f"rare = {RARE_PATTERNS!r}\n"
        "compiled = [f'{m}.{f}' for m, fs in rare.items() for f in fs\n"
        "            if getattr(importlib.import_module(m), f).cache_info().currsize]\n"
        "assert not compiled, compiled"
    )
    _modules_after(code)


def test_the_patterns_kept_for_rarer_pages_compile_when_a_page_asks() -> None:
    # A byline and a date read by the metadata: the author reader's and the dates'
    # patterns are compiled then, and read the page as they did compiled at import.
    from unchrome import extract
    from unchrome.metadata import author, dates

    html = (
        "<html><head><meta property='article:published_time' content='2024-03-05T10:00:00Z'>"
        "</head><body><article><h1>A story</h1><div class='byline'>By Jane Doe and "
        "John Roe, Staff Writer</div>"
        + "<p>This is a paragraph of the story, with words in it.</p>" * 6
        + "</article></body></html>"
    )
    result = extract(html)
    assert result.author == "Jane Doe, John Roe"  # the role left out
    assert result.date.startswith("2024-03-05")
    assert author._label_re.cache_info().currsize == 1
    assert author._split_re.cache_info().currsize == 1
    assert dates._iso_re.cache_info().currsize == 1
