"""One registered benchmark evaluated end to end in one folder (``studybench eval
--benchmark NAME``): plan, generate against one engine, judge every (part, seed), metrics,
and optionally MLflow. Every step resumes from what the folder holds, so re-running the
command after a kill or with a finished folder costs only what is missing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from studybench.benchmarks.base import BenchmarkPlan, stable_hash
from studybench.benchmarks.registry import get_benchmark
from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.pipeline.evaluate import EngineKind


def plan_benchmark(
    name: str, model: str, settings: Settings, out_dir: Path, parts: Sequence[str] = ()
) -> BenchmarkPlan:
    bench = get_benchmark(name)
    return bench.plan(tuple(parts) or bench.default_parts(settings), model, settings, out_dir)


def generate_benchmark(
    plan: BenchmarkPlan,
    engine: EngineKind,
    settings: Settings,
    *,
    on_progress: Callable[[str, Any], None] | None = None,
) -> dict[str, Any]:
    """Serve the model once and generate every part and seed of ``plan``."""
    from studybench.engines.factory import open_engine

    bench = get_benchmark(plan.benchmark)
    root = Path(plan.root)
    root.mkdir(parents=True, exist_ok=True)
    with open_engine(engine, plan.model, settings, root) as backend:

        async def go() -> dict[str, Any]:
            try:
                return await bench.generate(plan, backend, settings, on_progress)
            finally:
                await backend.aclose()

        summary = asyncio.run(go())
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

    from studybench.tracking.mlflow_log import BenchmarkResult, log_evaluation
    from studybench.tracking.provenance import data_version_tags

    bench = get_benchmark(plan.benchmark)
    files = [Path(f) for f in plan.files.values()]
    key = stable_hash(
        {
            "benchmark": plan.benchmark,
            "model": plan.model,
            "protocol": plan.protocol_hash,
            "parts": list(plan.parts),
            "data": data_version_tags(files),
            "root": plan.root,
        },
        length=20,
    )
    with tempfile.TemporaryDirectory(prefix="studybench-artefacts-") as tmp:
        folder = Path(tmp) / plan.benchmark
        folder.mkdir()
        bench.write_artefacts(plan, folder, settings)
        metrics = bench.metrics(plan, settings)
        result = BenchmarkResult(
            name=plan.benchmark,
            metrics=metrics,
            headline=bench.headline(plan, metrics),
            artefact_dir=str(folder),
            params={"parts": ",".join(plan.parts), "protocol_hash": plan.protocol_hash},
            model=plan.model,
        )
        return log_evaluation(
            [],
            settings,
            checkpoint=checkpoint,
            data_files=files,
            eval_key=key,
            extra_tags={"studybench.benchmarks": plan.benchmark},
            benchmarks=[result],
            model=plan.model,
        )
