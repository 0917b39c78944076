"""Logging evaluations to MLflow, in one stable layout that the compare view lines up.

Tracking receives :class:`~studybench.tracking.records.BenchmarkResult`s, already built by
the benchmarks, and writes them; it opens no result store and builds no report.

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

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.config import Settings
from studybench.errors import StudyBenchError
from studybench.metrics.items import write_items
from studybench.secrets import scrub_secrets, scrub_tree
from studybench.tracking import native, provenance
from studybench.tracking.guidance_gap import guidance_gap_metrics
from studybench.tracking.records import BenchmarkResult, Checkpoint
from studybench.tracking.rescore import Instrument, lineage_run
from studybench.verify import VERIFIER_VERSION

__all__ = ["BenchmarkResult", "Checkpoint", "TrackingError", "client_for", "log_evaluation"]

EVAL_KEY = "studybench.eval_key"
CHILD_KEY = "studybench.child"
LINEAGE_KEY = "studybench.lineage"


class TrackingError(StudyBenchError):
    """MLflow could not be reached or refused the logging (results stay on disk)."""


def tracking_uri(settings: Settings) -> str:
    if settings.tracking.uri:
        return settings.tracking.uri
    db = (settings.paths.work_dir / "mlflow" / "mlflow.db").resolve()
    db.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{db}"


def client_for(settings: Settings) -> Any:
    """A client of the settings' store. An embedded SQLite store is created and migrated under
    a file lock: several Airflow tasks (one per new checkpoint) open it at once, and MLflow's
    migration of one SQLite file run twice concurrently leaves it half-migrated
    (``table _alembic_tmp_tags already exists``), failing every later task."""
    from mlflow.tracking import MlflowClient

    uri = tracking_uri(settings)
    if not uri.startswith("sqlite:///"):
        return MlflowClient(tracking_uri=uri)
    from filelock import FileLock

    with FileLock(uri.removeprefix("sqlite:///") + ".lock", timeout=600):
        client = MlflowClient(tracking_uri=uri)
        client.search_experiments(max_results=1)  # creates or migrates the store, once
    return client


def artefact_root(settings: Settings) -> str | None:
    """Where a new experiment keeps its artefacts: beside the SQLite database of a local store
    (the embedded default or an explicit ``sqlite:///`` URI), else the server's own default.
    Without this MLflow would write them to ``./mlruns`` in whatever folder the process
    runs in (the repository, an Airflow worker's home)."""
    uri = tracking_uri(settings)
    if not uri.startswith("sqlite:///"):
        return None
    artefacts = (Path(uri[len("sqlite:///") :]).parent / "artifacts").resolve()
    artefacts.mkdir(parents=True, exist_ok=True)
    return artefacts.as_uri()


# The experiment tag MLflow 3's UI reads for the experiment kind (its "GenAI apps & agents"
# or "Machine learning" views). Unset, the UI infers GenAI from LoggedModels and lists
# checkpoints as "Agent versions"; studybench's experiments are model training.
EXPERIMENT_KIND_TAG = "mlflow.experimentKind"
MODEL_TRAINING_KIND = "custom_model_development"


def experiment_id(client: Any, settings: Settings, name: str | None = None) -> str:
    """The id of experiment ``name`` (default ``tracking.experiment``), created if missing as
    a model-training experiment. An existing experiment keeps the kind a user chose for it;
    one with no kind at all gets the model-training kind."""
    name = name or settings.tracking.experiment
    found = client.get_experiment_by_name(name)
    if found is not None:
        if not found.tags.get(EXPERIMENT_KIND_TAG):
            client.set_experiment_tag(found.experiment_id, EXPERIMENT_KIND_TAG, MODEL_TRAINING_KIND)
        return str(found.experiment_id)
    return str(
        client.create_experiment(
            name,
            artifact_location=artefact_root(settings),
            tags={EXPERIMENT_KIND_TAG: MODEL_TRAINING_KIND},
        )
    )


def find_run(client: Any, experiment: str, tag: str, value: str) -> str | None:
    """The run of ``experiment`` tagged ``tag = value`` (every keyed run of the platform:
    evaluations, lineage, builds, judge calibrations), or None."""
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


def keyed_run(
    client: Any, experiment: str, name: str, tags: dict[str, str], key: tuple[str, str]
) -> str:
    """The run keyed by the tag ``key`` (reopened), else a new one named ``name`` with
    ``tags``: logging the same thing twice updates one run instead of making two."""
    existing = find_run(client, experiment, *key)
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
        # scrubbed here too: params and tags come from every benchmark, not only the stores
        params=[Param(k, scrub_secrets(str(v))) for k, v in params.items() if k not in existing],
        tags=[RunTag(k, scrub_secrets(str(v))) for k, v in tags.items()],
    )


def log_evaluation(
    results: Sequence[BenchmarkResult],
    settings: Settings,
    *,
    eval_key: str,
    model: str,
    checkpoint: Checkpoint | None = None,
    data_files: Sequence[Path] = (),
    extra_tags: dict[str, str] | None = None,
    attempts: int = 3,
    backoff_s: float = 2.0,
    keep_note: str = "",
) -> str:
    """Log one evaluation (every benchmark's result) as one MLflow run, found again by
    ``eval_key`` (logging twice updates the same run); returns its id. The whole step is
    retried with backoff; ``keep_note`` says where the results stay when MLflow is down."""
    if not results:
        raise StudyBenchError("nothing to log: no benchmark result")
    last: Exception | None = None
    for attempt in range(attempts):
        try:
            return _log_evaluation(
                results,
                settings,
                checkpoint or Checkpoint(),
                data_files,
                eval_key=eval_key,
                extra_tags=extra_tags or {},
                model=model,
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
        f"{keep_note or 'the run folders'} (log them later with: studybench track)"
    )


def _run_name(model: str, checkpoint: Checkpoint) -> tuple[str, int | None]:
    label = Path(model).name or model
    if checkpoint.path:
        label = Path(checkpoint.path).name or label
    step = checkpoint.step
    if step is None and checkpoint.path:
        step = provenance.checkpoint_step(Path(checkpoint.path))
    return (f"{label}@{step}" if step is not None else label), step


def _log_evaluation(
    results: Sequence[BenchmarkResult],
    settings: Settings,
    checkpoint: Checkpoint,
    data_files: Sequence[Path],
    *,
    eval_key: str,
    extra_tags: dict[str, str],
    model: str,
) -> str:
    model = next((r.run_tags["studybench.model"] for r in results
                  if r.run_tags.get("studybench.model")), model or "model")  # fmt: skip
    name, step = _run_name(model, checkpoint)
    data_tags = provenance.data_version_tags(data_files)
    client = client_for(settings)
    experiment = experiment_id(client, settings)
    tags = {
        "studybench.model": model,
        "studybench.version": provenance.studybench_version(),
        "git_commit": provenance.git_commit(),
        "protocol_hash": "",
        "verifier_version": VERIFIER_VERSION,
        **data_tags,
    }
    for result in results:
        tags.update(result.run_tags)
    tags.update(instrument_tags(tags, settings))
    tags.update({k: v for k, v in extra_tags.items() if v})
    if checkpoint.path:
        tags["checkpoint.path"] = checkpoint.path
        tags["checkpoint.hash"] = provenance.checkpoint_hash(Path(checkpoint.path)) or ""
    for field in ("base_model", "training_run"):
        if getattr(checkpoint, field):
            tags[field] = str(getattr(checkpoint, field))
    if step is not None:
        tags["checkpoint.step"] = str(step)
    params: dict[str, str] = {"judge.model": settings.judge.model}
    for result in results:
        params.update(result.run_params)
        params.update({f"{result.name}.{k}": v for k, v in result.params.items()})
    run_id = keyed_run(client, experiment, name, tags, (EVAL_KEY, eval_key))
    metrics: dict[str, float] = {}
    for result in results:
        metrics.update(result.metrics)
    metrics.update(native.interval_metrics(i for r in results for i in r.items))  # CIs (STATS)
    gap_metrics, gap_tags = guidance_gap_metrics(
        client, experiment, settings, [g for r in results for g in r.gap_inputs], run_id
    )
    metrics.update(gap_metrics)
    tags.update(gap_tags)
    _log(client, run_id, metrics, params, tags)
    native.log_data_inputs(client, run_id, data_files)  # dataset inputs, DVC md5 (STATS)
    if checkpoint.path:  # the checkpoint as an MLflow LoggedModel (STATS)
        native.log_checkpoint_model(
            client, run_id, name=name, model_key=f"{tags.get('checkpoint.hash', '')}/{eval_key}",
            metrics=native.model_metrics(metrics), step=step,
            tags={k: tags[k] for k in ("training_run", "checkpoint.path") if k in tags},
        )  # fmt: skip
    for result in results:
        _log_result_files(client, run_id, result)
        for values in result.per_seed:
            child = keyed_run(
                client,
                experiment,
                f"{name} {values.part} seed {values.seed}",
                {"mlflow.parentRunId": run_id, EVAL_KEY + ".parent": eval_key},
                (CHILD_KEY, f"{eval_key}/{values.part}/seed{values.seed}"),
            )
            _log(
                client, child, values.metrics, {"seed": str(values.seed), "split": values.part}, {}
            )
            client.set_terminated(child)
    if checkpoint.training_run and step is not None:
        curve = {k: r.metrics[k] for r in results for k in r.headline if k in r.metrics}
        _log_lineage(client, experiment, checkpoint, step, curve, Instrument.of_tags(tags))
    client.set_terminated(run_id)
    return run_id


def _log_result_files(client: Any, run_id: str, result: BenchmarkResult) -> None:
    """Artefact folder, MLflow tables and the per-item table of one benchmark."""
    folder = Path(result.artefact_dir) if result.artefact_dir else None
    path = result.name if result.artefact_path is None else result.artefact_path
    if folder is not None and folder.is_dir():
        for child in sorted(folder.iterdir()):
            if child.is_dir() and not path:  # the run's root: one folder per part
                client.log_artifacts(run_id, str(child), artifact_path=child.name)
            elif not path:
                client.log_artifact(run_id, str(child))
        if path and any(folder.iterdir()):
            client.log_artifacts(run_id, str(folder), artifact_path=path)
    if result.items:
        with tempfile.TemporaryDirectory() as tmp:
            items = Path(tmp) / f"{result.name}.jsonl.gz"
            write_items(items, result.items)
            client.log_artifact(run_id, str(items), artifact_path="items")
    if result.tables:
        import mlflow

        mlflow.set_tracking_uri(client.tracking_uri)
        for artefact_file, columns in result.tables.items():
            mlflow.log_table(data=scrub_tree(columns), artifact_file=artefact_file, run_id=run_id)


def instrument_tags(tags: dict[str, str], settings: Settings) -> dict[str, str]:
    """The instrument that judged the run (:mod:`studybench.tracking.rescore`): the verifier
    and judge versions the results carry, the judge model when the LLM stage is on."""
    model = settings.judge.model if settings.judge.llm_enabled else ""
    return Instrument(
        verifier_version=tags.get("verifier_version", VERIFIER_VERSION),
        judge_version=tags.get("judge_version", ""),
        judge_model=model,
    ).tags()


def _log_lineage(
    client: Any,
    experiment: str,
    checkpoint: Checkpoint,
    step: int,
    curve: dict[str, float],
    instrument: Instrument | None = None,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # one instrument per learning curve: another instrument's lineage run is retired
    run_id = lineage_run(client, experiment, str(checkpoint.training_run), instrument)
    lineage = dict(curve)
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
