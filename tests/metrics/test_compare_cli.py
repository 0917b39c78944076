"""``studybench metrics compare`` through the entry point: mixed instruments are refused in one
line (exit 2), and the JSON states the method, both targets and the instruments used."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.entry import run


def _table(path: Path, verifier: str, judge: str = "judge-1", flip: bool = False) -> Path:
    with path.open("w") as handle:
        for p in range(12):
            for s in range(3):
                for a in range(2):
                    row = {
                        "split": "application",
                        "parent": f"p{p}",
                        "slot": "0",
                        "seed": s,
                        "attempt": a,
                        "correct": ((p + s + a) % 3 == 0) != (flip and p < 6),
                        "verifier_version": verifier,
                        "judge_version": judge,
                    }
                    handle.write(json.dumps(row) + "\n")
    return path


def test_a_comparison_of_two_verifier_versions_is_refused(tmp_path: Path) -> None:
    old = _table(tmp_path / "old.jsonl", "verify-3")
    new = _table(tmp_path / "new.jsonl", "verify-4")
    result = run("metrics", "compare", "--baseline", old, "--candidate", new, "--json")
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.stderr
    for word in ("verifier version differs", "verify-3", "verify-4", "studybench rescore"):
        assert word in lines[0]


def test_the_json_names_the_method_targets_and_instruments(tmp_path: Path) -> None:
    base = _table(tmp_path / "a.jsonl", "verify-3")
    cand = _table(tmp_path / "b.jsonl", "verify-3", flip=True)
    args = ("--baseline", base, "--candidate", cand, "--json", "--resamples", "999")
    result = run("metrics", "compare", *args)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["instruments"] == {"verifier_version": "verify-3", "judge_version": "judge-1"}
    assert (payload["target"], payload["multiplicity"]) == ("this_benchmark", "westfall-young")
    assert "sign-flip" in payload["method"] and payload["warnings"] == []
    assert set(payload["par_at_k"]["targets"]) == {"this_benchmark", "problems_like_these"}
    holm = json.loads(run("metrics", "compare", *args, "--holm").stdout)
    assert holm["multiplicity"] == "holm"
    other = run("metrics", "compare", *args, "--target", "problems_like_these")
    assert json.loads(other.stdout)["target"] == "problems_like_these"
    bad = run("metrics", "compare", *args, "--target", "everything")
    assert bad.returncode == 2 and "--target" in bad.stderr
