"""How often ``render="auto"`` would start the browser on the benchmark suites.

For every page of each suite: the static extraction (as ``read`` does it, with the
suite's Content-Type), then ``unchrome.net.browser``'s condition: the result is thin or the
extraction failed, *and* the page shows client-rendering signs. Nothing is rendered and
nothing is fetched. Prints one row per suite and the pages where auto would render.

    python tools/render_auto_rate.py [--suite wcxb news classic readability] [--split dev]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: benchmarks/

from benchmarks.bench import load_suite, resolve_data_dir
from unchrome.errors import UnchromeError
from unchrome.net.render_signs import client_rendering_sign, is_thin
from unchrome.pipeline.extractor import Extractor


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", nargs="+", default=["wcxb", "news", "classic", "readability"])
    p.add_argument("--split", default="dev", help="the WCXB split (default dev)")
    opts = p.parse_args(argv)
    extractor = Extractor()
    rows = []
    for suite in opts.suite:
        pages, _skipped = load_suite(suite, resolve_data_dir(None, suite), opts.split)
        thin = signs = both = failed = 0
        hits = []
        for page in pages:
            raw = page.read_html()
            try:
                result = extractor.extract(raw, url=page.url, content_type=page.content_type)
            except UnchromeError:
                result = None
                failed += 1
            sign = client_rendering_sign(raw)
            thin += is_thin(result)
            signs += sign is not None
            if is_thin(result) and sign is not None:
                both += 1
                hits.append(f"  {suite} {page.file_id}: {sign}")
        rows.append((suite, len(pages), failed, thin, signs, both))
        print("\n".join(hits))
    print(
        "| suite | pages | static failed | thin or failed | client-rendering sign | auto renders |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for suite, n, failed, thin, signs, both in rows:
        print(
            f"| {suite} | {n:,} | {failed} | {thin} | {signs} | {both} ({100 * both / n:.2f} %) |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
