"""Test-wide settings."""

from __future__ import annotations

import os

from hypothesis import settings

# Hypothesis draws new examples on every run, which is how it found the Arc XP state
# with a number where a list belongs. In CI (.ci/run sets CI) the draws are fixed:
# a run there checks the code, not the luck of the draw; the exploration happens on
# developers' runs and in tools/fuzz_extract.py.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
