"""The evaluation task wiring shared by ``studybench_checkpoint_eval`` and
``studybench_nightly``: prepare engine (setup) → generate (pool ``gpu``, one engine serves
every split and seed) → stop engine (teardown, runs even when generation fails) → judge per
(split, seed) → log to MLflow → regression check → verdict. Every body is one call into
:mod:`studybench.pipeline.orchestration`; imports happen inside tasks so parsing stays fast.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from airflow.sdk import setup, task, teardown

from studybench_airflow.links import MLflowRunLink, push_url
from studybench_airflow.parse_time import REPO

GPU_POOL = "gpu"
# the Celery queue of the GPU workers (docker/): generation and its teardown run where vLLM
# runs; the LocalExecutor ignores queues
GPU_QUEUE = "gpu"
DEFAULT_ARGS: dict[str, Any] = {
    "owner": "studybench",
    "retries": 2,
    # first retry after this many seconds, then exponential backoff
    "retry_delay": timedelta(seconds=float(os.environ.get("STUDYBENCH_RETRY_DELAY_S", "30"))),
    "retry_exponential_backoff": True,
}


# the project folder: $STUDYBENCH_REPO, else the checkout this plugins folder belongs to


def _settings() -> Any:
    from studybench.pipeline.orchestration import task_settings

    return task_settings(REPO)


def evaluate(run_roots: Any, baseline_setting: str) -> Any:
    """Wire the evaluation of ``run_roots`` (an XComArg: list of run folders); returns the
    mapped regression checks (each writes its target's ``check.json`` for the verdict).

    Targets are independent: after a failed generation or judging of one target, the
    others are still judged, logged and checked (``all_done``), and the failed one is
    skipped downstream and listed by the verdict.

    The task functions are decorated anew on every call: Airflow 3.3's ``@teardown``
    ``.expand()`` stores its trigger rule on the shared decorator, so a second DAG reusing a
    module-level teardown would fail to parse."""

    @setup
    def prepare_engine(run_root: str) -> str:
        from studybench.pipeline.orchestration import prepare_engine as body

        return body(run_root)

    @task(pool=GPU_POOL, queue=GPU_QUEUE, execution_timeout=timedelta(hours=24))
    def generate(run_root: str) -> str:
        from studybench.pipeline.orchestration import generate as body

        body(run_root, _settings())
        return run_root

    @teardown
    @task(queue=GPU_QUEUE)  # the server it stops runs on the GPU worker
    def stop_engine(run_root: str) -> bool:
        from studybench.pipeline.orchestration import stop_engine as body

        return body(run_root)

    @task(trigger_rule="all_done")  # one failed generation must not stop the others
    def judge_units(run_roots: list[str]) -> list[dict[str, Any]]:
        from studybench.pipeline.orchestration import judge_units as body

        return body(list(run_roots))

    @task(max_active_tis_per_dagrun=4)
    def judge(unit: dict[str, Any]) -> dict[str, Any]:
        from studybench.pipeline.orchestration import judge_unit

        return judge_unit(unit, _settings())

    @task(trigger_rule="all_done")
    def log_to_mlflow(run_root: str, **context: Any) -> dict[str, Any]:
        from airflow.sdk.exceptions import AirflowSkipException

        from studybench.pipeline.orchestration import NotReadyError, log_run

        try:
            logged = log_run(run_root, _settings())
        except NotReadyError as exc:  # its failed step already says why
            raise AirflowSkipException(str(exc)) from exc
        push_url(context, logged["url"])
        return logged

    @task(trigger_rule="all_done")
    def check_regressions(run_root: str, baseline_setting: str) -> dict[str, Any]:
        from airflow.sdk.exceptions import AirflowSkipException

        from studybench.pipeline.orchestration import NotReadyError, check_run

        settings = _settings()
        try:
            return check_run(run_root, settings, getattr(settings, baseline_setting).baseline)
        except NotReadyError as exc:
            raise AirflowSkipException(str(exc)) from exc

    prepared = prepare_engine.expand(run_root=run_roots)
    generated = generate.expand(run_root=prepared)
    stopped = stop_engine.expand(run_root=prepared)
    generated >> stopped
    units = judge_units(run_roots)
    generated >> units
    judged = judge.expand(unit=units)
    logged = log_to_mlflow.expand(run_root=run_roots)
    judged >> logged
    logged.operator.operator_extra_links = [MLflowRunLink()]
    checked = check_regressions.partial(baseline_setting=baseline_setting).expand(
        run_root=run_roots
    )
    logged >> checked
    return checked
