"""EvaLearn's metrics through the benchmark: verdict files of hand-computed sequences,
O_learned against the zero-shot part of the same seed (by problem id), a never-correct
sequence, unequal numbers of sequences per type, a missing verdict, means and spreads
over seeds. The metric rules themselves are tested in tests/metrics/test_sequential.py."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.evalearn import EvaLearn
from studybench.benchmarks.evalearn.runner import StoredVerdict, verdict_file
from studybench.config import load_settings
from tests.conftest import ROOT

# outcomes per (paradigm, seed): type A has two sequences (one never correct), B one
OUTCOMES = {
    ("zero_shot", 0): {"A1": [0, 1, 1], "A2": [0, 0, 0], "B1": [1, 0, 1]},
    ("zero_shot", 1): {"A1": [0, 1, 1], "A2": [0, 0, 0], "B1": [1, 0, 1]},
    ("feedback", 0): {"A1": [0, 1, 1], "A2": [0, 0, 1], "B1": [1, 1, 1]},
    ("feedback", 1): {"A1": [1, 1, 1], "A2": [0, 0, 1], "B1": [1, 1, 1]},
}


@pytest.fixture
def judged_plan(tmp_path: Path) -> BenchmarkPlan:
    problems, sequences = [], []
    for name, kind in (("A1", "A"), ("A2", "A"), ("B1", "B")):
        ids = [f"{name}-{i}" for i in range(3)]
        problems += [
            {"id": q, "type": kind, "prompt": [q], "canonical_answer": "x", "rubric_en": "r"}
            for q in ids
        ]
        sequences.append({"sequence_id": name, "type": kind, "question_ids": ids})
    (tmp_path / "p.json").write_text(json.dumps(problems))
    (tmp_path / "s.json").write_text(json.dumps(sequences))
    for (part, seed), rows in OUTCOMES.items():
        lines = [
            StoredVerdict(
                sequence_id=sid,
                type=sid[0],
                position=i + 1,
                question_id=f"{sid}-{i}",
                seed=seed,
                correct=bool(v),
                outcome="correct" if v else "incorrect",
                stage="rule",
                flagged=False,
                feedback="",
                reply="",
                answer_sha="",
            ).model_dump_json()
            for sid, vector in rows.items()
            for i, v in enumerate(vector)
        ]
        path = verdict_file(tmp_path / part, seed)
        path.parent.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n")
    return BenchmarkPlan(
        benchmark="evalearn",
        parts=("zero_shot", "feedback"),
        files={"problems": str(tmp_path / "p.json"), "sequences": str(tmp_path / "s.json")},
        seeds=(0, 1),
        protocol_hash="h",
        root=str(tmp_path),
        model="m",
    )


def test_metrics_match_the_hand_computed_values(judged_plan: BenchmarkPlan) -> None:
    settings = load_settings(ROOT / "params.yaml", environ={})
    settings = settings.model_copy(
        update={"evalearn": settings.evalearn.model_copy(update={"warmup": 1})}
    )
    bench = EvaLearn()
    assert bench.check(judged_plan) == ""
    zero = bench.seed_metrics(judged_plan, settings)["zero_shot"][0]
    assert zero["acc"] == pytest.approx(4 / 9)
    assert zero["slope"] == pytest.approx((0.25 + 0.0) / 2)  # A: [0, .5, .5], B: [1, 0, 1]
    assert zero["first_correct"] == pytest.approx((3 + 1) / 2)  # A: (2 + 4) / 2, B: 1
    assert zero["longest_streak"] == pytest.approx((1 + 1) / 2)
    assert zero["post_warmup_acc"] == pytest.approx(3 / 6)
    # Z = {A1-1, A1-2, B1-0, B1-2}; A1: f=1, p=2 -> 2; A2: f=1, never -> 4; B1: f=2, p=3 -> 2
    assert zero["learned_offset"] == pytest.approx((3 + 2) / 2)
    assert zero["per_type"]["A"]["first_correct"] == 3.0
    assert zero["per_type"]["A"]["learned_offset"] == 3.0

    m = bench.metrics(judged_plan, settings)
    assert m["evalearn/feedback/acc_mean"] == pytest.approx((6 / 9 + 7 / 9) / 2)
    assert m["evalearn/feedback/acc_std"] == pytest.approx(statistics.stdev([6 / 9, 7 / 9]))
    # seed 0: A (2 + 3) / 2, B 1 -> 1.75; seed 1: A (1 + 3) / 2, B 1 -> 1.5
    assert m["evalearn/feedback/learned_offset"] == pytest.approx(1.625)
    assert m["evalearn/feedback/learned_offset_sd"] == pytest.approx(statistics.stdev([1.75, 1.5]))
    assert m["evalearn/feedback/type/a/learned_offset"] == pytest.approx(2.25)
    assert m["evalearn/zero_shot/acc_std"] == 0.0
    assert m["evalearn/feedback/position/3/acc"] == pytest.approx(1.0)
    assert m["evalearn/feedback/position/1/acc"] == pytest.approx(
        ((0 + 1) / 2 + (1 / 2 + 1) / 2) / 2
    )
    assert m["evalearn/feedback/type/a/acc"] == pytest.approx((3 / 6 + 4 / 6) / 2)
    assert set(bench.expected_metrics(judged_plan)) <= set(m)
    assert not any(k.endswith("first_correct_mean") for k in m)  # lower is better: no _mean


def test_a_missing_verdict_counts_as_wrong(judged_plan: BenchmarkPlan) -> None:
    path = verdict_file(Path(judged_plan.root) / "feedback", 1)
    lines = path.read_text().splitlines()
    kept = [line for line in lines if json.loads(line)["question_id"] != "B1-0"]
    path.write_text("\n".join(kept) + "\n")  # B1 position 1 (correct) lost, e.g. judge failed
    settings = load_settings(ROOT / "params.yaml", environ={})
    row = EvaLearn().seed_metrics(judged_plan, settings)["feedback"][1]
    assert row["acc"] == pytest.approx(6 / 9)
    assert row["per_type"]["B"]["first_correct"] == 2.0


def test_item_rows_and_per_seed_values(judged_plan: BenchmarkPlan) -> None:
    settings = load_settings(ROOT / "params.yaml", environ={})
    bench = EvaLearn()
    rows = bench.items(judged_plan, settings)
    assert len(rows) == 2 * 2 * 9  # parts x seeds x (3 sequences x 3 positions)
    row = next(r for r in rows if (r.split, r.seed, r.parent, r.slot) == ("feedback", 1, "A1", "1"))
    assert (row.benchmark, row.correct, row.attempt, row.answer_type) == ("evalearn", True, 0, "A")
    per_seed = bench.per_seed(judged_plan, settings, {})
    values = {(v.part, v.seed): v.metrics for v in per_seed}
    assert values[("feedback", 1)]["feedback/acc"] == pytest.approx(7 / 9)
    assert values[("feedback", 0)]["feedback/learned_offset"] == pytest.approx(1.75)


def test_unjudged_parts_are_reported_not_scored(judged_plan: BenchmarkPlan) -> None:
    verdict_file(Path(judged_plan.root) / "feedback", 1).unlink()
    assert EvaLearn().check(judged_plan) == "not judged: feedback seed 1"


def test_artefacts(judged_plan: BenchmarkPlan, tmp_path: Path) -> None:
    settings = load_settings(ROOT / "params.yaml", environ={})
    out = tmp_path / "artefacts"
    out.mkdir()
    EvaLearn().write_artefacts(judged_plan, out, settings)
    assert (out / "position_curve.png").stat().st_size > 1000
    report = json.loads((out / "report.json").read_text())
    assert set(report) == {"zero_shot", "feedback"} and len(report["feedback"]) == 2
    assert (out / "feedback" / "verdicts-seed1.jsonl").exists()
