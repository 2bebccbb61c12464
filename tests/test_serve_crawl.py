"""The service's /v1/map and /v1/crawl: bounded, behind the same auth and SSRF guard,
documented in the OpenAPI."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from crawl_site import PAGES, Site, make_site
from net.asgi import InProcess
from unchrome.net.fetch_config import FetchConfig
from unchrome.service.settings import ServiceSettings

KEY = "crawl-key"
AUTH = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture
def sites() -> Iterator[tuple[Site, Site]]:
    outside = Site(routes={"/x": (200, {"Content-Type": "text/html"}, b"<p>x</p>")}).start()
    site = make_site(outside.port)
    yield site, outside
    site.stop()
    outside.stop()


@pytest.fixture
def client(sites: tuple[Site, Site], monkeypatch: pytest.MonkeyPatch) -> InProcess:
    site, _ = sites
    monkeypatch.setenv("UNCHROME_CRAWL_DELAY", "0.02")
    monkeypatch.setenv("UNCHROME_CRAWL_MAX_PAGES", "5")
    fc = FetchConfig(allow_ports=(site.port,), allow_addresses=("127.0.0.0/8",))
    return InProcess(ServiceSettings(api_key=KEY, fetch_config=fc))


def test_map_lists_the_site_and_asks_for_the_key(client: InProcess, sites) -> None:
    site, _ = sites
    assert client.request("POST", "/v1/map", json={"url": site.base}).status_code == 401
    resp = client.request("POST", "/v1/map", json={"url": site.base, "limit": 2}, headers=AUTH)
    assert resp.status_code == 200, resp.text
    assert resp.json()["urls"] == [f"{site.base}/a", f"{site.base}/b"]


def test_map_and_crawl_of_an_internal_address_are_refused(client: InProcess) -> None:
    for path in ("/v1/map", "/v1/crawl"):
        resp = client.request("POST", path, json={"url": "http://10.0.0.1/"}, headers=AUTH)
        assert resp.status_code == 403 and resp.json()["error"]["code"] == "FORBIDDEN_ADDRESS"
    port = client.request("POST", "/v1/map", json={"url": "http://x.example:81/"}, headers=AUTH)
    assert port.status_code == 400 and port.json()["error"]["code"] == "INVALID_URL"


def test_crawl_job_runs_bounded_and_never_reaches_the_unallowed_port(
    client: InProcess, sites
) -> None:
    site, outside = sites
    resp = client.request(
        "POST", "/v1/crawl", json={"url": site.base, "max_pages": 50}, headers=AUTH
    )
    assert resp.status_code == 202, resp.text
    job = resp.json()["id"]
    deadline = time.monotonic() + 60
    while True:
        status = client.request("GET", f"/v1/crawl/{job}", headers=AUTH).json()
        if status["status"] != "running" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert status["status"] == "done", status
    assert status["pages"] == 5 == len(status["rows"])  # the service's cap, not the 50 asked
    assert {row["source"] for row in status["rows"]} <= {
        site.base + p for p in (*PAGES, "/redirect-out")
    }
    assert outside.hits == []


def test_crawl_of_an_unknown_job_is_404_and_bad_requests_are_400(client: InProcess) -> None:
    assert client.request("GET", "/v1/crawl/nope", headers=AUTH).status_code == 404
    bad = client.request("POST", "/v1/crawl", json={"url": "ftp://x/"}, headers=AUTH)
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "INVALID_URL"
    zero = client.request("POST", "/v1/crawl", json={"url": "http://x/", "max_pages": 0},
                          headers=AUTH)  # fmt: skip
    assert zero.status_code == 400


def test_openapi_documents_map_and_crawl(client: InProcess) -> None:
    paths = client.request("GET", "/openapi.json").json()["paths"]
    assert {"/v1/map", "/v1/crawl", "/v1/crawl/{job_id}"} <= set(paths)
    assert "requestBody" in paths["/v1/crawl"]["post"]


def test_a_second_crawl_of_a_running_site_is_refused(client: InProcess, sites) -> None:
    site, _ = sites
    first = client.request("POST", "/v1/crawl", json={"url": site.base}, headers=AUTH)
    assert first.status_code == 202
    second = client.request("POST", "/v1/crawl", json={"url": site.base + "/a"}, headers=AUTH)
    assert second.status_code == 503 and second.json()["error"]["code"] == "OVERLOADED"
    job = first.json()["id"]
    deadline = time.monotonic() + 60
    while client.request("GET", f"/v1/crawl/{job}", headers=AUTH).json()["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
