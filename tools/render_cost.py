"""What rendering costs: the fixture pages of tests/fixtures/render served on loopback
and rendered ``--runs`` times each by one browser, against the static read of the same
page. Prints the browser's start, ms per page (static read, rendered read) and the
browser's memory (the proportional set size of its whole process group).

    python tools/render_cost.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Sequence
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from unchrome.config import Config
from unchrome.net.browser import Renderer, extract_rendered
from unchrome.net.fetch import fetch
from unchrome.net.fetch_config import FetchConfig
from unchrome.net.remote import read

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "render"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=20)
    opts = p.parse_args(argv)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(FIXTURES)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/app.html"
    fc = FetchConfig(allow_ports=(server.server_address[1],), allow_addresses=("127.0.0.1/32",))
    renderer = Renderer()
    try:
        started = time.perf_counter()
        document = fetch(url, fc)
        first = renderer.render(document, fc)
        print(
            f"first page, browser start included: {1000 * (time.perf_counter() - started):.0f} ms"
        )
        print(f"network namespace: {renderer.isolated}; requests per page: {first.requests}")
        static, rendered, memory = [], [], []
        for _ in range(opts.runs):
            t = time.perf_counter()
            read(url, fetch_config=fc)
            static.append(1000 * (time.perf_counter() - t))
            t = time.perf_counter()
            page = fetch(url, fc)
            extract_rendered(renderer.render(page, fc), page, Config())
            rendered.append(1000 * (time.perf_counter() - t))
            memory.append(renderer.browser_memory())
        for name, ms in (("static read", static), ("rendered read", rendered)):
            print(f"{name}: p50 {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")
        print(
            f"browser memory (PSS of its processes): {max(memory) / 2**20:.0f} MiB at most, "
            f"{memory[-1] / 2**20:.0f} MiB after {opts.runs} pages"
        )
    finally:
        renderer.close()
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
