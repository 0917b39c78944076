"""A re-score killed with SIGKILL while the LLM judge works, then resumed: nothing lost (every
verdict, one new run), nothing twice (a judge verdict stored before the kill is never asked
again), and a rule-only change asks the judge nothing it had answered (the reply cache)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from studybench.config import load_settings
from studybench.rescore import installed, rescore_run
from studybench.tracking.mlflow_log import client_for
from studybench.tracking.rescore import RESCORE_OF
from tests.conftest import ROOT
from tests.engines.fake_openai import fake_openai
from tests.rescore.conftest import SPLIT, evaluate_with_plugin, right, settings_in, student_server
from tests.rescore.plugin import FLIPPED_TYPE
from tests.tracking.conftest import MlflowStore


def _rescore_cli(params: Path, run_id: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "studybench.cli", "rescore", "--run", run_id, "--params",
         str(params), "--json"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def _judge_verdicts(work: Path) -> int:
    (store,) = work.glob(f"rescore/*/{SPLIT}/verdicts.sqlite")
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT body FROM verdicts").fetchall()
    return sum('"stage":"judge"' in body for (body,) in rows)


def test_a_killed_rescore_resumes_without_losing_or_repeating(
    tmp_path: Path, mlflow_store: MlflowStore
) -> None:
    pace = {"delay": 0.0}

    def judge(body: dict[str, Any]) -> tuple[int, str, float]:
        prompt = body["messages"][0]["content"]
        verdict = "FALSE" if "123456" in prompt else "TRUE"
        return 200, f"VERDICT: {verdict}\nJUSTIFICATION: compared.", pace["delay"]

    with fake_openai(judge) as (judge_url, asked):
        params = settings_in(
            tmp_path, mlflow_store,
            judge={"llm_enabled": True, "base_url": judge_url, "model": "judge",
                   "concurrency": 1, "max_retries": 1},
        )  # fmt: skip
        settings = load_settings(params, environ={})
        with student_server(settings) as (url, student):
            _, original = evaluate_with_plugin(settings, url, "ck10")
        # the installed rules reject what the plug-in accepted: the NV answers that are wrong
        needed = 2 * sum(
            1 for q, (_, kind) in student.answers.items() if kind == FLIPPED_TYPE and not right(q)
        )
        assert needed >= 4
        cached = 2 * sum(  # asked when the plug-in judged: answered from the reply cache
            1 for q, (_, kind) in student.answers.items() if kind != FLIPPED_TYPE and not right(q)
        )
        before = len(asked)
        pace["delay"] = 1.0
        killed = _rescore_cli(params, original)
        deadline = time.monotonic() + 120
        while len(asked) < before + 3 and killed.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert killed.poll() is None, killed.communicate()[0][-3000:]
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait()
        stored = _judge_verdicts(settings.paths.work_dir) - cached
        assert 1 <= stored < needed
        at_kill = len(asked)

        pace["delay"] = 0.0
        resumed = _rescore_cli(params, original)
        output = resumed.communicate(timeout=300)[0]
        assert resumed.returncode == 0, output[-3000:]

    # nothing twice: only the verdicts not stored at the kill were asked again
    assert len(asked) - at_kill == needed - stored
    # a rule-only change: every call was about a newly rejected NV answer, none re-asked
    nv = [q for q, (_, kind) in student.answers.items() if kind == FLIPPED_TYPE]
    for body in asked[before:]:
        prompt = body["messages"][0]["content"]
        assert "123456" in prompt and any(q in prompt for q in nv)
    # nothing lost: one new run, every verdict, and a re-run does nothing
    client = client_for(settings)
    experiment = client.get_run(original).info.experiment_id
    versions = client.search_runs([experiment], filter_string=f"tags.`{RESCORE_OF}` = '{original}'")
    assert len(versions) == 1 and versions[0].info.status == "FINISHED"
    again = rescore_run(settings, original)
    assert again.status == "current" and again.run_id == versions[0].info.run_id
    assert again.instrument == installed(settings)
    assert versions[0].data.metrics["rescore/compared"] == 2 * len(student.answers)
