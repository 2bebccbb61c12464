"""The HTTP service, end to end through a real uvicorn process, plus a few in-process checks.

The uvicorn process is started once for the module with: an API key, a body limit of
100 000 bytes, at most 2 work requests at once, and an opt-in for the local upstream
server on 127.0.0.1 (its port only). The canary on 127.0.0.2 is *not* opted in.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import pytest

import unchrome
from net.asgi import InProcess
from net.servers import LocalServer, page, redirect
from unchrome.net.fetch_config import FetchConfig
from unchrome.service.settings import ServiceSettings

ARTICLE = (
    b"<!doctype html><html><head><title>A story</title>"
    b'<meta property="og:image" content="/hero.jpg"></head><body><article><h1>A story</h1>'
    + b"<p>This is a paragraph of the story with enough words to count here.</p>" * 6
    + b"<aside class='share'>Share this</aside></article></body></html>"
)
KEY = "test-key-123"
AUTH = {"Authorization": f"Bearer {KEY}"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _slow(req: Any) -> None:
    time.sleep(1.5)
    body = ARTICLE
    req.send_response(200)
    req.send_header("Content-Type", "text/html")
    req.send_header("Content-Length", str(len(body)))
    req.end_headers()
    req.wfile.write(body)


@pytest.fixture(scope="module")
def upstream() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        server.routes.update(
            {
                "/story": page(ARTICLE),
                "/gone": page(b"<html><body>gone</body></html>", status=410),
                "/busy": page(b"<html><body>slow down</body></html>", status=429),
                "/pdf": page(b"%PDF-1.4", content_type="application/pdf"),
                "/slow": _slow,
            }
        )
        yield server


@pytest.fixture(scope="module")
def canary(upstream: LocalServer) -> Iterator[LocalServer]:
    with LocalServer("127.0.0.2", upstream.port) as server:
        server.routes["*"] = page(ARTICLE)
        yield server


@pytest.fixture(scope="module")
def service(upstream: LocalServer, canary: LocalServer) -> Iterator[str]:
    yield from _running_service(
        {
            "UNCHROME_MAX_BODY_BYTES": "100000",
            "UNCHROME_MAX_CONCURRENCY": "2",
            "UNCHROME_ALLOW_ADDRESSES": "127.0.0.1/32",
            "UNCHROME_ALLOW_PORTS": str(upstream.port),
            "UNCHROME_FETCH_DEADLINE": "5",
        },
        subprocess.PIPE,
        "warning",
    )


def _running_service(extra_env: dict[str, str], stdout: Any, log_level: str) -> Iterator[str]:
    """``unchrome serve`` in its own process on a free loopback port, up until the
    generator closes; its output goes to ``stdout``."""
    port = _free_port()
    src = str(Path(unchrome.__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
        "UNCHROME_API_KEY": KEY,
        **extra_env,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "unchrome", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", log_level],
        env=env, stdout=stdout, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):  # at most ~10 s to come up
            if proc.poll() is not None:
                said = proc.stdout.read().decode()[-2000:] if proc.stdout else ""
                raise RuntimeError(f"service exited: {said}")
            try:
                if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("service did not answer /healthz")
        yield base
    finally:
        proc.terminate()  # SIGTERM: uvicorn's graceful shutdown
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def post(base: str, path: str, **kw: Any) -> httpx.Response:
    kw.setdefault("headers", AUTH)
    return httpx.post(base + path, timeout=10, **kw)


def assert_error(resp: httpx.Response, status: int, code: str, retryable: bool) -> None:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert body["error"]["retryable"] is retryable and body["error"]["message"]


# ---------------------------------------------------------------------- end to end


def test_the_answer_carries_the_publication_and_modification_dates() -> None:
    from unchrome.result import Result
    from unchrome.service.models import payload, reader_text

    result = Result(title="A story", date="2025-01-02", date_modified="2025-03-04", text="x")
    body = payload(result, "text")
    assert (body["date"], body["date_modified"]) == ("2025-01-02", "2025-03-04")
    header = reader_text(result, "text")
    assert "Published Time: 2025-01-02" in header and "Modified Time: 2025-03-04" in header
    assert "Modified Time" not in reader_text(Result(title="A story", text="x"), "text")


def test_healthz_and_openapi_need_no_key(service: str) -> None:
    assert httpx.get(service + "/healthz").json() == {"status": "ok"}
    schema = httpx.get(service + "/openapi.json").json()
    assert {"/v1/read", "/v1/extract", "/r/{target}", "/healthz"} <= set(schema["paths"])
    # The version the command line prints, the installed distribution's too.
    assert schema["info"]["version"] == unchrome.__version__ == version("unchrome")


def test_read_returns_article_json(service: str, upstream: LocalServer) -> None:
    resp = post(service, "/v1/read", json={"url": upstream.url("/story")})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["title"] == "A story" and body["kind"] == "article"
    assert "paragraph of the story" in body["markdown"]
    assert body["url"] == upstream.url("/story") and body["truncated"] is False
    assert body["image"] == upstream.url("/hero.jpg")


def test_read_text_format_and_remove_selector(service: str, upstream: LocalServer) -> None:
    resp = post(service, "/v1/read", json={"url": upstream.url("/story"), "format": "text",
                                           "remove_selector": "aside"})  # fmt: skip
    body = resp.json()
    assert resp.status_code == 200 and "paragraph of the story" in body["text"]
    assert "markdown" not in body and "Share this" not in body["text"]


def test_read_refuses_internal_address_and_canary_is_untouched(
    service: str, canary: LocalServer
) -> None:
    resp = post(service, "/v1/read", json={"url": canary.url("/admin")})
    assert_error(resp, 403, "FORBIDDEN_ADDRESS", False)
    resp = post(service, "/v1/read", json={"url": "http://169.254.169.254/latest/meta-data/"})
    assert_error(resp, 403, "FORBIDDEN_ADDRESS", False)
    assert canary.requests == []


def test_read_refuses_redirect_into_the_internal_network(
    service: str, upstream: LocalServer, canary: LocalServer
) -> None:
    upstream.routes["/jump"] = redirect(canary.url("/admin"))
    assert_error(post(service, "/v1/read", json={"url": upstream.url("/jump")}),
                 403, "FORBIDDEN_ADDRESS", False)  # fmt: skip
    assert canary.requests == []


@pytest.mark.parametrize("path, status, code, retryable", [
    ("/gone", 404, "PAGE_NOT_FOUND", False),
    ("/busy", 502, "UPSTREAM_ERROR", True),
    ("/pdf", 415, "UNSUPPORTED_CONTENT", False),
])  # fmt: skip
def test_read_upstream_failures_map_to_named_errors(
    service: str, upstream: LocalServer, path: str, status: int, code: str, retryable: bool
) -> None:
    assert_error(post(service, "/v1/read", json={"url": upstream.url(path)}),
                 status, code, retryable)  # fmt: skip


@pytest.mark.parametrize("body", [
    {"url": "ftp://example.com/"}, {"url": "http://user@example.com/"},
])  # fmt: skip
def test_read_invalid_url(service: str, body: dict[str, str]) -> None:
    assert_error(post(service, "/v1/read", json=body), 400, "INVALID_URL", False)


def test_read_bad_request_bodies(service: str) -> None:
    assert_error(post(service, "/v1/read", content=b"{not json",
                      headers={**AUTH, "Content-Type": "application/json"}),
                 400, "INVALID_INPUT", False)  # fmt: skip
    assert_error(post(service, "/v1/read", json={"url": "https://x.test", "format": "pdf"}),
                 400, "INVALID_INPUT", False)  # fmt: skip


def test_a_bad_query_parameter_names_itself_and_the_values_it_takes(service: str) -> None:
    resp = post(
        service,
        "/v1/extract?format=json",
        content=ARTICLE,
        headers={**AUTH, "Content-Type": "text/html"},
    )
    assert_error(resp, 400, "INVALID_INPUT", False)
    message = resp.json()["error"]["message"]
    assert "format" in message
    for allowed in ("markdown", "text", "html"):
        assert allowed in message


def test_invalid_css_selectors_are_the_callers_mistake(service: str) -> None:
    # The header on /r/ and the JSON fields: 400 INVALID_INPUT, never a 500.
    for header in ("X-Target-Selector", "X-Remove-Selector"):
        resp = httpx.get(service + "/r/https://example.com/", headers={**AUTH, header: "div[[["})
        assert_error(resp, 400, "INVALID_INPUT", False)
    for field in ("target_selector", "remove_selector"):
        body = {"html": ARTICLE.decode(), field: "div[[["}
        assert_error(post(service, "/v1/extract", json=body), 400, "INVALID_INPUT", False)
        read = {"url": "https://example.com/", field: "p:nth-child("}
        assert_error(post(service, "/v1/read", json=read), 400, "INVALID_INPUT", False)


def test_favor_is_taken_from_a_field_or_a_header_and_checked(service: str) -> None:
    body = {"html": ARTICLE.decode(), "favor": "precision", "format": "text"}
    resp = post(service, "/v1/extract", json=body)
    assert resp.status_code == 200
    assert resp.json()["text"]
    raw = post(service, "/v1/extract", content=ARTICLE,
               headers={**AUTH, "Content-Type": "text/html", "X-Favor": "Recall"})  # fmt: skip
    assert raw.status_code == 200
    bad = post(service, "/v1/extract", json={**body, "favor": "everything"})
    assert_error(bad, 400, "INVALID_INPUT", False)
    resp = httpx.get(service + "/r/https://example.com/", headers={**AUTH, "X-Favor": "most"})
    assert_error(resp, 400, "INVALID_INPUT", False)


@pytest.mark.parametrize(
    "url",
    ["https://example.com/a\r\nSet-Cookie: x=1", "javascript:alert(1)", "data:text/html,hi",
     "example.com/no-scheme", "ftp://example.com/"],
)  # fmt: skip
def test_extract_base_url_must_be_http(service: str, url: str) -> None:
    # The result echoes the base URL: only an absolute http(s) URL is taken.
    raw = post(service, "/v1/extract", content=ARTICLE, params={"url": url},
               headers={**AUTH, "Content-Type": "text/html"})  # fmt: skip
    assert_error(raw, 400, "INVALID_URL", False)
    js = post(service, "/v1/extract", json={"html": ARTICLE.decode(), "url": url})
    assert_error(js, 400, "INVALID_URL", False)


def test_reader_target_with_an_encoded_line_break_is_an_invalid_url(service: str) -> None:
    for target in ("https://example.com/%0D%0AX-Injected:%201", "https://example.com/%0A"):
        resp = httpx.get(service + "/r/" + target, headers=AUTH)
        assert_error(resp, 400, "INVALID_URL", False)


def test_an_idle_keep_alive_connection_outlives_the_clients_pool_expiry(service: str) -> None:
    # httpx reuses a pooled connection for 5 s: the server must not close it first.
    host, port = service.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        for pause in (0.0, 6.0):
            time.sleep(pause)
            assert _roundtrip(conn, host).startswith(b"HTTP/1.1 200")


def test_auth_is_required_on_work_endpoints(service: str) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": KEY}):
        resp = post(service, "/v1/extract", content=ARTICLE, headers=headers)
        assert_error(resp, 401, "UNAUTHORIZED", False)
        assert resp.headers["www-authenticate"] == "Bearer"
    assert httpx.get(service + "/r/https://example.com/").status_code == 401


def test_extract_raw_html_and_json(service: str) -> None:
    raw = post(
        service,
        "/v1/extract",
        content=ARTICLE,
        params={"url": "https://example.com/a/"},
        headers={**AUTH, "Content-Type": "text/html"},
    )
    assert raw.status_code == 200 and raw.json()["title"] == "A story"
    assert raw.json()["image"] == "https://example.com/hero.jpg"
    js = post(service, "/v1/extract", json={"html": ARTICLE.decode(), "format": "html"})
    assert js.status_code == 200 and "<p>" in js.json()["html"]


def test_extract_feed(service: str) -> None:
    feed = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>Log</title>'
            b"<item><title>One</title><link>https://example.com/1</link></item>"
            b"</channel></rss>")  # fmt: skip
    resp = post(service, "/v1/extract", content=feed,
                headers={**AUTH, "Content-Type": "application/rss+xml"})  # fmt: skip
    assert (
        resp.json()["kind"] == "feed" and "[One](https://example.com/1)" in resp.json()["markdown"]
    )


def test_body_limit_by_content_length_and_by_stream(service: str) -> None:
    big = b"<p>" + b"x" * 150_000
    assert_error(post(service, "/v1/extract", content=big), 413, "PAYLOAD_TOO_LARGE", False)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(30):
            yield b"y" * 10_000

    assert_error(post(service, "/v1/extract", content=chunks()), 413, "PAYLOAD_TOO_LARGE", False)


def test_reader_endpoint_plain_and_json(service: str, upstream: LocalServer) -> None:
    resp = httpx.get(service + "/r/" + upstream.url("/story"), headers=AUTH, timeout=10)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    assert resp.text.startswith("Title: A story\n\nURL Source: " + upstream.url("/story"))
    assert "Markdown Content:\n# A story" in resp.text
    js = httpx.get(
        service + "/r/" + upstream.url("/story"),
        timeout=10,
        headers={**AUTH, "Accept": "application/json", "X-Return-Format": "text"},
    )
    assert js.json()["title"] == "A story" and "paragraph" in js.json()["text"]


def test_reader_endpoint_errors_are_json(service: str, canary: LocalServer) -> None:
    resp = httpx.get(service + "/r/" + canary.url("/"), headers=AUTH, timeout=10)
    assert_error(resp, 403, "FORBIDDEN_ADDRESS", False)
    assert canary.requests == []


def test_unknown_route_is_a_json_404(service: str) -> None:
    assert_error(httpx.get(service + "/nope"), 404, "NOT_FOUND", False)


def test_burst_beyond_the_limit_gets_503_and_healthz_stays_fast(
    service: str, upstream: LocalServer
) -> None:
    statuses: list[int] = []
    bodies: list[dict[str, Any]] = []

    def one() -> None:
        resp = post(service, "/v1/read", json={"url": upstream.url("/slow")})
        statuses.append(resp.status_code)
        bodies.append(resp.json())

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    time.sleep(0.5)  # the slow requests hold both slots now
    started = time.monotonic()
    assert httpx.get(service + "/healthz", timeout=5).status_code == 200
    assert time.monotonic() - started < 0.5  # the event loop is not blocked
    for t in threads:
        t.join(timeout=15)
    assert sorted(statuses).count(200) == 2 and statuses.count(503) == 4, statuses
    overloaded = [b for b in bodies if "error" in b]
    assert all(b["error"] == {"code": "OVERLOADED", "retryable": True,
                              "message": b["error"]["message"]} for b in overloaded)  # fmt: skip


# ------------------------------------------------------------------------ in-process


def test_cors_is_off_by_default_and_on_when_configured() -> None:
    preflight = {"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    off = InProcess(ServiceSettings()).request("OPTIONS", "/v1/read", headers=preflight)
    assert "access-control-allow-origin" not in off.headers
    on = InProcess(ServiceSettings(cors_origins=("https://app.example",)))
    resp = on.request("OPTIONS", "/v1/read", headers=preflight)
    assert resp.headers["access-control-allow-origin"] == "https://app.example"


def test_settings_from_env() -> None:
    s = ServiceSettings.from_env(
        {
            "UNCHROME_API_KEY": "k",
            "UNCHROME_MAX_CONCURRENCY": "3",
            "UNCHROME_ALLOW_PORTS": "8080",
            "UNCHROME_CORS_ORIGINS": "a,b",
        }
    )
    assert s.api_key == "k" and s.max_concurrency == 3 and s.cors_origins == ("a", "b")
    assert 8080 in s.fetch_config.allowed_ports and s.fetch_config.allow_addresses == ()
    assert ServiceSettings.from_env({}).api_key is None


def test_reader_target_keeps_its_query_and_encoded_form(upstream: LocalServer) -> None:
    settings = ServiceSettings(fetch_config=FetchConfig(
        allow_ports=(upstream.port,), allow_addresses=("127.0.0.1/32",)))  # fmt: skip
    client = InProcess(settings)
    before = len(upstream.requests)
    resp = client.request("GET", f"/r/http%3A%2F%2F127.0.0.1%3A{upstream.port}%2Fstory?x=1&y=2")
    assert resp.status_code == 200, resp.text
    assert upstream.requests[before][0] == "/story?x=1&y=2"


def test_access_log_is_structured(caplog: pytest.LogCaptureFixture) -> None:
    client = InProcess(ServiceSettings())
    with caplog.at_level("INFO", logger="unchrome.access"):
        client.request("GET", "/healthz?token=secret")
    line = json.loads(caplog.records[-1].getMessage())
    assert line["path"] == "/healthz" and line["status"] == 200 and "secret" not in str(line)


# ------------------------------------------------------------- clients that go away


@pytest.fixture
def logged_service(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A service of its own whose log (info level) goes to a file the test reads."""
    yield from _own_service(tmp_path, {})


@pytest.fixture
def quick_deadline_service(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A service of its own that gives a request body one second to arrive."""
    yield from _own_service(
        tmp_path, {"UNCHROME_BODY_DEADLINE": "1", "UNCHROME_MAX_CONCURRENCY": "2"}
    )


def _own_service(tmp_path: Path, extra_env: dict[str, str]) -> Iterator[tuple[str, Path]]:
    log_path = tmp_path / "service.log"
    with log_path.open("wb") as log:
        for base in _running_service(extra_env, log, "info"):
            yield base, log_path


@pytest.mark.parametrize(
    "raw",
    [
        b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY.encode() + b"\r\n"
        b"Content-Type: text/html\r\nContent-Length: 1000\r\n\r\n<p>only part",
        b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY.encode() + b"\r\n"
        b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>ab\r\nZZ\r\n",
        # Refused (401) before its body is read, while h11 answers the body's 400.
        b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n"
        b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>ab\r\nZZ\r\n",
    ],
    ids=["disconnect mid-upload", "malformed chunked body", "unauthenticated malformed body"],
)
def test_a_client_that_goes_away_is_one_log_line_not_a_500(
    logged_service: tuple[str, Path], raw: bytes
) -> None:
    base, log_path = logged_service
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        conn.sendall(raw)
        time.sleep(0.3)
    # The service still serves, and its log holds no traceback and no 500.
    assert httpx.get(base + "/healthz", timeout=5).status_code == 200
    time.sleep(0.3)
    log = log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert '"status": 500' not in log, log[-3000:]
    extract_lines = [line for line in log.splitlines() if '"/v1/extract"' in line]
    assert len(extract_lines) <= 1, extract_lines


def _stalled_upload(
    base: str, declared: int = 50_000, sent: bytes = b"<p>the start"
) -> socket.socket:
    """A connection that announces a body of ``declared`` bytes and sends only ``sent``."""
    host, port = base.removeprefix("http://").split(":")
    conn = socket.create_connection((host, int(port)), timeout=5)
    conn.sendall(
        b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY.encode()
        + b"\r\nContent-Type: text/html\r\nContent-Length: " + str(declared).encode()
        + b"\r\n\r\n" + sent
    )  # fmt: skip
    return conn


def test_stalled_uploads_hold_no_work_slot(service: str) -> None:
    # The service runs two requests at once; four clients announce bodies and stall.
    stalled = [_stalled_upload(service) for _ in range(4)]
    try:
        time.sleep(0.3)
        for _ in range(3):
            resp = post(service, "/v1/extract", content=ARTICLE,
                        headers={**AUTH, "Content-Type": "text/html"})  # fmt: skip
            assert resp.status_code == 200, resp.text
    finally:
        for conn in stalled:
            conn.close()


def _reply(conn: socket.socket) -> bytes:
    conn.settimeout(5)
    reply = b""
    while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
        chunk = conn.recv(4096)
        if not chunk:
            break
        reply += chunk
    return reply


def test_a_body_that_does_not_arrive_in_time_is_a_408(
    quick_deadline_service: tuple[str, Path],
) -> None:
    base, _ = quick_deadline_service
    started = time.monotonic()
    with _stalled_upload(base) as conn:
        reply = _reply(conn)
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b'"REQUEST_TIMEOUT"' in reply
    assert time.monotonic() - started < 4
    # Dripping a byte now and then does not reset the deadline: it is for the whole body.
    with _stalled_upload(base, declared=1_000, sent=b"<") as conn:
        for _ in range(8):
            time.sleep(0.25)
            try:
                conn.sendall(b"p")
            except OSError:
                break
        reply = _reply(conn)
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    # And the service still answers at once.
    resp = post(base, "/v1/extract", content=ARTICLE, headers={**AUTH, "Content-Type": "text/html"})
    assert resp.status_code == 200


@pytest.fixture
def quick_header_service(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A service of its own that gives request headers one second to arrive."""
    yield from _own_service(tmp_path, {"UNCHROME_HEADER_DEADLINE": "1"})


@pytest.mark.parametrize(
    "sent",
    [b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"G"],
    ids=["nothing", "headers never finished", "one byte"],
)
def test_a_connection_without_whole_headers_is_closed(
    quick_header_service: tuple[str, Path], sent: bytes
) -> None:
    base, _ = quick_header_service
    host, port = base.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        conn.sendall(sent)
        if sent:
            time.sleep(0.4)
            conn.sendall(b"X-Drip: 1\r\n")  # dripping does not restart the clock
        assert conn.recv(4096) == b"", "the server kept the connection"
    assert time.monotonic() - started < 4
    # A request whose headers arrive at once is served, and its connection stays open
    # past the header deadline while idle (the keep-alive timeout governs it).
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        for pause in (0.0, 1.5):
            time.sleep(pause)
            assert _roundtrip(conn, host).startswith(b"HTTP/1.1 200")


def _roundtrip(conn: socket.socket, host: str) -> bytes:
    """GET /healthz on an open connection; the whole response, read by its length."""
    conn.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        chunk = conn.recv(4096)
        assert chunk, "the server closed the connection"
        reply += chunk
    head, body = reply.split(b"\r\n\r\n", 1)
    length = int(head.lower().split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0])
    while len(body) < length:
        body += conn.recv(4096)
    return reply


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /healthz\rx HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /v1/extract HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        b"NOT HTTP AT ALL\r\n\r\n",
    ],
    ids=["raw CR in the target", "Content-Length: abc", "garbage"],
)
def test_malformed_http_is_answered_in_the_error_shape(service: str, raw: bytes) -> None:
    host, port = service.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        conn.sendall(raw)
        reply = b""
        while chunk := conn.recv(4096):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), reply[:200]
    assert b"application/json" in head.lower()
    error = json.loads(body)["error"]
    assert error["code"] == "INVALID_INPUT" and error["retryable"] is False
