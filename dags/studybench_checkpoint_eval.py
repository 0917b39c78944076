"""studybench_checkpoint_eval: evaluate every new checkpoint as soon as it is complete.

A watcher (``CheckpointTrigger`` in plugins/) polls ``checkpoints.roots`` from params.yaml and
emits one asset event per newly ready checkpoint; each DAG run evaluates every checkpoint of
its events (several events can arrive in one run) on every benchmark of ``benchmarks.run``
(StudyBench, EvaLearn, ...), all served by one engine per checkpoint. Trigger by hand with
``conf={"checkpoint": "/path/to/checkpoint-N"}`` (or ``studybench trigger``), optionally with
method artefacts evaluated with it (``"gepa": "prompts.jsonl", "gepa_iteration": 3``,
``"guidance": ...``, ``"ace": ...``, ``"evoskill": ...``). Logic lives in
``studybench.pipeline``; this file only wires it.
"""

from __future__ import annotations

from typing import Any

import pendulum
from airflow.sdk import DAG, task
from studybench_airflow.notifiers import RegressionNotifier
from studybench_airflow.parse_time import REPO, paused_at_creation, watched_asset
from studybench_airflow.tasks import DEFAULT_ARGS, evaluate
from studybench_airflow.trigger import CheckpointTrigger

ASSET_NAME = "studybench_checkpoints"

CHECKPOINTS = watched_asset(
    "studybench://checkpoints/ready",
    ASSET_NAME,
    "studybench_checkpoint_watcher",
    CheckpointTrigger,
)

with DAG(
    dag_id="studybench_checkpoint_eval",
    description="Evaluate each new checkpoint on the configured benchmarks; log to MLflow",
    schedule=[CHECKPOINTS],
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    is_paused_upon_creation=paused_at_creation(),
    default_args=DEFAULT_ARGS,
    tags=["studybench", "evaluation", "checkpoints"],
    doc_md=__doc__,
):

    @task
    def plan(**context: Any) -> list[str]:
        from studybench.pipeline.orchestration import (
            artefacts_from_conf,
            plan_checkpoints,
            task_settings,
        )

        events = context["triggering_asset_events"]
        locations = [
            str(event.extra["payload"]["checkpoint"])
            for asset_events in events.values()
            for event in asset_events
            if isinstance(event.extra.get("payload"), dict)
        ]
        conf = context["dag_run"].conf or {}
        if conf.get("checkpoint"):
            locations.append(str(conf["checkpoint"]))
        settings = task_settings(REPO)
        return plan_checkpoints(locations, settings, artefacts_from_conf(conf))

    # after everything, also when something failed. A regression is mailed whether or not it
    # fails the run (fail_on_regression): the nightly DAG's notifier, on whichever way the
    # task ends (one of the two callbacks fires), sends nothing when nothing regressed.
    alert = RegressionNotifier(run_roots_task="plan")

    @task(trigger_rule="all_done", on_failure_callback=[alert], on_success_callback=[alert])
    def verdict(run_roots: list[str]) -> str:
        from airflow.sdk.exceptions import AirflowFailException

        from studybench.pipeline.orchestration import RegressionError, task_settings
        from studybench.pipeline.orchestration import verdict as body

        fail = task_settings(REPO).checkpoints.fail_on_regression
        try:
            return body(list(run_roots), fail_on_regression=fail)
        except RegressionError as exc:  # a finding, not a transient error: no retries
            raise AirflowFailException(f"RegressionError: {exc}") from exc

    planned = plan()
    evaluate(planned, baseline_setting="checkpoints") >> verdict(planned)
