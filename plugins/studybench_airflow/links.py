"""The "MLflow run" extra link on evaluation tasks.

Airflow 3 computes operator links in the worker when a task ends and stores the URL as an
XCom under the link's ``xcom_key``; for mapped tasks the worker does not call ``get_link``,
so the logging task pushes that XCom itself (:func:`push_url`) and this link only names it.
"""

from __future__ import annotations

from typing import Any

from airflow.sdk import BaseOperatorLink

XCOM_KEY = "mlflow_run_url"


class MLflowRunLink(BaseOperatorLink):
    name = "MLflow run"

    @property
    def xcom_key(self) -> str:
        return XCOM_KEY

    def get_link(self, operator: Any, *, ti_key: Any) -> str:
        from airflow.sdk.execution_time.xcom import XCom

        value = XCom.get_value(ti_key=ti_key, key=XCOM_KEY)
        return str(value or "")


def push_url(context: Any, url: str) -> None:
    context["ti"].xcom_push(key=XCOM_KEY, value=url)
