"""Bookkeeping and notification: the MLflow tracking section and where regression alerts
go. Only the names of Airflow connections live here; servers and credentials stay in the
connections."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from studybench.config.fields import Section


class TrackingSettings(Section):
    """MLflow. An empty URI means the embedded SQLite store under ``paths.work_dir``."""

    enabled: bool = True
    uri: str = ""
    experiment: str = "studybench"
    regression_threshold: float = Field(
        0.02, ge=0.0, description="absolute drop that counts as a regression (beyond noise)"
    )
    regression_target: Literal["this_benchmark", "problems_like_these"] = Field(
        "this_benchmark",
        description="the question a comparison's decision answers: this benchmark (items "
        "fixed: did the model change on these problems?) or problems like these (parents "
        "sampled from a population)",
    )
    registered_model: str = Field("", description="register evaluated checkpoints under this name")
    ui_url: str = Field(
        "", description="MLflow UI for links (empty: the tracking URI if http, else :5000)"
    )


class SmtpAlertSettings(Section):
    """E-mail through apache-airflow-providers-smtp (the Airflow connection holds the
    server, port and credentials; never params.yaml)."""

    enabled: bool = False
    conn_id: str = "smtp_default"
    to: tuple[str, ...] = ()
    from_email: str = "studybench@localhost"


class WebhookAlertSettings(Section):
    """A webhook through apache-airflow-providers-apprise (Slack, Teams, Discord, ...: the
    Airflow connection holds the Apprise URL with its token)."""

    enabled: bool = False
    provider: Literal["apprise"] = "apprise"
    conn_id: str = "apprise_default"
    tag: str = "all"


class AlertSettings(Section):
    """Where regression alerts go (``alerts:`` in params.yaml)."""

    smtp: SmtpAlertSettings = SmtpAlertSettings()
    webhook: WebhookAlertSettings = WebhookAlertSettings()
    subject_prefix: str = Field("[studybench]", max_length=60)
