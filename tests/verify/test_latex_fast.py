"""The fast parser agrees with latex2sympy2_extended on the notation answers use, and hands
everything else over to it."""

from __future__ import annotations

import pytest
import sympy

from studybench.verify.latex_fast import FastParseError, parse_fast
from studybench.verify.parsing import parse_expressions, parse_latex

AGREE = [
    r"\frac{2v_0^2\sin\theta\cos\theta}{g}",
    r"\frac{m_1 g}{m_1 + m_2}",
    r"\sqrt{\frac{2h}{g}}",
    r"\frac{(v_0\sin\theta)^2}{2g}",
    "2gh",
    "E",
    r"\frac{1}{2}mv^2",
    r"e^{-t/\tau}",
    r"\sin^2\theta + \cos^2 \theta",
    r"\sin 2\theta",
    r"\log_{10} 5",
    r"\ln 2",
    r"\sqrt[3]{2}",
    r"m_{e}c^{2}",
    r"\varepsilon_0 E",
    r"k_B T",
    r"\frac{1}{4\pi\epsilon_0}\frac{q}{r^2}",
    r"a(b+c)",
    r"-\frac{3}{4}",
    r"x^{-1}",
    r"\hbar\omega",
    r"\arctan\frac{v}{u}",
    r"p_0 V_0 \ln 2",
    r"2^{-5/3} p_0",
    r"\frac{k x^{2}}{2 m g}",
    r"g(\sin\theta - \mu\cos\theta)",
    r"2.5 \times 10^{26}",
]


def test_single_character_arguments_follow_latex() -> None:
    assert parse_fast(r"\frac12") == sympy.Rational(1, 2)
    assert parse_fast("x^23") == 3 * sympy.Symbol("x") ** 2


@pytest.mark.parametrize("text", AGREE)
def test_fast_parser_agrees_with_latex2sympy(text: str) -> None:
    fast = parse_fast(text)
    slow = parse_latex(text)
    assert {s.name for s in fast.free_symbols} == {s.name for s in slow.free_symbols}
    assert sympy.simplify(fast - slow) == 0


@pytest.mark.parametrize(
    "text", [r"\{a, b\}", r"\int_0^1 x\,dx", r"\binom{n}{k}", r"\vec{a}\cdot", "x +", r"\frac{1}"]
)
def test_outside_the_subset_is_refused(text: str) -> None:
    with pytest.raises(FastParseError):
        parse_fast(text)


def test_numeric_power_towers_are_refused() -> None:
    with pytest.raises(FastParseError, match="too_large"):
        parse_fast(r"10^{10^{10}}")
    assert parse_fast(r"e^{-x^{2}}") == sympy.exp(-(sympy.Symbol("x") ** 2))


def test_fallback_parses_both_sides_with_the_same_parser() -> None:
    """If one side needs latex2sympy, both go through it, so symbol names agree."""
    pred, gold = parse_expressions(r"\binom{n}{2} x'", r"\frac{n(n-1)}{2} x'")
    assert pred.free_symbols == gold.free_symbols
    assert sympy.simplify(pred - gold) == 0


# An accent on a Greek letter names one symbol in both parsers. latex2sympy2_extended read
# ``theta_{dot}`` (the slow parser's spelling before the fix) as the product t h e t a_dot,
# so ``\dot\omega`` held a ``g`` that met the gravitational g of the other side.
ACCENTED = [
    (r"\dot\theta", {"theta_dot"}),
    (r"\dot{\theta}", {"theta_dot"}),
    (r"\ddot\phi", {"phi_ddot"}),
    (r"\dot\omega + g", {"omega_dot", "g"}),
    (r"\hat\theta", {"theta_hat"}),
    (r"\bar\rho", {"rho_mean"}),
    (r"\tilde\nu", {"nu_tilde"}),
    (r"\dot x", {"x_dot"}),
    (r"\langle\omega\rangle", {"omega_mean"}),
]


@pytest.mark.parametrize(("text", "names"), ACCENTED)
def test_an_accented_greek_letter_is_one_symbol_in_both_parsers(text: str, names: set[str]) -> None:
    from studybench.verify.symbolic import canonical_name

    slow = parse_latex(text)
    assert {canonical_name(s) for s in slow.free_symbols} == names
    # with a sum beside it, both sides of a comparison take the slow parser
    series = r" + \sum_{n=1}^{\infty} \frac{1}{n^2}"
    pred, gold = parse_expressions(text + series, text + series)
    assert {canonical_name(s) for s in pred.free_symbols} == names
    assert pred == gold


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"e^{T}", "exp(T)"),
        (r"e^T", "exp(T)"),
        (r"x^{ T }", "x**T"),
        (r"\int_0^{T} x\,dx", "Integral(x, (x, 0, T))"),
        (r"\int_0^T x\,dx", "Integral(x, (x, 0, T))"),
        (r"T^{T_0}", "T**T_0"),
    ],
)
def test_a_power_t_is_the_symbol_t_not_a_transpose(text: str, expected: str) -> None:
    assert str(parse_latex(text)) == expected
