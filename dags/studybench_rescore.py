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

import os
from pathlib import Path
from typing import Any

import pendulum
from airflow.sdk import DAG, Asset, AssetWatcher, Param, task
from studybench_airflow.instrument import InstrumentTrigger
from studybench_airflow.tasks import DEFAULT_ARGS, REPO

ASSET_NAME = "studybench_instrument"


def _concurrency() -> int:
    """``rescore.concurrency`` read without importing studybench (parsing stays fast):
    the environment override, else params.yaml, else 2."""
    import yaml

    if os.environ.get("STUDYBENCH__RESCORE__CONCURRENCY"):
        return int(os.environ["STUDYBENCH__RESCORE__CONCURRENCY"])
    params = Path(os.environ.get("STUDYBENCH_PARAMS", "params.yaml"))
    try:
        loaded = yaml.safe_load((Path(REPO) / params).read_text()) or {}
        return int((loaded.get("rescore") or {}).get("concurrency", 2))
    except (OSError, yaml.YAMLError, AttributeError, ValueError, TypeError):
        return 2


INSTRUMENT = Asset(
    uri="studybench://instrument/installed",
    name=ASSET_NAME,
    watchers=[
        AssetWatcher(
            name="studybench_instrument_watcher",
            trigger=InstrumentTrigger(
                repo=REPO,
                params=os.environ.get("STUDYBENCH_PARAMS", ""),
                profile=os.environ.get("STUDYBENCH_PROFILE", ""),
                asset=ASSET_NAME,
            ),
        )
    ],
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

    @task(max_active_tis_per_dagrun=_concurrency())
    def rescore(batch: dict[str, Any]) -> dict[str, Any]:
        from studybench.pipeline.orchestration import task_settings
        from studybench.rescore.tasks import rescore as body

        return body(batch, task_settings(REPO))

    @task(trigger_rule="all_done")
    def summary(results: list[dict[str, Any]]) -> str:
        from studybench.rescore.tasks import summarise

        return summarise(list(results))

    summary(rescore.expand(batch=plan()))
