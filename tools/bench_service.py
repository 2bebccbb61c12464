"""Load on ``unchrome serve`` from a small asyncio client, on loopback only.

    python tools/bench_service.py                       # 3,000 requests at 16 and 64
    python tools/bench_service.py --requests 10000 --concurrency 16   # the memory run

The service runs as its own process (``python -m unchrome serve``, 127.0.0.1, a free
port, the defaults of ``ServiceSettings``). The client POSTs WCXB dev pages, read in
place from ``../shared/data/wcxb`` and cycled, to ``/v1/extract`` (nothing is fetched:
the figures are the service's, not a network's), keeping ``--concurrency`` requests in
flight, and reports requests/s, p50/p99 latency, the answers by status and the
service's resident memory after the run (from /proc, Linux). Every loop is bounded by
the request count and a deadline. This is a benchmark, not a test: the numbers depend
on the machine and its load, which the tool prints first.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "wcxb" / "dev" / "html"
# Pages of at most this size, so that the body limit (5 MiB) never decides an answer.
MAX_PAGE_BYTES = 1 << 20
DEADLINE_SECONDS = 1800


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _pages(limit: int) -> list[bytes]:
    files = sorted(DATA.glob("*.html.gz"))[:limit]
    pages = [gzip.decompress(f.read_bytes()) for f in files]
    return [p for p in pages if len(p) <= MAX_PAGE_BYTES]


class Service:
    """``unchrome serve`` in a process of its own, stopped on exit."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        env.pop("UNCHROME_API_KEY", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unchrome", "serve", "--port", str(self.port),
             "--log-level", "warning"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def __enter__(self) -> Service:
        for _ in range(200):
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.proc.kill()
        raise RuntimeError("the service did not come up")

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def _load(base: str, pages: list[bytes], requests: int, concurrency: int) -> dict:
    latencies: list[float] = []
    statuses: Counter[int | str] = Counter()
    next_index = 0
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal next_index
        while next_index < requests:
            index = next_index
            next_index += 1
            started = time.perf_counter()
            try:
                resp = await client.post(
                    "/v1/extract",
                    content=pages[index % len(pages)],
                    headers={"Content-Type": "text/html"},
                )
                statuses[resp.status_code] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1
            latencies.append(time.perf_counter() - started)

    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(*(worker(client) for _ in range(concurrency))), DEADLINE_SECONDS
        )
        elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": requests,
        "concurrency": concurrency,
        "per_second": requests / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "statuses": dict(statuses),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/bench_service.py", description=__doc__)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--pages", type=int, default=300, help="dev pages to cycle")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"bench_service: no WCXB pages under {DATA}", file=sys.stderr)
        return 2
    pages = _pages(args.pages)
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, {len(pages)} pages")
    print("| concurrency | requests | requests/s | p50 ms | p99 ms | answers | service RSS MB |")
    print("|---:|---:|---:|---:|---:|---|---:|")
    for concurrency in args.concurrency:
        with Service() as service:
            result = asyncio.run(_load(service.base, pages, args.requests, concurrency))
            rss = _rss_mb(service.proc.pid)
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(result["statuses"].items(), key=str))
        print(
            f"| {concurrency} | {args.requests} | {result['per_second']:.1f} | "
            f"{result['p50_ms']:.0f} | {result['p99_ms']:.0f} | {answers} | {rss:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
