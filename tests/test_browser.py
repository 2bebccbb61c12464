"""The headless-browser renderer (``unchrome.net.browser``), against loopback servers only.

The tests that drive a real Chromium skip only when Playwright or a browser is missing;
``.ci/run`` installs both. One browser serves the module (``renderer``); the page
``app.html`` builds its story from ``story.json`` with a script, and the same script
tries every way out it can think of (``probes.json``): fetch() to a server that is not
opted in (127.0.0.2), to 169.254.169.254, a redirect to that server, a worker's fetch,
a WebSocket, a preconnect and a WebRTC STUN packet. ``site`` is opted in as if public
(``127.0.0.1/32`` and its port); the canaries on 127.0.0.2 must record nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from net.servers import ConnectionCanary, LocalServer, page, redirect, respond
from unchrome.cli import main
from unchrome.config import Config
from unchrome.errors import (
    ExtractFailed,
    ForbiddenAddress,
    InvalidInput,
    RenderUnavailable,
    UpstreamTimeout,
)
from unchrome.net import browser, chromium
from unchrome.net.browser import Renderer, RenderLimits
from unchrome.net.fetch import fetch
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.remote import read
from unchrome.net.render_signs import client_rendering_sign, is_thin
from unchrome.service.serve import create_app
from unchrome.service.settings import ServiceSettings

FIXTURES = Path(__file__).parent / "fixtures" / "render"
STORY = json.loads((FIXTURES / "story.json").read_text())
FIRST, LAST = STORY["paragraphs"][0], STORY["paragraphs"][-1]
TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript", "json": "application/json"}
STATIC_ARTICLE = (
    b"<!doctype html><html><head><title>A static story</title></head><body>"
    b'<div id="root"><article><h1>A static story</h1>'
    + b"<p>This paragraph of the static story was in the HTML from the start.</p>" * 8
    + b'</article></div><script src="static.js"></script></body></html>'
)


# Pages whose script moves the main frame somewhere it must not go.
LEAVES = {
    "metadata": "http://169.254.169.254/latest/meta-data/",
    "file": "file:///etc/hostname",
    "data": "data:text/html,<p>planted</p>",
    "chrome": "chrome://version",
}


def _leaving(target: str) -> bytes:
    return (
        "<!doctype html><html><head><title>Leaving</title></head><body>"
        "<p>This page tries to take its main frame away from the web.</p>"
        f"<script>location.href = {json.dumps(target)};</script></body></html>"
    ).encode()


def _have_browser() -> bool:
    if not chromium.available():
        return False
    named = os.environ.get("UNCHROME_BROWSER")
    return bool(shutil.which(named) if named else any(map(shutil.which, chromium.BROWSER_NAMES)))


needs_browser = pytest.mark.skipif(
    not _have_browser(), reason="needs the [render] extra (Playwright) and a Chromium"
)


def _never(req: Any) -> None:
    time.sleep(4)  # longer than every deadline below; bounded so the server thread ends
    respond(req, 200, b"", "text/javascript")


@pytest.fixture(scope="module")
def canary() -> Iterator[LocalServer]:
    with LocalServer("127.0.0.2") as server:
        server.routes["*"] = page(b"<html><body>internal secret</body></html>")
        yield server


@pytest.fixture(scope="module")
def wire() -> Iterator[ConnectionCanary]:
    with ConnectionCanary("127.0.0.2") as listener:
        yield listener


@pytest.fixture(scope="module")
def site(canary: LocalServer, wire: ConnectionCanary) -> Iterator[LocalServer]:
    with LocalServer("127.0.0.1") as server:
        for path in FIXTURES.iterdir():
            server.routes["/" + path.name] = page(
                path.read_bytes(), content_type=TYPES[path.suffix[1:]]
            )
        server.routes["/never.js"] = _never
        server.routes["/static.html"] = page(STATIC_ARTICLE)
        server.routes["/to-canary"] = redirect(canary.url("/redirected"))
        for name, target in LEAVES.items():
            server.routes[f"/leave-{name}.html"] = page(_leaving(target))
        probes = {
            "urls": [
                canary.url("/fetched"),
                "http://169.254.169.254/latest/meta-data/",
                server.url("/to-canary"),
                wire.url("/preconnected"),
            ],
            "workers": [wire.url("/from-a-worker")],
            "sockets": [wire.url("/socket", scheme="ws")],
            "stun": [f"stun:{wire.host}:{wire.port}"],
        }
        server.routes["/probes.json"] = page(
            json.dumps(probes).encode(), content_type=TYPES["json"]
        )
        yield server


def fetch_config(site: LocalServer, deadline: float = 5.0) -> FetchConfig:
    # Every port is allowed: what keeps the canaries out is their address alone.
    return FetchConfig(
        allow_ports=(site.port, *_canary_ports()),
        allow_addresses=("127.0.0.1/32",),
        deadline=deadline,
    )


_PORTS: set[int] = set()


def _canary_ports() -> frozenset[int]:
    return frozenset(_PORTS)


@pytest.fixture(scope="module", autouse=True)
def _record_ports(canary: LocalServer, wire: ConnectionCanary) -> None:
    _PORTS.update({canary.port, wire.port})


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    if not _have_browser():
        pytest.skip("needs the [render] extra (Playwright) and a Chromium")
    r = Renderer(limits=RenderLimits(close_timeout=2.0))
    yield r
    r.close()


@pytest.fixture
def as_default(renderer: Renderer, monkeypatch: pytest.MonkeyPatch) -> Renderer:
    """The module's renderer as the process's, for read(), the CLI and the service."""
    monkeypatch.setattr(browser, "_default", renderer)
    monkeypatch.setattr(browser, "_default_pid", os.getpid())
    return renderer


def opt_in(site: LocalServer) -> list[str]:
    args = ["--allow-address", "127.0.0.1/32", "--allow-port", str(site.port)]
    return args + [a for port in sorted(_canary_ports()) for a in ("--allow-port", str(port))]


# ----------------------------------------------------------------- when to render


def test_signs_of_a_client_rendered_page() -> None:
    assert "app root (root)" in (client_rendering_sign((FIXTURES / "app.html").read_bytes()) or "")
    assert "app root (app)" in (client_rendering_sign((FIXTURES / "slow.html").read_bytes()) or "")
    plea = b"<html><body><noscript>Please enable JavaScript.</noscript><p>Hi</p></body></html>"
    assert client_rendering_sign(plea) == "a noscript asking for JavaScript"
    scripts = b"<html><body><script src=a.js></script><script>go()</script></body></html>"
    assert client_rendering_sign(scripts) == "a body of scripts and no text"


def test_no_sign_on_static_pages() -> None:
    assert client_rendering_sign(STATIC_ARTICLE) is None
    pixel = (
        b'<html><body><noscript><img src="/pixel?js=0"></noscript>'
        b"<p>A page with a tracking pixel and some text in its body, enough of it.</p>"
        b"<script>track()</script></body></html>"
    )
    assert client_rendering_sign(pixel) is None


def test_render_mode_is_validated() -> None:
    assert Config().render == "never"
    with pytest.raises(InvalidInput, match="render"):
        Config(render="sometimes")  # type: ignore[arg-type]


def test_static_extraction_of_the_app_page_is_thin(site: LocalServer) -> None:
    try:
        result = read(site.url("/app.html"), fetch_config=fetch_config(site))
    except ExtractFailed:
        return
    assert is_thin(result)
    assert FIRST not in result.text


# ----------------------------------------------------------------- rendering


@needs_browser
def test_library_read_renders_the_story(site: LocalServer, as_default: Renderer) -> None:
    config = Config(render="always")
    result = read(site.url("/app.html"), config=config, fetch_config=fetch_config(site))
    assert result.title == STORY["title"]
    assert FIRST in result.text and LAST in result.text
    assert result.url == site.url("/app.html")
    assert FIRST[:60] in result.markdown  # Markdown renders from the same DOM


@needs_browser
def test_auto_renders_a_thin_client_rendered_page(site: LocalServer, as_default: Renderer) -> None:
    result = read(
        site.url("/app.html"), config=Config(render="auto"), fetch_config=fetch_config(site)
    )
    assert FIRST in result.text


@needs_browser
def test_auto_leaves_a_static_page_to_static_extraction(
    site: LocalServer, as_default: Renderer
) -> None:
    result = read(
        site.url("/static.html"), config=Config(render="auto"), fetch_config=fetch_config(site)
    )
    assert "in the HTML from the start" in result.text
    # Rendered, the page would have asked for its script.
    assert not [p for p, _ in site.requests if p.startswith("/static.js")]


@pytest.fixture(scope="module")
def flags_only() -> Iterator[Renderer]:
    if not _have_browser():
        pytest.skip("needs the [render] extra (Playwright) and a Chromium")
    r = Renderer(limits=RenderLimits(close_timeout=2.0), isolate=False)
    yield r
    r.close()


@needs_browser
@pytest.mark.parametrize("which", ["default", "flags only"])
def test_every_way_out_is_refused_and_the_canaries_record_nothing(
    which: str,
    request: pytest.FixtureRequest,
    site: LocalServer,
    canary: LocalServer,
    wire: ConnectionCanary,
) -> None:
    r: Renderer = request.getfixturevalue("renderer" if which == "default" else "flags_only")
    document = fetch(site.url("/app.html"), fetch_config(site))
    rendered = r.render(document, fetch_config(site))
    assert FIRST in rendered.html  # the story's own requests went through
    refused = dict(rendered.refused)
    for url in (
        canary.url("/fetched"),  # fetch() to a server that is not opted in
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        site.url("/to-canary"),  # an allowed server redirecting to a forbidden one
        wire.url("/from-a-worker"),
        wire.url("/socket", scheme="ws"),
    ):
        assert refused.get(url, "").startswith("FORBIDDEN_ADDRESS"), (url, rendered.refused)
    assert canary.requests == []
    assert wire.connections == []  # no fetch, preconnect, worker or WebSocket connection
    assert wire.datagrams == []  # no WebRTC STUN packet


@needs_browser
def test_a_main_frame_sent_to_a_forbidden_address_is_refused(
    site: LocalServer, renderer: Renderer
) -> None:
    fc = fetch_config(site)
    with pytest.raises(ForbiddenAddress, match=r"169\.254\.169\.254"):
        renderer.render(fetch(site.url("/leave-metadata.html"), fc), fc)


@needs_browser
@pytest.mark.parametrize("name", ["file", "data", "chrome"])
def test_a_main_frame_cannot_leave_for_a_local_scheme(
    name: str, site: LocalServer, renderer: Renderer
) -> None:
    fc = fetch_config(site)
    rendered = renderer.render(fetch(site.url(f"/leave-{name}.html"), fc), fc)
    assert rendered.url == site.url(f"/leave-{name}.html")  # Chromium refused to go
    assert "tries to take its main frame" in rendered.html
    assert "planted" not in rendered.html.replace(LEAVES["data"], "")


@needs_browser
def test_cli_renders_by_default_with_the_extra(
    site: LocalServer, as_default: Renderer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([site.url("/app.html"), *opt_in(site), "--format", "text"]) == 0
    assert FIRST in capsys.readouterr().out
    assert main([site.url("/app.html"), *opt_in(site), "--render", "always"]) == 0
    assert FIRST[:60] in capsys.readouterr().out
    main([site.url("/app.html"), *opt_in(site), "--render", "never", "--format", "text"])
    assert FIRST not in capsys.readouterr().out


def _service(site: LocalServer) -> Any:
    import asyncio

    import httpx

    app = create_app(ServiceSettings(fetch_config=fetch_config(site)))

    def call(path: str, body: dict[str, str] | None = None, **headers: str) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://svc") as c:
                if body is not None:
                    return await c.post(path, json=body, headers=headers)
                return await c.get(path, headers=headers)

        return asyncio.run(go())

    return call


@needs_browser
def test_reader_endpoint_renders_with_x_engine_browser(
    site: LocalServer, as_default: Renderer
) -> None:
    get = _service(site)
    resp = get("/r/" + site.url("/app.html"), **{"X-Engine": "browser"})
    assert resp.status_code == 200, resp.text
    assert f"Title: {STORY['title']}" in resp.text
    assert FIRST in resp.text
    direct = get("/r/" + site.url("/app.html"), **{"X-Engine": "direct"})
    assert FIRST not in direct.text
    assert get("/r/" + site.url("/app.html"), **{"X-Engine": "warp"}).status_code == 400
    read_body = {"url": site.url("/app.html"), "format": "text", "engine": "browser"}
    resp = get("/v1/read", read_body)
    assert resp.status_code == 200, resp.text
    assert FIRST in resp.json()["text"]


def test_service_render_default_comes_from_the_environment() -> None:
    assert ServiceSettings.from_env({}).config.render == "never"
    assert ServiceSettings.from_env({"UNCHROME_RENDER": "auto"}).config.render == "auto"
    with pytest.raises(InvalidInput, match="render"):
        ServiceSettings.from_env({"UNCHROME_RENDER": "sometimes"})


@needs_browser
@pytest.mark.parametrize("path", ["/slow.html", "/busy.html"])
def test_a_page_that_never_finishes_loading_times_out_and_the_next_one_renders(
    path: str, site: LocalServer, renderer: Renderer
) -> None:
    # slow.html waits for a script that never comes; busy.html's script never returns.
    fc = fetch_config(site, deadline=2.0)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        renderer.render(fetch(site.url(path), fc), fc)
    assert time.monotonic() - started < 2.0 + 1.5
    rendered = renderer.render(fetch(site.url("/app.html"), fc), fc)
    assert FIRST in rendered.html


@needs_browser
def test_a_hung_browser_is_killed_and_replaced(site: LocalServer, renderer: Renderer) -> None:
    fc = fetch_config(site, deadline=2.0)
    document = fetch(site.url("/app.html"), fc)
    renderer.render(document, fc)  # a browser is running
    assert renderer.marker is not None
    group = chromium.browser_process_group(renderer.marker)
    assert group is not None
    launches = renderer.launches
    os.killpg(group, signal.SIGSTOP)  # the browser stops answering anything
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        renderer.render(document, fc)
    # The deadline, then the liveness check's close timeout, then the kill.
    assert time.monotonic() - started < 2.0 + 2.0 + 1.5
    rendered = renderer.render(document, fc)
    assert FIRST in rendered.html
    assert renderer.launches == launches + 1
    assert _live_processes_of(group) == []  # the old browser's processes are dead


def _live_processes_of(group: int) -> list[int]:
    """Processes of a process group that are not dead (zombies wait for a reaper)."""
    live = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ")".
        state, _ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == group and state != "Z":
            live.append(int(entry))
    return live


# ----------------------------------------------------------------- no browser


def test_no_browser_is_render_unavailable_naming_the_extra_and_the_setting(
    site: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNCHROME_BROWSER", "/nonexistent/chromium")
    r = Renderer()
    monkeypatch.setattr(browser, "_default", r)
    monkeypatch.setattr(browser, "_default_pid", os.getpid())
    try:
        fc = fetch_config(site)
        with pytest.raises(RenderUnavailable) as info:
            read(site.url("/app.html"), config=Config(render="always"), fetch_config=fc)
        assert info.value.code == "RENDER_UNAVAILABLE" and info.value.http_status == 501
        assert "[render]" in str(info.value) and "UNCHROME_BROWSER" in str(info.value)
        # auto without a browser is static extraction: the thin page as it is.
        try:
            result = read(site.url("/app.html"), config=Config(render="auto"), fetch_config=fc)
            assert FIRST not in result.text
        except ExtractFailed:
            pass
        resp = _service(site)("/r/" + site.url("/app.html"), **{"X-Engine": "browser"})
        assert resp.status_code == 501
        assert resp.json()["error"]["code"] == "RENDER_UNAVAILABLE"
        assert main([site.url("/app.html"), *opt_in(site), "--render", "always"]) == 11
    finally:
        r.close()
