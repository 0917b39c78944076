"""An engine for any OpenAI-compatible chat endpoint (vLLM, SGLang, hosted APIs).

The SDK's own retries are off: this client retries rate limits (429), server errors (5xx),
timeouts and connection errors itself, with exponential backoff and full jitter, up to a
budget, then raises :class:`EngineError`. Client errors (400, 401, 404, ...) are not
retried: repeating a malformed request only burns the budget. vLLM's extra sampling fields
(``top_k``, ``min_p``, ``repetition_penalty``) and the Qwen3 thinking switch travel in
``extra_body``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from typing import Any

from studybench.engines.base import Completion, EngineError, Message, SamplingParams

# One INFO line per HTTP request would bury a task log (tens of thousands per evaluation).
for _name in ("httpx", "httpx2", "httpcore", "openai"):
    logging.getLogger(_name).setLevel(logging.WARNING)


class OpenAICompatEngine:
    name = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        concurrency: int = 64,
        max_retries: int = 6,
        timeout_s: float = 1800.0,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 30.0,
    ) -> None:
        from openai import AsyncOpenAI

        self.model = model
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.retries = 0  # total retried attempts, for reporting
        self._limit = asyncio.Semaphore(concurrency)
        self._client = AsyncOpenAI(
            base_url=base_url, api_key=api_key or "EMPTY", max_retries=0, timeout=timeout_s
        )

    def _request(self, messages: Sequence[Message], sampling: SamplingParams) -> dict[str, Any]:
        # Only non-neutral extras are sent: strict hosted APIs reject unknown fields, and an
        # omitted field means the same as its neutral value on vLLM.
        extra: dict[str, Any] = {}
        if sampling.top_k > 0:
            extra["top_k"] = sampling.top_k
        if sampling.min_p > 0:
            extra["min_p"] = sampling.min_p
        if sampling.repetition_penalty != 1.0:
            extra["repetition_penalty"] = sampling.repetition_penalty
        if not sampling.thinking:
            extra["chat_template_kwargs"] = {"enable_thinking": False}
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [m.model_dump() for m in messages],
            "n": sampling.n,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "presence_penalty": sampling.presence_penalty,
        }
        if extra:
            request["extra_body"] = extra
        if sampling.max_tokens is not None:
            request["max_tokens"] = sampling.max_tokens
        if sampling.seed is not None:
            request["seed"] = sampling.seed
        if sampling.stop:
            request["stop"] = list(sampling.stop)
        return request

    @staticmethod
    def _retryable(exc: Exception) -> bool:
        import openai

        if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
            return True
        if isinstance(exc, openai.APIStatusError):
            return exc.status_code == 429 or exc.status_code >= 500
        return False

    def _delay(self, attempt: int) -> float:
        return random.uniform(0, min(self.backoff_cap_s, self.backoff_base_s * 2**attempt))

    async def complete(
        self, messages: Sequence[Message], sampling: SamplingParams
    ) -> list[Completion]:
        import openai

        request = self._request(messages, sampling)
        attempt = 0
        while True:
            try:
                async with self._limit:
                    response = await self._client.chat.completions.create(**request)
            except openai.OpenAIError as exc:
                if not self._retryable(exc) or attempt >= self.max_retries:
                    kind = type(exc).__name__
                    raise EngineError(f"{kind} after {attempt + 1} attempt(s): {exc}") from exc
                await asyncio.sleep(self._delay(attempt))
                attempt += 1
                self.retries += 1
                continue
            usage = response.usage
            return [
                Completion(
                    text=choice.message.content or "",
                    finish_reason=choice.finish_reason,
                    prompt_tokens=usage.prompt_tokens if usage else 0,
                    completion_tokens=(usage.completion_tokens // max(len(response.choices), 1))
                    if usage
                    else 0,
                )
                for choice in response.choices
            ]

    async def aclose(self) -> None:
        await self._client.close()
