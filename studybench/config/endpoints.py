"""The one endpoint shape and the one sampling shape every section reuses.

An endpoint (engine, judge, guidance teacher, admission, the build's filter, the recipes'
chat models) is :class:`EndpointSettings`; each of those sections only changes defaults. A
way of sampling is :class:`SamplingSettings`; the evaluation protocol is one of them plus
what makes an evaluation comparable (k, seeds, budget, language, system prompt).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from studybench.config.fields import (
    Concurrency,
    KeyEnv,
    NewTokens,
    Retries,
    Section,
    Temperature,
    Timeout,
    TopP,
)

DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant that solves physics problems."


class EndpointSettings(Section):
    """Where a model is reached and how patiently: the one endpoint shape of the engine, the
    judge, the guidance teacher and admission, and the training recipes' chat models. Each of
    those sections only changes defaults."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "model"
    api_key_env: KeyEnv = "STUDYBENCH_ENGINE_API_KEY"
    concurrency: Concurrency = 8
    max_retries: Retries = 6
    request_timeout_s: Timeout = 600.0
    structured_output: bool = Field(
        False,
        description=(
            "the endpoint honours vLLM's structured-output request fields: the LLM stages "
            "then constrain every reply to the format they parse"
        ),
    )


class SamplingSettings(Section):
    """How a completion is sampled: the one sampling shape (the protocol's, and every section
    that samples differently from it states its own defaults with these fields)."""

    temperature: Temperature = 1.0
    top_p: TopP = 0.95
    top_k: int = Field(20, description="-1 disables top-k")
    min_p: float = Field(0.0, ge=0.0, le=1.0)
    presence_penalty: float = 1.5
    repetition_penalty: float = Field(1.0, gt=0.0)
    max_new_tokens: NewTokens = Field(
        None, description="cap on one completion; empty: the rest of the budget"
    )
    thinking: bool = Field(True, description="Qwen3-style thinking mode on")


class ProtocolSettings(SamplingSettings):
    """The sampling protocol of one evaluation (its sampling is :class:`SamplingSettings`'s
    defaults). Its hash keys every stored result."""

    k: int = Field(8, ge=1, description="samples (attempts) per parent and seed")
    seeds: tuple[int, ...] = Field((0, 1, 2), min_length=1)
    max_tokens: int = Field(32768, ge=1, description="total context budget per request")
    strip_think_before_judging: bool = True
    language: Literal["EN", "ZH"] = "EN"
    system_prompt: str = DEFAULT_SYSTEM_PROMPT

    @field_validator("seeds")
    @classmethod
    def _distinct_seeds(cls, seeds: tuple[int, ...]) -> tuple[int, ...]:
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"seeds must be distinct, got {list(seeds)}")
        return seeds


class LLMEndpointSettings(EndpointSettings):
    """An OpenAI-compatible chat endpoint a training recipe calls (generator, reflector)."""

    temperature: Temperature = 0.7
    max_tokens: int = Field(2048, ge=1)
