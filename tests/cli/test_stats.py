"""``studybench metrics compare`` and ``studybench report --k`` through the entry point."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from studybench.data.loaders import load_parents
from studybench.judge.pipeline import judge_run
from studybench.verify import Verifier
from tests.cli.entry import run

KEYS = {"diff", "ci_low", "ci_high", "p_value", "p_adjusted", "decision"}


def _table(path: Path, drop: float, seed: int, parents: int = 30) -> Path:
    rates = [random.Random(11).random() for _ in range(parents)]
    rng = random.Random(seed)
    with path.open("w") as handle:
        for p in range(parents):
            for slot in range(1 + p % 3):
                for s in range(3):
                    for a in range(4):
                        correct = rng.random() < rates[p] - drop
                        row = {
                            "parent": f"p{p}",
                            "slot": str(slot),
                            "seed": s,
                            "attempt": a,
                            "correct": correct,
                        }
                        handle.write(json.dumps(row) + "\n")
    return path


def test_metrics_compare_json(tmp_path: Path) -> None:
    base = _table(tmp_path / "a.jsonl", 0.0, 1)
    worse = _table(tmp_path / "b.jsonl", 0.4, 2)
    result = run(
        "metrics",
        "compare",
        "--baseline",
        base,
        "--candidate",
        worse,
        "--json",
        "--resamples",
        "1999",
    )
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    for metric in ("par_at_k", "sub_at_k"):
        assert set(payload[metric]) >= KEYS
        assert payload[metric]["decision"] == "regressed"
        assert payload[metric]["ci_low"] <= payload[metric]["diff"] <= payload[metric]["ci_high"]
    assert payload["k"] == 4
    same = run("metrics", "compare", "--baseline", base, "--candidate", base, "--json", "--k", "2")
    assert {json.loads(same.stdout)[m]["decision"] for m in ("par_at_k", "sub_at_k")} == {
        "unchanged"
    }
    assert json.loads(same.stdout)["k"] == 2
    failing = run(
        "metrics",
        "compare",
        "--baseline",
        base,
        "--candidate",
        worse,
        "--fail-on-regression",
        "--resamples",
        "999",
    )
    assert failing.returncode == 1
    assert "regressed" in failing.stdout


def test_metrics_compare_refuses_other_items(tmp_path: Path) -> None:
    base = _table(tmp_path / "a.jsonl", 0.0, 1)
    fewer = _table(tmp_path / "b.jsonl", 0.0, 1, parents=29)
    result = run("metrics", "compare", "--baseline", base, "--candidate", fewer)
    assert result.returncode == 2
    assert "refusing to compare" in result.stderr
    assert "parents differ" in result.stderr


def _seedless_dump(run_dir: Path, sample_dir: Path, solved: set[int], attempts: int) -> None:
    (parent,) = [p for p in load_parents(sample_dir / "application_problems.json") if p.is_solo][:1]
    (slot,) = parent.slots()
    record: dict[str, Any] = parent.model_dump(mode="json", by_alias=True)
    record["attempts"] = [
        {
            "attempt_id": a,  # no "seed": the reference harness's dump
            "completions": [
                {
                    "problem_id": slot.key.problem_id,
                    "problem": slot.question,
                    "solution": slot.solution,
                    "answer": slot.answer,
                    "answer_type": slot.answer_type.value,
                    "type_sequence": ",".join(t.value for t in slot.type_sequence),
                    "completion": f"Final Answer: {slot.answer}"
                    if a in solved
                    else "Final Answer: \\boxed{123456}",
                }
            ],
        }
        for a in range(attempts)
    ]
    run_dir.mkdir(parents=True)
    (run_dir / "generations.json").write_text(json.dumps([record]))
    (run_dir / "run.json").write_text(json.dumps({"model": "ref", "split": "application"}))
    with Verifier(workers=1) as rules:
        judge_run(run_dir, rules, None)


def test_report_scores_blocks_of_k_as_runs(sample_dir: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "dump"
    _seedless_dump(run_dir, sample_dir, solved={1}, attempts=6)
    whole = json.loads(run("report", run_dir, "--json").stdout)["scores"]
    assert (whole["k"], whole["par_mean"]) == (6, 1.0)
    blocks = run("report", run_dir, "--json", "--k", "2")
    assert blocks.returncode == 0, blocks.stderr
    scores = json.loads(blocks.stdout)["scores"]
    assert scores["k"] == 2 and scores["seeds"] == [0, 1, 2]
    assert (round(scores["par_mean"], 2), round(scores["par_std"], 2)) == (0.33, 0.58)
    text = run("report", run_dir, "--k", "2")
    assert "33.3 ± 57.7" in text.stdout
    assert "truncated turns 0.0%" in text.stdout
    folders = run("metrics", "compare", "--baseline", run_dir, "--candidate", run_dir, "--json")
    assert folders.returncode == 0, folders.stderr
    assert json.loads(folders.stdout)["par_at_k"]["decision"] == "unchanged"
    bad = run("report", run_dir, "--k", "4")
    assert bad.returncode == 2 and "not a whole number of blocks" in bad.stderr
