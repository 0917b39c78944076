"""The honest-cell rules of the main table (``studybench.paper.table``), one case table per
rule family: which runs make a cell, when a cell is mixed, incomplete or missing, and which
row and block a run belongs to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.paper.records import PaperRun
from studybench.paper.table import Column, build_cell

HERE = Path(__file__).parent
CELLS = json.loads((HERE / "cell_cases.json").read_text())
METHODS = json.loads((HERE / "method_cases.json").read_text())
COLUMN = Column(split="memorisation", k=1, metric="par")


def make_run(spec: dict[str, Any], defaults: dict[str, Any]) -> PaperRun:
    metric = spec.get("metric", COLUMN.key)
    metrics = {f"{metric}_mean": spec["mean"]}
    if "std" in spec:
        metrics[f"{metric}_std"] = spec["std"]
    return PaperRun(
        run_id=spec["run_id"],
        start_time=spec.get("start_time", 0),
        tags={**defaults["tags"], **spec.get("tags", {})},
        params={**defaults["params"], **spec.get("params", {})},
        metrics=metrics,
        seeds=spec.get("seeds", defaults["seeds"]),
    )


@pytest.mark.parametrize("case", CELLS["cases"], ids=[c["rule"] for c in CELLS["cases"]])
def test_cell_rules(case: dict[str, Any]) -> None:
    runs = [make_run(r, CELLS["defaults"]) for r in case["runs"]]
    cell = build_cell(runs, COLUMN)
    assert cell.state == case["state"]
    assert cell.mean == case["mean"]
    assert cell.runs == case["runs_used"]
    assert cell.superseded == case.get("superseded", [])
    assert case["note"] in cell.note
    if not case["note"]:
        assert cell.note == ""


@pytest.mark.parametrize(
    "case", METHODS["cases"], ids=[m["method"] + str(i) for i, m in enumerate(METHODS["cases"])]
)
def test_row_of_a_run(case: dict[str, Any]) -> None:
    run = PaperRun(run_id="r", tags=case["tags"], params=case["params"])
    assert run.method == case["method"]
    if "base" in case:
        assert run.base_model == case["base"]
