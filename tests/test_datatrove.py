"""The datatrove step, in a small local pipeline."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

pytest.importorskip("datatrove")

from datatrove.data import Document
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.writers import JsonlWriter

from unchrome.scale.datatrove import Unchrome
from warcs import article


def documents() -> list[Document]:
    return [
        Document(text=article("First").decode(), id="1", metadata={"url": "https://a.example/1"}),
        Document(text="<html><body></body></html>", id="2", metadata={}),
        Document(text=article("Second").decode(), id="3", metadata={"url": "https://a.example/3"}),
    ]


def run(tmp_path: Path, step: Unchrome) -> list[dict]:
    out = tmp_path / "out"
    executor = LocalPipelineExecutor(
        pipeline=[documents(), step, JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    )
    executor.run()
    lines: list[dict] = []
    for path in sorted(out.glob("*.jsonl.gz")):
        lines += [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    return lines


def test_a_local_pipeline_extracts_and_drops_empty_pages(tmp_path: Path) -> None:
    docs = run(tmp_path, Unchrome(timeout=5))
    assert [d["id"] for d in docs] == ["1", "3"]
    assert "Paragraph 0 of First" in docs[0]["text"]
    assert "<p>" not in docs[0]["text"] and "Home" not in docs[0]["text"]
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    step = next(s for s in stats if "unchrome" in s["name"])
    assert step["stats"]["dropped"] == 1 and step["stats"]["forwarded"] == 2


def test_markdown_output(tmp_path: Path) -> None:
    docs = run(tmp_path, Unchrome(timeout=5, output="markdown"))
    assert docs[0]["text"].startswith("# First")


def test_a_bad_output_is_refused() -> None:
    with pytest.raises(ValueError):
        Unchrome(output="html")
