"""Render pages whose story is not in their HTML: headless Chromium driven by Playwright
(the ``[render]`` extra), every request it wants made by unchrome's own guarded fetcher.

More and more pages hold an empty ``<div id="root">`` and scripts, and their story
arrives by XHR: no reading of the HTML can find it. ``Config.render`` decides when such
a page is loaded in a browser ("always", or "auto": only when the static extraction is
thin *and* the page shows client-rendering signs, :func:`client_rendering_sign`); the
DOM the scripts built is then serialized and goes through the normal pipeline
(``Extractor.extract`` with the final URL), so text, Markdown, metadata and errors are
exactly those of a static page with that HTML.

The SSRF guard holds inside the browser, in three layers:

1. **Chromium makes no request itself.** A route on the browser context takes every
   request it wants to make (the document, iframes, scripts, XHR/fetch, the requests of
   workers) and :class:`unchrome.net.page_network.PageNetwork` makes it instead: the URL checked
   as a user's URL is (scheme, port, user info), every resolved address checked against
   the reserved ranges, the socket opened to an address that was checked (no DNS
   rebinding window), redirects followed by the fetcher with every hop re-checked,
   bodies capped; the answer goes back with ``route.fulfill``. Fulfilling rather than
   checking and letting Chromium continue is the point: Chromium would resolve the host
   again after the check (rebinding), and follows the redirects of a continued request
   in its network stack, where no route sees them. WebSockets are closed by a route
   that never connects; service workers are blocked, downloads refused, no permission
   granted; images, fonts, media, stylesheets, prefetches and beacons are not loaded.
2. **What no route sees fails for want of a network.** ``<link rel=preconnect>``, DNS
   prefetch and WebRTC's STUN packets bypass request interception. Where the system
   allows it (``unshare --net``, as root or through a user namespace), Chromium runs in
   a network namespace of its own that has no interface but a loopback that is down:
   nothing it opens can leave. Playwright talks to it over pipes, not a socket.
3. **And Chromium's own network is a dead end anyway** (where namespaces are refused,
   e.g. in a container whose seccomp profile forbids them): every host name resolves to
   nothing, every connection goes through a "proxy" that is a port this process holds
   without listening (refused at once), loopback not exempted, and WebRTC may not send
   UDP that bypasses that proxy.

Budgets per page: one deadline (the fetch deadline, ``FetchConfig.deadline``) for all of
it, a cap on requests and on the bytes of all responses, each response capped as the
fetcher caps a page. One browser per process, shared by every thread and event loop
through a thread of its own; a fresh context per page, closed after it. A browser that
stops answering is killed (its whole process group) and a new one started for the next
page."""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import os
import re
import shlex
import shutil
import signal
import socket
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from unchrome.config import Config
from unchrome.errors import (
    ExtractFailed,
    ForbiddenAddress,
    RenderUnavailable,
    UnchromeError,
    UpstreamError,
    UpstreamTimeout,
)
from unchrome.net.chromium import HOW_TO_INSTALL, browser_process_group, find_browser, netns_prefix
from unchrome.net.fetch import Fetched
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.page_network import PageNetwork
from unchrome.net.render_signs import should_render
from unchrome.pipeline.extractor import extract_fetched
from unchrome.result import Result

log = logging.getLogger("unchrome.browser")
MiB = 1024 * 1024

# What a page may load. The DOM is what is read: images, fonts, media and stylesheets
# change nothing in it, prefetches and beacons are not the page's content.
_LOADED_TYPES = frozenset({"document", "script", "xhr", "fetch"})
# Why a request was refused, as Chromium's network error the page's script sees.
_ABORT_REASONS = {
    "FORBIDDEN_ADDRESS": "blockedbyclient",
    "INVALID_URL": "blockedbyclient",
    "UPSTREAM_TIMEOUT": "timedout",
}


@dataclass(frozen=True)
class RenderLimits:
    """What one page may cost the browser (the deadline is ``FetchConfig.deadline``)."""

    max_requests: int = 200  # per page, the document included; past it requests fail
    max_bytes: int = 32 * MiB  # all responses of a page, decoded
    max_pages: int = 4  # pages rendered at once in the one browser; others wait
    quiet: float = 0.5  # seconds with no request in flight after "load": the page is done
    close_timeout: float = 5.0  # a browser that takes longer to close a page has hung
    launch_timeout: float = 30.0  # starting the browser (not counted in a page's deadline)

    def __post_init__(self) -> None:
        for name in ("max_requests", "max_bytes", "max_pages"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"RenderLimits.{name} must be a positive integer")


@dataclass
class Rendered:
    """The DOM a page's scripts built, serialized, and what loading it took."""

    url: str  # the main frame's URL at the end (a script may have moved it)
    html: str
    truncated: bool  # the serialized DOM was longer than Config.max_input_bytes
    requests: int  # requests the page made (the document included)
    # (url, "CODE: reason") of every request refused or failed; the page saw a network error
    refused: list[tuple[str, str]]
    seconds: float


# --------------------------------------------------------------------------- the page


@dataclass
class _PageState:
    document: Fetched
    net: PageNetwork
    limits: RenderLimits
    main_frame: Any = None
    requests: int = 0
    bytes: int = 0
    inflight: int = 0
    last_activity: float = field(default_factory=time.monotonic)
    served_document: bool = False
    main_refusal: UnchromeError | None = None
    refused: list[tuple[str, str]] = field(default_factory=list)


# The DOM serialized in the page, cut at ``max`` characters so a script that built a
# gigabyte of DOM cannot make us ship it over the pipe.
_SERIALIZE = """(max) => {
  const root = document.documentElement;
  const html = root ? root.outerHTML : "";
  return [html.length > max ? html.slice(0, max) : html, html.length > max];
}"""


class Renderer:
    """One headless Chromium for the process, usable from any thread or event loop.

    Playwright's async API runs on an event loop of the renderer's own thread; callers
    hand it work with ``render`` (blocking) or ``arender`` (awaitable).
    """

    def __init__(
        self,
        executable: str | None = None,
        limits: RenderLimits | None = None,
        *,
        isolate: bool | None = None,
    ) -> None:
        self.executable = executable
        self.limits = limits or RenderLimits()
        # None: a network namespace where the system allows one; False: never (the
        # dead-end flags alone); True: required (RENDER_UNAVAILABLE without it).
        self.isolate = isolate
        self.launches = 0  # browsers started so far (a hung one is replaced)
        self.marker: str | None = None  # the running browser's instance marker
        self.isolated = False  # whether the running browser is in its own namespace
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pw: Any = None
        self._browser: Any = None
        self._browser_lock: asyncio.Lock | None = None
        self._slots: asyncio.Semaphore | None = None
        self._tmp: str | None = None
        # The dead-end proxy: a port bound and never listened on, so a connection to it
        # is refused at once, and no other program can take the port while we hold it.
        self._dead = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._dead.bind(("127.0.0.1", 0))
        self._closed = False

    # ----------------------------------------------------------------- entry points

    def render(self, page: Fetched, fetch_config: FetchConfig) -> Rendered:
        """Render a fetched page (blocking; any thread but the renderer's own)."""
        future = asyncio.run_coroutine_threadsafe(
            self._render(page, fetch_config), self._event_loop()
        )
        try:
            return future.result(timeout=self._backstop(fetch_config))
        except concurrent.futures.TimeoutError:
            future.cancel()
            self._kill_soon("a render outlived its deadline and the close that follows")
            raise UpstreamTimeout(
                f"rendering took longer than {fetch_config.deadline:g} s"
            ) from None

    async def arender(self, page: Fetched, fetch_config: FetchConfig) -> Rendered:
        """Async :meth:`render`, for a caller on another event loop (the service)."""
        future = asyncio.run_coroutine_threadsafe(
            self._render(page, fetch_config), self._event_loop()
        )
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self._backstop(fetch_config))
        except TimeoutError:
            self._kill_soon("a render outlived its deadline and the close that follows")
            raise UpstreamTimeout(
                f"rendering took longer than {fetch_config.deadline:g} s"
            ) from None

    def close(self) -> None:
        """Close the browser and stop the renderer's thread (idempotent)."""
        with self._lock:
            loop, self._loop = self._loop, None
            self._closed = True
        if loop is not None:
            future = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
            with contextlib.suppress(Exception):
                future.result(timeout=self.limits.close_timeout + 5)
            self._kill_browser()
            loop.call_soon_threadsafe(loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=5)
        self._dead.close()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def browser_memory(self) -> int:
        """Resident memory (bytes) of the running browser's process group: all its
        processes' proportional set sizes (shared pages counted once), 0 when none."""
        group = browser_process_group(self.marker) if self.marker else None
        if group is None:
            return 0
        total = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            with contextlib.suppress(OSError):
                if os.getpgid(int(entry)) != group:
                    continue
                with open(f"/proc/{entry}/smaps_rollup") as handle:
                    for line in handle:
                        if line.startswith("Pss:"):
                            total += int(line.split()[1]) * 1024
        return total

    # ------------------------------------------------------------------- machinery

    def _backstop(self, fc: FetchConfig) -> float:
        # The loop enforces the deadline; this only catches a loop that stopped turning.
        return fc.deadline + self.limits.launch_timeout + self.limits.close_timeout + 5

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._closed:
                raise RenderUnavailable("the renderer was closed")
            if self._loop is None:
                loop = asyncio.new_event_loop()
                self._browser_lock = asyncio.Lock()
                self._slots = asyncio.Semaphore(self.limits.max_pages)
                thread = threading.Thread(
                    target=loop.run_forever, name="unchrome-browser", daemon=True
                )
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def _kill_soon(self, why: str) -> None:
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self._forget_browser, why)

    def _forget_browser(self, why: str, browser: Any = None) -> None:
        """Kill the running browser (``browser``: only if it is still the running one;
        a page that saw its browser hang must not kill the replacement)."""
        if browser is not None and browser is not self._browser:
            return
        log.warning("browser killed: %s", why)
        self._kill_browser()
        self._browser = None

    def _kill_browser(self) -> None:
        group = browser_process_group(self.marker) if self.marker else None
        if group is not None:
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)

    async def _render(self, page: Fetched, fc: FetchConfig) -> Rendered:
        loop = asyncio.get_running_loop()
        end = loop.time() + fc.deadline
        assert self._slots is not None
        try:
            async with asyncio.timeout_at(end):  # the wait for a slot is the page's time
                await self._slots.acquire()
        except TimeoutError:
            raise UpstreamTimeout(f"no browser slot free within {fc.deadline:g} s") from None
        try:
            # Starting the browser is the process's cost, once, not the page's: it has a
            # bound of its own and moves the page's deadline by what it took.
            started = loop.time()
            try:
                async with asyncio.timeout(self.limits.launch_timeout):
                    browser = await self._browser_ready()
            except TimeoutError:
                self._forget_browser("it did not start in time")
                raise RenderUnavailable(
                    f"the browser did not start within {self.limits.launch_timeout:g} s"
                ) from None
            end += loop.time() - started
            async with asyncio.timeout_at(end):
                return await self._render_in(browser, page, fc, end)
        except TimeoutError:
            await self._check_alive()
            raise UpstreamTimeout(f"rendering took longer than {fc.deadline:g} s") from None
        finally:
            self._slots.release()

    async def _check_alive(self) -> None:
        """After a timeout: a browser that cannot open and close a context within the
        close timeout has hung, and is killed (the next page starts a new one)."""
        browser = self._browser
        if browser is None:
            return
        try:

            async def ping() -> None:
                context = await browser.new_context()
                await context.close()

            await asyncio.wait_for(ping(), self.limits.close_timeout)
        except Exception:
            self._forget_browser("it stopped answering", browser)

    async def _browser_ready(self) -> Any:
        assert self._browser_lock is not None
        async with self._browser_lock:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            if self._browser is not None:
                self._forget_browser("it disconnected")
            try:
                from playwright.async_api import Error as PlaywrightError
                from playwright.async_api import async_playwright
            except ImportError:
                raise RenderUnavailable(f"Playwright is not installed: {HOW_TO_INSTALL}") from None
            if self._pw is None:
                self._pw = await async_playwright().start()
            try:
                own = self._pw.chromium.executable_path
            except Exception:  # no browser of Playwright's own installed
                own = None
            executable = find_browser(self.executable, own)
            marker = uuid.uuid4().hex
            launcher = await asyncio.to_thread(self._launcher, executable)
            try:
                self._browser = await self._pw.chromium.launch(
                    executable_path=launcher,
                    args=self._args(marker),
                    chromium_sandbox=False,  # as root Chromium refuses its sandbox
                    handle_sigint=False,
                    handle_sigterm=False,
                    handle_sighup=False,
                )
            except PlaywrightError as exc:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                raise RenderUnavailable(
                    f"cannot start the browser {executable}: {first[:300]}; {HOW_TO_INSTALL}"
                ) from None
            self.marker = marker
            self.launches += 1
            return self._browser

    def _launcher(self, executable: str) -> str:
        """The path Playwright starts: the browser itself, or a wrapper script that puts
        it in an empty network namespace first (exec all the way: the browser keeps the
        pid, and so the process group, that Playwright starts)."""
        prefix = None if self.isolate is False else netns_prefix()
        if prefix is None:
            if self.isolate:
                raise RenderUnavailable(
                    "the renderer requires a network namespace and unshare was refused"
                )
            if self.isolate is None:
                log.warning(
                    "rendering without a network namespace (unshare refused): the "
                    "browser's own network is a dead end by its flags only"
                )
            self.isolated = False
            return executable
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="unchrome-browser-")
        path = os.path.join(self._tmp, "browser")
        command = " ".join(shlex.quote(part) for part in [*prefix, "--", executable])
        with open(path, "w") as handle:
            handle.write(f'#!/bin/sh\nexec {command} "$@"\n')
        os.chmod(path, 0o700)
        self.isolated = True
        return path

    def _args(self, marker: str) -> list[str]:
        dead = self._dead.getsockname()[1]
        return [
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--mute-audio",
            # Layer 3: no name resolves, every connection goes to a refused port,
            # loopback included (Chromium exempts it from proxies by default), and
            # WebRTC sends no UDP around the proxy.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--proxy-server=http://127.0.0.1:{dead}",
            "--proxy-bypass-list=<-loopback>",
            "--webrtc-ip-handling-policy=disable_non_proxied_udp",
            # A bound on a page's script heap (the DOM lives outside it).
            "--js-flags=--max-old-space-size=512",
            f"--unchrome-instance={marker}",  # how the watchdog finds the process
        ]

    async def _render_in(
        self, browser: Any, page: Fetched, fc: FetchConfig, end: float
    ) -> Rendered:
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        loop = asyncio.get_running_loop()
        started = loop.time()
        state = _PageState(page, PageNetwork(fc, end - started), self.limits)
        context = None
        try:
            context = await browser.new_context(
                service_workers="block",
                accept_downloads=False,
                java_script_enabled=True,
                viewport={"width": 1280, "height": 1024},
            )
            await context.route("**/*", lambda route: self._route(route, state))
            await context.route_web_socket(re.compile(r".*"), lambda ws: _refuse_socket(ws, state))
            tab = await context.new_page()
            # Popups (window.open) would be pages of their own: closed at once.
            tab.on("popup", lambda popup: asyncio.ensure_future(popup.close()))
            state.main_frame = tab.main_frame
            timeout_ms = max(1.0, (end - loop.time()) * 1000)
            tab.set_default_timeout(timeout_ms)
            tab.set_default_navigation_timeout(timeout_ms)
            await tab.goto(page.url, wait_until="load")
            await self._settle(state, end, fc.deadline)
            serialized = await tab.evaluate(_SERIALIZE, _max_chars(fc))
            final_url = tab.url
        except PlaywrightTimeout:
            raise TimeoutError from None  # the deadline, seen by Playwright first
        except PlaywrightError as exc:
            if state.main_refusal is not None:
                raise state.main_refusal from None
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else "failed"
            raise UpstreamError(f"the browser failed on the page: {message[:300]}") from None
        finally:
            await state.net.aclose()
            if context is not None:
                await self._close_context(context, browser)
        if not final_url.startswith(("http://", "https://")):
            # The main frame left the web (a refused navigation shows Chromium's error page).
            raise state.main_refusal or ForbiddenAddress(
                f"the page navigated to {final_url[:100]!r}"
            )
        if (
            not isinstance(serialized, list)
            or len(serialized) != 2
            or not isinstance(serialized[0], str)
        ):
            raise UpstreamError("the page's DOM could not be read")  # a script tampered
        return Rendered(
            url=final_url,
            html=serialized[0],
            truncated=bool(serialized[1]),
            requests=state.requests,
            refused=state.refused,
            seconds=loop.time() - started,
        )

    async def _close_context(self, context: Any, browser: Any) -> None:
        try:
            await asyncio.wait_for(context.close(), self.limits.close_timeout)
        except asyncio.CancelledError:
            raise
        except Exception:
            self._forget_browser("closing a page failed or took too long", browser)

    async def _settle(self, state: _PageState, end: float, seconds: float) -> None:
        """After ``load``: wait until no request has been in flight for ``quiet``
        seconds (the page's XHRs answered and their callbacks run), or until close to
        the deadline, keeping time to read the DOM (a page that polls forever is read
        as it stands then)."""
        loop = asyncio.get_running_loop()
        stop = end - min(1.0, 0.2 * seconds)
        while loop.time() < stop:
            if state.inflight == 0 and time.monotonic() - state.last_activity >= self.limits.quiet:
                return
            await asyncio.sleep(0.05)

    async def _route(self, route: Any, state: _PageState) -> None:
        from playwright.async_api import Error as PlaywrightError

        request = route.request
        url = request.url
        state.inflight += 1
        try:
            if request.resource_type not in _LOADED_TYPES:
                await route.abort("blockedbyclient")
                return
            state.requests += 1
            if state.requests > state.limits.max_requests:
                raise UpstreamError(f"more than {state.limits.max_requests} requests")
            if request.resource_type == "document" and not state.served_document:
                # The navigation we started: the document the fetcher already has.
                state.served_document = True
                document = state.document
                await route.fulfill(
                    status=200,
                    content_type=document.content_type or "text/html",
                    body=document.body,
                )
                return
            headers = await request.all_headers()
            answer = await state.net.exchange(
                request.method, url, headers, request.post_data_buffer
            )
            state.bytes += len(answer.body)
            if state.bytes > state.limits.max_bytes:
                raise UpstreamError(f"the page's responses passed {state.limits.max_bytes} bytes")
            await route.fulfill(
                status=answer.status, headers=_joined(answer.headers), body=answer.body
            )
        except UnchromeError as exc:
            state.refused.append((url, f"{exc.code}: {exc}"))
            if (
                request.resource_type == "document"
                and state.main_frame is not None
                and _same_frame(request, state.main_frame)
            ):
                state.main_refusal = exc
            with contextlib.suppress(PlaywrightError):
                await route.abort(_ABORT_REASONS.get(exc.code, "failed"))
        except PlaywrightError:
            pass  # the page was closed while its request was under way
        finally:
            state.inflight -= 1
            state.last_activity = time.monotonic()

    async def _shutdown(self) -> None:
        browser, self._browser = self._browser, None
        with contextlib.suppress(Exception):
            if browser is not None:
                await asyncio.wait_for(browser.close(), self.limits.close_timeout)
        with contextlib.suppress(Exception):
            if self._pw is not None:
                await asyncio.wait_for(self._pw.stop(), self.limits.close_timeout)
        self._pw = None


async def _refuse_socket(ws: Any, state: _PageState) -> None:
    """A WebSocket is closed from our side; no connection is ever opened for it."""
    state.refused.append((ws.url, "FORBIDDEN_ADDRESS: WebSockets are not opened"))
    with contextlib.suppress(Exception):
        await ws.close(code=1008, reason="refused by the renderer")


def _same_frame(request: Any, frame: Any) -> bool:
    try:
        return bool(request.frame == frame)
    except Exception:  # a worker's request has no frame
        return False


def _joined(headers: list[tuple[str, str]]) -> dict[str, str]:
    """Playwright takes one value per name; repeated Set-Cookie lines are joined by a
    newline, as it reads them, the others by a comma, as HTTP does."""
    out: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if key in out:
            out[key] += ("\n" if key == "set-cookie" else ", ") + value
        else:
            out[key] = value
    return out


def _max_chars(fc: FetchConfig) -> int:
    # The rendered page is held to the size a fetched page may decode to.
    return fc.max_decompressed


# --------------------------------------------------------------------------- the process


_default: Renderer | None = None
_default_pid = 0
_default_lock = threading.Lock()


def default_renderer() -> Renderer:
    """The process's renderer, started on first use (a forked child starts its own)."""
    global _default, _default_pid
    with _default_lock:
        if _default is None or _default_pid != os.getpid():
            _default = Renderer()
            _default_pid = os.getpid()
            atexit.register(_default.close)
        return _default


def extract_rendered(rendered: Rendered, page: Fetched, config: Config | None) -> Result:
    """The normal pipeline on the rendered DOM, with the final URL."""
    from unchrome.pipeline.extractor import extract

    result = extract(rendered.html, url=rendered.url, config=config)
    if rendered.truncated or page.truncated:
        result.truncated = True
    if not result.url:
        result.url = rendered.url
    return result


def _static(page: Fetched, config: Config) -> tuple[Result | None, UnchromeError | None]:
    try:
        return extract_fetched(page, config), None
    except ExtractFailed as exc:
        return None, exc


def _fallback(static: Result | None, failure: UnchromeError | None, error: UnchromeError) -> Result:
    """``auto`` after a failed render: the static outcome where there was one to give.
    Without a browser, auto is plain static extraction; a render that failed for
    another reason says so when the static extraction had nothing."""
    if isinstance(error, RenderUnavailable):
        log.info("render=auto without a browser: %s", error)
    else:
        log.info("render=auto: the render failed (%s); the static result stands", error.code)
    if static is not None:
        return static
    if isinstance(error, RenderUnavailable) and failure is not None:
        raise failure
    raise error


def read_rendering(
    page: Fetched, config: Config, fc: FetchConfig, renderer: Renderer | None = None
) -> Result:
    """``read``'s path when ``config.render`` is "auto" or "always"."""
    if config.render == "always":
        rendered = (renderer or default_renderer()).render(page, fc)
        return extract_rendered(rendered, page, config)
    static, failure = _static(page, config)
    if not should_render(page.body, static):
        if static is None:
            assert failure is not None
            raise failure
        return static
    try:
        rendered = (renderer or default_renderer()).render(page, fc)
    except UnchromeError as exc:
        return _fallback(static, failure, exc)
    return extract_rendered(rendered, page, config)


async def aread_rendering(
    page: Fetched, config: Config, fc: FetchConfig, renderer: Renderer | None = None
) -> Result:
    """Async :func:`read_rendering`; extraction runs in worker threads."""
    import anyio

    if config.render == "always":
        rendered = await (renderer or default_renderer()).arender(page, fc)
        return await anyio.to_thread.run_sync(extract_rendered, rendered, page, config)
    static, failure = await anyio.to_thread.run_sync(_static, page, config)
    if not await anyio.to_thread.run_sync(should_render, page.body, static):
        if static is None:
            assert failure is not None
            raise failure
        return static
    try:
        rendered = await (renderer or default_renderer()).arender(page, fc)
    except UnchromeError as exc:
        return _fallback(static, failure, exc)
    return await anyio.to_thread.run_sync(extract_rendered, rendered, page, config)
