"""The textbook-grounded guidance pipeline: its teacher, the admission of guidance by the
filter model, and the references of the Guidance Gap."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from studybench.config.endpoints import EndpointSettings
from studybench.config.fields import (
    Concurrency,
    KeyEnv,
    ModelEngineKind,
    Section,
    Temperature,
    Timeout,
)


class GuidanceTeacherSettings(EndpointSettings):
    """The teacher of the guidance pipeline: any OpenAI-compatible endpoint, or (empty
    ``base_url``) an in-process transformers model, by default the tiny offline demo model,
    so the stages run offline (its noise is retried and recorded as failures)."""

    base_url: str = Field("", description="empty: in-process model (model_path)")
    model: str = "teacher-model"
    api_key_env: KeyEnv = "STUDYBENCH_TEACHER_API_KEY"
    model_path: str = Field("", description="in-process teacher; empty: the tiny demo model")
    temperature: Temperature = 0.0
    max_tokens: int = Field(1024, ge=1)
    local_max_tokens: int = Field(128, ge=1, description="cap for the in-process teacher")
    json_retries: int = Field(2, ge=0, description="invalid replies asked again this often")


class GuidanceAdmitSettings(EndpointSettings):
    """Stage 6: the filter model is asked with the guidance; solved at least once = admitted."""

    engine: ModelEngineKind = "hf"
    model: str = Field("", description="checkpoint or served name; empty: the demo teacher")
    base_url: str = Field("", description="endpoint for engine openai (empty: engine.base_url)")
    concurrency: Concurrency = 64
    request_timeout_s: Timeout = 1800.0
    k: int = Field(8, ge=1)
    seeds: tuple[int, ...] = Field((0,), min_length=1)
    max_new_tokens: int | None = Field(None, ge=1, description="empty: the protocol's")
    llm_judge: bool = Field(True, description="second judge stage (judge section)")


class GuidanceGapSettings(Section):
    """The Guidance Gap references: configured MLflow run ids, else the latest runs of
    ``base_model`` without and with guidance."""

    base_run: str = Field("", description="MLflow run id of the base model without guidance")
    guided_run: str = Field("", description="MLflow run id of the base model with guidance")
    base_model: str = Field("", description="model name (studybench.model tag) to look up")


class GuidanceSettings(Section):
    """The textbook-grounded guidance pipeline (DVC stages after ``fragments``)."""

    split: Path = Field(Path("data/release/transfer.json"), description="problems to guide")
    fragments: Path = Path("data/corpus/fragments.jsonl")
    out_dir: Path = Path("data/guidance")
    teacher: GuidanceTeacherSettings = GuidanceTeacherSettings()
    fuzzy_threshold: float = Field(90.0, ge=0.0, le=100.0, description="rapidfuzz merge score")
    embedding_threshold: float = Field(0.9, ge=-1.0, le=1.0, description="cosine merge score")
    top_n: int = Field(3, ge=1, description="candidate fragments per knowledge point")
    pool: int = Field(20, ge=1, description="ranked fragments per channel before fusion")
    rrf_k: int = Field(60, ge=1)
    book_preference: float = Field(1.5, ge=1.0, description="RRF boost, sub-discipline books")
    book_disciplines: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="book -> problem_type labels it serves"
    )
    guide_retries: int = Field(2, ge=0, description="regenerations of a leaking draft")
    leak_tolerance: float = Field(1e-2, gt=0.0, description="numeric leak: relative tolerance")
    admit: GuidanceAdmitSettings = GuidanceAdmitSettings()
    gap: GuidanceGapSettings = GuidanceGapSettings()
