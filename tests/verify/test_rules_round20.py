"""Verifier 1.23.0 rules (round 20: red-team sets r20a, false accepts, and r20b, equivalent
forms), each with its table of cases and the honest controls the rule must leave alone."""

from __future__ import annotations

import pytest

from studybench.verify.constant_values import REFERENCE, constant_values
from studybench.verify.parsing import coarsest_precision, written_precision
from studybench.verify.unit_arithmetic import quantity_arithmetic
from studybench.verify.verifier import Verdict, judge_inline

# ---------------------------------------------------------------------------------------------
# Physical constants written as their values (constant_values)
# ---------------------------------------------------------------------------------------------

PHOTON = "Find the energy $E$ of a photon of wavelength $\\lambda$."
PLANCK_NAMED = (
    "Planck's constant $h$ and the speed of light $c$ are known. Find the energy $E$ of a "
    "photon of wavelength $\\lambda$."
)
HEIGHT = "A lamp at height $h$ sends light of wavelength $\\lambda$ down. Find the quantity $E$."
HEAT = "Light heats a body of specific heat $c$ and mass $m$. Find the quantity $Q$."
WEIGHT = "A crate of mass $m$ rests on the floor. Find the normal force $N$ on it."
WEIGHT_G = WEIGHT + " Use $g = 9.8\\,\\mathrm{m/s^2}$."
FALL_G = "A stone is dropped from height $h$. Find the time $t$ it takes. Use $g = 9.81$ m/s$^2$."
GAS = "Find the mean translational kinetic energy of a molecule of an ideal gas at temperature $T$."
ESCAPE = "Find the escape speed from a planet of mass $M$ and radius $R$."
SHEAR = "A wire of shear modulus $\\mu$, mass $M$ and radius $R$ twists. Find the speed $v$."
ELECTRONS = (
    "Two electrons, each of charge $-e$, are held a distance $r$ apart. Find the potential "
    "energy of the pair."
)
RESTITUTION = (
    "A ball hits a floor with coefficient of restitution $e$ at speed $v$. Find its speed "
    "after the bounce."
)
OSCILLATOR = (
    "Find the zero-point energy $E_0$ of a quantum oscillator of angular frequency $\\omega$."
)
LIGHT_SPEED = (
    "Take $c = 3.00\\times10^{8}$ m/s. Find the energy $E$ of a photon of wavelength $\\lambda$."
)
PROSE_R = (
    "A rod of length L slides at speed v on rails in a field B; the rails are joined by a "
    "resistor R, which heats up. Find the current in terms of B, L, v and R."
)
UPRIGHT_R = (
    "A rod slides at speed $v$ on rails $L$ apart in a field $B$; the circuit has resistance "
    "$\\mathrm{R}$, and its temperature rises. Find the current."
)
PROSE_K = (
    "An electron gun's filament hangs from a spring of stiffness k; a mass m hangs from it. "
    "Find the period of small oscillations."
)
PROSE_C = (
    "Light falls on a plate; c is the specific heat capacity of the plate, of mass m, which "
    "warms by $\\Delta T$. Find the heat absorbed."
)
PLANET = "A planet of mass $m_p$ circles its star at radius $r$ with speed $v$. Find the force."
ENGINE = "An engine part of mass $m_e$ oscillates with amplitude $A$ at $\\omega$. Find the force."
MOLECULES = "A box holds $N_A$ molecules of gas A at temperature $T$. Find their kinetic energy."
BOLTZMANN_K = (
    "Electrons in a metal at temperature $T$ form a classical gas. Find the mean kinetic "
    "energy per electron, using k for Boltzmann's constant."
)
ELECTRON_MASS = (
    "An electron of mass $m_e$ and charge $e$ moves at speed $v$ across a field $B$. "
    "Find the radius of its orbit."
)
HC = "\\frac{hc}{\\lambda}"
PAIR = "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}"
SPRING = "A block of mass $m$ on a spring of constant $k$ carries charge $q$. Find the frequency."

CONSTANTS_WRITTEN = [
    # (question, gold, prediction, correct)
    (PHOTON, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}", True),
    (PHOTON, HC, "\\frac{2.0\\times10^{-25}}{\\lambda}", True),
    (PHOTON, HC, "\\frac{1.987\\times10^{-25}}{\\lambda}", True),
    (
        PHOTON,
        "\\frac{hc}{\\lambda}",
        "\\frac{(6.63\\times10^{-34})(3.00\\times10^{8})}{\\lambda}",
        True,
    ),
    (PHOTON, HC, "\\frac{h\\cdot 3.00\\times10^{8}}{\\lambda}", True),
    (PHOTON, HC, "\\frac{1240\\,\\mathrm{eV\\,nm}}{\\lambda}", True),
    (PLANCK_NAMED, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}", True),
    (LIGHT_SPEED, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}", True),
    (WEIGHT_G, "mg", "9.8\\,m", True),
    (WEIGHT_G, "mg", "9.81\\,m", True),
    (FALL_G, "\\sqrt{\\frac{2h}{g}}", "0.452\\sqrt{h}", True),
    (FALL_G, "\\sqrt{\\frac{2h}{g}}", "\\sqrt{\\frac{2h}{9.81}}", True),
    (GAS, "\\frac{3}{2}k_B T", "2.07\\times10^{-23}\\,T", True),
    (GAS, "\\frac{3}{2}k_B T", "\\frac{3}{2}(1.38\\times10^{-23})T", True),
    (ESCAPE, "\\sqrt{\\frac{2GM}{R}}", "1.155\\times10^{-5}\\sqrt{M/R}", True),
    (ESCAPE, "\\sqrt{\\frac{2GM}{R}}", "\\sqrt{\\frac{2(6.67\\times10^{-11})M}{R}}", True),
    (OSCILLATOR, "\\frac{1}{2}\\hbar\\omega", "5.27\\times10^{-35}\\,\\omega", True),
    (ELECTRONS, PAIR, "\\frac{2.31\\times10^{-28}}{r}", True),
    (
        ELECTRONS,
        "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}",
        "\\frac{(1.60\\times10^{-19})^2}{4\\pi(8.85\\times10^{-12})r}",
        True,
    ),
    # wrong: a power, a factor, an exponent, a value off by more than its digits
    (PHOTON, HC, "\\frac{1.99\\times10^{-25}}{\\lambda^2}", False),
    (PHOTON, HC, "\\frac{1.99\\times10^{-24}}{\\lambda}", False),
    (PHOTON, HC, "\\frac{2.05\\times10^{-25}}{\\lambda}", False),
    (PHOTON, HC, "\\frac{1.95\\times10^{-25}}{\\lambda}", False),
    (PHOTON, HC, "\\frac{1.990\\times10^{-25}}{\\lambda}", False),  # 4 digits
    (PHOTON, HC, "\\frac{1240\\,\\mathrm{eV\\,m}}{\\lambda}", False),
    (PHOTON, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}\\,\\mathrm{eV}", False),
    (PHOTON, HC, "1.99\\times10^{-25}", False),  # lambda dropped
    (PHOTON, HC, "0", False),
    (PHOTON, HC, "\\frac{1.99\\times10^{-25}}{\\lambda} + 10^{-40}", False),
    (
        PHOTON,
        "\\frac{hc}{\\lambda}",
        "\\frac{1.99\\times10^{-25}}{\\lambda} + 10^{-40}\\lambda",
        False,
    ),
    (
        PHOTON,
        "\\frac{hc}{\\lambda}",
        "\\frac{1.99\\times10^{-25}}{\\nu}",
        False,
    ),  # a name of its own
    (WEIGHT_G, "mg", "19.6\\,m", False),
    (WEIGHT_G, "mg", "9.9\\,m", False),
    (WEIGHT_G, "mg", "10\\,m", False),
    (WEIGHT_G, "mg", "9.8", False),
    (WEIGHT_G, "mg", "9.8\\,m + 0.01", False),
    (FALL_G, "\\sqrt{\\frac{2h}{g}}", "0.319\\sqrt{h}", False),
    (GAS, "\\frac{3}{2}k_B T", "1.38\\times10^{-23}\\,T", False),
    (GAS, "\\frac{3}{2}k_B T", "2.07\\times10^{-23}\\,T^2", False),
    (ESCAPE, "\\sqrt{\\frac{2GM}{R}}", "8.17\\times10^{-6}\\sqrt{M/R}", False),
    (OSCILLATOR, "\\frac{1}{2}\\hbar\\omega", "1.05\\times10^{-34}\\,\\omega", False),
    (ELECTRONS, PAIR, "\\frac{2.31\\times10^{-28}}{r^2}", False),
    (
        ELECTRONS,
        "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}",
        "\\frac{1.6\\times10^{-19}}{4\\pi\\varepsilon_0 r}",
        False,
    ),
    # the letter is a quantity of the question's: never a constant
    (HEIGHT, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}", False),
    (HEAT, "mc", "3\\times10^{8}\\,m", False),
    (SHEAR, "\\sqrt{\\frac{2GM}{R}}", "1.155\\times10^{-5}\\sqrt{M/R}", False),  # no gravity
    (RESTITUTION, "ev", "1.6\\times10^{-19}\\,v", False),
    (SPRING, "\\sqrt{k/m}", "\\sqrt{8.99\\times10^{9}/m}", False),
    (WEIGHT, "mg", "9.8\\,m", False),  # g not given: the answer is asked in symbols
    # the letter in the question's prose, or upright, or a subscripted name of its own
    (PROSE_R, "\\frac{BLv}{R}", "\\frac{BLv}{8.31}", False),
    (UPRIGHT_R, "\\frac{BLv}{R}", "0.120\\,BLv", False),
    (PROSE_K, "2\\pi\\sqrt{\\frac{m}{k}}", "2\\pi\\sqrt{\\frac{m}{8.99\\times10^{9}}}", False),
    (PROSE_C, "mc\\Delta T", "3.00\\times10^{8}\\,m\\Delta T", False),
    (PLANET, "\\frac{m_p v^{2}}{r}", "\\frac{1.67\\times10^{-27}\\,v^2}{r}", False),
    (ENGINE, "m_e \\omega^{2} A", "9.11\\times10^{-31}\\,\\omega^2 A", False),
    (MOLECULES, "\\frac{3}{2} N_A k_B T", "9.03\\times10^{23}\\,k_B T", False),
    (BOLTZMANN_K, "\\frac{3}{2} k T", "1.35\\times10^{10}\\,T", False),
    (ELECTRON_MASS, "\\frac{m_e v}{eB}", "\\frac{9.11\\times10^{-31}\\,v}{eB}", True),
    (None, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}", False),  # no question
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), CONSTANTS_WRITTEN)
def test_constants_written_as_their_values(
    question: str | None, gold: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EX", question=question)
    assert verdict.correct is correct, verdict.reason
    if correct:
        assert verdict.reason == "constant_values"


CONSTANTS_IN_EQUATIONS = [
    ("E = \\frac{hc}{\\lambda}", "E = \\frac{1.99\\times10^{-25}}{\\lambda}", True),
    ("E = \\frac{hc}{\\lambda}", "E = \\frac{1.99\\times10^{-24}}{\\lambda}", False),
    ("E = \\frac{hc}{\\lambda}", "p = \\frac{1.99\\times10^{-25}}{\\lambda}", False),  # label
    ("E = \\frac{hc}{\\lambda}", "E = \\frac{1.99\\times10^{-25}}{\\lambda^2}", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), CONSTANTS_IN_EQUATIONS)
def test_constants_written_as_values_in_an_equation(gold: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "EQ", question=PHOTON)
    assert verdict.correct is correct, verdict.reason


def test_a_constant_in_a_tuple_element_is_judged_in_its_place() -> None:
    gold = "\\boxed{\\left(\\frac{hc}{\\lambda}, 2\\lambda\\right)}"
    right = "\\boxed{\\left(\\frac{1.99\\times10^{-25}}{\\lambda}, 2\\lambda\\right)}"
    wrong = "\\boxed{\\left(\\frac{1.99\\times10^{-25}}{\\lambda}, 3\\lambda\\right)}"
    assert judge_inline(right, gold, "TUP", type_sequence="EX,EX", question=PHOTON).correct
    verdict = judge_inline(wrong, gold, "TUP", type_sequence="EX,EX", question=PHOTON)
    assert (verdict.correct, verdict.reason) == (False, "element_1:wrong_value")


def test_constant_values_are_the_reference_values_in_si_units() -> None:
    values = constant_values({"hbar", "k_B", "epsilon_0", "m_e"}, "An electron orbits.")
    assert values is not None
    assert values["hbar"] == pytest.approx(1.054571817e-34, rel=1e-9)
    assert values["k_B"] == pytest.approx(1.380649e-23, rel=1e-12)
    assert values["epsilon_0"] == pytest.approx(8.8541878128e-12, rel=1e-9)
    assert values["m_e"] == pytest.approx(9.1093837e-31, rel=1e-7)
    given = constant_values({"c", "h"}, LIGHT_SPEED)
    assert given is not None and given["c"] == pytest.approx(3.00e8)  # the question's value
    assert constant_values({"g"}, WEIGHT_G) == {"g": pytest.approx(9.8)}
    assert constant_values({"g"}, WEIGHT) is None
    assert constant_values({"x"}, PHOTON) is None  # no constant


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_every_ambiguous_letter_needs_its_physics_in_the_question(name: str) -> None:
    if REFERENCE[name].cue is None:
        assert constant_values({name}, None) is not None
    else:
        assert constant_values({name}, None) is None
        assert constant_values({name}, "A box of mass $m$ slides. Find $v$.") is None


def test_the_coarsest_decimal_bounds_a_product_of_rounded_constants() -> None:
    text = "\\frac{(1.60\\times10^{-19})^2}{4\\pi(8.85\\times10^{-12})r}"
    assert coarsest_precision(text) == pytest.approx(0.005 / 1.60)
    assert written_precision(text, whole_numbers=False) == pytest.approx(0.005 / 8.85)
    assert coarsest_precision("3\\times10^{8}") < 1e-6  # whole numbers are exact


# ---------------------------------------------------------------------------------------------
# A numeric answer left as arithmetic on quantities with their units (unit_arithmetic)
# ---------------------------------------------------------------------------------------------

PHOTON_J = "3.98\\times10^{-19}\\,\\mathrm{J}"
HC_OVER = (
    "\\frac{(6.63\\times10^{-34}\\,\\mathrm{J\\,s})(3.00\\times10^{8}\\,\\mathrm{m/s})}"
    "{5.00\\times10^{-%d}\\,\\mathrm{%s}}"
)
QUANTITY_ARITHMETIC = [
    # (prediction, gold, correct, reason)
    (HC_OVER % (7, "m"), PHOTON_J, True, "unit_converted"),
    (HC_OVER % (7, "m"), "2.48\\,\\mathrm{eV}", True, "unit_converted"),
    (
        "(6.63\\times10^{-34}\\,\\mathrm{J\\,s})(6.00\\times10^{14}\\,\\mathrm{Hz})",
        PHOTON_J,
        True,
        None,
    ),
    (
        "\\tfrac32 (1.38\\times10^{-23}\\,\\mathrm{J/K})(300\\,\\mathrm{K})",
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        True,
        None,
    ),
    ("\\frac{2.0\\,\\mathrm{m}}{0.50\\,\\mathrm{s}}", "4.0\\,\\mathrm{m/s}", True, None),
    ("\\sqrt{(2.0\\,\\mathrm{m^{2}})(8.0\\,\\mathrm{s^{-2}})}", "4.0\\,\\mathrm{m/s}", True, None),
    # wrong: an exponent, a unit of another dimension, a sum of two dimensions
    (HC_OVER % (6, "m"), PHOTON_J, False, "wrong_value"),
    (HC_OVER % (7, "s"), PHOTON_J, False, "unit_mismatch"),
    (
        "\\tfrac12 (1.38\\times10^{-23}\\,\\mathrm{J/K})(300\\,\\mathrm{K})",
        "6.21\\times10^{-21}\\,\\mathrm{J}",
        False,
        "wrong_value",
    ),
    ("(2.0\\,\\mathrm{m}) + (3.0\\,\\mathrm{s})", "5.0\\,\\mathrm{m}", False, None),
    (
        "\\frac{2.0\\,\\mathrm{m}}{0.50\\,\\mathrm{s}}",
        "4.0\\,\\mathrm{m/s^2}",
        False,
        "unit_mismatch",
    ),
]


@pytest.mark.parametrize(("pred", "gold", "correct", "reason"), QUANTITY_ARITHMETIC)
def test_arithmetic_on_quantities_is_the_quantity_it_works_out_to(
    pred: str, gold: str, correct: bool, reason: str | None
) -> None:
    verdict = judge_inline(f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", "NV", question=PHOTON)
    assert verdict.correct is correct, verdict.reason
    if reason is not None:
        assert verdict.reason == reason


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("(2 m)(3 s)", (6.0, "meter * second")),
        ("\\frac{2 m}{4 s}", (0.5, "meter / second")),
        ("3 m", None),  # one unit: the plain reader's
        ("(2 m)(x)", None),  # a name of its own
        ("(2 m) + (3 s)", None),  # two dimensions added
        ("\\boxed{3.0 s}", None),  # a box is one quantity as written
        ("(2 m)(3 s) = 6", None),  # a relation
        ("(2 parsecs)(3 zorgs)", None),  # a unit pint does not know
    ],
)
def test_quantity_arithmetic_reads_only_arithmetic_on_known_units(
    text: str, read: tuple[float, str] | None
) -> None:
    found = quantity_arithmetic(text)
    if read is None:
        assert found is None
    else:
        assert found is not None
        assert (found[0], str(found[1])) == (pytest.approx(read[0]), read[1])


def _judge(
    pred: str, gold: str, kind: str, question: str | None = None, sequence: str = ""
) -> Verdict:
    return judge_inline(
        f"\\boxed{{{pred}}}", f"\\boxed{{{gold}}}", kind, type_sequence=sequence, question=question
    )


# ---------------------------------------------------------------------------------------------
# A vector's coefficients in brackets are a sum, not a product of unit vectors (soundness)
# ---------------------------------------------------------------------------------------------

FORCE = "(3\\hat{x} + 4\\hat{y})\\,\\mathrm{N}"
HAT_SUMS = [
    ("(4\\hat{x} + 3\\hat{y})\\,\\mathrm{N}", FORCE, False),  # swapped: was "structural"
    ("(5\\hat{x} + 2\\hat{y})\\,\\mathrm{N}", FORCE, False),  # 5 + 2 = 3 + 4
    ("(3\\hat{x} - 4\\hat{y})\\,\\mathrm{N}", FORCE, False),
    ("\\vec F = (4\\hat{x} + 3\\hat{y})\\,\\mathrm{N}", FORCE, False),
    ("(4\\hat{y} + 3\\hat{x})\\,\\mathrm{N}", FORCE, True),  # was "operator_order"
    ("(3\\hat{x} + 4\\hat{y})\\,\\mathrm{N}", FORCE, True),
    ("2(3\\hat{x} + 4\\hat{y})", "6\\hat{x} + 8\\hat{y}", True),
    ("2(3\\hat{x} - 4\\hat{y})", "6\\hat{x} + 8\\hat{y}", False),
    # operators still keep their order
    ("\\hat p\\hat x - \\hat x\\hat p", "\\hat x\\hat p - \\hat p\\hat x", False),
    ("(\\hat p + 1)\\hat x", "\\hat x\\hat p + \\hat x", False),
]


@pytest.mark.parametrize(("pred", "gold", "correct"), HAT_SUMS)
def test_unit_vectors_summed_in_brackets(pred: str, gold: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "EX")
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("piece", "product"),
    [
        ("\\hat x\\hat p", True),
        ("\\hat x(\\hat p + 1)", True),
        ("(\\hat x + 1)(\\hat p + 2)", True),
        ("(\\hat x + \\hat y)\\hat z", True),
        ("(4\\hat x + 3\\hat y) N", False),
        ("((\\hat x) + \\hat y)", False),
        ("\\frac{\\hat x}{\\hat y}", True),
    ],
)
def test_which_hats_multiply(piece: str, product: bool) -> None:
    from studybench.verify.relations import _HATTED, multiplies_hats

    assert multiplies_hats(piece, list(_HATTED.finditer(piece))) is product


# ---------------------------------------------------------------------------------------------
# A precision the question states is the tolerance (soundness)
# ---------------------------------------------------------------------------------------------

SIX_FIGURES = "Compute the ratio to six significant figures."
STATED_PRECISION = [
    ("3.14169", "3.14159", SIX_FIGURES, False),  # right at 1 %
    ("3.14158", "3.14159", SIX_FIGURES, False),
    ("3.1416", "3.14159", SIX_FIGURES, False),
    ("3.14159", "3.14159", SIX_FIGURES, True),
    ("3.141593", "3.14159", SIX_FIGURES, True),
    ("3.14169", "3.14159", "Compute the ratio.", True),  # no precision asked: 1 %
    ("2.46", "2.45", "Give 3 significant figures.", True),  # three figures are what 1 % means
    (
        "1.2346\\times10^{3}\\,\\mathrm{m}",
        "1.2345\\times10^{3}\\,\\mathrm{m}",
        "Give 5 s.f.",
        False,
    ),
    ("1.2345\\,\\mathrm{km}", "1.2345\\times10^{3}\\,\\mathrm{m}", "Give five sig figs.", True),
    ("1.2346\\,\\mathrm{km}", "1.2345\\times10^{3}\\,\\mathrm{m}", "Give four sig figs.", True),
]


@pytest.mark.parametrize(("pred", "gold", "question", "correct"), STATED_PRECISION)
def test_a_stated_precision_is_the_tolerance(
    pred: str, gold: str, question: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Math typed as plain text; a calculator's E in an upright group
# ---------------------------------------------------------------------------------------------

PLAIN_MATH = [
    ("sqrt(2gh)", "\\sqrt{2 g h}", "EX", True),
    ("sqrt(2*g*h)", "\\sqrt{2 g h}", "EX", True),
    ("(2 g h)^(1/2)", "\\sqrt{2 g h}", "EX", True),
    ("sqrt(10*g*h/7)", "\\sqrt{\\frac{10 g h}{7}}", "EX", True),
    ("v₀² sin(2θ)/g", "\\frac{v_0^{2}\\sin 2\\theta}{g}", "EX", True),
    ("p₀/2^(5/3)", "2^{-5/3} p_0", "EX", True),
    ("p₀V₀ ln 2", "p_0 V_0 \\ln 2", "EX", True),
    ("p_0V_0 ln(2)", "p_0 V_0 \\ln 2", "EX", True),
    ("7.52\\mathrm{E}{-10}\\,\\mathrm{m}", "7.52\\times10^{-10}\\,\\mathrm{m}", "NV", True),
    ("3.98\\text{E-}19\\ \\mathrm{J}", "3.98\\times10^{-19}\\,\\mathrm{J}", "NV", True),
    ("3.98\\text{e}{-19}\\ \\mathrm{J}", "3.98\\times10^{-19}\\,\\mathrm{J}", "NV", True),
    # wrong
    ("sqrt(gh)", "\\sqrt{2 g h}", "EX", False),
    ("(2 g h)^(1/3)", "\\sqrt{2 g h}", "EX", False),
    ("p₀/2^(3/5)", "2^{-5/3} p_0", "EX", False),
    ("p₀V₀ ln 3", "p_0 V_0 \\ln 2", "EX", False),
    ("v₀² sin(θ)/g", "\\frac{v_0^{2}\\sin 2\\theta}{g}", "EX", False),
    ("3.98\\text{E-}18\\ \\mathrm{J}", "3.98\\times10^{-19}\\,\\mathrm{J}", "NV", False),
]


@pytest.mark.parametrize(("pred", "gold", "kind", "correct"), PLAIN_MATH)
def test_math_typed_as_plain_text(pred: str, gold: str, kind: str, correct: bool) -> None:
    verdict = _judge(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("sqrt(2gh)", "√(2gh)"),
        ("x ln 2", "x \\ln 2"),
        ("\\ln 2", "\\ln 2"),  # already a command
        ("the sin of pride", "the sin of pride"),  # a word: no bracket, number or command after
        ("cosine", "cosine"),
        ("e^(-t/T)", "e^{-t/T}"),
        ("v₁₂", "v_{12}"),
    ],
)
def test_plain_math_rewrites_only_math(text: str, read: str) -> None:
    from studybench.verify.normalize import plain_math

    assert " ".join(plain_math(text).split()) == read


# ---------------------------------------------------------------------------------------------
# Remarks of circumstance after a value with its unit
# ---------------------------------------------------------------------------------------------

CYCLE = (
    "A gas is heated at constant volume from state $A$ to state $B$, then expands to $C$. "
    "Find the temperature at $B$ if $T_A = 300$ K."
)
FALL = "A ball falls from rest through 1.00 m, neglecting air resistance. Find its speed at impact."
CIRCUMSTANCES = [
    ("600\\ \\mathrm{K}\\ (\\text{at B})", "600\\,\\mathrm{K}", CYCLE, True),
    ("600\\ \\mathrm{K}\\ \\text{(after heating)}", "600\\,\\mathrm{K}", CYCLE, True),
    ("4.43\\ \\mathrm{m/s}\\ \\text{(just before impact)}", "4.43\\,\\mathrm{m/s}", FALL, True),
    (
        "4.43\\ \\mathrm{m/s}\\ \\text{(neglecting air resistance)}",
        "4.43\\,\\mathrm{m/s}",
        FALL,
        True,
    ),
    ("4.43\\ \\mathrm{m/s}\\ \\text{(with no friction)}", "4.43\\,\\mathrm{m/s}", FALL, True),
    # a value word, a quantifier, a letter the question does not write, a wrong value
    ("600\\ \\mathrm{K}\\ \\text{(at twice the volume)}", "600\\,\\mathrm{K}", CYCLE, False),
    ("600\\ \\mathrm{K}\\ \\text{(at B, each)}", "600\\,\\mathrm{K}", CYCLE, False),
    ("600\\ \\mathrm{K}\\ \\text{(in total)}", "600\\,\\mathrm{K}", CYCLE, False),
    ("600\\ \\mathrm{K}\\ (\\text{at Q})", "600\\,\\mathrm{K}", CYCLE, False),
    ("600\\ \\mathrm{K}\\ \\text{(per mole)}", "600\\,\\mathrm{K}", CYCLE, False),
    ("900\\ \\mathrm{K}\\ (\\text{at B})", "600\\,\\mathrm{K}", CYCLE, False),
    ("4.43\\ \\mathrm{m/s}\\ \\text{(with no mass)}", "4.43\\,\\mathrm{m/s}", FALL, False),
]


@pytest.mark.parametrize(("pred", "gold", "question", "correct"), CIRCUMSTANCES)
def test_remarks_of_circumstance(pred: str, gold: str, question: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Vectors in the gold's unit vectors: bold and dotless letters, the other family, components
# ---------------------------------------------------------------------------------------------

IJ = "3\\hat{i} + 4\\hat{j}"
Z_FORCE = "qvB\\,\\hat{k}"
VECTOR_FORMS = [
    ("3\\mathbf{i} + 4\\mathbf{j}", IJ, "EX", True),
    ("3\\,\\hat\\imath + 4\\,\\hat\\jmath", IJ, "EX", True),
    ("3\\hat{\\mathbf{i}} + 4\\hat{\\mathbf{j}}", IJ, "EX", True),
    ("(3, 4)", IJ, "EX", True),
    ("(3, 4, 0)", IJ, "EX", True),
    ("\\langle 3, 4 \\rangle", IJ, "EX", True),
    ("\\begin{pmatrix}3\\\\4\\end{pmatrix}", IJ, "EX", True),
    ("3\\hat{x} + 4\\hat{y}", IJ, "EX", True),  # the other Cartesian family
    ("qvB\\,\\mathbf{k}", Z_FORCE, "EX", True),
    ("(0, 0, qvB)", Z_FORCE, "EX", True),
    ("(3, 4)\\ \\mathrm{N}", FORCE, "NV", True),
    ("(3\\,\\mathbf{i} + 4\\,\\mathbf{j})\\ \\mathrm{N}", FORCE, "NV", True),
    ("\\langle 3, 4\\rangle\\ \\mathrm{N}", FORCE, "NV", True),
    # wrong: swapped, negated, another axis, another unit
    ("(4, 3)", IJ, "EX", False),
    ("(3, 4, 1)", IJ, "EX", False),
    ("3\\mathbf{i} - 4\\mathbf{j}", IJ, "EX", False),
    ("3\\hat{i} + 4\\hat{k}", IJ, "EX", False),
    ("(0, 0, -qvB)", Z_FORCE, "EX", False),
    ("(0, qvB, 0)", Z_FORCE, "EX", False),
    ("-qvB\\,\\mathbf{k}", Z_FORCE, "EX", False),
    ("(3, 4)\\ \\mathrm{kN}", FORCE, "NV", False),
    ("(3\\,\\mathbf{j} + 4\\,\\mathbf{i})\\ \\mathrm{N}", FORCE, "NV", False),
    ("\\langle 3, -4\\rangle\\ \\mathrm{N}", FORCE, "NV", False),
]


@pytest.mark.parametrize(("pred", "gold", "kind", "correct"), VECTOR_FORMS)
def test_vectors_in_the_gold_unit_vectors(pred: str, gold: str, kind: str, correct: bool) -> None:
    verdict = _judge(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


def test_a_gold_without_unit_vectors_leaves_the_answer_as_written() -> None:
    from studybench.verify.unit_vectors import in_gold_basis

    assert in_gold_basis("(3, 4)", "\\sqrt{2gh}") == "(3, 4)"
    assert in_gold_basis("\\mathbf{x}", "3\\hat{x}") == "\\mathbf{x}"  # a position vector


# ---------------------------------------------------------------------------------------------
# Tuple elements numbered in one box
# ---------------------------------------------------------------------------------------------

EMF = "8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}"
ENUMERATED = [
    ("\\text{(a) } 8.00\\ \\mathrm{V},\\ \\text{(b) } 2.00\\ \\mathrm{A}", EMF, True),
    ("(a)\\ 8.00\\ \\mathrm{V}\\quad (b)\\ 2.00\\ \\mathrm{A}", EMF, True),
    ("\\text{(i) } 8.00\\ \\mathrm{V} \\quad \\text{(ii) } 2.00\\ \\mathrm{A}", EMF, True),
    ("\\text{1) } 8.00\\ \\mathrm{V}\\ \\ \\text{2) } 2.00\\ \\mathrm{A}", EMF, True),
    ("\\text{(a) } 2.00\\ \\mathrm{A},\\ \\text{(b) } 8.00\\ \\mathrm{V}", EMF, False),  # swapped
    ("\\text{(a) } 8.00\\ \\mathrm{V},\\ \\text{(b) } 2.50\\ \\mathrm{A}", EMF, False),
    ("\\text{(b) } 8.00\\ \\mathrm{V},\\ \\text{(a) } 2.00\\ \\mathrm{A}", EMF, False),  # order
]


@pytest.mark.parametrize(("pred", "gold", "correct"), ENUMERATED)
def test_numbered_elements_of_a_tuple(pred: str, gold: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "TUP", sequence="NV,NV")
    assert verdict.correct is correct, verdict.reason


def test_enumerated_elements_needs_the_markers_in_order_and_count() -> None:
    from studybench.verify.enumerated import enumerated_elements

    assert enumerated_elements("(a) 1, (b) 2", 2) == "1, 2"
    assert enumerated_elements("(a) 1, (b) 2", 3) == "(a) 1, (b) 2"
    assert enumerated_elements("(a) 1, (c) 2", 2) == "(a) 1, (c) 2"
    assert enumerated_elements("x (a) 1, (b) 2", 2) == "x (a) 1, (b) 2"


# ---------------------------------------------------------------------------------------------
# A value asked in units of a name that is no unit
# ---------------------------------------------------------------------------------------------

TAU = (
    "A capacitor charges with time constant $\\tau$. How long does the charge take to reach "
    "90% of its final value, in units of $\\tau$?"
)
IN_UNITS_OF = [
    ("2.3", True),
    ("2.303", True),
    ("2.30\\tau", True),
    ("t = 2.30\\,\\tau", True),
    ("\\tau\\ln 10", True),
    ("3.2", False),
    ("0.230", False),
    ("2.30\\,\\mathrm{ms}", False),
    ("\\ln 2\\,\\tau", False),
]


@pytest.mark.parametrize(("pred", "correct"), IN_UNITS_OF)
def test_a_bare_number_in_units_of_a_name(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "2.30\\,\\tau", "NV", TAU)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# An option's letter with a text that says the opposite of the option's
# ---------------------------------------------------------------------------------------------

PENDULUM = (
    "What would make the bob reach a greater speed at the bottom? (A) a longer string "
    "(B) a heavier bob (C) a greater release height (D) a smaller release height"
)
LETTER_TEXTS = [
    ("\\text{(C) a greater release height}", True),
    ("\\text{C — a greater release height}", True),
    ("C", True),
    ("\\text{(C) a smaller release height}", False),  # D's words: another option's text
    ("\\text{(C) a lower release height}", False),  # the opposite of "greater"
    ("\\text{(C) release from less height}", False),
    ("\\text{(C) release from higher up}", True),
]


@pytest.mark.parametrize(("pred", "correct"), LETTER_TEXTS)
def test_a_letter_whose_text_says_the_opposite(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "C", "MC", PENDULUM)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Small spellings (red team r21b): a degree without its caret, ℃, "per cent", kilohms, N-m,
# "Not true", a check mark before the truth word
# ---------------------------------------------------------------------------------------------

SPELLINGS = [
    ("45\\circ", "45^\\circ", "NV", True),
    ("46\\circ", "45^\\circ", "NV", False),
    ("57.5 ℃", "57.5\\,^\\circ\\mathrm{C}", "NV", True),
    ("57.5 ℉", "57.5\\,^\\circ\\mathrm{C}", "NV", False),
    ("25\\ \\text{per cent}", "25\\%", "NV", True),
    ("35\\ \\text{per cent}", "25\\%", "NV", False),
    ("4.70\\ \\text{kilohms}", "4.70\\,\\mathrm{k\\Omega}", "NV", True),
    ("4.70\\ \\text{megohms}", "4.70\\,\\mathrm{k\\Omega}", "NV", False),
    ("12.0\\ \\mathrm{N\\text{-}m}", "12.0\\,\\mathrm{N\\,m}", "NV", True),
    ("12.0\\ \\text{N-m}", "12.0\\,\\mathrm{N\\,m}", "NV", True),
    ("12.0\\ \\text{N-s}", "12.0\\,\\mathrm{N\\,m}", "NV", False),
    ("12.0\\ \\text{N-mm}", "12.0\\,\\mathrm{N\\,m}", "NV", False),
    ("f\\circ g", "f\\circ g", "EX", True),  # composition, no degree
    ("\\text{Not true}", "\\text{False}", "TF", True),
    ("\\text{Not true}", "\\text{True}", "TF", False),
    ("\\text{not false.}", "\\text{True}", "TF", True),
    ("\\text{Not true in general}", "\\text{False}", "TF", False),
    ("\\checkmark\\ \\text{True}", "\\text{True}", "TF", True),
    ("\\checkmark\\ \\text{True}", "\\text{False}", "TF", False),
    ("✗ False", "\\text{False}", "TF", True),
    ("✓ False", "\\text{False}", "TF", False),
    ("\\neg\\text{True}", "\\text{False}", "TF", False),
]


@pytest.mark.parametrize(("pred", "gold", "kind", "correct"), SPELLINGS)
def test_small_spellings(pred: str, gold: str, kind: str, correct: bool) -> None:
    verdict = _judge(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A number written in words (number_words)
# ---------------------------------------------------------------------------------------------

IN_WORDS = [
    ("\\text{two point five metres per second}", "2.5\\,\\mathrm{m/s}", True),
    ("\\text{three}", "3", True),
    ("\\text{minus two}", "-2", True),
    ("\\text{one half}", "\\frac{1}{2}", True),
    ("\\text{twenty-one}", "21", True),
    ("\\text{three times}", "3", True),  # "three times larger": a count of times
    ("\\text{three point five metres per second}", "2.5\\,\\mathrm{m/s}", False),
    ("\\text{two point five kilometres per second}", "2.5\\,\\mathrm{m/s}", False),
    ("\\text{two}", "-2", False),
    ("\\text{one third}", "\\frac{1}{2}", False),
    ("\\text{two and a bit}", "2", False),
]


@pytest.mark.parametrize(("pred", "gold", "correct"), IN_WORDS)
def test_a_number_in_words(pred: str, gold: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "NV")
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("two point five metres per second", "2.5 metres per second"),
        ("three hundred and five s", "305 s"),
        ("one point zero five J", "1.05 J"),
        ("minus two", "-2"),
        ("the answer", None),
        ("two point", None),
    ],
)
def test_number_in_words_reads_one_number(text: str, digits: str | None) -> None:
    from studybench.verify.number_words import number_in_words

    assert number_in_words(text) == digits


# ---------------------------------------------------------------------------------------------
# Red team r21a on 1.23.0's new rules: a constant named elsewhere or meant otherwise, a
# decimal power, a point the question does not ask about, a circumstance the question
# excludes, an option's opposite in other words, a percentage in units of a name
# ---------------------------------------------------------------------------------------------

NAMED_ELSEWHERE = (
    "A charged bead of mass $m$ hangs on a spring of constant $k$. Coulomb's constant $k_e$ "
    "is needed only in part (b). Find the period of small oscillations."
)
NOT_GRAVITATIONAL = (
    "A wire of shear modulus $G$ (not the gravitational constant) and radius $R$ twists "
    "near a planet of mass $M$. Find the speed."
)
SPRING_UNWRITTEN = (
    "A charged block on a spring is displaced by $x$ from equilibrium. Find the elastic "
    "potential energy stored."
)
SOUND = "Light and sound leave a source at frequency $f$. Find the wavelength of the sound."
E_NAMED_AFTER = (
    "Two electrons a distance $r$ apart each carry charge $e$, where $e$ is the elementary "
    "charge. Find their potential energy."
)
CONSTANTS_IN_CONTEXT = [
    (
        NAMED_ELSEWHERE,
        "2\\pi\\sqrt{\\frac{m}{k}}",
        "2\\pi\\sqrt{\\frac{m}{8.99\\times10^{9}}}",
        False,
    ),
    (NOT_GRAVITATIONAL, "\\sqrt{\\frac{2GM}{R}}", "1.155\\times10^{-5}\\sqrt{M/R}", False),
    (SPRING_UNWRITTEN, "\\frac{kx^2}{2}", "\\frac{8.99\\times10^{9}x^2}{2}", False),
    (SOUND, "\\frac{c}{f}", "\\frac{3.00\\times10^{8}}{f}", False),
    (PHOTON, HC, "\\frac{1.99\\times10^{-25}}{\\lambda^{1.001}}", False),  # a decimal power
    (E_NAMED_AFTER, PAIR, "\\frac{2.31\\times10^{-28}}{r}", True),
    (PLANCK_NAMED, HC, "\\frac{1.99\\times10^{-25}}{\\lambda}", True),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), CONSTANTS_IN_CONTEXT)
def test_a_constant_is_the_letter_only_where_the_question_means_it(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "EX", question)
    assert verdict.correct is correct, verdict.reason


NEGLECTED = (
    "A block slides $2.00$ m down a frictionless ramp from rest. Find its speed at the bottom."
)
REMARK_CONTEXTS = [
    ("600\\ \\mathrm{K}\\ (\\text{at A})", "600\\,\\mathrm{K}", CYCLE, False),  # T_A is given
    ("6.26\\ \\mathrm{m/s}\\ \\text{(with friction)}", "6.26\\,\\mathrm{m/s}", NEGLECTED, False),
    ("6.26\\ \\mathrm{m/s}\\ \\text{(with no friction)}", "6.26\\,\\mathrm{m/s}", NEGLECTED, True),
    ("600\\ \\mathrm{K}\\ (\\text{at B})", "600\\,\\mathrm{K}", CYCLE, True),
]


@pytest.mark.parametrize(("pred", "gold", "question", "correct"), REMARK_CONTEXTS)
def test_a_circumstance_must_be_the_question_s(
    pred: str, gold: str, question: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


HALVING = (
    "What happens to the force when the distance doubles? (A) it doubles (B) it halves "
    "(C) it stays the same"
)
IMAGE = "What is the image? (A) real and inverted (B) virtual and upright"
OPPOSITE_WORDS = [
    (HALVING, "B", "\\text{(B) it increases}", False),
    (HALVING, "B", "\\text{(B) it grows}", False),
    (HALVING, "B", "\\text{(B) it gets bigger}", False),
    (HALVING, "B", "\\text{(B) it halves}", True),
    (HALVING, "B", "\\text{(B) it halves, since the force falls as the square}", True),
    (IMAGE, "B", "\\text{(B) virtual and not upright}", False),
    (IMAGE, "B", "\\text{(B) virtual and upside down}", False),
    (IMAGE, "B", "\\text{(B) virtual, upright}", True),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), OPPOSITE_WORDS)
def test_an_option_s_text_in_opposite_words(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "MC", question)
    assert verdict.correct is correct, verdict.reason


def test_a_percentage_is_no_value_in_units_of_a_name() -> None:
    verdict = _judge("230\\%", "2.30\\,\\tau", "NV", TAU)
    assert verdict.correct is False, verdict.reason


PROTON = "Express the proton mass as a multiple of the electron mass $m_e$."


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("1836\\ \\text{electron masses}", True),
        ("1836", True),
        ("1863\\ \\text{electron masses}", False),
        ("1836\\ \\text{proton masses}", False),
    ],
)
def test_a_multiple_of_the_electron_mass_in_words(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "1836\\,m_e", "NV", PROTON)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("one two", "1 two"),  # two numbers, no one: the rest is no unit, so unread
        ("five five meters", "5 five meters"),
        ("twenty twenty", "20 twenty"),
        ("nineteen eighty four", "19 eighty four"),  # a year, no sum of 103
        ("ninety nine", "99"),
        ("two thousand ten", "2010"),
        ("one hundred and twenty one m", "121 m"),
    ],
)
def test_number_words_make_one_number_as_english_writes_it(text: str, start: str) -> None:
    from studybench.verify.number_words import number_in_words

    assert number_in_words(text) == start


@pytest.mark.parametrize(
    ("pred", "gold"),
    [
        ("\\text{one two}", "3"),
        ("\\text{five five meters}", "10\\,\\mathrm{m}"),
        ("\\text{twenty twenty}", "40"),
        ("\\text{nineteen eighty four}", "103"),
    ],
)
def test_a_run_of_number_words_is_no_sum(pred: str, gold: str) -> None:
    verdict = _judge(pred, gold, "NV")
    assert verdict.correct is False, verdict.reason
