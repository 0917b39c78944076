"""The one LLM reply cache: replays, scrubbed storage, adoption of the two earlier tables,
and use from many threads."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from studybench.judge.cache import JudgeCache, ReplyCache, request_key
from studybench.judge.llm import JudgeCache as ReExported


def test_put_then_get_across_connections(tmp_path: Path) -> None:
    cache = ReplyCache(tmp_path / "c.sqlite")
    key = request_key("1.0.0", "judge", "prompt")
    assert cache.get(key) is None
    assert cache.put(key, "true", "VERDICT: TRUE") == "VERDICT: TRUE"
    cache.close()
    again = ReplyCache(tmp_path / "c.sqlite")
    hit = again.get(key)
    assert hit is not None and (hit.label, hit.reply) == ("true", "VERDICT: TRUE")
    assert hit[0] == "true" and hit[1] == "VERDICT: TRUE"  # tuple access still works
    assert JudgeCache is ReplyCache is ReExported


def test_stored_reply_is_scrubbed_and_returned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDYBENCH_TEACHER_API_KEY", "teacher-planted-key-4455")
    cache = ReplyCache(tmp_path / "c.sqlite")
    stored = cache.put("k", "stage", "echo teacher-planted-key-4455 and Bearer abcdEFGH12345678")
    assert "teacher-planted-key-4455" not in stored and "abcdEFGH12345678" not in stored
    assert cache.get("k") == ("stage", stored)
    cache.close()
    assert b"teacher-planted-key-4455" not in (tmp_path / "c.sqlite").read_bytes()


def test_earlier_tables_are_adopted(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE judge_cache (key TEXT PRIMARY KEY, verdict TEXT, reply TEXT, "
                   "created REAL)")  # fmt: skip
        db.execute("INSERT INTO judge_cache VALUES ('j', 'false', 'VERDICT: FALSE', 1.0)")
        db.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, stage TEXT, reply TEXT)")
        db.execute("INSERT INTO replies VALUES ('t', 'extract', '{\"points\": []}')")
    cache = ReplyCache(path)
    assert cache.get("j") == ("false", "VERDICT: FALSE")
    assert cache.get("t") == ("extract", '{"points": []}')
    assert len(cache) == 2


def test_many_threads_share_one_cache(tmp_path: Path) -> None:
    cache = ReplyCache(tmp_path / "c.sqlite")

    def work(i: int) -> str | None:
        cache.put(f"k{i}", "true", f"reply {i}")
        hit = cache.get(f"k{i}")
        return hit.reply if hit else None

    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(work, range(200)))
    assert replies == [f"reply {i}" for i in range(200)]
    assert len(cache) == 200
