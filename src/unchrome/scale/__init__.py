"""Batch runs: WARC files and HTML directories (``warc``), the worker pool with its
deadlines and memory limits (``batch``), the JSON Lines and Parquet sinks (``sink``),
and the Ray Data and datatrove integrations (``ray``, ``datatrove``: their extras)."""
