"""Holm on known p-values, the decision rule's case table, and what a split can detect."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

from studybench.metrics.clustered import cluster_tables
from studybench.metrics.decisions import decide, holm
from studybench.metrics.items import ItemRow
from studybench.metrics.power import minimum_detectable_effect, power_sentence, split_mde

CASES = json.loads(Path(__file__).with_name("decision_cases.json").read_text())["cases"]


def test_holm_on_known_p_values() -> None:
    # sorted .005, .01, .03, .04 -> 4*.005=.02, 3*.01=.03, 2*.03=.06, max(.06, 1*.04)=.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([]) == []


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    st.lists(
        st.one_of(
            st.floats(0.0, 1.0),
            st.sampled_from([0.0, 0.01, 0.05, 0.5, 1.0]),  # ties and the ends
        ),
        min_size=1,
        max_size=12,
    )
)
def test_holm_equals_statsmodels(p_values: list[float]) -> None:
    """statsmodels' ``multipletests(method="holm")`` as the independent oracle (its
    ``gc.collect()`` skipped: seconds per call in a full test session)."""
    with mock.patch("gc.collect", return_value=0):
        _, expected, _, _ = multipletests(p_values, alpha=0.05, method="holm")
    assert holm(p_values) == pytest.approx(list(expected), abs=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_decision_cases(case: dict[str, Any]) -> None:
    low, high = (math.nan if v is None else v for v in case["ci"])
    got = decide(
        case["diff"],
        low,
        high,
        case["p_adjusted"],
        alpha=case["alpha"],
        min_effect=case["min_effect"],
    )
    assert got == case["expect"]


def test_minimum_detectable_effect_solves_the_paired_t_power_equation() -> None:
    sd, n = 0.2, 90
    mde = minimum_detectable_effect(sd, n, alpha=0.05, power=0.8)
    # check against the noncentral t distribution directly
    t_crit = stats.t.ppf(0.975, n - 1)
    nc = mde / sd * math.sqrt(n)
    achieved = stats.nct.sf(t_crit, n - 1, nc) + stats.nct.cdf(-t_crit, n - 1, nc)
    assert achieved == pytest.approx(0.8, abs=1e-3)  # the closed form (power.py), not a root
    # normal approximation (z_.975 + z_.8) * sd / sqrt(n) is within a few percent
    assert mde == pytest.approx(2.8016 * sd / math.sqrt(n), rel=0.03)
    assert minimum_detectable_effect(0.0, n) == 0.0
    assert math.isnan(minimum_detectable_effect(0.2, 1))


def test_split_mde_from_the_seed_spread() -> None:
    # every parent solved in exactly one seed of two: sigma_w^2 = 1/2, sd_diff = sqrt(2*.5/2)
    rows = [
        ItemRow(
            split="application",
            parent=f"p{i}",
            slot="0",
            seed=s,
            attempt=0,
            correct=(i + s) % 2 == 0,
        )
        for i in range(40)
        for s in range(2)
    ]
    (table,) = cluster_tables(rows).values()
    assert split_mde(table, "par_at_k") == pytest.approx(
        minimum_detectable_effect(math.sqrt(0.5), 40)
    )


def test_power_sentence() -> None:
    sentence = power_sentence("application", "par_at_8", 0.061, 0.02)
    assert sentence is not None
    assert sentence.startswith(
        "application: this split cannot detect a drop smaller than 6.1 points"
    )
    assert power_sentence("application", "par_at_8", 0.015, 0.02) is None
    assert power_sentence("application", "par_at_8", math.nan, 0.02) is None
