"""Runs in a subprocess with its own AIRFLOW_HOME: loads the DAG folder, optionally runs
one DAG with ``dag.test()``, and prints a JSON summary (import errors, DAGs, run state,
asset events)."""

from __future__ import annotations

import json
import sys


def main(dag_folder: str, dag_id: str | None) -> None:
    from airflow.dag_processing.dagbag import DagBag

    bag = DagBag(dag_folder=dag_folder)
    summary: dict[str, object] = {
        "import_errors": {k: str(v) for k, v in bag.import_errors.items()},
        "dags": {
            d.dag_id: {
                "tags": sorted(d.tags),
                "tasks": [t.task_id for t in d.tasks],
                "outlets": sorted(o.uri for t in d.tasks for o in t.outlets),
            }
            for d in bag.dags.values()
        },
    }
    if dag_id:
        from airflow.models.asset import AssetEvent
        from airflow.utils.session import create_session

        run = bag.get_dag(dag_id).test()
        summary["state"] = str(run.state)
        with create_session() as session:
            summary["events"] = {
                event.asset.uri: event.extra for event in session.query(AssetEvent).all()
            }
    print("JSON:" + json.dumps(summary))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
