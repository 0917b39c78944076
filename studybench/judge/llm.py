"""The LLM judge client: one call per rule-rejected slot, cached on disk.

Calls go through :class:`studybench.engines.openai_compat.OpenAICompatEngine`, so they get the
same bounded concurrency and retries (429, 5xx, timeouts, connection errors; backoff with
jitter). After the retry budget the verdict is ``judge_error``, which the pipeline flags for
the next run. Parsed verdicts are cached by a hash of (prompt, judge model, judge version):
re-running or re-scoring costs nothing. Unparseable replies and errors are never cached.
When the engine's endpoint honours structured output (``judge.structured_output``), the
reply is constrained to the verdict format (:func:`~studybench.judge.prompt.verdict_format`),
so even a weak judge model answers with a parseable verdict. The API key is read from the
environment variable named in the settings and never logged; replies and error texts are
scrubbed of secrets before they are returned or cached. The cache is the platform's one LLM
reply cache (:mod:`studybench.judge.cache`).
"""

from __future__ import annotations

import time

from pydantic import BaseModel

from studybench.config import JudgeSettings
from studybench.engines.base import Engine, EngineError, Message, SamplingParams
from studybench.engines.structured import honours_format
from studybench.judge.cache import JudgeCache, ReplyCache, request_key
from studybench.judge.prompt import JUDGE_VERSION, Verdict, parse_reply, verdict_format
from studybench.secrets import scrub_secrets

__all__ = ["JudgeCache", "JudgeResult", "LLMJudge", "ReplyCache", "judge_engine"]

MAX_ERROR_CHARS = 2000
_CACHEABLE: dict[str, Verdict] = {"true": "true", "false": "false"}


class JudgeResult(BaseModel):
    verdict: Verdict
    reply: str
    latency_ms: float = 0.0
    cached: bool = False


class LLMJudge:
    def __init__(
        self,
        engine: Engine,
        model: str,
        *,
        cache: ReplyCache | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> None:
        self.engine = engine
        self.model = model
        self.cache = cache
        # the verdict format travels only where the endpoint honours it; the cache key is
        # the prompt's, as a constrained and a free verdict mean the same
        output = verdict_format(max_tokens) if honours_format(engine) else None
        self.sampling = SamplingParams(
            temperature=temperature, max_tokens=max_tokens, output_format=output
        )
        self.calls = 0

    def cache_key(self, prompt: str) -> str:
        return request_key(JUDGE_VERSION, self.model, prompt)

    async def judge(self, prompt: str) -> JudgeResult:
        key = self.cache_key(prompt)
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None and hit.label in _CACHEABLE:
            return JudgeResult(verdict=_CACHEABLE[hit.label], reply=hit.reply, cached=True)
        start = time.perf_counter()
        self.calls += 1
        try:
            (completion,) = (
                await self.engine.complete([Message(role="user", content=prompt)], self.sampling)
            )[:1]
        except EngineError as exc:
            elapsed = (time.perf_counter() - start) * 1000
            reply = scrub_secrets(str(exc))[:MAX_ERROR_CHARS]
            return JudgeResult(verdict="judge_error", reply=reply, latency_ms=elapsed)
        elapsed = (time.perf_counter() - start) * 1000
        verdict = parse_reply(completion.text)
        reply = scrub_secrets(completion.text)
        if verdict in ("true", "false") and self.cache is not None:
            reply = self.cache.put(key, verdict, completion.text)
        return JudgeResult(verdict=verdict, reply=reply, latency_ms=elapsed)


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
        structured_output=js.structured_output,
    )
