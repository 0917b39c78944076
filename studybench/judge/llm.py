"""The LLM judge client: one call per rule-rejected slot, cached on disk.

Calls go through :class:`studybench.engines.openai_compat.OpenAICompatEngine`, so they get the
same bounded concurrency and retries (429, 5xx, timeouts, connection errors; backoff with
jitter). After the retry budget the verdict is ``judge_error``, which the pipeline flags for
the next run. Parsed verdicts are cached by a hash of (prompt, judge model, judge version):
re-running or re-scoring costs nothing. Unparseable replies and errors are never cached.
The API key is read from the environment variable named in the settings and never logged.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path

from pydantic import BaseModel

from studybench.config import JudgeSettings
from studybench.engines.base import Engine, EngineError, Message, SamplingParams
from studybench.judge.prompt import JUDGE_VERSION, Verdict, parse_reply


class JudgeResult(BaseModel):
    verdict: Verdict
    reply: str
    latency_ms: float = 0.0
    cached: bool = False


class JudgeCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS judge_cache "
            "(key TEXT PRIMARY KEY, verdict TEXT NOT NULL, reply TEXT NOT NULL, created REAL)"
        )

    def get(self, key: str) -> tuple[Verdict, str] | None:
        row = self._db.execute(
            "SELECT verdict, reply FROM judge_cache WHERE key = ?", (key,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def put(self, key: str, verdict: Verdict, reply: str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO judge_cache VALUES (?, ?, ?, ?)",
            (key, verdict, reply, time.time()),
        )

    def close(self) -> None:
        self._db.close()


class LLMJudge:
    def __init__(
        self,
        engine: Engine,
        model: str,
        *,
        cache: JudgeCache | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> None:
        self.engine = engine
        self.model = model
        self.cache = cache
        self.sampling = SamplingParams(temperature=temperature, max_tokens=max_tokens)
        self.calls = 0

    def cache_key(self, prompt: str) -> str:
        payload = f"{JUDGE_VERSION}\x00{self.model}\x00{prompt}"
        return hashlib.sha256(payload.encode()).hexdigest()

    async def judge(self, prompt: str) -> JudgeResult:
        key = self.cache_key(prompt)
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            return JudgeResult(verdict=hit[0], reply=hit[1], cached=True)
        start = time.perf_counter()
        self.calls += 1
        try:
            (completion,) = (
                await self.engine.complete([Message(role="user", content=prompt)], self.sampling)
            )[:1]
        except EngineError as exc:
            elapsed = (time.perf_counter() - start) * 1000
            return JudgeResult(verdict="judge_error", reply=str(exc)[:2000], latency_ms=elapsed)
        elapsed = (time.perf_counter() - start) * 1000
        verdict = parse_reply(completion.text)
        if verdict in ("true", "false") and self.cache is not None:
            self.cache.put(key, verdict, completion.text)
        return JudgeResult(verdict=verdict, reply=completion.text, latency_ms=elapsed)


def judge_engine(js: JudgeSettings) -> Engine:
    """The OpenAI-compatible client of the settings' judge endpoint (key from the
    environment variable the settings name), shared by every judge of the platform."""
    import os

    from studybench.engines.openai_compat import OpenAICompatEngine

    return OpenAICompatEngine(
        js.base_url,
        js.model,
        api_key=os.environ.get(js.api_key_env),
        concurrency=js.concurrency,
        max_retries=js.max_retries,
        timeout_s=js.request_timeout_s,
    )
