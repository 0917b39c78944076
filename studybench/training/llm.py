"""A metered OpenAI-compatible chat client for the recipes that call LLMs (synthesis, GEPA,
ACE): every call and every token is counted, because a prompt method's compute *is* its LLM
budget, and the Compute Plateau compares methods by it.

The key is read from the environment variable the settings name and never stored, logged
or written into an artefact; the SDK retries transient errors with backoff. Where the
endpoint honours vLLM's structured output (``structured_output: true``), a call's
:class:`~studybench.engines.structured.OutputFormat` constrains the reply to what its recipe
parses; elsewhere it is not sent.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from pydantic import BaseModel

from studybench.config import LLMEndpointSettings
from studybench.engines.structured import OutputFormat
from studybench.errors import StudyBenchError


class LLMError(StudyBenchError):
    """A recipe's LLM endpoint failed after the SDK's retries."""


class Budget(BaseModel):
    """LLM compute spent: calls and tokens (as the endpoint reported them)."""

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def plus(self, other: Budget) -> Budget:
        return Budget(
            llm_calls=self.llm_calls + other.llm_calls,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
        )


class MeteredChat:
    """Chat completions against one endpoint, counting calls and tokens (thread-safe)."""

    def __init__(self, endpoint: LLMEndpointSettings, role: str) -> None:
        from openai import OpenAI

        self.endpoint = endpoint
        self.role = role
        self._client = OpenAI(
            base_url=endpoint.base_url,
            api_key=os.environ.get(endpoint.api_key_env) or "none",
            max_retries=endpoint.max_retries,
            timeout=endpoint.request_timeout_s,
        )
        self._lock = threading.Lock()
        self._budget = Budget()
        self.structured_output = endpoint.structured_output  # honours_format reads it

    def max_tokens(self, max_tokens: int | None = None) -> int:
        """The completion budget of a call (``max_tokens`` or the endpoint's)."""
        return max_tokens or self.endpoint.max_tokens

    def budget(self) -> Budget:
        with self._lock:
            return self._budget.model_copy()

    def chat(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_tokens: int | None = None,
        output_format: OutputFormat | None = None,
    ) -> str:
        """The reply text (empty when the endpoint returned no content)."""
        return self.chat_with_usage(messages, max_tokens=max_tokens, output_format=output_format)[0]

    def chat_with_usage(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_tokens: int | None = None,
        output_format: OutputFormat | None = None,
    ) -> tuple[str, Budget]:
        """The reply text and what this one call cost."""
        extra = (
            output_format.request_fields()
            if output_format is not None and self.structured_output
            else None
        )
        try:
            response = self._client.chat.completions.create(
                model=self.endpoint.model,
                messages=list(messages),  # type: ignore[arg-type]
                temperature=self.endpoint.temperature,
                max_tokens=self.max_tokens(max_tokens),
                extra_body=extra,
            )
        except Exception as exc:  # the SDK raises many kinds; the message names the endpoint
            raise LLMError(
                f"{self.role} endpoint {self.endpoint.base_url} (model {self.endpoint.model}) "
                f"failed: {type(exc).__name__}: {str(exc)[:300]}"
            ) from None
        usage = response.usage
        cost = Budget(
            llm_calls=1,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
        )
        with self._lock:
            self._budget = self._budget.plus(cost)
        choice = response.choices[0] if response.choices else None
        return ((choice.message.content or "") if choice is not None else ""), cost
