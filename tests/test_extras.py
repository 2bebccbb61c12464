"""Extras by concern: ``pip install unchrome`` is the library and the command line on
files and URLs; the service ([serve]) and WARC reading ([warc]) come with their extras,
and a feature whose extra is missing says which one to install (EXTRA_MISSING)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unchrome.cli import main
from unchrome.cli_options import EXIT_CODES
from unchrome.errors import ExtraMissing, import_extra

# What the library and the command line on files and URLs must not need.
EXTRA_MODULES = ("fastapi", "starlette", "uvicorn", "swagger_ui_bundle", "fastwarc", "tqdm")


def test_the_library_and_the_cli_load_none_of_the_service_or_warc_stack(tmp_path: Path) -> None:
    page = tmp_path / "story.html"
    page.write_text(
        "<html><head><title>A story</title></head><body><nav><a href='/'>Home</a></nav>"
        "<article><p>" + "The words of a story that a reader came for. " * 20 + "</p>"
        "</article></body></html>"
    )
    code = (
        "import sys, unchrome, unchrome.cli\n"
        f"assert unchrome.cli.main([{str(page)!r}, '--format', 'text']) == 0\n"
        f"print(sorted(set(sys.modules) & set({EXTRA_MODULES!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert "The words of a story" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_missing_extra_is_an_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fastwarc", None)  # as if not installed
    with pytest.raises(ExtraMissing) as info:
        import_extra("fastwarc", "warc", "reading WARC files")
    assert info.value.code == "EXTRA_MISSING"
    assert "pip install 'unchrome[warc]'" in str(info.value)
    assert "reading WARC files" in str(info.value)


def test_serve_without_its_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)
    assert main(["serve"]) == EXIT_CODES["EXTRA_MISSING"] == 12
    assert "pip install 'unchrome[serve]'" in capsys.readouterr().err


def test_warc_without_its_extra_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "crawl.warc.gz"
    archive.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "fastwarc", None)
    code = main(["warc", str(archive), "--out", str(tmp_path / "pages.jsonl")])
    assert code == EXIT_CODES["EXTRA_MISSING"]
    assert "pip install 'unchrome[warc]'" in capsys.readouterr().err
    assert not (tmp_path / "pages.jsonl").exists()


def test_a_zstd_page_without_the_warc_extra_names_it_and_gzip_still_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gzip

    monkeypatch.setitem(sys.modules, "fastwarc", None)
    monkeypatch.setitem(sys.modules, "fastwarc.stream_io", None)
    packed = tmp_path / "page.html.zst"
    packed.write_bytes(b"\x28\xb5\x2f\xfd" + b"\x00" * 16)  # the Zstandard magic
    assert main([str(packed)]) == EXIT_CODES["EXTRA_MISSING"]
    assert "pip install 'unchrome[warc]'" in capsys.readouterr().err

    story = "<html><body><article><p>" + "A gzipped story, read without any extra. " * 10
    gzipped = tmp_path / "page.html.gz"
    gzipped.write_bytes(gzip.compress((story + "</p></article></body></html>").encode()))
    assert main([str(gzipped), "--format", "text"]) == 0
    assert "A gzipped story" in capsys.readouterr().out
