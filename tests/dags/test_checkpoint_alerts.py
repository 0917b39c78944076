"""A regressing checkpoint reaches people by default: the checkpoint DAG, with
``fail_on_regression`` left at its default (false), still succeeds, and its verdict task's
RegressionNotifier (the nightly DAG's notifier) mails the regression once to a real SMTP
server on loopback (aiosmtpd), as tests/dags/test_alerts.py does for the nightly DAG."""

from __future__ import annotations

import email
import json
from email import policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.conftest import free_port
from tests.dags.test_alerts import _Inbox, _solved_everything
from tests.dags.test_dags import run_dags, write_params


@pytest.mark.timeout(1800)
def test_checkpoint_regression_notifies_without_failing_the_run(
    airflow_env: dict[str, str], tiny_model: Path, tmp_path: Path
) -> None:
    from studybench.config import load_settings
    from studybench.pipeline import evaluate as ev
    from studybench.tracking.mlflow_log import client_for

    splits = {"splits": ["memorisation"]}
    # the untrained model writes to the token limit; the alert needs no long answers
    short = {"max_new_tokens": 8}
    # the pinned baseline: the same model evaluated before (its own run folders and
    # experiment in the same store, so the DAG run below evaluates the checkpoint again)
    baseline_params = write_params(
        tmp_path,
        protocol=short,
        checkpoints=splits,
        tracking={"experiment": "pinned"},
        paths={"runs_dir": str(tmp_path / "pinned-runs")},
    )
    settings = load_settings(baseline_params, environ={})
    pinned = ev.plan_checkpoint(str(tiny_model), settings)
    ev.generate(pinned, settings)
    for split in pinned.splits:
        ev.judge(pinned, split, None, settings)
    baseline_run = ev.log_results(pinned, settings)
    _solved_everything(client_for(settings), baseline_run, tmp_path / "download")

    inbox = _Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    try:
        params = write_params(
            tmp_path,
            protocol=short,
            checkpoints={**splits, "baseline": baseline_run},  # fail_on_regression: default
            alerts={"smtp": {"enabled": True, "to": ["evals@lab.test"], "conn_id": "sb_smtp"}},
            tracking={"experiment": "dag-test", "ui_url": "http://mlflow.lab.test"},
        )
        smtp_conn = {
            "conn_type": "smtp",
            "host": "127.0.0.1",
            "port": smtp.port,
            "extra": {"disable_ssl": True, "disable_tls": True, "retry_limit": 1},
        }
        summary = run_dags(
            airflow_env,
            "studybench_checkpoint_eval",
            {"checkpoint": str(tiny_model)},
            STUDYBENCH_PARAMS=str(params),
            AIRFLOW_CONN_SB_SMTP=json.dumps(smtp_conn),
        )
    finally:
        smtp.stop()
    assert summary["state"] == "success", (summary["tasks"], summary["output"][-4000:])
    assert summary["tasks"]["verdict[-1]"] == "success"
    assert len(inbox.messages) == 1, summary["output"][-3000:]
    mail = email.message_from_bytes(inbox.messages[0], policy=policy.default)
    assert "regression(s)" in mail["Subject"] and mail["To"] == "evals@lab.test"
    body = mail.get_body(preferencelist=("html", "plain"))
    assert body is not None
    text = body.get_content()
    assert "memorisation/par_at_1_mean" in text and "95% CI" in text
    assert baseline_run in text and "against baseline" in text
