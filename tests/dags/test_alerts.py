"""A regression found by the nightly DAG reaches people: a real SMTP server on loopback
(aiosmtpd) receives the mail and a loopback webhook receives the Apprise post, both sent by
the verdict task's RegressionNotifier during a ``dag.test()`` run."""

from __future__ import annotations

import email
import json
import threading
from email import policy
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from aiosmtpd.controller import Controller

from tests.conftest import free_port
from tests.dags.test_dags import run_dags, write_params


class _Inbox:
    def __init__(self) -> None:
        self.messages: list[bytes] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append(envelope.content)
        return "250 OK"


class _Hook(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        _Hook.received.append(json.loads(body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return


def _solved_everything(client: Any, run_id: str, tmp: Path) -> None:
    """Make the pinned baseline a run that solved every item it was asked (the same items,
    seeds and attempts): tonight's evaluation of the same model then regresses against it."""
    from studybench.metrics.items import read_items, write_items

    (listed,) = [f for f in client.list_artifacts(run_id, "items") if f.path.endswith(".gz")]
    local = Path(client.download_artifacts(run_id, listed.path, str(tmp)))
    rows = [r.model_copy(update={"correct": True}) for r in read_items(local)]
    write_items(local, rows)
    client.log_artifact(run_id, str(local), artifact_path="items")


@pytest.mark.timeout(1800)
def test_nightly_regression_alert_by_mail_and_webhook(
    airflow_env: dict[str, str],
    tiny_model: Path,
    tmp_path: Path,
) -> None:
    from studybench.config import load_settings
    from studybench.pipeline import evaluate as ev
    from studybench.tracking.mlflow_log import client_for

    # the untrained model writes to the token limit; the alert needs no long answers
    short = {"max_new_tokens": 8}
    baseline_params = write_params(
        tmp_path, protocol=short, checkpoints={"splits": ["memorisation"]}
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
    hook = HTTPServer(("127.0.0.1", free_port()), _Hook)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    try:
        params = write_params(
            tmp_path,
            protocol=short,
            checkpoints={"splits": ["memorisation"]},
            nightly={
                "splits": ["memorisation"],
                "baseline": baseline_run,
                "models": [{"name": "tiny-base", "path": str(tiny_model)}],
            },
            alerts={
                "smtp": {"enabled": True, "to": ["evals@lab.test"], "conn_id": "sb_smtp"},
                "webhook": {"enabled": True, "conn_id": "sb_hook"},
            },
            tracking={"experiment": "dag-test", "ui_url": "http://mlflow.lab.test"},
        )
        smtp_conn = {
            "conn_type": "smtp",
            "host": "127.0.0.1",
            "port": smtp.port,
            "extra": {"disable_ssl": True, "disable_tls": True, "retry_limit": 1},
        }
        hook_url = f"json://127.0.0.1:{hook.server_address[1]}/alert"
        hook_conn = {"conn_type": "apprise", "extra": {"config": {"path": hook_url}}}
        summary = run_dags(
            airflow_env,
            "studybench_nightly",
            STUDYBENCH_PARAMS=str(params),
            AIRFLOW_CONN_SB_SMTP=json.dumps(smtp_conn),
            AIRFLOW_CONN_SB_HOOK=json.dumps(hook_conn),
        )
    finally:
        smtp.stop()
        hook.shutdown()
    assert summary["state"] == "failed"
    assert summary["tasks"]["verdict[-1]"] == "failed"
    assert len(inbox.messages) == 1, summary["output"][-3000:]
    mail = email.message_from_bytes(inbox.messages[0], policy=policy.default)
    assert "regression(s): tiny-base" in mail["Subject"]
    assert mail["To"] == "evals@lab.test"
    body = mail.get_body(preferencelist=("html", "plain"))
    assert body is not None
    text = body.get_content()
    assert "memorisation/par_at_1_mean" in text
    assert "95% CI" in text
    assert baseline_run in text and "against baseline" in text
    assert "http://mlflow.lab.test/#/experiments/" in text
    (posted,) = _Hook.received
    assert "memorisation/par_at_1_mean" in posted["message"]
    assert "regression(s)" in posted["title"]
