"""What a paper report is built from: evaluation runs as plain records (read out of MLflow by
:mod:`studybench.tracking.paper`), paired comparisons and learning-curve points. Every value
keeps the run id it came from, so each number of the report can be traced back."""

from __future__ import annotations

from pydantic import BaseModel, Field

BASE_METHOD = "base"
GUIDED_METHOD = "naive guidance"


class PaperRun(BaseModel):
    """One finished evaluation run (the parent run; its per-seed children in ``seeds``)."""

    run_id: str
    name: str = ""
    start_time: int = 0
    tags: dict[str, str] = Field(default_factory=dict)
    params: dict[str, str] = Field(default_factory=dict)
    metrics: dict[str, float] = Field(default_factory=dict)
    seeds: dict[str, list[int]] = Field(default_factory=dict)  # split -> seeds with a child run

    @property
    def base_model(self) -> str:
        return self.tags.get("base_model") or self.tags.get("studybench.model") or self.name

    @property
    def training_run(self) -> str:
        return self.tags.get("training_run", "")

    @property
    def step(self) -> int | None:
        step = self.tags.get("checkpoint.step", "")
        return int(step) if step.isdigit() else None

    @property
    def method(self) -> str:
        """The row label: an explicit ``studybench.method`` tag; else the training run (its
        step-0 checkpoint is the untrained base model); else the method artefact (ACE, GEPA,
        EvoSkill); else Naive Guidance for a guided run; else the base model itself."""
        explicit = self.tags.get("studybench.method", "")
        if explicit:
            return explicit
        if self.training_run:
            return BASE_METHOD if self.step == 0 else self.training_run
        artefact = self.params.get("method.artefact", "default")
        if artefact not in ("", "default", "guidance"):
            return artefact
        if self.tags.get("studybench.guided") == "true":
            return GUIDED_METHOD
        return BASE_METHOD

    def expected_seeds(self) -> list[int]:
        """The seeds the run's protocol asked for (its ``seeds`` param)."""
        text = self.params.get("seeds", "")
        return sorted(int(s) for s in text.split(",") if s.strip().lstrip("-").isdigit())

    def protocol(self) -> dict[str, str]:
        """What must agree between runs averaged or compared in one cell."""
        keys = ("protocol_hash", "verifier_version", "judge_version")
        out = {k: self.tags.get(k, "") for k in keys}
        out["k"] = self.params.get("k", "")
        out.update({k: v for k, v in self.tags.items() if k.startswith("data.")})
        return out


class MetricVerdict(BaseModel):
    """The paired comparison of one (split, metric) of a row against its block's base."""

    diff: float
    ci_low: float | None = None
    ci_high: float | None = None
    decision: str  # improved / regressed / unchanged
    method: str  # "paired" (the item tables' test) or the seed-noise heuristic
    # What a paired verdict was computed with (empty for the heuristic), so the footnote
    # states the test actually run: the unit (``pooled``: every attempt of every seed),
    # the family-wise rule and the question the interval answers.
    unit: str = ""
    multiplicity: str = ""
    target: str = ""
    family: int = 0  # metrics adjusted together


class PairComparison(BaseModel):
    """One comparison call (base run vs method run): its verdicts per metric key
    (``<split>/par_at_<k>_mean``) or the reason it was refused."""

    baseline_run: str
    candidate_run: str
    verdicts: dict[str, MetricVerdict] = Field(default_factory=dict)
    refused: str = ""


class CurvePoint(BaseModel):
    """One checkpoint on a learning curve: its score with a band (CI, else ± seed std)."""

    step: int
    mean: float
    low: float
    high: float
    band: str  # "95% CI" or "± seed std"
    run_id: str
    compute: float | None = None


class Curve(BaseModel):
    """The curve of one metric of one training run (``metric``: ``<split>/par_at_<k>``)."""

    training_run: str
    metric: str
    points: list[CurvePoint]
    compute_key: str = ""
    plateau_step: int | None = None
    plateau_compute: float | None = None
    note: str = ""
