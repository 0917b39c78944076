"""Verifier 1.16.0 rules (red-team round 9), each with its table: every side of the chain a
final box closes is judged (a chain claims all its sides equal), a box declared unequal to
its own value, correction and restating remarks after the box, a box in a counterfactual
sentence, constants' definitions only where the question speaks of them, a name after a
labelled formula, a negated label, an interval's quantity, and values offered beside an
equation."""

from __future__ import annotations

import pytest

from studybench.verify.restatement import written_in
from studybench.verify.verifier import _read_beside, judge_inline
from studybench.verify.visibility import chain_sides, written_unit

PERIOD = "\\boxed{5.54\\times10^{3}\\,\\mathrm{s}}"
ENERGY = "\\boxed{4.96\\,\\mathrm{eV}}"
POWER = "\\boxed{6\\,\\mathrm{kW}}"
SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"
SHARE = "\\boxed{0.40}"
DISTANCE = "\\boxed{\\frac{2d}{3}}"
CURRENT = "\\boxed{\\frac{BLv}{R}}"
ROLLING = "\\boxed{\\sqrt{\\frac{10 g h}{7}}}"
OMEGA = "\\boxed{\\sqrt{\\frac{g}{L}}}"


def _said(math: str) -> str:
    return f"Collecting the steps of the derivation above, we find\n\n$$ {math} $$"


# -- every side of the chain the box closes ---------------------------------------------
@pytest.mark.parametrize(
    ("math", "gold", "kind", "correct"),
    [
        # a numeric side in another unit is converted
        ("T = 92.3\\,\\mathrm{min} = \\boxed{5.54\\times10^{3}\\,\\mathrm{s}}", PERIOD, "NV", True),
        ("T = 46\\,\\mathrm{min} = \\boxed{5.54\\times10^{3}\\,\\mathrm{s}}", PERIOD, "NV", False),
        ("T \\approx 5.5\\times10^{3}\\,\\mathrm{s} = " + PERIOD, PERIOD, "NV", True),
        ("T \\approx 2.8\\times10^{3}\\,\\mathrm{s} = " + PERIOD, PERIOD, "NV", False),
        (
            "E = 7.95\\times10^{-19}\\,\\mathrm{J} = \\boxed{4.96\\,\\mathrm{eV}}",
            ENERGY,
            "NV",
            True,
        ),
        (
            "E = 7.95\\times10^{-18}\\,\\mathrm{J} = \\boxed{4.96\\,\\mathrm{eV}}",
            ENERGY,
            "NV",
            False,
        ),
        ("E \\approx 5.0\\,\\mathrm{eV} = \\boxed{4.96\\,\\mathrm{eV}}", ENERGY, "NV", True),
        ("P = 6000\\,\\mathrm{W} = \\boxed{6\\,\\mathrm{kW}}", POWER, "NV", True),
        ("P = 600\\,\\mathrm{W} = \\boxed{6\\,\\mathrm{kW}}", POWER, "NV", False),
        ("P = 6\\,\\mathrm{W} = \\boxed{6\\,\\mathrm{kW}}", POWER, "NV", False),
        # a bare number beside a box with a unit leaves its unit unsaid: not read
        ("P = 6000 = \\boxed{6\\,\\mathrm{kW}}", POWER, "NV", True),
        ("v = 14.5\\,\\mathrm{m/s} \\approx 52.2\\,\\mathrm{km/h} = " + SPEED, SPEED, "NV", True),
        ("v = 14.5\\,\\mathrm{m/s} \\approx 25.2\\,\\mathrm{km/h} = " + SPEED, SPEED, "NV", False),
        ("\\eta = \\frac{2}{5} = \\boxed{0.40}", SHARE, "NV", True),
        ("\\eta = 40\\% = \\boxed{0.40}", SHARE, "NV", True),
        ("\\eta = 60\\% = \\boxed{0.40}", SHARE, "NV", False),
        # working in numbers is read leniently (within 5 %, verifier 1.29.0); formulas beside
        # a number are the writer's, not read
        ("\\eta = 1 - \\frac{300}{500} = \\boxed{0.40}", SHARE, "NV", True),
        ("\\eta = \\frac{1.82}{4.56} = \\boxed{0.40}", SHARE, "NV", True),
        ("\\eta = \\frac{12.3}{4.56} = \\boxed{0.40}", SHARE, "NV", False),
        ("\\eta = 1 - \\frac{T_c}{T_h} = \\boxed{0.40}", SHARE, "NV", True),
        # an expression side in the gold's symbols is judged as the answer
        ("x = 0.667\\,d = " + DISTANCE, DISTANCE, "EX", True),
        ("x = \\frac{d}{1.5} = " + DISTANCE, DISTANCE, "EX", True),
        ("x = \\frac{d}{3} = " + DISTANCE, DISTANCE, "EX", False),
        ("x = 0.333\\,d = " + DISTANCE, DISTANCE, "EX", False),
        ("x = -\\frac{2d}{3} = " + DISTANCE, DISTANCE, "EX", False),
        ("I = \\frac{BLv}{2R} = " + CURRENT, CURRENT, "EX", False),
        ("I = \\frac{\\varepsilon}{R} = \\frac{BLv}{R} = " + CURRENT, CURRENT, "EX", True),
        ("I = \\frac{\\varepsilon}{R} = \\frac{BLv}{3R} = " + CURRENT, CURRENT, "EX", False),
        # a side in other quantities is working, not a form of the gold
        ("I = \\frac{\\mathcal{E}}{R} = " + CURRENT, CURRENT, "EX", True),
        ("I = \\frac{\\Phi}{R\\,t} = " + CURRENT, CURRENT, "EX", True),
        ("v = \\sqrt{2gh\\cdot\\frac{5}{7}} = " + ROLLING, ROLLING, "EX", True),
        ("v \\approx 1.20\\sqrt{gh} = " + ROLLING, ROLLING, "EX", True),
        ("v = \\sqrt{2gh} = " + ROLLING, ROLLING, "EX", False),
        ("v = -\\sqrt{2gh\\cdot\\frac{5}{7}} = " + ROLLING, ROLLING, "EX", False),
        ("v = \\sqrt{\\frac{10gh}{9}} = " + ROLLING, ROLLING, "EX", False),
        ("\\omega = \\sqrt{\\frac{L}{g}} = " + OMEGA, OMEGA, "EX", False),
        ("\\omega = \\sqrt{g/L} = " + OMEGA, OMEGA, "EX", True),
        # a separator ends the chain: what stands before it is another statement
        ("\\omega^2 = \\frac{g}{L}, \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\Rightarrow \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\implies \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\;\\therefore\\; \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\longrightarrow \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\to \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\iff \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} ⇒ \\omega = " + OMEGA, OMEGA, "EX", True),
        ("\\omega^2 = \\frac{g}{L} \\quad \\omega = " + OMEGA, OMEGA, "EX", True),
    ],
)
def test_every_chain_side_is_judged(math: str, gold: str, kind: str, correct: bool) -> None:
    verdict = judge_inline(_said(math), gold, kind)
    assert verdict.correct is correct, verdict.reason
    if not correct:
        # a side read for certain in the box's own unit is the box's operand check's
        assert verdict.reason.startswith(("chain_side:", "box_in_expression")), verdict.reason


def test_a_chain_side_is_read_in_inline_math_after_other_math() -> None:
    """The box's math is found however much math stands before it in the output."""
    pred = "Setting $2(d - x) = x$ gives the point.\n\n$x = \\frac{d}{3} = " + DISTANCE + "$"
    assert judge_inline(pred, DISTANCE, "EX").reason == "chain_side:wrong_value"
    right = "Setting $2(d - x) = x$ gives the point.\n\n$x = \\frac{2}{3}d = " + DISTANCE + "$"
    assert judge_inline(right, DISTANCE, "EX").correct


@pytest.mark.parametrize(
    ("before", "sides"),
    [
        ("$x = \\frac{d}{3} = ", ("x", "\\frac{d}{3}")),
        ("$$T = 46\\,\\mathrm{min} \\approx ", ("T", "46\\,\\mathrm{min}")),
        ("$v ≈ 29.0 ≃ ", ("v", "29.0")),
        ("$a = 1, b = ", ("b",)),
        ("$a = 1; b = ", ("b",)),
        ("$a = 1 \\Rightarrow b = ", ("b",)),
        ("$a = 1 \\Leftrightarrow b = ", ("b",)),
        ("$a = 1 → b = ", ("b",)),
        ("$a = 1 ∴ b = ", ("b",)),
        ("$a \\text{ so } b = ", ("b",)),
        ("$x \\le y = ", ("x \\le y",)),  # an inequality is no "=" of the chain
        ("$x = \\frac{d}{3} + ", ()),  # the box does not follow an "=": an operand
        ("The answer is ", ()),  # not in math
        ("$v$ is ", ()),
        ("$x \\neq ", ()),
    ],
)
def test_chain_sides(before: str, sides: tuple[str, ...]) -> None:
    assert chain_sides(before) == sides


@pytest.mark.parametrize(
    ("side", "unit"),
    [
        ("46\\,\\mathrm{min}", "min"),
        ("5.5\\times10^{3}\\,\\mathrm{s}", "s"),
        ("40\\%", "\\%"),
        ("0.333", ""),
        ("\\frac{2}{5}", ""),
        ("\\sqrt{2}", ""),
        ("\\frac{12.3}{4.56}", None),  # working, no value written out
        ("\\sqrt{2gh}", None),
        ("1 - \\frac{300}{500}", None),
        ("x", None),
    ],
)
def test_written_unit(side: str, unit: str | None) -> None:
    assert written_unit(side) == unit


@pytest.mark.parametrize(
    ("unit", "box_unit", "read"),
    [
        ("min", "s", True),
        ("min", "", True),
        ("", "", True),
        ("", "kW", False),  # a bare number beside a unit: its unit is unsaid
        ("", None, False),
        (None, "", False),
        (None, None, False),
    ],
)
def test_read_beside(unit: str | None, box_unit: str | None, read: bool) -> None:
    assert _read_beside(unit, box_unit) is read


@pytest.mark.parametrize(
    ("expression", "gold", "written"),
    [
        ("\\frac{d}{3}", "\\frac{2d}{3}", True),
        ("0.333\\,d", "\\frac{2d}{3}", True),
        ("\\sqrt{2gh}", "\\sqrt{\\frac{10gh}{7}}", True),
        ("\\frac{\\mathcal{E}}{R}", "\\frac{BLv}{R}", False),  # E is no symbol of the gold
        ("\\frac{\\omega}{R}", "\\frac{BLv}{R}", False),
        ("\\frac{\\omega}{R}", "\\frac{\\omega L}{R}", True),
        ("\\frac{1}{3}", "\\frac{2d}{3}", False),  # a number: for one case, not a form
        ("", "\\frac{2d}{3}", False),
    ],
)
def test_written_in(expression: str, gold: str, written: bool) -> None:
    assert written_in(expression, gold) is written


# -- a box declared unequal to its own value ---------------------------------------------
@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}} \\neq 14.5\\,\\mathrm{m/s}$", SPEED, False),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}} ≠ 14.5\\,\\mathrm{m/s}$.", SPEED, False),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}} \\not= 14.50\\,\\mathrm{m/s}$, done", SPEED, False),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}} != 14.5\\,\\mathrm{m/s}$", SPEED, False),
        ("$\\eta = \\boxed{0.154} \\neq 0.154$", "\\boxed{0.154}", False),
        ("$\\eta = \\boxed{0.154} \\ne 0.1541$ here", "\\boxed{0.154}", False),
        # another value: the box is compared with it, and stands
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}} \\ne 29.0\\,\\mathrm{m/s}$", SPEED, True),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}} \\neq 14.5\\,\\mathrm{km/h}$", SPEED, True),
        ("$\\eta = \\boxed{0.154} \\neq 0.308$", "\\boxed{0.154}", True),
        ("$\\eta = \\boxed{0.154} \\neq 0.308$, the other cycle's", "\\boxed{0.154}", True),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}}$", SPEED, True),
    ],
)
def test_a_box_unequal_to_itself(pred: str, gold: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, "NV")
    assert verdict.correct is correct, verdict.reason


# -- a correction in a remark after the box ----------------------------------------------
@pytest.mark.parametrize(
    ("pred", "gold", "kind", "correct"),
    [
        ("$\\boxed{0.154}$ (really 0.308)", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}$ (actually 0.308)", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}$ (in fact 0.308)", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}$ (or rather 0.308)", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}$ (more precisely 0.308)", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}$ (strictly speaking 0.308)", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}\\ \\text{(really 0.308)}$", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}\\ \\text{(really }0.308\\text{)}$", "\\boxed{0.154}", "NV", False),
        ("$\\boxed{0.154}$ (really $0.308$)", "\\boxed{0.154}", "NV", False),
        (
            "$\\boxed{0.154}\\ \\text{(}0.308\\text{ if the other cycle is meant)}$",
            "\\boxed{0.154}",
            "NV",
            False,
        ),
        ("$\\boxed{B}\\ \\text{(}\\equiv\\text{ D)}$", "\\boxed{B}", "MC", False),
        ("$\\boxed{B}$ (≡ D)", "\\boxed{B}", "MC", False),
        # a correction that restates the box, and remarks that convert it, stand
        ("$\\boxed{0.154}$ (really 0.154)", "\\boxed{0.154}", "NV", True),
        ("$\\boxed{0.154}$ (more precisely 0.1538)", "\\boxed{0.154}", "NV", True),
        ("$\\boxed{0.154}\\ \\text{(i.e. }15.4\\%\\text{)}$", "\\boxed{0.154}", "NV", True),
        ("$\\boxed{B}$ (≡ B)", "\\boxed{B}", "MC", True),
        (
            "$\\boxed{245\\,\\text{K}}\\ (\\approx -28\\,^\\circ\\text{C})$",
            "\\boxed{245\\,\\mathrm{K}}",
            "NV",
            True,
        ),
        ("$\\boxed{14.5\\,\\mathrm{m/s}}\\ \\text{(about 52 km/h)}$", SPEED, "NV", True),
        ("$\\boxed{14.5\\,\\mathrm{m/s}}$ (actually quite fast)", SPEED, "NV", True),
    ],
)
def test_a_correction_in_a_remark(pred: str, gold: str, kind: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


# -- a box in a counterfactual sentence --------------------------------------------------
LEAD = "Energy conservation gives $h = kx^2/(2mg)$.\n\n"


@pytest.mark.parametrize(
    ("sentence", "correct"),
    [
        ("If the spring constant were doubled, $h = \\boxed{0.816\\,\\mathrm{m}}$.", False),
        ("If the track had friction, $h$ would be $\\boxed{0.816\\,\\mathrm{m}}$.", False),
        ("If the block weren't released from rest, $h = \\boxed{0.816\\,\\mathrm{m}}$.", False),
        ("Had the block been heavier, the answer would be $\\boxed{0.816\\,\\mathrm{m}}$.", False),
        ("Were the spring stiffer, $h = \\boxed{0.816\\,\\mathrm{m}}$.", False),
        ("So, if it were on the Moon, $h = \\boxed{0.816\\,\\mathrm{m}}$.", False),
        # a present-tense "if", and a counterfactual in an earlier sentence, leave it
        ("If we plug in the numbers, $h = \\boxed{0.816\\,\\mathrm{m}}$.", True),
        ("If $m = 0.250\\,\\mathrm{kg}$, then $h = \\boxed{0.816\\,\\mathrm{m}}$.", True),
        (
            "Had we kept air drag, it would change little. The height is then "
            "$h = \\boxed{0.816\\,\\mathrm{m}}$.",
            True,
        ),
        ("Therefore the height would be $h = \\boxed{0.816\\,\\mathrm{m}}$.", True),
        ("The height is $h = \\boxed{0.816\\,\\mathrm{m}}$.", True),
    ],
)
def test_a_box_in_a_counterfactual_sentence(sentence: str, correct: bool) -> None:
    verdict = judge_inline(LEAD + sentence, "\\boxed{0.816\\,\\mathrm{m}}", "NV")
    assert verdict.correct is correct, verdict.reason


# -- a constant's definition only where the question speaks of the constant --------------
ROLLING_Q = "A solid sphere rolls from rest down a ramp of height $h$. Find its speed $v$."
SPRING_Q = "Find the maximum height $h$ the block reaches, in terms of $k$, $x$, $m$ and $g$."
CIRCUIT_Q = "Find the current $I$ in the circuit when the rod moves with speed $v$."
PHOTON_Q = "Find the energy of a photon of frequency $\\nu$ (Planck's constant $h$)."
CHARGE_Q = "Find the potential energy of two charges $q$ a distance $r$ apart."
GAS_Q = "One mole of an ideal gas expands isothermally at temperature $T$. Find the work."
CAPACITOR_Q = "Find the change in the energy stored in the capacitor."
LIGHT_Q = "Find the speed of light in vacuum in terms of the constants."


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # the prediction's constant would read the gold's own quantity as the constant
        ("\\sqrt{\\frac{20\\pi g\\hbar}{7}}", "\\sqrt{\\frac{10 g h}{7}}", ROLLING_Q, False),
        ("\\frac{x^{2}}{8\\pi\\varepsilon_0 m g}", "\\frac{k x^{2}}{2 m g}", SPRING_Q, False),
        ("\\frac{k_e x^{2}}{2 m g}", "\\frac{k x^{2}}{2 m g}", SPRING_Q, False),
        ("\\frac{BLv}{N_A k_B}", "\\frac{B L v}{R}", CIRCUIT_Q, False),
        # where the question speaks of the constant's physics, it is read as the constant
        ("2\\pi\\hbar\\nu", "h\\nu", PHOTON_Q, True),
        ("\\frac{q^2}{4\\pi\\varepsilon_0 r}", "\\frac{k q^2}{r}", CHARGE_Q, True),
        ("N_A k_B T\\ln 2", "R T \\ln 2", GAS_Q, True),
        ("\\frac{1}{\\sqrt{\\mu_0\\varepsilon_0}}", "c", LIGHT_Q, True),
        # the gold's own constants say what they are
        (
            "-\\frac{A V_0^{2}}{8\\pi k d}\\left(1 - \\frac{1}{\\kappa}\\right)",
            "-\\frac{\\varepsilon_0 A V_0^{2}}{2 d}\\left(1 - \\frac{1}{\\kappa}\\right)",
            CAPACITOR_Q,
            True,
        ),
        (
            "-\\frac{A V_0^{2}}{2\\mu_0 c^2 d}\\left(1 - \\frac{1}{\\kappa}\\right)",
            "-\\frac{\\varepsilon_0 A V_0^{2}}{2 d}\\left(1 - \\frac{1}{\\kappa}\\right)",
            CAPACITOR_Q,
            True,
        ),
        ("\\frac{h}{2\\pi}\\omega", "\\hbar\\omega", CAPACITOR_Q, True),
    ],
)
def test_a_constant_only_where_the_question_speaks_of_it(
    pred: str, gold: str, question: str, correct: bool
) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EX", question=question)
    assert verdict.correct is correct, verdict.reason


def test_without_a_question_definitions_are_read_as_before() -> None:
    """No question, no context: the constants' definitions apply as in 1.15.0."""
    assert judge_inline("\\boxed{2\\pi\\hbar\\nu}", "\\boxed{h\\nu}", "EX").correct
    assert judge_inline("\\boxed{N_A k_B T}", "\\boxed{R T}", "EX").correct


# -- a value in parentheses after the box restates it -----------------------------------
@pytest.mark.parametrize(
    ("pred", "gold", "kind", "correct"),
    [
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}}\\ (72\\,\\mathrm{km/h})$", SPEED, "NV", False),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}}$ (about 72 km/h)", SPEED, "NV", False),
        (
            "$v = \\boxed{14.5\\,\\mathrm{m/s}}$ (roughly $5.2\\,\\mathrm{km/h}$)",
            SPEED,
            "NV",
            False,
        ),
        (
            "$\\lambda = \\boxed{467\\,\\mathrm{nm}}\\ (4.67\\,\\mu\\mathrm{m})$",
            "\\boxed{467\\,\\mathrm{nm}}",
            "NV",
            False,
        ),
        (
            "$\\lambda = \\boxed{467\\,\\mathrm{nm}}$ (about 467 Å)",
            "\\boxed{467\\,\\mathrm{nm}}",
            "NV",
            False,
        ),
        ("$E = \\boxed{4.96\\,\\mathrm{eV}}$ (about $7.9\\times10^{-18}$ J)", ENERGY, "NV", False),
        ("$\\eta = \\boxed{0.154}\\ (1.54\\,\\%)$", "\\boxed{0.154}", "NV", False),
        (
            "$\\boxed{\\eta \\approx 0.154} \\quad (\\text{about } 31\\%)$",
            "\\boxed{0.154}",
            "NV",
            False,
        ),
        (
            "$\\lambda = \\boxed{7.52\\times10^{-10}\\,\\mathrm{m}}$, about $7.5\\,\\mathrm{nm}$.",
            "\\boxed{7.52\\times10^{-10}\\,\\mathrm{m}}",
            "NV",
            False,
        ),
        (
            "$\\lambda = \\boxed{7.52\\times10^{-10}\\,\\mathrm{m}}"
            "\\quad(\\text{i.e. } 7.52\\,\\mathrm{nm})$",
            "\\boxed{7.52\\times10^{-10}\\,\\mathrm{m}}",
            "NV",
            False,
        ),
        (
            "$t = \\boxed{1.0\\,\\mathrm{s}}\\ (100\\,\\mathrm{ms})"
            " \\text{ or } t = \\boxed{3.0\\,\\mathrm{s}}$",
            "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}",
            "ALT",
            False,
        ),
        # right conversions, rounded as written, stand
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}}\\ (52\\,\\mathrm{km/h})$", SPEED, "NV", True),
        ("$v = \\boxed{14.5\\,\\mathrm{m/s}}$ (about 52 km/h)", SPEED, "NV", True),
        (
            "$T = \\boxed{245\\,\\mathrm{K}}$ (about 240 K).",
            "\\boxed{245\\,\\mathrm{K}}",
            "NV",
            True,
        ),
        ("$T = \\boxed{5.54\\times10^{3}\\,\\mathrm{s}}$ (about 92 minutes)", PERIOD, "NV", True),
        ("$\\eta = \\boxed{0.154}\\ (15.4\\,\\%)$", "\\boxed{0.154}", "NV", True),
        (
            "$t = \\boxed{1.0\\,\\mathrm{s}}\\ (1000\\,\\mathrm{ms})"
            " \\text{ or } t = \\boxed{3.0\\,\\mathrm{s}}$",
            "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}",
            "ALT",
            True,
        ),
        # another quantity, a tag or a count in parentheses is left alone
        ("$E = \\boxed{4.96\\,\\mathrm{eV}}\\ (250\\,\\mathrm{nm})$", ENERGY, "NV", True),
        ("$E = \\boxed{4.96\\,\\mathrm{eV}}\\quad (1)$", ENERGY, "NV", True),
        ("$E_3 = \\boxed{4.96\\,\\mathrm{eV}}$ (n = 3)", ENERGY, "NV", True),
        ("$E = \\boxed{4.96\\,\\mathrm{eV}}$ (3 s.f.)", ENERGY, "NV", True),
    ],
)
def test_a_value_in_parentheses_restates_the_box(
    pred: str, gold: str, kind: str, correct: bool
) -> None:
    sequence = "NV,NV" if kind == "ALT" else ""
    verdict = judge_inline(pred, gold, kind, sequence)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("offered", "value", "loose", "rounds"),
    [
        ("240 K", "245 K", True, True),  # two figures
        ("240 K", "245 K", False, False),
        ("200 K", "245 K", True, True),  # one figure
        ("250 K", "245 K", True, True),
        ("300", "245", True, False),
        ("0", "0.4", True, False),
        ("2.40 K", "2.45 K", True, False),  # decimals are written digits
    ],
)
def test_rounds_to_with_loose_zeros(offered: str, value: str, loose: bool, rounds: bool) -> None:
    from studybench.verify.numeric import rounds_to

    assert rounds_to(offered, value, loose_zeros=loose) is rounds


@pytest.mark.parametrize(
    ("offered", "value", "rounds"),
    [
        ("32 mph", "14.5 m/s", True),  # 32.4 mph
        ("33 mph", "14.5 m/s", False),
        ("15 %", "0.154", True),
        ("16 %", "0.154", False),
        ("1.5 h", "5.54\\times10^{3} s", True),  # 1.54 h
        ("1.6 h", "5.54\\times10^{3} s", False),
        ("1.5 kg", "5.54\\times10^{3} s", False),  # another dimension
    ],
)
def test_rounds_to_in_the_offered_unit(offered: str, value: str, rounds: bool) -> None:
    from studybench.verify.numeric import rounds_to

    assert rounds_to(offered, value, loose_zeros=True, converted=True) is rounds
    assert not rounds_to(offered, value)  # in another unit only where asked to convert


# -- a name at the end of a chain that opens with its label is a claim -------------------
@pytest.mark.parametrize(
    ("box", "gold", "kind", "correct"),
    [
        ("x = \\frac{2d}{3} = d", DISTANCE, "EX", False),  # a symbol of the value
        ("V = \\frac{V_0}{\\kappa} = V_0", "\\boxed{\\frac{V_0}{\\kappa}}", "EX", False),
        ("v = \\sqrt{\\frac{10gh}{7}} = R", ROLLING, "EX", False),  # a second name
        ("N = \\frac{3}{7} m g = W", "\\boxed{\\frac{3}{7} m g}", "EX", False),
        # a value stated first, then named, and a name after numbers stand
        ("\\frac{2d}{3} = x", DISTANCE, "EX", True),
        ("x = \\frac{2d}{3}", DISTANCE, "EX", True),
        ("\\eta = 0.40 = \\eta_C", SHARE, "NV", True),
        ("x = 3 = q", "\\boxed{3}", "NV", True),
    ],
)
def test_a_trailing_name_after_a_labelled_formula(
    box: str, gold: str, kind: str, correct: bool
) -> None:
    verdict = judge_inline(f"$$\\boxed{{{box}}}$$", gold, kind)
    assert verdict.correct is correct, verdict.reason


# -- a negated label states the negative ------------------------------------------------
MAGNIFICATION = "\\boxed{-2.00}"


@pytest.mark.parametrize(
    ("pred", "gold", "kind", "correct"),
    [
        ("$$\\boxed{-m = -2.00}$$", MAGNIFICATION, "NV", False),  # says m = 2.00
        ("$$\\boxed{-m = 2.00}$$", MAGNIFICATION, "NV", False),  # right, but read no further
        ("$$\\boxed{m = -2.00}$$", MAGNIFICATION, "NV", True),
        ("$$-x = \\boxed{\\frac{2d}{3}}$$", DISTANCE, "EX", False),
        ("$$x = \\boxed{\\frac{2d}{3}}$$", DISTANCE, "EX", True),
    ],
)
def test_a_negated_label(pred: str, gold: str, kind: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


# -- a remark in parentheses that says what the box holds --------------------------------
CHOICE_Q = (
    "Two carts collide and stick. What fraction of the kinetic energy is lost? "
    "(A) $\\tfrac{1}{2}$ (B) $\\tfrac{1}{3}$ (C) $\\tfrac{2}{3}$ (D) none"
)
LENS_Q = "The image is: (A) real and inverted (B) virtual and upright (C) real and upright"
HEAT = "\\boxed{\\frac{13}{2}p_0V_0}"


@pytest.mark.parametrize(
    ("pred", "gold", "kind", "question", "correct"),
    [
        ("$$\\boxed{B}\\ \\left(\\tfrac{1}{2}\\right)$$", "\\boxed{B}", "MC", CHOICE_Q, False),
        ("$$\\boxed{B}\\ \\left(\\tfrac{1}{3}\\right)$$", "\\boxed{B}", "MC", CHOICE_Q, True),
        ("$$\\boxed{A}\\ (\\text{virtual and upright})$$", "\\boxed{A}", "MC", LENS_Q, False),
        ("$$\\boxed{A}\\ (\\text{real and inverted})$$", "\\boxed{A}", "MC", LENS_Q, True),
        ("$$\\boxed{A}$$\n\n(B) would need a virtual object.", "\\boxed{A}", "MC", LENS_Q, True),
        ("$$Q_H = " + HEAT + "\\ (6.0\\,p_0V_0)$$", HEAT, "EX", None, False),
        ("$$Q_H = " + HEAT + "\\ (= 7.5\\,p_0V_0)$$", HEAT, "EX", None, False),
        ("$$Q_H = " + HEAT + "\\ (6.5\\,p_0V_0)$$", HEAT, "EX", None, True),
        ("$$x = " + DISTANCE + "\\ (= 0.33\\,d)$$", DISTANCE, "EX", None, False),
        ("$$x = " + DISTANCE + "\\ (\\approx 0.67\\,d)$$", DISTANCE, "EX", None, True),
        (
            "$$I = " + CURRENT + "\\ \\left(= \\frac{\\mathcal{E}}{R}\\right)$$",
            CURRENT,
            "EX",
            None,
            True,
        ),
    ],
)
def test_a_remark_in_parentheses_says_what_the_box_holds(
    pred: str, gold: str, kind: str, question: str | None, correct: bool
) -> None:
    verdict = judge_inline(pred, gold, kind, question=question)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("after", "content"),
    [
        ("\\ (6.0\\,p_0V_0)$$", "6.0\\,p_0V_0"),
        ("\\ \\left(= \\frac{a}{b}\\right)$$", "\\frac{a}{b}"),
        ("\\quad (\\text{i.e. } 0.33d)$$", "0.33d"),
        ("\\ (\\text{virtual and upright})$", "virtual and upright"),
        ("\n\n(B) would hold", None),  # another line
        ("$ and so on", None),
    ],
)
def test_remark_content(after: str, content: str | None) -> None:
    from studybench.verify.visibility import remark_content

    assert remark_content(after) == content


# -- the quantity an interval bounds, where the question writes a ratio ------------------
RATIO_Q = "For which values of the mass ratio $m_1/m_2$ does the particle stop or bounce back?"
LENS_RANGE_Q = "For what range of object distances $u$, in centimetres, is the image virtual?"


@pytest.mark.parametrize(
    ("box", "gold", "question", "correct"),
    [
        ("\\frac{m_2}{m_1} \\in (0, 1]", "\\boxed{(0, 1]}", RATIO_Q, False),  # the reciprocal
        ("0 < m_2/m_1 \\le 1", "\\boxed{(0, 1]}", RATIO_Q, False),
        ("m_1 \\in (0, 1]", "\\boxed{(0, 1]}", RATIO_Q, False),  # one name of the ratio
        ("\\frac{v_1}{u} \\in (0, 1]", "\\boxed{(0, 1]}", RATIO_Q, False),
        ("\\frac{m_1}{m_2} \\in (0, 1]", "\\boxed{(0, 1]}", RATIO_Q, True),
        ("0 < m_1/m_2 \\le 1", "\\boxed{(0, 1]}", RATIO_Q, True),
        ("(0, 1]", "\\boxed{(0, 1]}", RATIO_Q, True),
        ("\\mu \\in (0, 1]", "\\boxed{(0, 1]}", RATIO_Q, True),  # the writer's own name
        ("u/f \\in (0, 20)", "\\boxed{(0, 20)}", LENS_RANGE_Q, False),
        ("u \\in (0, 20)", "\\boxed{(0, 20)}", LENS_RANGE_Q, True),
    ],
)
def test_the_quantity_an_interval_bounds(box: str, gold: str, question: str, correct: bool) -> None:
    verdict = judge_inline(f"$$\\boxed{{{box}}}$$", gold, "IN", question=question)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("$$\\frac{m_2}{m_1} \\in \\boxed{(0, 1]}$$", False),  # written before the box
        ("So $m_1 \\in \\boxed{(0, 1]}$.", False),
        ("$$\\frac{m_1}{m_2} \\in \\boxed{(0, 1]}$$", True),
        ("$$m_1/m_2 ∈ \\boxed{(0, 1]}$$", True),
        ("The ratio lies in $\\boxed{(0, 1]}$.", True),
        ("$$\\hspace{1cm}\\frac{m_1}{m_2} \\in \\boxed{(0, 1]}$$", True),  # spacing is no name
        ("$$\\quad\\frac{m_2}{m_1} \\in \\boxed{(0, 1]}$$", False),
    ],
)
def test_the_quantity_written_before_an_interval_box(pred: str, correct: bool) -> None:
    verdict = judge_inline(pred, "\\boxed{(0, 1]}", "IN", question=RATIO_Q)
    assert verdict.correct is correct, verdict.reason


# -- values offered beside an equation are judged as equations ---------------------------
PIVOT = "\\boxed{x = \\frac{L}{2\\sqrt{3}}}"
TILT = "\\boxed{\\cos\\theta_0 = \\frac{g}{\\omega^{2} R}}"


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("$$" + PIVOT + "$$ or maybe $x = L/\\sqrt{3}$.", PIVOT, False),
        ("$$" + PIVOT + ",\\ \\text{i.e. } x \\approx 0.289L$$", PIVOT, True),
        ("$$" + PIVOT + ",\\ \\text{i.e. } x \\approx 0.577L$$", PIVOT, False),
        ("$$" + TILT + ",\\ \\text{i.e. } \\theta_0 = \\arccos\\frac{g}{\\omega^2R}$$", TILT, True),
        (
            "$$\\boxed{h_{\\min} = \\frac{27}{10} R}\\ (\\text{i.e. } h_{\\min} = 2.5R)$$",
            "\\boxed{h_{\\min} = \\frac{27}{10} R}",
            False,
        ),
    ],
)
def test_values_offered_beside_an_equation(pred: str, gold: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, "EQ")
    assert verdict.correct is correct, verdict.reason


# -- names that come in another order than the question asks them -----------------------
CYCLE_Q = "Find the temperatures $T_B$, $T_C$ and $T_D$ in terms of $T_0$, in that order."
CYCLE = "\\boxed{2T_0}, \\boxed{4T_0}, \\boxed{2T_0}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("$$\\boxed{T_C = 2T_0},\\ \\boxed{T_B = 4T_0},\\ \\boxed{T_D = 2T_0}$$", False),
        ("$$\\boxed{T_C = 2T_0,\\ T_B = 4T_0,\\ T_D = 2T_0}$$", False),
        ("$$T_C = \\boxed{2T_0},\\quad T_B = \\boxed{4T_0},\\quad T_D = \\boxed{2T_0}$$", False),
        ("- $T_B$: $\\boxed{2T_0}$\n- $T_D$: $\\boxed{4T_0}$\n- $T_C$: $\\boxed{2T_0}$", False),
        ("$$\\boxed{T_B = 2T_0},\\ \\boxed{T_C = 4T_0},\\ \\boxed{T_D = 2T_0}$$", True),
        ("$$T_B = \\boxed{2T_0},\\quad T_C = \\boxed{4T_0},\\quad T_D = \\boxed{2T_0}$$", True),
        ("- $T_B$: $\\boxed{2T_0}$\n- $T_C$: $\\boxed{4T_0}$\n- $T_D$: $\\boxed{2T_0}$", True),
        ("$$" + CYCLE + "$$", True),
        # names the question does not write are left to the other rules
        ("$$\\boxed{T_2 = 2T_0},\\ \\boxed{T_3 = 4T_0},\\ \\boxed{T_4 = 2T_0}$$", True),
    ],
)
def test_names_in_the_order_asked(pred: str, correct: bool) -> None:
    verdict = judge_inline(pred, CYCLE, "TUP", "EX,EX,EX", question=CYCLE_Q)
    assert verdict.correct is correct, verdict.reason


# -- an equation stated again after an equation's box ------------------------------------
LOOP = "\\boxed{h_{\\min} = \\frac{27}{10} R}"


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("$" + LOOP + "$, so $10 h_{\\min} = 17R$.", LOOP, False),
        ("$" + LOOP + "$, so $10 h_{\\min} = 27R$.", LOOP, True),
        ("$" + TILT + "$. Equivalently, $\\omega^2 R\\cos\\theta_0 = 2g$.", TILT, False),
        ("$" + TILT + "$. Equivalently, $\\omega^2 R\\cos\\theta_0 = g$.", TILT, True),
        (
            "$$" + TILT + "\\ \\ \\left(\\theta_0 = \\arccos\\frac{2g}{\\omega^2R}\\right)$$",
            TILT,
            False,
        ),
        (
            "$$" + TILT + "\\ \\ \\left(\\theta_0 = \\arccos\\frac{g}{\\omega^2R}\\right)$$",
            TILT,
            True,
        ),
        (
            "$$" + TILT + ",\\ \\text{i.e. } \\theta_0 = \\arcsin\\frac{g}{\\omega^2R}$$",
            TILT,
            False,
        ),
        ("$" + PIVOT + "$. Equivalently, $x = \\frac{\\sqrt{3}}{2}L$.", PIVOT, False),
        ("$" + PIVOT + "$. Equivalently, $x = \\frac{\\sqrt{3}}{6}L$.", PIVOT, True),
        # an instance in numbers, or a statement in other quantities, is another claim
        (
            "$$"
            + LOOP
            + "\\ \\ (h_{\\min} = 27\\,\\mathrm{m}\\text{ for } R = 10\\,\\mathrm{m})$$",
            LOOP,
            True,
        ),
        ("$" + LOOP + "$, so $F_{\\rm net} = 2mg$ at the top.", LOOP, True),
    ],
)
def test_an_equation_stated_again(pred: str, gold: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, "EQ")
    assert verdict.correct is correct, verdict.reason
