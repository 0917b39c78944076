"""The engine protocol: chat conversations in, sampled completions out.

Engines are asynchronous so that one runner can keep hundreds of requests in flight; every
request carries its own sampling seed, which makes samples reproducible whatever the order in
which a batching server happens to process them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from studybench.engines.structured import OutputFormat
from studybench.errors import StudyBenchError

if TYPE_CHECKING:
    from studybench.config import SamplingSettings


class EngineError(StudyBenchError):
    """A generation request failed for good (after the retry budget, or not retryable)."""


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)

    role: str
    content: str


class SamplingParams(BaseModel):
    """Per-request sampling. ``max_tokens=None`` lets the server use the rest of the context
    window (``--max-model-len``), which is the protocol's total-budget semantics.

    ``output_format`` constrains the reply (:mod:`studybench.engines.structured`); only an
    engine whose endpoint honours it sends it, every other engine ignores it. Left out of
    the dump when empty, so the cache keys built from a dump stay what they were."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(1, ge=1)
    temperature: float = Field(1.0, ge=0.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    top_k: int = -1
    min_p: float = 0.0
    presence_penalty: float = 0.0
    repetition_penalty: float = 1.0
    max_tokens: int | None = Field(None, ge=1)
    seed: int | None = None
    stop: tuple[str, ...] = ()
    thinking: bool = True
    output_format: OutputFormat | None = Field(None, exclude_if=lambda value: value is None)

    @classmethod
    def of(
        cls, sampling: SamplingSettings, *, max_tokens: int | None = None, seed: int | None = None
    ) -> SamplingParams:
        """The request sampling of a settings section (the one sampling shape of
        ``config.SamplingSettings``); ``max_tokens`` empty: the section's ``max_new_tokens``."""
        return cls(
            temperature=sampling.temperature,
            top_p=sampling.top_p,
            top_k=sampling.top_k,
            min_p=sampling.min_p,
            presence_penalty=sampling.presence_penalty,
            repetition_penalty=sampling.repetition_penalty,
            max_tokens=max_tokens or sampling.max_new_tokens,
            seed=seed,
            thinking=sampling.thinking,
        )


class Completion(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


@runtime_checkable
class Engine(Protocol):
    """Anything that turns a conversation into ``n`` completions."""

    name: str

    async def complete(
        self, messages: Sequence[Message], sampling: SamplingParams
    ) -> list[Completion]:
        """``sampling.n`` completions of one conversation; raises :class:`EngineError`."""
        ...

    async def aclose(self) -> None: ...


async def generate(
    engine: Engine, conversations: Sequence[Sequence[Message]], sampling: SamplingParams
) -> list[list[Completion]]:
    """Batch form of :meth:`Engine.complete`: all conversations concurrently, in order."""
    import asyncio

    return list(await asyncio.gather(*(engine.complete(c, sampling) for c in conversations)))
