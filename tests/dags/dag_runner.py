"""Runs in a subprocess with its own AIRFLOW_HOME: loads the DAG folder, optionally runs
one DAG with ``dag.test()`` (with a JSON conf, or a JSON list of confs: one run each, in
order, in this one process), and prints a JSON summary (import errors, DAGs, run state,
task states, asset events; ``runs`` holds each run's state, tasks and XComs).

Several runs share one process because its start (Python, Airflow, torch, transformers,
MLflow imports) costs seconds per run on two cores; each ``dag.test()`` is still its own
DAG run with its own logical date, as the scheduler would make."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from typing import Any


def run_summary(run: Any) -> dict[str, object]:
    """One DAG run's state, task states and XComs (other than return values)."""
    from airflow.models.taskinstance import TaskInstance
    from airflow.models.xcom import XComModel
    from airflow.utils.session import create_session

    summary: dict[str, object] = {"state": str(run.state)}
    with create_session() as session:
        tis = session.query(TaskInstance).filter(TaskInstance.run_id == run.run_id).all()
        summary["tasks"] = {f"{ti.task_id}[{ti.map_index}]": str(ti.state) for ti in tis}
        rows = (
            session.query(XComModel)
            .filter(XComModel.run_id == run.run_id, XComModel.key != "return_value")
            .all()
        )
        xcom: dict[str, dict[str, object]] = {}
        for row in rows:
            value = row.value
            if isinstance(value, str):
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            xcom.setdefault(f"{row.task_id}[{row.map_index}]", {})[row.key] = value
        summary["xcom"] = xcom
    return summary


def quick_test_polls(poll_s: float = 0.02) -> None:
    """Let ``dag.test()`` poll its run every ``poll_s`` instead of every second.

    When no task is ready, ``dag.test()`` sleeps one second before it looks again, and a run
    needs such a look for each level that skips propagate through, and for each expansion of
    a mapped task over nothing (the nightly DAG with no model to evaluate slept 5 of its 21 s).
    It waits for something outside the process (a triggerer, a human's input, a retry delay);
    these runs have none of them (retry delays are 0), so the wait only costs time. Only the
    sleeps called from ``dag.test()`` itself are shortened: a task's own waits are untouched."""
    import inspect
    import time

    from airflow.sdk.definitions.dag import DAG

    poll = inspect.unwrap(DAG.test).__code__
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        real_sleep(min(seconds, poll_s) if sys._getframe(1).f_code is poll else seconds)

    time.sleep = sleep


def only_the_spoken_api_version() -> None:
    """Build the in-process execution API for the one version this process's task client
    speaks, not for every version the API server keeps for older workers.

    ``dag.test()`` routes each task's calls through an in-process copy of Airflow's execution
    API; building it generated routers for all nine API versions (Cadwyn), 5.8 s of a 21 s
    DAG test on two cores. The task client sends ``API_VERSION``, the newest version, whose
    routes equal the head's, so a bundle of the head and that version with no changes serves
    the same requests through the same route code (routes the head deleted exist only in the
    older versions, so they go too). Older versions matter to workers of older Airflow
    releases, which a ``dag.test()`` never has."""
    from airflow.api_fastapi.execution_api import versions
    from airflow.api_fastapi.execution_api.routes import execution_api_router
    from airflow.sdk.api.datamodels._generated import API_VERSION
    from cadwyn import HeadVersion, Version, VersionBundle
    from cadwyn.route_generation import _DELETED_ROUTE_TAG

    assert versions.bundle.versions[0].value == API_VERSION, (
        f"the task client speaks {API_VERSION}, the API's newest is "
        f"{versions.bundle.versions[0].value}: only_the_spoken_api_version no longer applies"
    )
    versions.bundle = VersionBundle(HeadVersion(), Version(API_VERSION))
    # routes the head deleted live on only in the versions dropped here
    execution_api_router.routes[:] = [
        route
        for route in execution_api_router.routes
        if _DELETED_ROUTE_TAG not in getattr(route, "tags", ())
    ]


def main(dag_folder: str, dag_id: str | None, conf: str | None) -> None:
    from airflow.dag_processing.dagbag import DagBag

    quick_test_polls()
    only_the_spoken_api_version()

    started = time.perf_counter()
    bag = DagBag(dag_folder=dag_folder)
    summary: dict[str, object] = {
        "parse_s": time.perf_counter() - started,
        "import_errors": {k: str(v) for k, v in bag.import_errors.items()},
        "dags": {
            d.dag_id: {
                "tags": sorted(d.tags),
                "tasks": [t.task_id for t in d.tasks],
                "outlets": sorted(o.uri for t in d.tasks for o in t.outlets),
                "catchup": d.catchup,
                "timetable": type(d.timetable).__name__,
                "cron": str(getattr(d.timetable, "_expression", "")),
                "max_active_runs": d.max_active_runs,
                "owners": sorted({t.owner for t in d.tasks}),
                "retries": sorted({t.retries for t in d.tasks}),
                "pools": sorted({t.pool for t in d.tasks}),
                "setup": sorted(t.task_id for t in d.tasks if t.is_setup),
                "teardown": sorted(t.task_id for t in d.tasks if t.is_teardown),
            }
            for d in bag.dags.values()
        },
    }
    if dag_id:
        from airflow.models.asset import AssetEvent
        from airflow.utils.session import create_session

        parsed = json.loads(conf) if conf else None
        confs = parsed if isinstance(parsed, list) else [parsed]
        dag = bag.get_dag(dag_id)
        runs = [run_summary(dag.test(run_conf=run_conf)) for run_conf in confs]
        summary.update(runs[-1])
        summary["runs"] = runs
        with create_session() as session:
            summary["events"] = {
                event.asset.uri: event.extra for event in session.query(AssetEvent).all()
            }
    print("JSON:" + json.dumps(summary))


if __name__ == "__main__":
    main(
        sys.argv[1],
        sys.argv[2] if len(sys.argv) > 2 else None,
        sys.argv[3] if len(sys.argv) > 3 else None,
    )
