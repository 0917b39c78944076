"""EQ internals (verify/rules/equation.py ``judge_eq``, ``_proportional``, ``_rearranged``,
``positive_symbols``) pinned where a case table cannot reach them (issue 26: these survived
mutation testing).

``_proportional``'s contract (its docstring): ``a = 0`` and ``b = 0`` are equivalent when
``a / b`` is a non-zero constant. It decides numerically from the ratios at the sampled points
where both sides are defined and non-zero (at least two), and falls back to ``simplify`` only
when sampling gives too few; a mutant that samples worse is only visible where the two
decisions differ: a pair whose ratio is constant within the decimal tolerance but not
symbolically, a pair sympy is not asked to simplify (too large), or a pair sampling cannot
evaluate (an undefined function). ``_rearranged``'s docstring: one equation solved for a
variable (not on its right side) makes the other hold, both directions are tried, at points of
both signs. Seeds: sampling must be a fixed function of the compared texts (reproducible
verdicts), never ``None``.
"""

from __future__ import annotations

from typing import Any

import pytest
import sympy

from studybench.verify.rules import equation
from studybench.verify.rules.equation import _proportional, _rearranged, judge_eq
from studybench.verify.rules.expression import judge_ex, positive_symbols
from studybench.verify.rules.outcome import Outcome

X, Y, Z = sympy.symbols("x y z", positive=True)
F = sympy.Function("f")  # undefined: sampling cannot evaluate it
SEED = "pred\x00gold"
TRIG_ZERO = sympy.sin(Z) ** 2 + sympy.cos(Z) ** 2 - 1  # identically zero, not structurally
POLE = 1 / F(X)  # undefined at every sampled point, cheap to simplify


def _many(n: int) -> Any:
    """A sum of ``n`` distinct positive symbols: a large expression that is cheap to simplify."""
    return sympy.Add(*sympy.symbols(f"s1:{n + 1}", positive=True))


def _outcome(a: Any, b: Any) -> tuple[bool, str]:
    outcome = _proportional(a, b, SEED)
    return outcome.correct, outcome.reason


@pytest.fixture
def ratio_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pins the ratio test alone: with decimals, ``_proportional`` also requires every part of
    the two sides to agree (``parts_agree``, pinned by the test below, test_symbolic_parts.py
    and cases/sound_decimal_scales.jsonl); the pairs here differ in a small part on purpose,
    to make the ratio constant within the tolerance but not exactly."""
    monkeypatch.setattr(equation, "parts_agree", lambda *args, **kwargs: True)


# ------------------------------------------------------------------ _proportional: zero sides


@pytest.mark.parametrize(
    ("a", "b", "expect"),
    [
        (sympy.S(0), sympy.S(0), (True, "symbolic")),  # two tautologies
        (sympy.S(0), X - Y, (False, "wrong_equation")),  # a tautology is no equation
        (X - Y, sympy.S(0), (False, "wrong_equation")),
        (sympy.S(0), _many(300) - X, (False, "wrong_equation")),  # decided, however large
        (_many(300) - X, sympy.S(0), (False, "wrong_equation")),
    ],
)
def test_a_side_that_is_zero(a: Any, b: Any, expect: tuple[bool, str]) -> None:
    assert _outcome(a, b) == expect


@pytest.mark.parametrize(("a", "b"), [(sympy.S(1), sympy.S(2)), (sympy.S(2), sympy.S(1))])
def test_non_zero_constants_have_a_constant_ratio(a: Any, b: Any) -> None:
    assert _outcome(a, b) == (True, "proportional")


# ------------------------------------------------------------------ _proportional: numeric


def test_a_constant_ratio_within_the_decimal_tolerance_is_decided_numerically() -> None:
    # a / b lies in [1/1.0000005, 1]: constant within the tolerance (1e-6), not symbolically;
    # each part (x^2, y^2) agrees within it too
    a, b = X**2 + Y**2, sympy.Float("1.0000005") * X**2 + Y**2
    assert _outcome(a, b) == (True, "proportional")


def test_a_small_part_is_not_absorbed_by_the_decimal_tolerance() -> None:
    # a / b = 1 / (1 + 1e-9 x) is constant within the tolerance as a whole, but b has parts
    # (1e-9 x^2 - 1e-9 xy) that nothing in a matches: a small term is compared at its own
    # scale (x = 1.8e10 y is no multiple of x = 9e9 y, though their ratio is 2 to 10 digits)
    a, b = X - Y, (X - Y) * (1 + sympy.Float("1e-9") * X)
    assert _outcome(a, b) == (False, "wrong_equation")
    assert _outcome(X - sympy.Float("1.8e10") * Y, X - sympy.Float("9e9") * Y) == (
        False,
        "wrong_equation",
    )


@pytest.mark.usefixtures("ratio_only")
def test_the_tolerance_is_relative_to_the_ratio() -> None:
    # a / b = 1e6 + 1e-3 x: a relative spread of ~3e-9, whatever the size of the factor
    a = sympy.Float("1e6") * (X - Y) + sympy.Float("1e-3") * X * (X - Y)
    assert _outcome(a, X - Y) == (True, "proportional")


def test_a_large_proportional_pair_with_small_values_is_decided_numerically() -> None:
    # |p| < 1 at every sampled point (x/3 <= 1), and too large for simplify
    p = (sympy.Add(*[(X / 3) ** k for k in range(1, 140)]) - Y) / 10**6
    a, b = 2 * p, -3 * p
    assert sympy.count_ops(a) + sympy.count_ops(b) > 250
    assert _outcome(a, b) == (True, "proportional")


def test_a_large_pair_in_different_variables_is_decided_numerically() -> None:
    p = sympy.Add(*[X**k for k in range(1, 140)])
    assert _outcome(p - Y, p - Z) == (False, "wrong_equation")


def test_a_side_that_vanishes_at_every_point_is_not_proportional() -> None:
    # floor(x/10) is exactly 0 on the sampled range: a tautology there, not b = 0
    assert _outcome(sympy.floor(X / 10), X - Y) == (False, "wrong_equation")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a side exactly 1e-30 in size is not zero: the ratio 1 + 1e-9 x counts, and is
        # constant within the decimal tolerance (simplify would call it wrong)
        (sympy.Float(1e-30) * (1 + sympy.Float("1e-9") * X), sympy.Float(1e-30)),
        (sympy.Float(1e-30), sympy.Float(1e-30) * (1 + sympy.Float("1e-9") * X)),
    ],
)
@pytest.mark.usefixtures("ratio_only")
def test_the_zero_threshold_is_strict(a: Any, b: Any) -> None:
    assert _outcome(a, b) == (True, "proportional")


# ------------------------------------------------------------------ _proportional: fixed points


def _points(*rows: dict[Any, str]) -> list[dict[Any, Any]]:
    return [{s: sympy.Float(v, 60) for s, v in row.items()} for row in rows]


def _at_points(
    monkeypatch: pytest.MonkeyPatch, points: list[dict[Any, Any]], a: Any, b: Any
) -> tuple[bool, str]:
    monkeypatch.setattr(equation, "sample_points", lambda symbols, seed, *args, **kw: points)
    return _outcome(a, b)


@pytest.mark.usefixtures("ratio_only")
def test_two_evaluable_points_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    # below 1e-30 for x < 1 (e^{-300} at 0.7): the 1st, 3rd and 5th points are skipped, not
    # the end
    tiny = sympy.exp(1000 * (X - 1))
    a = (X - Y) * tiny
    b = (X - Y) * (1 + sympy.Float("1e-9") * X) * tiny
    points = _points(
        {X: "0.5", Y: "2.0"},
        {X: "2.3", Y: "0.7"},
        {X: "0.6", Y: "2.0"},
        {X: "2.5", Y: "0.4"},
        {X: "0.7", Y: "2.0"},
    )
    assert _at_points(monkeypatch, points, a, b) == (True, "proportional")


def test_ratios_are_compared_with_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # ratio x: 1, 1 + 0.9e-6, 1 + 1.8e-6 drifts beyond the tolerance (1e-6) of the first
    points = _points({X: "1", Y: "2"}, {X: "1.0000009", Y: "2"}, {X: "1.0000018", Y: "2"})
    assert _at_points(monkeypatch, points, sympy.Float(1.0) * X * Y, Y) == (
        False,
        "wrong_equation",
    )


@pytest.mark.usefixtures("ratio_only")
def test_a_ratio_at_the_tolerance_bound_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    import mpmath  # type: ignore[import-untyped]

    with mpmath.workdps(80):
        edge = sympy.Float(mpmath.mpf(1) + mpmath.mpf(equation.SYMBOLIC_TOLERANCE), 60)
    points = [{X: sympy.Float(1, 60), Y: sympy.Float(2, 60)}, {X: edge, Y: sympy.Float(2, 60)}]
    assert _at_points(monkeypatch, points, sympy.Float(1.0) * X * Y, Y) == (True, "proportional")


# ------------------------------------------------------------------ _proportional: simplify


@pytest.mark.parametrize(
    ("a", "b", "expect"),
    [
        (F(X) * (X - Y), 2 * F(X) * (X - Y), (True, "proportional")),
        (F(X) * (X - Y), F(X) * (X - Y), (True, "proportional")),  # ratio exactly 1
        (X - Y, F(X) * (X - Y), (False, "wrong_equation")),  # only one side undefined
        (F(X) * (X - Y), X - Y, (False, "wrong_equation")),
    ],
)
def test_pairs_sampling_cannot_evaluate_are_simplified(
    a: Any, b: Any, expect: tuple[bool, str]
) -> None:
    assert _outcome(a, b) == expect


def test_a_failing_simplify_is_inconclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("sympy gave up")

    monkeypatch.setattr(sympy, "simplify", fail)
    assert _outcome(F(X) * (X - Y), 2 * F(X) * (X - Y)) == (False, "inconclusive")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (POLE * _many(130), 2 * POLE * _many(130)),  # both large
        (POLE * _many(300), POLE),  # one side large
        (POLE, POLE * _many(300)),
    ],
)
def test_large_pairs_are_not_simplified(a: Any, b: Any) -> None:
    assert _outcome(a, b) == (False, "inconclusive")


def test_the_size_bound_is_250_operations_in_all() -> None:
    """The bound ``_symbolic_zero`` uses too: at 250 simplify decides, at 251 it is not asked."""
    at = (POLE**2 * _many(82), 2 * POLE**2 * _many(82))
    over = (POLE**2 * _many(82), -2 * POLE**2 * _many(82))
    assert sum(sympy.count_ops(e) for e in at) == 250
    assert sum(sympy.count_ops(e) for e in over) == 251
    assert _outcome(*at) == (True, "proportional")
    assert _outcome(*over) == (False, "inconclusive")


# ------------------------------------------------------------------ _rearranged


def test_a_new_symbol_that_cancels_is_no_new_symbol() -> None:
    # the prediction y = x + x^2 * 0 (a zero written in z) has the gold's solutions
    pred, gold = (Y, X + X**2 * TRIG_ZERO), (X, Y)
    assert _rearranged(pred, gold, SEED) is True


def test_equations_with_the_same_solutions_are_rearranged() -> None:
    zero_in_x = sympy.sin(X) ** 2 + sympy.cos(X) ** 2 - 1
    assert _rearranged((X, Y + zero_in_x), (2 * Y, 2 * X), SEED) is True
    p, v, t = sympy.symbols("P V T", positive=True)
    assert _rearranged((p * v / t, Y), (p * v, Y * t), SEED) is True  # both sides / T


@pytest.mark.parametrize(
    ("pred", "why"),
    [
        ((X**2, 2 * Y**2), "squared: x = -sqrt(2) y is a solution too"),
        ((sympy.cos(X), sympy.cos(sympy.sqrt(2) * Y)), "cos of both sides: x = 2 pi - ..."),
        (((X - sympy.sqrt(2) * Y) * (sympy.exp(X) - sympy.exp(Y)), 0), "a hedge: x = y too"),
        ((X * (X - sympy.sqrt(2) * Y), 0), "times x: x = 0 too"),
        ((X, sympy.sqrt(2) * Y + Z), "a term in a symbol the gold lacks"),
    ],
)
def test_another_solution_set_is_no_rearrangement(pred: tuple[Any, Any], why: str) -> None:
    assert _rearranged(pred, (X, sympy.sqrt(2) * Y), SEED) is False, why


def test_a_new_symbol_multiplying_both_sides_is_a_non_zero_magnitude() -> None:
    assert _rearranged((Z * X, Z * sympy.sqrt(2) * Y), (X, sympy.sqrt(2) * Y), SEED) is True


def test_a_tautology_is_no_rearrangement() -> None:
    x, m, a = sympy.symbols("F m a")
    assert _rearranged((x, x), (x, m * a), SEED) is False
    assert _rearranged((x, m * a), (x, x), SEED) is False


def test_non_analytic_equations_are_not_solved() -> None:
    assert _rearranged((X, sympy.Min(Y, 10)), (X, Y), SEED) is False


# ------------------------------------------------------------------ seeds


def test_sampling_is_seeded_by_the_compared_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[Any] = []
    sample_points, numerically_equal = equation.sample_points, equation.numerically_equal

    def spy_points(symbols: Any, seed: Any, *args: Any, **kwargs: Any) -> Any:
        seeds.append(seed)
        return sample_points(symbols, seed, *args, **kwargs)

    def spy_equal(a: Any, b: Any, tolerance: Any, seed: Any) -> Any:
        seeds.append(seed)
        return numerically_equal(a, b, tolerance, seed)

    monkeypatch.setattr(equation, "sample_points", spy_points)
    monkeypatch.setattr(equation, "numerically_equal", spy_equal)
    pred, gold = r"h\nu = E_2-E_1", r"\nu = \frac{E_2-E_1}{h}"
    assert judge_eq(pred, gold, 0.01) == Outcome(True, "rearranged")
    assert seeds  # every sampling is seeded by the texts
    for seed in seeds:
        assert isinstance(seed, str) and pred in seed and gold in seed


# ------------------------------------------------------------------ positive_symbols


def test_symbols_are_redeclared_positive_consistently() -> None:
    x, y = sympy.symbols("x y")
    root, plain = positive_symbols(sympy.sqrt(x**2) * y, x * y)
    assert root == plain  # sqrt(x^2) = x for a magnitude
    assert {s.name for s in root.free_symbols} == {"x", "y"}
    assert all(s.is_positive is True for s in root.free_symbols | plain.free_symbols)


def test_a_magnitude_root_is_structurally_equal() -> None:
    assert judge_ex(r"\sqrt{x^2}", "x", 0.01) == Outcome(True, "structural")
