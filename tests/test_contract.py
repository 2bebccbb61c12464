"""One product, one contract: the CLI, the library, the service and the batch rows give
the same fields for the same page, named as unchrome.schema names them.

Every door is used as a user uses it: the CLI and ``unchrome warc`` as subprocesses, the
service as a real uvicorn process on loopback (started by tests/test_serve.py's helper).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import pydoc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli
import httpx
import pytest
from fastwarc.stream_io import ZstdWriter

import unchrome
from net.servers import LocalServer, page
from test_serve import AUTH, _running_service
from unchrome import Config, Result, schema
from unchrome.scale.batch import COLUMNS

STORY = Path(__file__).parent / "fixtures" / "contract" / "story.html"
URL = "https://gazette.example/news/ferry-timetable"
SRC = str(Path(unchrome.__file__).resolve().parent.parent)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
# What differs from run to run, whatever the door.
VOLATILE = {"processing_time"}


def cli(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "unchrome", *args],
        input=stdin,
        capture_output=True,
        env=ENV,
        cwd=cwd,
        timeout=120,
    )


def out(done: subprocess.CompletedProcess) -> str:
    return done.stdout.decode("utf-8")


def err(done: subprocess.CompletedProcess) -> str:
    return done.stderr.decode("utf-8")


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """The YAML front matter's fields and the content after it. Its values are JSON
    strings (YAML's double-quoted scalars), read here as JSON."""
    lines = text.split("\n")
    assert lines[0] == "---", text[:200]
    end = lines.index("---", 1)
    fields = {}
    for line in lines[1:end]:
        key, _, value = line.partition(": ")
        fields[key] = json.loads(value)
    return fields, "\n".join(lines[end + 1 :])


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    """The story served over HTTP on loopback, for the doors that fetch."""
    with LocalServer("127.0.0.1") as server:
        server.routes["/news/ferry-timetable"] = page(STORY.read_bytes())
        yield server


@pytest.fixture(scope="module")
def service(site: LocalServer) -> Iterator[str]:
    allow = {"UNCHROME_ALLOW_ADDRESSES": "127.0.0.1/32", "UNCHROME_ALLOW_PORTS": str(site.port)}
    yield from _running_service(allow, subprocess.PIPE, "warning")


@pytest.fixture(scope="module")
def library() -> dict[str, Any]:
    # The file, as the CLI reads it: the same fields, its source (the path) included.
    return unchrome.extract_file(STORY, url=URL).to_dict()


# ------------------------------------------------------------------ the same page


def test_the_cli_with_url_gives_the_librarys_fields(library: dict[str, Any]) -> None:
    done = cli(str(STORY), "--url", URL, "--format", "json")
    assert done.returncode == 0, err(done)
    got = json.loads(out(done))
    assert list(got) == list(schema.names(schema.LIBRARY))
    assert {k: v for k, v in got.items() if k not in VOLATILE} == {
        k: v for k, v in library.items() if k not in VOLATILE
    }
    # The links are the page's own, made absolute against --url ...
    assert "(https://gazette.example/news/notes/trials.html)" in got["markdown"]
    # ... where without it they stay as the file has them.
    plain = json.loads(out(cli(str(STORY), "--format", "json")))
    assert "(notes/trials.html)" in plain["markdown"] and plain["url"] is None


def test_standard_input_takes_url_too(library: dict[str, Any]) -> None:
    done = cli("-", "--url", URL, "--format", "markdown", stdin=STORY.read_bytes())
    assert done.returncode == 0, err(done)
    assert out(done) == library["markdown"] + "\n"


def test_url_is_for_one_file_or_standard_input(tmp_path: Path) -> None:
    two = cli(str(STORY), str(STORY), "--url", URL)
    assert two.returncode == 2 and "--url gives the URL of one FILE" in err(two)
    assert cli("https://gazette.example/", "--url", URL).returncode == 2
    bad = cli(str(STORY), "--url", "gazette.example/x")
    assert bad.returncode == 2 and "absolute http(s) URL" in err(bad)


def test_the_service_answers_the_librarys_fields(service: str, library: dict[str, Any]) -> None:
    for fmt in ("markdown", "text", "html"):
        resp = httpx.post(
            service + "/v1/extract",
            params={"url": URL, "format": fmt},
            content=STORY.read_bytes(),
            headers={**AUTH, "Content-Type": "text/html"},
            timeout=30,
        )
        assert resp.status_code == 200, resp.text
        body = resp.json()
        others = {c for c in schema.CONTENT if c != fmt}
        assert list(body) == [n for n in schema.names(schema.SERVICE) if n not in others]
        assert body["format"] == fmt
        for name, value in body.items():
            if name not in VOLATILE | {"format"}:
                assert value == library[name], name


def test_reading_a_url_gives_the_same_fields_in_the_cli_and_the_service(
    service: str, site: LocalServer
) -> None:
    url = site.url("/news/ferry-timetable")
    expected = unchrome.extract(STORY.read_bytes(), url=url).to_dict()
    done = cli(
        url, "--format", "json", "--allow-address", "127.0.0.1/32",
        "--allow-port", str(site.port),
    )  # fmt: skip
    assert done.returncode == 0, err(done)
    fetched = json.loads(out(done))
    read = httpx.post(service + "/v1/read", json={"url": url}, headers=AUTH, timeout=30).json()
    for name, value in read.items():
        if name not in VOLATILE | {"format"}:
            assert value == fetched[name] == expected[name], name
    reader = httpx.get(
        service + "/r/" + url, headers={**AUTH, "X-With-Metadata": "true"}, timeout=30
    )
    assert reader.status_code == 200, reader.text
    # The front matter says the metadata, once: no Title: / URL Source: header above it.
    fields, body = front_matter(reader.text)
    assert fields["url"] == url and body == "\n" + expected["markdown"]
    assert "Title:" not in reader.text and "Markdown Content:" not in reader.text


def test_the_warc_rows_give_the_librarys_fields(tmp_path: Path, library: dict[str, Any]) -> None:
    rows_path = tmp_path / "rows.jsonl"
    done = cli("warc", str(STORY), "--url", URL, "-o", str(rows_path), "-j", "1")
    assert done.returncode == 0, err(done)
    assert "1 record in" in err(done)  # one record, not "1 records"
    (row,) = [json.loads(line) for line in rows_path.read_text().splitlines()]
    assert list(row) == [name for name, _ in COLUMNS] == list(schema.names(schema.ROWS))
    assert row["status"] == "ok" and row["hostname"] == "gazette.example"
    for name in (*schema.ROW_RESULT_FIELDS, "url", "markdown", "text"):
        assert row[name] == library[name], name


# ------------------------------------------------------------------ the schema


def test_result_fields_are_the_schemas_library_fields() -> None:
    from dataclasses import fields

    declared = [f.name for f in fields(Result) if not f.name.startswith("_")]
    lazy = ["markdown", "html", "images", "links", "videos", "audios"]  # InitVars
    assert set(declared) | set(lazy) == set(schema.names(schema.LIBRARY))


def test_openapi_describes_the_answers_and_the_reader_headers(service: str) -> None:
    spec = httpx.get(service + "/openapi.json").json()
    answer = spec["components"]["schemas"]["ReadResponse"]["properties"]
    assert list(answer) == list(schema.names(schema.SERVICE))
    assert "date_modified" in answer and "site" not in answer and "hero_image_url" not in answer
    assert answer["image"]["description"] == schema.BY_NAME["image"].meaning
    headers = {
        p["name"].lower()
        for p in spec["paths"]["/r/{target}"]["get"]["parameters"]
        if p["in"] == "header"
    }
    assert {
        "x-return-format",
        "x-target-selector",
        "x-remove-selector",
        "x-favor",
        "x-with-metadata",
        "accept",
    } <= headers
    reader = spec["paths"]["/r/{target}"]["get"]["responses"]["200"]["content"]
    assert {"text/plain", "application/json"} <= set(reader)


def test_the_readme_carries_the_schema_table() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert schema.markdown_table() in readme


# ------------------------------------------------------------------ --with-metadata


def test_with_metadata_opens_the_markdown_with_yaml_front_matter(library: dict[str, Any]) -> None:
    done = cli(str(STORY), "--url", URL, "--with-metadata")
    assert done.returncode == 0, err(done)
    fields, body = front_matter(out(done))
    assert list(fields) == list(schema.FRONT_MATTER)
    # The title's colon and quotes stay inside one string.
    assert fields["title"] == 'Harbour ferry: "winter timetable" delayed' == library["title"]
    assert fields["url"] == URL and fields["image"] == "https://gazette.example/img/ferry.jpg"
    assert (fields["date"], fields["date_modified"]) == (library["date"], library["date_modified"])
    assert body == "\n" + library["markdown"] + "\n"
    text = cli(str(STORY), "--url", URL, "--with-metadata", "--format", "text")
    # The text document opens with the headline, as the Markdown does.
    headline = library["markdown"].partition("\n")[0].removeprefix("# ")
    assert front_matter(out(text))[1] == f"\n{headline}\n\n{library['text']}\n"


def test_with_metadata_in_the_library_is_a_rendering_choice() -> None:
    result = unchrome.extract(STORY.read_bytes(), url=URL)
    fields, body = front_matter(result.to_markdown(with_metadata=True))
    assert fields["author"] == "Ana Ribeiro" and body == "\n" + result.markdown
    assert result.to_markdown() == result.markdown  # the body itself is unchanged
    bare = unchrome.extract("<title>Only a title</title><p>" + "Words here. " * 20 + "</p>")
    assert front_matter(bare.to_text(with_metadata=True))[0] == {"title": "Only a title"}


def test_authors_is_the_list_of_names_that_author_joins(library: dict[str, Any]) -> None:
    assert library["authors"] == ["Ana Ribeiro"] and library["author"] == "Ana Ribeiro"
    two = unchrome.extract(
        '<meta name="author" content="By Ana Ribeiro and Rui Costa"><h1>Ferry</h1><p>'
        + "The ferry runs late this winter. " * 10
        + "</p>"
    )
    assert two.authors == ["Ana Ribeiro", "Rui Costa"] and two.author == "Ana Ribeiro, Rui Costa"
    assert json.loads(two.to_json())["authors"] == ["Ana Ribeiro", "Rui Costa"]


def test_with_metadata_needs_a_format_that_can_carry_it() -> None:
    for fmt in ("json", "html"):
        done = cli(str(STORY), "--with-metadata", "--format", fmt)
        assert done.returncode == 2 and "--with-metadata applies to" in err(done)


def test_with_metadata_in_the_service(service: str) -> None:
    raw = httpx.post(
        service + "/v1/extract",
        params={"url": URL},
        content=STORY.read_bytes(),
        headers={**AUTH, "Content-Type": "text/html", "X-With-Metadata": "true"},
    )
    assert raw.status_code == 200, raw.text
    assert front_matter(raw.json()["markdown"])[0]["site_name"] == "Coast Gazette"
    body = {"html": STORY.read_text(), "url": URL, "format": "text", "with_metadata": True}
    js = httpx.post(service + "/v1/extract", json=body, headers=AUTH)
    assert front_matter(js.json()["text"])[0]["author"] == "Ana Ribeiro"
    plain = httpx.post(service + "/v1/extract", json={**body, "with_metadata": False}, headers=AUTH)
    assert not plain.json()["text"].startswith("---")
    refused = httpx.post(service + "/v1/extract", json={**body, "format": "html"}, headers=AUTH)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "INVALID_INPUT"
    odd = httpx.post(
        service + "/v1/extract",
        content=STORY.read_bytes(),
        headers={**AUTH, "Content-Type": "text/html", "X-With-Metadata": "maybe"},
    )
    assert odd.status_code == 400


# ------------------------------------------------------------------ inputs


def _zstd(data: bytes) -> bytes:
    buffer = io.BytesIO()
    writer = ZstdWriter(buffer)
    writer.write(data)
    writer.close()
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "pack"),
    [
        ("story.html.gz", gzip.compress),
        ("story.html.zst", _zstd),
        ("story.html.br", brotli.compress),
    ],
)
def test_compressed_pages_read_as_the_page(tmp_path: Path, name: str, pack: Any) -> None:
    packed = tmp_path / name
    packed.write_bytes(pack(STORY.read_bytes()))
    plain = cli(str(STORY), "--url", URL)
    done = cli(str(packed), "--url", URL)
    assert done.returncode == 0, err(done)
    assert out(done) == out(plain)
    rows_path = tmp_path / "rows.jsonl"
    assert cli("warc", str(tmp_path), "-o", str(rows_path), "-j", "1").returncode == 0
    (row,) = [json.loads(line) for line in rows_path.read_text().splitlines()]
    assert row["status"] == "ok" and row["title"].startswith("Harbour ferry")


def test_compressed_standard_input(library: dict[str, Any]) -> None:
    done = cli("-", "--url", URL, stdin=gzip.compress(STORY.read_bytes()))
    assert done.returncode == 0, err(done)
    assert out(done) == library["markdown"] + "\n"


def test_a_corrupt_compressed_page_is_invalid_input(tmp_path: Path) -> None:
    broken = tmp_path / "page.html.gz"
    broken.write_bytes(gzip.compress(STORY.read_bytes())[:200])
    done = cli(str(broken))
    assert done.returncode == 3 and "INVALID_INPUT: cannot decompress" in err(done)


def test_a_page_that_inflates_past_the_cap_is_cut_there_and_said(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.html.gz"
    story = STORY.read_bytes()
    # 64 MiB of markup in about 250 KB: only the first 4 MiB are ever inflated.
    bomb.write_bytes(gzip.compress(story + b"<p>" + b"word " * (64 << 18) + b"</p>"))
    done = cli(str(bomb), "--format", "text")
    assert done.returncode == 0, err(done)
    assert "warning: the input is over 4 MiB" in err(done) and "(truncated)" in err(done)
    assert "The ferry company said" in out(done)
    js = cli(str(bomb), "--format", "json")
    assert json.loads(out(js))["truncated"] is True and "warning" not in err(js)


def test_a_page_under_the_cap_gives_no_warning() -> None:
    done = cli(str(STORY))
    assert done.returncode == 0 and err(done) == ""


@pytest.fixture
def upstream() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        server.routes["/story"] = page(STORY.read_bytes())
        yield server


def test_a_bad_line_of_a_url_list_is_that_lines_error(
    tmp_path: Path, upstream: LocalServer
) -> None:
    urls = tmp_path / "urls.txt"
    good = upstream.url("/story")
    urls.write_text(f"# reading list\n{good}\nnot a url\n\n{good}?again\n", encoding="utf-8")
    pages = tmp_path / "pages"
    done = cli(
        str(urls), "--out", str(pages), "--allow-address", "127.0.0.1/32",
        "--allow-port", str(upstream.port),
    )  # fmt: skip
    assert done.returncode == 3  # INVALID_URL, of the list's third line
    assert f"{urls}:3: INVALID_URL: 'not a url' is not an http(s) URL" in err(done)
    assert "2 ok, 1 failed" in err(done)
    assert len(list(pages.iterdir())) == 2  # the two pages; never the list itself
    assert not (pages / "urls.md").exists()


def test_a_txt_file_of_markup_is_a_page(tmp_path: Path) -> None:
    saved = tmp_path / "saved.txt"
    saved.write_bytes(STORY.read_bytes())
    done = cli(str(saved), "--format", "text")
    assert done.returncode == 0 and "The ferry company said" in out(done)


# ------------------------------------------------------------------ unchrome warc


def test_warc_on_a_directory_with_a_base_url(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "news").mkdir(parents=True)
    (site / "news" / "ferry.html.gz").write_bytes(gzip.compress(STORY.read_bytes()))
    rows_path = tmp_path / "rows.jsonl"
    base = "https://gazette.example/"
    done = cli("warc", str(site), "--url", base, "-o", str(rows_path), "-j", "1")
    assert done.returncode == 0, err(done)
    (row,) = [json.loads(line) for line in rows_path.read_text().splitlines()]
    assert row["url"] == "https://gazette.example/news/ferry.html"
    # Links resolve against the page's own URL: "notes/trials.html" sits beside it.
    assert "(https://gazette.example/news/notes/trials.html)" in row["markdown"]


def test_warc_takes_the_pages_own_canonical_url(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "saved.html").write_bytes(STORY.read_bytes())
    rows_path = tmp_path / "rows.jsonl"
    done = cli("warc", str(tmp_path / "site"), "--url-from-canonical", "-o", str(rows_path))
    assert done.returncode == 0, err(done)
    (row,) = [json.loads(line) for line in rows_path.read_text().splitlines()]
    assert row["url"] == URL and row["canonical_url"] == URL
    assert "(https://gazette.example/news/notes/trials.html)" in row["markdown"]


def test_warc_url_options_are_for_html_files(tmp_path: Path) -> None:
    warc = tmp_path / "crawl.warc.gz"
    warc.write_bytes(b"")
    done = cli("warc", str(warc), "--url", URL)
    assert done.returncode == 2 and "apply to HTML files and directories" in err(done)


def test_warc_refuses_an_output_name_it_cannot_write(tmp_path: Path) -> None:
    csv = tmp_path / "pages.csv"
    done = cli("warc", str(STORY), "-o", str(csv))
    assert done.returncode == 2 and "cannot tell the output format of 'pages.csv'" in err(done)
    assert not csv.exists()
    forced = cli("warc", str(STORY), "-o", str(csv), "--output-format", "jsonl", "-j", "1")
    assert forced.returncode == 0 and json.loads(csv.read_text())["status"] == "ok"


# ------------------------------------------------------------------ small things


def test_version() -> None:
    from importlib.metadata import version

    done = cli("--version")
    assert done.returncode == 0 and out(done).strip() == f"unchrome {version('unchrome')}"


def test_repr_of_a_result_shows_metadata_and_sizes_not_the_text() -> None:
    sentence = "A long sentence of the documentation page, number {}. "
    paragraphs = "".join(f"<p>{sentence.format(i) * 20}</p>" for i in range(40))
    result = unchrome.extract(f"<title>Docs</title><main>{paragraphs}</main>")
    assert len(result.text) > 40_000
    shown = repr(result)
    assert len(shown) < 300 and "title='Docs'" in shown
    assert f"text=<{len(result.text):,} chars>" in shown
    assert result._markdown is None  # nothing rendered to be printed


def test_help_documents_every_field() -> None:
    from dataclasses import fields

    config_help = pydoc.render_doc(Config, renderer=pydoc.plaintext)
    for f in fields(Config):
        assert f"{f.name} (" in config_help or f"{f.name}," in config_help, f.name
    result_help = pydoc.render_doc(Result, renderer=pydoc.plaintext)
    for field in schema.fields(schema.LIBRARY):
        assert f"{field.name} ({field.type}" in result_help and field.meaning in result_help


def test_docs_load_without_the_internet(service: str) -> None:
    page_ = httpx.get(service + "/docs")
    assert page_.status_code == 200
    assert "/docs/assets/swagger-ui-bundle.js" in page_.text
    assert "cdn" not in page_.text.lower()
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        got = httpx.get(f"{service}/docs/assets/{asset}")
        assert got.status_code == 200 and len(got.content) > 100_000


def test_a_body_sent_as_a_form_gets_a_hint(service: str) -> None:
    # What curl --data-binary @page.html sends without -H 'Content-Type: text/html'.
    resp = httpx.post(
        service + "/v1/extract",
        content=STORY.read_bytes(),
        headers={**AUTH, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert resp.status_code == 415
    message = resp.json()["error"]["message"]
    assert "Content-Type: text/html" in message and "application/json" in message


def test_messages_use_the_right_article(tmp_path: Path) -> None:
    elf = tmp_path / "tool.html"
    elf.write_bytes(b"\x7fELF" + bytes(200))
    done = cli(str(elf))
    assert done.returncode == 7 and "the input is an executable, not HTML" in err(done)
    with pytest.raises(unchrome.ForbiddenAddress) as info:
        unchrome.read("http://0.0.0.0/")
    assert "an unspecified" in str(info.value)
