"""THE composition of an evaluation: plan → engine up → generate → judge → results → log →
check. The CLI commands, ``studybench task ...``, the checkpoint DAG, the nightly DAG and the
guidance admission all run these steps (the DAGs one task per step, through
:mod:`studybench.pipeline.orchestration`; ``studybench eval`` and ``checkpoints eval``
through :func:`evaluate_model` / :func:`evaluate`; the admission through :func:`plan_target`,
:func:`~studybench.pipeline.run.generate` and :func:`judge_all`). Nothing here prints: the
callers show progress and results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import MethodArtefactSpec, Settings
from studybench.pipeline.check import CheckResult, check
from studybench.pipeline.plan import plan_checkpoint, plan_nightly_model, plan_target
from studybench.pipeline.results import log_results, register_best
from studybench.pipeline.run import generate, judge
from studybench.pipeline.target import STUDYBENCH, CheckpointMeta, EngineKind, Target

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
    """What one evaluation produced (``run_id`` empty when tracking is off or failed; then
    ``tracking_error`` says why)."""

    run_root: str
    generated: dict[str, Any]
    judged: list[dict[str, Any]]
    run_id: str = ""
    tracking_error: str = ""
    registered: str = ""
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
    register: bool = False,
    max_failed_share: float = 0.0,
    on_progress: Callable[[str, Any], None] | None = None,
    on_unit: Callable[[dict[str, Any], Any], None] | None = None,
) -> Evaluation:
    """Generate, judge, log and check a planned target.

    ``log`` True logs (a tracking failure raises); None logs when tracking is on, and a
    tracking failure is kept in ``tracking_error`` instead of losing the judged results
    (they are in the run folder; ``studybench track`` or a re-run logs them later).
    ``register`` also registers an evaluated checkpoint folder under
    ``tracking.registered_model`` (when one is configured) and moves its alias ``best``."""
    from studybench.tracking.mlflow_log import TrackingError

    generated = generate(
        target, settings, on_progress=on_progress, max_failed_share=max_failed_share
    )
    judged = judge_all(target, settings, on_unit)
    outcome = Evaluation(run_root=target.run_root, generated=generated, judged=judged)
    if not (settings.tracking.enabled if log is None else log):
        return outcome
    try:
        outcome.run_id = log_results(target, settings)
        outcome.check = check(target, outcome.run_id, settings, baseline)
        if register and settings.tracking.registered_model and target.checkpoint.path:
            version, moved = register_best(outcome.run_id, settings, target.checkpoint.path)
            outcome.registered = version + (" (alias 'best' moved to it)" if moved else "")
    except TrackingError as exc:
        if log:
            raise
        outcome.tracking_error = str(exc)
    return outcome


def evaluate_model(
    model: str,
    engine: EngineKind,
    settings: Settings,
    out_dir: Path,
    *,
    benchmark: str = STUDYBENCH,
    splits: Sequence[str] = (),
    parts: Sequence[str] = (),
    artefacts: MethodArtefactSpec | None = None,
    base_url: str = "",
    api_key_env: str = "",
    baseline: str = "",
    on_progress: Callable[[str, Any], None] | None = None,
    on_unit: Callable[[dict[str, Any], Any], None] | None = None,
) -> tuple[Target, Evaluation]:
    """``studybench eval``: plan one benchmark of ``model`` (with the method artefacts) into
    ``out_dir`` and evaluate it: generate, judge, log when tracking is on, check, register a
    checkpoint folder. Every step resumes from what the folder holds (``target.json`` and
    one folder per part); failed turns up to ``engine.max_failed_turn_share`` are reported,
    not fatal, and are asked again by the next run."""
    from studybench.tracking.provenance import checkpoint_hash

    checkpoint = None
    if Path(model).is_dir():  # a checkpoint folder is keyed by its content, as track did
        checkpoint = CheckpointMeta(path=str(Path(model)), identity=checkpoint_hash(Path(model)))
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
    outcome = evaluate(
        target,
        settings,
        baseline=baseline,
        register=True,
        max_failed_share=settings.engine.max_failed_turn_share,
        on_progress=on_progress,
        on_unit=on_unit,
    )
    return target, outcome


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
    folder, with the method artefacts, through the one engine context and the benchmark's
    own generation (:func:`studybench.benchmarks.studybench.generate_parts`); resumable.
    Guidance that covers none of the split is refused, partial coverage is warned about."""
    from studybench.benchmarks.studybench import (
        generate_parts,
        resolve_artefacts,
        rollout_config,
        split_file,
    )
    from studybench.benchmarks.studybench.splits import NAMED_SPLITS, checked_coverage
    from studybench.data.loaders import load_parents
    from studybench.engines.factory import run_on_engine
    from studybench.pipeline.plan import check_engine_artefacts

    check_engine_artefacts(engine, artefacts)
    path = split_file(split, settings) if split in NAMED_SPLITS else Path(split)
    parents = list(load_parents(path))[start:end]
    methods = resolve_artefacts(artefacts, settings)
    if artefacts is not None and artefacts.guidance:
        checked_coverage(split, parents, methods.guidance, artefacts.guidance)
    config = rollout_config(
        model, settings, k=k, seeds=seeds, max_new_tokens=max_new_tokens, concurrency=concurrency
    )
    report = None if on_progress is None else (lambda _part, p: on_progress(p))
    summaries = run_on_engine(
        engine,
        model,
        settings,
        out_dir,
        lambda backend: generate_parts(
            {split: (parents, out_dir)}, config, methods, backend, report, export=export
        ),
    )
    return summaries[split]
