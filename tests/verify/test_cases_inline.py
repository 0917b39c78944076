"""The case tables (cases/*.jsonl) judged in the calling process (``judge_inline``).

``test_rules.py`` runs the same tables through the production path, the process pool. This
file runs them where a test can see which code judged each case: mutation testing (issue 26,
``make mutation``) maps tests to the functions they call inside the test process, and the
pool's workers are other processes. ~1,300 cases, about 12 s on one core.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.verify import judge_inline

CASE_DIR = Path(__file__).with_name("cases")
OPTIONS = ("type_sequence", "tolerance", "question")


def _load() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in sorted(CASE_DIR.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                cases.append((f"{path.stem}:{number}", json.loads(line)))
    return cases


CASES = _load()


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[case_id for case_id, _ in CASES])
def test_case_inline(case_id: str, case: dict[str, Any]) -> None:
    options = {name: case[name] for name in OPTIONS if name in case}
    verdict = judge_inline(case["pred"], case["gold"], case["answer_type"], **options)
    assert verdict.correct is case["expect"], (
        f"{case_id} {case.get('note', '')}: got {verdict.reason}, extracted "
        f"{verdict.extracted} vs gold {verdict.normalized_gold}"
    )
    if "reason" in case:  # the rule that decided, or why not (README "The rule-based verifier")
        assert verdict.reason == case["reason"], f"{case_id} {case.get('note', '')}"
