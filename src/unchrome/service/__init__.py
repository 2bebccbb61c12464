"""The HTTP service, ``unchrome serve`` (the [serve] extra)."""
