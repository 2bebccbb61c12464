"""A crawl's memory, in SQLite: every URL found (with its depth and validators), what
became of it, the bodies fetched but not yet extracted, and the rows made.

Each step is one transaction, so that a crawl killed at any instant (``kill -9``
included) resumes where it was:

* a fetched body is committed before it is extracted: a crash in between extracts it
  again on resume, without asking the site again;
* a page's row, its ``done`` mark and the links it adds to the queue are one commit: a
  page is never half-recorded, and never recorded twice;
* the output file is written from the committed rows (:mod:`unchrome.site.output`).

Without a state directory the crawl uses a temporary one, so one code path serves both.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unchrome.errors import FileAccessError, InvalidInput
from unchrome.net.fetch import Fetched

STATE_FILE = "crawl.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS urls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT UNIQUE NOT NULL,
    depth INTEGER NOT NULL,
    -- queued, fetched, done, unchanged (304), robots, duplicate (a redirect's target or
    -- a second way to it), off_site (redirected to another site)
    status TEXT NOT NULL,
    pass INTEGER NOT NULL,
    etag TEXT,
    last_modified TEXT
);
CREATE INDEX IF NOT EXISTS urls_queue ON urls (status, depth, id);
CREATE TABLE IF NOT EXISTS bodies (
    url_id INTEGER PRIMARY KEY,
    final_url TEXT, status INTEGER, content_type TEXT, headers TEXT, body BLOB
);
CREATE TABLE IF NOT EXISTS rows (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, pass INTEGER NOT NULL, url_id INTEGER, row TEXT
);
"""


@dataclass(frozen=True, slots=True)
class Item:
    id: int
    url: str
    depth: int
    status: str
    etag: str | None
    last_modified: str | None


class State:
    """The SQLite file ``DIR/crawl.sqlite``; use as a context manager."""

    def __init__(self, directory: str | Path) -> None:
        path = Path(directory)
        try:
            path.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path / STATE_FILE, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise FileAccessError(f"cannot open the crawl state in {directory}: {exc}") from None
        # WAL + synchronous=FULL: a commit is on disk when it returns, and readers (the
        # output writer) never block the crawl.
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)
        self.pass_ = int(self.get("pass") or 0)

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # -- meta

    def get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set(self, key: str, value: object) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(value)))

    def begin(self, seed: str, *, recrawl: bool) -> int:
        """The pass this run works on: the unfinished one, or (``recrawl``, or a fresh
        state) a new one in which every URL is queued again."""
        known = self.get("seed")
        if known is not None and known != seed:
            raise InvalidInput(f"this state directory holds a crawl of {known}, not of {seed}")
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if known is None:
                self.set("seed", seed)
                self.pass_ = 1
                self.set("pass", 1)
            elif recrawl and self.get("finished") == str(self.pass_):
                self.pass_ += 1
                self.set("pass", self.pass_)
                self.db.execute(
                    "UPDATE urls SET status = 'queued', pass = ? WHERE status != 'queued'",
                    (self.pass_,),
                )
        return self.pass_

    def finished(self) -> bool:
        return self.get("finished") == str(self.pass_)

    def finish(self) -> None:
        self.set("finished", self.pass_)

    # -- the queue

    def add(self, urls: Iterable[str], depth: int) -> int:
        """Queue the URLs not known yet; how many were new. One transaction."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            return self._add(urls, depth)

    def _add(self, urls: Iterable[str], depth: int) -> int:
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO urls (url, depth, status, pass) VALUES (?, ?, 'queued', ?)",
            ((u, depth, self.pass_) for u in urls),
        )
        return self.db.total_changes - before

    def next(self) -> Item | None:
        """The next URL breadth-first: one fetched but not written first, then the
        shallowest queued."""
        # Two queries, each served by the (status, depth, id) index: one ordering the
        # union would scan the whole table for every page of a large crawl.
        for status in ("fetched", "queued"):
            row = self.db.execute(
                "SELECT id, url, depth, status, etag, last_modified FROM urls "
                "WHERE status = ? ORDER BY depth, id LIMIT 1",
                (status,),
            ).fetchone()
            if row is not None:
                return Item(*row)
        return None

    def status_of(self, url: str) -> str | None:
        row = self.db.execute("SELECT status FROM urls WHERE url = ?", (url,)).fetchone()
        return None if row is None else str(row[0])

    # -- steps, each one commit

    def fetched(self, item: Item, answer: Fetched) -> None:
        headers = json.dumps(dict(answer.headers.items()))
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT OR REPLACE INTO bodies VALUES (?, ?, ?, ?, ?, ?)",
                (
                    item.id,
                    answer.url,
                    answer.status,
                    answer.content_type,
                    headers,
                    zlib.compress(answer.body, 1),
                ),
            )
            self.db.execute("UPDATE urls SET status = 'fetched' WHERE id = ?", (item.id,))

    def body(self, item: Item) -> Fetched | None:
        import httpx

        row = self.db.execute(
            "SELECT final_url, status, content_type, headers, body FROM bodies WHERE url_id = ?",
            (item.id,),
        ).fetchone()
        if row is None:
            return None
        final_url, status, content_type, headers, body = row
        return Fetched(
            url=final_url,
            status=status,
            content_type=content_type,
            body=zlib.decompress(body),
            headers=httpx.Headers(json.loads(headers)),
        )

    def written(
        self,
        item: Item,
        row: dict[str, Any] | None,
        *,
        status: str = "done",
        links: Iterable[str] = (),
        alias: str | None = None,
        validators: tuple[str | None, str | None] | None = None,
    ) -> int:
        """The page's outcome: its row (None: no row, e.g. a 304), its final status,
        the links it queues one level deeper and the URL it redirected to (``alias``,
        marked done so that it is not fetched again). How many links were new."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if row is not None:
                self.db.execute(
                    "INSERT INTO rows (pass, url_id, row) VALUES (?, ?, ?)",
                    (self.pass_, item.id, json.dumps(row, ensure_ascii=False)),
                )
            self.db.execute(
                "UPDATE urls SET status = ?, pass = ? WHERE id = ?", (status, self.pass_, item.id)
            )
            if validators is not None:
                self.db.execute(
                    "UPDATE urls SET etag = ?, last_modified = ? WHERE id = ?",
                    (*validators, item.id),
                )
            self.db.execute("DELETE FROM bodies WHERE url_id = ?", (item.id,))
            if alias is not None and alias != item.url:
                self.db.execute(
                    "INSERT INTO urls (url, depth, status, pass) VALUES (?, ?, 'duplicate', ?) "
                    "ON CONFLICT(url) DO UPDATE SET status = 'duplicate', pass = excluded.pass",
                    (alias, item.depth, self.pass_),
                )
            return self._add(links, item.depth + 1)

    # -- rows and counts

    def rows(self, after: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
        """This pass's rows after ``after`` (a seq), in order."""
        cursor = self.db.execute(
            "SELECT seq, row FROM rows WHERE pass = ? AND seq > ? ORDER BY seq",
            (self.pass_, after),
        )
        for seq, text in cursor:
            yield seq, json.loads(text)

    def row_count(self) -> int:
        return int(
            self.db.execute("SELECT COUNT(*) FROM rows WHERE pass = ?", (self.pass_,)).fetchone()[0]
        )

    def counts(self) -> dict[str, int]:
        cursor = self.db.execute("SELECT status, COUNT(*) FROM urls GROUP BY status")
        return {str(status): int(n) for status, n in cursor}


@contextmanager
def open_state(directory: str | Path | None) -> Iterator[State]:
    """The state in ``directory``, or in a temporary directory removed afterwards."""
    if directory is not None:
        with State(directory) as state:
            yield state
        return
    with tempfile.TemporaryDirectory(prefix="unchrome-crawl-") as tmp, State(tmp) as state:
        yield state
