"""The published release: its invariants on a generated full-size release (one change per
case, ``full_release_cases.json``), which files are held to them, and the import of both
published versions (the committed originals in each format)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.evalearn.records import load_release
from studybench.benchmarks.evalearn.release import (
    PROBLEMS_PER_TYPE,
    RELEASE_PROBLEM_FILE,
    SEQUENCES_PER_TYPE,
    check_release,
    import_release,
    load_checked,
)
from studybench.data.loaders import DataValidationError
from tests.conftest import SAMPLE

CASES = json.loads(Path(__file__).with_name("full_release_cases.json").read_text())["cases"]
NEWEST = SAMPLE / "evalearn"
JUNE = SAMPLE / "evalearn" / "2025-06"


def full_release() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """648 problems (ids in type order) and 182 sequences of 7 filling each type's problems
    in turn, so every problem is used once or twice and never twice in one sequence."""
    problems: list[dict[str, Any]] = []
    sequences: list[dict[str, Any]] = []
    for kind, count in PROBLEMS_PER_TYPE.items():
        ids = list(range(len(problems) + 1, len(problems) + count + 1))
        problems += [
            {"id": i, "type": kind, "source": "gen", "level": 1, "prompt": [f"Q{i}"],
             "canonical_answer": f"A{i}", "rubric_en": "r", "rubric_zh": "评分"}
            for i in ids
        ]  # fmt: skip
        for n in range(SEQUENCES_PER_TYPE[kind]):
            slots = range(n * 7, n * 7 + 7)
            sequences.append(
                {
                    "sequence_id": len(sequences) + 1,
                    "type": kind,
                    "question_ids": [ids[s % count] for s in slots],
                }
            )
    return problems, sequences


def _change(
    problems: list[dict[str, Any]], sequences: list[dict[str, Any]], op: dict[str, Any]
) -> None:
    kind = op["op"]
    if kind == "drop_problem":
        problems[:] = [p for p in problems if p["id"] != op["id"]]
    elif kind == "renumber_problem":
        for p in problems:
            p["id"] = op["to"] if p["id"] == op["from"] else p["id"]
        for s in sequences:
            s["question_ids"] = [op["to"] if q == op["from"] else q for q in s["question_ids"]]
    elif kind == "renumber_sequence":
        for s in sequences:
            s["sequence_id"] = op["to"] if s["sequence_id"] == op["from"] else s["sequence_id"]
    elif kind == "truncate_sequence":
        sequences[op["id"] - 1]["question_ids"].pop()
    elif kind == "drop_sequence":
        sequences[:] = [s for s in sequences if s["sequence_id"] != op["id"]]
    elif kind == "replace_in_sequence":
        sequences[op["sequence"] - 1]["question_ids"][op["position"] - 1] = op["by"]
    else:
        assert kind == "none"


def _write(
    folder: Path, problems: Any, sequences: Any, name: str = RELEASE_PROBLEM_FILE
) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(problems))
    (folder / "EvaLearn_Sequence.json").write_text(json.dumps(sequences))
    return folder / name, folder / "EvaLearn_Sequence.json"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_full_release_invariants(case: dict[str, Any], tmp_path: Path) -> None:
    problems, sequences = full_release()
    _change(problems, sequences, case["change"])
    paths = dict(zip(("problems", "sequences"), _write(tmp_path, problems, sequences), strict=True))
    release = check_release(paths["problems"], paths["sequences"])  # claimed by its name
    errors = [i for i in release.issues if i.severity == "error"]
    assert {i.code for i in errors} == {f["code"] for f in case["findings"]}, [
        i.format() for i in errors
    ]
    for finding in case["findings"]:
        assert any(
            i.file == str(paths[finding["file"]])
            and i.record == finding["record"]
            and i.field == finding["field"]
            and i.code == finding["code"]
            and finding["message"] in i.message
            for i in errors
        ), (finding, [i.format() for i in errors])
    if not case["findings"]:
        warnings = {i.code for i in release.issues}
        assert warnings == {"reused-question"}  # the type counts match the release's


def test_a_full_size_june_2025_release_passes(tmp_path: Path) -> None:
    """The June-2025 file: a single rubric, canonical_answer empty in all 648 records."""
    problems, sequences = full_release()
    june = [
        {**{k: v for k, v in p.items() if not k.startswith("rubric_")}, "rubric": "r"}
        | {"canonical_answer": ""}
        for p in problems
    ]
    release = load_checked(*_write(tmp_path, june, sequences))
    assert release.version == "2025-06" and len(release.problems) == 648
    assert {i.code for i in release.issues} == {"reused-question", "empty-canonical-answer"}
    (empty,) = [i for i in release.issues if i.code == "empty-canonical-answer"]
    assert "in 648 record(s)" in empty.message


def test_only_a_file_that_claims_to_be_the_release_is_held_to_its_counts(tmp_path: Path) -> None:
    problems, sequences = full_release()
    sequences.pop()
    claimed = _write(tmp_path / "a", problems, sequences)
    plain = _write(tmp_path / "b", problems, sequences, name="subset.json")
    assert any(i.code == "full-release" for i in check_release(*claimed).issues)
    assert not any(i.code == "full-release" for i in check_release(*plain).issues)
    assert not any(
        i.code == "full-release" for i in check_release(*claimed, expect_full=False).issues
    )
    with pytest.raises(DataValidationError, match="the release has 182 valid sequences"):
        load_checked(*plain, expect_full=True)
    load_checked(*plain)  # a subset is a valid EvaLearn file


@pytest.mark.parametrize(
    ("folder", "version", "answers"), [(NEWEST, "newest", True), (JUNE, "2025-06", False)]
)
def test_both_published_versions_import(
    folder: Path, version: str, answers: bool, tmp_path: Path
) -> None:
    problems = folder / "evalearn_problems.json"
    sequences = folder / "evalearn_sequences.json"
    report = import_release(problems, sequences, tmp_path / "out")
    assert (report.version, report.full_release, report.problems, report.sequences) == (
        version,
        False,
        36,
        5,
    )
    assert report.sequences_per_type == {"Classification": 2, "Mathematical Reasoning": 3}
    assert report.written
    assert any("empty-canonical-answer" in w for w in report.warnings) is not answers
    imported = load_release(report.problem_file, report.sequence_file)
    original = load_release(problems, sequences)
    assert imported.problems == original.problems
    assert imported.sequences == original.sequences
    first = json.loads(Path(report.problem_file).read_text())[0]
    assert list(first) == [
        "id", "type", "source", "level", "prompt", "canonical_answer", "rubric_en", "rubric_zh",
    ]  # fmt: skip
    manifest = json.loads(Path(report.manifest).read_text())
    assert manifest["version"] == version and len(manifest["sources"]["problems"]["sha256"]) == 64
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    again = import_release(problems, sequences, tmp_path / "out")
    assert not again.written  # idempotent: byte-identical, nothing rewritten
    assert before == {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}


def test_the_two_versions_hold_the_same_problems() -> None:
    newest = load_release(NEWEST / "evalearn_problems.json", NEWEST / "evalearn_sequences.json")
    june = load_release(JUNE / "evalearn_problems.json", JUNE / "evalearn_sequences.json")
    assert newest.version == "newest" and june.version == "2025-06"
    assert newest.problems.keys() == june.problems.keys()
    for ident, problem in june.problems.items():
        assert problem.prompt == newest.problems[ident].prompt
        assert problem.canonical_answer == "" and problem.rubric_zh == ""
        assert problem.rubric("zh") == problem.rubric_en == newest.problems[ident].rubric_en


def test_a_failed_import_names_every_error_and_writes_nothing(tmp_path: Path) -> None:
    problems, sequences = full_release()
    problems[3]["prompt"] = []
    sequences[10]["question_ids"][2] = 9999
    paths = _write(tmp_path, problems, sequences)
    with pytest.raises(DataValidationError) as caught:
        import_release(*paths, tmp_path / "out")
    text = str(caught.value)
    assert f"{paths[0]}: record 3 (id=4): field prompt: error missing-field" in text
    assert f"{paths[1]}: record 10 (sequence_id=11): field question_ids[2]" in text
    assert not (tmp_path / "out").exists()
