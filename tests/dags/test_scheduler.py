"""The real thing: ``airflow standalone`` (scheduler, dag-processor, triggerer, API server)
over the project's dags/ and plugins/. A checkpoint copied into the watched folder is
evaluated without any manual step; ``studybench trigger`` pushes another one; a restarted
triggerer fires only for checkpoints it has not reported."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from studybench import local_airflow as la
from tests.conftest import ROOT, free_port, migrated_airflow_home, run_checked
from tests.dags.test_dags import write_params

DAG = la.CHECKPOINT_DAG


def wait_for_runs(api: la.AirflowAPI, count: int, timeout_s: float = 420.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout_s
    runs: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        runs = api.dag_runs(DAG)
        finished = [r for r in runs if r["state"] in ("success", "failed")]
        if len(finished) >= count and len(finished) == len(runs):
            return runs
        time.sleep(1.0)
    raise AssertionError(f"no {count} finished run(s) of {DAG} in {timeout_s:.0f} s: {runs}")


def wait_for_watcher(home: Path, timeout_s: float = 120.0) -> None:
    """Until the checkpoint watcher (the DAG's asset trigger) is held by this start's running
    triggerer: the event that it watches, read from Airflow's own tables. A fixed sleep was
    too short when the DAG was re-parsed late (the checkpoint landed before the watcher ran)
    and too long otherwise; after a restart the trigger stays with the stopped triggerer
    until the new one takes it over."""
    deadline = time.monotonic() + timeout_s
    query = (
        "SELECT count(*) FROM trigger JOIN job ON job.id = trigger.triggerer_id "
        "WHERE trigger.classpath LIKE '%CheckpointTrigger' AND job.state = 'running' "
        "AND job.id = (SELECT max(id) FROM job WHERE job_type = 'TriggererJob')"
    )
    while time.monotonic() < deadline:
        if db_count(home, query) == 1:
            return
        time.sleep(0.5)
    raise AssertionError(f"the checkpoint watcher did not start in {timeout_s:.0f} s")


def db_count(home: Path, query: str) -> int:
    """The count ``query`` reads from Airflow's sqlite database, opened read-only; while a
    writer holds the lock, read again (20 s at most)."""
    for _ in range(100):
        with (
            contextlib.closing(
                sqlite3.connect(f"file:{home / 'airflow.db'}?mode=ro", uri=True)
            ) as db,
            contextlib.suppress(sqlite3.OperationalError),
        ):  # locked by a writer: retry
            return int(db.execute(query).fetchone()[0])
        time.sleep(0.2)
    raise AssertionError("Airflow's database stayed locked")


def asset_events(home: Path) -> int:
    """How many asset events (watched checkpoints reported) Airflow's database holds."""
    return db_count(home, "SELECT count(*) FROM asset_event")


def wait_for_asset_events(home: Path, count: int, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if asset_events(home) >= count:
            assert asset_events(home) == count
            return
        time.sleep(0.5)
    raise AssertionError(f"no {count} asset event(s) in {timeout_s:.0f} s")


@contextlib.contextmanager
def triggerer_alone(env: dict[str, str], log: Path) -> Iterator[None]:
    """``airflow triggerer`` by itself over the same home, stopped (its process group) on exit."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("airflow")), "triggerer"],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    try:
        yield
    finally:
        la.stop(process)


def test_watched_checkpoint_is_evaluated_without_a_manual_step(
    trained_checkpoints: Path, tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.tracking.mlflow_log import client_for

    home = migrated_airflow_home(tmp_path / "airflow")  # standalone's migrate finds it done
    watched = tmp_path / "watched"
    watched.mkdir()
    port = free_port()
    params = write_params(
        tmp_path,
        protocol={"k": 1, "seeds": [0], "max_new_tokens": 32},
        checkpoints={
            "roots": [str(watched)],
            "quiet_period_s": 1,
            "poll_interval_s": 1,
            "splits": ["memorisation"],
        },
        airflow={"home": str(home), "url": f"http://127.0.0.1:{port}"},
    )
    settings = load_settings(params, environ={})
    with la.running(
        ROOT, settings, port=port, params=params, log_ports=(free_port(), free_port())
    ) as airflow:
        api, log = airflow.api, airflow.log
        # the gpu pool, created through the API on start; set again, it is resized
        assert api._request("GET", f"/api/v2/pools/{la.GPU_POOL}")["slots"] == 1
        api.set_pool(la.GPU_POOL, 2, "concurrent vLLM engines")
        assert api._request("GET", f"/api/v2/pools/{la.GPU_POOL}")["slots"] == 2
        api.set_pool(la.GPU_POOL, 1, "concurrent vLLM engines")
        wait_for_watcher(home)  # the checkpoint lands once the watcher runs: a new arrival

        # a training job's checkpoint appears in the watched folder
        shutil.copytree(
            trained_checkpoints / "checkpoint-160", watched / "sft-test" / "checkpoint-160"
        )
        (run,) = wait_for_runs(api, 1)
        assert run["state"] == "success", log.read_text()[-3000:]
        assert run["run_type"] == "asset_triggered"
        links = api._request(
            "GET",
            f"/api/v2/dags/{DAG}/dagRuns/{run['dag_run_id']}/taskInstances/log_to_mlflow/links"
            "?map_index=0",
        )
        assert links["extra_links"]["MLflow run"].startswith("http://127.0.0.1:5000/#/")

        # training code that prefers push: studybench trigger
        studybench = str(Path(sys.executable).with_name("studybench"))
        run_checked(
            studybench,
            "trigger",
            str(trained_checkpoints / "checkpoint-0"),
            "--params",
            str(params),
            cwd=tmp_path,
        )
        runs = wait_for_runs(api, 2)
        assert [r["state"] for r in runs] == ["success", "success"], log.read_text()[-3000:]
        assert sorted(r["run_type"] for r in runs) == ["asset_triggered", "manual"]

        env = airflow.env
        reported = asset_events(home)
        assert reported == 1  # the watched checkpoint-160; the pushed one is a manual run

    # restart of the component that holds the watcher (the triggerer; the scheduler turning
    # an asset event into a run is shown above): reported checkpoints live in the asset state
    # store in Airflow's database, so neither the same folder nor a copy of it (same
    # identity) fires again, and a checkpoint not reported yet does
    with triggerer_alone(env, home / "triggerer.log"):
        wait_for_watcher(home)
        shutil.copytree(
            trained_checkpoints / "checkpoint-160", watched / "copy-of-run" / "checkpoint-160"
        )
        time.sleep(6)  # six polls of the running watcher (a new one fires in 2-4 s)
        assert asset_events(home) == reported
        shutil.copytree(trained_checkpoints / "checkpoint-0", watched / "sft-test" / "checkpoint-0")
        wait_for_asset_events(home, reported + 1)

    client = client_for(settings)
    experiment = client.get_experiment_by_name("dag-test").experiment_id
    evaluated = client.search_runs([experiment], filter_string="tags.`training_run` = 'sft-test'")
    steps = sorted(
        int(r.data.tags["checkpoint.step"])
        for r in evaluated
        if "studybench.eval_key" in r.data.tags
    )
    assert steps == [0, 160]
