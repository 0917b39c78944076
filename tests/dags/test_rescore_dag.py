"""``studybench_rescore`` with a real ``dag.test()``: runs judged by the flip plug-in are
brought to the installed verifier by the DAG untouched (no params), one mapped task per
lineage or run, and its watcher announces each installed instrument once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from studybench.config import load_settings
from studybench.rescore import Selection, installed, plan_batches
from studybench.tracking.mlflow_log import client_for
from studybench.tracking.rescore import Instrument, judged_by
from tests.dags.test_dags import run_dags
from tests.rescore.conftest import evaluate_with_plugin, settings_in, student_server
from tests.tracking.conftest import MlflowStore
from tests.tracking.conftest import mlflow_store as mlflow_store  # the module's real store


def test_the_rescore_dag_brings_every_stale_run_to_the_installed_instrument(
    airflow_env: dict[str, str], mlflow_store: MlflowStore, tmp_path: Path
) -> None:
    params = settings_in(tmp_path, mlflow_store)
    settings = load_settings(params, environ={})
    with student_server(settings) as (url, _student):
        stored = [
            evaluate_with_plugin(settings, url, "ck10", training_run="tr", step=10)[1],
            evaluate_with_plugin(settings, url, "api-model")[1],
        ]
    summary = run_dags(airflow_env, "studybench_rescore", STUDYBENCH_PARAMS=str(params))
    assert summary["state"] == "success", summary["output"][-4000:]
    assert summary["tasks"] == {
        "plan[-1]": "success",
        "rescore[0]": "success",
        "rescore[1]": "success",
        "summary[-1]": "success",
    }
    client = client_for(settings)
    now = installed(settings)
    for run_id in stored:
        version = judged_by(client, run_id, now)
        assert version is not None and version != run_id
        assert Instrument.of_run(client.get_run(version)) == now
    assert "2 run(s) re-scored, 0 refused" in summary["output"]
    assert plan_batches(settings, Selection()) == []  # a re-run of the DAG has nothing to do


def test_the_watcher_announces_each_installed_instrument_once(tmp_path: Path) -> None:
    from studybench_airflow.instrument import InstrumentTrigger

    params = tmp_path / "params.yaml"
    params.write_text("judge:\n  llm_enabled: false\n")
    trigger = InstrumentTrigger(repo=str(tmp_path), params=str(params), once=True)

    async def events() -> list[Any]:
        return [event async for event in trigger.run()]

    (first,) = asyncio.run(events())
    announced = first.payload["instrument"]
    assert announced == installed(load_settings(params, environ={})).model_dump()
    assert asyncio.run(events()) == []  # the same instrument: nothing again
    params.write_text("judge:\n  llm_enabled: true\n  model: another-judge\n")
    (second,) = asyncio.run(events())
    assert second.payload["instrument"]["judge_model"] == "another-judge"
    name, kwargs = trigger.serialize()
    assert name == "studybench_airflow.instrument.InstrumentTrigger"
    assert json.loads(json.dumps(kwargs))["params"] == str(params)
