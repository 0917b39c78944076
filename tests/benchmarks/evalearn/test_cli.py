"""``studybench evalearn import|check`` and ``studybench metrics sequential`` as a user runs
them: both release versions, an error that names file, record and field, a missing
position (``null``) and a bad outcome value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.entry import run
from tests.conftest import ROOT, SAMPLE


@pytest.mark.parametrize(("folder", "version"), [("", "newest"), ("2025-06", "2025-06")])
def test_import_both_versions(folder: str, version: str, tmp_path: Path) -> None:
    source = SAMPLE / "evalearn" / folder
    out = tmp_path / "imported"
    args = ["evalearn", "import", source / "evalearn_problems.json",
            source / "evalearn_sequences.json", "--out", out]  # fmt: skip
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert (
        f"EvaLearn {version} version" in done.stdout and "36 problems, 5 sequences" in done.stdout
    )
    assert (
        "(written)" in done.stdout and f"evalearn.problems: {out / 'problems.json'}" in done.stdout
    )
    assert ("empty-canonical-answer" in done.stderr) is (version == "2025-06")
    again = run(*args, "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["written"] is False
    check = run("evalearn", "check", out / "problems.json", out / "sequences.json")
    assert check.returncode == 0 and "36 problems, 5 sequences valid" in check.stdout


def test_import_errors_name_file_record_and_field(tmp_path: Path) -> None:
    problems = json.loads((SAMPLE / "evalearn" / "evalearn_problems.json").read_text())
    problems[2]["rubric_zh"] = 7
    (tmp_path / "p.json").write_text(json.dumps(problems))
    sequences = SAMPLE / "evalearn" / "evalearn_sequences.json"
    done = run("evalearn", "import", tmp_path / "p.json", sequences, "--out", tmp_path / "o")
    assert done.returncode == 2
    assert f"{tmp_path / 'p.json'}: record 2 (id=3): field rubric_zh: error invalid-field" in (
        done.stderr
    )
    assert not (tmp_path / "o").exists()
    full = run("evalearn", "check", tmp_path / "p.json", sequences, "--full-release")
    assert full.returncode == 2


def test_check_reads_the_params_entry() -> None:
    done = run("evalearn", "check", "--params", ROOT / "params.yaml", "--full-release")
    assert done.returncode == 2 and "the release has 648 valid problems, this file 36" in (
        done.stderr
    )
    plain = run("evalearn", "check", "--params", ROOT / "params.yaml", cwd=ROOT)
    assert plain.returncode == 0, plain.stderr


def test_metrics_sequential_null_is_a_missing_position(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.json"
    path.write_text(json.dumps({"T": [[1, None, 1], [0]]}))
    done = run("metrics", "sequential", path, "--warmup", "1")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["acc"] == pytest.approx(1 / 3) and payload["first_correct"] == 2.5
    assert payload["curve"] == pytest.approx([0.5, 0.0, 0.5])
    for bad, message in (
        ({"T": [0.5]}, "task type 'T', sequence 0: expected a list of outcomes"),
        ({"T": [[1, 0.5]]}, "sequence 0, position 2: outcomes must be 0, 1 or null"),
    ):
        path.write_text(json.dumps(bad))
        failed = run("metrics", "sequential", path)
        assert failed.returncode == 2 and message in failed.stderr
        assert "Traceback" not in failed.stderr
