"""Judge faults: malformed replies and echoed keys become flagged, scrubbed verdicts, and a
SIGKILL mid-judging loses at most the calls in flight (verdicts are committed as produced)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from studybench.data import load_parents
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.judge.cache import ReplyCache
from studybench.judge.llm import LLMJudge
from studybench.judge.pipeline import iter_verdicts, judge_run
from studybench.verify import Verifier
from tests.conftest import ROOT
from tests.engines.fake_openai import Raw, fake_openai

KEY = "sk-planted-judge-Qq1Ww2Ee3Rr4Tt5Yy6"


def make_wrong_run(run_dir: Path, sample_dir: Path, parents: int = 6) -> int:
    """A run whose every completion the rules reject, so each needs a judge call."""
    out = []
    for parent in [p for p in load_parents(sample_dir / "application_problems.json")][:parents]:
        record: dict[str, Any] = parent.model_dump(mode="json", by_alias=True)
        record["attempts"] = [
            {
                "attempt_id": seed,
                "seed": seed,
                "completions": [
                    {
                        "problem_id": slot.key.problem_id,
                        "problem": slot.question,
                        "solution": slot.solution,
                        "answer": slot.answer,
                        "answer_type": slot.answer_type.value,
                        "type_sequence": ",".join(t.value for t in slot.type_sequence),
                        "completion": f"Final Answer: \\boxed{{987654{seed}}}",
                    }
                    for slot in parent.slots()
                ],
            }
            for seed in (0, 1)
        ]
        out.append(record)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "generations.json").write_text(json.dumps(out))
    return sum(len(r["attempts"][0]["completions"]) for r in out) * 2


def _judge(url: str, cache: Path, **kwargs: Any) -> LLMJudge:
    engine = OpenAICompatEngine(
        url, "judge", api_key=KEY, max_retries=1, backoff_base_s=0.01, backoff_cap_s=0.02,
        **kwargs,
    )  # fmt: skip
    return LLMJudge(engine, "judge", cache=ReplyCache(cache))


@pytest.mark.parametrize(
    "reply",
    [
        Raw(200, "<html><body>Bad gateway</body></html>", content_type="text/html"),
        Raw(200, '{"choices": []}'),
        Raw(200, '{"choices": [{"message": null}], "usage": {"prompt_tokens": 1}}'),
        Raw(401, json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}"}})),
    ],
    ids=["html", "empty-choices", "message-null", "401-echoing-the-key"],
)
def test_bad_replies_are_flagged_scrubbed_verdicts(
    reply: Raw, sample_dir: Path, tmp_path: Path
) -> None:
    items = make_wrong_run(tmp_path / "run", sample_dir, parents=2)
    with fake_openai(lambda body: reply) as (url, _), Verifier(workers=1) as rules:
        summary = judge_run(tmp_path / "run", rules, _judge(url, tmp_path / "cache.sqlite"))
    verdicts = list(iter_verdicts(tmp_path / "run"))
    assert len(verdicts) == items and summary.flagged == items
    assert all(v.judge_verdict == "judge_error" and v.flagged for v in verdicts)
    for produced in (tmp_path / "run").iterdir():
        assert KEY.encode() not in produced.read_bytes(), produced
    assert all(KEY not in (v.judge_reply or "") for v in verdicts)


WORKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from studybench.engines.openai_compat import OpenAICompatEngine
    from studybench.judge.cache import ReplyCache
    from studybench.judge.llm import LLMJudge
    from studybench.judge.pipeline import judge_run
    from studybench.verify import Verifier

    url, run_dir, cache = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    engine = OpenAICompatEngine(url, "judge", concurrency=1, max_retries=0)
    with Verifier(workers=1) as rules:
        judge_run(run_dir, rules, LLMJudge(engine, "judge", cache=ReplyCache(cache)))
    """
)


def _judged(run_dir: Path) -> dict[tuple[str, str, int, int], str]:
    try:
        with sqlite3.connect(run_dir / "verdicts.sqlite") as db:
            rows = db.execute("SELECT parent, slot, seed, attempt, body FROM verdicts").fetchall()
    except sqlite3.OperationalError:
        return {}
    return {(r[0], r[1], r[2], r[3]): r[4] for r in rows if json.loads(r[4])["stage"] == "judge"}


def test_sigkill_mid_judging_loses_only_calls_in_flight(sample_dir: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    items = make_wrong_run(run_dir, sample_dir)
    command = [sys.executable, "-c", WORKER]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def slow(body: dict[str, Any]) -> tuple[int, str, float]:
        return 200, "VERDICT: FALSE\nJUSTIFICATION: different value.", 0.25

    with fake_openai(slow) as (url, received):
        args = [url, str(run_dir), str(tmp_path / "cache.sqlite")]
        process = subprocess.Popen([*command, *args], env=env, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if len(_judged(run_dir)) >= 3:
                break
            time.sleep(0.05)
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        before = _judged(run_dir)
        asked_before = len(received)
        assert 3 <= len(before) < items
        assert asked_before - len(before) <= 1  # at most the one call in flight is lost

        result = subprocess.run([*command, *args], env=env, capture_output=True, timeout=300)
        assert result.returncode == 0, result.stderr
        after = _judged(run_dir)
        asked_again = len(received) - asked_before
    assert len(after) == items  # nothing missing
    assert all(after[key] == body for key, body in before.items())  # committed work kept
    assert asked_again <= items - len(before)  # committed verdicts were not asked again
