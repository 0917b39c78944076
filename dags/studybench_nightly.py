"""studybench_nightly: re-evaluate the models of ``nightly.models`` every night on the
benchmarks of ``benchmarks.run`` and fail loudly on regressions.

Each night is its own evaluation (the run tag is the night's date), compared with the
previous night of the same model and with the pinned ``nightly.baseline``. With
``nightly.report_experiment`` set, the paper report of that experiment is refreshed once the
night's evaluations are logged. The last task fails with the list of regressions (and of
models that could not be evaluated) after everything is logged, so Airflow's alerting fires
(the report step runs before it: a leaf that succeeded would hide a failed verdict). Logic
lives in ``studybench.pipeline``.
"""

from __future__ import annotations

from typing import Any

import pendulum
from airflow.sdk import DAG, task
from studybench_airflow.notifiers import RegressionNotifier
from studybench_airflow.parse_time import setting
from studybench_airflow.tasks import DEFAULT_ARGS, REPO, evaluate

with DAG(
    dag_id="studybench_nightly",
    description="Nightly StudyBench regression run over the models in params.yaml",
    schedule=setting("nightly", "schedule", "0 2 * * *"),
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    max_active_runs=1,
    default_args=DEFAULT_ARGS,
    tags=["studybench", "evaluation", "nightly"],
    doc_md=__doc__,
):

    @task
    def plan(**context: Any) -> dict[str, list[str]]:
        from studybench.pipeline.orchestration import plan_nightly, task_settings

        night = context["dag_run"].run_after.strftime("%Y-%m-%d")
        return plan_nightly(task_settings(REPO), run_tag=f"nightly-{night}")

    @task(  # after everything, also when something failed; alerts on a regression
        trigger_rule="all_done",
        on_failure_callback=[RegressionNotifier(run_roots_task="run_roots")],
    )
    def verdict(run_roots: list[str], problems: list[str]) -> str:
        from airflow.sdk.exceptions import AirflowFailException

        from studybench.pipeline.orchestration import RegressionError
        from studybench.pipeline.orchestration import verdict as body

        try:
            return body(list(run_roots), fail_on_regression=True, problems=list(problems))
        except RegressionError as exc:  # a finding, not a transient error: no retries
            raise AirflowFailException(f"RegressionError: {exc}") from exc

    @task
    def run_roots(planned: dict[str, list[str]]) -> list[str]:
        return list(planned["run_roots"])

    @task
    def problems(planned: dict[str, list[str]]) -> list[str]:
        return list(planned["problems"])

    @task
    def calibrate_judge() -> str:
        """Measure the LLM judge against labels whenever its model or prompt changed."""
        from studybench.cli.calibrate import run_calibration
        from studybench.pipeline.orchestration import task_settings

        report = run_calibration(task_settings(REPO), only_if_changed=True)
        return "unchanged" if report is None else report.judge_fingerprint

    @task(trigger_rule="all_done")  # once every evaluation is logged; the verdict stays last
    def paper_report() -> str:
        """Refresh ``nightly.report_experiment``'s paper report (off when it is empty)."""
        from studybench.pipeline.orchestration import refresh_paper_report, task_settings

        return refresh_paper_report(task_settings(REPO))

    calibrate_judge()
    planned = plan()
    roots = run_roots(planned)
    evaluated = evaluate(roots, baseline_setting="nightly")
    evaluated >> paper_report() >> verdict(roots, problems(planned))
