"""The command line: local files offline, URLs against loopback servers (opted in)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import unchrome
from net.servers import LocalServer, page
from unchrome.cli import Progress, main
from unchrome.cli_options import EXIT_CODES
from unchrome.errors import ALL_ERRORS

ARTICLE = (
    b"<!doctype html><html><head><title>A story</title></head><body><article><h1>A story</h1>"
    + "<p>This is a paragraph of the story, caf\u00e9 included, with words.</p>".encode() * 6
    + b"</article></body></html>"
)
BOT_WALL = (
    b"<html><head><title>Just a moment...</title></head><body>"
    b"<h2>Checking if the site connection is secure</h2></body></html>"
)


@pytest.fixture
def server() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as s:
        s.routes.update(
            {
                "/story": page(ARTICLE),
                "/other": page(ARTICLE.replace(b"A story", b"Other story")),
                "/gone": page(b"<html></html>", status=404),
                "/wall": page(BOT_WALL),
                "/pdf": page(b"%PDF-1.4", content_type="application/pdf"),
            }
        )
        yield s


def opt_in(s: LocalServer) -> list[str]:
    return ["--allow-address", "127.0.0.1/32", "--allow-port", str(s.port)]


@pytest.fixture
def article(tmp_path: Path) -> Path:
    path = tmp_path / "story.html"
    path.write_bytes(ARTICLE)
    return path


def test_local_file_prints_markdown(article: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(article)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# A story") and "café included" in out


@pytest.mark.parametrize("fmt, probe", [("text", "café included"), ("html", "<p>"),
                                        ("json", '"title": "A story"')])  # fmt: skip
def test_formats(fmt: str, probe: str, article: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(article), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert probe in out and not out.startswith("# A story")
    if fmt == "json":
        assert json.loads(out)["kind"] == "article"


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE)))
    assert main(["-", "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "A story"


def test_url_is_read(server: LocalServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([server.url("/story"), *opt_in(server)]) == 0
    assert capsys.readouterr().out.startswith("# A story")


def test_loopback_without_opt_in_is_refused(
    server: LocalServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([server.url("/story"), "--allow-port", str(server.port)]) == 4
    assert "FORBIDDEN_ADDRESS" in capsys.readouterr().err
    assert server.requests == []


@pytest.mark.parametrize("path, code", [("/gone", 6), ("/wall", 5), ("/pdf", 7)])
def test_failure_exit_codes(
    path: str, code: int, server: LocalServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([server.url(path), *opt_in(server)]) == code
    assert capsys.readouterr().out == ""


def test_bad_inputs_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "missing.html")]) == 3
    assert main(["http://user@example.com/"]) == 3
    assert "INVALID_URL" in capsys.readouterr().err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["x.html", "--format", "pdf"])
    assert info.value.code == 2


def test_invalid_css_selector_is_a_usage_error_naming_it(
    article: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([str(article), "--target-selector", "div[[["])
    assert info.value.code == 2
    assert "'div[[[' is not a valid CSS selector" in capsys.readouterr().err


def test_favor_is_an_option_with_three_choices(
    article: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(article), "-f", "text", "--favor", "precision"]) == 0
    assert capsys.readouterr().out.strip()
    with pytest.raises(SystemExit) as info:
        main([str(article), "--favor", "everything"])
    assert info.value.code == 2
    assert "--favor" in capsys.readouterr().err


def test_every_named_error_has_its_own_exit_code() -> None:
    codes = {cls.code: EXIT_CODES.get(cls.code) for cls in ALL_ERRORS}
    assert all(v is not None and v not in (0, 1, 2) for v in codes.values()), codes


def test_url_list_to_out_dir(
    server: LocalServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text(
        f"# reading list\n{server.url('/story')}\n\n{server.url('/other')}\n{server.url('/gone')}\n"
    )
    out = tmp_path / "pages"
    assert main([str(urls), "--out", str(out), *opt_in(server)]) == 6  # the failed input
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 2 and all(f.endswith(".md") for f in files)
    texts = sorted(p.read_text() for p in out.iterdir())
    assert texts[0].startswith("# A story") and texts[1].startswith("# Other story")
    err = capsys.readouterr().err
    assert "2 ok, 1 failed" in err and "PAGE_NOT_FOUND" in err


def test_several_arguments_print_in_order(
    server: LocalServer, article: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([server.url("/other"), str(article), *opt_in(server)]) == 0
    out = capsys.readouterr().out
    assert out.index("Other story") < out.index(f"==> {article} <==") < out.rindex("# A story")


def test_progress_bar_draws_on_a_terminal_only() -> None:
    tty = io.StringIO()
    bar = Progress(4, tty, enabled=True)
    for ok in (True, False, True, True):
        bar.step(ok)
    bar.close()
    assert "\r[" in tty.getvalue() and "4/4  failed 1" in tty.getvalue()
    quiet = io.StringIO()
    Progress(4, quiet, enabled=False).step(True)
    assert quiet.getvalue() == ""


def test_python_dash_m_works_offline(article: Path) -> None:
    src = str(Path(unchrome.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "unchrome", str(article), "-f", "text"],
        env=env, capture_output=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and "café included" in done.stdout.decode("utf-8")
    helped = subprocess.run([sys.executable, "-m", "unchrome", "serve", "--help"], env=env,
                            capture_output=True, timeout=60)  # fmt: skip
    assert helped.returncode == 0 and b"--port" in helped.stdout


def test_the_command_line_runs_numpys_blas_on_one_thread_unless_told_otherwise(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # unchrome does no linear algebra; OpenBLAS's spinning threads only competed with
    # the extraction. A caller's own setting stands.
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
    assert capsys.readouterr().out.startswith("unchrome ")
