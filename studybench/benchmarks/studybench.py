"""StudyBench behind the benchmark contract: splits of physics problems, k attempts per
parent and seed with conversational continuity, the two-stage judge, Par@k and Sub@k.

Everything StudyBench-specific that the orchestration used to know lives here: the named
splits (``application``, ``transfer``, ``memorisation``), how a split becomes a data file,
the rollout configuration and its protocol hash. The run-folder layout is the one the
platform always had (one folder per split in the target's run folder), so results stored
before the registry existed are found again and keys do not change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.base import (
    Benchmark,
    BenchmarkPlan,
    ProgressCallback,
    protocol_sampling,
)
from studybench.benchmarks.registry import register
from studybench.config import Settings
from studybench.engines.base import Engine
from studybench.errors import ConfigError

NAMED_SPLITS = ("application", "transfer", "memorisation")


def split_file(name: str, settings: Settings) -> Path:
    """The file of a named split (``memorisation`` is built from the instruction layers)."""
    if name == "application":
        return settings.data.application_split
    if name == "transfer":
        return settings.data.transfer_split
    if name == "memorisation":
        from studybench.data.memorisation import write_split

        layers = [
            settings.data.instructions_with_answer,
            settings.data.instructions_with_answer_multi,
        ]
        out = settings.paths.work_dir / "splits" / "memorisation.json"
        return write_split([p for p in layers if p.exists()], out)
    path = Path(name)
    if not path.is_file():
        raise ConfigError(
            f"split {name!r}: not application, transfer, memorisation or an existing file"
        )
    return path


def split_label(name: str) -> str:
    """The split's name in run folders and metric keys."""
    return name if name in NAMED_SPLITS else Path(name).stem


def rollout_config(
    model: str,
    settings: Settings,
    *,
    k: int | None = None,
    seeds: Sequence[int] | None = None,
    max_new_tokens: int | None = None,
    concurrency: int = 256,
) -> Any:
    """The StudyBench rollout configuration of ``model`` under the settings' protocol."""
    from studybench.rollout.runner import RolloutConfig

    protocol = settings.protocol
    return RolloutConfig(
        model=model,
        k=k or protocol.k,
        seeds=tuple(seeds) if seeds else protocol.seeds,
        sampling=protocol_sampling(settings, max_new_tokens),
        language=protocol.language,
        concurrency=concurrency,
    )


def default_artefacts(settings: Settings) -> Any:
    """The method artefacts of a plain evaluation: the protocol's system prompt only."""
    from studybench.rollout.artefacts import MethodArtefacts

    return MethodArtefacts(system_prompt=settings.protocol.system_prompt)


def protocol_hash(model: str, settings: Settings) -> str:
    return str(rollout_config(model, settings).protocol_hash(default_artefacts(settings)))


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
            protocol_hash=protocol_hash(model, settings),
            root=str(root),
            model=model,
        )

    def _check_protocol(self, plan: BenchmarkPlan, settings: Settings) -> None:
        now = protocol_hash(plan.model, settings)
        if now != plan.protocol_hash:
            raise ConfigError(
                f"{plan.root}: planned under protocol {plan.protocol_hash}, but the settings "
                f"now give {now}; plan again"
            )

    async def generate(
        self,
        plan: BenchmarkPlan,
        engine: Engine,
        settings: Settings,
        on_progress: ProgressCallback | None = None,
    ) -> dict[str, Any]:
        from studybench.data.loaders import load_parents
        from studybench.rollout.runner import Rollout

        self._check_protocol(plan, settings)
        config = rollout_config(plan.model, settings, k=plan.k, seeds=plan.seeds)
        artefacts = default_artefacts(settings)
        rollouts = {
            part: Rollout(
                load_parents(plan.files[part]), config, artefacts, plan.part_dir(part), split=part
            )
            for part in plan.parts
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
            for part, rollout in rollouts.items():
                rollout.export_reference(plan.part_dir(part) / "generations.json")
        finally:
            for rollout in rollouts.values():
                rollout.close()
        return {part: s.model_dump() for part, s in zip(rollouts, summaries, strict=True)}

    def judge(
        self, plan: BenchmarkPlan, part: str, seed: int, settings: Settings
    ) -> dict[str, Any]:
        from studybench.pipeline.judging import judge_dir

        summary = judge_dir(plan.part_dir(part), settings, rule_only=False, seeds=[seed])
        return summary.model_dump()

    def metrics(self, plan: BenchmarkPlan, settings: Settings) -> dict[str, float]:
        from studybench.metrics.passk import headline
        from studybench.pipeline.report import build_report

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
