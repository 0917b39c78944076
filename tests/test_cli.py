"""The CLI as a user runs it: the installed ``studybench`` entry point in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studybench.data import load_split

STUDYBENCH = str(Path(sys.executable).with_name("studybench"))


def run(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    return subprocess.run(
        [STUDYBENCH, *map(str, args)], capture_output=True, text=True, env=full_env, timeout=120
    )


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


def test_config_show_and_bad_override() -> None:
    root = Path(__file__).resolve().parents[1]
    shown = run("config", "show", "--json", "--params", root / "params.yaml")
    assert shown.returncode == 0
    assert json.loads(shown.stdout)["protocol"]["k"] == 8
    bad = run(
        "config", "show", "--params", root / "params.yaml", env={"STUDYBENCH__PROTOCOL__X": "1"}
    )
    assert bad.returncode == 2
    assert "STUDYBENCH__PROTOCOL__X: unknown key 'protocol.x'" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("args", [["--help"], ["data", "--help"], ["data", "validate", "--help"]])
def test_help(args: list[str]) -> None:
    assert run(*args).returncode == 0


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


def test_corpus_commands_beside_each_chapter(sample_dir: Path, tmp_path: Path) -> None:
    books = tmp_path / "books"
    shutil.copytree(sample_dir / "books", books)
    split = sample_dir / "application_problems.json"
    assert run("corpus", "ocr-fix", "--books", books).returncode == 0
    assert len(list(books.rglob("ocrfix.md"))) == 4
    dirty = run("corpus", "audit", "--eval", split, "--books", books, "--name", "ocrfix.md")
    assert dirty.returncode == 1
    assert "residue hit(s)" in dirty.stdout and "ocrfix.md:" in dirty.stderr
    redacted = run("corpus", "redact", "--eval", split, "--books", books)
    assert redacted.returncode == 0, redacted.stderr
    assert len(list(books.rglob("ocrfix.redacted.md"))) == 4
    report = json.loads((books / "redaction_report.json").read_text())
    assert len(report["items"]) == 17
    clean = run("corpus", "audit", "--eval", split, "--books", books)
    assert clean.returncode == 0, clean.stderr
    fragments = run("corpus", "fragments", "--books", books, "--out", tmp_path / "f.jsonl")
    assert fragments.returncode == 0
    lines = (tmp_path / "f.jsonl").read_text().splitlines()
    kinds = {json.loads(line)["fragment_type"] for line in lines}
    assert kinds == {"exposition", "worked_example", "exercises"}


def test_metrics_passk_cli(tmp_path: Path) -> None:
    rows = [
        ("P1", "a", 0, 0, True), ("P1", "a", 1, 0, False),
        ("P2", "a", 0, 0, True), ("P2", "b", 0, 0, False),
        ("P2", "a", 1, 0, True), ("P2", "b", 1, 0, True),
    ]  # fmt: skip
    path = tmp_path / "verdicts.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"parent": p, "slot": s, "seed": seed, "attempt": a, "correct": c})
            for p, s, seed, a, c in rows
        )
    )
    result = run("metrics", "passk", path)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["k"] == 1 and payload["seeds"] == [0, 1]
    assert payload["per_seed"]["0"] == {"par": 0.5, "sub": 2 / 3}
    assert payload["per_seed"]["1"] == {"par": 0.5, "sub": 2 / 3}
    assert payload["par_mean"] == 0.5 and payload["par_std"] == 0.0
    path.write_text('{"parent": "P1", "slot": "a", "seed": "x", "attempt": 0, "correct": true}')
    bad = run("metrics", "passk", path)
    assert bad.returncode == 2 and "line 1: seed" in bad.stderr


def test_metrics_sequential_cli(tmp_path: Path) -> None:
    path = tmp_path / "outcomes.json"
    path.write_text(json.dumps({"math": [[0, 1, 1], [0, 0, 1]], "logic": [[1, 1, 1]]}))
    result = run("metrics", "sequential", path, "--warmup", "1")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["slope"] == 0.25 and payload["first_correct"] == 1.75
    assert payload["longest_streak"] == 2.25 and payload["curve"] == [0.5, 0.75, 1.0]
    assert abs(payload["acc"] - 6 / 9) < 1e-12 and abs(payload["post_warmup_acc"] - 5 / 6) < 1e-12


def test_eval_on_the_sample_with_the_tiny_model(
    tiny_model: Path, sample_dir: Path, tmp_path: Path
) -> None:
    from tests.engines.fake_openai import fake_openai

    calls = {"n": 0}

    def script(body: dict[str, object]) -> tuple[int, str, float]:
        calls["n"] += 1
        return 200, "garbled judge reply" if calls["n"] % 5 == 0 else "VERDICT: FALSE", 0

    with fake_openai(script) as (url, received):
        env = {
            "STUDYBENCH__JUDGE__BASE_URL": url,
            "STUDYBENCH__JUDGE__MAX_RETRIES": "0",
            "STUDYBENCH__PATHS__CACHE_DIR": str(tmp_path / "cache"),
            "STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"),
            "STUDYBENCH__DATA__APPLICATION_SPLIT": str(sample_dir / "application_problems.json"),
        }
        args = ["eval", "--model", str(tiny_model), "--engine", "hf", "--split", "application",
                "--out", str(tmp_path / "run"), "--seeds", "0,1", "--k", "1",
                "--max-new-tokens", "8"]  # fmt: skip
        first = run(*args, env=env)
        assert first.returncode == 0, first.stdout + first.stderr
        assert "62 generated" in first.stdout and "62 verified by rule" in first.stdout
        assert "Par@1" in first.stdout
        flagged = sum(1 for _ in received) // 5
        assert f"{flagged} flagged for the next run" in first.stdout
        assert "logged to MLflow (sqlite:///" in first.stdout  # tracking is on by default
        assert (tmp_path / "work" / "mlflow" / "mlflow.db").exists()
        run_id = first.stdout.split("logged to MLflow")[1].split("run ")[1].split()[0]

        again = run(*args, env=env)
        assert again.returncode == 0, again.stderr
        assert "0 generated, 62 reused" in again.stdout
        assert f"run {run_id}" in again.stdout  # the same MLflow run is updated
        assert f"{62 - flagged} verdict(s) reused" in again.stdout  # only flagged re-judged

        before = len(received)
        rejudge = run("judge", str(tmp_path / "run"), "--rejudge-errors", env=env)
        assert rejudge.returncode == 0, rejudge.stderr
        assert len(received) - before <= flagged

        report = run("report", str(tmp_path / "run"), "--json", env=env)
        payload = json.loads(report.stdout)
        assert payload["scores"]["seeds"] == [0, 1] and payload["scores"]["parents"] == 17
        assert payload["verdicts"] == 62 and payload["missing"] == 0
        markdown = run("report", str(tmp_path / "run"), "--markdown", env=env).stdout
        assert markdown.startswith("# ") and "| application |" in markdown
