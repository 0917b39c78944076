"""Logging evaluations to MLflow, in one stable layout that the compare view lines up.

* Experiment: ``tracking.experiment`` (one per benchmark).
* One run per evaluation of (model or checkpoint, protocol, data version), named
  ``<model>@<step>`` or ``<model>``, found again by its ``studybench.eval_key`` tag: logging
  the same evaluation twice updates the same run, and a half-logged run is completed.
* Nested child runs per (split, seed) hold the per-seed values.
* Metric keys: ``<split>/par_at_<k>_mean`` / ``_std`` / ``sub_at_<k>_...``, ``judge/llm_share``,
  ``judge/disagreements``, ``generation/error_turns``, ``generation/tokens_per_s``.
* Checkpoints of one training run also log their headline metrics on a ``lineage/<training
  run>`` run at ``step`` = the checkpoint's global step, so the charts show the learning curve.

All calls go through ``MlflowClient`` (no global active run), and the whole logging step is
retried with backoff; results stay on disk when the server is down, and ``studybench track``
logs them later. Secrets never reach MLflow: only the names of settings are logged, never
URLs or keys.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.judge.pipeline import iter_verdicts, load_items, manifest
from studybench.judge.prompt import JUDGE_VERSION
from studybench.metrics.passk import VerdictRow, headline, score
from studybench.pipeline.report import Report, build_report, markdown
from studybench.rollout.store import GenerationStore
from studybench.tracking import provenance
from studybench.verify import VERIFIER_VERSION

EVAL_KEY = "studybench.eval_key"
CHILD_KEY = "studybench.child"
LINEAGE_KEY = "studybench.lineage"


class TrackingError(StudyBenchError):
    """MLflow could not be reached or refused the logging (results stay on disk)."""


class Checkpoint(BaseModel):
    """What is known about the evaluated model beyond its name."""

    path: str | None = None
    step: int | None = None
    base_model: str | None = None
    training_run: str | None = None
    gpu_hours: float | None = None
    train_flops: float | None = None


def tracking_uri(settings: Settings) -> str:
    if settings.tracking.uri:
        return settings.tracking.uri
    db = (settings.paths.work_dir / "mlflow" / "mlflow.db").resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{db}"


def client_for(settings: Settings) -> Any:
    from mlflow.tracking import MlflowClient

    return MlflowClient(tracking_uri=tracking_uri(settings))


def experiment_id(client: Any, settings: Settings) -> str:
    name = settings.tracking.experiment
    found = client.get_experiment_by_name(name)
    if found is not None:
        return str(found.experiment_id)
    location = None
    if not settings.tracking.uri:
        artefacts = (settings.paths.work_dir / "mlflow" / "artifacts").resolve()
        artefacts.mkdir(parents=True, exist_ok=True)
        location = artefacts.as_uri()
    return str(client.create_experiment(name, artifact_location=location))


def _find_run(client: Any, experiment: str, tag: str, value: str) -> str | None:
    runs = client.search_runs(
        [experiment], filter_string=f"tags.`{tag}` = '{value}'", max_results=1
    )
    return str(runs[0].info.run_id) if runs else None


def evaluated_run(settings: Settings, key: str, metrics: Sequence[str]) -> str | None:
    """The finished run logged under evaluation ``key`` with every one of ``metrics``."""
    client = client_for(settings)
    found = client.get_experiment_by_name(settings.tracking.experiment)
    if found is None:
        return None
    runs = client.search_runs(
        [found.experiment_id], filter_string=f"tags.`{EVAL_KEY}` = '{key}'", max_results=5
    )
    for run in runs:
        if run.info.status == "FINISHED" and all(m in run.data.metrics for m in metrics):
            return str(run.info.run_id)
    return None


def _run(
    client: Any, experiment: str, name: str, tags: dict[str, str], key: tuple[str, str]
) -> str:
    existing = _find_run(client, experiment, *key)
    if existing is not None:
        client.update_run(existing, status="RUNNING")
        return existing
    return str(
        client.create_run(experiment, run_name=name, tags={**tags, key[0]: key[1]}).info.run_id
    )


def _log(
    client: Any,
    run_id: str,
    metrics: dict[str, float],
    params: dict[str, str],
    tags: dict[str, str],
    step: int = 0,
) -> None:
    from mlflow.entities import Metric, Param, RunTag

    now = int(time.time() * 1000)
    existing = client.get_run(run_id).data.params
    client.log_batch(
        run_id,
        metrics=[Metric(k, float(v), now, step) for k, v in metrics.items()],
        params=[Param(k, str(v)) for k, v in params.items() if k not in existing],
        tags=[RunTag(k, str(v)) for k, v in tags.items()],
    )


class BenchmarkResult(BaseModel):
    """What a benchmark other than StudyBench hands to tracking: flat metrics under its own
    key prefix, an artefact folder, a few params (prefixed with the benchmark's name)."""

    name: str
    metrics: dict[str, float]
    headline: list[str] = []  # the keys that go on a training run's learning curve
    artefact_dir: str = ""
    params: dict[str, str] = {}
    model: str = ""


class SplitResult(BaseModel):
    run_dir: str
    split: str
    report: Report
    error_turns: int
    tokens_per_s: float


def _split_result(run_dir: Path) -> SplitResult:
    report = build_report(run_dir)
    store = GenerationStore(run_dir / "generations.sqlite")
    try:
        records = list(store.records())
    finally:
        store.close()
    latest: dict[Any, Any] = {}
    for record in records:
        latest[(record.key, record.seed, record.attempt, record.turn)] = record
    errors = sum(1 for r in latest.values() if r.status == "error")
    tokens = sum(r.completion_tokens for r in records)
    span = (max(r.created for r in records) - min(r.created for r in records)) if records else 0
    split = report.split or run_dir.name
    return SplitResult(
        run_dir=str(run_dir),
        split=Path(split).stem if "/" in split or split.endswith(".json") else split,
        report=report,
        error_turns=errors,
        tokens_per_s=tokens / span if span > 0 else 0.0,
    )


def headline_metrics(result: SplitResult) -> dict[str, float]:
    return headline(result.split, result.report.scores)


def _plot_disciplines(result: SplitResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    items = load_items(Path(result.run_dir))
    verdicts = {
        (v.parent, v.slot, v.seed, v.attempt): v.final_correct
        for v in iter_verdicts(Path(result.run_dir))
    }
    discipline = {i.parent: i.problem_type or "(none)" for i in items}
    slots_of: dict[str, list[str]] = defaultdict(list)
    for item in items:
        if item.slot not in slots_of[item.parent]:
            slots_of[item.parent].append(item.slot)
    per_label: dict[str, list[float]] = defaultdict(list)
    for seed in result.report.scores.seeds:
        rows = [
            VerdictRow(
                parent=i.parent,
                slot=i.slot,
                seed=seed,
                attempt=i.attempt,
                correct=verdicts.get((i.parent, i.slot, seed, i.attempt), False),
            )
            for i in items
            if i.seed == seed
        ]
        seed_score = score(rows, slots_of, groups={"d": discipline})
        for label, values in seed_score.breakdowns["d"].items():
            per_label[label].append(values["par"])
    labels = sorted(per_label)
    means = [statistics.fmean(per_label[label]) for label in labels]
    stds = [
        statistics.stdev(per_label[label]) if len(per_label[label]) > 1 else 0.0 for label in labels
    ]
    figure, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(labels)), 3.2))
    axes.bar(labels, means, yerr=stds, capsize=4, color="#4C72B0")
    axes.set_ylabel(f"Par@{result.report.scores.k}")
    axes.set_ylim(0, 1)
    axes.set_title(f"{result.split}: Par@{result.report.scores.k} by sub-discipline (± seed std)")
    axes.tick_params(axis="x", labelrotation=30)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _table(result: SplitResult) -> dict[str, list[Any]]:
    run_dir = Path(result.run_dir)
    items = load_items(run_dir)
    verdicts = {(v.parent, v.slot, v.seed, v.attempt): v for v in iter_verdicts(run_dir)}
    seeds = result.report.scores.seeds
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for item in items:
        row = rows.setdefault(
            (item.parent, item.slot),
            {
                "slot_key": f"{item.parent}/{item.slot}",
                "answer_type": item.answer_type,
                "problem_type": item.problem_type,
                "stages": Counter(),
                **{f"seed_{s}_correct": 0 for s in seeds},
            },
        )
        verdict = verdicts.get((item.parent, item.slot, item.seed, item.attempt))
        if verdict is not None:
            row[f"seed_{item.seed}_correct"] += int(verdict.final_correct)
            row["stages"][verdict.stage] += 1
    columns: dict[str, list[Any]] = defaultdict(list)
    for row in rows.values():
        stages = row.pop("stages")
        row["judge_stage"] = stages.most_common(1)[0][0] if stages else "none"
        for key, value in row.items():
            columns[key].append(value)
    return dict(columns)


def _write_jsonl_gz(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def evaluation_key(
    model: str, checkpoint: Checkpoint, protocol: str, data: dict[str, str], splits: Sequence[str]
) -> str:
    payload = json.dumps(
        {
            "model": model,
            "checkpoint": provenance.checkpoint_hash(Path(checkpoint.path))
            if checkpoint.path
            else None,
            "protocol": protocol,
            "data": data,
            "splits": sorted(splits),
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def log_evaluation(
    run_dirs: Sequence[Path],
    settings: Settings,
    *,
    checkpoint: Checkpoint | None = None,
    data_files: Sequence[Path] = (),
    eval_key: str | None = None,
    extra_tags: dict[str, str] | None = None,
    attempts: int = 3,
    backoff_s: float = 2.0,
    benchmarks: Sequence[BenchmarkResult] = (),
    model: str = "",
) -> str:
    """Log one evaluation (one run folder per StudyBench split, plus the results of other
    benchmarks) and return its MLflow run id.

    ``eval_key`` is the key the orchestration fixed when planning (default: derived from the
    run folders); ``extra_tags`` are added to the run. Without StudyBench splits, ``model``
    names the model and ``eval_key`` is required."""
    if not run_dirs and not (benchmarks and eval_key):
        raise StudyBenchError("nothing to log: no StudyBench run folder and no benchmark result")
    last: Exception | None = None
    for attempt in range(attempts):
        try:
            return _log_evaluation(
                run_dirs,
                settings,
                checkpoint or Checkpoint(),
                data_files,
                eval_key=eval_key,
                extra_tags=extra_tags or {},
                benchmarks=benchmarks,
                model_name=model,
            )
        except StudyBenchError:
            raise
        except Exception as exc:  # MLflow raises many kinds when the server is unreachable
            last = exc
            if attempt + 1 < attempts:
                time.sleep(backoff_s * 2**attempt)
    raise TrackingError(
        f"could not log to MLflow at {tracking_uri(settings)} after {attempts} attempt(s): "
        f"{type(last).__name__}: {str(last)[:300]}; results stay in "
        f"{', '.join(map(str, run_dirs))} (log them later with: studybench track)"
    )


def _log_evaluation(
    run_dirs: Sequence[Path],
    settings: Settings,
    checkpoint: Checkpoint,
    data_files: Sequence[Path],
    *,
    eval_key: str | None = None,
    extra_tags: dict[str, str],
    benchmarks: Sequence[BenchmarkResult] = (),
    model_name: str = "",
) -> str:
    results = [_split_result(Path(d)) for d in run_dirs]
    info = manifest(Path(run_dirs[0])) if run_dirs else {}
    fallback = model_name or next((b.model for b in benchmarks if b.model), "") or "model"
    model = str(info.get("model", fallback))
    label = Path(model).name or model
    if checkpoint.path:
        label = Path(checkpoint.path).name or label
    step = checkpoint.step
    if step is None and checkpoint.path:
        step = provenance.checkpoint_step(Path(checkpoint.path))
    name = f"{label}@{step}" if step is not None else label
    config = info.get("config", {})
    sampling = config.get("sampling", {})
    data_tags = provenance.data_version_tags(data_files)
    protocol = str(info.get("protocol_hash", ""))
    key = eval_key or evaluation_key(
        model, checkpoint, protocol, data_tags, [r.split for r in results]
    )

    client = client_for(settings)
    experiment = experiment_id(client, settings)
    tags = {
        "studybench.model": model,
        "studybench.version": provenance.studybench_version(),
        "git_commit": provenance.git_commit(),
        "protocol_hash": protocol,
        "verifier_version": VERIFIER_VERSION,
        "judge_version": JUDGE_VERSION,
        **data_tags,
        **{k: v for k, v in extra_tags.items() if v},
    }
    if checkpoint.path:
        tags["checkpoint.path"] = checkpoint.path
        tags["checkpoint.hash"] = provenance.checkpoint_hash(Path(checkpoint.path)) or ""
    for field in ("base_model", "training_run"):
        if getattr(checkpoint, field):
            tags[field] = str(getattr(checkpoint, field))
    if step is not None:
        tags["checkpoint.step"] = str(step)
    params = {
        "k": config.get("k"),
        "seeds": ",".join(map(str, config.get("seeds", []))),
        "temperature": sampling.get("temperature"),
        "top_p": sampling.get("top_p"),
        "top_k": sampling.get("top_k"),
        "max_tokens": sampling.get("max_tokens"),
        "thinking": sampling.get("thinking"),
        "engine.kind": info.get("engine"),
        "engine.tensor_parallel_size": settings.engine.tensor_parallel_size,
        "engine.data_parallel_size": settings.engine.data_parallel_size,
        "judge.model": settings.judge.model,
        "judge.enabled": settings.judge.llm_enabled,
        "method.artefact": info.get("artefacts", {}).get("kind", "default"),
    }
    if not results:  # no StudyBench split: the run's params come from the benchmarks
        params = {"engine.kind": None, "judge.model": settings.judge.model}
    for bench in benchmarks:
        params.update({f"{bench.name}.{k}": v for k, v in bench.params.items()})
    run_id = _run(client, experiment, name, tags, (EVAL_KEY, key))
    metrics: dict[str, float] = {}
    for result in results:
        metrics.update(headline_metrics(result))
    if results:
        correct = sum(r.report.rule_correct + r.report.judge_rescued for r in results)
        metrics["judge/llm_share"] = (
            sum(r.report.judge_rescued for r in results) / correct if correct else 0.0
        )
        metrics["judge/disagreements"] = float(sum(r.report.judge_rescued for r in results))
        metrics["judge/flagged"] = float(sum(r.report.flagged for r in results))
        metrics["generation/error_turns"] = float(sum(r.error_turns for r in results))
        metrics["generation/tokens_per_s"] = statistics.fmean(r.tokens_per_s for r in results)
    for bench in benchmarks:
        metrics.update(bench.metrics)
    from studybench.tracking.guidance_gap import guidance_gap_metrics  # the Guidance Gap

    gap_metrics, gap_tags = guidance_gap_metrics(
        client, experiment, settings, results, info, run_id
    )
    metrics.update(gap_metrics)
    tags.update(gap_tags)
    _log(client, run_id, metrics, {k: v for k, v in params.items() if v is not None}, tags)
    for bench in benchmarks:
        if bench.artefact_dir and any(Path(bench.artefact_dir).iterdir()):
            client.log_artifacts(run_id, bench.artefact_dir, artifact_path=bench.name)

    for result in results:
        for seed_score in result.report.scores.per_seed:
            child_key = f"{key}/{result.split}/seed{seed_score.seed}"
            child = _run(
                client,
                experiment,
                f"{name} {result.split} seed {seed_score.seed}",
                {"mlflow.parentRunId": run_id, EVAL_KEY + ".parent": key},
                (CHILD_KEY, child_key),
            )
            k = result.report.scores.k
            _log(
                client,
                child,
                {
                    f"{result.split}/par_at_{k}": seed_score.par,
                    f"{result.split}/sub_at_{k}": seed_score.sub,
                },
                {"seed": str(seed_score.seed), "split": result.split},
                {},
            )
            client.set_terminated(child)
        _log_artefacts(client, run_id, result)

    if checkpoint.training_run and step is not None:
        extra = {k: b.metrics[k] for b in benchmarks for k in b.headline if k in b.metrics}
        _log_lineage(client, experiment, checkpoint, step, metrics, results, extra)
    client.set_terminated(run_id)
    return run_id


def _log_artefacts(client: Any, run_id: str, result: SplitResult) -> None:
    import mlflow

    run_dir = Path(result.run_dir)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / result.split
        folder.mkdir()
        store = GenerationStore(run_dir / "generations.sqlite")
        try:
            generations = [r.model_dump(mode="json") for r in store.records()]
        finally:
            store.close()
        _write_jsonl_gz(folder / "generations.jsonl.gz", generations)
        _write_jsonl_gz(
            folder / "verdicts.jsonl.gz",
            [v.model_dump(mode="json") for v in iter_verdicts(run_dir)],
        )
        (folder / "report.md").write_text(markdown(result.report))
        (folder / "report.json").write_text(result.report.model_dump_json(indent=1))
        _plot_disciplines(result, folder / "par_by_discipline.png")
        client.log_artifacts(run_id, str(folder), artifact_path=result.split)
    mlflow.set_tracking_uri(client.tracking_uri)
    mlflow.log_table(
        data=_table(result), artifact_file=f"tables/{result.split}_problems.json", run_id=run_id
    )


def _log_lineage(
    client: Any,
    experiment: str,
    checkpoint: Checkpoint,
    step: int,
    metrics: dict[str, float],
    results: Sequence[SplitResult],
    extra: dict[str, float] | None = None,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run_id = _run(
        client,
        experiment,
        f"lineage/{checkpoint.training_run}",
        {"training_run": str(checkpoint.training_run)},
        (LINEAGE_KEY, str(checkpoint.training_run)),
    )
    lineage = {k: v for r in results for k, v in headline_metrics(r).items()}
    lineage.update(extra or {})
    if checkpoint.gpu_hours is not None:
        lineage["gpu_hours"] = checkpoint.gpu_hours
    if checkpoint.train_flops is not None:
        lineage["train_flops"] = checkpoint.train_flops
    _log(client, run_id, lineage, {}, {}, step=step)
    figure, axes = plt.subplots(figsize=(5, 3.2))
    for key in sorted(k for k in lineage if k.endswith("_mean")):
        history = sorted(client.get_metric_history(run_id, key), key=lambda m: m.step)
        axes.plot([m.step for m in history], [m.value for m in history], marker="o", label=key)
    axes.set_xlabel("training step")
    axes.set_ylim(0, 1)
    axes.legend(fontsize=7)
    axes.set_title(f"{checkpoint.training_run}: score against step")
    figure.tight_layout()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "learning_curve.png"
        figure.savefig(path, dpi=100)
        client.log_artifact(run_id, str(path), artifact_path="plots")
    plt.close(figure)
    client.set_terminated(run_id)
