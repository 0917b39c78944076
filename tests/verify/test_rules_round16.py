"""Verifier 1.20.0 rules (rounds 16: equivalent forms, real models' wrong answers, slow
inputs), each with its table of cases and the honest controls the rule must leave alone."""

from __future__ import annotations

import pytest

from studybench.verify.verifier import judge_inline

ASK = "Find the value asked for."

# A number's bare ``e`` is Euler's number: the fast parser kept it a symbol, so an NV gold
# written \frac{1}{e} or e^{\pi/e} was no number and rejected everything, itself included.
# Held to its written digits, as every exact gold is; 2e stays two elementary charges.
EULER = [
    ("\\frac{1}{e}", "\\frac{1}{e}", True),
    ("\\frac{1}{e}", "e^{-1}", True),
    ("\\frac{1}{e}", "0.368", True),
    ("\\frac{1}{e}", "0.37", True),
    ("\\frac{1}{e}", "0.369", False),
    ("\\frac{1}{e}", "0.3", False),
    ("\\frac{1}{e}", "-0.368", False),
    ("\\frac{1}{e}", "\\frac{2}{e}", False),
    ("e^{\\pi/e}", "3.18", True),
    ("e^{\\pi/e}", "3.17", False),
    ("e^{\\pi/e}", "e^{\\pi}", False),
    ("0.368", "\\frac{1}{e}", True),
    ("0.5", "\\frac{1}{e}", False),
    ("\\frac{1}{e}\\,\\mathrm{s}", "368\\,\\mathrm{ms}", True),
    ("\\frac{1}{e}\\,\\mathrm{s}", "0.5\\,\\mathrm{s}", False),
    ("\\frac{1}{e}\\,\\mathrm{s}", "0.368\\,\\mathrm{m}", False),
    ("2e", "2e", True),
    ("2e", "3.2\\times10^{-19}\\,\\mathrm{C}", True),
    ("2e", "5.44", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), EULER)
def test_a_numbers_e_is_eulers_number(gold: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "NV", question=ASK)
    assert verdict.correct is correct, verdict.reason


# No group of thousands opens with 0: 0,816 was read as 816 (one box and a gold of 816 m).
THOUSANDS = [
    ("816\\,\\mathrm{m}", "0,816\\,\\mathrm{m}", False),
    ("816", "0,816", False),
    ("816", "816", True),
    ("1000\\,\\mathrm{m}", "1,000\\,\\mathrm{m}", True),
    ("12500", "12{,}500", True),
    ("0.816\\,\\mathrm{m}", "0{,}816\\,\\mathrm{m}", True),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), THOUSANDS)
def test_no_thousands_group_opens_with_zero(gold: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "NV", question=ASK)
    assert verdict.correct is correct, verdict.reason


# A derivative of an expression reads its symbols as fields of the variables: the parser's
# Derivative(rho*v, x) of constants vanished, and any factor or sign on it was accepted.
FLUX_Q = "Find $\\partial\\rho/\\partial t$ in terms of $\\rho(x,t)$ and $v(x,t)$."
FLUX = "-\\frac{\\partial (\\rho v)}{\\partial x}"
FLUX_CASES = [
    (FLUX, FLUX, True),
    (FLUX, "-\\partial_x(\\rho v)", True),
    (FLUX, "-\\frac{\\partial}{\\partial x}(\\rho v)", True),
    (FLUX, "-\\frac{\\partial(v\\rho)}{\\partial x}", True),
    (FLUX, "\\frac{\\partial(\\rho v)}{\\partial x}", False),
    (FLUX, "-2\\frac{\\partial(\\rho v)}{\\partial x}", False),
    (FLUX, "-2\\partial_x(\\rho v)", False),
    (FLUX, "-\\frac{\\partial(\\rho v)}{\\partial t}", False),
    (FLUX, "-\\frac{\\partial(\\rho v^2)}{\\partial x}", False),
    (FLUX, "-\\rho\\frac{\\partial v}{\\partial x}", False),
    (FLUX, "0", False),
    ("\\frac{\\partial}{\\partial x}(U+V)", "-\\frac{\\partial}{\\partial x}(U+V)", False),
    ("\\frac{\\partial}{\\partial x}(U+V)", "\\frac{\\partial U}{\\partial x}", False),
    ("3\\frac{\\partial (u v)}{\\partial x}", "\\frac{\\partial(uv)}{\\partial x}", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), FLUX_CASES)
def test_a_derivative_of_an_expression_differentiates_fields(
    gold: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EX", question=FLUX_Q)
    assert verdict.correct is correct, verdict.reason


CONTINUITY_Q = (
    "Write the continuity equation for the density $\\rho(x,t)$ of a fluid moving with "
    "velocity $v(x,t)$."
)
CONTINUITY = "\\frac{\\partial \\rho}{\\partial t} + \\frac{\\partial (\\rho v)}{\\partial x} = 0"
CONTINUITY_CASES = [
    ("\\partial_t\\rho + \\partial_x(\\rho v) = 0", True),
    ("\\partial_t\\rho + v\\partial_x\\rho + \\rho\\partial_x v = 0", True),
    ("\\frac{\\partial \\rho}{\\partial t} = -\\frac{\\partial (\\rho v)}{\\partial x}", True),
    (
        "\\frac{\\partial \\rho}{\\partial t} = -v\\frac{\\partial \\rho}{\\partial x}"
        "-\\rho\\frac{\\partial v}{\\partial x}",
        True,
    ),
    ("\\partial_t\\rho + v\\partial_x\\rho = 0", False),
    ("\\partial_t\\rho - \\partial_x(\\rho v) = 0", False),
    ("\\partial_t\\rho + 2\\partial_x(\\rho v) = 0", False),
    ("\\partial_t\\rho + \\partial_t(\\rho v) = 0", False),
]


@pytest.mark.parametrize(("pred", "correct"), CONTINUITY_CASES)
def test_the_product_rule_in_an_equation_of_fields(pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", f"\\boxed{{{CONTINUITY}}}", "EQ", question=CONTINUITY_Q
    )
    assert verdict.correct is correct, verdict.reason


# A formula beside the number in an NV answer, evaluated with the values the question gives
# its symbols, must not contradict the gold; where a symbol is not given, or the dimension
# does not fit, it stays a step with nothing to check.
SPRING_Q = (
    "A block of mass $m$ against a spring of constant $k$ compressed by $x$ is released and "
    "slides up a frictionless ramp. Evaluate the height $h$ it reaches for $m = 0.250\\,"
    "\\mathrm{kg}$, $k = 400\\,\\mathrm{N/m}$, $x = 0.100\\,\\mathrm{m}$ and $g = 9.80\\,"
    "\\mathrm{m/s^2}$."
)
RC_Q = (
    "A capacitor $C = 50.0\\,\\mu\\mathrm{F}$ charges through $R = 2.00\\,\\mathrm{k\\Omega}$. "
    "How long does it take to reach 90% of its final charge?"
)
FORMULAS = [
    (SPRING_Q, "0.816\\,\\mathrm{m}", "h = \\frac{kx^2}{2mg} = 0.816\\,\\mathrm{m}", True),
    (SPRING_Q, "0.816\\,\\mathrm{m}", "h = \\frac{kx^{2}}{2gm} = 81.6\\,\\mathrm{cm}", True),
    (SPRING_Q, "0.816\\,\\mathrm{m}", "h = \\frac{kx^2}{mg} = 0.816\\,\\mathrm{m}", False),
    (SPRING_Q, "0.816\\,\\mathrm{m}", "h = \\frac{kx^2}{4mg} = 0.816\\,\\mathrm{m}", False),
    (SPRING_Q, "0.816\\,\\mathrm{m}", "h = \\frac{kx}{2mg} = 0.816\\,\\mathrm{m}", True),
    (SPRING_Q, "0.816\\,\\mathrm{m}", "h = \\frac{v^2}{2g} = 0.816\\,\\mathrm{m}", True),
    (RC_Q, "0.230\\,\\mathrm{s}", "t = RC\\ln 10 = 0.230\\,\\mathrm{s}", True),
    (RC_Q, "0.230\\,\\mathrm{s}", "t = RC\\ln 0.9 = 0.230\\,\\mathrm{s}", False),
    (RC_Q, "0.230\\,\\mathrm{s}", "t = 2RC\\ln 10 = 0.230\\,\\mathrm{s}", False),
    (RC_Q, "0.230\\,\\mathrm{s}", "t = RC\\ln 2 = 0.230\\,\\mathrm{s}", False),
    (RC_Q, "0.230\\,\\mathrm{s}", "t = RC\\ln 2 = 0.500\\,\\mathrm{s}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), FORMULAS)
def test_a_formula_must_not_contradict_the_givens(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "NV", question=question)
    assert verdict.correct is correct, verdict.reason


def test_givens_read_as_written_not_case_folded() -> None:
    from studybench.verify.given import given_quantities

    givens = given_quantities(SPRING_Q)
    assert str(givens["k"].units) == "newton / meter"
    assert set(givens) == {"m", "k", "x", "g"}
    assert given_quantities("Two parts: $v = 2$ m/s here and $v = 3$ m/s there. Find v.") == {}


# A unit after a symbolic answer, where the gold (a formula) has none, must share the
# dimension of the quantity the question asks for.
NORMAL_Q = "A sphere rolls in a loop. Find the normal force $N$ on it at the bottom."
CURRENT_Q = (
    "Find the magnitude of the current $I$ in the circuit when the rod moves with speed $v$."
)
HEIGHT_Q = "Derive an expression for the maximum height $h$ reached by the block."
UNITS_AFTER = [
    (NORMAL_Q, "\\frac{3}{7}mg", "\\frac{3}{7}mg\\,\\mathrm{N}", True),
    (NORMAL_Q, "\\frac{3}{7}mg", "\\frac{3}{7}mg\\,\\mathrm{kg}", False),
    (NORMAL_Q, "\\frac{3}{7}mg", "N = \\frac37 mg\\ \\text{J}", False),
    (NORMAL_Q, "\\frac{3}{7}mg", "\\frac{3}{7}mg", True),
    (CURRENT_Q, "\\frac{BLv}{R}", "\\frac{BLv}{R}\\ \\mathrm{A}", True),
    (CURRENT_Q, "\\frac{BLv}{R}", "\\frac{BLv}{R}\\ \\mathrm{V}", False),
    (HEIGHT_Q, "\\frac{kx^2}{2mg}", "\\frac{kx^2}{2mg}\\,\\mathrm{m}", True),
    (HEIGHT_Q, "\\frac{kx^2}{2mg}", "\\frac{kx^2}{2mg}\\,\\mathrm{J}", False),
    (
        "What is the angular speed of the disk?",
        "\\frac{v}{r}",
        "\\frac{v}{r}\\,\\mathrm{rad/s}",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), UNITS_AFTER)
def test_a_unit_after_a_formula_fits_the_asked_quantity(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EX", question=question)
    assert verdict.correct is correct, verdict.reason


ASKED = [
    ("Find the normal force N on the sphere at the bottom.", "newton"),
    ("What is the induced current in the rod?", "ampere"),
    ("Derive an expression for the maximum height $h$ reached.", "meter"),
    ("Find the speed of the block in terms of g and h.", "meter / second"),
    ("Find the time-averaged power.", "watt"),
    ("Find the current $I$ when the rod moves with speed $v$.", "ampere"),
    ("What is the angular speed of the disk?", None),
    ("Find the energy density of the field.", None),
    ("What is the ratio of the final speed to the initial speed?", None),
    ("Find the time constant of the circuit.", None),
    ("Find the heat capacity at constant volume.", None),
    ("Find the surface tension.", None),
    ("How high does it go?", None),
    ("Find the induced emf and the current.", None),
]


@pytest.mark.parametrize(("question", "unit"), ASKED)
def test_the_asked_quantitys_dimension(question: str, unit: str | None) -> None:
    from studybench.verify.question import asked_dimension

    found = asked_dimension(question)
    assert (str(found) if found is not None else None) == unit


# Recall (round 16's equivalent forms and honest outputs), each with wrong twins that stay
# rejected.
PENDULUM_Q = (
    "A simple pendulum of length $\\ell$ has period $T$. Find $\\ell$ in terms of $g$, $T$."
)
GAS_Q = (
    "An ideal gas is at $T = 300$ K. Find the mean kinetic energy of a molecule, using "
    "$k_B = 1.381\\times10^{-23}$ J/K."
)
LOOP_Q = "A bead slides around a loop of radius $R$. Find the minimum release height $h_{\\min}$."
RAIL_Q = (
    "A rod of length $L$ slides at speed $v$ on rails in a field $B$; the circuit has "
    "resistance $R$. Find the magnitude of the current."
)
SERIES_Q = "Find the sum of the series $\\sum_{k=0}^\\infty \\frac{1}{(2k+1)^2}$."
LEVELS_Q = "Find the energies of the first three levels of hydrogen, $E_1$, $E_2$, $E_3$."
LEVELS = (
    "\\boxed{-13.6\\,\\mathrm{eV}}, \\boxed{-3.40\\,\\mathrm{eV}}, \\boxed{-1.51\\,\\mathrm{eV}}"
)
ANGLES_Q = (
    "A projectile is launched at $v_0 = 30.0$ m/s. Find the set of launch angles $\\theta$ "
    "for which it clears the wall."
)
COIL_Q = "Find the magnitude of the induced emf and the induced current in the coil, in order."
BALL_Q = "At what times is the ball at a height of 15.0 m?"
BALL = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"
RECALL = [
    # \ell is the letter l
    (PENDULUM_Q, "\\ell = \\frac{gT^2}{4\\pi^2}", "EQ", "", "l = \\frac{gT^2}{4\\pi^2}", True),
    (PENDULUM_Q, "\\ell = \\frac{gT^2}{4\\pi^2}", "EQ", "", "l = \\frac{gT^2}{2\\pi^2}", False),
    (PENDULUM_Q, "2\\pi\\sqrt{\\ell/g}", "EX", "", "2\\pi\\sqrt{l/g}", True),
    (PENDULUM_Q, "2\\pi\\sqrt{\\ell/g}", "EX", "", "2\\pi\\sqrt{2l/g}", False),
    # k_BT: the subscript is B alone, the side no function of one quantity
    (
        GAS_Q,
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        "NV",
        "",
        "\\tfrac32 k_BT = 6.21\\times10^{-21}\\ \\text{J}",
        True,
    ),
    (
        GAS_Q,
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        "NV",
        "",
        "\\tfrac32 k_BT = 6.51\\times10^{-21}\\ \\text{J}",
        False,
    ),
    (
        GAS_Q,
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        "NV",
        "",
        "v_2^2 = 6.21\\times10^{-21}\\ \\text{J}",
        False,
    ),
    # the bare name for an extreme the question asks for
    (LOOP_Q, "h_{\\min} = \\frac{27}{10}R", "EQ", "", "h = \\frac{27R}{10}", True),
    (LOOP_Q, "h_{\\min} = \\frac{27}{10}R", "EQ", "", "h = 2.70R", True),
    (LOOP_Q, "h_{\\min} = \\frac{27}{10}R", "EQ", "", "h = 2.69R", False),
    (LOOP_Q, "h_{\\min} = \\frac{27}{10}R", "EQ", "", "h = \\frac{5}{2}R", False),
    (LOOP_Q, "h_{\\min} = \\frac{27}{10}R", "EQ", "", "h_{\\max} = 2.7R", False),
    (LOOP_Q, "h_{\\min} = \\frac{27}{10}R", "EQ", "", "H = 2.7R", False),
    # a step of the working in a quantity neither the gold nor the question writes
    (RAIL_Q, "\\frac{BLv}{R}", "EX", "", "I = \\frac{\\mathcal{E}}{R} = \\frac{BLv}{R}", True),
    (RAIL_Q, "\\frac{BLv}{R}", "EX", "", "I = \\frac{\\mathcal{E}}{R} = \\frac{BLv}{2R}", False),
    (RAIL_Q, "\\frac{BLv}{R}", "EX", "", "I = \\frac{BLv}{R} = \\frac{\\mathcal{E}}{2R}", False),
    (
        RAIL_Q,
        "\\frac{BLv}{R}",
        "EX",
        "",
        "I = \\frac{BLv}{2R} + \\frac{v}{R} = \\frac{BLv}{R}",
        False,
    ),
    # a series written out is no value of its own
    (
        SERIES_Q,
        "\\frac{\\pi^2}{8}",
        "EX",
        "",
        "1 + \\frac19 + \\frac1{25} + \\dots = \\frac{\\pi^2}{8}",
        True,
    ),
    (
        SERIES_Q,
        "\\frac{\\pi^2}{8}",
        "EX",
        "",
        "1 + \\frac19 + \\frac1{25} + \\dots = \\frac{\\pi^2}{6}",
        False,
    ),
    (SERIES_Q, "\\frac{\\pi^2}{8}", "EX", "", "\\frac{\\pi^2}{8} = 1 + \\frac19 + \\dots", False),
    # one unit after a bracketed tuple is every element's
    (LEVELS_Q, LEVELS, "TUP", "NV,NV,NV", "(-13.6, -3.40, -1.51)\\,\\text{eV}", True),
    (LEVELS_Q, LEVELS, "TUP", "NV,NV,NV", "\\left(-13.6, -3.4, -1.51\\right)\\ \\mathrm{eV}", True),
    (LEVELS_Q, LEVELS, "TUP", "NV,NV,NV", "(-13.6, -3.40, -1.51)\\,\\text{meV}", False),
    (LEVELS_Q, LEVELS, "TUP", "NV,NV,NV", "(-13.6, -3.40, -1.61)\\,\\text{eV}", False),
    # a Greek letter typed as a character
    (ANGLES_Q, "[20.4^\\circ, 69.6^\\circ]", "IN", "", "20.4° ≤ θ ≤ 69.6°", True),
    (ANGLES_Q, "[20.4^\\circ, 69.6^\\circ]", "IN", "", "20.4° ≤ θ ≤ 60.6°", False),
    # a remark after each element: describing words go, and since 1.22.0 the question's own
    # nouns go too where the remarks name the asked quantities in the order asked (a remark
    # naming another element swaps them: "(current)", "(emf)" is still rejected)
    (
        COIL_Q,
        "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}",
        "TUP",
        "NV,NV",
        "8.00\\,\\mathrm{V}\\ (\\text{emf}),\\ 2.00\\,\\mathrm{A}\\ (\\text{current})",
        True,
    ),
    (
        COIL_Q,
        "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}",
        "TUP",
        "NV,NV",
        "8.00\\,\\mathrm{V}\\ (\\text{current}),\\ 2.00\\,\\mathrm{A}\\ (\\text{emf})",
        False,
    ),
    (
        COIL_Q,
        "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}",
        "TUP",
        "NV,NV",
        "8.00\\,\\mathrm{V}\\ (\\text{emf}),\\ 0.500\\,\\mathrm{A}\\ (\\text{current})",
        False,
    ),
    (
        COIL_Q,
        "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}",
        "TUP",
        "NV,NV",
        "8.00\\,\\mathrm{V}\\ (\\text{kilo}),\\ 2.00\\,\\mathrm{A}\\ (\\text{current})",
        False,
    ),
    (
        BALL_Q,
        BALL,
        "ALT",
        "NV,NV",
        "t = 1.0\\,\\mathrm{s}\\ (\\text{up}),\\ t = 3.0\\,\\mathrm{s}\\ (\\text{down})",
        True,
    ),
    (
        BALL_Q,
        BALL,
        "ALT",
        "NV,NV",
        "t = 1.0\\,\\mathrm{s}\\ (\\text{up}),\\ t = 4.0\\,\\mathrm{s}\\ (\\text{down})",
        False,
    ),
    # a plain decimal comma in one value; no group of thousands opens with 0
    (
        "Find it.",
        "7.52\\times10^{-10}\\,\\mathrm{m}",
        "NV",
        "",
        "7,52 \\times 10^{-10}\\ \\text{m}",
        True,
    ),
    ("Find it.", "14.5\\,\\mathrm{m/s}", "NV", "", "v = 14,5\\ \\text{m/s}", True),
    ("Find it.", "14.5\\,\\mathrm{m/s}", "NV", "", "14,9\\ \\text{m/s}", False),
    ("Find it.", "1000\\,\\mathrm{m}", "NV", "", "1,000\\ \\text{m}", True),
    ("Find it.", "1.000\\,\\mathrm{m}", "NV", "", "1,000\\ \\text{m}", False),
    ("Find it.", "14.5", "NV", "", "14, 5", False),
]


@pytest.mark.parametrize(("question", "gold", "kind", "sequence", "pred", "correct"), RECALL)
def test_round16_recall_and_its_wrong_twins(
    question: str, gold: str, kind: str, sequence: str, pred: str, correct: bool
) -> None:
    gold = gold if gold.startswith("\\boxed") else f"\\boxed{{{gold}}}"
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", gold, kind, type_sequence=sequence, question=question
    )
    assert verdict.correct is correct, verdict.reason


# A table with a heading row of names (and an index column) is its values; a unit in a
# heading is its column's. Headings in the question's names must keep the question's order.
STATES_Q = (
    "The gas goes through states B, C and D. Find the temperatures $T_B$, $T_C$ and $T_D$ "
    "in terms of $T_0$."
)
STATES = "\\boxed{2T_0}, \\boxed{4T_0}, \\boxed{2T_0}"
TABLES = [
    (
        STATES_Q,
        STATES,
        "EX,EX,EX",
        "\\begin{array}{ccc} T_B & T_C & T_D \\\\ \\hline 2T_0 & 4T_0 & 2T_0 \\end{array}",
        True,
    ),
    (
        STATES_Q,
        STATES,
        "EX,EX,EX",
        "\\begin{array}{ccc} T_C & T_B & T_D \\\\ \\hline 2T_0 & 4T_0 & 2T_0 \\end{array}",
        False,
    ),
    (
        STATES_Q,
        STATES,
        "EX,EX,EX",
        "\\begin{array}{ccc} T_B & T_C & T_D \\\\ \\hline 2T_0 & 2T_0 & 2T_0 \\end{array}",
        False,
    ),
    (
        LEVELS_Q,
        LEVELS,
        "NV,NV,NV",
        "\\begin{array}{c|c} n & E_n\\ (\\text{eV}) \\\\ \\hline 1 & -13.6 \\\\ 2 & -3.40 \\\\ 3 & "
        "-1.51 \\end{array}",
        True,
    ),
    (
        LEVELS_Q,
        LEVELS,
        "NV,NV,NV",
        "\\begin{array}{c|c} n & E_n\\ (\\text{meV}) \\\\ \\hline 1 & -13.6 \\\\ 2 & -3.40 "
        "\\\\ 3 & -1.51 \\end{array}",
        False,
    ),
    (
        LEVELS_Q,
        LEVELS,
        "NV,NV,NV",
        "\\begin{array}{c|c} n & E_n\\ (\\text{eV}) \\\\ \\hline 1 & -13.6 \\\\ 2 & -3.40 \\\\ 3 & "
        "-1.61 \\end{array}",
        False,
    ),
    (
        "Find the induced emf $\\varepsilon$ and the current $I$.",
        "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}",
        "NV,NV",
        "\\begin{array}{|c|c|} \\hline \\varepsilon & I \\\\ \\hline 8.00\\ \\text{V} & 2.00\\ "
        "\\text{A} \\\\ \\hline \\end{array}",
        True,
    ),
    (
        "Find the induced emf $\\varepsilon$ and the current $I$.",
        "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}",
        "NV,NV",
        "\\begin{array}{|c|c|} \\hline \\varepsilon & I \\\\ \\hline 8.00\\ \\text{V} & 2.50\\ "
        "\\text{A} \\\\ \\hline \\end{array}",
        False,
    ),
]


@pytest.mark.parametrize(("question", "gold", "sequence", "pred", "correct"), TABLES)
def test_a_table_with_headings_is_its_values(
    question: str, gold: str, sequence: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", gold, "TUP", type_sequence=sequence, question=question
    )
    assert verdict.correct is correct, verdict.reason


# A unit inside the numerator that ends a side is the fraction's unit.
HYDROGEN_Q = "Find the energy $E_n$ of the level $n$ of hydrogen in electronvolts."
HYDROGEN = "\\boxed{-\\frac{13.6}{n^{2}}\\,\\mathrm{eV}}"
NUMERATOR_UNITS = [
    ("-\\frac{13.6\\ \\text{eV}}{n^2}", True),
    ("E_n = -13.6\\ \\text{eV}/n^2", True),
    ("-\\frac{13.6}{n^2}\\ \\text{eV}", True),
    ("-\\frac{13.6\\ \\text{meV}}{n^2}", False),
    ("-\\frac{13.6\\ \\text{eV}}{n}", False),
    ("E_n = -13.6\\ \\text{eV}/n", False),
    ("-\\frac{13.6\\ \\text{eV}}{n^2} + 1", False),
]


@pytest.mark.parametrize(("pred", "correct"), NUMERATOR_UNITS)
def test_a_unit_in_the_numerator_is_the_fractions(pred: str, correct: bool) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", HYDROGEN, "EX", question=HYDROGEN_Q)
    assert verdict.correct is correct, verdict.reason


TELESCOPE_Q = "Find the sum $\\sum_{n=1}^{\\infty} \\frac{1}{n(n+1)}$."
BARE_FRACTIONS = [
    ("\\sum_{n=1}^{\\infty}\\left(\\frac1n - \\frac1{n+1}\\right) = 1", True),
    ("\\sum_{n=1}^{\\infty}\\left(\\frac1n - \\frac1{n+1}\\right) = 2", False),
    ("\\sum_{n=1}^{\\infty}\\left(\\frac1n - \\frac1{n+2}\\right) = 1", False),
]


@pytest.mark.parametrize(("pred", "correct"), BARE_FRACTIONS)
def test_fractions_without_braces_inside_a_sum(pred: str, correct: bool) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", "\\boxed{1}", "EX", question=TELESCOPE_Q)
    assert verdict.correct is correct, verdict.reason


# A bound on a magnitude is the set it bounds.
SQUARE_Q = "For which values of $x$ is $x^2 > 1$?"
MAGNITUDES = [
    ("(-\\infty, -1) \\cup (1, \\infty)", "|x| > 1", True),
    ("(-\\infty, -1) \\cup (1, \\infty)", "\\left|x\\right| > 1", True),
    ("(-\\infty, -1) \\cup (1, \\infty)", "|x| \\ge 1", False),
    ("(-\\infty, -1) \\cup (1, \\infty)", "|x| > 2", False),
    ("(-\\infty, -1) \\cup (1, \\infty)", "|x| < 1", False),
    ("[-2, 2]", "|x| \\le 2", True),
    ("[-2, 2]", "|x| < 2", False),
    ("[-2, 2]", "|x| \\le 3", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), MAGNITUDES)
def test_a_bound_on_a_magnitude(gold: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "IN", question=SQUARE_Q)
    assert verdict.correct is correct, verdict.reason


# Round 17's attacks on the draft: the last value is checked even with a label after it; a
# quantity is new only when no spelling of it is written (subscripts, text, variants, case,
# the question's prose); only a written-out series is skipped; k_BT but not 2E_kin; headings
# in the question's order by name; turns are no givens.
WORKING = [
    (RAIL_Q, "\\frac{BLv}{R} = \\frac{\\mathcal{E}}{2R} = I", False),
    (RAIL_Q, "I = \\frac{BLv_{\\text{rod}}}{2R_{\\text{tot}}} = \\frac{BLv}{R}", False),
    (RAIL_Q, "I = \\frac{2BLv}{R}\\ \\text{(approx.)} = \\frac{BLv}{R}", False),
    (RAIL_Q, "I = \\frac{BLv}{r} = \\frac{BLv}{R}", False),
    (RAIL_Q, "I = \\frac{\\mathcal{E}}{R} = \\frac{BLv}{R}", True),
]


@pytest.mark.parametrize(("question", "pred", "correct"), WORKING)
def test_only_a_step_in_a_new_quantity_is_working(question: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", "\\boxed{\\frac{BLv}{R}}", "EX", question=question
    )
    assert verdict.correct is correct, verdict.reason


SERIES_SIDES = [
    ("\\frac{\\pi^2}{6} + \\dots = \\frac{\\pi^2}{8}", False),
    ("1.645\\ldots = \\frac{\\pi^2}{8}", False),
    ("1 + \\frac19 + \\dots = \\frac{\\pi^2}{8}", True),
]


@pytest.mark.parametrize(("pred", "correct"), SERIES_SIDES)
def test_only_a_written_out_series_is_skipped(pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", "\\boxed{\\frac{\\pi^2}{8}}", "EX", question=SERIES_Q
    )
    assert verdict.correct is correct, verdict.reason


SPEED_Q = "A car moves on a circular track. Find its maximum speed."
NAMED_VALUES = [
    ("v_max^2 = 14.5\\,\\mathrm{m/s}", False),
    ("2v_max = 14.5\\,\\mathrm{m/s}", False),
    ("v_max = 14.5\\,\\mathrm{m/s}", True),
]


@pytest.mark.parametrize(("pred", "correct"), NAMED_VALUES)
def test_a_word_subscript_names_one_quantity(pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", "\\boxed{14.5\\,\\mathrm{m/s}}", "NV", question=SPEED_Q
    )
    assert verdict.correct is correct, verdict.reason


HEADINGS = [
    (
        "\\begin{array}{ccc} T_{C} & T_{B} & T_{D} \\\\ \\hline 2T_0 & 4T_0 & 2T_0 \\end{array}",
        False,
    ),
    ("\\begin{array}{ccc} T_A & T_C & T_D \\\\ \\hline 2T_0 & 4T_0 & 2T_0 \\end{array}", False),
    (
        "\\begin{array}{ccc} T_{B} & T_{C} & T_{D} \\\\ \\hline 2T_0 & 4T_0 & 2T_0 \\end{array}",
        True,
    ),
]


@pytest.mark.parametrize(("pred", "correct"), HEADINGS)
def test_headings_name_the_questions_elements_in_order(pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"So \\boxed{{{pred}}}", STATES, "TUP", type_sequence="EX,EX,EX", question=STATES_Q
    )
    assert verdict.correct is correct, verdict.reason


WHEEL_Q = (
    "A wheel of radius $r = 0.500\\,\\mathrm{m}$ turns at $f = 300\\,\\mathrm{rev/min}$. "
    "Find the speed of a point on its rim."
)
GAS_UNITS_Q = "An ideal gas is at $T = 300$ K, with $k_B = 1.381\\times10^{-23}$ J/K. Find $E$."
GIVENS_MORE = [
    (WHEEL_Q, "15.7\\,\\mathrm{m/s}", "v = 2\\pi f r = 15.7\\,\\mathrm{m/s}", True),
    (
        GAS_UNITS_Q,
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        "E = 3k_BT = 6.21\\times10^{-21}\\,\\mathrm{J}",
        False,
    ),
    (
        GAS_UNITS_Q,
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        "E = \\tfrac32k_BT = 6.21\\times10^{-21}\\,\\mathrm{J}",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), GIVENS_MORE)
def test_givens_read_with_units_after_the_math_and_without_turns(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "NV", question=question)
    assert verdict.correct is correct, verdict.reason


def test_ell_is_l_only_without_an_l_of_its_own() -> None:
    question = "A rod of length $l$ has a mark at $\\ell$ from one end. Find the ratio $\\ell/l$."
    gold = "\\boxed{\\frac{\\ell}{l}}"
    assert not judge_inline("So \\boxed{1}", gold, "EX", question=question).correct
    assert judge_inline("So \\boxed{\\frac{\\ell}{l}}", gold, "EX", question=question).correct


RAMP_ANGLE_Q = (
    "A ramp of length $L = 2.00\\,\\mathrm{m}$ rises at $\\theta = 30^\\circ$. Find its height."
)
PURE_Q = "Take $a = 2$ and $b = 3$. Find the product."


@pytest.mark.parametrize(
    ("side", "form", "question", "contradicts"),
    [
        ("L\\sin\\theta", "1.00 m", RAMP_ANGLE_Q, False),  # degrees read as radians
        ("L\\cos\\theta", "1.00 m", RAMP_ANGLE_Q, True),
        ("\\cos\\theta", "0.866", RAMP_ANGLE_Q, False),  # a plain number from a function
        ("\\cos\\theta", "0.5", RAMP_ANGLE_Q, True),
        ("L\\tan\\theta", "1.00 s", RAMP_ANGLE_Q, False),  # another dimension
        ("ab", "6", PURE_Q, False),
        ("a + b", "6", PURE_Q, True),
        ("a + b", "5.1", PURE_Q, False),  # within the 3 % the givens' rounding may take
        ("a + b", "5.2", PURE_Q, True),
        ("a", "0", PURE_Q, False),  # no relative error against zero
        ("a", "20 ^{\\circ}C", PURE_Q, False),  # a point of a scale
        ("a + " + " + ".join(["0"] * 150), "5", PURE_Q, False),  # too long to evaluate
        ("a c", "6", PURE_Q, False),  # c is not given
        ("a", "6", "", False),
        ("a", "\\frac{", PURE_Q, False),  # a gold no parser reads
    ],
)
def test_contradicts_givens(side: str, form: str, question: str, contradicts: bool) -> None:
    from studybench.verify.given import contradicts_givens

    assert contradicts_givens(side, form, question) is contradicts


# Words left in a formula offer, bound or scale a value; read as symbols they multiplied a
# zero side away ("= 0 or 7" was the gold's equation).
MOTION_Q = "Write the equation of motion."
WORDED = [
    ("x - 5 = 0", "x - 5 = 0\\text{ or 7}", False),
    ("x - 5 = 0", "x - 5 = 0\\ \\text{ at least}", False),
    ("x - 5 = 0", "x - 5 = 0\\ \\text{ times 3}", False),
    ("\\ddot x + \\omega^2 x = 0", "\\ddot x + \\omega^2 x = 0\\ \\text{ or 7}", False),
    ("\\frac{mg}{2}", "\\frac{mg}{2}\\text{ doubled}", False),
    ("x - 5 = 0", "x - 5 = 0", True),
    ("\\frac{mg}{2}", "\\frac{mg}{2}\\ \\text{(downward)}", True),
    ("\\frac{mg}{2}", "\\frac{mg}{2}\\ \\text{N}", True),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), WORDED)
def test_words_in_a_formula_are_no_symbols(gold: str, pred: str, correct: bool) -> None:
    kind = "EQ" if "=" in gold else "EX"
    verdict = judge_inline(f"So \\boxed{{{pred}}}", f"\\boxed{{{gold}}}", kind, question=MOTION_Q)
    assert verdict.correct is correct, verdict.reason
