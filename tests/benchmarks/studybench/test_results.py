"""StudyBench's judged split folders as a BenchmarkResult: the per-item rows (with the
``truncated`` flag), per-seed values, metric keys and artefact files."""

from __future__ import annotations

import json
from pathlib import Path

from studybench.benchmarks.studybench.items import join
from studybench.benchmarks.studybench.results import studybench_result
from tests.tracking.conftest import judged_run, settings_for


def _cut_first_completion(run_dir: Path, how: str) -> None:
    """Make one completion of ``generations.json`` cut off (before judging again)."""
    path = run_dir / "generations.json"
    parents = json.loads(path.read_text())
    slot = parents[0]["attempts"][0]["completions"][0]
    if how == "length":
        slot["raw_response"] = {"finish_reason": "length"}
    else:
        slot["completion"] = "<think>still thinking \\boxed{1}"
    path.write_text(json.dumps(parents))


def test_rows_per_seed_and_files(sample_dir: Path, tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    run_dir = judged_run(tmp_path / "run", sample_dir)
    _cut_first_completion(run_dir, "length")
    result = studybench_result([run_dir], settings, tmp_path / "out")
    joined = join(run_dir)
    assert len(result.items) == len(joined) == 6  # 3 parents x 2 seeds x 1 attempt
    assert {(r.benchmark, r.split) for r in result.items} == {("studybench", "application")}
    assert sum(r.truncated for r in result.items) == 1
    assert {r.stage for r in result.items} <= {"rule", "rule_only", "judge"}
    assert sum(r.correct for r in result.items) == 2  # "right" in both seeds
    assert sorted((v.part, v.seed) for v in result.per_seed) == [
        ("application", 0),
        ("application", 1),
    ]
    assert (
        result.metrics["application/par_at_1_mean"] == result.metrics["application/sub_at_1_mean"]
    )
    files = {p.name for p in (tmp_path / "out" / "application").iterdir()}
    assert {"generations.jsonl.gz", "verdicts.jsonl.gz", "report.md", "report.json"} <= files


def test_an_unterminated_think_is_truncated(sample_dir: Path, tmp_path: Path) -> None:
    run_dir = judged_run(tmp_path / "run", sample_dir)
    _cut_first_completion(run_dir, "think")
    flags = [j.truncated for j in join(run_dir)]
    assert flags.count(True) == 1 and flags[0]
