"""Digests of what extraction gives on every page of the benchmark suites, to show that
a change (a speed-up, a refactor) leaves every output as it was.

    python tools/output_digest.py > bench-out/before.tsv     # on the old code
    python tools/output_digest.py > bench-out/after.tsv      # on the new code
    python tools/output_digest.py --compare bench-out/before.tsv bench-out/after.tsv

One line per page and field: suite, page id, field, md5 of the value (the error code
for a page that fails). Every field of ``Result.to_dict()`` is digested (text,
Markdown, HTML, the media lists and every metadata field) except ``processing_time``.
The suites are read from ``../shared/data`` in place (see ``benchmarks.bench``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: benchmarks/

from benchmarks.bench import SUITES, load_suite, resolve_data_dir
from unchrome import UnchromeError, extract

SKIPPED_FIELDS = frozenset({"processing_time"})


def digests(suites: list[str]) -> Iterator[tuple[str, str, str, str]]:
    for suite in suites:
        pages, _ = load_suite(suite, resolve_data_dir(None, suite))
        for page in pages:
            raw = page.read_html()
            try:
                result = extract(raw, url=page.url, content_type=page.content_type)
            except UnchromeError as exc:
                yield suite, page.file_id, "error", exc.code
                continue
            for name, value in result.to_dict().items():
                if name in SKIPPED_FIELDS:
                    continue
                blob = json.dumps(value, ensure_ascii=False, sort_keys=True)
                md5 = hashlib.md5(blob.encode("utf-8", "surrogatepass")).hexdigest()
                yield suite, page.file_id, name, md5


def compare(before: Path, after: Path) -> int:
    def table(path: Path) -> dict[tuple[str, ...], str]:
        rows = (line.rstrip("\n").split("\t") for line in path.open(encoding="utf-8"))
        return {tuple(row[:3]): row[3] for row in rows if len(row) == 4}

    old, new = table(before), table(after)
    changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    pages = {k[:2] for k in old} | {k[:2] for k in new}
    for key in changed:
        print("\t".join(key), old.get(key, "-"), new.get(key, "-"), sep="\t")
    print(f"{len(pages)} pages, {len(changed)} fields differ", file=sys.stderr)
    return 1 if changed else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--suite", action="append", choices=SUITES, help="default: every suite")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    opts = p.parse_args()
    if opts.compare:
        return compare(*opts.compare)
    for row in digests(opts.suite or list(SUITES)):
        sys.stdout.write("\t".join(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
