"""``make demo``: the platform's promise in miniature, on a laptop-class CPU.

1. Build the tiny offline model (once; reused on later runs).
2. Start a real local Airflow (scheduler, dag-processor, triggerer, API server) watching
   ``work/demo/checkpoints`` through the checkpoint DAG's asset watcher.
3. Fine-tune the tiny model with TRL SFT on the answered instruction layers, writing the
   untrained weights as checkpoint-0 and a checkpoint every 40 steps, each with the ready
   marker. Nobody calls Airflow: the watcher sees each checkpoint and starts a DAG run that
   serves it with vLLM (CPU build), generates, judges and logs to MLflow.
4. Wait until every checkpoint is evaluated, print the scores per checkpoint and how to
   open the MLflow and Airflow UIs, stop Airflow.

Settings come from the ``demo`` profile of params.yaml (k=2, three seeds, short answers,
rule judge only: there is no judge model offline). Each run starts from a clean
``work/demo`` (the base model and the caches are kept), so the curve is always measured.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from studybench import local_airflow as la
from studybench.config import Settings, load_settings
from studybench.errors import StudyBenchError

PROFILE = "demo"
TRAINING_RUN = "sft-demo"
console = Console(stderr=True)


def _say(text: str) -> None:
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def _port(preferred: int) -> int:
    """``preferred`` unless something listens there, else a free port."""
    from studybench.engines.vllm_server import free_port

    return preferred if la.port_free(preferred) else free_port()


SENTINEL = ".studybench-demo"


def _reset(work: Path, keep: set[str]) -> None:
    """Empty the demo's work folder, but only one the demo made (it carries a sentinel):
    an overridden ``paths.work_dir`` pointing at real results is refused, not wiped."""
    if work.exists() and any(work.iterdir()) and not (work / SENTINEL).exists():
        raise StudyBenchError(
            f"{work} is not empty and was not made by the demo (no {SENTINEL} in it); the demo "
            "resets its work folder on every run, so point paths.work_dir (or "
            "STUDYBENCH__PATHS__WORK_DIR) at a folder of its own"
        )
    work.mkdir(parents=True, exist_ok=True)
    for child in work.iterdir():
        if child.name in keep or child.name == SENTINEL:
            continue
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()
    (work / SENTINEL).write_text("this folder belongs to `make demo`, which empties it\n")


def _evaluated(settings: Settings) -> dict[int, dict[str, float]]:
    """Step -> headline metrics of the demo lineage's finished evaluations in MLflow.

    The demo only reads the store, while Airflow's first evaluation creates it: opening a
    SQLite store that does not exist yet would run MLflow's migration here too, racing the
    writer's (``table _alembic_tmp_experiments already exists``). So a missing store, or one
    still being migrated, reads as "nothing evaluated yet" and the next poll looks again."""
    from sqlalchemy.exc import OperationalError

    from studybench.tracking.mlflow_log import client_for, tracking_uri

    uri = tracking_uri(settings)
    if uri.startswith("sqlite:///") and not Path(uri.removeprefix("sqlite:///")).is_file():
        return {}
    try:
        client = client_for(settings)
        experiment = client.get_experiment_by_name(settings.tracking.experiment)
        if experiment is None:
            return {}
        runs = client.search_runs(
            [experiment.experiment_id],
            filter_string=f"tags.`training_run` = '{TRAINING_RUN}'",
            max_results=200,
        )
    except OperationalError:  # the first writer is still migrating the new store
        return {}
    found: dict[int, dict[str, float]] = {}
    for run in runs:
        step = run.data.tags.get("checkpoint.step", "")
        if (
            run.info.status == "FINISHED"
            and step.isdigit()
            and "studybench.eval_key" in run.data.tags
        ):
            found[int(step)] = dict(run.data.metrics)
    return found


def _table(settings: Settings, results: dict[int, dict[str, float]]) -> Table:
    k = settings.protocol.k
    splits = list(settings.checkpoints.splits)
    table = Table(
        title=f"{TRAINING_RUN}: Par@{k} / Sub@{k} in %",
        caption=f"mean ± std over {len(settings.protocol.seeds)} seeds",
        title_justify="left",
        caption_justify="left",
    )
    table.add_column("step", justify="right")
    for split in splits:
        table.add_column(split, justify="right")
    for step in sorted(results):
        metrics = results[step]
        row = [str(step)]
        for split in splits:
            cells = []
            for name in ("par", "sub"):
                mean = metrics.get(f"{split}/{name}_at_{k}_mean")
                std = metrics.get(f"{split}/{name}_at_{k}_std", 0.0)
                cells.append("-" if mean is None else f"{100 * mean:.0f}±{100 * std:.0f}")
            row.append(" / ".join(cells))
        table.add_row(*row)
    return table


def _failures(api: la.AirflowAPI, home: Path) -> list[str]:
    lines = []
    for run in api.dag_runs(la.CHECKPOINT_DAG):
        if run["state"] != "failed":
            continue
        for ti in api.task_instances(la.CHECKPOINT_DAG, run["dag_run_id"]):
            if ti["state"] == "failed":
                lines.append(
                    f"run {run['dag_run_id']}: task {ti['task_id']}[{ti.get('map_index')}] "
                    f"failed; logs under {home / 'logs' / f'dag_id={la.CHECKPOINT_DAG}'}"
                )
    return lines


def run_demo(params: Path, *, timeout_s: float = 1500.0) -> dict[int, dict[str, float]]:
    import signal

    from studybench.benchmarks.studybench import split_file
    from studybench.benchmarks.studybench.memorisation import sft_examples
    from studybench.data.loaders import load_parents
    from studybench.engines.demo_model import build_demo_model
    from studybench.training.sft import SFTRecipe, train_sft

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    for number in (signal.SIGTERM, signal.SIGHUP):  # so Airflow is stopped on the way out
        signal.signal(number, interrupt)
    started = time.monotonic()
    os.environ["STUDYBENCH_PROFILE"] = PROFILE
    settings = load_settings(params, profile=PROFILE)
    repo = Path.cwd().resolve()
    work = settings.paths.work_dir.resolve()
    base = work / "base-model"
    _reset(work, keep={"base-model", "cache"})
    if not (base / "config.json").exists():
        _say("building the tiny model (once)")
        build_demo_model(base, settings.release.root)
    roots = [Path(r).resolve() for r in settings.checkpoints.roots]
    for root in roots:
        root.mkdir(parents=True, exist_ok=True)
    home = settings.airflow.home.resolve()
    port = _port(settings.airflow.port)
    log = home / "standalone.log"
    _say(f"starting Airflow on http://127.0.0.1:{port} (log {log})")
    with la.running(repo, settings, port=port, params=params, profile=PROFILE) as airflow:
        api = airflow.api
        _say(f"Airflow is up after {time.monotonic() - started:.0f} s; training the tiny model")

        parents = load_parents(split_file("memorisation", settings))
        examples = sft_examples(parents, settings.protocol.system_prompt)
        recipe = SFTRecipe(
            **settings.training.sft.model_dump(), training_run=TRAINING_RUN, save_initial=True
        )
        checkpoints = train_sft(base, roots[0] / TRAINING_RUN, examples, recipe)
        steps = {int(p.name.removeprefix("checkpoint-")) for p in checkpoints} | {0}
        _say(
            f"wrote {len(steps)} checkpoints (steps {', '.join(map(str, sorted(steps)))}) after "
            f"{time.monotonic() - started:.0f} s; Airflow evaluates each as it appears"
        )
        results: dict[int, dict[str, float]] = {}
        last = ""
        while time.monotonic() - started < timeout_s:
            results = _evaluated(settings)
            runs = api.dag_runs(la.CHECKPOINT_DAG)
            states = sorted(r["state"] for r in runs)
            line = f"evaluated {len(set(results) & steps)}/{len(steps)} checkpoints; DAG runs: " + (
                ", ".join(f"{s} {states.count(s)}" for s in sorted(set(states))) or "none yet"
            )
            if line != last:
                _say(f"[{time.monotonic() - started:4.0f} s] {line}")
                last = line
            active = any(r["state"] in ("queued", "running") for r in runs)
            if steps <= set(results) and not active:
                break
            if runs and not active and "failed" in states:
                break
            time.sleep(5)
        failures = _failures(api, home)
    elapsed = time.monotonic() - started
    Console(stderr=True, width=max(console.width, 100)).print(_table(settings, results))
    _report(settings, results, elapsed, home)
    if failures or not steps <= set(results):
        for failure in failures:
            _say(failure)
        raise StudyBenchError(
            f"demo incomplete: {len(set(results) & steps)} of {len(steps)} checkpoints "
            f"evaluated in {elapsed:.0f} s (Airflow log: {log})"
        )
    return results


def _report(
    settings: Settings, results: dict[int, dict[str, float]], elapsed: float, home: Path
) -> None:
    k = settings.protocol.k
    if results:
        first, last = min(results), max(results)

        def par(step: int, split: str) -> float:
            return 100 * results[step].get(f"{split}/par_at_{k}_mean", 0.0)

        parts = [
            f"{split} {par(first, split):.0f}% -> {par(last, split):.0f}%"
            for split in settings.checkpoints.splits
        ]
        _say(f"Par@{k} from step {first} to step {last}: " + ", ".join(parts))
        if "memorisation" in settings.checkpoints.splits:
            gain = par(last, "memorisation") - par(first, "memorisation")
            _say(
                "memorisation (the training items, asked the benchmark's way) "
                + (
                    f"rose by {gain:.0f} points: the model learned what it was trained on, "
                    "while Application and Transfer measure physics it never learned (the "
                    "paper's point, in miniature)"
                    if gain >= 20
                    else f"moved by {gain:.0f} points only: the training did not take hold"
                )
            )
    db = settings.paths.work_dir / "mlflow" / "mlflow.db"
    _say(f"demo finished in {elapsed / 60:.1f} min")
    _say(
        f"MLflow UI:  make mlflow-ui MLFLOW_DB={db}   then http://127.0.0.1:5000, experiment "
        f"'{settings.tracking.experiment}' (run 'lineage/{TRAINING_RUN}' has the learning curve)"
    )
    _say(
        f"Paper tables: STUDYBENCH_PROFILE={PROFILE} .venv/bin/studybench report paper   "
        "(the main table, learning curves; logged back as the run 'report/paper')"
    )
    _say(
        f"Airflow UI: STUDYBENCH_PROFILE={PROFILE} make airflow   then "
        f"http://127.0.0.1:{settings.airflow.port}, user {settings.airflow.username}, password "
        f"in {home / la.PASSWORD_FILE}"
    )
