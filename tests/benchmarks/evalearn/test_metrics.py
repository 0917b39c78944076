"""EvaLearn metrics on hand-computed sequences: the learning offset, a never-correct
sequence, unequal numbers of sequences per type, means and spreads over seeds."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from studybench.benchmarks.base import BenchmarkPlan
from studybench.benchmarks.evalearn import EvaLearn
from studybench.benchmarks.evalearn.runner import StoredVerdict, verdict_file
from studybench.config import load_settings
from studybench.metrics.sequential import learning_offset, mean_learning_offset
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("reference", "outcomes", "offset"),
    [
        ([1, 1, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1], 1),  # fails at 3, learnt by 4
        ([0, 0, 0], [0, 0, 0], 3),  # never correct after the failure: M + 1 - p
        ([0, 1, 1], [1, 0, 0], 3),  # correct at the failure itself does not count
        ([1, 1, 1], [0, 0, 0], None),  # nothing failed: nothing to learn from
        ([1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 1], 5),
    ],
)
def test_learning_offset(reference: list[int], outcomes: list[int], offset: int | None) -> None:
    assert learning_offset(reference, outcomes) == offset


def test_learning_offset_is_averaged_within_then_across_types() -> None:
    reference = {"A": [[0, 1, 1], [0, 0, 0]], "B": [[1, 0, 1]], "C": [[1, 1, 1]]}
    outcomes = {"A": [[0, 1, 1], [0, 0, 1]], "B": [[1, 1, 1]], "C": [[0, 0, 0]]}
    overall, per_type = mean_learning_offset(reference, outcomes)
    assert per_type == {"A": 1.5, "B": 1.0}  # C's reference never failed: no offset
    assert overall == 1.25
    with pytest.raises(ValueError, match="task type 'A': 1 reference"):
        mean_learning_offset({"A": [[0]]}, {"A": [[0], [1]]})
    with pytest.raises(ValueError, match="differ in length"):
        learning_offset([0, 1], [0])


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
    assert zero["learning_offset"] == pytest.approx(1.5)  # A: (1 + 3) / 2, B: 1
    assert zero["per_type"]["A"]["first_correct"] == 3.0

    m = bench.metrics(judged_plan, settings)
    assert m["evalearn/feedback/acc_mean"] == pytest.approx((6 / 9 + 7 / 9) / 2)
    assert m["evalearn/feedback/acc_std"] == pytest.approx(statistics.stdev([6 / 9, 7 / 9]))
    assert m["evalearn/feedback/learning_offset"] == pytest.approx(1.25)
    assert m["evalearn/feedback/learning_offset_sd"] == 0.0
    assert m["evalearn/zero_shot/acc_std"] == 0.0
    assert m["evalearn/feedback/position/3/acc"] == pytest.approx(1.0)
    assert m["evalearn/feedback/position/1/acc"] == pytest.approx(
        ((0 + 1) / 2 + (1 / 2 + 1) / 2) / 2
    )
    assert m["evalearn/feedback/type/a/acc"] == pytest.approx((3 / 6 + 4 / 6) / 2)
    assert set(bench.expected_metrics(judged_plan)) <= set(m)
    assert not any(k.endswith("first_correct_mean") for k in m)  # lower is better: no _mean


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
