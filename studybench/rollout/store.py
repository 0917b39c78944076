"""The append-only generation store of a run folder (SQLite in WAL mode).

Every finished turn is committed as it arrives, so a run killed at any moment (even SIGKILL)
loses at most the requests in flight. A turn is identified by (model and protocol, slot key,
seed, attempt, turn) *and* the hash of the exact request that produced it (messages and
sampling): on resume a stored turn is reused only if the request would be identical now. That
one rule makes resume correct in every case: a turn whose earlier turn was regenerated (it
failed before) has a different conversation, so it is regenerated too, and a changed prompt or
sampling parameter never silently reuses old text. Nothing is ever updated or deleted; the
newest matching successful record wins. Error texts are scrubbed of secrets on the way in
(an endpoint's 401 body can quote the key), whoever produced them.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from pydantic import BaseModel

from studybench.data.records import SlotKey
from studybench.engines.base import Message, SamplingParams
from studybench.secrets import scrub_optional

SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY,
    run_key TEXT NOT NULL,
    source TEXT NOT NULL,
    year TEXT NOT NULL,
    source_problem_id TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    seed INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    context_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    completion TEXT NOT NULL,
    finish_reason TEXT,
    error TEXT,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    request_seed INTEGER,
    messages TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_lookup
    ON turns (run_key, source, year, source_problem_id, seed, attempt, turn);
"""


Position = tuple[SlotKey, int, int, int]  # slot, seed, attempt, turn: one place of a run
LookupKey = tuple[SlotKey, int, int, int, str]  # a position and its request hash


class TurnRecord(BaseModel):
    run_key: str
    key: SlotKey
    seed: int
    attempt: int
    turn: int
    context_hash: str
    status: str  # "ok" | "error"
    completion: str
    finish_reason: str | None = None
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    request_seed: int | None = None
    messages: list[dict[str, str]]
    created: float = 0.0

    @property
    def position(self) -> Position:
        """Where in the run this turn stands, whatever was asked there."""
        return (self.key, self.seed, self.attempt, self.turn)

    @property
    def lookup(self) -> LookupKey:
        """The position and the exact request (a changed prompt is another request)."""
        return (*self.position, self.context_hash)


def context_hash(messages: Sequence[Message], sampling: SamplingParams) -> str:
    payload = json.dumps(
        {"messages": [m.model_dump() for m in messages], "sampling": sampling.model_dump()},
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


class GenerationStore:
    """One SQLite file per run folder; safe against kills, single writer."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def append(self, record: TurnRecord) -> None:
        k = record.key
        self._db.execute(
            "INSERT INTO turns (run_key, source, year, source_problem_id, problem_id, seed, "
            "attempt, turn, context_hash, status, completion, finish_reason, error, "
            "prompt_tokens, completion_tokens, request_seed, messages, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.run_key,
                k.source,
                k.year,
                k.source_problem_id,
                k.problem_id,
                record.seed,
                record.attempt,
                record.turn,
                record.context_hash,
                record.status,
                record.completion,
                record.finish_reason,
                scrub_optional(record.error),
                record.prompt_tokens,
                record.completion_tokens,
                record.request_seed,
                json.dumps(record.messages, ensure_ascii=False),
                record.created or time.time(),
            ),
        )

    def records(self, run_key: str | None = None) -> Iterator[TurnRecord]:
        query = "SELECT * FROM turns" + (" WHERE run_key = ?" if run_key else "") + " ORDER BY id"
        cursor = self._db.execute(query, (run_key,) if run_key else ())
        names = [d[0] for d in cursor.description]
        for row in cursor:
            values = dict(zip(names, row, strict=True))
            yield TurnRecord(
                run_key=values["run_key"],
                key=SlotKey(
                    values["source"],
                    values["year"],
                    values["source_problem_id"],
                    values["problem_id"],
                ),
                seed=values["seed"],
                attempt=values["attempt"],
                turn=values["turn"],
                context_hash=values["context_hash"],
                status=values["status"],
                completion=values["completion"],
                finish_reason=values["finish_reason"],
                error=values["error"],
                prompt_tokens=values["prompt_tokens"],
                completion_tokens=values["completion_tokens"],
                request_seed=values["request_seed"],
                messages=json.loads(values["messages"]),
                created=values["created"],
            )

    def latest(self, run_key: str, status: str = "ok") -> dict[LookupKey, TurnRecord]:
        """The newest record of a status per (slot, seed, attempt, turn, request)."""
        return {r.lookup: r for r in self.records(run_key) if r.status == status}

    def count(self) -> int:
        (value,) = self._db.execute("SELECT COUNT(*) FROM turns").fetchone()
        return int(value)

    def close(self) -> None:
        self._db.close()
