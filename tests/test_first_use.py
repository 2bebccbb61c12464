"""What a new user trips on (issue 42), each as that user meets it: the CLI as a
subprocess, the service as a real uvicorn process on loopback, the library as imported.

Reading a local address says how to allow it, and the CLI and the service read the same
settings; inputs and outputs behave the same everywhere (a WARC file, a gzip page or
body, the input named in every JSON row, a missing extra, the headline in every
rendering, headers and query alike, the metadata once, an unsupported scheme); the
switches trafilatura users reach for.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import unchrome
from net.servers import LocalServer, page
from test_serve import AUTH, _running_service
from unchrome import FetchConfig, InvalidInput, InvalidURL
from warcs import Rec, article, write_warc

SRC = str(Path(unchrome.__file__).resolve().parent.parent)
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
for _name in ("UNCHROME_ALLOW_PORTS", "UNCHROME_ALLOW_ADDRESSES", "UNCHROME_FETCH_DEADLINE"):
    ENV.pop(_name, None)  # the tests set them where they mean to

STORY = (
    "<p>The ferry company said on Friday that the winter timetable will start a week "
    "later than planned, because the new boat needs more sea trials.</p>"
    "<p>Passengers who already booked crossings will be moved to the old timetable "
    "automatically, and the company will write to each of them by the weekend.</p>"
    "<p>The harbour master said the delay was the right call for a boat this new.</p>"
)
# A headline the selection takes out of the body: the Markdown opens with it.
HEADLINED = (
    "<!doctype html><html lang='en'><head><title>Ferry timetable delayed</title></head>"
    "<body><nav><a href='/'>Home</a></nav><article><h1>Ferry timetable delayed</h1>"
    f"{STORY}</article></body></html>"
).encode()
# Tables, links, images and comments, for the switches.
RICH = (
    b"<!doctype html><html lang='en'><head><title>Harbour figures</title></head><body>"
    b"<article><h1>Harbour figures</h1>"
    b"<p>The harbour counted more crossings this year than last, <a href='/report'>the "
    b"annual report</a> says, and the new boat will add more of them next spring.</p>"
    b"<img src='/boat.jpg' alt='The new ferry at the quay'>"
    b"<table><tr><th>Year</th><th>Crossings</th></tr><tr><td>2023</td><td>41200</td></tr>"
    b"<tr><td>2024</td><td>45800</td></tr></table>"
    b"<p>The harbour master expects the count to pass fifty thousand within two years, "
    b"as the timetable grows.</p>"
    b"<div id='comments' class='comments'><h3>Comments</h3><p>Finally a second boat on "
    b"the crossing, the queues last summer were long for everybody.</p></div>"
    b"</article></body></html>"
)


def cli(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "unchrome", *args],
        input=stdin, capture_output=True, env={**ENV, **(env or {})}, timeout=120,
    )  # fmt: skip


def out(done: Any) -> str:
    return done.stdout.decode("utf-8")


def err(done: Any) -> str:
    return done.stderr.decode("utf-8")


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        server.routes["/story"] = page(HEADLINED)
        yield server


@pytest.fixture(scope="module")
def service(site: LocalServer) -> Iterator[str]:
    allow = {"UNCHROME_ALLOW_ADDRESSES": "127.0.0.1/32", "UNCHROME_ALLOW_PORTS": str(site.port)}
    yield from _running_service(allow, subprocess.PIPE, "warning")


@pytest.fixture
def headlined(tmp_path: Path) -> Path:
    path = tmp_path / "ferry.html"
    path.write_bytes(HEADLINED)
    return path


@pytest.fixture
def rich(tmp_path: Path) -> Path:
    path = tmp_path / "figures.html"
    path.write_bytes(RICH)
    return path


def extract(service: str, body: bytes, **kw: Any) -> httpx.Response:
    headers = {**AUTH, "Content-Type": "text/html", **kw.pop("headers", {})}
    return httpx.post(service + "/v1/extract", content=body, headers=headers, timeout=30, **kw)


# ------------------------------------------------------- reading a local address


def test_a_refused_port_names_the_flag_and_the_variable_that_allow_it(site: LocalServer) -> None:
    done = cli(site.url("/story"))
    assert done.returncode == 3 and "INVALID_URL" in err(done)
    port = site.port
    assert f"--allow-port {port}" in err(done) and f"UNCHROME_ALLOW_PORTS={port}" in err(done)
    assert f"FetchConfig(allow_ports=[{port}])" in err(done)


def test_a_refused_address_names_the_flag_and_the_variable_that_allow_it(
    site: LocalServer,
) -> None:
    before = len(site.requests)
    done = cli(site.url("/story"), "--allow-port", str(site.port))
    assert done.returncode == 4 and "FORBIDDEN_ADDRESS" in err(done)
    said = err(done)
    assert "--allow-address 127.0.0.1/32" in said
    assert "UNCHROME_ALLOW_ADDRESSES=127.0.0.1/32" in said
    assert "FetchConfig(allow_addresses=['127.0.0.1/32'])" in said
    assert len(site.requests) == before  # refused before any connection


def test_the_cli_reads_the_allow_variables_the_service_reads(
    site: LocalServer, service: str
) -> None:
    allow = {"UNCHROME_ALLOW_ADDRESSES": "127.0.0.1/32", "UNCHROME_ALLOW_PORTS": str(site.port)}
    done = cli(site.url("/story"), "-f", "json", env=allow)
    assert done.returncode == 0, err(done)
    assert json.loads(out(done))["title"] == "Ferry timetable delayed"
    # The service, started with the same variables, reads the same page.
    read = httpx.post(
        service + "/v1/read", json={"url": site.url("/story")}, headers=AUTH, timeout=30
    )
    assert read.status_code == 200 and read.json()["title"] == "Ferry timetable delayed"
    # The flags add to the variables: one from each allows the page too.
    mixed = cli(
        site.url("/story"), "--allow-port", str(site.port),
        env={"UNCHROME_ALLOW_ADDRESSES": "127.0.0.1/32"},
    )  # fmt: skip
    assert mixed.returncode == 0, err(mixed)


@pytest.mark.parametrize(
    "variable, value",
    [("UNCHROME_ALLOW_PORTS", "eighty"), ("UNCHROME_ALLOW_PORTS", "70000"),
     ("UNCHROME_ALLOW_ADDRESSES", "not-a-network"), ("UNCHROME_FETCH_DEADLINE", "soon")],
)  # fmt: skip
def test_a_bad_setting_in_the_environment_is_a_usage_error_naming_it(
    headlined: Path, variable: str, value: str
) -> None:
    done = cli(str(headlined), env={variable: value})
    assert done.returncode == 2 and variable in err(done)
    with pytest.raises(InvalidInput, match=variable):
        FetchConfig.from_env({variable: value})


def test_the_cli_reads_its_render_default_from_the_environment_too(headlined: Path) -> None:
    bad = cli(str(headlined), env={"UNCHROME_RENDER": "sometimes"})
    assert bad.returncode == 2 and "UNCHROME_RENDER must be one of never, auto, always" in err(bad)
    # A flag given wins over the environment's default.
    done = cli(str(headlined), "--render", "never", env={"UNCHROME_RENDER": "sometimes"})
    assert done.returncode == 0, err(done)


def test_fetch_config_names_its_opt_ins_as_the_flags_do(site: LocalServer) -> None:
    config = FetchConfig(allow_ports=[site.port], allow_addresses=["127.0.0.1/32"])
    assert config.allowed_ports == {80, 443, site.port}  # added to the defaults
    assert unchrome.read(site.url("/story"), fetch_config=config).title == (
        "Ferry timetable delayed"
    )
    with pytest.raises(InvalidURL, match=rf"FetchConfig\(allow_ports=\[{site.port}\]\)"):
        unchrome.read(site.url("/story"), fetch_config=FetchConfig())
    env = FetchConfig.from_env({"UNCHROME_ALLOW_PORTS": f"{site.port}, 8080"})
    assert env.allow_ports == (site.port, 8080) and env.allow_addresses == ()
    for bad in ({"allow_ports": 8080}, {"allow_ports": [True]}, {"allow_addresses": "10/8"}):
        with pytest.raises(InvalidInput):
            FetchConfig(**bad)


# ------------------------------------------------------------- inputs and outputs


def test_a_warc_file_given_to_the_main_command_names_unchrome_warc(tmp_path: Path) -> None:
    crawl = write_warc(
        tmp_path / "crawl.warc.gz",
        [Rec("https://a.example/1", article("Story one")),
         Rec("https://a.example/2", article("Story two"))],
    )  # fmt: skip
    done = cli(str(crawl))
    assert done.returncode == 7 and "UNSUPPORTED_CONTENT" in err(done)
    assert f"unchrome warc {crawl}" in err(done) and out(done) == ""
    piped = cli("-", stdin=crawl.read_bytes())
    assert piped.returncode == 7 and "unchrome warc" in err(piped)


def test_extract_file_reads_a_gzip_page_as_the_cli_does(tmp_path: Path) -> None:
    packed = tmp_path / "ferry.html.gz"
    packed.write_bytes(gzip.compress(HEADLINED))
    result = unchrome.extract_file(packed)
    assert result.title == "Ferry timetable delayed" and "winter timetable" in result.text
    assert result.source == str(packed)
    done = cli(str(packed), "-f", "json")
    assert json.loads(out(done))["text"] == result.text


def test_the_service_reads_a_gzip_body(service: str) -> None:
    packed = gzip.compress(HEADLINED)
    raw = extract(service, packed, headers={"Content-Encoding": "gzip"})
    assert raw.status_code == 200, raw.text
    assert raw.json()["title"] == "Ferry timetable delayed"
    as_json = httpx.post(
        service + "/v1/extract",
        content=gzip.compress(json.dumps({"html": HEADLINED.decode()}).encode()),
        headers={**AUTH, "Content-Type": "application/json", "Content-Encoding": "gzip"},
        timeout=30,
    )
    assert as_json.status_code == 200 and as_json.json()["markdown"] == raw.json()["markdown"]


@pytest.mark.parametrize(
    "coding, body, status, code",
    [("gzip", b"not gzip at all", 400, "INVALID_INPUT"),
     ("br", HEADLINED, 415, "UNSUPPORTED_CONTENT"),
     # 6 MB of zeros in a few kB: over the 5 MiB body limit once inflated.
     ("gzip", gzip.compress(b"<p>" + b"0" * 6_000_000), 413, "PAYLOAD_TOO_LARGE")],
)  # fmt: skip
def test_a_compressed_body_that_cannot_be_read_is_a_named_error(
    service: str, coding: str, body: bytes, status: int, code: str
) -> None:
    resp = extract(service, body, headers={"Content-Encoding": coding})
    assert resp.status_code == status and resp.json()["error"]["code"] == code


def test_every_json_row_names_its_input(
    headlined: Path, rich: Path, site: LocalServer, tmp_path: Path
) -> None:
    allow = ["--allow-address", "127.0.0.1/32", "--allow-port", str(site.port)]
    done = cli(str(headlined), str(rich), site.url("/story"), "-f", "json", *allow)
    assert done.returncode == 0, err(done)
    rows = [json.loads(line) for line in out(done).splitlines()]
    assert [row["source"] for row in rows] == [str(headlined), str(rich), site.url("/story")]
    assert rows[0]["url"] is None  # a file names no URL: the source says which it was
    piped = cli("-", "-f", "json", stdin=HEADLINED)
    assert json.loads(out(piped))["source"] == "-"
    assert unchrome.extract(HEADLINED).source is None  # bytes: no input to name


def test_parquet_without_pyarrow_is_extra_missing_exit_12(tmp_path: Path, rich: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['pyarrow'] = sys.modules['pyarrow.parquet'] = None  # not installed\n"
        "from unchrome.cli import main\n"
        f"sys.exit(main(['warc', {str(rich)!r}, '-o', {str(tmp_path / 'out.parquet')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=ENV, timeout=120)
    assert done.returncode == 12, err(done)
    assert "EXTRA_MISSING" in err(done) and "pip install 'unchrome[parquet]'" in err(done)


def test_engine_ray_without_ray_is_extra_missing_exit_12(tmp_path: Path) -> None:
    crawl = write_warc(tmp_path / "crawl.warc.gz", [Rec("https://a.example/1", article("One"))])
    code = (
        "import sys\n"
        "sys.modules['ray'] = sys.modules['ray.data'] = None  # not installed\n"
        "from unchrome.cli import main\n"
        f"sys.exit(main(['warc', {str(crawl)!r}, '--engine', 'ray', "
        f"'-o', {str(tmp_path / 'out.jsonl')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=ENV, timeout=120)
    assert done.returncode == 12, err(done)
    assert "pip install 'unchrome[ray]'" in err(done)
    assert not (tmp_path / "out.jsonl").exists()


def test_text_and_html_carry_the_headline_the_markdown_shows(headlined: Path) -> None:
    markdown = out(cli(str(headlined)))
    assert markdown.startswith("# Ferry timetable delayed\n\n")
    text = out(cli(str(headlined), "-f", "text"))
    assert text.startswith("Ferry timetable delayed\n\nThe ferry company said")
    html = out(cli(str(headlined), "-f", "html"))
    assert html.startswith("<h1>Ferry timetable delayed</h1>") and "The ferry company" in html
    assert text.count("Ferry timetable delayed") == markdown.count("Ferry timetable delayed") == 1
    # The field stays the body: what the benchmarks score, and what JSON carries.
    result = unchrome.extract(HEADLINED)
    assert result.text.startswith("The ferry company")
    assert json.loads(out(cli(str(headlined), "-f", "json")))["text"] == result.text


def test_the_readers_text_carries_the_headline_too(service: str, site: LocalServer) -> None:
    resp = httpx.get(
        service + "/r/" + site.url("/story"),
        headers={**AUTH, "X-Return-Format": "text"},
        timeout=30,
    )
    assert resp.status_code == 200, resp.text
    assert "Text Content:\nFerry timetable delayed\n\nThe ferry company" in resp.text


def test_x_return_format_means_on_extract_what_the_format_query_means(service: str) -> None:
    by_header = extract(service, HEADLINED, headers={"X-Return-Format": "text"})
    by_query = extract(service, HEADLINED, params={"format": "text"})
    assert by_header.status_code == by_query.status_code == 200
    assert by_header.json()["format"] == "text" and "markdown" not in by_header.json()
    assert by_header.json()["text"] == by_query.json()["text"]
    # The query, where given, wins over the header; a bad header is the caller's mistake.
    both = extract(service, HEADLINED, params={"format": "html"},
                   headers={"X-Return-Format": "text"})  # fmt: skip
    assert both.json()["format"] == "html"
    bad = extract(service, HEADLINED, headers={"X-Return-Format": "pdf"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "INVALID_INPUT"


def test_x_return_format_is_read_on_read_too(service: str, site: LocalServer) -> None:
    resp = httpx.post(
        service + "/v1/read",
        json={"url": site.url("/story")},
        headers={**AUTH, "X-Return-Format": "html"},
        timeout=30,
    )
    assert resp.status_code == 200 and resp.json()["format"] == "html"


def test_the_reader_says_the_metadata_once(service: str, site: LocalServer) -> None:
    resp = httpx.get(
        service + "/r/" + site.url("/story"),
        headers={**AUTH, "X-With-Metadata": "true"},
        timeout=30,
    )
    assert resp.status_code == 200, resp.text
    assert resp.text.startswith('---\ntitle: "Ferry timetable delayed"\n')
    assert "Title:" not in resp.text and "URL Source:" not in resp.text
    assert resp.text.count("Ferry timetable delayed") == 2  # the front matter and the headline


@pytest.mark.parametrize("url", ["ftp://example.com/x", "file:///etc/hostname"])
def test_an_unsupported_scheme_is_invalid_url_naming_the_schemes(url: str) -> None:
    done = cli(url)
    assert done.returncode == 3, err(done)
    assert "INVALID_URL" in err(done) and "use http or https" in err(done)
    assert "FILE_ACCESS" not in err(done)


# ------------------------------------------------------------- the switches


def test_the_switches_trafilatura_users_reach_for(rich: Path) -> None:
    full = out(cli(str(rich)))
    assert "| Year" in full and "](/report)" in full and "![The new ferry" in full
    assert "Finally a second boat" not in full  # comments: off by default
    assert "| Year" not in out(cli(str(rich), "--no-tables"))
    unlinked = out(cli(str(rich), "--no-links"))
    assert "](/report)" not in unlinked and "the annual report says" in unlinked
    assert "![" not in out(cli(str(rich), "--no-images"))
    assert "Finally a second boat" in out(cli(str(rich), "--comments"))
    listed = json.loads(out(cli(str(rich), "-f", "json", "--no-links", "--no-images")))
    assert listed["links"] == [] and listed["images"] == []


def test_the_switches_in_unchrome_warc(tmp_path: Path, rich: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    done = cli("warc", str(rich), "--no-tables", "--comments", "-o", str(rows), "-j", "1")
    assert done.returncode == 0, err(done)
    (row,) = [json.loads(line) for line in rows.read_text().splitlines()]
    assert "45800" not in row["markdown"] and "Finally a second boat" in row["markdown"]


@pytest.mark.parametrize(
    "header, field, gone, kept",
    [("X-No-Tables", "no_tables", "| Year", "the annual report"),
     ("X-No-Links", "no_links", "](/report)", "the annual report"),
     ("X-No-Images", "no_images", "![", "the annual report")],
)  # fmt: skip
def test_the_switches_as_service_headers_and_fields(
    service: str, header: str, field: str, gone: str, kept: str
) -> None:
    plain = extract(service, RICH).json()["markdown"]
    assert gone in plain
    by_header = extract(service, RICH, headers={header: "true"})
    assert by_header.status_code == 200, by_header.text
    assert gone not in by_header.json()["markdown"] and kept in by_header.json()["markdown"]
    by_field = httpx.post(
        service + "/v1/extract", json={"html": RICH.decode(), field: True}, headers=AUTH,
        timeout=30,
    )  # fmt: skip
    assert by_field.json()["markdown"] == by_header.json()["markdown"]
    bad = extract(service, RICH, headers={header: "maybe"})
    assert bad.status_code == 400 and header in bad.json()["error"]["message"]


def test_comments_as_a_service_header(service: str) -> None:
    assert "Finally a second boat" not in extract(service, RICH).json()["markdown"]
    kept = extract(service, RICH, headers={"X-Comments": "true"}).json()["markdown"]
    assert "Finally a second boat" in kept


def test_the_openapi_documents_the_switch_headers_on_every_endpoint(service: str) -> None:
    spec = httpx.get(service + "/openapi.json", timeout=10).json()
    wanted = {"x-return-format", "x-no-tables", "x-no-links", "x-no-images", "x-comments",
              "x-target-selector", "x-remove-selector", "x-favor", "x-with-metadata"}  # fmt: skip
    for path, method in (("/v1/read", "post"), ("/v1/extract", "post"), ("/r/{target}", "get")):
        params = spec["paths"][path][method]["parameters"]
        headers = {p["name"].lower(): p for p in params if p["in"] == "header"}
        assert wanted <= set(headers), (path, wanted - set(headers))
        assert "comment" in headers["x-comments"]["description"]
    for path in ("/v1/read", "/v1/extract"):
        body = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        fields = body["schema"]["properties"]
        assert {"no_tables", "no_links", "no_images", "comments"} <= set(fields), path
