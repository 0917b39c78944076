"""``studybench eval``, ``judge`` and ``report`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.entry import run


def test_eval_on_the_sample_with_the_tiny_model(
    tiny_model: Path, sample_dir: Path, tmp_path: Path
) -> None:
    from tests.engines.fake_openai import fake_openai

    calls = {"n": 0}

    def script(body: dict[str, object]) -> tuple[int, str, float]:
        calls["n"] += 1
        return 200, "garbled judge reply" if calls["n"] % 5 == 0 else "VERDICT: FALSE", 0

    with fake_openai(script) as (url, received):
        env = {
            "STUDYBENCH__JUDGE__BASE_URL": url,
            "STUDYBENCH__JUDGE__MAX_RETRIES": "0",
            "STUDYBENCH__PATHS__CACHE_DIR": str(tmp_path / "cache"),
            "STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"),
            "STUDYBENCH__DATA__APPLICATION_SPLIT": str(sample_dir / "application_problems.json"),
        }
        args = ["eval", "--model", str(tiny_model), "--engine", "hf", "--split", "application",
                "--out", str(tmp_path / "run"), "--seeds", "0,1", "--k", "1",
                "--max-new-tokens", "8"]  # fmt: skip
        first = run(*args, env=env)
        assert first.returncode == 0, first.stdout + first.stderr
        assert "62 generated" in first.stdout and "62 verified by rule" in first.stdout
        assert "Par@1" in first.stdout
        flagged = sum(1 for _ in received) // 5
        assert f"{flagged} flagged for the next run" in first.stdout
        assert "logged to MLflow: run " in first.stdout  # tracking is on by default
        assert "(sqlite:///" in first.stdout
        assert (tmp_path / "work" / "mlflow" / "mlflow.db").exists()
        run_id = first.stdout.split("logged to MLflow")[1].split("run ")[1].split()[0]

        again = run(*args, env=env)
        assert again.returncode == 0, again.stderr
        assert "0 generated, 62 reused" in again.stdout
        assert f"run {run_id}" in again.stdout  # the same MLflow run is updated
        assert f"{62 - flagged} verdict(s) reused" in again.stdout  # only flagged re-judged

        before = len(received)
        rejudge = run("judge", str(tmp_path / "run"), "--rejudge-errors", env=env)
        assert rejudge.returncode == 0, rejudge.stderr
        assert len(received) - before <= flagged

        report = run("report", str(tmp_path / "run"), "--json", env=env)
        payload = json.loads(report.stdout)
        assert payload["scores"]["seeds"] == [0, 1] and payload["scores"]["parents"] == 17
        assert payload["verdicts"] == 62 and payload["missing"] == 0
        markdown = run("report", str(tmp_path / "run"), "--markdown", env=env).stdout
        assert markdown.startswith("# ") and "| application |" in markdown


def test_eval_takes_method_artefacts_and_writes_a_target_folder(
    tiny_model: Path, sample_dir: Path, tmp_path: Path
) -> None:
    """``eval --gepa ... --gepa-iteration`` reaches the prompt through the composition: the
    selected GEPA row is the system message of every stored turn, the target records the
    artefact, and ``report``/``judge`` take the folder ``eval`` wrote."""
    import sqlite3

    history = tmp_path / "gepa.jsonl"
    rows = [
        {"iteration": 0, "rollouts": 0, "system_prompt": "Seed prompt: box the answer."},
        {"iteration": 1, "rollouts": 40, "system_prompt": "Evolved prompt: box it, no units."},
    ]
    history.write_text("".join(json.dumps(r) + "\n" for r in rows))
    env = {
        "STUDYBENCH__TRACKING__ENABLED": "false",
        "STUDYBENCH__PATHS__CACHE_DIR": str(tmp_path / "cache"),
        "STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"),
        "STUDYBENCH__DATA__APPLICATION_SPLIT": str(sample_dir / "application_problems.json"),
    }
    out = tmp_path / "run"
    result = run(
        "eval", "--model", tiny_model, "--engine", "hf", "--split", "application", "--out", out,
        "--seeds", "0", "--k", "1", "--max-new-tokens", "4", "--rule-only",
        "--gepa", history, "--gepa-iteration", "0", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "application: 17 chain(s), 31 turn(s): 31 generated" in result.stdout
    assert "31 verified by rule" in result.stdout and "Par@1" in result.stdout
    assert "logged to MLflow" not in result.stdout  # tracking is off
    target = json.loads((out / "target.json").read_text())
    assert (
        target["artefacts"]["gepa"] == str(history) and target["artefacts"]["gepa_iteration"] == 0
    )
    with sqlite3.connect(out / "application" / "generations.sqlite") as db:
        systems = {json.loads(m)[0]["content"] for (m,) in db.execute("SELECT messages FROM turns")}
    assert systems == {"Seed prompt: box the answer."}

    report = run("report", out, "--json", env=env)
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["verdicts"] == 31
    judged = run("judge", out, "--rule-only", env=env)
    assert judged.returncode == 0 and "31 verdict(s) reused" in judged.stdout, judged.stderr
