"""extract_file: reads stay inside the root, errors name only the file, size is capped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import unchrome
from unchrome import Config, Extractor, FileAccessError
from unchrome.inputs import read_confined

MiB = 1024 * 1024
STORY = (
    "The museum reopened its east wing on Saturday after two years of repairs to the roof, "
    "and the first visitors queued in the rain long before the doors opened at ten.",
    "Curators used the closure to rehang the collection by century rather than by donor, "
    "which they said makes it far easier for school groups to follow the story.",
)
HTML = (
    "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>East wing reopens</title>"
    "</head><body><article>" + "".join(f"<p>{p}</p>" for p in STORY) + "</article></body></html>"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = tmp_path / "allowed-root-dir"
    base.mkdir()
    (base / "story.html").write_text(HTML, encoding="utf-8")
    (base / "sub").mkdir()
    (base / "sub" / "nested.html").write_text(HTML, encoding="utf-8")
    return base


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret_dir = tmp_path / "secret-place"
    secret_dir.mkdir()
    secret = secret_dir / "secret.html"
    secret.write_text(HTML.replace("East wing", "Top secret"), encoding="utf-8")
    return secret


def _assert_no_path_leak(exc: FileAccessError, *dirs: Path) -> None:
    message = str(exc)
    for d in dirs:
        assert str(d) not in message
        assert d.name not in message  # not even the folder names
    assert exc.code == "FILE_ACCESS"
    assert str(exc.to_dict()["message"]) == message


def test_file_inside_root_is_extracted(root: Path):
    result = unchrome.extract_file("story.html", root=root, url="https://museum.example/news")
    assert result.title == "East wing reopens"
    for paragraph in STORY:
        assert paragraph in result.text
    assert result.truncated is False


def test_nested_and_absolute_paths_inside_root(root: Path):
    assert STORY[0] in unchrome.extract_file("sub/nested.html", root=root).text
    assert STORY[0] in unchrome.extract_file(root / "sub" / "nested.html", root=root).text
    # ".." that stays inside the root is fine.
    assert STORY[0] in unchrome.extract_file("sub/../story.html", root=root).text


def test_extractor_method_uses_its_config(root: Path):
    extractor = Extractor(Config(include_selector="p:first-child"))
    result = extractor.extract_file("story.html", root=root)
    assert result.text == STORY[0]


@pytest.mark.parametrize(
    "relative", ["../secret-place/secret.html", "sub/../../secret-place/secret.html"]
)
def test_dotdot_escape_is_refused(root: Path, outside: Path, relative: str):
    with pytest.raises(FileAccessError) as info:
        unchrome.extract_file(relative, root=root)
    assert "secret.html" in str(info.value)
    _assert_no_path_leak(info.value, root, outside.parent)


def test_absolute_path_outside_root_is_refused(root: Path, outside: Path):
    with pytest.raises(FileAccessError) as info:
        unchrome.extract_file(outside, root=root)
    _assert_no_path_leak(info.value, root, outside.parent)


def test_symlink_to_a_file_outside_root_is_refused(root: Path, outside: Path):
    link = root / "innocent.html"
    link.symlink_to(outside)
    with pytest.raises(FileAccessError) as info:
        unchrome.extract_file("innocent.html", root=root)
    assert "innocent.html" in str(info.value)
    _assert_no_path_leak(info.value, root, outside.parent)


def test_symlinked_directory_outside_root_is_refused(root: Path, outside: Path):
    (root / "docs").symlink_to(outside.parent, target_is_directory=True)
    with pytest.raises(FileAccessError) as info:
        unchrome.extract_file("docs/secret.html", root=root)
    _assert_no_path_leak(info.value, root, outside.parent)


def test_symlink_inside_root_is_followed(root: Path):
    (root / "alias.html").symlink_to(root / "sub" / "nested.html")
    assert STORY[1] in unchrome.extract_file("alias.html", root=root).text


def test_missing_file(root: Path):
    with pytest.raises(FileAccessError) as info:
        unchrome.extract_file("sub/missing-page.html", root=root)
    assert "missing-page.html" in str(info.value)
    _assert_no_path_leak(info.value, root)


def test_symlink_loop_and_dangling_link(root: Path):
    (root / "loop.html").symlink_to(root / "loop.html")
    (root / "dangling.html").symlink_to(root / "nowhere.html")
    for name in ("loop.html", "dangling.html"):
        with pytest.raises(FileAccessError) as info:
            unchrome.extract_file(name, root=root)
        _assert_no_path_leak(info.value, root)


def test_directory_is_not_a_file(root: Path):
    with pytest.raises(FileAccessError) as info:
        unchrome.extract_file("sub", root=root)
    _assert_no_path_leak(info.value, root)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(root: Path):
    target = root / "locked.html"
    target.write_text(HTML, encoding="utf-8")
    target.chmod(0)
    try:
        with pytest.raises(FileAccessError) as info:
            unchrome.extract_file("locked.html", root=root)
        _assert_no_path_leak(info.value, root)
    finally:
        target.chmod(0o644)


def test_big_file_is_capped_and_marked_truncated(root: Path):
    padding = b"<!-- " + b"filler " * ((5 * MiB) // 7) + b" -->"
    big = root / "big.html"
    big.write_bytes(HTML.encode().replace(b"</body>", padding + b"</body>"))
    assert big.stat().st_size > 5 * MiB
    cap = 1 * MiB
    result = unchrome.extract_file("big.html", root=root, config=Config(max_input_bytes=cap))
    assert result.truncated is True
    for paragraph in STORY:
        assert paragraph in result.text


def test_read_confined_reads_no_more_than_cap_plus_one(root: Path):
    big = root / "big.bin.html"
    big.write_bytes(b"<p>" + b"x" * (5 * MiB))
    data = read_confined("big.bin.html", root=root, max_bytes=1000)
    assert len(data) == 1001


def test_file_at_exactly_the_cap_is_not_truncated(root: Path):
    data = HTML.encode()
    (root / "exact.html").write_bytes(data)
    result = unchrome.extract_file(
        "exact.html", root=root, config=Config(max_input_bytes=len(data))
    )
    assert result.truncated is False
    assert STORY[1] in result.text
