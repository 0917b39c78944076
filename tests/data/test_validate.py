"""Every validation rule, driven by the case table in validation_cases.json."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studybench.data import FileKind, validate_file

CASES = json.loads((Path(__file__).with_name("validation_cases.json")).read_text())["cases"]

BASES: dict[str, dict[str, Any]] = {
    "solo": {
        "source": "SB_Mechanics",
        "source_kind": "textbook_problem",
        "domain": "Textbook Physics",
        "year": "",
        "source_problem_id": "P1",
        "title": "",
        "problem_type": "Classical Mechanics",
        "problem": "A ball is dropped from 5 m. How long does it fall?",
        "solution": "t = sqrt(2h/g).",
        "answer": "\\boxed{1.0\\,\\mathrm{s}}",
        "answer_type": "NV",
        "type_sequence": "",
        "sub_problems": [],
    },
    "multi": {
        "source": "SBO",
        "source_kind": "competition",
        "domain": "Olympiad Physics",
        "year": "2025",
        "source_problem_id": "T1",
        "title": "Two blocks",
        "problem_type": "Classical Mechanics",
        "problem": "Two blocks of masses m and 2m are joined by a spring.",
        "solution": "",
        "answer": "",
        "answer_type": "",
        "type_sequence": "",
    },
    "sub": {
        "problem_id": "a",
        "problem": "Find the reduced mass.",
        "solution": "mu = m*2m/(3m).",
        "answer": "\\boxed{\\frac{2m}{3}}",
        "answer_type": "EX",
        "type_sequence": "",
    },
}


def build(value: Any) -> Any:
    """Expand {"base": name, ...overrides} recursively; "__absent__" deletes a key."""
    if isinstance(value, list):
        return [build(item) for item in value]
    if not isinstance(value, dict):
        return value
    result = copy.deepcopy(BASES[value["base"]]) if "base" in value else {}
    for key, item in value.items():
        if key == "base":
            continue
        if item == "__absent__":
            result.pop(key, None)
        else:
            result[key] = build(item)
    return result


def dig(record: Any, dotted: str) -> Any:
    value = record.model_dump(by_alias=False) if hasattr(record, "model_dump") else record
    for part in dotted.split("."):
        value = value[int(part)] if isinstance(value, list | tuple) else value[part]
    return value


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_validation_case(case: dict[str, Any], tmp_path: Path) -> None:
    records = build(case["records"])
    payload = {"data": records} if case["shape"] == "data" else records
    path = tmp_path / "case.json"
    path.write_text(json.dumps(payload), encoding="utf-8")

    result = validate_file(path, FileKind(case["kind"]))

    got = sorted((i.severity.value, i.code, i.record, i.field) for i in result.issues)
    want = sorted((x["severity"], x["code"], x["record"], x["field"]) for x in case["expect"])
    assert got == want, "\n".join(i.format() for i in result.issues)
    assert result.ok is case["ok"]
    for issue in result.issues:
        assert issue.file == str(path)
        assert str(path) in issue.format()
    if result.ok:
        built = result.parents if case["kind"] == "split" else result.instructions
        assert len(built) == len(records)
    for check in case.get("after", []):
        record = result.parents[check["record"]]
        value = dig(record, check["path"])
        if isinstance(value, tuple):
            value = list(value)
        assert value == check["equals"], check


def test_issue_names_source_problem_id(tmp_path: Path) -> None:
    path = tmp_path / "split.json"
    record = build({"base": "solo", "source_problem_id": "P4.7", "answer_type": "NUM"})
    path.write_text(json.dumps([record]))
    (issue,) = validate_file(path).issues
    assert issue.source_problem_id == "P4.7"
    assert issue.format().startswith(
        f"{path}: record 0 (source_problem_id=P4.7): field answer_type: "
        "error unknown-answer-type: 'NUM' is not one of"
    )


@pytest.mark.parametrize(
    ("content", "code", "fragment"),
    [
        ('[{"source": "x",]', "invalid-json", "line 1 column"),
        ('{"problems": []}', "bad-shape", "top level must be a list"),
        ('"just a string"', "bad-shape", "got str"),
        ("", "invalid-json", "line 1 column 1"),
    ],
)
def test_file_level_errors(tmp_path: Path, content: str, code: str, fragment: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    result = validate_file(path)
    (issue,) = result.issues
    assert (issue.code, issue.record) == (code, None)
    assert fragment in issue.message
    assert not result.ok


def test_not_utf8_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('[{"problem": "caf\u00e9"}]'.encode("latin-1"))
    (issue,) = validate_file(path).issues
    assert issue.code == "invalid-json"
    assert "not UTF-8" in issue.message


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    (issue,) = validate_file(tmp_path / "nope.json").issues
    assert issue.code == "invalid-json"
    assert "cannot read" in issue.message


def test_validation_does_not_modify_the_input(tmp_path: Path) -> None:
    path = tmp_path / "quirky.json"
    record = build({"base": "solo", "answer_type": "nv", "type_sequence": "NV"})
    path.write_text(json.dumps([record]))
    before = path.read_bytes()
    result = validate_file(path)
    assert result.ok and result.warnings
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["quirky.json"]


def test_kind_is_detected(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "q"}]
    layer = tmp_path / "verifiable_instr.json"
    layer.write_text(json.dumps([{"messages": messages}]))
    answerless = tmp_path / "unverifiable_instr.json"
    answerless.write_text(json.dumps([{"messages": messages}]))
    split = tmp_path / "split.json"
    split.write_text(json.dumps([build({"base": "solo"})]))
    assert validate_file(layer).kind is FileKind.INSTRUCTIONS
    assert not validate_file(layer).ok  # answers are required there
    assert validate_file(answerless).kind is FileKind.INSTRUCTIONS_NO_ANSWER
    assert validate_file(answerless).ok
    assert validate_file(split).kind is FileKind.SPLIT
