"""The case tables (cases/*.jsonl): equivalent forms that must pass, near misses that must
fail, for every answer type. Run through the production path (the process pool)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from studybench.verify import Verdict, Verifier

CASE_DIR = Path(__file__).with_name("cases")


def _load() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(CASE_DIR.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                cases.append((f"{path.stem}:{number}", json.loads(line)))
    return cases


CASES = _load()


@pytest.fixture(scope="module")
def verdicts() -> dict[str, Verdict]:
    with Verifier(workers=2, timeout_s=5.0) as verifier:
        results = verifier.verify_many([case for _, case in CASES])
    return {case_id: verdict for (case_id, _), verdict in zip(CASES, results, strict=True)}


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[case_id for case_id, _ in CASES])
def test_case(case_id: str, case: dict[str, Any], verdicts: dict[str, Verdict]) -> None:
    verdict = verdicts[case_id]
    assert verdict.correct is case["expect"], (
        f"{case.get('note', '')}: got {verdict.reason}, extracted {verdict.extracted} "
        f"vs gold {verdict.normalized_gold}"
    )
    assert verdict.reason != "timeout"
    if "reason" in case:  # the rule that decided, or why not (README "The rule-based verifier")
        assert verdict.reason == case["reason"], f"{case_id} {case.get('note', '')}"


def test_tables_cover_every_type_both_ways() -> None:
    assert len(CASES) >= 400
    by_type: Counter[tuple[str, bool]] = Counter(
        (case["answer_type"], case["expect"]) for _, case in CASES
    )
    for answer_type in ("NV", "EX", "EQ", "IN", "MC", "TF", "QL", "TUP", "ALT"):
        assert by_type[(answer_type, True)] >= 5, answer_type
        assert by_type[(answer_type, False)] >= 5, answer_type


ISSUE_21_CLASSES = (
    "form_notation",
    "form_relations",
    "form_units",
    "form_unitless",
    "form_symbolic",
    "form_equations",
    "form_composite",
    "hole_unitless_any_unit",
    "hole_alt_guesses",
    "hole_large_term",
)


@pytest.mark.parametrize("name", ISSUE_21_CLASSES)
def test_each_class_has_forms_to_accept_and_wrong_answers(name: str) -> None:
    rows = [case for case_id, case in CASES if case_id.split(":")[0] == name]
    assert len(rows) >= 8, name
    assert sum(case["expect"] for case in rows) >= 3, name
    assert sum(not case["expect"] for case in rows) >= 3, name
