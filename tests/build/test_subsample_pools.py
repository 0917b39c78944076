"""Application subsampling (table-driven) and pool validation errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.build.capability import ParentOutcome
from studybench.build.pools import load_pool
from studybench.build.subsample import SubsampleRule, select_application
from studybench.errors import DataError
from tests.conftest import SAMPLE

CASES: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("subsample_cases.json").read_text()
)["cases"]


def outcomes(table: dict[str, list[int]]) -> list[ParentOutcome]:
    return [
        ParentOutcome(
            parent=f"{subject}{i}",
            source="B",
            problem_type=subject,
            slots=1,
            attempts=8,
            solved_attempts=solved,
        )
        for subject, solved_list in table.items()
        for i, solved in enumerate(solved_list)
    ]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_subsampling_rules(case: dict[str, Any]) -> None:
    pool = outcomes(case["outcomes"])
    selection = select_application(pool, SubsampleRule(**case["rule"]))
    assert {s.problem_type: s.selected for s in selection.subjects} == case["selected"]
    assert sorted(selection.one_of_k) == case["one_of_k"]
    assert (len(selection.returned), len(selection.solved)) == (case["returned"], case["solved"])
    everyone = selection.selected + selection.returned + selection.solved
    assert sorted(everyone) == sorted(o.parent for o in pool)  # each parent in one place
    again = select_application(pool, SubsampleRule(**case["rule"]))
    assert again == selection  # seeded


def test_the_seed_changes_the_draw_only_within_subjects() -> None:
    pool = outcomes({"M": [0] * 10, "E": [0] * 10})
    draws = {
        tuple(select_application(pool, SubsampleRule(per_type_cap=3, seed=s)).selected)
        for s in range(6)
    }
    assert len(draws) > 1


def test_pool_errors_name_file_record_and_field(tmp_path: Path) -> None:
    records = json.loads((SAMPLE / "transfer_problems.json").read_text())
    bad = tmp_path / "textbook.json"
    bad.write_text(json.dumps(records[:2]))
    with pytest.raises(DataError, match=r"textbook\.json: record 0 .*field source_kind"):
        load_pool(bad, "textbook")
    records[1]["problem_type"] = ""
    empty_type = tmp_path / "competition.json"
    empty_type.write_text(json.dumps(records[:2]))
    with pytest.raises(DataError, match=r"record 1 .*field problem_type"):
        load_pool(empty_type, "competition")
    records[1]["sub_problems"][0]["answer"] = ""
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(records[:2]))
    with pytest.raises(DataError, match=r"broken\.json"):
        load_pool(broken, "competition")
    (tmp_path / "none.json").write_text('{"data": []}')
    with pytest.raises(DataError, match="no parent record"):
        load_pool(tmp_path / "none.json", "textbook")
