"""Task files: the release format loads; every problem names file, record and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.sebench.functions import DEFAULT_FUNCTIONS
from studybench.benchmarks.sebench.tasks import by_split, load_tasks
from studybench.errors import DataError

from .conftest import SAMPLE_TASKS

GOOD: dict[str, Any] = {
    "id": "t1",
    "query": "Return the mean.",
    "stub": "def m(values):",
    "test_cases": [{"args": [[1, 2]], "expected": 1.5}],
    "functions": ["array", "mean"],
    "solution": "import numpy as np\n\ndef m(values):\n    return np.mean(np.array(values))\n",
}


def write(tmp_path: Path, records: Any) -> Path:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(records))
    return path


def test_sample_and_shapes(tmp_path: Path) -> None:
    tasks = load_tasks(SAMPLE_TASKS, DEFAULT_FUNCTIONS)
    assert set(by_split(tasks)) == {"single", "multi"}
    wrapped = load_tasks(write(tmp_path, {"tasks": [GOOD]}), DEFAULT_FUNCTIONS)
    lines = tmp_path / "tasks.jsonl"
    lines.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "t2"}) + "\n")
    assert wrapped[0].split == "single" and wrapped[0].function_name == "m"
    assert [t.id for t in load_tasks(lines, DEFAULT_FUNCTIONS)] == ["t1", "t2"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"query": None}, r"field query"),
        ({"test_cases": []}, r"field test_cases"),
        ({"test_cases": [{"args": [1]}]}, r"field test_cases\.0\.expected"),
        ({"functions": ["array", "mean", "fft.fft"]}, r"field functions: not in .*fft\.fft"),
        ({"stub": "m = 1"}, r"field stub: stub defines no function"),
        ({"functions": ["array", "sum"]}, r"field functions: \['array', 'sum'\] but the solution"),
        ({"surprise": 1}, r"field surprise"),
        ({"id": "t0"}, r"field id: duplicate of record 0"),
    ],
)
def test_errors_name_file_record_and_field(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    first = {**GOOD, "id": "t0"}
    path = write(tmp_path, [first, {**GOOD, **change}])
    where = rf"{tmp_path}/tasks.json: record 1 \(id=t[01]\): "
    with pytest.raises(DataError, match=where + message):
        load_tasks(path, DEFAULT_FUNCTIONS)


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(DataError, match=r"bad\.json: invalid JSON"):
        load_tasks(bad)
    with pytest.raises(DataError, match="cannot read"):
        load_tasks(tmp_path / "missing.json")
    with pytest.raises(DataError, match="no tasks"):
        load_tasks(write(tmp_path, []))


@pytest.mark.parametrize(
    ("text", "reason"),
    [("[" * 200_000 + "]" * 200_000, "nested deeper"), ('[{"id": ' + "7" * 5000 + "}]", "digits")],
)
def test_hostile_json_is_a_clear_error(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(text)
    with pytest.raises(DataError, match=rf"hostile\.json.*{reason}"):
        load_tasks(path)
