"""The boundaries of the decision rule and Holm (metrics/decisions.py), from its docstring.

A metric changes only when its adjusted p-value is at most alpha, its interval lies strictly
on one side of zero and the difference is at least the minimum effect; anything NaN decides
nothing. Found unchecked by mutation testing (issue 26): the defaults (alpha 0.05, no minimum
effect), an interval touching zero, a gain of exactly the minimum effect, each NaN alone.
"""

from __future__ import annotations

import math

import pytest

from studybench.metrics.decisions import decide, holm

NAN = math.nan


@pytest.mark.parametrize(
    ("diff", "low", "high", "p", "expect"),
    [
        (-0.04, -0.07, -0.01, 0.05, "regressed"),  # default alpha 0.05, p at alpha
        (-0.04, -0.07, -0.01, 0.0501, "unchanged"),  # just above the default alpha
        (0.04, 0.01, 0.07, 0.05, "improved"),
        (0.0001, 0.00005, 0.0002, 0.01, "improved"),  # default minimum effect 0: any gain
        (-0.0001, -0.0002, -0.00005, 0.01, "regressed"),
        (-0.04, -0.07, 0.0, 0.01, "unchanged"),  # the interval touches zero
        (0.04, 0.0, 0.07, 0.01, "unchanged"),
        (NAN, -0.07, -0.01, 0.01, "unchanged"),  # each NaN alone decides nothing
        (-0.04, NAN, -0.01, 0.01, "unchanged"),
        (0.04, 0.01, NAN, 0.01, "unchanged"),
        (-0.04, -0.07, -0.01, NAN, "unchanged"),
    ],
)
def test_decide_with_the_defaults(
    diff: float, low: float, high: float, p: float, expect: str
) -> None:
    assert decide(diff, low, high, p) == expect


@pytest.mark.parametrize(
    ("diff", "low", "high", "expect"),
    [
        (0.02, 0.01, 0.03, "improved"),  # a gain of exactly the minimum effect counts
        (0.0199, 0.01, 0.03, "unchanged"),
        (-0.02, -0.03, -0.01, "regressed"),
        (-0.0199, -0.03, -0.01, "unchanged"),
    ],
)
def test_the_minimum_effect_is_inclusive(diff: float, low: float, high: float, expect: str) -> None:
    assert decide(diff, low, high, 0.001, min_effect=0.02) == expect


def test_a_looser_alpha_is_honoured() -> None:
    assert decide(-0.04, -0.07, -0.01, 0.08, alpha=0.1) == "regressed"
    assert decide(0.04, 0.01, 0.07, 0.1, alpha=0.1) == "improved"
    assert decide(0.04, 0.01, 0.07, 0.1) == "unchanged"


def test_holm_of_one_p_value_is_that_p_value() -> None:
    assert holm([0.03]) == [0.03]
    assert holm([0.03], alpha=0.01) == [0.03]  # alpha decides, it does not adjust
    assert holm([0.2, 0.01, 0.3]) == pytest.approx([0.4, 0.03, 0.4])
