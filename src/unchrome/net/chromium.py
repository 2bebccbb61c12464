"""Which Chromium to run and how to fence it in: the executable (the caller's,
UNCHROME_BROWSER, Playwright's own, or one on PATH), a network namespace of its own
where the system allows one, and its process group."""

from __future__ import annotations

import contextlib
import importlib.util
import os

from unchrome.errors import (
    RenderUnavailable,
)

# Looked up on PATH, in this order, when neither the caller nor UNCHROME_BROWSER names a
# browser and Playwright has none of its own installed.
BROWSER_NAMES = (
    "chromium",
    "chromium-headless-shell",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
)
HOW_TO_INSTALL = (
    "install the [render] extra (pip install 'unchrome[render]') and a Chromium "
    "(Debian: apt-get install chromium), or name its executable in UNCHROME_BROWSER"
)


def available() -> bool:
    """Whether the ``[render]`` extra (Playwright) is installed; a browser may still be
    missing, which only a render finds out (RENDER_UNAVAILABLE)."""
    return importlib.util.find_spec("playwright") is not None


def find_browser(explicit: str | None = None, playwright_own: str | None = None) -> str:
    """The Chromium to run: ``explicit``, else ``UNCHROME_BROWSER``, else Playwright's own
    installed browser, else the first of :data:`BROWSER_NAMES` on PATH."""
    # shutil and subprocess are imported where they are used: the command line asks
    # available() for its default on every run, and they were 3 ms of a page's start.
    import shutil

    named = explicit or os.environ.get("UNCHROME_BROWSER", "").strip()
    if named:
        path = shutil.which(named)
        if path is None:
            source = "the renderer's executable" if explicit else "UNCHROME_BROWSER"
            raise RenderUnavailable(f"{source} {named!r} is not an executable: {HOW_TO_INSTALL}")
        return path
    if playwright_own and os.access(playwright_own, os.X_OK):
        return playwright_own
    for name in BROWSER_NAMES:
        path = shutil.which(name)
        if path is not None:
            return path
    raise RenderUnavailable(f"no Chromium found to render the page: {HOW_TO_INSTALL}")


def netns_prefix() -> list[str] | None:
    """``unshare`` arguments that put a command in an empty network namespace, or None
    where the system refuses (no unshare, or namespaces forbidden, as in many
    containers). Tried once, on a command that does nothing."""
    import shutil
    import subprocess

    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    prefix = [unshare, "--net"]
    if os.geteuid() != 0:  # an unprivileged user gets the namespace through a user one
        prefix = [unshare, "--user", "--map-root-user", "--net"]
    try:
        done = subprocess.run([*prefix, "--", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return prefix if done.returncode == 0 else None


def _browser_pids(marker: str) -> list[int]:
    """The processes started with our instance marker (the browser's main process)."""
    token = f"--unchrome-instance={marker}".encode()
    pids: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                args = handle.read().split(b"\0")
        except OSError:
            continue
        if token in args:
            pids.append(int(entry))
    return pids


def browser_process_group(marker: str) -> int | None:
    """The process group of the browser started with ``marker`` (Playwright starts it
    detached: its pid leads a group that holds its zygote, renderers and GPU process)."""
    for pid in _browser_pids(marker):
        with contextlib.suppress(OSError):
            if os.getpgid(pid) == pid:
                return pid
    return None
