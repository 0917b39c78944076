"""Every place that reads model output past its thinking applies the one rule
(:func:`studybench.verify.extract.strip_think`): the same case table, at each call site that
used to have its own copy (rollout history, the LLM judge's reply, the guidance teacher's
JSON, EvaLearn's answer, SE-Bench's code block) and at the rule itself."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CASES = json.loads(Path(__file__).with_name("think_cases.json").read_text())["cases"]


RULE_HIDDEN, RULE_SHOWN = "scratch \\boxed{1}", "the answer is \\boxed{2}"


def _rule(text: str, expect: str) -> None:
    from studybench.verify.extract import strip_think

    visible, unterminated = strip_think(text)
    assert unterminated == (expect == "none")
    if expect == "shown":
        assert visible.strip() == RULE_SHOWN and RULE_HIDDEN not in visible


def _returns(function: Callable[[str], Any], shown: Any, none: Any) -> Callable[[str, str], None]:
    def check(text: str, expect: str) -> None:
        assert function(text) == (shown if expect == "shown" else none)

    return check


def _history(text: str, expect: str) -> None:
    from studybench.rollout.conversation import strip_thinking

    _returns(strip_thinking, "the answer is \\boxed{2}", "")(text, expect)


def _judge_reply(text: str, expect: str) -> None:
    from studybench.judge.prompt import parse_reply

    _returns(parse_reply, "true", "unparseable")(text, expect)


def _teacher_json(text: str, expect: str) -> None:
    from studybench.guidance.teacher import extract_json

    if expect == "shown":
        assert extract_json(text) == {"score": 1}
    else:
        with pytest.raises(ValueError):
            extract_json(text)


def _evalearn_answer(text: str, expect: str) -> None:
    from studybench.benchmarks.evalearn.judge import visible

    _returns(visible, "Final answer: positive", "")(text, expect)


def _sebench_code(text: str, expect: str) -> None:
    from studybench.benchmarks.sebench.extract import last_code_block

    _returns(last_code_block, "shown()\n", None)(text, expect)


SITES: dict[str, tuple[str, str, Callable[[str, str], None]]] = {
    # site: (hidden text, shown text, check)
    "rule": (RULE_HIDDEN, RULE_SHOWN, _rule),
    "rollout history": ("scratch \\boxed{1}", "the answer is \\boxed{2}", _history),
    "LLM judge reply": ("VERDICT: FALSE", "VERDICT: TRUE", _judge_reply),
    "guidance teacher JSON": ('{"score": 0}', '{"score": 1}', _teacher_json),
    "EvaLearn answer": ("Final answer: negative", "Final answer: positive", _evalearn_answer),
    "SE-Bench code": ("```python\nhidden()\n```", "```python\nshown()\n```", _sebench_code),
}


@pytest.mark.parametrize("site", sorted(SITES))
@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_one_thinking_rule_at_every_site(site: str, case: dict[str, str]) -> None:
    hidden, shown, check = SITES[site]
    text = case["text"].replace("{hidden}", hidden).replace("{shown}", shown)
    check(text, case["expect"])


def test_no_other_copy_of_the_rule() -> None:
    """Only the verifier's module spells the think tags out as a pattern."""
    root = Path(__file__).resolve().parents[1] / "studybench"
    allowed = {root / "verify" / "extract.py"}
    copies = [
        f"{path}:{number}"
        for path in root.rglob("*.py")
        if path not in allowed
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "think" in line.lower() and ("re.compile" in line or ".find(" in line)
    ]
    assert copies == []
