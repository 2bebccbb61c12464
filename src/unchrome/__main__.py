"""``python -m unchrome``: the same as the ``unchrome`` command."""

from __future__ import annotations

from unchrome.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
