"""The contract every benchmark of the platform implements, and the plan it works from.

A benchmark turns one model endpoint into metrics, in the same steps for every benchmark so
the DAGs, the CLI and tracking stay benchmark-neutral:

``plan`` (fix parts, data files, seeds and a protocol hash) → ``generate`` (against an engine
that is already serving the model: one engine serves every benchmark of a checkpoint) →
``judge`` one (part, seed) at a time → ``result``: a :class:`BenchmarkResult` for tracking
(``metrics``: flat, stable MLflow keys prefixed by the benchmark's name; ``items``: the
per-item table of :mod:`studybench.metrics.items`; ``per_seed``; ``write_artefacts``:
reports, tables, plots for the MLflow run).

A *part* is the unit a benchmark's results are grouped by and stored in, one folder each:
StudyBench's splits, EvaLearn's paradigms, SE-Bench's (condition, split) pairs. Every step
reads and writes only the plan's folder, so each is idempotent and resumable, and a
benchmark never needs to know about Airflow or MLflow.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from studybench.config import MethodArtefactSpec, Settings
from studybench.engines.base import Engine, SamplingParams
from studybench.errors import ConfigError, StudyBenchError
from studybench.metrics.items import ItemRow
from studybench.tracking.records import BenchmarkResult, SeedValues

ProgressCallback = Callable[[str, Any], None]
"""Called as ``(part, progress)`` while generating; ``progress`` is benchmark-specific but
has ``turns_total``, ``turns_generated``, ``turns_reused``, ``errors`` and ``tokens_per_s``."""


class BenchmarkPlan(BaseModel):
    """What one benchmark evaluates of one model, fixed when planning (kept in target.json)."""

    benchmark: str
    parts: tuple[str, ...] = Field(min_length=1)
    files: dict[str, str] = Field(
        default_factory=dict, description="data files whose versions key the evaluation"
    )
    seeds: tuple[int, ...] = Field(min_length=1)
    k: int = Field(1, ge=1, description="attempts per item and seed")
    protocol_hash: str
    root: str = Field(description="the benchmark's folder; one sub-folder per part")
    model: str = Field(description="the model name the engine serves")
    artefacts: MethodArtefactSpec = Field(
        default_factory=MethodArtefactSpec,
        description="method artefacts evaluated with the model (benchmarks that take them)",
    )
    notes: dict[str, str] = Field(
        default_factory=dict, description="facts of the plan recorded as MLflow params"
    )

    def part_dir(self, part: str) -> Path:
        return Path(self.root) / part

    def units(self) -> list[tuple[str, int]]:
        """(part, seed) pairs: the judging units."""
        return [(part, seed) for part in self.parts for seed in self.seeds]


def protocol_sampling(settings: Settings, max_new_tokens: int | None = None) -> SamplingParams:
    """The sampling of the settings' protocol (temperature, nucleus, penalties, thinking),
    shared by every benchmark that samples the way the protocol says."""
    return SamplingParams.of(settings.protocol, max_tokens=max_new_tokens)


def stable_hash(payload: Any, length: int = 16) -> str:
    """A short hash of a JSON-able payload (sorted keys), for protocol hashes."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:length]


class Benchmark(ABC):
    """One benchmark. Subclasses are registered by name with
    :func:`studybench.benchmarks.registry.register`; instances hold no state between calls,
    so one instance serves every plan."""

    name: ClassVar[str]
    title: ClassVar[str] = ""

    @abstractmethod
    def default_parts(self, settings: Settings) -> tuple[str, ...]:
        """The parts evaluated when the caller names none (from params.yaml)."""

    @abstractmethod
    def plan(
        self, parts: Sequence[str], model: str, settings: Settings, root: Path
    ) -> BenchmarkPlan:
        """Fix what will be evaluated; raises ``DataError``/``ConfigError`` naming the file,
        record and field of bad input before any engine starts."""

    @abstractmethod
    async def generate(
        self,
        plan: BenchmarkPlan,
        engine: Engine,
        settings: Settings,
        on_progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        """Generate every part and seed of ``plan`` against ``engine`` (resuming from what is
        stored); returns a small JSON summary per part with an ``errors`` count."""

    @abstractmethod
    def judge(
        self, plan: BenchmarkPlan, part: str, seed: int, settings: Settings
    ) -> dict[str, Any]:
        """Judge one (part, seed), idempotently; returns a small JSON summary."""

    @abstractmethod
    def metrics(self, plan: BenchmarkPlan, settings: Settings) -> dict[str, float]:
        """Headline metrics of the judged plan under stable keys ``<name>/...``."""

    @abstractmethod
    def expected_metrics(self, plan: BenchmarkPlan) -> list[str]:
        """The keys a complete logging of ``plan`` has (an evaluation missing one is redone)."""

    def headline(self, plan: BenchmarkPlan, metrics: dict[str, float]) -> list[str]:
        """The keys of ``metrics`` that summarise the plan: shown by ``studybench eval`` and
        put on the learning curve of a training run. Default: the expected keys and every
        ``<name>/<part>/<metric>_mean`` / ``_std`` pair."""
        expected = set(self.expected_metrics(plan))
        return [
            key
            for key in metrics
            if key in expected or (key.count("/") == 2 and key.endswith(("_mean", "_std")))
        ]

    def write_artefacts(self, plan: BenchmarkPlan, out_dir: Path, settings: Settings) -> None:
        """Write reports, tables and plots for the MLflow run into ``out_dir`` (optional)."""
        return None

    def check(self, plan: BenchmarkPlan) -> str:
        """A reason this plan cannot be logged yet (e.g. a part not judged), or ''."""
        return ""

    def with_artefacts(
        self, plan: BenchmarkPlan, spec: MethodArtefactSpec, settings: Settings
    ) -> BenchmarkPlan:
        """``plan`` evaluated with the method artefacts ``spec`` (a system prompt, a
        playbook, guidance). Default: the benchmark takes none and the plan is unchanged."""
        return plan

    def current_protocol_hash(self, plan: BenchmarkPlan, settings: Settings) -> str:
        """The protocol hash that ``settings`` give now for what ``plan`` evaluates.

        Default: plan the same parts, model and artefacts again. A benchmark whose hash is a
        cheap function of the settings overrides this (StudyBench, SE-Bench), so the re-check
        before every step does not re-read its data files."""
        fresh = self.plan(plan.parts, plan.model, settings, Path(plan.root))
        return self.with_artefacts(fresh, plan.artefacts, settings).protocol_hash

    def check_protocol(
        self, plan: BenchmarkPlan, settings: Settings, *, where: str | Path | None = None
    ) -> None:
        """THE protocol re-check: refuse to add results to ``plan`` when the settings now give
        another protocol hash (edited sampling, prompts, k, seeds or artefacts would mix two
        protocols in one result). Every step that adds results calls it; ``where`` names the
        file the plan came from (default: the plan's folder)."""
        now = self.current_protocol_hash(plan, settings)
        if now != plan.protocol_hash:
            origin = where if where is not None else plan.root
            raise ConfigError(
                f"{origin}: {self.name} planned under protocol {plan.protocol_hash}, but the "
                f"settings now give {now}; plan again"
            )

    def items(self, plan: BenchmarkPlan, settings: Settings) -> list[ItemRow]:
        """The per-item table of the judged plan: one row per (part, parent, slot, seed,
        attempt), ``benchmark`` = the name, ``split`` = the part (optional; default none)."""
        return []

    def per_seed(
        self, plan: BenchmarkPlan, settings: Settings, metrics: dict[str, float]
    ) -> list[SeedValues]:
        """Values of each (part, seed), one nested MLflow run each (optional)."""
        return []

    def result(self, plan: BenchmarkPlan, settings: Settings, out_dir: Path) -> BenchmarkResult:
        """Everything tracking logs of the judged plan; artefact files go into ``out_dir``."""
        reason = self.check(plan)
        if reason:
            raise StudyBenchError(f"{plan.benchmark}: {reason}")
        out_dir.mkdir(parents=True, exist_ok=True)
        self.write_artefacts(plan, out_dir, settings)
        metrics = self.metrics(plan, settings)
        params = {"parts": ",".join(plan.parts), "protocol_hash": plan.protocol_hash}
        return BenchmarkResult(
            name=plan.benchmark,
            metrics=metrics,
            headline=self.headline(plan, metrics),
            artefact_dir=str(out_dir),
            params={**params, **plan.notes},
            model=plan.model,
            items=self.items(plan, settings),
            per_seed=self.per_seed(plan, settings, metrics),
        )
