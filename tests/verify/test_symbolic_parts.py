"""``symbolic.parts_agree`` and ``rounded_alike`` pinned where the case table
(cases/sound_decimal_scales.jsonl) reaches them only through whole answers: with decimals a
part far smaller or larger than the whole is still compared, at its own scale, and a gold
with its decimals rounded within the tolerance is the gold."""

from __future__ import annotations

from typing import Any

import pytest
import sympy

from studybench.verify.symbolic import (
    close_in_structure,
    numerically_equal,
    parts_agree,
    rounded_alike,
)

X, Y, T = sympy.symbols("x y t", positive=True)
F = sympy.Float
TOL = 0.01
SEED = "pred\x00gold"


@pytest.mark.parametrize(
    ("a", "b", "expect"),
    [
        (X + F("3e-45") * Y, X + F("6.6e-45") * Y, False),  # a small term's coefficient
        (F("293") + F("1.5") * T, F("293") + F("1.0") * T, False),  # a slope under a constant
        (X / (1 + F("3e-25") * Y), X / (1 + F("6.6e-25") * Y), False),  # in a denominator
        (sympy.sin(X + F("3e-25") * Y), sympy.sin(X + F("6.6e-25") * Y), False),
        (F("0.6") * (X + 340) ** 2, F("408") * X + F("69360"), False),  # x^2 dropped
        (F("0.6") * (X + 340) ** 2, F("0.6") * X**2 + F("408") * X + F("69360"), True),
        (10 * sympy.log(X / F("1e-12"), 10), 10 * sympy.log(X, 10) + 120, True),
        (F("-4.9") * (T - F("2.041")) ** 2 + F("20.41"), 20 * T - F("4.9") * T**2, True),
        (F("1.0") + F("0.5") * Y, sympy.sin(X) ** 2 + sympy.cos(X) ** 2 + F("0.5") * Y, True),
    ],
)
def test_parts_agree(a: Any, b: Any, expect: bool) -> None:
    assert parts_agree(a, b, TOL, SEED) is expect


def test_the_factor_scales_the_second_expression() -> None:
    a, b = X - F("1.8e10") * Y, X - F("9e9") * Y
    assert parts_agree(a, b, F("1e-6"), SEED, factor=2) is False  # x: 1 against 2
    assert parts_agree(2 * b, b, F("1e-6"), SEED, factor=2) is True


def test_values_below_1e40_are_compared_relative_to_their_size() -> None:
    assert numerically_equal(F("3e-45") * X, F("6.6e-45") * X, TOL, SEED) is False
    assert numerically_equal(F("6.6e-45") * X, F("6.6e-45") * X, TOL, SEED) is True


@pytest.mark.parametrize(
    ("a", "b", "expect"),
    [
        (sympy.exp(F("-455") * T), sympy.exp(-T / F("2.2e-3")), True),  # 0.1%
        (sympy.exp(F("-900") * T), sympy.exp(-T / F("2.2e-3")), False),  # the rate doubled
        (sympy.exp(F("-459.0") * T), sympy.exp(F("-455") * T), True),  # 0.88%: within
        (sympy.exp(F("-460.0") * T), sympy.exp(F("-455") * T), False),  # 1.1%: beyond
        (F("2.0") * X**3, F("2.0") * X**2, False),  # an exact number differs
        (F("2.0") * X + Y, F("2.0") * X + T, False),  # another symbol
        (X + Y, X + Y, False),  # no decimal: left to exact comparison
    ],
)
def test_rounded_alike(a: Any, b: Any, expect: bool) -> None:
    assert rounded_alike(a, b, TOL) is expect


def test_rounded_alike_distributes_products() -> None:
    a = 12 - 12 * sympy.exp(F("-454.5") * T)
    b = sympy.Mul(F("12.0"), 1 - sympy.exp(-T / F("2.2e-3")), evaluate=False)  # as parsed
    assert not close_in_structure(a, b, TOL)
    assert rounded_alike(a, b, TOL)
