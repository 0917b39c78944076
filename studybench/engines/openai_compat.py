"""An engine for any OpenAI-compatible chat endpoint (vLLM, SGLang, hosted APIs).

The SDK's own retries are off: this client retries rate limits (429), server errors (5xx),
timeouts, connection errors and malformed 200 replies itself, with exponential backoff and
full jitter, up to a budget, then raises :class:`EngineError`. A server's ``Retry-After``
(seconds or an HTTP date) is honoured, bounded by the request timeout: a proxy asking for an
hour must not stall a run for an hour. Client errors (400, 401, 404, ...) are not retried:
repeating a malformed request only burns the budget.

A 200 reply is parsed here, not by the SDK, because a gateway can answer 200 with an HTML
page, truncated JSON, no ``choices``, ``message: null`` or ``usage: null``; each is a
:class:`MalformedReplyError` (retryable), so a run records the turn as failed like a 500 instead of
crashing with a traceback. Every error text is scrubbed of secrets before it leaves this
module: providers echo keys in 401 bodies. vLLM's extra sampling fields (``top_k``,
``min_p``, ``repetition_penalty``) and the Qwen3 thinking switch travel in ``extra_body``,
and so does a request's :class:`~studybench.engines.structured.OutputFormat`, but only when
the endpoint is declared to honour vLLM's structured output (``structured_output=True``):
a strict hosted API would reject the unknown field, so elsewhere the format is dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any

from studybench.engines.base import Completion, EngineError, Message, SamplingParams
from studybench.engines.retry import MAX_ERROR_CHARS, retry_delay
from studybench.secrets import register_secret_value, scrub_secrets

# One INFO line per HTTP request would bury a task log (tens of thousands per evaluation).
for _name in ("httpx", "httpx2", "httpcore", "openai"):
    logging.getLogger(_name).setLevel(logging.WARNING)


class MalformedReplyError(Exception):
    """A 200 reply that is not a chat completion (retryable, like a 5xx)."""


def parse_completions(body: str) -> list[Completion]:
    """The completions of a chat-completion body; raises :class:`MalformedReplyError`."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, RecursionError, ValueError):
        head = " ".join(body[:80].split())
        raise MalformedReplyError(f"reply is not JSON (starts {head!r})") from None
    if not isinstance(data, dict):
        raise MalformedReplyError(f"reply is a JSON {type(data).__name__}, not an object")
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise MalformedReplyError("reply has no choices")
    usage = data.get("usage")
    if not isinstance(usage, dict):
        raise MalformedReplyError("reply has no usage")
    prompt_tokens = usage.get("prompt_tokens", 0)
    completion_tokens = usage.get("completion_tokens", 0)
    if not isinstance(prompt_tokens, int) or not isinstance(completion_tokens, int):
        raise MalformedReplyError("reply usage counts are not integers")
    completions = []
    for index, choice in enumerate(choices):
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            raise MalformedReplyError(f"choice {index} has no message")
        content = message.get("content")
        if content is not None and not isinstance(content, str):
            raise MalformedReplyError(f"choice {index} content is a {type(content).__name__}")
        finish = choice.get("finish_reason")
        completions.append(
            Completion(
                text=content or "",
                finish_reason=finish if isinstance(finish, str) else None,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens // len(choices),
            )
        )
    return completions


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
        structured_output: bool = False,
    ) -> None:
        from openai import AsyncOpenAI

        if api_key:
            register_secret_value(api_key)
        self.model = model
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.structured_output = structured_output  # sends OutputFormat (honours_format)
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
        if sampling.output_format is not None and self.structured_output:
            extra.update(sampling.output_format.request_fields())
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

        if isinstance(exc, MalformedReplyError):
            return True
        if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
            return True
        if isinstance(exc, openai.APIStatusError):
            return exc.status_code == 429 or exc.status_code >= 500
        return False

    def _delay(self, attempt: int, exc: Exception) -> float:
        import openai

        headers = exc.response.headers if isinstance(exc, openai.APIStatusError) else None
        return retry_delay(
            attempt,
            base_s=self.backoff_base_s,
            cap_s=self.backoff_cap_s,
            timeout_s=self.timeout_s,
            headers=headers,
        )

    async def _once(self, request: dict[str, Any]) -> list[Completion]:
        async with self._limit:
            raw = await self._client.chat.completions.with_raw_response.create(**request)
            body = raw.text
        return parse_completions(body)

    async def complete(
        self, messages: Sequence[Message], sampling: SamplingParams
    ) -> list[Completion]:
        import openai

        request = self._request(messages, sampling)
        attempt = 0
        while True:
            try:
                return await self._once(request)
            except (openai.OpenAIError, MalformedReplyError) as exc:
                if not self._retryable(exc) or attempt >= self.max_retries:
                    kind = type(exc).__name__
                    text = scrub_secrets(f"{kind} after {attempt + 1} attempt(s): {exc}")
                    raise EngineError(text[:MAX_ERROR_CHARS]) from None
                await asyncio.sleep(self._delay(attempt, exc))
                attempt += 1
                self.retries += 1

    async def aclose(self) -> None:
        await self._client.close()
