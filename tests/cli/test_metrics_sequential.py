"""``studybench metrics sequential`` gives every EvaLearn metric from plain files, O_learned
included: the hand-computed cases of tests/metrics/sequential_cases.json (the spec's worked
example among them) run through the command, sequences with their problem ids, the zero-shot
results in a second file (``--zero-shot``); bad zero-shot input is one clear error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from studybench.cli import app
from tests.metrics.test_sequential import CASES, _value

KEYS = ("acc", "slope", "first_correct", "longest_streak", "post_warmup_acc")


def _files(case: dict[str, Any], tmp: Path) -> list[str]:
    """The case as the command's input files, and the options that go with them."""
    outcomes: dict[str, list[Any]] = {}
    for s in case["sequences"]:
        entry = {"outcomes": s["y"], "problem_ids": s["ids"]} if s["ids"] else s["y"]
        outcomes.setdefault(s["type"], []).append(entry)
    (tmp / "outcomes.json").write_text(json.dumps(outcomes))
    args = [str(tmp / "outcomes.json"), "--warmup", str(case["warmup"])]
    args += ["--problems", str(case["problems"])]
    if case["zero_shot_solved"] is not None:  # one zero-shot trial of every problem
        ids = sorted({q for s in case["sequences"] for q in s["ids"]})
        solved = set(case["zero_shot_solved"])
        zero = {"zero-shot": [{"outcomes": [int(q in solved) for q in ids], "problem_ids": ids}]}
        (tmp / "zero_shot.json").write_text(json.dumps(zero))
        args += ["--zero-shot", str(tmp / "zero_shot.json")]
    return args


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_all_six_metrics_from_the_plain_command(case: dict[str, Any], tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["metrics", "sequential", *_files(case, tmp_path)])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    expected = case["expected"]
    for key in KEYS:
        assert payload[key] == pytest.approx(_value(expected[key]), abs=1e-12), key
    if expected["learned_offset"] is None:
        assert payload["learned_offset"] is None
    else:
        assert payload["learned_offset"] == pytest.approx(_value(expected["learned_offset"]))
    assert payload["curve"] == pytest.approx([_value(v) for v in expected["curve"]])


def test_plain_vectors_still_work_and_zero_shot_needs_ids(tmp_path: Path) -> None:
    vectors = tmp_path / "vectors.json"
    vectors.write_text(json.dumps({"math": [[0, 1, 1]]}))
    plain = CliRunner().invoke(app, ["metrics", "sequential", str(vectors)])
    assert plain.exit_code == 0 and json.loads(plain.stdout)["learned_offset"] is None
    zero = tmp_path / "zero.json"
    zero.write_text(json.dumps({"math": [[1, 0, 0]]}))  # no problem ids: cannot match
    refused = CliRunner().invoke(
        app, ["metrics", "sequential", str(vectors), "--zero-shot", str(zero)]
    )
    assert refused.exit_code != 0
    assert "has no problem_ids" in str(refused.exception)
    zero.write_text(json.dumps({"math": [{"outcomes": [1, 0, 0], "problem_ids": ["a", "b"]}]}))
    refused = CliRunner().invoke(
        app, ["metrics", "sequential", str(vectors), "--zero-shot", str(zero)]
    )
    assert "2 problem_ids for 3 outcomes" in str(refused.exception)
    zero.write_text(json.dumps({"math": [{"outcomes": [1, 0, 0], "problem_ids": ["a", "b", "c"]}]}))
    refused = CliRunner().invoke(
        app, ["metrics", "sequential", str(vectors), "--zero-shot", str(zero)]
    )
    assert "O_learned needs a problem id for every position" in str(refused.exception)
