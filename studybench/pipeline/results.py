"""Results → log: every benchmark of a judged target hands its :class:`BenchmarkResult`
to tracking, which writes one MLflow run (found again by the evaluation key)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from studybench.benchmarks.registry import get_benchmark
from studybench.config import Settings
from studybench.fileio import write_atomic
from studybench.pipeline.target import RESULT_FILE, USAGE_FILE, Target
from studybench.tracking.records import BenchmarkResult, Checkpoint


def _relative(path: Path) -> Path:
    """``path`` relative to the project folder when inside it (as dvc.lock names files)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def benchmark_results(target: Target, settings: Settings, out_dir: Path) -> list[BenchmarkResult]:
    """Every benchmark's result (artefact files under ``out_dir/<name>``), plus the engine's
    own accounting when it kept one (an agent backend's tokens, cost and wall time)."""
    results = [
        get_benchmark(name).result(plan, settings, out_dir / name)
        for name, plan in target.plans.items()
    ]
    usage = engine_usage(Path(target.run_root), out_dir / "engine")
    return [*results, usage] if usage else results


def engine_usage(run_root: Path, out_dir: Path) -> BenchmarkResult | None:
    """``engine/<key>`` metrics from the generate step's usage summary, with the engine's
    per-run ledger (one line per agent run: tokens, cost, wall time) as an artefact."""
    summary_file = run_root / USAGE_FILE
    if not summary_file.is_file():
        return None
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    out_dir.mkdir(parents=True, exist_ok=True)
    for ledger in run_root.glob("*_usage.jsonl"):
        shutil.copy2(ledger, out_dir / ledger.name)
    return BenchmarkResult(
        name="engine",
        metrics={f"engine/{key}": float(value) for key, value in sorted(summary.items())},
        artefact_dir=str(out_dir),
        artefact_path="engine",
    )


def log_results(target: Target, settings: Settings) -> str:
    """Log the judged target to MLflow (idempotent); writes ``result.json``."""
    from studybench.tracking.mlflow_log import client_for, log_evaluation

    checkpoint = target.checkpoint
    if target.run_tag:  # a nightly re-evaluation is not a new point of the learning curve
        checkpoint = checkpoint.model_copy(update={"training_run": None})
    data_files = [_relative(Path(f)) for plan in target.plans.values() for f in plan.files.values()]
    with tempfile.TemporaryDirectory(prefix="studybench-artefacts-") as tmp:
        run_id = log_evaluation(
            benchmark_results(target, settings, Path(tmp)),
            settings,
            eval_key=target.eval_key,
            model=target.model,
            checkpoint=checkpoint,
            data_files=data_files,
            extra_tags={
                "studybench.target": target.name,
                "studybench.run_tag": target.run_tag,
                "studybench.benchmarks": ",".join(target.benchmarks),
                "studybench.generation_key": target.generation_key,
            },
            keep_note=target.run_root,
        )
    metrics = client_for(settings).get_run(run_id).data.metrics
    expected = set(target.expected_metrics())
    result = {
        "run_id": run_id,
        "name": target.name,
        "step": target.checkpoint.step,
        "metrics": {k: metrics[k] for k in sorted(metrics) if k in expected},
    }
    write_atomic(Path(target.run_root) / RESULT_FILE, json.dumps(result, indent=1) + "\n")
    return run_id


def log_split_dirs(
    run_dirs: Sequence[Path],
    settings: Settings,
    *,
    checkpoint: Checkpoint | None = None,
    data_files: Sequence[Path] = (),
    attempts: int = 3,
    backoff_s: float = 2.0,
) -> str:
    """Log judged StudyBench split folders that were not planned as a target (``studybench
    track``, ``studybench eval --out``): the key comes from their ``run.json`` by the same
    recipe as every other evaluation."""
    from studybench.benchmarks.studybench.results import studybench_result
    from studybench.judge.pipeline import manifest
    from studybench.pipeline.keys import (
        installed_instrument,
        judged_key,
        key_for_splits,
        subject,
    )
    from studybench.tracking.mlflow_log import log_evaluation
    from studybench.tracking.provenance import checkpoint_hash, data_version_tags

    checkpoint = checkpoint or Checkpoint()
    infos = [manifest(Path(d)) for d in run_dirs]
    model = str(infos[0].get("model", "")) if infos else ""
    identity = checkpoint_hash(Path(checkpoint.path)) if checkpoint.path else None
    splits = [str(i.get("split", "")) or Path(d).name for i, d in zip(infos, run_dirs, strict=True)]
    generation = key_for_splits(
        subject(model, identity),
        str(infos[0].get("protocol_hash", "")) if infos else "",
        data_version_tags(data_files),
        splits,
    )
    key = judged_key(generation, installed_instrument(settings))
    with tempfile.TemporaryDirectory(prefix="studybench-artefacts-") as tmp:
        result = studybench_result(list(run_dirs), settings, Path(tmp) / "studybench")
        return log_evaluation(
            [result],
            settings,
            eval_key=key,
            model=model,
            checkpoint=checkpoint,
            data_files=data_files,
            extra_tags={"studybench.generation_key": generation},
            attempts=attempts,
            backoff_s=backoff_s,
            keep_note=", ".join(map(str, run_dirs)),
        )


def register_best(run_id: str, settings: Settings, checkpoint_path: str) -> tuple[str, bool]:
    """Register the evaluated checkpoint as a version of ``tracking.registered_model`` and
    move its alias ``best`` when its headline beats the current best beyond the threshold;
    returns (version, moved)."""
    from studybench.tracking.compare import register_checkpoint
    from studybench.tracking.mlflow_log import client_for

    client = client_for(settings)
    metrics = sorted(client.get_run(run_id).data.metrics)
    headline = next((m for m in metrics if "/par_at_" in m and m.endswith("_mean")), "")
    version, moved = register_checkpoint(
        client,
        run_id,
        settings.tracking.registered_model,
        str(Path(checkpoint_path).resolve()),
        headline=headline,
        threshold=settings.tracking.regression_threshold,
    )
    return str(version), bool(moved)
