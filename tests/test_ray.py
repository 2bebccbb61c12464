"""unchrome on Ray Data: the same rows as the local pool, from a local Ray with two CPUs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
# Ray Data warns about its own deprecated settings when it reads its context: not ours.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.data.context")
pytest.importorskip("ray.data")

import unchrome.scale.ray as unchrome_ray  # noqa: E402
from unchrome.cli import main  # noqa: E402
from unchrome.errors import FileAccessError, InvalidInput  # noqa: E402
from unchrome.scale.batch import extract_pages  # noqa: E402
from unchrome.scale.warc import WarcReader  # noqa: E402
from warcs import Rec, article, member, write_warc  # noqa: E402


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("ray")
    first = write_warc(
        root / "first.warc.gz",
        [
            Rec("https://a.example/0", kind="request"),
            *(Rec(f"https://a.example/{i}", article(f"Story {i}")) for i in range(7)),
            member(Rec("https://a.example/cut", article("Cut")))[:150],
            Rec("https://a.example/empty", b"<html><body></body></html>"),
            Rec("https://a.example/bin", bytes(range(256)) * 50),
        ],
    )
    second = write_warc(
        root / "second.warc",
        [Rec(f"https://b.example/{i}", article(f"Other {i}")) for i in range(4)],
    )
    return [first, second]


def test_read_warc_has_one_read_task_per_file_and_every_page(
    local_ray: None, warcs: list[Path]
) -> None:
    source = unchrome_ray.WarcDatasource(warcs, rows_per_block=3)
    tasks = source.get_read_tasks(parallelism=16)
    assert len(tasks) == 2
    # A task streams its file in blocks of rows_per_block pages.
    blocks = list(tasks[0]())
    assert [b.num_rows for b in blocks] == [3, 3, 3, 1]
    ds = unchrome_ray.read_warc(warcs, rows_per_block=3)
    assert ds.count() == 10 + 4
    assert ds.schema().names == unchrome_ray.PAGE_SCHEMA.names


def test_ray_rows_equal_the_local_pool_rows(local_ray: None, warcs: list[Path]) -> None:
    local = list(extract_pages(WarcReader(warcs), jobs=2))
    rows = unchrome_ray.extract(unchrome_ray.read_warc(warcs, rows_per_block=4)).take_all()
    on_ray = [{name: row.get(name) for name in local[0]} for row in rows]

    def key(row: dict) -> tuple[str, int]:
        return row["source"], row["warc_offset"]

    assert sorted(on_ray, key=key) == sorted(local, key=key)
    assert {r["status"] for r in local} == {
        "ok",
        "INVALID_INPUT",
        "EXTRACT_FAILED",
        "UNSUPPORTED_CONTENT",
    }


def test_write_parquet_is_three_lines(local_ray: None, warcs: list[Path], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    ds = unchrome_ray.read_warc(warcs)
    rows = unchrome_ray.extract(ds, fmt="text", isolate=False, concurrency=1)
    rows.write_parquet(str(tmp_path / "out"))
    table = pq.read_table(tmp_path / "out")
    assert table.num_rows == 14
    assert table.column("markdown").null_count == 14


def test_the_cli_on_ray_writes_the_local_rows_in_order(
    local_ray: None, warcs: list[Path], tmp_path: Path
) -> None:
    local_out, ray_out = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert main(["warc", *map(str, warcs), "-o", str(local_out), "-j", "2"]) == 0
    assert main(["warc", *map(str, warcs), "-o", str(ray_out), "--engine", "ray"]) == 0
    assert ray.is_initialized()  # the command used the Ray it found and left it running
    local = [json.loads(line) for line in local_out.read_text().splitlines()]
    on_ray = [json.loads(line) for line in ray_out.read_text().splitlines()]
    assert on_ray == local


def test_bad_arguments(local_ray: None, tmp_path: Path) -> None:
    with pytest.raises(FileAccessError):
        unchrome_ray.read_warc([tmp_path / "nothere.warc.gz"])
    with pytest.raises(InvalidInput):
        unchrome_ray.WarcDatasource([])
    with pytest.raises(InvalidInput):
        unchrome_ray.Extract(fmt="pdf")
    with pytest.raises(SystemExit) as exc:
        main(["warc", str(tmp_path), "--engine", "ray"])
    assert exc.value.code == 2
