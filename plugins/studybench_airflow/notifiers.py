"""Regression alerts through Airflow's notifier mechanism (thin: the message is built by
:mod:`studybench.alerts`; delivery is Airflow's SMTP and Apprise notifiers).

Attach to the task that fails on regressions::

    @task(on_failure_callback=[RegressionNotifier(run_roots_task="plan")])
    def verdict(...): ...

The channels and recipients come from ``alerts:`` in params.yaml; servers and tokens from
Airflow connections (``alerts.smtp.conn_id``, ``alerts.webhook.conn_id``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from airflow.sdk import BaseNotifier

REPO = os.environ.get("STUDYBENCH_REPO", str(Path(__file__).resolve().parents[2]))


class RegressionNotifier(BaseNotifier):
    """Send the regressions found by a DAG run's checks to every enabled channel."""

    template_fields = ()

    def __init__(self, run_roots_task: str = "plan", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.run_roots_task = run_roots_task

    def notify(self, context: Any) -> None:
        from studybench.alerts import build_alert, load_checks
        from studybench.pipeline.orchestration import mlflow_run_url, task_settings

        settings = task_settings(REPO)
        channels = settings.alerts
        if not (channels.smtp.enabled or channels.webhook.enabled):
            return
        roots = context["ti"].xcom_pull(task_ids=self.run_roots_task)
        if isinstance(roots, dict):  # the nightly plan: {"run_roots": [...], "problems": [...]}
            roots = roots.get("run_roots", [])
        dag_run = context.get("dag_run")
        alert = build_alert(
            load_checks([str(r) for r in roots or []]),
            lambda run_id: mlflow_run_url(settings, run_id),
            subject_prefix=channels.subject_prefix,
            dag_run=f"{dag_run.dag_id} {dag_run.run_id}" if dag_run is not None else "",
        )
        if alert is None:
            return
        if channels.smtp.enabled:
            from airflow.providers.smtp.notifications.smtp import SmtpNotifier

            SmtpNotifier(
                to=list(channels.smtp.to),
                from_email=channels.smtp.from_email,
                subject=alert.subject,
                html_content=alert.html,
                smtp_conn_id=channels.smtp.conn_id,
            ).notify(context)
        if channels.webhook.enabled:
            from airflow.providers.apprise.notifications.apprise import AppriseNotifier
            from apprise import NotifyType

            AppriseNotifier(
                body=alert.text,
                title=alert.subject,
                notify_type=NotifyType.FAILURE,
                apprise_conn_id=channels.webhook.conn_id,
                tag=channels.webhook.tag,
            ).notify(context)
