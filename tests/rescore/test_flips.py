"""The flip report (pure): one case table of before/after verdicts, and bounded examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.judge.pipeline import JudgeItem, SlotVerdict
from studybench.rescore.flips import EXAMPLE_CHARS, flip_report

CASES = json.loads(Path(__file__).with_name("flip_cases.json").read_text())["cases"]
KEY = ("src/2020/p1", "a", 0, 0)


def _item(completion: str = "\\boxed{1}", answer_type: str = "NV") -> JudgeItem:
    return JudgeItem(
        parent=KEY[0], slot=KEY[1], seed=0, attempt=0, turn=0, source="src",
        problem_type="", answer_type=answer_type, type_sequence="", stem="", question="q",
        solution="", answer="\\boxed{1}", completion=completion,
    )  # fmt: skip


def _verdict(final: bool, reason: str, extracted: tuple[str, ...] = ("1",)) -> SlotVerdict:
    return SlotVerdict(
        parent=KEY[0], slot=KEY[1], seed=0, attempt=0, turn=0, completion_hash="h",
        rule_correct=final, rule_reason=reason, extracted=list(extracted), final_correct=final,
        stage="rule" if final else "rule_only",
    )  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_flip_direction_and_class(case: dict[str, Any]) -> None:
    old = {KEY: case["before"]} if case["before"] is not None else {}
    after = _verdict(case["after"]["final_correct"], case["after"]["rule_reason"])
    report = flip_report("application", old, [after], {KEY: _item()}, examples=5)
    assert report.compared == 1 and report.missing_before == (case["before"] is None)
    if case["direction"] is None:
        assert report.flips == 0 and report.unchanged == 1 and not report.examples
        return
    assert report.by_direction == {case["direction"]: 1}
    assert report.by_answer_type == {case["direction"]: {"NV": 1}}
    assert report.by_class == {case["direction"]: {case["class"]: 1}}
    (example,) = report.examples
    assert example.flip_class == case["class"] and example.answer_type == "NV"
    assert report.metrics()["rescore/flips"] == 1.0


def test_examples_are_bounded_and_scrubbed() -> None:
    key = "sk-" + "A" * 40
    hostile = "x" * 10_000 + f" api key {key}"  # the tail kept holds the key
    report = flip_report(
        "application",
        {KEY: {"final_correct": True, "rule_reason": "equal"}},
        [_verdict(False, "wrong_value", extracted=(hostile,))],
        {KEY: _item(completion=hostile)},
        examples=1,
    )
    (example,) = report.examples
    assert len(example.completion_tail) <= EXAMPLE_CHARS + 1
    assert len(example.extracted) <= EXAMPLE_CHARS + 1
    assert key not in json.dumps(report.tables())
    none = flip_report("application", {}, [], {}, examples=0)
    assert none.flips == 0 and none.tables()["tables/rescore_flips.json"]["count"] == []
