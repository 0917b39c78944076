"""THE composition of an evaluation: plan → engine up → generate → judge → results → log →
check. The CLI commands, ``studybench task ...``, the checkpoint DAG, the nightly DAG and the
guidance admission all run these steps (the DAGs one task per step, through
:mod:`studybench.pipeline.orchestration`; everything else through :func:`evaluate`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import MethodArtefactSpec, Settings
from studybench.pipeline.check import CheckResult, check
from studybench.pipeline.plan import plan_checkpoint, plan_nightly_model, plan_target
from studybench.pipeline.results import log_results
from studybench.pipeline.run import generate, judge
from studybench.pipeline.target import CheckpointMeta, EngineKind, Target

__all__ = [
    "Evaluation",
    "evaluate",
    "evaluate_model",
    "judge_all",
    "plan_checkpoint",
    "plan_nightly_model",
    "plan_target",
]


class Evaluation(BaseModel):
    """What one evaluation produced (``run_id`` empty when tracking is off)."""

    run_root: str
    generated: dict[str, Any]
    judged: list[dict[str, Any]]
    run_id: str = ""
    check: CheckResult | None = None


def judge_all(
    target: Target, settings: Settings, on_unit: Callable[[dict[str, Any], Any], None] | None = None
) -> list[dict[str, Any]]:
    """Judge every (benchmark, part, seed) unit of the target."""
    out = []
    for unit in target.units():
        summary = judge(
            target, unit["split"], unit["seed"], settings, benchmark=unit.get("benchmark", "")
        )
        values = summary if isinstance(summary, dict) else summary.model_dump()
        if on_unit is not None:
            on_unit(unit, summary)
        out.append({**unit, **values})
    return out


def evaluate(
    target: Target,
    settings: Settings,
    *,
    baseline: str = "",
    log: bool | None = None,
    on_progress: Callable[[str, Any], None] | None = None,
    on_unit: Callable[[dict[str, Any], Any], None] | None = None,
) -> Evaluation:
    """Generate, judge, log (when tracking is on, or ``log``) and check a planned target."""
    generated = generate(target, settings, on_progress=on_progress)
    judged = judge_all(target, settings, on_unit)
    outcome = Evaluation(run_root=target.run_root, generated=generated, judged=judged)
    if settings.tracking.enabled if log is None else log:
        outcome.run_id = log_results(target, settings)
        outcome.check = check(target, outcome.run_id, settings, baseline)
    return outcome


def evaluate_model(
    model: str,
    engine: EngineKind,
    settings: Settings,
    out_dir: Path,
    *,
    benchmark: str = "studybench",
    splits: Sequence[str] = (),
    parts: Sequence[str] = (),
    artefacts: MethodArtefactSpec | None = None,
    base_url: str = "",
    api_key_env: str = "",
    on_progress: Callable[[str, Any], None] | None = None,
    on_unit: Callable[[dict[str, Any], Any], None] | None = None,
) -> tuple[Target, Evaluation]:
    """``studybench eval``: plan one benchmark of ``model`` into ``out_dir`` and evaluate it
    (every step resumes from what the folder holds)."""
    checkpoint = CheckpointMeta(path=model) if Path(model).is_dir() else None
    target = plan_target(
        Path(model).name or model,
        model,
        engine,
        settings,
        splits=splits,
        checkpoint=checkpoint,
        base_url=base_url,
        api_key_env=api_key_env,
        check_done=False,
        benchmarks=[benchmark],
        parts=parts,
        artefacts=artefacts,
        run_root=out_dir,
    )
    return target, evaluate(target, settings, on_progress=on_progress, on_unit=on_unit)


def generate_split(
    model: str,
    engine: EngineKind,
    settings: Settings,
    out_dir: Path,
    split: str,
    *,
    k: int | None = None,
    seeds: Sequence[int] | None = None,
    start: int = 0,
    end: int | None = None,
    max_new_tokens: int | None = None,
    concurrency: int = 256,
    artefacts: MethodArtefactSpec | None = None,
    export: bool = True,
    on_progress: Callable[[Any], None] | None = None,
) -> Any:
    """``studybench generate``: one StudyBench split (parents ``start:end``) into one run
    folder, with the method artefacts, through the one engine context; resumable. Guidance
    that covers none of the split is refused, partial coverage is warned about."""
    from studybench.benchmarks.studybench import resolve_artefacts, rollout_config, split_file
    from studybench.benchmarks.studybench.splits import NAMED_SPLITS, checked_coverage
    from studybench.data.loaders import load_parents
    from studybench.engines.factory import run_on_engine
    from studybench.pipeline.plan import check_engine_artefacts
    from studybench.rollout.runner import Rollout

    check_engine_artefacts(engine, artefacts)
    path = split_file(split, settings) if split in NAMED_SPLITS else Path(split)
    parents = list(load_parents(path))[start:end]
    methods = resolve_artefacts(artefacts, settings)
    if artefacts is not None and artefacts.guidance:
        checked_coverage(split, parents, methods.guidance, artefacts.guidance)
    config = rollout_config(
        model, settings, k=k, seeds=seeds, max_new_tokens=max_new_tokens, concurrency=concurrency
    )
    rollout = Rollout(parents, config, methods, out_dir, split=split)
    try:
        summary = run_on_engine(
            engine, model, settings, out_dir, lambda backend: rollout.run(backend, on_progress)
        )
        if export:
            rollout.export_reference(out_dir / "generations.json")
    finally:
        rollout.close()
    return summary
