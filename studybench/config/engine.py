"""How generations are produced and judged: the engine and the judge sections, both an
:class:`~studybench.config.endpoints.EndpointSettings` with their own defaults."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from studybench.config.endpoints import EndpointSettings
from studybench.config.fields import Concurrency, EngineKind, KeyEnv, Temperature, Timeout


class EngineSettings(EndpointSettings):
    """How generations are produced: an OpenAI-compatible endpoint, a managed vLLM server, or
    in-process transformers (``hf``, CPU tests)."""

    kind: EngineKind = "openai"
    concurrency: Concurrency = 64
    request_timeout_s: Timeout = 1800.0
    vllm_command: tuple[str, ...] = ("vllm", "serve")
    vllm_extra_args: tuple[str, ...] = ()
    vllm_env: dict[str, str] = Field(default_factory=dict)
    vllm_cache_dir: Path | None = Field(
        None,
        description="vLLM's, torch inductor's and triton's caches, shared by every managed "
        "server (their entries are keyed by content); empty: <paths.cache_dir>/vllm",
    )
    trust_remote_code: bool = False
    hf_threads: int = Field(1, ge=1, description="torch threads of the in-process engine")
    max_model_len: int = Field(40960, ge=1)
    gpu_memory_utilization: float = Field(0.9, gt=0.0, le=1.0)
    tensor_parallel_size: int = Field(1, ge=1)
    data_parallel_size: int = Field(1, ge=1)
    startup_timeout_s: float = Field(900.0, gt=0.0)
    max_failed_turn_share: float = Field(
        0.1, ge=0.0, le=1.0, description="generate fails when more turns than this failed"
    )


class JudgeSettings(EndpointSettings):
    """Both stages of the judge: the rule verifier, then the LLM judge (an endpoint) for what
    it rejected."""

    tolerance: float = Field(1e-2, gt=0.0, description="relative tolerance of numeric answers")
    rule_timeout_s: float = Field(5.0, gt=0.0, description="hard limit per verifier pair")
    llm_enabled: bool = True
    model: str = "judge-model"
    base_url: str = "http://127.0.0.1:8001/v1"
    api_key_env: KeyEnv = "STUDYBENCH_JUDGE_API_KEY"
    temperature: Temperature = 0.0
    max_tokens: int = Field(1024, ge=1)
