"""studybench_rescore: bring every stored evaluation to the installed verifier and judge by
judging its stored generations again, with no inference.

Scheduled by the asset ``studybench_instrument``, whose watcher (``InstrumentTrigger`` in
plugins/) emits one event naming the installed verifier and judge versions whenever they
change: a deploy that bumps the verifier triggers this DAG, untouched. Trigger by hand with
params to re-score a selection (``run_ids``, ``experiment``, ``training_run``, ``since``,
``until``). The plan finds every run no version of which was judged by the installed
instrument; each mapped task re-scores one batch (a training run's checkpoints, or one run)
in ``rescore.order``, at most ``rescore.concurrency`` at once, with the retries of the
other DAGs. Every step is idempotent: a retried or re-run task continues or does nothing.
Logic lives in ``studybench.rescore``; this file only wires it.
"""

from __future__ import annotations

from typing import Any

import pendulum
from airflow.sdk import DAG, Param, task
from studybench_airflow.instrument import InstrumentTrigger
from studybench_airflow.parse_time import REPO, setting, watched_asset
from studybench_airflow.tasks import DEFAULT_ARGS

ASSET_NAME = "studybench_instrument"


INSTRUMENT = watched_asset(
    "studybench://instrument/installed",
    ASSET_NAME,
    "studybench_instrument_watcher",
    InstrumentTrigger,
)

with DAG(
    dag_id="studybench_rescore",
    description="Re-score stored generations with the installed verifier and judge",
    schedule=[INSTRUMENT],
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    max_active_runs=1,
    default_args=DEFAULT_ARGS,
    params={
        "run_ids": Param([], type="array", description="run ids (default: every stale run)"),
        "experiment": Param("", type="string", description="default tracking.experiment"),
        "training_run": Param("", type="string"),
        "since": Param("", type="string", description="ISO date/time, UTC"),
        "until": Param("", type="string", description="ISO date/time, UTC"),
    },
    tags=["studybench", "evaluation", "rescore"],
    doc_md=__doc__,
):

    @task
    def plan(**context: Any) -> list[dict[str, Any]]:
        from studybench.pipeline.orchestration import task_settings
        from studybench.rescore.tasks import plan as body

        return body(task_settings(REPO), dict(context["params"]))

    @task(max_active_tis_per_dagrun=setting("rescore", "concurrency", 2))
    def rescore(batch: dict[str, Any]) -> dict[str, Any]:
        from studybench.pipeline.orchestration import task_settings
        from studybench.rescore.tasks import rescore as body

        return body(batch, task_settings(REPO))

    @task(trigger_rule="all_done")
    def summary(results: list[dict[str, Any]]) -> str:
        from studybench.rescore.tasks import summarise

        return summarise(list(results))

    summary(rescore.expand(batch=plan()))
