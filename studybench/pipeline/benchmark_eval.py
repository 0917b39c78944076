"""One registered benchmark evaluated in one folder, step by step, for callers that hold a
bare :class:`BenchmarkPlan` (``studybench eval --benchmark NAME``). Every step uses the
composition's one mechanism (planning, the engine context, the evaluation key, results and
logging); :func:`studybench.pipeline.compose.evaluate_model` runs them all at once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.registry import get_benchmark
from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.pipeline.target import EngineKind


def plan_benchmark(
    name: str, model: str, settings: Settings, out_dir: Path, parts: Sequence[str] = ()
) -> BenchmarkPlan:
    from studybench.pipeline.plan import plan_benchmarks

    own = name != "studybench"
    plans = plan_benchmarks(
        [name],
        model,
        settings,
        out_dir,
        splits=() if own else parts,
        parts=parts if own else (),
        own_folder=own,
    )
    return plans[name]


def generate_benchmark(
    plan: BenchmarkPlan,
    engine: EngineKind,
    settings: Settings,
    *,
    on_progress: Callable[[str, Any], None] | None = None,
) -> dict[str, Any]:
    """Serve the model once and generate every part and seed of ``plan``."""
    from studybench.engines.factory import run_on_engine

    bench = get_benchmark(plan.benchmark)
    root = Path(plan.root)
    root.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = run_on_engine(
        engine,
        plan.model,
        settings,
        root,
        lambda backend: bench.generate(plan, backend, settings, on_progress),
    )
    errors = sum(int(s.get("errors", 0)) for s in summary.values() if isinstance(s, dict))
    if errors:
        raise StudyBenchError(
            f"{plan.benchmark}: {errors} request(s) failed after the engine's retries; they "
            "are stored as errors and retried when you run this again"
        )
    return summary


def judge_benchmark(plan: BenchmarkPlan, settings: Settings) -> list[dict[str, Any]]:
    bench = get_benchmark(plan.benchmark)
    return [
        {"part": part, "seed": seed, **bench.judge(plan, part, seed, settings)}
        for part, seed in plan.units()
    ]


def log_benchmark(plan: BenchmarkPlan, settings: Settings, checkpoint: Any = None) -> str:
    """Log the judged plan as its own MLflow run (found again by its key: idempotent)."""
    import tempfile

    from studybench.pipeline.keys import evaluation_key, subject
    from studybench.tracking.mlflow_log import log_evaluation
    from studybench.tracking.provenance import data_version_tags

    files = [Path(f) for f in plan.files.values()]
    key = evaluation_key(
        subject(plan.model), {plan.benchmark: plan}, data_version_tags(files), folder=plan.root
    )
    with tempfile.TemporaryDirectory(prefix="studybench-artefacts-") as tmp:
        result = get_benchmark(plan.benchmark).result(plan, settings, Path(tmp) / plan.benchmark)
        return log_evaluation(
            [result],
            settings,
            eval_key=key,
            model=plan.model,
            checkpoint=checkpoint,
            data_files=files,
            extra_tags={"studybench.benchmarks": plan.benchmark},
            keep_note=plan.root,
        )
