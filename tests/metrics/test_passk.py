from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.metrics.passk import VerdictRow, guidance_gap_closed, score, unbiased_pass_at_k

CASES = json.loads(Path(__file__).with_name("passk_cases.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hand_computed_tables(case: dict[str, Any]) -> None:
    rows = [
        VerdictRow(parent=p, slot=s, seed=seed, attempt=a, correct=c)
        for p, s, seed, a, c in case["rows"]
    ]
    result = score(rows, case["slots_of"], k=case["k"])
    expect = case["expect"]
    assert result.k == expect["k"]
    assert [(s.seed, s.par, s.sub) for s in result.per_seed] == [
        (seed, pytest.approx(par), pytest.approx(sub)) for seed, par, sub in expect["per_seed"]
    ]
    for field in (
        "par_mean", "par_std", "par_pstd", "sub_mean", "sub_std", "sub_pstd",
        "par_unbiased", "par_unbiased_se", "sub_unbiased", "sub_unbiased_se",
    ):  # fmt: skip
        assert getattr(result, field) == pytest.approx(expect[field], abs=1e-9), field


@pytest.mark.parametrize(
    ("n", "c", "k", "value"),
    [(4, 1, 2, 0.5), (4, 2, 2, 5 / 6), (24, 0, 8, 0.0), (24, 24, 8, 1.0), (8, 1, 8, 1.0)],
)
def test_unbiased_estimator(n: int, c: int, k: int, value: float) -> None:
    assert unbiased_pass_at_k(n, c, k) == pytest.approx(value)


def test_estimator_needs_k_samples() -> None:
    with pytest.raises(ValueError, match="needs at least 8"):
        unbiased_pass_at_k(4, 1, 8)


def test_breakdowns() -> None:
    rows = [
        VerdictRow(parent="P1", slot="a", seed=0, attempt=0, correct=True),
        VerdictRow(parent="P2", slot="a", seed=0, attempt=0, correct=False),
        VerdictRow(parent="P2", slot="b", seed=0, attempt=0, correct=True),
    ]
    groups = {
        "source": {"P1": "BookA", "P2": "BookB"},
        "slot:answer_type": {"P1|a": "NV", "P2|a": "NV", "P2|b": "EX"},
    }
    result = score(rows, groups=groups)
    assert result.breakdowns["source"]["BookA"] == {"par": 1.0, "sub": 1.0, "n": 1}
    assert result.breakdowns["source"]["BookB"] == {"par": 0.0, "sub": 0.5, "n": 1}
    assert result.breakdowns["slot:answer_type"]["NV"] == {"sub": 0.5, "n": 2}
    assert result.breakdowns["slot:answer_type"]["EX"] == {"sub": 1.0, "n": 1}


def test_guidance_gap_closed() -> None:
    assert guidance_gap_closed(0.30, 0.20, 0.60) == pytest.approx(0.25)
    assert guidance_gap_closed(0.30, 0.20, 0.20) is None
