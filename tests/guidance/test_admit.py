"""Stage 6 through the normal runner and judge: a scripted filter model (loopback
OpenAI-compatible server) that answers some sub-problems right; admitted slots and parents
follow the verdicts, the guidance reaches the prompts, and a re-run resumes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from studybench.data import load_parents
from studybench.guidance.admit import run_admit
from tests.conftest import SAMPLE
from tests.engines.fake_openai import fake_openai
from tests.guidance.conftest import guidance_settings

GUIDANCE = SAMPLE / "guidance.json"


def test_admission_follows_the_verdicts(tmp_path: Path) -> None:
    parents = load_parents(GUIDANCE)
    first = parents[0]  # SBO 2024 T1: every sub answered right -> parent admitted
    second = parents[1]  # SBO 2024 T2: only sub a right -> slot admitted, parent not
    right = {sub.problem.strip(): sub.answer for sub in first.sub_problems}
    right[second.sub_problems[0].problem.strip()] = second.sub_problems[0].answer
    guided_turns: list[bool] = []

    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        turn = body["messages"][-1]["content"]
        guided_turns.append("## Solving Guidance" in turn)
        for question, answer in right.items():
            if question in turn:
                return 200, f"Reasoning.\nFinal Answer: {answer}", 0.0
        return 200, "Final Answer: \\boxed{42}", 0.0

    with fake_openai(script) as (url, received):
        settings = guidance_settings(
            tmp_path,
            admit={"engine": "openai", "model": "filter", "base_url": url, "k": 2, "seeds": (0,)},
        )
        out = tmp_path / "admission.json"
        report = run_admit(settings, GUIDANCE, out, run_dir=tmp_path / "run")
        calls = len(received)
        again = run_admit(settings, GUIDANCE, out, run_dir=tmp_path / "run")
        assert len(received) == calls  # resumed from the stored turns
    assert all(guided_turns) and calls == 40 * 2
    t1 = f"{first.source}/{first.year}/{first.source_problem_id}"
    t2 = f"{second.source}/{second.year}/{second.source_problem_id}"
    assert report["admitted_parents"] == [t1]
    assert report["admitted_slots"] == sorted(
        [f"{t1}/{s.problem_id}" for s in first.sub_problems] + [f"{t2}/a"]
    )
    assert report["parents_evaluated"] == 10 and report["slots_evaluated"] == 40
    assert again == report == json.loads(out.read_text())


def test_no_guidance_means_nothing_to_evaluate(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text((SAMPLE / "transfer_problems.json").read_text())
    report = run_admit(guidance_settings(tmp_path), empty, tmp_path / "a.json")
    assert report["admitted_slots"] == [] and "nothing to evaluate" in report["note"]
