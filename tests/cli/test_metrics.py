"""``studybench metrics ...`` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.entry import run


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
