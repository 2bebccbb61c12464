"""Offline network helpers for the fetch/serve tests: local servers on loopback only."""
