"""An engine for the Anthropic Messages API, on the official ``anthropic`` SDK.

The protocol's conversations are OpenAI-shaped (a system message, then alternating user and
assistant turns); the Messages API wants the system prompt in its own top-level field, so it
is moved there. Sampling maps one to one where the API has the knob (temperature, top_p,
top_k, stop sequences, max_tokens); vLLM-only knobs (min_p, penalties) and the per-request
seed have no Messages counterpart and are dropped, which is recorded in the engine's
``dropped`` set so a report can say so. The API has no ``n``: ``n`` samples are ``n``
requests.

Some models refuse ``temperature`` and ``top_p`` together (a 400 that names them). As the
reference harness does, the engine then retries once without the parameter the error names
(without ``top_p`` when it names both, since temperature is the protocol's main knob) and
remembers the quirk for every later request, so a run pays that 400 once, not per turn.

The SDK's own retries are off: this client retries 429, 5xx (529 "overloaded" included),
timeouts and connection errors with jittered exponential backoff, honouring ``Retry-After``
bounded by the request timeout, up to a budget, then raises :class:`EngineError`. Error text
is scrubbed of secrets before it leaves the module (providers echo keys in 401 bodies).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Any

from studybench.engines.base import Completion, EngineError, Message, SamplingParams
from studybench.engines.retry import MAX_ERROR_CHARS, retry_delay
from studybench.secrets import register_secret_value, scrub_secrets

for _name in ("httpx", "httpcore", "anthropic"):
    logging.getLogger(_name).setLevel(logging.WARNING)

DEFAULT_MAX_TOKENS = 32000
"""The Messages API requires ``max_tokens``; used when the protocol leaves it open."""

# Messages stop reasons in the protocol's vocabulary: ``length`` marks a truncated turn.
STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "refusal": "content_filter",
    "pause_turn": "length",
}

_NAMES_TEMPERATURE = re.compile(r"\btemperature\b", re.IGNORECASE)
_NAMES_TOP_P = re.compile(r"\btop[_ ]p\b", re.IGNORECASE)


def to_messages_api(messages: Sequence[Message]) -> tuple[str, list[dict[str, str]]]:
    """(system, turns): system messages joined into the top-level field; the rest in order.

    Consecutive turns of the same role are merged (the API requires alternation); a
    conversation that starts with an assistant turn is rejected, since the protocol never
    builds one and silently reordering would change what the model sees."""
    system_parts = [m.content for m in messages if m.role == "system"]
    turns: list[dict[str, str]] = []
    for message in messages:
        if message.role == "system":
            continue
        if message.role not in ("user", "assistant"):
            raise EngineError(f"the Messages API has no role {message.role!r}")
        if turns and turns[-1]["role"] == message.role:
            turns[-1] = {
                "role": message.role,
                "content": turns[-1]["content"] + "\n\n" + message.content,
            }
        else:
            turns.append({"role": message.role, "content": message.content})
    if not turns or turns[0]["role"] != "user":
        raise EngineError("a Messages conversation must start with a user turn")
    return "\n\n".join(system_parts), turns


def messages_base_url(base_url: str | None) -> str | None:
    """The SDK appends ``/v1/messages`` itself: accept a URL written with or without the
    ``/v1`` (OpenAI-style settings write it) and hand the SDK the root."""
    if not base_url:
        return None
    base = base_url.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def rejected_sampling(message: str) -> str | None:
    """The sampling parameter a 400 error refuses: ``top_p`` when it names both (keep the
    protocol's temperature), the one it names otherwise, else None (not a sampling quirk)."""
    temperature = bool(_NAMES_TEMPERATURE.search(message))
    top_p = bool(_NAMES_TOP_P.search(message))
    if top_p:
        return "top_p"
    if temperature:
        return "temperature"
    return None


class AnthropicEngine:
    """Chat completions through ``POST /v1/messages``."""

    name = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        concurrency: int = 8,
        max_retries: int = 6,
        timeout_s: float = 600.0,
        default_max_tokens: int = DEFAULT_MAX_TOKENS,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 30.0,
    ) -> None:
        from anthropic import AsyncAnthropic

        if api_key:
            register_secret_value(api_key)
        self.model = model
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.default_max_tokens = default_max_tokens
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.retries = 0
        self.omit: set[str] = set()  # sampling parameters the model refused (quirks)
        self.dropped: set[str] = set()  # protocol knobs the Messages API does not have
        self._limit = asyncio.Semaphore(concurrency)
        self._client = AsyncAnthropic(
            api_key=api_key or "EMPTY",
            base_url=messages_base_url(base_url),
            max_retries=0,
            timeout=timeout_s,
        )

    def request(self, messages: Sequence[Message], sampling: SamplingParams) -> dict[str, Any]:
        """The keyword arguments of one ``messages.create`` call."""
        system, turns = to_messages_api(messages)
        request: dict[str, Any] = {
            "model": self.model,
            "messages": turns,
            "max_tokens": sampling.max_tokens or self.default_max_tokens,
        }
        if system:
            request["system"] = system
        # SDK 2.x no longer types the sampling knobs (newer models refuse some of them), so
        # they travel in the body as the API documents them.
        knobs: dict[str, Any] = {}
        if "temperature" not in self.omit:
            knobs["temperature"] = min(sampling.temperature, 1.0)
            if sampling.temperature > 1.0:
                self.dropped.add("temperature>1 (clamped to 1)")
        if "top_p" not in self.omit and sampling.top_p < 1.0:
            knobs["top_p"] = sampling.top_p
        if sampling.top_k > 0:
            knobs["top_k"] = sampling.top_k
        if knobs:
            request["extra_body"] = knobs
        if sampling.stop:
            request["stop_sequences"] = list(sampling.stop)
        for knob, neutral in (
            ("min_p", 0.0),
            ("presence_penalty", 0.0),
            ("repetition_penalty", 1.0),
        ):
            if getattr(sampling, knob) != neutral:
                self.dropped.add(knob)
        if sampling.seed is not None:
            self.dropped.add("seed")
        return request

    @staticmethod
    def _status(exc: Exception) -> int | None:
        import anthropic

        return exc.status_code if isinstance(exc, anthropic.APIStatusError) else None

    def _retryable(self, exc: Exception) -> bool:
        import anthropic

        if isinstance(exc, anthropic.APITimeoutError | anthropic.APIConnectionError):
            return True
        status = self._status(exc)
        return status is not None and (status == 429 or status >= 500)

    def _delay(self, attempt: int, exc: Exception) -> float:
        import anthropic

        headers = exc.response.headers if isinstance(exc, anthropic.APIStatusError) else None
        return retry_delay(
            attempt,
            base_s=self.backoff_base_s,
            cap_s=self.backoff_cap_s,
            timeout_s=self.timeout_s,
            headers=headers,
        )

    async def _one(self, messages: Sequence[Message], sampling: SamplingParams) -> Completion:
        import anthropic

        attempt = 0
        quirks_tried = 0
        while True:
            request = self.request(messages, sampling)
            try:
                async with self._limit:
                    response = await self._client.messages.create(**request)
            except anthropic.AnthropicError as exc:
                status = self._status(exc)
                if status == 400 and quirks_tried < 2:
                    refused = rejected_sampling(str(exc))
                    sent = request.get("extra_body", {})
                    if refused and refused in sent and refused not in self.omit:
                        self.omit.add(refused)
                        quirks_tried += 1
                        continue
                if not self._retryable(exc) or attempt >= self.max_retries:
                    text = scrub_secrets(str(exc))[:MAX_ERROR_CHARS]
                    raise EngineError(
                        f"{type(exc).__name__} after {attempt + 1} attempt(s): {text}"
                    ) from None
                await asyncio.sleep(self._delay(attempt, exc))
                attempt += 1
                self.retries += 1
                continue
            text = "".join(
                getattr(block, "text", "") for block in response.content if block.type == "text"
            )
            usage = response.usage
            reason = response.stop_reason or ""
            return Completion(
                text=text,
                finish_reason=STOP_REASONS.get(reason, reason or None),
                prompt_tokens=usage.input_tokens if usage else 0,
                completion_tokens=usage.output_tokens if usage else 0,
            )

    async def complete(
        self, messages: Sequence[Message], sampling: SamplingParams
    ) -> list[Completion]:
        return list(
            await asyncio.gather(*(self._one(messages, sampling) for _ in range(sampling.n)))
        )

    async def aclose(self) -> None:
        await self._client.close()
