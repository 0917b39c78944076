"""The safe JSON reader: hostile inputs become DataErrors naming the file, never tracebacks;
and ``data validate`` reports them as ``invalid-json`` issues."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.data import validate_file
from studybench.errors import DataError
from studybench.fileio import JSONReadError, read_json, read_jsonl

CASES: dict[str, Any] = json.loads((Path(__file__).with_name("fileio_cases.json")).read_text())


def content(case: dict[str, str]) -> str:
    if "make" not in case:
        return case["text"].replace("DIGITS5000", "7" * 5000)
    kind, size = case["make"].split(":")
    n = int(size)
    return {
        "deep": "[" * n + "]" * n,
        "deepobj": '{"a":' * n + "1" + "}" * n,
        "digits": "[" + "9" * n + "]",
    }[kind]


@pytest.mark.parametrize("case", CASES["errors"], ids=lambda c: c["name"])
def test_hostile_json_is_a_data_error_naming_the_file(case: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(content(case))
    with pytest.raises(DataError) as info:
        read_json(path)
    assert isinstance(info.value, JSONReadError)
    assert str(info.value).startswith(f"{path}: ")
    assert case["reason"] in str(info.value)


@pytest.mark.parametrize("case", CASES["ok"], ids=lambda c: c["name"])
def test_honest_json_reads(case: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "fine.json"
    path.write_text(content(case))
    assert read_json(path) == json.loads(content(case))


@pytest.mark.parametrize("case", CASES["errors"], ids=lambda c: c["name"])
def test_data_validate_reports_hostile_files(case: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "split.json"
    path.write_text(content(case))
    result = validate_file(path)
    (issue,) = result.issues
    assert issue.code == "invalid-json" and not result.ok
    assert case["reason"] in issue.message


def test_jsonl_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"pred": "1"}\n\n' + "[" * 200_000 + "\n")
    with pytest.raises(JSONReadError, match=r"cases.jsonl line 3: JSON nested deeper"):
        read_jsonl(path)


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(JSONReadError, match="cannot read file"):
        read_json(tmp_path / "absent.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00[")
    with pytest.raises(JSONReadError, match="not UTF-8"):
        read_json(tmp_path / "bin.json")


HOSTILE = {
    "deep": "[" * 200_000 + "]" * 200_000,
    "digits": '[{"pred": ' + "9" * 5000 + "}]",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("command", [["data", "validate"], ["verify", "--cases"]])
def test_cli_names_the_file_instead_of_a_traceback(
    kind: str, command: list[str], tmp_path: Path
) -> None:
    import subprocess
    import sys

    path = tmp_path / f"hostile-{kind}.json"
    text = HOSTILE[kind]
    path.write_text(text if command[0] == "data" else text.replace("[{", "{", 1)[:-1] + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "studybench.cli", *command, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "Traceback" not in output and path.name in output, output[-2000:]
