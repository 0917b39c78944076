"""One checkpoint's evaluation step by step: plan, generate, judge, log, check, on the tiny
model trained for real, against a real MLflow server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from studybench.config import NightlyModel
from studybench.errors import ConfigError, DataError
from studybench.pipeline import evaluate as ev
from studybench.pipeline import orchestration
from studybench.tracking.mlflow_log import client_for
from tests.pipeline.conftest import eval_settings


def run_all(target: ev.Target, settings: object) -> str:
    ev.generate(target, settings)  # type: ignore[arg-type]
    for unit in target.units():
        ev.judge(target, unit["split"], unit["seed"], settings)  # type: ignore[arg-type]
    return ev.log_results(target, settings)  # type: ignore[arg-type]


def test_checkpoints_of_a_training_run_form_a_lineage(
    trained_checkpoints: Path, mlflow_server: str, tmp_path: Path
) -> None:
    settings = eval_settings(tmp_path, mlflow_server)
    first = ev.plan_checkpoint(str(trained_checkpoints / "checkpoint-0"), settings)
    assert first.skip_reason == "" and first.splits == ("memorisation",)
    assert (first.checkpoint.step, first.checkpoint.training_run) == (0, "sft-test")
    assert Path(first.run_root, ev.TARGET_FILE).exists()
    run0 = run_all(first, settings)
    assert ev.check(first, run0, settings).notes == [
        "no earlier evaluation of this lineage to compare with"
    ]

    last = ev.plan_checkpoint(str(trained_checkpoints / "checkpoint-160"), settings)
    assert last.eval_key != first.eval_key
    run160 = run_all(last, settings)
    checked = ev.check(last, run160, settings)
    assert checked.compared == {"previous checkpoint": run0}
    assert checked.regressions == []

    client = client_for(settings)
    before = client.get_run(run0).data.metrics["memorisation/par_at_1_mean"]
    after = client.get_run(run160).data.metrics["memorisation/par_at_1_mean"]
    assert before < 0.2 < 0.6 < after  # the trained checkpoint reproduces its answers
    result = json.loads(Path(last.run_root, ev.RESULT_FILE).read_text())
    assert result["run_id"] == run160 and result["step"] == 160
    assert set(result["metrics"]) == set(last.expected_metrics())

    # the same checkpoint, protocol and data again: skipped, not re-evaluated
    again = ev.plan_checkpoint(str(trained_checkpoints / "checkpoint-160"), settings)
    assert again.eval_key == last.eval_key
    assert again.skip_reason.startswith(f"already evaluated: MLflow run {run160}")
    assert (
        orchestration.plan_checkpoints([str(trained_checkpoints / "checkpoint-160")], settings)
        == []
    )

    # a drop against a baseline is a regression, with the numbers in the message
    dropped = ev.check(first, run0, settings, baseline=run160)
    assert {r.metric for r in dropped.regressions} >= {"memorisation/par_at_1_mean"}
    with pytest.raises(orchestration.RegressionError, match="memorisation/par_at_1_mean"):
        orchestration.decide([dropped], [], fail_on_regression=True)
    summary = orchestration.decide([dropped], [], fail_on_regression=False)
    assert "regression(s)" in summary and "against baseline" in summary


def test_a_changed_protocol_refuses_to_mix_results(
    trained_checkpoints: Path, tmp_path: Path
) -> None:
    settings = eval_settings(tmp_path, tracking={"enabled": False})
    target = ev.plan_checkpoint(str(trained_checkpoints / "checkpoint-0"), settings)
    changed = settings.model_copy(
        update={"protocol": settings.protocol.model_copy(update={"temperature": 0.5})}
    )
    with pytest.raises(ConfigError, match="planned under protocol"):
        ev.generate(target, changed)


def test_invalid_checkpoints_fail_planning_with_the_reason(tmp_path: Path) -> None:
    from tests.checkpoints.fake import write_checkpoint

    settings = eval_settings(tmp_path, tracking={"enabled": False})
    folder = write_checkpoint(tmp_path / "checkpoint-1", weights="pickle")
    with pytest.raises(DataError, match="pickle-only"):
        ev.plan_checkpoint(str(folder), settings)
    with pytest.raises(DataError, match="no checkpoint can be evaluated"):
        orchestration.plan_checkpoints([str(folder)], settings)


def test_nightly_models_resolve_and_each_night_is_its_own_run(
    trained_checkpoints: Path, tmp_path: Path
) -> None:
    settings = eval_settings(tmp_path, tracking={"enabled": False})
    by_path = ev.plan_nightly_model(
        NightlyModel(name="fixed", path=str(trained_checkpoints / "checkpoint-0")),
        settings,
        run_tag="nightly-2026-11-28",
    )
    by_root = ev.plan_nightly_model(
        NightlyModel(name="latest", root=str(trained_checkpoints)), settings, run_tag="n1"
    )
    assert by_root.checkpoint.step == 160
    hosted = ev.plan_nightly_model(
        NightlyModel(name="hosted", base_url="http://127.0.0.1:9/v1", model="m"),
        settings,
        run_tag="n1",
    )
    assert (hosted.engine, hosted.base_url) == ("openai", "http://127.0.0.1:9/v1")
    next_night = ev.plan_nightly_model(
        NightlyModel(name="fixed", path=str(trained_checkpoints / "checkpoint-0")),
        settings,
        run_tag="nightly-2026-11-29",
    )
    assert next_night.eval_key != by_path.eval_key
    with pytest.raises(ValueError, match="exactly one of path, root, base_url"):
        NightlyModel(name="both", path="/a", root="/b")
    night = settings.model_copy(
        update={
            "nightly": settings.nightly.model_copy(
                update={"models": (NightlyModel(name="gone", root=str(tmp_path / "none")),)}
            )
        }
    )
    planned = orchestration.plan_nightly(night, "nightly-x")
    assert planned["run_roots"] == []
    assert planned["problems"] == [
        f"gone: nightly model 'gone': no ready checkpoint under {tmp_path / 'none'}"
    ]
    with pytest.raises(orchestration.RegressionError, match="not evaluated:\n  gone"):
        orchestration.verdict([], fail_on_regression=False, problems=planned["problems"])


def test_teardown_stops_a_server_left_behind(trained_checkpoints: Path, tmp_path: Path) -> None:
    settings = eval_settings(tmp_path, tracking={"enabled": False})
    target = ev.plan_checkpoint(str(trained_checkpoints / "checkpoint-0"), settings)
    server = subprocess.Popen(["sleep", "300"], start_new_session=True)
    Path(target.run_root, ev.ENGINE_FILE).write_text(json.dumps({"pid": server.pid}))
    try:
        assert orchestration.stop_engine(target.run_root) is True
        assert server.wait(10) == -signal.SIGTERM
        assert not Path(target.run_root, ev.ENGINE_FILE).exists()
        assert orchestration.stop_engine(target.run_root) is False  # nothing left: a no-op
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)


def test_memorisation_split_is_asked_exactly_as_trained(tmp_path: Path) -> None:
    from studybench.benchmarks.studybench import split_file
    from studybench.benchmarks.studybench.memorisation import sft_examples
    from studybench.benchmarks.studybench.prompts import PROMPTS
    from studybench.data.loaders import load_parents
    from studybench.rollout.artefacts import MethodArtefacts
    from studybench.rollout.conversation import build_messages

    settings = eval_settings(tmp_path, tracking={"enabled": False})
    path = split_file("memorisation", settings)
    parents = load_parents(path)
    assert len(parents) == 12 and sum(len(p.slots()) for p in parents) == 18
    assert all(p.source.endswith("-memorisation") for p in parents)
    examples = sft_examples(parents, "sys")
    slots = parents[0].slots()
    asked = build_messages(slots, 0, [], MethodArtefacts(system_prompt="sys"), PROMPTS)
    assert [m.content for m in asked] == [m["content"] for m in examples[0][:-1]]
    assert examples[0][-1]["content"].startswith("Final Answer: \\boxed{")
    mtime = path.stat().st_mtime_ns
    time.sleep(0.01)
    assert split_file("memorisation", settings).stat().st_mtime_ns == mtime  # not rewritten
