"""The released task format: the original sample imports, printed outputs become data
without ``eval``, imported tasks judge correctly, and every broken record is named by file,
line and field. The released documentation maps onto the package by name."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.sebench.judging import Judge
from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.release import (
    _NotDataError,
    import_files,
    parse_printed,
    released_docs,
)
from studybench.errors import DataError
from tests.conftest import SAMPLE

from .conftest import fenced, obf

RELEASE = SAMPLE / "sebench" / "release"
CASES: dict[str, Any] = json.loads(Path(__file__).with_name("release_cases.json").read_text())
GOOD: dict[str, Any] = {
    "query": "Return the total.",
    "function_name": "def total(values):",
    "example": {"values=[1, 2]": "3"},
    "test_cases": [
        {"input": "values=[1, 2]", "output": "3"},
        {"input": "values=[4]", "output": "4"},
    ],
    "right_exe_result": "3#4",
    "selected_functions": ["array", "sum"],
    "is_valid": True,
}


def test_the_sample_imports_with_every_field_mapped() -> None:
    tasks, skipped = import_files(sorted(RELEASE.glob("*.jsonl")))
    assert skipped == 3  # one record per file is marked is_valid: false
    splits = {t.split for t in tasks}
    assert splits == {"train", "single", "multi"} and len(tasks) == 10
    by_id = {t.id: t for t in tasks}
    inverse = by_id["multiple_test-1"]
    assert inverse.functions == ("array", "linalg.inv", "linalg.det", "round")
    assert inverse.example == "{'matrix=[[2, 0], [0, 4]]': '0.125'}"
    legs = by_id["single_test-2"].test_cases[0]
    assert legs.kwargs == {"legs": [1.5, 2.0, 0.5]} and legs.arrays == ("legs",)
    assert legs.expected == [1.5, 3.5, 4.0]
    assert by_id["multiple_test-2"].test_cases[0].expected == [5.0, 0.816496580927726]


@pytest.mark.parametrize("case", CASES["printed"], ids=[c["text"] for c in CASES["printed"]])
def test_printed_outputs_become_data(case: dict[str, Any]) -> None:
    if case.get("not_data"):
        with pytest.raises(_NotDataError):
            parse_printed(case["text"])
        return
    got = parse_printed(case["text"])
    expected = json.loads(json.dumps(case["data"]).replace("1e999", "Infinity"))
    assert got == expected or (
        isinstance(got, list) and all(math.isinf(g) for g in got) and got == expected
    )


def test_imported_tasks_judge_correctly(judge: Judge, package: ObfuscatedPackage) -> None:
    tasks, _ = import_files(sorted(RELEASE.glob("*.jsonl")))
    by_id = {t.id: t for t in tasks}

    def one_call(stub: str, path: str, argument: str) -> str:
        return f"import zwc\n\n{stub}\n    return {obf(package, path)}({argument})\n"

    answers = {
        "single_test-2": one_call("def cumulative_distance(legs):", "cumsum", "legs"),
        "single_test-4": one_call("def finite_flags(values):", "isfinite", "values"),
        "multiple_test-2": (
            "import zwc\n\ndef upper_half_stats(sales):\n"
            f"    a = zwc.{package.mapping['array']}(sales)\n"
            f"    top = a[a > {obf(package, 'median')}(a)]\n"
            f"    return ({obf(package, 'mean')}(top), {obf(package, 'std')}(top))\n"
        ),
    }
    for task_id, code in answers.items():
        verdict = judge.judge(fenced(code), by_id[task_id])
        assert verdict.reason == "ok", (task_id, verdict.detail)
    wrong = one_call("def cumulative_distance(legs):", "cumprod", "legs")
    assert judge.judge(fenced(wrong), by_id["single_test-2"]).reason == "wrong_output"


def _broken(case: dict[str, Any]) -> str:
    if "line" in case:
        return str(case["line"])
    record = {k: v for k, v in GOOD.items() if k != case.get("drop")}
    return json.dumps({**record, **case.get("set", {})})


@pytest.mark.parametrize("case", CASES["errors"], ids=[c["name"] for c in CASES["errors"]])
def test_errors_name_file_line_and_field(tmp_path: Path, case: dict[str, Any]) -> None:
    path = tmp_path / "single_test.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + _broken(case) + "\n")
    with pytest.raises(DataError) as raised:
        import_files([path])
    text = str(raised.value)
    assert text.startswith(f"{path}: line 3"), text
    assert (f"field {case['field']}:" in text) if case["field"] else True, text
    assert case["message"] in text, text


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "train.jsonl", tmp_path / "b" / "train.jsonl"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(json.dumps(GOOD) + "\n")
    with pytest.raises(DataError, match=r"field id: 'train-1' is also in"):
        import_files([first, second])


def test_released_docs_map_by_obfuscated_name(tmp_path: Path, package: ObfuscatedPackage) -> None:
    path = tmp_path / "api_doc.jsonl"
    rows = [
        {"original_name": "array", "curr_name": "yitaf", "rewritten_doc": "Builds an array."},
        {"original_name": "inv", "curr_name": "quvohe", "rewritten_doc": "Inverts a matrix."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    docs = released_docs(path, package.mapping)
    assert docs == {"array": "Builds an array.", "linalg.inv": "Inverts a matrix."}
    loaded = package.model_copy(update={"released_docs": docs})
    assert loaded.doc_text("linalg.inv") == "Inverts a matrix."
    assert loaded.doc_text("mean") == package.docs["mean"].render()
    rows[1]["original_name"] = "det"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(DataError, match=r"line 2: field curr_name: quvohe is linalg.inv here"):
        released_docs(path, package.mapping)
