"""The evaluation target (``target.json``): one model, the plans of every benchmark it is
evaluated on, the method artefacts it is evaluated with, and the evaluation key. Every step
of the composition reads it from the target's run folder, so each step is idempotent and a
retried step resumes from what is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.registry import get_benchmark
from studybench.config import EngineKind as EngineKind
from studybench.config import MethodArtefactSpec
from studybench.errors import DataError
from studybench.fileio import write_atomic
from studybench.tracking.records import Checkpoint

TARGET_FILE = "target.json"
ENGINE_FILE = "engine.json"
RESULT_FILE = "result.json"
GENERATED_FILE = "generated.json"
USAGE_FILE = "engine_usage.json"  # what an engine that accounts for cost spent (agents)
JUDGED_DIR = "judged"
CHECK_FILE = "check.json"
STUDYBENCH = "studybench"


class CheckpointMeta(Checkpoint):
    """What tracking records about the evaluated weights, plus their content identity."""

    identity: str | None = None


class Target(BaseModel):
    """One model to evaluate under one protocol on every benchmark of ``plans`` (StudyBench's
    plan has the run root as its folder: one sub-folder per split, the layout the platform
    always had; every other benchmark has a folder of its own name), served by one engine."""

    name: str
    model: str
    engine: EngineKind
    base_url: str = ""
    api_key_env: str = ""
    checkpoint: CheckpointMeta = Field(default_factory=CheckpointMeta)
    eval_key: str
    generation_key: str = ""  # the generations' key (the run folder): eval_key minus the judge
    run_tag: str = ""
    run_root: str
    skip_reason: str = ""
    benchmarks: tuple[str, ...] = (STUDYBENCH,)
    plans: dict[str, BenchmarkPlan] = Field(default_factory=dict)
    artefacts: MethodArtefactSpec = Field(default_factory=MethodArtefactSpec)

    @property
    def splits(self) -> tuple[str, ...]:
        """StudyBench's splits (empty when StudyBench is not evaluated)."""
        plan = self.plans.get(STUDYBENCH)
        return plan.parts if plan else ()

    @property
    def seeds(self) -> tuple[int, ...]:
        plan = self.plans.get(STUDYBENCH) or next(iter(self.plans.values()), None)
        return plan.seeds if plan else ()

    def run_dir(self, split: str) -> Path:
        return Path(self.run_root) / split

    def units(self) -> list[dict[str, Any]]:
        """(benchmark, part, seed) judging units for mapped judge tasks; StudyBench's units
        carry no ``benchmark`` (their markers keep the names they always had)."""
        units: list[dict[str, Any]] = []
        for name, plan in self.plans.items():
            extra = {} if name == STUDYBENCH else {"benchmark": name}
            units.extend(
                {"run_root": self.run_root, **extra, "split": part, "seed": seed}
                for part, seed in plan.units()
            )
        return units

    def expected_metrics(self) -> list[str]:
        """The headline keys a complete logging of this target has."""
        return [
            key
            for name, plan in self.plans.items()
            for key in get_benchmark(name).expected_metrics(plan)
        ]

    def save(self) -> Path:
        path = Path(self.run_root) / TARGET_FILE
        write_atomic(path, self.model_dump_json(indent=1) + "\n")
        return path

    @classmethod
    def load(cls, run_root: Path | str) -> Target:
        path = Path(run_root) / TARGET_FILE
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DataError(f"{path}: no evaluation planned here (run the plan step)") from None
        except ValueError as exc:
            raise DataError(f"{path}: not a valid target (plan again): {exc}") from None
