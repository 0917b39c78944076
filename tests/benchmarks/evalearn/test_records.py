"""The EvaLearn loader: the committed sample, one table case per validation rule, and
errors that name the file, record, id and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.evalearn.records import load_release, validate_release
from studybench.data.loaders import DataValidationError
from tests.conftest import SAMPLE

CASES = json.loads(Path(__file__).with_name("validation_cases.json").read_text())
EVALEARN = SAMPLE / "evalearn"


def _write(tmp_path: Path, case: dict[str, Any]) -> tuple[Path, Path]:
    problems = tmp_path / "problems.json"
    sequences = tmp_path / "sequences.json"
    if "problems_raw" in case:
        problems.write_text(case["problems_raw"])
    else:
        problems.write_text(json.dumps({"data": case["problems"]}))
    sequences.write_text(json.dumps(case["sequences"]))
    return problems, sequences


def test_the_sample_is_valid_and_shaped_as_the_issue_asks() -> None:
    release = load_release(
        EVALEARN / "evalearn_problems.json", EVALEARN / "evalearn_sequences.json"
    )
    assert release.issues == ()
    assert release.version == "newest"
    assert len(release.sequences) >= 4
    assert all(len(s.question_ids) == 7 for s in release.sequences)
    types = [s.type for s in release.sequences]
    assert len(set(types)) >= 2 and len({types.count(t) for t in set(types)}) > 1  # unequal
    problems = release.problems.values()
    assert all(p.rubric_en and p.rubric_zh and p.canonical_answer for p in problems)
    multi = [p for p in problems if len(p.prompt) > 1]
    assert multi and [m.role for m in multi[0].prompt] == ["user", "assistant", "user"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_validation_rules(case: dict[str, Any], tmp_path: Path) -> None:
    problems, sequences = _write(tmp_path, case)
    release = validate_release(problems, sequences)
    errors = [i for i in release.issues if i.severity == "error"]
    warnings = [i for i in release.issues if i.severity == "warning"]
    assert sorted({i.code for i in errors}) == sorted(case["codes"]), [
        i.format() for i in release.issues
    ]
    assert sorted({i.code for i in warnings}) == sorted(case.get("warnings", []))
    if case.get("field"):
        assert any(i.field == case["field"] for i in errors), [i.format() for i in errors]
    if not case["codes"]:
        loaded = load_release(problems, sequences)
        assert len(loaded.sequences) == len(case["sequences"])
    else:
        with pytest.raises(DataValidationError):
            load_release(problems, sequences)


def test_an_error_names_file_record_id_and_field(tmp_path: Path) -> None:
    case = next(c for c in CASES if c["name"] == "type mismatch")
    problems, sequences = _write(tmp_path, case)
    with pytest.raises(DataValidationError) as caught:
        load_release(problems, sequences)
    message = str(caught.value)
    assert str(sequences) in message
    assert "record 0 (sequence_id=a): field question_ids[0]: error type-mismatch" in message


def test_every_record_is_checked_not_just_the_first(tmp_path: Path) -> None:
    bad = {"id": 1, "type": "", "prompt": ["q"], "canonical_answer": "a", "rubric_zh": "r"}
    problems = tmp_path / "p.json"
    problems.write_text(json.dumps([bad, {**bad, "id": 2}, {**bad, "id": 3, "rubric_zh": ""}]))
    sequences = tmp_path / "s.json"
    sequences.write_text("[]")
    issues = validate_release(problems, sequences).issues
    assert [(i.record, i.code, i.field) for i in issues] == [
        (0, "missing-field", "type"),
        (1, "missing-field", "type"),
        (2, "missing-field", "type"),
        (2, "missing-rubric", "rubric_zh"),
    ]


def test_a_rubric_language_falls_back_to_the_other() -> None:
    newest = load_release(EVALEARN / "evalearn_problems.json", EVALEARN / "evalearn_sequences.json")
    both = next(iter(newest.problems.values()))
    assert both.rubric("zh") == both.rubric_zh != both.rubric("en") == both.rubric_en
    june = EVALEARN / "2025-06"
    old = load_release(june / "evalearn_problems.json", june / "evalearn_sequences.json")
    english_only = next(iter(old.problems.values()))
    assert english_only.rubric("zh") == english_only.rubric("en") == english_only.rubric_en
