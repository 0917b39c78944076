"""The shared pieces of every settings section: the section base and the field types.

A leaf: it imports only pydantic, so a benchmark can declare its settings section beside its
own code (``benchmarks/<name>/settings.py``) and the settings tree can import that section
without an import cycle. The constraints of a kind of value (a concurrency, a timeout, a
temperature) live here once; a section only states its own default.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class Section(BaseModel):
    """Base for every settings section: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# One vocabulary of engine kinds, for ``engine.kind``, ``--engine``, the guidance admission,
# the build's filter model and the engine factory. ``hf``: in-process transformers (CPU).
EngineKind = Literal["openai", "vllm", "hf", "anthropic", "agent"]
# The kinds that serve a model named by a folder or an endpoint (not a driver of its own).
ModelEngineKind = Literal["hf", "openai", "vllm"]

KeyEnv = Annotated[str, Field(description="env var holding the key (never the key itself)")]
Concurrency = Annotated[int, Field(ge=1, description="requests in flight at most")]
Retries = Annotated[int, Field(ge=0, description="retries of a failed request (with backoff)")]
Timeout = Annotated[float, Field(gt=0.0, description="seconds one request may take")]
Temperature = Annotated[float, Field(ge=0.0)]
TopP = Annotated[float, Field(gt=0.0, le=1.0)]
NewTokens = Annotated[int | None, Field(ge=1, description="cap on one completion")]
