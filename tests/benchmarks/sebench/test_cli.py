"""``studybench sebench``: package, validate, training-data (with the overlap guard)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from studybench.cli import app
from tests.conftest import ROOT

from .conftest import SAMPLE_TASKS

runner = CliRunner()


def invoke(*args: str, tmp_path: Path) -> tuple[int, str]:
    env = {"STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work")}
    result = runner.invoke(app, [*args, "--params", str(ROOT / "params.yaml")], env=env)
    return result.exit_code, result.output + str(result.exception or "")


def test_validate_and_package(tmp_path: Path) -> None:
    code, output = invoke("sebench", "validate", str(SAMPLE_TASKS), tmp_path=tmp_path)
    assert code == 0 and "25 tasks valid (multi 11, single 14)" in output
    code, output = invoke("sebench", "package", str(tmp_path / "pkg"), tmp_path=tmp_path)
    assert code == 0 and "278 functions" in output
    (root,) = (tmp_path / "pkg").glob("zwc-*")
    assert {p.name for p in root.iterdir()} >= {"zwc", "mapping.json", "api_docs.json"}


def test_training_data_refuses_evaluation_tasks(tmp_path: Path) -> None:
    out = tmp_path / "closed.jsonl"
    args = ("sebench", "training-data", "--reference", "--setting", "closed", "--out", str(out))
    code, output = invoke(*args, tmp_path=tmp_path)
    assert code != 0 and "train/test overlap" in output and not out.exists()
    train = [dict(t, id=f"train-{t['id']}") for t in json.loads(SAMPLE_TASKS.read_text())[:3]]
    tasks = tmp_path / "train.json"
    tasks.write_text(json.dumps(train))
    code, output = invoke(*args, "--tasks", str(tasks), tmp_path=tmp_path)
    assert code == 0, output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 3 and lines[0]["setting"] == "closed"
    assert [m["role"] for m in lines[0]["messages"]] == ["user", "assistant"]
    assert "import zwc" in lines[0]["messages"][1]["content"]
    assert "numpy" not in out.read_text().lower()
    manifest = json.loads(out.with_suffix(".manifest.json").read_text())
    assert manifest["examples"] == 3 and manifest["sources"] == ["reference"]


def test_import_the_release_format(tmp_path: Path) -> None:
    release = ROOT / "data" / "sample" / "sebench" / "release"
    out = tmp_path / "imported.json"
    files = [str(release / f"{n}.jsonl") for n in ("single_test", "multiple_test")]
    code, output = invoke("sebench", "import", *files, "--out", str(out), tmp_path=tmp_path)
    assert code == 0, output
    assert f"{out}: 7 tasks (multi 3, single 4)" in output
    code, output = invoke("sebench", "validate", str(out), tmp_path=tmp_path)
    assert code == 0 and "7 tasks valid" in output
    broken = tmp_path / "single_test.jsonl"
    broken.write_text('{"query": "q"}\n')
    code, output = invoke("sebench", "import", str(broken), "--out", str(out), tmp_path=tmp_path)
    assert code != 0 and f"{broken}: line 1: field function_name: missing" in output
