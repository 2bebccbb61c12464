"""The quality benchmark, outside the wheel: it reads the evaluation suites in
``../shared/data`` and wraps the peers (trafilatura, resiliparse, readability-lxml),
none of which a user of unchrome needs. Run from the repository root:
``python -m benchmarks.bench --help``. The tests and ``tools/`` import it from here."""
