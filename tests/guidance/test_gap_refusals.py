"""A Guidance Gap is refused unless the base run is the unguided model, the guided run the same
model with guidance, and all three runs share protocol and problems (cases in
gap_refusal_cases.json, applied to copies of three real judged run folders); the CLI says so
in one line with exit code 2; MLflow logging of a refused pair logs no gap and says why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.studybench.guidance_gap import gap_from_run_dirs
from studybench.metrics.guidance_gap import GapRefusedError
from tests.cli.entry import run
from tests.guidance.test_gap import judged
from tests.tracking.conftest import settings_for

CASES: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("gap_refusal_cases.json").read_text()
)


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gap_refusal_runs")
    return {
        "base": judged(root / "base", 0, model="base"),
        "guided": judged(root / "guided", 3, model="base", guided=True),
        "method": judged(root / "method", 1, model="base-sft"),
    }


def _apply(runs: dict[str, Path], case: dict[str, Any], tmp: Path) -> dict[str, Path]:
    out = {name: Path(shutil.copytree(path, tmp / name)) for name, path in runs.items()}
    for edit in case["edits"]:
        folder = out[edit["run"]]
        if "manifest" in edit:
            manifest = json.loads((folder / "run.json").read_text())
            (folder / "run.json").write_text(json.dumps({**manifest, **edit["manifest"]}))
        if "question" in edit:
            parents = json.loads((folder / "generations.json").read_text())
            parents[0]["attempts"][0]["completions"][0]["problem"] += edit["question"]
            (folder / "generations.json").write_text(json.dumps(parents))
    if case.get("swap"):
        out["base"], out["guided"] = out["guided"], out["base"]
    return out


def test_the_good_triple_is_accepted(good: dict[str, Path]) -> None:
    gap = gap_from_run_dirs(good["method"], good["base"], good["guided"])
    assert gap.parent.closed == pytest.approx(1 / 3)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_mismatched_references_are_refused(
    good: dict[str, Path], case: dict[str, Any], tmp_path: Path
) -> None:
    runs = _apply(good, case, tmp_path)
    with pytest.raises(GapRefusedError) as refused:
        gap_from_run_dirs(runs["method"], runs["base"], runs["guided"])
    for expected in case["says"]:
        assert expected in str(refused.value), (case["why"], str(refused.value))
    assert not (runs["method"] / "guidance_gap.json").exists()


def test_cli_refuses_a_swapped_pair_in_one_line(good: dict[str, Path], tmp_path: Path) -> None:
    runs = _apply(good, CASES[0], tmp_path)
    done = run(
        "guidance", "gap", runs["method"], "--base", runs["base"], "--guided", runs["guided"]
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("error:")]
    assert "guidance gap refused" in line and str(runs["base"]) in line
    assert not (runs["method"] / "guidance_gap.json").exists()


def test_mlflow_logs_no_gap_for_a_swapped_pair(good: dict[str, Path], tmp_path: Path) -> None:
    from studybench.pipeline.results import log_split_dirs as log_evaluation
    from studybench.tracking.mlflow_log import client_for

    settings = settings_for(tmp_path)
    base_id = log_evaluation([good["base"]], settings)
    guided_id = log_evaluation([good["guided"]], settings)
    gap = settings.guidance.gap.model_copy(update={"base_run": guided_id, "guided_run": base_id})
    swapped = settings.model_copy(
        update={"guidance": settings.guidance.model_copy(update={"gap": gap})}
    )
    method_id = log_evaluation([good["method"]], swapped)
    logged = client_for(settings).get_run(method_id).data
    assert not any("guidance_gap" in m for m in logged.metrics)
    assert "used guidance (it must be unguided)" in logged.tags["guidance_gap.refused"]
