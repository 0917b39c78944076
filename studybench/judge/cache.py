"""The one LLM reply cache: ``request key -> (label, reply)`` in SQLite.

The StudyBench judge, the EvaLearn rubric judge and the guidance teacher all replay LLM
decisions from it, so re-running or re-scoring costs no calls. The *label* is what the caller
decided from the reply (a verdict for the judges, the stage name for the teacher); the key is
the caller's hash of everything that determines the reply (see :func:`request_key`).

Stored replies are scrubbed of secrets on the way in and the caller gets the stored text back
from :meth:`ReplyCache.put`, so the first run and every replay see the same reply. One
connection per process with a lock (callers are asyncio tasks and threads); WAL and a busy
timeout let a DAG's parallel judge tasks share the file. Entries of the two earlier tables
(``judge_cache`` of the judges, ``replies`` of the teacher) are carried over on open, so an
existing cache keeps saving calls.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from pathlib import Path
from typing import NamedTuple

from studybench.secrets import scrub_secrets

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS reply_cache "
    "(key TEXT PRIMARY KEY, label TEXT NOT NULL, reply TEXT NOT NULL, created REAL)"
)
_LEGACY = {
    "judge_cache": "SELECT key, verdict, reply, created FROM judge_cache",
    "replies": "SELECT key, COALESCE(stage, ''), reply, NULL FROM replies",
}


class CachedReply(NamedTuple):
    label: str
    reply: str


def request_key(*parts: str) -> str:
    """The cache key of a request: a hash of its parts (version, model, prompt, ...)."""
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


class ReplyCache:
    """``(request key) -> (label, reply)``; survives kills (every put is committed)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
        self._db.execute("PRAGMA busy_timeout=60000")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_SCHEMA)
        self._adopt_legacy()

    def _adopt_legacy(self) -> None:
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        for table, select in _LEGACY.items():
            if table in tables:
                self._db.execute(f"INSERT OR IGNORE INTO reply_cache {select}")

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = self._db.execute(
                "SELECT label, reply FROM reply_cache WHERE key = ?", (key,)
            ).fetchone()
        return CachedReply(str(row[0]), str(row[1])) if row else None

    def put(self, key: str, label: str, reply: str) -> str:
        """Store ``reply`` (scrubbed) under ``key``; returns the text stored."""
        stored = scrub_secrets(reply)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO reply_cache VALUES (?, ?, ?, ?)",
                (key, label, stored, time.time()),
            )
        return stored

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM reply_cache").fetchone()
        return int(count)

    def close(self) -> None:
        with self._lock:
            self._db.close()


# The judges' historical name; one class.
JudgeCache = ReplyCache
