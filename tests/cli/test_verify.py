"""``studybench verify`` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.entry import run


def test_verify_single_pair() -> None:
    ok = run("verify", r"\boxed{150\,\mathrm{cm}}", r"\boxed{1.5\,\mathrm{m}}", "--type", "NV")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["reason"] == "unit_converted"
    wrong = run("verify", r"\boxed{R}", r"\boxed{h}", "--type", "EX")
    assert wrong.returncode == 1
    assert json.loads(wrong.stdout)["correct"] is False
    missing = run("verify", r"\boxed{R}")
    assert missing.returncode == 2


def test_verify_cases_contract(tmp_path: Path) -> None:
    cases = [
        {
            "pred": r"\boxed{2\,\mathrm{mA}}",
            "gold": r"\boxed{0.002\,\mathrm{A}}",
            "answer_type": "NV",
            "type_sequence": "",
            "id": "a",
            "expect": True,
        },
        {
            "pred": r"\boxed{b}, \boxed{a}",
            "gold": r"\boxed{a}, \boxed{b}",
            "answer_type": "TUP",
            "type_sequence": "EX,EX",
            "id": "b",
            "expect": False,
        },
        {"pred": r"<think>\boxed{3}", "gold": r"\boxed{3}", "answer_type": "NV", "id": "c"},
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in cases) + "\n")
    result = run("verify", "--cases", path, "--workers", "2")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["a", "b", "c"]
    assert [line["correct"] for line in lines] == [True, False, False]
    assert lines[2]["reason"] == "think_unterminated"
    for line, case in zip(lines, cases, strict=True):
        assert {k: line[k] for k in case} == case  # input fields passed through
        assert isinstance(line["elapsed_ms"], float)
    assert "verified 3 case(s)" in result.stderr
    assert "matches 'expect' on 2/2" in result.stderr


def test_verify_cases_bad_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    good = {"pred": r"\boxed{1}", "gold": r"\boxed{1}", "answer_type": "NV"}
    path.write_text(json.dumps(good) + "\n" + json.dumps({"pred": "x", "answer_type": "NV"}) + "\n")
    result = run("verify", "--cases", path)
    assert result.returncode == 2
    assert f"{path}: line 2: field gold: Field required" in result.stderr
    assert result.stdout == ""
