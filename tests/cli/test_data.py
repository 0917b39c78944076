"""``studybench data ...`` as a user runs it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from studybench.data import load_split
from tests.cli.entry import run


def sample_files(sample_dir: Path) -> list[Path]:
    return sorted(sample_dir.glob("*.json"))


def test_validate_sample_passes(sample_dir: Path) -> None:
    files = sample_files(sample_dir)
    assert len(files) == 6
    result = run("data", "validate", *files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("ok ") == len(files)
    assert "0 error(s)" in result.stdout


def test_corrupted_copy_fails_naming_file_record_and_field(
    sample_dir: Path, tmp_path: Path
) -> None:
    source = sample_dir / "application_problems.json"
    payload = json.loads(source.read_text())
    target_index = next(i for i, p in enumerate(payload["data"]) if p["sub_problems"])
    parent = payload["data"][target_index]
    parent["sub_problems"][1]["answer_type"] = "NUMERIC"
    corrupted = tmp_path / "application_problems.json"
    corrupted.write_text(json.dumps(payload))
    good = tmp_path / "transfer_problems.json"
    shutil.copy(sample_dir / "transfer_problems.json", good)
    before = sorted(p.name for p in tmp_path.iterdir())

    result = run("data", "validate", corrupted, good)

    assert result.returncode == 1
    expected = (
        f"{corrupted}: record {target_index} "
        f"(source_problem_id={parent['source_problem_id']}): "
        "field sub_problems[1].answer_type: error unknown-answer-type"
    )
    assert expected in result.stderr
    assert f"FAILED {corrupted}" in result.stdout
    assert f"ok {good}" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_invalid_json_fails(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"data": [')
    result = run("data", "validate", path)
    assert result.returncode == 1
    assert f"{path}: error invalid-json: invalid JSON at line 1" in result.stderr


def test_validate_json_output(sample_dir: Path, tmp_path: Path) -> None:
    quirky = tmp_path / "quirky.json"
    record = json.loads((sample_dir / "application_problems.json").read_text())["data"][0]
    record["answer_type"] = record["answer_type"].lower() if record["answer_type"] else "nv"
    quirky.write_text(json.dumps([record]))
    result = run("data", "validate", "--json", quirky)
    assert result.returncode == 0  # warnings only
    (report,) = json.loads(result.stdout)
    assert report["ok"] is True
    assert {i["code"] for i in report["issues"]} >= {"answer-type-case"}


def test_stats_table_and_json(sample_dir: Path) -> None:
    files = sample_files(sample_dir)
    table = run("data", "stats", *files)
    assert table.returncode == 0, table.stderr
    for heading in ("parents", "slots", "multi-sub parents", "answer type: NV", "inside TUP/ALT"):
        assert heading in table.stdout

    result = run("data", "stats", "--json", *files)
    assert result.returncode == 0
    payload = json.loads(result.stdout)
    by_path = {Path(f["path"]).name: f for f in payload["files"]}
    application = by_path["application_problems.json"]["split"]
    loaded = load_split(sample_dir / "application_problems.json")
    assert application["parents"] == len(loaded.parents)
    assert application["slots"] == len(loaded.slots())
    assert by_path["verifiable_instr.json"]["instructions"]["records"] > 0
    total = payload["total_splits"]
    transfer = by_path["transfer_problems.json"]["split"]
    assert by_path["guidance.json"]["split"]["parents"] == transfer["parents"]
    assert total["parents"] == application["parents"] + transfer["parents"]  # guidance not twice
    assert total["slots"] == application["slots"] + transfer["slots"]
    assert set(total["by_answer_type"]) == {"NV", "EX", "EQ", "IN", "MC", "TF", "QL", "TUP", "ALT"}


def test_stats_on_invalid_file_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("[1, 2]")
    result = run("data", "stats", path)
    assert result.returncode == 1
    assert "not-an-object" in result.stderr


def test_data_import_validates_before_writing(sample_dir: Path, tmp_path: Path) -> None:
    release = tmp_path / "release"
    shutil.copytree(sample_dir, release, ignore=shutil.ignore_patterns("books"))
    out_dir = tmp_path / "imported"
    ok = run("data", "import", "--root", release, "--out", out_dir)
    assert ok.returncode == 0, ok.stderr
    assert sorted(p.name for p in out_dir.iterdir()) == [
        "application.json",
        "guidance.json",
        "instructions_with_answer.json",
        "instructions_with_answer_multi.json",
        "instructions_without_answer.json",
        "transfer.json",
    ]
    before = {p.name: p.read_bytes() for p in out_dir.iterdir()}

    payload = json.loads((release / "transfer_problems.json").read_text())
    payload[2]["sub_problems"][0]["answer"] = ""
    (release / "transfer_problems.json").write_text(json.dumps(payload))
    failed = run("data", "import", "--root", release, "--out", out_dir)
    assert failed.returncode == 2
    assert "transfer_problems.json" in failed.stderr
    assert f"record 2 (source_problem_id={payload[2]['source_problem_id']})" in failed.stderr
    assert "field sub_problems[0].answer" in failed.stderr
    assert {p.name: p.read_bytes() for p in out_dir.iterdir()} == before  # nothing written
