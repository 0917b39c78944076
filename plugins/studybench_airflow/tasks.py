"""The evaluation task wiring shared by ``studybench_checkpoint_eval`` and
``studybench_nightly``: prepare engine (setup) → generate (pool ``gpu``, one engine serves
every split and seed) → stop engine (teardown, runs even when generation fails) → judge per
(split, seed) → log to MLflow → regression check → verdict. Every body is one call into
:mod:`studybench.pipeline.orchestration`; imports happen inside tasks so parsing stays fast.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from airflow.sdk import setup, task, teardown

from studybench_airflow.links import MLflowRunLink, push_url

GPU_POOL = "gpu"
DEFAULT_ARGS: dict[str, Any] = {
    "owner": "studybench",
    "retries": 2,
    "retry_delay": timedelta(seconds=30),
    "retry_exponential_backoff": True,
}


def _settings() -> Any:
    from studybench.pipeline.orchestration import task_settings

    return task_settings()


def evaluate(run_roots: Any, baseline_setting: str) -> Any:
    """Wire the evaluation of ``run_roots`` (an XComArg: list of run folders); returns the
    mapped regression-check results.

    The task functions are decorated anew on every call: Airflow 3.3's ``@teardown``
    ``.expand()`` stores its trigger rule on the shared decorator, so a second DAG reusing a
    module-level teardown would fail to parse."""

    @setup
    def prepare_engine(run_root: str) -> str:
        from studybench.pipeline.orchestration import prepare_engine as body

        return body(run_root)

    @task(pool=GPU_POOL, execution_timeout=timedelta(hours=24))
    def generate(run_root: str) -> str:
        from studybench.pipeline.orchestration import generate as body

        body(run_root, _settings())
        return run_root

    @teardown
    def stop_engine(run_root: str) -> bool:
        from studybench.pipeline.orchestration import stop_engine as body

        return body(run_root)

    @task
    def judge_units(run_roots: list[str]) -> list[dict[str, Any]]:
        from studybench.pipeline.orchestration import judge_units as body

        return body(list(run_roots))

    @task(max_active_tis_per_dagrun=4)
    def judge(unit: dict[str, Any]) -> dict[str, Any]:
        from studybench.pipeline.orchestration import judge_unit

        return judge_unit(unit, _settings())

    @task
    def log_to_mlflow(run_root: str, **context: Any) -> dict[str, Any]:
        from studybench.pipeline.orchestration import log_run

        logged = log_run(run_root, _settings())
        push_url(context, logged["url"])
        return logged

    @task
    def check_regressions(logged: dict[str, Any], baseline_setting: str) -> dict[str, Any]:
        from studybench.pipeline.orchestration import check_run

        settings = _settings()
        section = getattr(settings, baseline_setting)
        return check_run(logged, settings, section.baseline)

    prepared = prepare_engine.expand(run_root=run_roots)
    generated = generate.expand(run_root=prepared)
    stopped = stop_engine.expand(run_root=prepared)
    generated >> stopped
    units = judge_units(generated)
    judged = judge.expand(unit=units)
    logged = log_to_mlflow.expand(run_root=run_roots)
    judged >> logged
    logged.operator.operator_extra_links = [MLflowRunLink()]
    return check_regressions.partial(baseline_setting=baseline_setting).expand(logged=logged)
