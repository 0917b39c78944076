"""EvaLearn end to end as a user runs it: ``studybench eval --benchmark evalearn`` with the
tiny model (in-process transformers engine), a scripted rubric judge on loopback, a real
MLflow server; then a re-run that resumes everything."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from tests.cli.entry import run
from tests.engines.fake_openai import fake_openai

YES = '【Rationale】: well reasoned.\n【Score】: 1 points\n【JSON】: {"answer_score": 1}'
NO = '【Rationale】: add the two rates first.\n【Score】: 0 points\n【JSON】: {"answer_score": 0}'


def _judge_script(body: dict[str, Any]) -> tuple[int, str, float]:
    prompt = body["messages"][0]["content"]
    if "仅当最终答案等于 2（" in prompt:  # problem 1's rubric (the judge sees no problem text)
        return 200, YES, 0.0
    return 200, NO, 0.0


def test_eval_evalearn_logs_every_paradigm_and_resumes(
    tiny_model: Path, mlflow_server: str, tmp_path: Path
) -> None:
    from mlflow.tracking import MlflowClient

    with fake_openai(_judge_script) as (url, received):
        env = {
            "STUDYBENCH__JUDGE__BASE_URL": url,
            "STUDYBENCH__JUDGE__MAX_RETRIES": "0",
            "STUDYBENCH__EVALEARN__MAX_NEW_TOKENS": "8",
            "STUDYBENCH__TRACKING__URI": mlflow_server,
            "STUDYBENCH__TRACKING__EXPERIMENT": "evalearn-e2e",
            "STUDYBENCH__PATHS__CACHE_DIR": str(tmp_path / "cache"),
            "STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"),
        }
        out = tmp_path / "run"
        args = ["eval", "--benchmark", "evalearn", "--model", str(tiny_model), "--engine", "hf",
                "--out", str(out), "--seeds", "0", "--parts", "zero_shot,feedback"]  # fmt: skip
        first = run(*args, env=env)
        text = first.stdout + first.stderr
        assert first.returncode == 0, text
        assert "evalearn/feedback/acc_mean" in text and "logged to MLflow: run" in text
        run_id = text.split("logged to MLflow: run ")[1].split()[0]
        calls = len(received)
        assert calls > 0

        again = run(*args, env=env)
        text_again = again.stdout + again.stderr
        assert again.returncode == 0, text_again
        assert "reused 35" in text_again  # nothing generated again
        assert len(received) == calls  # every judge verdict came from the cache
        assert f"run {run_id}" in text_again  # the same MLflow run

    # the judge's full reply is what the model saw in the feedback paradigm
    db = sqlite3.connect(out / "feedback" / "generations.sqlite")
    (messages,) = db.execute(
        "SELECT messages FROM turns WHERE source_problem_id = '1' AND turn = 1"
    ).fetchone()
    asked = json.loads(messages)
    assert [m["role"] for m in asked] == ["system", "user"]
    assert (
        f"[Teacher's assessment begins]\n{YES}\n[Teacher's assessment ends]"
        in (asked[1]["content"])
    )
    verdicts = [json.loads(line) for line in (out / "feedback" / "verdicts-seed0.jsonl").open()]
    assert len(verdicts) == 35 and {v["stage"] for v in verdicts} == {"llm"}
    assert sum(v["correct"] for v in verdicts) == 1

    client = MlflowClient(tracking_uri=mlflow_server)
    logged = client.get_run(run_id)
    metrics = logged.data.metrics
    assert metrics["evalearn/feedback/acc_mean"] == 1 / 35
    assert metrics["evalearn/zero_shot/acc_mean"] == 1 / 35
    assert metrics["evalearn/feedback/position/1/acc"] == (1 / 3 + 0) / 2
    assert "evalearn/feedback/learned_offset" in metrics
    assert logged.data.params["evalearn.parts"] == "zero_shot,feedback"
    artefacts = {a.path for a in client.list_artifacts(run_id, "evalearn")}
    assert {"evalearn/position_curve.png", "evalearn/report.json"} <= artefacts


def test_unknown_benchmark_and_paradigm_fail_clearly(tiny_model: Path, tmp_path: Path) -> None:
    nope = run("eval", "--benchmark", "nope", "--model", str(tiny_model), "--out", str(tmp_path))
    assert nope.returncode != 0
    assert "unknown benchmark 'nope'; known: studybench, evalearn" in nope.stderr
    bad = run(
        "eval", "--benchmark", "evalearn", "--parts", "telepathy", "--engine", "hf",
        "--model", str(tiny_model), "--out", str(tmp_path),
    )  # fmt: skip
    assert bad.returncode != 0 and "unknown paradigm(s) telepathy" in bad.stderr
