"""Sitemap parsing: time and memory for 5,000 to 50,000 URLs (run by hand, not a test).

    python tools/bench_sitemap.py            # plain and gzipped, 5k / 20k / 50k URLs

The target (issue 43): a 50,000-URL sitemap parsed in under 2 s, with memory that does
not grow with the number of URLs (the parse streams: each <url> is dropped once read).
The sitemaps are made here, written to a temporary file and parsed from it, as
unchrome.site.sitemap.parse is given a stream; the URLs are counted, not kept. Memory
is the peak of Python allocations during the parse (tracemalloc, in a second run so
that its overhead does not weigh on the time).
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import tempfile
import time
import tracemalloc
from pathlib import Path

from unchrome.site.sitemap import parse

HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
ENTRY = (
    "<url><loc>https://www.example.com/section-{s}/articles/2026/{n:06d}-a-long-slug-for-the-"
    "story-number-{n}</loc><lastmod>2026-11-{d:02d}T10:00:00+00:00</lastmod>"
    "<changefreq>weekly</changefreq><priority>0.5</priority></url>\n"
)


def make(path: Path, n: int, compress: bool) -> None:
    body = HEAD + "".join(ENTRY.format(s=i % 17, n=i, d=i % 28 + 1) for i in range(n)).encode()
    body += b"</urlset>\n"
    path.write_bytes(gzip.compress(body) if compress else body)


def count(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in parse(f))


def measure(path: Path) -> tuple[int, float, int]:
    started = time.perf_counter()
    found = count(path)
    seconds = time.perf_counter() - started
    tracemalloc.start()
    count(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return found, seconds, peak


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="5000,20000,50000")
    opts = p.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; {platform.python_version()}")
    print(f"{'urls':>7} {'gzip':>5} {'file MB':>8} {'seconds':>8} {'urls/s':>9} {'peak KiB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in opts.sizes.split(",")):
            for compress in (False, True):
                path = Path(tmp) / f"s{n}.xml{'.gz' if compress else ''}"
                make(path, n, compress)
                found, seconds, peak = measure(path)
                assert found == n, (found, n)
                size = path.stat().st_size / 1e6
                print(
                    f"{n:>7} {'yes' if compress else 'no':>5} {size:>8.1f} {seconds:>8.2f} "
                    f"{n / seconds:>9.0f} {peak / 1024:>9.0f}"
                )


if __name__ == "__main__":
    main()
