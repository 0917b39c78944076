"""What benchmarks hand to tracking: one :class:`BenchmarkResult` per benchmark of an
evaluation, already built (metrics, per-seed values, the per-item table, artefact files).
Tracking only writes these to MLflow; it never opens a result store or builds a report."""

from __future__ import annotations

from pydantic import BaseModel, Field

from studybench.metrics.items import ItemRow


class Checkpoint(BaseModel):
    """What is known about the evaluated model beyond its name."""

    path: str | None = None
    step: int | None = None
    base_model: str | None = None
    training_run: str | None = None
    gpu_hours: float | None = None
    train_flops: float | None = None


class SeedValues(BaseModel):
    """The values of one (part, seed): a nested MLflow run each."""

    part: str
    seed: int
    metrics: dict[str, float]


class GapInput(BaseModel):
    """A split whose Guidance Gap tracking may compute against reference runs in MLflow
    (splits with a gap saved beside the run carry it in ``metrics`` already)."""

    split: str
    k: int
    par_mean: float
    sub_mean: float


class BenchmarkResult(BaseModel):
    """One benchmark's judged results of one evaluation.

    ``metrics`` are flat keys (the benchmark's prefix, or StudyBench's ``<split>/...``);
    ``params`` go to the run prefixed with the benchmark's name, ``run_params`` and
    ``run_tags`` unprefixed (the protocol of the run); ``artefact_dir`` is uploaded under
    ``artefact_path`` (default: the benchmark's name; "" the run's root); ``tables`` are
    MLflow tables (artefact file -> columns); ``items`` the per-item table
    (:mod:`studybench.metrics.items`), uploaded as ``items/<name>.jsonl.gz``."""

    name: str
    metrics: dict[str, float]
    headline: list[str] = []  # the keys that go on a training run's learning curve
    artefact_dir: str = ""
    artefact_path: str | None = None
    params: dict[str, str] = {}
    run_params: dict[str, str] = {}
    run_tags: dict[str, str] = {}
    model: str = ""
    per_seed: list[SeedValues] = Field(default_factory=list)
    items: list[ItemRow] = Field(default_factory=list)
    tables: dict[str, dict[str, list[object]]] = Field(default_factory=dict)
    gap_inputs: list[GapInput] = Field(default_factory=list)
