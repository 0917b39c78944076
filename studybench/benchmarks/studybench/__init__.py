"""StudyBench behind the benchmark contract: splits of physics problems, k attempts per
parent and seed with conversational continuity, the two-stage judge, Par@k and Sub@k.

Everything StudyBench-specific lives in this package: the named splits and their files
(:mod:`.splits`), the protocol and its hash and the method artefacts (:mod:`.protocol`),
judging (:mod:`.judging`), the items × verdicts join (:mod:`.items`), the report
(:mod:`.report`), the memorisation split (:mod:`.memorisation`), the Guidance Gap
(:mod:`.guidance_gap`) and what is logged (:mod:`.results`, :mod:`.artefacts`). The
run-folder layout is the one the platform always had: one folder per split in the plan's
root, so results stored before the registry existed are found again and keys do not change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.base import Benchmark, BenchmarkPlan, ProgressCallback
from studybench.benchmarks.registry import register
from studybench.benchmarks.studybench.protocol import (
    default_artefacts,
    protocol_hash,
    resolve_artefacts,
    rollout_config,
)
from studybench.benchmarks.studybench.splits import NAMED_SPLITS, split_file, split_label
from studybench.config import MethodArtefactSpec, Settings
from studybench.engines.base import Engine
from studybench.metrics.items import ItemRow
from studybench.tracking.records import BenchmarkResult

__all__ = [
    "NAMED_SPLITS",
    "StudyBench",
    "default_artefacts",
    "generate_parts",
    "protocol_hash",
    "resolve_artefacts",
    "rollout_config",
    "split_file",
    "split_label",
]


def _guidance_notes(plan: BenchmarkPlan, artefacts: Any) -> dict[str, str]:
    """Coverage of each split by the guidance file (refused when none), as run params."""
    from studybench.benchmarks.studybench.splits import checked_coverage
    from studybench.data.loaders import load_parents

    notes: dict[str, str] = {}
    for part in plan.parts:
        parents = load_parents(plan.files[part])
        cover = checked_coverage(part, parents, artefacts.guidance, plan.artefacts.guidance)
        notes[f"guidance.coverage.{part}"] = f"{cover.guided}/{cover.slots}"
    return notes


async def generate_parts(
    parts: Mapping[str, tuple[Sequence[Any], Path]],
    config: Any,
    artefacts: Any,
    engine: Engine,
    on_progress: ProgressCallback | None = None,
    *,
    export: bool = True,
) -> dict[str, Any]:
    """THE StudyBench generation: every (split label -> (parents, run folder)) through the
    rollout runner against one serving engine, concurrently; with ``export`` also the
    reference harness's ``generations.json`` per folder. Returns a ``RolloutSummary`` per
    split. The benchmark's ``generate`` and ``studybench generate`` (one split, a parent
    range) both run this."""
    from studybench.rollout.runner import Rollout

    rollouts = {
        part: Rollout(parents, config, artefacts, folder, split=part)
        for part, (parents, folder) in parts.items()
    }

    def reporter(part: str) -> Callable[[Any], None] | None:
        if on_progress is None:
            return None
        callback = on_progress
        return lambda progress: callback(part, progress)

    try:
        summaries = await asyncio.gather(
            *(r.run(engine, reporter(part)) for part, r in rollouts.items())
        )
        if export:
            for rollout in rollouts.values():
                rollout.export_reference(rollout.run_dir / "generations.json")
    finally:
        for rollout in rollouts.values():
            rollout.close()
    return dict(zip(rollouts, summaries, strict=True))


@register
class StudyBench(Benchmark):
    """The StudyBench physics benchmark (Application and Transfer Sets)."""

    name = "studybench"
    title = "StudyBench (physics: Application and Transfer Sets)"

    def default_parts(self, settings: Settings) -> tuple[str, ...]:
        return tuple(settings.checkpoints.splits)

    def plan(
        self, parts: Sequence[str], model: str, settings: Settings, root: Path
    ) -> BenchmarkPlan:
        files = {split_label(s): split_file(s, settings) for s in parts}
        config = rollout_config(model, settings)
        return BenchmarkPlan(
            benchmark=self.name,
            parts=tuple(files),
            files={label: str(path.resolve()) for label, path in files.items()},
            seeds=tuple(config.seeds),
            k=config.k,
            protocol_hash=protocol_hash(settings),
            root=str(root),
            model=model,
        )

    def with_artefacts(
        self, plan: BenchmarkPlan, spec: MethodArtefactSpec, settings: Settings
    ) -> BenchmarkPlan:
        """The artefacts change the prompt, so they change the protocol hash (and with it
        the evaluation key and the generation store's run key)."""
        if not spec.given():
            return plan
        artefacts = resolve_artefacts(spec, settings)  # bad files fail here, named
        planned = plan.model_copy(update={"artefacts": spec})
        notes = dict(plan.notes)
        if spec.guidance:
            notes.update(_guidance_notes(planned, artefacts))
        return planned.model_copy(
            update={"protocol_hash": protocol_hash(settings, spec), "notes": notes}
        )

    def current_protocol_hash(self, plan: BenchmarkPlan, settings: Settings) -> str:
        return protocol_hash(settings, plan.artefacts)

    async def generate(
        self,
        plan: BenchmarkPlan,
        engine: Engine,
        settings: Settings,
        on_progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        from studybench.data.loaders import load_parents

        self.check_protocol(plan, settings)
        config = rollout_config(plan.model, settings, k=plan.k, seeds=plan.seeds)
        parts = {part: (load_parents(plan.files[part]), plan.part_dir(part)) for part in plan.parts}
        artefacts = resolve_artefacts(plan.artefacts, settings)
        summaries = await generate_parts(parts, config, artefacts, engine, on_progress)
        return {part: summary.model_dump() for part, summary in summaries.items()}

    def judge(
        self, plan: BenchmarkPlan, part: str, seed: int, settings: Settings
    ) -> dict[str, Any]:
        from studybench.benchmarks.studybench.judging import judge_dir

        summary = judge_dir(plan.part_dir(part), settings, rule_only=False, seeds=[seed])
        return summary.model_dump()

    def metrics(self, plan: BenchmarkPlan, settings: Settings) -> dict[str, float]:
        from studybench.benchmarks.studybench.report import build_report
        from studybench.metrics.passk import headline

        out: dict[str, float] = {}
        for part in plan.parts:
            out.update(headline(part, build_report(plan.part_dir(part)).scores))
        return out

    def expected_metrics(self, plan: BenchmarkPlan) -> list[str]:
        return [
            f"{split}/{metric}_at_{plan.k}_{stat}"
            for split in plan.parts
            for metric in ("par", "sub")
            for stat in ("mean", "std")
        ]

    def items(self, plan: BenchmarkPlan, settings: Settings) -> list[ItemRow]:
        from studybench.benchmarks.studybench.items import item_rows, join

        return [r for part in plan.parts for r in item_rows(join(plan.part_dir(part)), part)]

    def result(self, plan: BenchmarkPlan, settings: Settings, out_dir: Path) -> BenchmarkResult:
        from studybench.benchmarks.studybench.protocol import artefact_record
        from studybench.benchmarks.studybench.results import studybench_result

        artefacts = resolve_artefacts(plan.artefacts, settings)
        notes = {**artefact_record(plan.artefacts, artefacts), **plan.notes}
        return studybench_result(
            [plan.part_dir(part) for part in plan.parts], settings, out_dir, notes=notes
        )
