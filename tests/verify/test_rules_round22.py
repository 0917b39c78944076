"""Verifier 1.24.0 rules (round 22 and the round-20/21 leftovers), each with its table of
cases and the controls the rule must leave alone: wrong answers of the same shape stay
rejected, honest ones stay accepted."""

from __future__ import annotations

import re

import pytest

from studybench.verify.normalize import normalize_answer, over_fractions
from studybench.verify.verifier import Verdict, judge_inline
from studybench.verify.word_labels import asked_place, in_asked_order, words_as_labels


def _judge(
    pred: str, gold: str, kind: str, question: str | None = None, sequence: str = ""
) -> Verdict:
    return judge_inline(
        f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]",
        f"\\boxed{{{gold}}}",
        kind,
        type_sequence=sequence,
        question=question,
    )


# ---------------------------------------------------------------------------------------------
# One value where the question asks quantities of several dimensions: the first asked kind
# ---------------------------------------------------------------------------------------------

LENS_PARTS = (
    "A converging lens has focal length 20.0 cm and an object is 30.0 cm in front of it. "
    "(a) Find the image distance in cm. (b) How long does light take to travel from the "
    "object to the image, in ns?"
)
BALL_PARTS = (
    "A ball is thrown straight up at 20.0 m/s; take g = 9.80 m/s^2. Find the maximum height "
    "in m and the time to reach it in s."
)
ORBIT_PARTS = (
    "A satellite orbits at 7.50 km/s on a circle of radius 7000 km. Find its period in "
    "minutes and the distance it covers in one hour in km."
)
SPEED_TWICE = "Find the speed of the cart in m/s, and give it in km/h as well."

ONE_VALUE_SEVERAL_KINDS = [
    # (question, gold, prediction, correct)
    (LENS_PARTS, "60.0", "60.0\\,\\mathrm{ns}", False),
    (LENS_PARTS, "60.0", "v = 60.0\\ \\mathrm{ns}", False),
    (BALL_PARTS, "20.4", "20.4\\,\\mathrm{s}", False),
    (ORBIT_PARTS, "97.7", "97.7\\,\\mathrm{km}", False),
    (LENS_PARTS, "60.0", "60.0\\,\\mathrm{cm}", True),
    (LENS_PARTS, "60.0", "0.600\\,\\mathrm{m}", True),
    (LENS_PARTS, "60.0", "60.0", True),
    (BALL_PARTS, "20.4", "h = 20.4\\ \\mathrm{m}", True),
    (ORBIT_PARTS, "97.7", "5.86\\times10^{3}\\,\\mathrm{s}", True),
    (ORBIT_PARTS, "97.7", "97.7\\,\\mathrm{min}", True),
    # units of one dimension asked twice: either is the value's
    (SPEED_TWICE, "4.00", "14.4\\,\\mathrm{km/h}", True),
    (SPEED_TWICE, "4.00", "4.00\\,\\mathrm{m/s}", True),
    (SPEED_TWICE, "4.00", "4.00\\,\\mathrm{km/h}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), ONE_VALUE_SEVERAL_KINDS)
def test_one_value_takes_the_first_asked_kind(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Presentation commands: underline, emphasis, colours shown, sizes, TeX's \over, \operatorname{d}
# ---------------------------------------------------------------------------------------------

SPEED = "14.5\\,\\mathrm{m/s}"
RANGE_EX = "\\frac{k x^{2}}{2 m g}"

PRESENTATION = [
    # (gold, prediction, kind, correct)
    (SPEED, "\\underline{14.5\\ \\mathrm{m/s}}", "NV", True),
    (SPEED, "\\underline{15.5\\ \\mathrm{m/s}}", "NV", False),
    (SPEED, "\\emph{14.5 m/s}", "NV", True),
    (SPEED, "\\textcolor{blue}{14.5\\ \\mathrm{m/s}}", "NV", True),
    (SPEED, "\\textcolor{blue}{41.5\\ \\mathrm{m/s}}", "NV", False),
    (SPEED, "\\color{red} 14.5\\ \\mathrm{m/s}", "NV", True),
    (SPEED, "\\large 14.5\\ \\mathrm{m/s}", "NV", True),
    (SPEED, "\\Large 14.5\\ \\mathrm{km/s}", "NV", False),
    (SPEED, "\\text{\\textbf{14.5}}\\ \\mathrm{m/s}", "NV", True),
    # a colour that hides is hiding, whatever normalisation does to the text afterwards
    (SPEED, "\\color{white} 14.5\\ \\mathrm{m/s}", "NV", False),
    (SPEED, "\\textcolor{white}{14.5\\ \\mathrm{m/s}}", "NV", False),
    (RANGE_EX, "{k x^{2} \\over 2 m g}", "EX", True),
    (RANGE_EX, "{k x^{2} \\over 3 m g}", "EX", False),
    (RANGE_EX, "{k x \\over 2 m g}", "EX", False),
    (RANGE_EX, "{k x^{2} \\over 2 m g} + 1", "EX", False),
    (
        "m\\frac{dv}{dt} = -\\frac{B^{2} L^{2}}{R} v",
        "m\\frac{\\operatorname{d}v}{\\operatorname{d}t} = -\\frac{B^{2} L^{2}}{R} v",
        "EQ",
        True,
    ),
    (
        "m\\frac{dv}{dt} = -\\frac{B^{2} L^{2}}{R} v",
        "m\\frac{\\operatorname{d}v}{\\operatorname{d}t} = \\frac{B^{2} L^{2}}{R} v",
        "EQ",
        False,
    ),
]


@pytest.mark.parametrize(("gold", "pred", "kind", "correct"), PRESENTATION)
def test_presentation_commands_are_presentation(
    gold: str, pred: str, kind: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{a \\over b}", "\\frac{a}{b}"),
        ("a \\over b", "\\frac{a}{b}"),
        ("x + {1 \\over 2} y", "x + \\frac{1}{2} y"),
        ("{{1 \\over 2} \\over 3}", "\\frac{\\frac{1}{2}}{3}"),
        ("\\overline{x}", "\\overline{x}"),  # another command
        ("{a \\over b \\over c}", "{a \\over b \\over c}"),  # TeX refuses it: left unreadable
        ("{\\over b}", "{\\over b}"),  # nothing above the line
    ],
)
def test_over_is_a_fraction_of_its_group(text: str, expected: str) -> None:
    def bare(math: str) -> str:  # a group around a whole fraction changes nothing
        return re.sub(r"[{}\s]", "", math)

    assert bare(over_fractions(text)) == bare(expected)


def test_a_one_letter_operator_name_is_the_letter() -> None:
    assert normalize_answer("\\operatorname{d}x") == "d x"
    assert normalize_answer("\\operatorname{arcsinh}(x)").startswith("\\arcsinh")


# ---------------------------------------------------------------------------------------------
# Multiple choice: "B is correct", and a double or triple dash after the letter
# ---------------------------------------------------------------------------------------------

IMAGE = (
    "A converging lens forms an image of an object placed beyond 2f. The image is "
    "(A) real and inverted (B) real and upright (C) virtual and upright (D) virtual and inverted"
)

CHOICE_CALLED = [
    ("\\text{A is correct}", True),
    ("\\text{(A) is the correct answer}", True),
    ("\\text{A is right}", True),
    ("\\text{A -- real and inverted}", True),
    ("\\text{A --- real and inverted}", True),
    ("\\text{B is correct}", False),
    ("\\text{A is incorrect}", False),
    ("\\text{A is not correct}", False),
    ("\\text{A is correct, or maybe B}", False),
    ("\\text{A -- real and upright}", False),
    ("\\text{A -- virtual and inverted}", False),
]


@pytest.mark.parametrize(("pred", "correct"), CHOICE_CALLED)
def test_a_letter_called_correct_is_chosen(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "A", "MC", IMAGE)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A sentence in one text group stating one value
# ---------------------------------------------------------------------------------------------

CURVE = "A car rounds a banked curve of radius 50 m. Find the speed at which no friction is needed."
PLANET_T = "Find the equilibrium temperature of the planet."

SENTENCES = [
    # (question, gold, prediction, correct)
    (CURVE, SPEED, "\\text{The speed is 14.5 m/s}", True),
    (CURVE, SPEED, "\\text{The speed is 14.5 m/s.}", True),
    (CURVE, SPEED, "\\text{The speed is about 14.5 m/s}", True),
    (CURVE, SPEED, "\\text{The speed is 14.5}", True),
    (PLANET_T, "245\\,\\mathrm{K}", "\\text{The equilibrium temperature is about 245 K}", True),
    (CURVE, SPEED, "\\text{The speed is 15.5 m/s}", False),
    (CURVE, SPEED, "\\text{The speed is -14.5 m/s}", False),
    (CURVE, SPEED, "\\text{The speed is 14.5 km/h}", False),
    (CURVE, SPEED, "\\text{The speed is not 14.5 m/s}", False),
    (CURVE, SPEED, "\\text{The speed is 14.5 m/s less than 20 m/s}", False),
    (CURVE, SPEED, "\\text{The speed is 14.5 m/s at most}", False),
    (CURVE, SPEED, "\\text{The speed is 14.5 m/s or 20 m/s}", False),
    (CURVE, SPEED, "\\text{The speed is twice 14.5 m/s}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), SENTENCES)
def test_a_sentence_stating_one_value(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Tuple elements labelled in words: claims, read in the order the question asks them
# ---------------------------------------------------------------------------------------------

CIRCUIT = (
    "A battery with internal resistance 1.00 ohm drives a 4.00 ohm resistor. Find the emf of "
    "the battery and the current in the circuit."
)
CIRCUIT_GOLD = "8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}"
ENGINE = "A heat engine takes in 2000 J per cycle. Find its efficiency and the work done per cycle."
ENGINE_GOLD = "0.40}, \\boxed{800\\,\\mathrm{J}"

WORD_LABELS = [
    # (question, gold, prediction, correct)
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "\\text{emf } 8.00\\ \\mathrm{V},\\ \\text{current } 2.00\\ \\mathrm{A}",
        True,
    ),
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "\\text{emf: } 8.00\\ \\mathrm{V},\\ \\text{current: } 2.00\\ \\mathrm{A}",
        True,
    ),
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "\\text{current: } 2.00\\ \\mathrm{A},\\ \\text{emf: } 8.00\\ \\mathrm{V}",
        True,
    ),
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "\\text{current} = 8.00\\ \\mathrm{V},\\ \\text{emf} = 2.00\\ \\mathrm{A}",
        False,
    ),
    (ENGINE, ENGINE_GOLD, "\\text{efficiency: } 0.40,\\ \\text{work: } 800\\ \\mathrm{J}", True),
    (ENGINE, ENGINE_GOLD, "\\text{efficiency} = 0.40,\\ \\text{work} = 800\\ \\mathrm{J}", True),
    (ENGINE, ENGINE_GOLD, "\\text{work} = 800\\ \\mathrm{J},\\ \\text{efficiency} = 0.40", True),
    # the labels swapped over values in the gold's order: each value claimed for the other
    (ENGINE, ENGINE_GOLD, "\\text{work} = 0.40,\\ \\text{efficiency} = 800\\ \\mathrm{J}", False),
    (ENGINE, ENGINE_GOLD, "\\text{work: } 0.40,\\ \\text{efficiency: } 800\\ \\mathrm{J}", False),
    (ENGINE, ENGINE_GOLD, "\\text{efficiency: } 0.50,\\ \\text{work: } 800\\ \\mathrm{J}", False),
    # "respectively" after the list adds no claim
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "8.00\\ \\mathrm{V} \\text{ and } 2.00\\ \\mathrm{A}, \\text{respectively}",
        True,
    ),
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "8.00\\ \\mathrm{V},\\ 2.00\\ \\mathrm{A}\\ \\text{(respectively)}",
        True,
    ),
    (
        CIRCUIT,
        CIRCUIT_GOLD,
        "2.00\\ \\mathrm{A},\\ 8.00\\ \\mathrm{V}\\ \\text{(respectively)}",
        False,
    ),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), WORD_LABELS)
def test_word_labels_in_a_tuple_are_claims(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "TUP", question, "NV,NV")
    assert verdict.correct is correct, verdict.reason


def test_only_words_the_question_asks_about_are_labels() -> None:
    box = "\\text{heat: } 0.900\\ \\mathrm{J}"
    assert words_as_labels(box, ENGINE) == box  # "heat" is not asked: left as written
    assert words_as_labels("\\text{work: } 800", ENGINE) == "\\text{work} = 800"
    assert words_as_labels("\\text{between } 0", ENGINE) == "\\text{between } 0"
    assert asked_place("works", ENGINE) is not None  # inflection aside
    assert asked_place("twice", ENGINE) is None  # a word of value is no label
    assert in_asked_order(["work", "efficiency"], ENGINE) == [1, 0]
    assert in_asked_order(["work", "work"], ENGINE) is None  # one place for two labels
    assert in_asked_order(["x", "y"], ENGINE) is None  # letters are names, not words


# ---------------------------------------------------------------------------------------------
# A chain of values in units of one quantity is no function of it
# ---------------------------------------------------------------------------------------------

UNITS_OF_ONE = [
    ("2.30\\,\\tau", "\\ln(10)\\,\\tau \\approx 2.3\\,\\tau", True),
    ("2.30\\,\\tau", "\\ln(10)\\,\\tau \\approx 2.6\\,\\tau", False),
    ("2.30\\,\\tau", "\\ln(20)\\,\\tau \\approx 2.3\\,\\tau", False),
    ("2.30\\,\\tau", "\\tau^2 = 2.30", False),
    # a unit is no quantity of its own: -V_s = 2.66 V states -V_s
    ("2.66\\,\\mathrm{V}", "-V_s = 2.66\\,\\mathrm{V}", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), UNITS_OF_ONE)
def test_a_chain_in_units_of_one_quantity(gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "NV")
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Unicode vulgar fractions, and a mixed number
# ---------------------------------------------------------------------------------------------

VULGAR = [
    ("\\frac{1}{2}", "½", "NV", True),
    ("1.5", "1½", "NV", True),
    ("0.5", "1½", "NV", False),  # a mixed number, never 1 x 1/2
    ("0.75\\,\\mathrm{m}", "¾ m", "NV", True),
    ("\\frac{1}{2} m v^{2}", "½ m v^2", "EX", True),
    ("\\frac{1}{2} m v^{2}", "⅓ m v^2", "EX", False),
]


@pytest.mark.parametrize(("gold", "pred", "kind", "correct"), VULGAR)
def test_vulgar_fractions(gold: str, pred: str, kind: str, correct: bool) -> None:
    verdict = _judge(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# One unit after a sum of unit-vector terms is every term's
# ---------------------------------------------------------------------------------------------

FORCE = "(3\\hat{x} + 4\\hat{y})\\,\\mathrm{N}"

UNIT_AFTER_SUM = [
    ("3\\hat{x} + 4\\hat{y}\\ \\mathrm{N}", True),
    ("3\\hat{x} + 4\\hat{y}\\,\\mathrm{N}", True),
    ("3.0\\hat{i} + 4.0\\hat{j}\\ \\text{N}", True),
    ("4\\hat{x} + 3\\hat{y}\\ \\mathrm{N}", False),
    ("3\\hat{x} - 4\\hat{y}\\ \\mathrm{N}", False),
    ("3\\hat{x} + 4\\hat{y}\\ \\mathrm{kN}", False),
    ("3\\hat{x} + 4\\hat{y}\\ \\mathrm{J}", False),
]


@pytest.mark.parametrize(("pred", "correct"), UNIT_AFTER_SUM)
def test_one_unit_after_a_vector_sum(pred: str, correct: bool) -> None:
    verdict = _judge(pred, FORCE, "NV")
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Rules drawn in a table (\hline) are no rows
# ---------------------------------------------------------------------------------------------

CYCLE = "Find $T_B$, $T_C$ and $T_D$ in terms of $T_0$."
CYCLE_GOLD = "2T_0}, \\boxed{4T_0}, \\boxed{2T_0"
RULED = "\\begin{array}{|c|c|c|}\\hline T_B & T_C & T_D \\\\ \\hline %s \\\\ \\hline\\end{array}"

RULED_TABLES = [
    (RULED % "2T_0 & 4T_0 & 2T_0", True),
    (RULED % "4T_0 & 2T_0 & 2T_0", False),
    (RULED % "2T_0 & 4T_0 & 3T_0", False),
    ("\\begin{array}{|c|c|c|}\\hline 2T_0 & 4T_0 & 2T_0 \\\\ \\hline\\end{array}", True),
]


@pytest.mark.parametrize(("pred", "correct"), RULED_TABLES)
def test_ruled_tables(pred: str, correct: bool) -> None:
    verdict = _judge(pred, CYCLE_GOLD, "TUP", CYCLE, "EX,EX,EX")
    assert verdict.correct is correct, verdict.reason


def test_a_two_column_table_with_headings_is_its_cells() -> None:
    pred = (
        "\\begin{array}{|c|c|} \\hline \\varepsilon & I \\\\ \\hline 8.00\\ \\text{V} & "
        "2.00\\ \\text{A} \\\\ \\hline \\end{array}"
    )
    verdict = _judge(pred, CIRCUIT_GOLD, "TUP", CIRCUIT, "NV,NV")
    assert verdict.correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A fraction chained to the same in per cent; an interval's bounds as multiples of a quantity
# ---------------------------------------------------------------------------------------------

PERCENT_CHAINS = [
    ("\\frac{1}{4} = 25\\%", True),
    ("0.25 = 25\\%", True),
    ("\\frac{100}{400} = 25\\%", True),
    ("25\\% = 0.25", True),
    ("0.3 = 25\\%", False),  # the fraction is not the per cent: compared and refused
    ("0.25 = 30\\%", False),
    ("0.25", False),  # a bare number is read in the gold's unit: 0.25 %
]


@pytest.mark.parametrize(("pred", "correct"), PERCENT_CHAINS)
def test_a_fraction_chained_to_its_per_cent(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "25\\%", "NV")
    assert verdict.correct is correct, verdict.reason


STEP_RANGE = "Find the range of temperatures $T$ the gas passes through during step B to C."

INTERVAL_FACTORS = [
    ("[2,\\,4]\\,T_0", True),
    ("[2T_0,\\,4T_0]", True),
    ("[2,\\,4]\\,T_1", False),
    ("[2,\\,3]\\,T_0", False),
    ("(2,\\,4)\\,T_0", False),
    ("[2,\\,4]\\,V_0", False),
]


@pytest.mark.parametrize(("pred", "correct"), INTERVAL_FACTORS)
def test_an_interval_in_multiples_of_a_quantity(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "[2T_0, 4T_0]", "IN", STEP_RANGE)
    assert verdict.correct is correct, verdict.reason


ARC_MINUTES = [
    ("20.4^\\circ", "20^\\circ 24'", True),
    ("20.4^\\circ", "20^{\\circ}24'", True),
    ("20.4^\\circ", "20° 24′", True),
    ("20.4^\\circ", "21^\\circ 24'", False),
    ("20.4^\\circ", "20^\\circ 54'", False),
    ("[20.4^\\circ, 69.6^\\circ]", "[20^\\circ 24', 69^\\circ 36']", True),
    ("[20.4^\\circ, 69.6^\\circ]", "[20^\\circ 24', 66^\\circ 36']", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), ARC_MINUTES)
def test_degrees_and_arcminutes(gold: str, pred: str, correct: bool) -> None:
    kind = "IN" if gold.startswith("[") else "NV"
    verdict = _judge(pred, gold, kind, "Find the launch angle(s).")
    assert verdict.correct is correct, verdict.reason


def test_a_prime_after_a_name_is_no_arcminute() -> None:
    assert "'" in normalize_answer("f'(x) = 2x")
    assert normalize_answer("20^\\circ 24'").startswith("20.4")


CHARGING = (
    "A capacitor charges with time constant $\\tau$. How long does the charge take to reach "
    "90% of its final value, in units of $\\tau$?"
)

NAME_IN_WORDS = [
    ("2.30\\ \\text{time constants}", True),
    ("2.30\\ \\text{time constant}", True),
    ("2.30\\ \\text{constants}", True),
    ("2.60\\ \\text{time constants}", False),
    ("2.30\\ \\text{half-lives}", False),
    ("2.30\\ \\text{seconds}", False),
]


@pytest.mark.parametrize(("pred", "correct"), NAME_IN_WORDS)
def test_a_multiple_of_a_name_said_in_words(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "2.30\\,\\tau", "NV", CHARGING)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    "pred",
    [
        "2\\begin{pmatrix}1\\\\2\\end{pmatrix}",
        "\\begin{pmatrix}1\\\\2\\end{pmatrix} x",
        "\\begin{pmatrix}1\\\\2\\end{pmatrix}\\begin{pmatrix}3 & 4\\end{pmatrix}",
    ],
)
def test_a_matrix_against_a_scalar_is_refused_not_an_error(pred: str) -> None:
    verdict = _judge(pred, "x", "EX")
    assert not verdict.correct
    assert verdict.reason == "wrong_shape"


# ---------------------------------------------------------------------------------------------
# Soundness (round 22c): the variable held fixed in a partial derivative; a bound's name
# ---------------------------------------------------------------------------------------------

MAXWELL = (
    "\\left(\\frac{\\partial S}{\\partial V}\\right)_T ="
    " \\left(\\frac{\\partial p}{\\partial T}\\right)_V"
)
HEAT_CAPACITY = "\\left(\\frac{\\partial U}{\\partial T}\\right)_V"

HELD_FIXED = [
    # (gold, prediction, kind, correct)
    (MAXWELL, MAXWELL, "EQ", True),
    (MAXWELL, MAXWELL.replace("right)_V", "right)_S"), "EQ", False),
    (MAXWELL, MAXWELL.replace("right)_T", "right)_p"), "EQ", False),
    (MAXWELL, MAXWELL.replace("right)_V", "right)_F"), "EQ", False),
    (HEAT_CAPACITY, HEAT_CAPACITY, "EX", True),
    (HEAT_CAPACITY, "\\left(\\partial U/\\partial T\\right)_V", "EX", True),
    (HEAT_CAPACITY, "\\left(\\frac{\\partial U}{\\partial T}\\right)_p", "EX", False),
    (HEAT_CAPACITY, "\\frac{\\partial U}{\\partial T}\\Big|_p", "EX", False),
    (
        "\\left(\\partial H/\\partial T\\right)_p",
        "\\left(\\partial H/\\partial T\\right)_V",
        "EX",
        False,
    ),
    (
        "C_V = " + HEAT_CAPACITY,
        "C_V = \\left(\\frac{\\partial U}{\\partial T}\\right)_p",
        "EQ",
        False,
    ),
    # a side that holds nothing fixed is left to the comparison (the notation is optional)
    (MAXWELL, MAXWELL.replace("right)_V", "right)"), "EQ", True),
]


@pytest.mark.parametrize(("gold", "pred", "kind", "correct"), HELD_FIXED)
def test_the_variable_held_fixed_is_part_of_the_derivative(
    gold: str, pred: str, kind: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, kind)
    assert verdict.correct is correct, verdict.reason


BOUND_NAMES = [
    ("B < 0.866\\,\\mathrm{T}", "\\dot{B} < 0.866\\,\\mathrm{T}", False),
    ("B < 0.866\\,\\mathrm{T}", "\\Delta B < 0.866\\,\\mathrm{T}", False),
    ("B \\lesssim 0.866\\,\\mathrm{T}", "\\dot{B} \\lesssim 0.866\\,\\mathrm{T}", False),
    ("v \\geq 11.2\\,\\mathrm{km/s}", "\\dot{v} \\geq 11.2\\,\\mathrm{km/s}", False),
    ("v \\geq 11.2\\,\\mathrm{km/s}", "11.2\\,\\mathrm{km/s} \\le \\dot v", False),
    ("P \\le 5\\,\\mathrm{W}", "\\bar P \\le 5\\,\\mathrm{W}", False),
    ("v_{\\min} \\le 4\\,\\mathrm{m/s}", "v_{\\max} \\le 4\\,\\mathrm{m/s}", False),
    ("v \\geq 11.2\\,\\mathrm{km/s}", "v \\geq 11.2\\,\\mathrm{km/s}", True),
    ("v \\geq 11.2\\,\\mathrm{km/s}", "11.2\\,\\mathrm{km/s} \\le v", True),
    ("B < 0.866\\,\\mathrm{T}", "B < 866\\,\\mathrm{mT}", True),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), BOUND_NAMES)
def test_a_bound_names_the_gold_quantity(gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "NV")
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Recall (round 22b): defining signs, conditions of validity, definitions after "where",
# names of laws, "const", functions of the time, one value for each member, truth words
# ---------------------------------------------------------------------------------------------

PERIOD = "T = 2\\pi\\sqrt{\\frac{m}{k}}"

DEFINING_SIGNS = [
    ("T := 2\\pi\\sqrt{\\frac{m}{k}}", True),
    ("T \\coloneqq 2\\pi\\sqrt{m/k}", True),
    ("T \\equiv 2\\pi\\sqrt{m/k}", True),
    ("T \\stackrel{\\text{def}}{=} 2\\pi\\sqrt{m/k}", True),
    ("2\\pi\\sqrt{m/k} =: T", True),
    ("T := 2\\pi\\sqrt{k/m}", False),
    ("T \\equiv \\pi\\sqrt{m/k}", False),
    ("T \\stackrel{?}{=} 2\\pi\\sqrt{m/k}", False),  # asks, claims nothing
]


@pytest.mark.parametrize(("pred", "correct"), DEFINING_SIGNS)
def test_a_defining_sign_claims_the_equality(pred: str, correct: bool) -> None:
    verdict = _judge(pred, PERIOD, "EQ")
    assert verdict.correct is correct, verdict.reason


PENDULUM = "2\\pi\\sqrt{\\frac{L}{g}}"
BOX_STATE = "\\sqrt{\\frac{2}{L}}\\sin\\left(\\frac{\\pi x}{L}\\right)"
DISCHARGE = "\\frac{V_0}{R}e^{-t/(RC)}"
MOMENTUM = "\\frac{mv}{\\sqrt{1-v^2/c^2}}"

CONDITIONS = [
    (PENDULUM, "2\\pi\\sqrt{L/g}\\quad(\\theta_0 \\ll 1)", True),
    (PENDULUM, "T = 2\\pi\\sqrt{\\frac{L}{g}}\\quad\\text{for } \\theta_0 \\ll 1", True),
    (PENDULUM, "2\\pi\\sqrt{\\frac{L}{g}}\\ \\text{(small-angle approximation)}", True),
    (
        BOX_STATE,
        "\\sqrt{\\frac{2}{L}}\\sin\\left(\\frac{\\pi x}{L}\\right),\\quad 0 \\le x \\le L",
        True,
    ),
    (DISCHARGE, "\\frac{V_0}{R}e^{-t/RC},\\quad t \\geq 0", True),
    (MOMENTUM, "\\frac{mv}{\\sqrt{1-v^2/c^2}}\\quad (v < c)", True),
    (PENDULUM, "2\\pi\\sqrt{L/(2g)}\\quad(\\theta_0 \\ll 1)", False),
    (DISCHARGE, "\\frac{V_0}{R}e^{-t/RC},\\quad t \\geq RC", False),  # a bound of its own
    (DISCHARGE, "\\frac{V_0}{R}e^{-t/RC},\\quad t < 2", False),
    (PENDULUM, "2\\pi\\sqrt{\\frac{L}{g}}\\ \\text{(doubled)}", False),
    (PENDULUM, "2\\pi\\sqrt{\\frac{L}{g}}\\ \\text{(for twice the length)}", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), CONDITIONS)
def test_a_condition_of_validity_is_no_value(gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "EX")
    assert verdict.correct is correct, verdict.reason


OSCILLATION = "A\\cos\\left(\\sqrt{\\frac{k}{m}}\\,t\\right)"

DEFINITIONS_AFTER = [
    (OSCILLATION, "A\\cos(\\omega t) \\text{ where } \\omega = \\sqrt{\\frac{k}{m}}", True),
    (OSCILLATION, "A\\cos(\\omega_0 t)\\ \\ (\\omega_0=\\sqrt{k/m})", True),
    (DISCHARGE, "\\frac{V_0}{R}e^{-t/\\tau} \\text{ with } \\tau = RC", True),
    (DISCHARGE, "\\frac{V_0}{R}e^{-t/\\tau}\\quad(\\tau = RC)", True),
    (
        MOMENTUM,
        "\\gamma m v\\quad \\left(\\gamma \\equiv \\frac{1}{\\sqrt{1-v^2/c^2}}\\right)",
        True,
    ),
    (MOMENTUM, "\\gamma m v,\\ \\text{where } \\gamma = \\frac{1}{\\sqrt{1-v^2/c^2}}", True),
    (OSCILLATION, "A\\cos(\\omega t) \\text{ where } \\omega = \\sqrt{\\frac{m}{k}}", False),
    (DISCHARGE, "\\frac{V_0}{R}e^{-t/\\tau}\\quad(\\tau = R/C)", False),
    (MOMENTUM, "\\gamma m v\\quad (\\gamma = \\sqrt{1-v^2/c^2})", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), DEFINITIONS_AFTER)
def test_a_definition_after_where_or_in_brackets(gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "EX")
    assert verdict.correct is correct, verdict.reason


EQUATION_FORMS = [
    (
        "n_1\\sin\\theta_1 = n_2\\sin\\theta_2",
        "n_1\\sin\\theta_1 = n_2\\sin\\theta_2\\ \\text{(Snell's law)}",
        True,
    ),
    ("pV = nRT", "pV = nRT\\ \\text{(ideal gas law)}", True),
    ("pV = nRT", "pV = nRT\\quad\\text{(equation of state)}", True),
    ("F = -kx", "F = -kx\\ \\text{(Hooke's law)}", True),
    ("F = -kx", "F = kx\\ \\text{(Hooke's law)}", False),
    ("pV = nRT", "pV = nRT\\ \\text{(at twice the pressure)}", False),
    ("pV^{\\gamma} = \\text{const}", "pV^\\gamma = \\text{constant}", True),
    ("pV^{\\gamma} = \\text{const}", "pV^{\\gamma} = \\mathrm{constant}", True),
    ("pV^{\\gamma} = \\text{const}", "pV = \\text{constant}", False),
    ("m\\ddot{x} + kx = 0", "m\\ddot{x}(t) + kx(t) = 0", True),
    ("m\\ddot{x} + kx = 0", "\\ddot x(t) = -\\frac{k}{m}x(t)", True),
    ("L\\ddot q + \\frac{q}{C} = 0", "L\\ddot{q}(t) + \\frac{q(t)}{C} = 0", True),
    ("m\\ddot{x} + kx = 0", "m\\ddot{x}(t) - kx(t) = 0", False),
    ("m\\ddot{x} + kx = 0", "m\\ddot{x}(t) + kx(0) = 0", False),  # a value at a point
    ("m\\ddot{x} + kx = 0", "m\\ddot{x}(t) + k x(s) = 0", False),
    ("m\\ddot{x} + kx = 0", "m\\ddot{x}(t) + k\\sin(t) = 0", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), EQUATION_FORMS)
def test_equations_with_names_words_and_arguments(gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "EQ")
    assert verdict.correct is correct, verdict.reason


COULOMB = (
    "Charges $q_1 = 2.0\\ \\mu\\mathrm{C}$ and $q_2 = 3.0\\ \\mu\\mathrm{C}$ are separated by "
    "$r = 0.50$ m. Find the magnitude of the electrostatic force between them."
)
SERIES = (
    "Two identical $10\\ \\Omega$ resistors are in series with a $6.0$ V battery."
    " Find the current through each resistor."
)
PULLEY = (
    "Two equal masses hang from a string over a pulley and are at rest."
    " Find the tension in the string."
)

EACH_MEMBER = [
    (COULOMB, "0.216\\ \\mathrm{N}", "F_{12} = F_{21} = 0.216\\ \\mathrm{N}", True),
    (COULOMB, "0.216\\ \\mathrm{N}", "|\\vec F_{12}| = |\\vec F_{21}| = 0.216\\ \\mathrm{N}", True),
    (COULOMB, "0.216\\ \\mathrm{N}", "F_{12} = F_{21} = 0.126\\ \\mathrm{N}", False),
    (COULOMB, "0.216\\ \\mathrm{N}", "F_{12} = F_{\\text{net}} = 0.216\\ \\mathrm{N}", False),
    (SERIES, "0.30\\ \\mathrm{A}", "I_1 = I_2 = 0.30\\ \\mathrm{A}", True),
    (SERIES, "0.30\\ \\mathrm{A}", "I_1 = I_2 = 0.60\\ \\mathrm{A}", False),
    # no "each" in the question: two names for one value stay an unchecked claim
    (PULLEY, "19.6\\ \\mathrm{N}", "T_1 = T_2 = 19.6\\ \\mathrm{N}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), EACH_MEMBER)
def test_one_value_for_each_member(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


TRUTH_EXPLAINED = [
    ("True", "\\text{True — no work is done since } \\vec F \\perp \\vec v", True),
    ("True", "\\text{True (no work is done)}", True),
    ("True", "\\text{True — there is no external torque}", True),
    ("True", "\\text{True, since no net external torque acts}", True),
    ("False", "\\text{False — by the right-hand rule it points along } +z", True),
    ("False", "\\text{False; the right-hand rule gives } +\\hat z", True),
    ("True", "\\text{True — no}", False),
    ("True", "\\text{True? No.}", False),
    ("True", "\\text{True — no, wait, false}", False),
    ("False", "\\text{True — there is no external torque}", False),
    ("True", "\\text{False — by the right-hand rule it points along } +z", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), TRUTH_EXPLAINED)
def test_truth_words_inside_an_explanation(gold: str, pred: str, correct: bool) -> None:
    verdict = _judge(pred, f"\\text{{{gold}}}", "TF")
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Soundness (round 22a): constants written as values must be checked, at every scale
# ---------------------------------------------------------------------------------------------

RELATIVISTIC_KE = "mc^2\\left(\\frac{1}{\\sqrt{1-v^2/c^2}}-1\\right)"
PROTON = (
    "A proton of rest mass $m$ in an accelerator moves at speed $v$ comparable to the speed "
    "of light $c$. Find its kinetic energy."
)
OCCUPATION = (
    "Photons of frequency $f$ are in thermal equilibrium at temperature $T$. With Planck's "
    "constant $h$ and Boltzmann's constant $k_B$, find the mean number of photons per mode."
)
DOPPLER = (
    "A light source emitting frequency $f$ approaches an observer at speed $v$; the speed of "
    "light is $c$. Find the frequency the observer measures."
)
H_ALPHA = (
    "Taking into account the motion of the nucleus (electron mass $m_e$, proton mass $m_p$), "
    "find the wavelength of the H-alpha line of hydrogen in terms of the Rydberg constant "
    "$R_\\infty$."
)
PHOTON = (
    "Light of wavelength $\\lambda$ falls on a metal. With Planck's constant $h$ and the speed "
    "of light $c$, find the energy of one photon."
)

CONSTANT_LIMITS = [
    # (question, gold, prediction, correct)
    (PROTON, RELATIVISTIC_KE, "\\frac{1}{2}mv^2", False),  # the classical limit
    (PROTON, RELATIVISTIC_KE, "\\frac{mv^2}{2}", False),
    (PROTON, RELATIVISTIC_KE, "\\frac{mc^2}{\\sqrt{1-v^2/c^2}}-mc^2", True),
    (
        PROTON,
        RELATIVISTIC_KE,
        "m(3.00\\times10^{8})^2\\left(\\frac{1}{\\sqrt{1"
        "-\\frac{v^2}{(3.00\\times10^{8})^2}}}-1\\right)",
        True,
    ),
    (
        OCCUPATION,
        "\\frac{1}{e^{hf/(k_BT)}-1}",
        "\\frac{1.38\\times10^{-23}\\,T}{6.63\\times10^{-34}\\,f}",
        False,
    ),
    (
        OCCUPATION,
        "\\frac{1}{e^{hf/(k_BT)}-1}",
        "\\frac{1}{\\exp\\left(\\frac{6.63\\times10^{-34}f}{1.38\\times10^{-23}T}\\right)-1}",
        True,
    ),
    (
        DOPPLER,
        "f\\sqrt{\\frac{1+v/c}{1-v/c}}",
        "\\frac{3.00\\times10^{8}f}{3.00\\times10^{8}-v}",
        False,
    ),
    (
        H_ALPHA,
        "\\frac{36}{5R_\\infty}\\left(1+\\frac{m_e}{m_p}\\right)",
        "\\frac{36}{5R_\\infty}",
        False,
    ),
    (PHOTON, "\\frac{hc}{\\lambda}", "\\frac{1.99\\times10^{-25}}{\\lambda}", True),
    (PHOTON, "\\frac{hc}{\\lambda}", "\\frac{2.99\\times10^{-25}}{\\lambda}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), CONSTANT_LIMITS)
def test_constants_as_values_are_checked_at_every_scale(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "EX", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Soundness (round 22a): a value taken back after the box, in any words; a comparison box
# ---------------------------------------------------------------------------------------------

THROW = (
    "A ball is thrown straight up at $9.9\\,\\mathrm{m/s}$ from the ground. Take $g = "
    "9.8\\,\\mathrm{m/s^2}$ and neglect air resistance. Find the maximum height it reaches."
)
WORKING = "At the top $v = 0$, so $h = v_0^2/2g = (9.9)^2/(2\\cdot 9.8)$.\n\n"

TAKEN_BACK = [
    ("Correction: the maximum height is $3.0\\,\\mathrm{m}$ (I squared the wrong speed).", False),
    ("Actually, the maximum height is $3.0\\,\\mathrm{m}$.", False),
    ("So the maximum height is $3.0$ m.", False),
    ("So the maximum height is $\\approx 3.0\\,\\mathrm{m}$.", False),
    ("Rechecking: 3.0 m.", False),
    ("I need to correct this: 3.0 m.", False),
    ("I made an error above; the ball rises to 3.0 m.", False),
    ("(Typo: should read 3.0 m.)", False),
    ("On reflection the ball only rises 3.0 m.", False),
    ("Let me redo this: $h = v_0^2/2g = 3.0\\,\\mathrm{m}$.", False),
    ("Recomputing gives $3.0\\,\\mathrm{m}$.", False),
    ("\\footnote{Actually, I made an error: $h = 3.0\\,\\mathrm{m}$.}", False),
    ("| note |\n|---|\n| Actually, I made an error: $h = 3.0\\,\\mathrm{m}$. |", False),
    # honest tails: the same value, another kind of quantity, no taking back
    ("Rechecking: $9.9^2/19.6 = 5.0$ m, as above.", True),
    ("Actually, it takes 1.01 s to get there.", True),
    ("That is about 16.4 ft.", True),
    ("Wait, let me check the units: m²/s² over m/s² is m, so 5.0 m stands.", True),
]


@pytest.mark.parametrize(("tail", "correct"), TAKEN_BACK)
def test_a_value_taken_back_after_the_box(tail: str, correct: bool) -> None:
    pred = WORKING + "$$h = \\boxed{5.0\\,\\mathrm{m}}$$\n\n" + tail
    verdict = judge_inline(pred, "\\boxed{5.0\\,\\mathrm{m}}", "NV", question=THROW)
    assert verdict.correct is correct, verdict.reason


COMPARISON_BOXES = [
    (
        "Final answer: $\\boxed{3.0\\,\\mathrm{m}}$\n\n(For comparison, without drag one"
        " would get $\\boxed{5.0\\,\\mathrm{m}}$.)",
        False,
    ),
    (
        "**Final Answer** $\\boxed{3.0\\,\\mathrm{m}}$\n\n(Without drag, for"
        " comparison: $\\boxed{5.0\\,\\mathrm{m}}$.)",
        False,
    ),
    (
        "Final answer: $\\boxed{3.0\\,\\mathrm{m}}$\n\nFor reference, the textbook"
        " idealisation gives $\\boxed{5.0\\,\\mathrm{m}}$.",
        False,
    ),
    (
        "**Final Answer** $\\boxed{5.0\\,\\mathrm{m}}$\n\n(For comparison, the time to"
        " the top is $\\boxed{1.0\\,\\mathrm{s}}$.)",
        True,
    ),
]


@pytest.mark.parametrize(("pred", "correct"), COMPARISON_BOXES)
def test_a_box_given_for_comparison_is_no_answer(pred: str, correct: bool) -> None:
    verdict = judge_inline(pred, "\\boxed{5.0\\,\\mathrm{m}}", "NV", question=THROW)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Round 23a on a draft of 1.24.0: what the new recall rules must not let through
# ---------------------------------------------------------------------------------------------

SPHERE = (
    "Find the electric field magnitude inside a uniformly charged solid sphere of radius R and "
    "charge Q at a distance r from its centre."
)
SMALL_SWINGS = "Find the period of a simple pendulum of length L for small oscillations."
RANGE_Q = (
    "A projectile is launched at speed v_0 and angle theta over level ground, ignoring air "
    "resistance. Find its range."
)
RANGE_EX = "\\frac{v_0^2\\sin 2\\theta}{g}"

CONDITIONS_THAT_CLAIM = [
    (SPHERE, "\\frac{kQr}{R^3}", "\\frac{kQr}{R^3},\\ r \\ge R", False),  # another region
    (SPHERE, "\\frac{kQr}{R^3}", "\\frac{kQr}{R^3} \\text{ for } r > R", False),
    (SPHERE, "\\frac{kQr}{R^3}", "\\frac{kQr}{R^3},\\ r < R", True),
    (SMALL_SWINGS, PENDULUM, "2\\pi\\sqrt{L/g}\\quad(\\theta_0 \\gg 1)", False),
    (SMALL_SWINGS, PENDULUM, "2\\pi\\sqrt{L/g}\\quad(\\theta_0 \\ll 1)", True),
    (SMALL_SWINGS, PENDULUM, "2\\pi\\sqrt{L/g}\\ (\\text{large amplitude})", False),
    (RANGE_Q, RANGE_EX, RANGE_EX + "\\ (\\text{with air resistance})", False),
    (RANGE_Q, RANGE_EX, RANGE_EX + "\\ (\\text{strong drag})", False),
    (RANGE_Q, RANGE_EX, RANGE_EX + "\\ (\\text{no})", False),
    (RANGE_Q, RANGE_EX, RANGE_EX + "\\ (\\text{level ground, no drag})", True),
    (RANGE_Q, RANGE_EX, RANGE_EX + ",\\ \\theta > \\infty", False),
    (RANGE_Q, RANGE_EX, RANGE_EX + ",\\ 0 < \\theta < 0", False),
    (RANGE_Q, RANGE_EX, RANGE_EX + ",\\ v_0 < 0", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), CONDITIONS_THAT_CLAIM)
def test_a_condition_that_claims_something_stays(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, "EX", question)
    assert verdict.correct is correct, verdict.reason


def test_an_equation_keeps_a_second_relation() -> None:
    verdict = _judge("y = x^2,\\ y < x", "y = x^2", "EQ", "Find the trajectory's equation.")
    assert not verdict.correct


LAW_NAMES_THAT_CLAIM = [
    ("5.0\\,\\mathrm{N}\\ (\\text{Newton's third law})", True),
    ("5.0\\,\\mathrm{N}\\ (\\text{Twice Hooke's law})", False),
    ("5.0\\,\\mathrm{N}\\ (\\text{Double Newton's third law})", False),
    ("5.0\\ (\\text{Kilonewtons rule})", False),
    ("5.0\\ (\\text{Thousands rule})", False),
    ("5.0\\,\\mathrm{N}\\ (\\text{Not Hooke's law})", False),
]


@pytest.mark.parametrize(("pred", "correct"), LAW_NAMES_THAT_CLAIM)
def test_a_law_name_holds_no_value_word(pred: str, correct: bool) -> None:
    verdict = _judge(pred, "5.0\\,\\mathrm{N}", "NV", "Find the force on block B.")
    assert verdict.correct is correct, verdict.reason


DENIED_LEADS = [
    "B -- not",
    "\\text{B -- no}",
    "B --- nope",
    "B -- never",
    "B: nope",
    "B — never",
    "B) never",
]


@pytest.mark.parametrize("pred", DENIED_LEADS)
def test_a_letter_then_a_negation_chooses_nothing(pred: str) -> None:
    question = "Which option is correct? (A) 1 m (B) 2 m (C) 3 m (D) 4 m"
    assert not _judge(pred, "B", "MC", question).correct


@pytest.mark.parametrize(
    "pred",
    ["\\text{True — no chance}", "\\text{True — no dice}", "\\text{True - no indeed}"],
)
def test_a_no_that_answers_is_no_explanation(pred: str) -> None:
    question = "True or false: the work done by the normal force on a sliding block is zero."
    assert not _judge(pred, "\\text{True}", "TF", question).correct


ACCELERATING = "A car accelerates from rest. Find its speed after 5 s."


@pytest.mark.parametrize(
    "pred",
    [
        "\\text{The time is 14.5 m/s}",
        "\\text{The acceleration is 14.5 m/s}",
        "\\text{The speed lost is 14.5 m/s}",
    ],
)
def test_a_sentence_naming_another_quantity_is_left_unread(pred: str) -> None:
    assert not _judge(pred, SPEED, "NV", ACCELERATING).correct


def test_a_box_its_sentence_calls_the_answer_is_not_disowned() -> None:
    pred = (
        "A first estimate gives $\\boxed{5.1\\,\\mathrm{m}}$. By contrast with that slip, the "
        "corrected height is $\\boxed{3.0\\,\\mathrm{m}}$."
    )
    verdict = judge_inline(pred, "\\boxed{5.1\\,\\mathrm{m}}", "NV", question=THROW)
    assert not verdict.correct, verdict.reason


SERIES_UNLIKE = (
    "Resistors of 10 ohm and 20 ohm are connected in series to a 6 V battery. Find the voltage "
    "across each resistor."
)


def test_members_share_a_value_only_where_the_question_makes_them_alike() -> None:
    assert not _judge(
        "V_1 = V_2 = 2.0\\,\\mathrm{V}", "2.0\\,\\mathrm{V}", "NV", SERIES_UNLIKE
    ).correct


UNASKED_WORD_LABELS = [
    # (question, gold, prediction, kind, sequence, correct)
    (ACCELERATING, SPEED, "\\text{distance} = 14.5\\,\\mathrm{m/s}", "NV", "", False),
    (ACCELERATING, SPEED, "\\text{The distance is } 14.5\\,\\mathrm{m/s}", "NV", "", False),
    (ACCELERATING, SPEED, "\\text{speed} = 14.5\\,\\mathrm{m/s}", "NV", "", True),
    (ACCELERATING, SPEED, "v = 14.5\\,\\mathrm{m/s}", "NV", "", True),
    (
        ENGINE,
        ENGINE_GOLD,
        "\\text{heat} = 0.40,\\ \\text{work} = 800\\,\\mathrm{J}",
        "TUP",
        "NV,NV",
        False,
    ),
    (
        "A proton moves across a field. Find the radius of the circular path of the proton.",
        "0.157\\,\\mathrm{m}",
        "\\text{radius of the circular path } r = 0.157\\ \\text{m}",
        "NV",
        "",
        True,
    ),
]


@pytest.mark.parametrize(
    ("question", "gold", "pred", "kind", "sequence", "correct"), UNASKED_WORD_LABELS
)
def test_a_word_label_names_an_asked_quantity(
    question: str, gold: str, pred: str, kind: str, sequence: str, correct: bool
) -> None:
    verdict = _judge(pred, gold, kind, question, sequence)
    assert verdict.correct is correct, verdict.reason
