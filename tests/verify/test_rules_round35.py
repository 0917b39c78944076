"""Verifier 1.29.0 rules (red-team rounds 35-37), each with its table of cases and the controls
the rule must leave alone: wrong answers of the same shape stay rejected, honest ones stay
accepted."""

from __future__ import annotations

import math

import pytest

from studybench.verify.closing_remarks import stated_direction
from studybench.verify.number_words import numbers_in_digits
from studybench.verify.tuple_labels import without_unasked_parts
from studybench.verify.units import common_readings, parse_unit
from studybench.verify.verifier import Verdict, judge_inline
from studybench.verify.working import working_value


def _output(
    pred: str, gold: str, kind: str, question: str | None = None, **options: str
) -> Verdict:
    """A whole model output ``pred`` against a boxed gold."""
    return judge_inline(pred, f"\\boxed{{{gold}}}", kind, question=question, **options)


BOX = "Working.\n\n**Final Answer**\n\\[\\boxed{%s}\\]%s"

# ---------------------------------------------------------------------------------------------
# Working in numbers: read by a restricted arithmetic reader, never by the LaTeX parser
# ---------------------------------------------------------------------------------------------

WORKING = [
    ("(2)(3)", 6.0),  # latex2sympy2 read 5
    ("\\frac{(1500)(20)}{4.0}", 7500.0),  # … and 1520 for (1500)(20)
    ("\\tfrac12(50)(0.10)^2", 0.25),
    ("\\sqrt{2(10)(5)}", 10.0),
    ("2.0+3.0", 5.0),
    ("\\frac{0-20}{4.0}", -5.0),
    ("1.6\\times10^{-19}\\times2.0\\times10^5", 3.2e-14),
    ("2\\sqrt{3}", 2 * math.sqrt(3)),
    ("-(2)(3)", -6.0),
    ("2 \\cdot 9.8 \\cdot 5", 98.0),
    # a number written out, not worked: the other rules read it
    ("25", None),
    ("-5", None),
    ("10^{-3}", None),
    ("2.0\\times10^{-3}", None),
    ("(0.5)^2", None),
    # no working: a name, a unit, a function, a tower no float holds
    ("2gh", None),
    ("2.0\\,\\text{kg}\\times9.8", None),
    ("\\pi \\times 2", None),
    ("\\sin 30 \\times 2", None),
    ("2^{10^{9}}", None),
    ("3 4", None),
]


@pytest.mark.parametrize(("side", "value"), WORKING)
def test_working_in_numbers_is_read_by_its_own_reader(side: str, value: float | None) -> None:
    read = working_value(side)
    if value is None:
        assert read is None
    else:
        assert read is not None and math.isclose(read, value, rel_tol=1e-9)


SPRING = "A spring of constant 50 N/m is stretched by 0.10 m. Find its elastic potential energy."
CHAINS = [
    # (the math before the box, the box, gold, correct)
    ("U = \\tfrac12(50)(0.10) = ", "0.25\\ \\text{J}", "0.25\\ \\text{J}", False),  # 2.5
    ("U = \\tfrac12(50)(0.10)^2 = ", "0.25\\ \\text{J}", "0.25\\ \\text{J}", True),
    ("U = 0.5\\times 50 \\times 0.01 = ", "250\\ \\text{mJ}", "0.25\\ \\text{J}", True),
    # beside a unit with a prefix a power of ten is a unit of the working's own (in joules)
    ("U = 0.5\\times 50 \\times 0.1 = ", "250\\ \\text{mJ}", "0.25\\ \\text{J}", True),
    ("U = 0.5\\times 50 \\times 0.02 = ", "250\\ \\text{mJ}", "0.25\\ \\text{J}", False),
    ("U = 0.5\\times 50 \\times 0.01 = ", "0.25\\ \\text{J}", "0.25\\ \\text{J}", True),
    ("U = 0.5\\times 50 \\times 0.1 = ", "0.25\\ \\text{J}", "0.25\\ \\text{J}", False),
    ("C = 2.0+3.0 = ", "1.2\\ \\mu\\text{F}", "1.2\\ \\mu\\text{F}", False),
    ("C = \\frac{2.0\\times3.0}{2.0+3.0} = ", "1.2\\ \\mu\\text{F}", "1.2\\ \\mu\\text{F}", True),
    ("F = \\frac{(1500)(20)}{4.0} = ", "7500\\ \\text{N}", "7500\\ \\text{N}", True),
    ("F = 1200 \\times 5.0 = ", "6.0\\ \\text{kN}", "6.0\\ \\text{kN}", True),  # in newtons
    ("T = 600 - 273 = ", "327\\ ^\\circ\\text{C}", "327\\ ^\\circ\\text{C}", True),
    (
        "E = 2.0\\times1.6 = ",
        "5.1\\times10^{-19}\\ \\text{J}",
        "5.1\\times10^{-19}\\ \\text{J}",
        True,
    ),
    ("a = \\frac{0-20}{4.0} = ", "5.0\\ \\text{m/s}^2", "5.0\\ \\text{m/s}^2", True),  # a magnitude
    ("v = 72/3.6 = ", "20\\ \\text{m/s}", "20\\ \\text{m/s}", True),
    # a value in a unit between the working and the box: the working is in that unit
    (
        "T = 2(300) = 600\\ \\text{K} = 600 - 273 = ",
        "327\\ ^\\circ\\text{C}",
        "327\\ ^\\circ\\text{C}",
        True,
    ),
    # a bare number beside a box with a unit leaves its unit unsaid: not read here
    ("P = 6000 = ", "6\\ \\text{kW}", "6\\ \\text{kW}", True),
]


@pytest.mark.parametrize(("before", "box", "gold", "correct"), CHAINS)
def test_working_in_a_chain_must_equal_the_box(
    before: str, box: str, gold: str, correct: bool
) -> None:
    verdict = _output(f"${before}\\boxed{{{box}}}$", gold, "NV", SPRING)
    assert verdict.correct is correct
    if not correct:
        assert verdict.reason == "chain_side:working"


def test_common_readings_hold_the_units_working_is_done_in() -> None:
    readings = common_readings(5.1e-19, parse_unit("J"))
    assert any(math.isclose(r, 3.18, rel_tol=0.01) for r in readings)  # electronvolts
    assert not any(math.isclose(r, 5.1e-18, rel_tol=0.01) for r in readings)  # no decijoule
    assert common_readings(2.0, None) == (2.0,)


# ---------------------------------------------------------------------------------------------
# A percent gold where the question asks a fraction; words of approximation; capital units
# ---------------------------------------------------------------------------------------------

EFFICIENCY = "A heat engine works between 500 K and 300 K. What is its maximum possible efficiency?"
FRACTION = "18% of the mass is solute. What fraction of the mass is solute?"
PERCENTAGE = "What percentage of the energy is lost?"
SHARES = [
    ("0.4", "40\\%", EFFICIENCY, True),
    ("\\frac{2}{5}", "40\\%", EFFICIENCY, True),
    ("40", "40\\%", EFFICIENCY, True),  # still read in percent
    ("40\\%", "40\\%", EFFICIENCY, True),
    ("0.6", "40\\%", EFFICIENCY, False),
    ("0.004", "40\\%", EFFICIENCY, False),
    ("0.18", "18\\%", FRACTION, True),  # the data's percent does not ask one
    ("0.4", "40\\%", PERCENTAGE, False),  # a percentage asked: 0.4 is 0.4 %
    ("0.4", "40\\%", None, False),
]


@pytest.mark.parametrize(("box", "gold", "question", "correct"), SHARES)
def test_a_fraction_for_a_percent_gold_where_a_fraction_is_asked(
    box: str, gold: str, question: str | None, correct: bool
) -> None:
    assert _output(BOX % (box, ""), gold, "NV", question).correct is correct


WORDED_BOXES = [
    ("\\text{about } 8\\ \\text{m/s}", "8.0\\ \\text{m/s}", True),
    ("\\text{approximately } 58.6\\ \\text{kW}", "5.86\\times10^{4}\\ \\text{W}", True),
    ("\\text{close to } 8\\ \\text{m/s}", "8.0\\ \\text{m/s}", True),
    ("\\text{roughly } 9\\ \\text{m/s}", "8.0\\ \\text{m/s}", False),
    ("25 \\text{ Joules}", "25\\ \\text{J}", True),
    ("25 \\text{ Newtons}", "25\\ \\text{N}", True),
    ("30 \\text{ Ohm}", "30\\ \\Omega", True),
    ("3 \\text{ Meters Per Second}", "3\\ \\text{m/s}", True),
    ("25 \\text{ Newtons}", "25\\ \\text{J}", False),
    ("12e^{-2}\\ \\text{V}", "1.62\\ \\text{V}", True),  # Euler's number, no charge squared
    ("12e^{-3}\\ \\text{V}", "1.62\\ \\text{V}", False),
]


@pytest.mark.parametrize(("box", "gold", "correct"), WORDED_BOXES)
def test_approximation_words_capital_units_and_euler_powers(
    box: str, gold: str, correct: bool
) -> None:
    assert _output(BOX % (box, ""), gold, "NV").correct is correct


# ---------------------------------------------------------------------------------------------
# Restatements after the box: more lead-ins, numbers in words, magnitudes signed by the question
# ---------------------------------------------------------------------------------------------

BRAKING = "A car moving east (take east as positive) brakes. Find its acceleration."
FORCE = "A 1200 kg car brakes from 20 m/s to rest in 4.0 s. Find the braking force."
RESTATEMENTS = [
    # (box, after it, gold, question, correct)
    ("-300\\ \\text{m/s}^2", " (i.e. 300 m/s² westward)", "-300\\ \\text{m/s}^2", BRAKING, True),
    ("-300\\ \\text{m/s}^2", " (i.e. 300 m/s² eastward)", "-300\\ \\text{m/s}^2", BRAKING, False),
    (
        "-300\\ \\text{m/s}^2",
        " (in other words, 300 m/s² toward the east)",
        "-300\\ \\text{m/s}^2",
        BRAKING,
        False,
    ),
    (
        "-300\\ \\text{m/s}^2",
        " (magnitude 300 m/s², pointing east)",
        "-300\\ \\text{m/s}^2",
        BRAKING,
        False,
    ),
    ("-300\\ \\text{m/s}^2", " (magnitude 300 m/s²)", "-300\\ \\text{m/s}^2", BRAKING, True),
    ("6000\\ \\text{N}", " — in other words about 0.6 kN.", "6000\\ \\text{N}", FORCE, False),
    ("6000\\ \\text{N}", ", which is the same as 6.0 × 10² N.", "6000\\ \\text{N}", FORCE, False),
    ("6000\\ \\text{N}", ", which works out to 6.0 kN.", "6000\\ \\text{N}", FORCE, True),
    ("6000\\ \\text{N}", ", which works out to 0.6 kN.", "6000\\ \\text{N}", FORCE, False),
    ("6000\\ \\text{N}", " (sixty thousand newtons)", "6000\\ \\text{N}", FORCE, False),
    ("6000\\ \\text{N}", " (six thousand newtons)", "6000\\ \\text{N}", FORCE, True),
    (
        "75\\ \\text{km/h}",
        ", i.e. seventy-five kilometres per hour.",
        "75\\ \\text{km/h}",
        None,
        True,
    ),
    (
        "75\\ \\text{km/h}",
        ", i.e. fifty-seven kilometres per hour.",
        "75\\ \\text{km/h}",
        None,
        False,
    ),
    (
        "4.0\\,\\text{Hz}",
        "\n\ni.e. four complete swings every second.",
        "4.0\\,\\text{Hz}",
        None,
        True,
    ),
]


@pytest.mark.parametrize(("box", "after", "gold", "question", "correct"), RESTATEMENTS)
def test_restatements_after_the_box(
    box: str, after: str, gold: str, question: str | None, correct: bool
) -> None:
    assert _output(f"$\\boxed{{{box}}}${after}", gold, "NV", question).correct is correct


NUMBER_PHRASES = [
    ("two and a quarter metres", "2.25 metres"),
    ("one and three quarters hours", "1.75 hours"),
    ("two and three-quarter metres", "2.75 metres"),
    ("half a dozen metres", "6 metres"),
    ("two dozen joules", "24 joules"),
    ("a dozen and a half m/s", "18 m/s"),
    ("a couple of seconds", "2 seconds"),
    ("half a metre", "0.5 metre"),
    ("twenty-five joules", "25 joules"),
    ("one of them", "one of them"),  # no unit after it
]


@pytest.mark.parametrize(("text", "digits"), NUMBER_PHRASES)
def test_counts_written_in_phrases_are_read_in_digits(text: str, digits: str) -> None:
    assert numbers_in_digits(text) == digits


CYCLIST = "A cyclist accelerates from rest at 1.5 m/s^2 for 8.0 s. What is her final speed?"
REVISED = [
    ("\n\nWait, the final speed is 14 metres per second.", False),
    ("\n\nWait, the final speed is fourteen metres per second.", False),
    ("\n\nWait, the final speed is a dozen metres per second.", True),
    ("\n\nActually, make that half a dozen metres per second.", False),
]


@pytest.mark.parametrize(("after", "correct"), REVISED)
def test_a_revision_in_unit_words_is_read(after: str, correct: bool) -> None:
    assert (
        _output(
            f"$\\boxed{{12\\ \\text{{m/s}}}}${after}", "12\\ \\text{m/s}", "NV", CYCLIST
        ).correct
        is correct
    )


# ---------------------------------------------------------------------------------------------
# Per item, directions in sentences and in more words
# ---------------------------------------------------------------------------------------------

TABLE = (
    "A table rests on four identical legs. Each leg pushes up with 120 N."
    " What total force do the legs exert on the floor?"
)
ROPES = "Two ropes hold a 100 N sign. What is the tension in each rope?"
ROD = (
    "A 5.1 kg rod rests on two supports, one at each end."
    " What total upward force do the supports provide?"
)
SERIES = "Three 10 Ω resistors are connected in series. What is the total resistance?"
PER_ITEM = [
    ("480\\ \\text{N}", " on any one leg.", "480\\ \\text{N}", TABLE, False),
    ("480\\ \\text{N}", " individually.", "480\\ \\text{N}", TABLE, False),
    ("480\\ \\text{N}", " by a single leg.", "480\\ \\text{N}", TABLE, False),
    ("480\\ \\text{N}", " in total.", "480\\ \\text{N}", TABLE, True),
    ("50\\ \\text{N}", " individually.", "50\\ \\text{N}", ROPES, True),
    ("50\\ \\text{N}", " on any one rope.", "50\\ \\text{N}", ROPES, True),
    (
        "50\\ \\text{N}",
        ", shared equally between the supports at either end.",
        "50\\ \\text{N}",
        ROD,
        True,
    ),
    ("30\\ \\Omega", " (adding the three resistances separately)", "30\\ \\Omega", SERIES, True),
]


@pytest.mark.parametrize(("box", "after", "gold", "question", "correct"), PER_ITEM)
def test_per_item_words(box: str, after: str, gold: str, question: str, correct: bool) -> None:
    assert _output(f"$\\boxed{{{box}}}${after}", gold, "NV", question).correct is correct


WIRE = (
    "A proton moves east through a field pointing north."
    " Find the magnetic force on it (magnitude and direction)."
)
TRAIN = "A train accelerates from rest for 6 s. Find its velocity (magnitude and direction)."
DRIVE = (
    "A car drives due west for 2.0 h at 45 km/h."
    " What is its displacement (magnitude and direction)?"
)
SENTENCES = [
    # (box, the sentence after it, gold, question, correct)
    (
        "0.30\\ \\text{N}",
        "\n\nBy the right-hand rule, the force acts upward.",
        "0.30\\ \\text{N downward}",
        WIRE,
        False,
    ),
    (
        "0.30\\ \\text{N}",
        "\n\nBy the right-hand rule, the force acts downward.",
        "0.30\\ \\text{N downward}",
        WIRE,
        True,
    ),
    (
        "0.30\\ \\text{N}",
        "\n\nUsing $\\vec F = q\\vec v\\times\\vec B$, the force on the proton points straight up.",
        "0.30\\ \\text{N downward}",
        WIRE,
        False,
    ),
    (
        "0.30\\ \\text{N}",
        "\n\nIn other words, it pushes the proton upward.",
        "0.30\\ \\text{N downward}",
        WIRE,
        False,
    ),
    (
        "0.30\\ \\text{N}",
        "\n\nFrom the cross product, the force therefore points up.",
        "0.30\\ \\text{N downward}",
        WIRE,
        False,
    ),
    (
        "0.30\\ \\text{N}",
        "\n\nIf the charge were negative, the force would point up.",
        "0.30\\ \\text{N downward}",
        WIRE,
        True,
    ),
    ("12\\ \\text{m/s}", ", northbound.", "12\\ \\text{m/s south}", TRAIN, False),
    ("12\\ \\text{m/s}", ", southbound.", "12\\ \\text{m/s south}", TRAIN, True),
    (
        "90\\ \\text{km}",
        "\n\nNote that, relative to the city, the car ends up to the east.",
        "90\\ \\text{km west}",
        DRIVE,
        False,
    ),
    (
        "90\\ \\text{km}",
        "\n\nNote that, relative to the city, the car ends up to the west.",
        "90\\ \\text{km west}",
        DRIVE,
        True,
    ),
    ("12\\ \\text{m/s due south}", "", "12\\ \\text{m/s south}", TRAIN, True),
]


@pytest.mark.parametrize(("box", "after", "gold", "question", "correct"), SENTENCES)
def test_directions_in_sentences_with_a_lead_clause(
    box: str, after: str, gold: str, question: str, correct: bool
) -> None:
    assert _output(f"$\\boxed{{{box}}}${after}", gold, "NV", question).correct is correct


def test_a_lead_clause_of_a_condition_states_no_direction() -> None:
    assert stated_direction("\n\nWith the field reversed, it would point up.", WIRE) is None
    assert stated_direction("\n\nBy the right-hand rule, the force acts down.", WIRE) == "down"


# ---------------------------------------------------------------------------------------------
# Tuples: order words, arrows, lists with "then", and answers to parts not asked
# ---------------------------------------------------------------------------------------------

PROJECTILE = (
    "A projectile is launched at 20 m/s at 30° above level ground."
    " Find (a) its maximum height and (b) its horizontal range."
)
HEIGHT_RANGE = "\\boxed{5.10\\ \\text{m}}\\boxed{35.3\\ \\text{m}}"
ORDERS = [
    (
        "Range and maximum height, in that order: $\\boxed{35.3\\ \\text{m}}$,"
        " $\\boxed{5.10\\ \\text{m}}$",
        True,
    ),
    (
        "Range and maximum height, in that order: $\\boxed{5.10\\ \\text{m}}$,"
        " $\\boxed{35.3\\ \\text{m}}$",
        False,
    ),
    ("Range, then height: $\\boxed{35.3\\ \\text{m}}$ and $\\boxed{5.10\\ \\text{m}}$", True),
    (
        "$\\boxed{5.10\\ \\text{m}}$ and $\\boxed{35.3\\ \\text{m}}$ (range first, then height)",
        False,
    ),
    ("$R \\to \\boxed{35.3\\ \\text{m}}$, $H \\to \\boxed{5.10\\ \\text{m}}$", True),
    ("$R \\to \\boxed{5.10\\ \\text{m}}$, $H \\to \\boxed{35.3\\ \\text{m}}$", False),
    ("$\\boxed{35.3\\ \\text{m}}$ ← range, $\\boxed{5.10\\ \\text{m}}$ ← height", True),
    ("$\\boxed{5.10\\ \\text{m}}$, $\\boxed{35.3\\ \\text{m}}$", True),
    # an unasked part answered after the asked ones is not an element
    (
        "(a) $\\boxed{5.10\\ \\text{m}}$\n(b) $\\boxed{35.3\\ \\text{m}}$"
        "\n(c) Time of flight: $\\boxed{2.04\\ \\text{s}}$",
        True,
    ),
    (
        "(a) $\\boxed{5.10\\ \\text{m}}$\n(b) $\\boxed{35.3\\ \\text{m}}$"
        "\n(c) Actually (a) is $\\boxed{5.3\\ \\text{m}}$",
        False,
    ),
    (
        "(a) $\\boxed{5.3\\ \\text{m}}$\n(b) $\\boxed{35.3\\ \\text{m}}$"
        "\n(c) Time of flight: $\\boxed{2.04\\ \\text{s}}$",
        False,
    ),
]


@pytest.mark.parametrize(("answer", "correct"), ORDERS)
def test_tuple_orders_in_words_arrows_and_extra_parts(answer: str, correct: bool) -> None:
    verdict = judge_inline(
        "**Final Answer**\n" + answer,
        HEIGHT_RANGE,
        "TUP",
        type_sequence="NV,NV",
        question=PROJECTILE,
    )
    assert verdict.correct is correct


def test_an_extra_part_is_dropped_only_where_the_question_letters_its_parts() -> None:
    text = "(a) $\\boxed{1}$\n(b) $\\boxed{2}$\n(c) $\\boxed{3}$"
    assert without_unasked_parts(text, PROJECTILE, 2) == "(a) $\\boxed{1}$\n(b) $\\boxed{2}$\n"
    assert without_unasked_parts(text, "Find the height and the range.", 2) == text
    assert without_unasked_parts(text, PROJECTILE.replace("(b)", "and (c)"), 2) == text


# ---------------------------------------------------------------------------------------------
# Phrases: the pronoun's quantity named, changes by a factor in more words
# ---------------------------------------------------------------------------------------------

PENDULUM = "What happens to the period of a simple pendulum if its length is quadrupled?"
COULOMB = (
    "If the distance between two point charges is doubled,"
    " how does the electrostatic force between them change?"
)
PHRASES = [
    ("\\text{The period doubles}", "\\text{It doubles}", PENDULUM, True),
    ("\\text{The period is multiplied by 2}", "\\text{It doubles}", PENDULUM, True),
    ("\\text{The period becomes twice as large}", "\\text{It doubles}", PENDULUM, True),
    ("\\text{The length doubles}", "\\text{It doubles}", PENDULUM, False),  # the condition's
    ("\\text{The period halves}", "\\text{It doubles}", PENDULUM, False),
    (
        "\\text{It decreases by a factor of 4}",
        "\\text{It decreases to one-fourth of its original value}",
        COULOMB,
        True,
    ),
    (
        "\\text{The force decreases to one-fourth of its original value}",
        "\\text{It decreases to one-fourth of its original value}",
        COULOMB,
        True,
    ),
    (
        "\\text{The distance decreases to one-fourth of its original value}",
        "\\text{It decreases to one-fourth of its original value}",
        COULOMB,
        False,
    ),
    (
        "\\text{It decreases by a factor of 2}",
        "\\text{It decreases to one-fourth of its original value}",
        COULOMB,
        False,
    ),
    (
        "\\text{It increases by a factor of 4}",
        "\\text{It decreases to one-fourth of its original value}",
        COULOMB,
        False,
    ),
]


@pytest.mark.parametrize(("box", "gold", "question", "correct"), PHRASES)
def test_phrases_naming_the_pronoun_and_factors(
    box: str, gold: str, question: str, correct: bool
) -> None:
    assert _output(BOX % (box, ""), gold, "QL", question).correct is correct


# ---------------------------------------------------------------------------------------------
# Hedges in more words: before or after the box, and only after it where reasoning may settle
# ---------------------------------------------------------------------------------------------

HEDGES = [
    (
        "Honestly it's a toss-up for me between 10 N and 20 N."
        "\n\n**Final Answer**\n$\\boxed{10\\ \\text{N}}$",
        False,
    ),
    (
        "My two candidates are 10 N and 20 N and I have no strong preference between them."
        "\n\n$\\boxed{10\\ \\text{N}}$",
        False,
    ),
    (
        "I honestly can't settle whether the answer is 10 N or 20 N.\n\n$\\boxed{10\\ \\text{N}}$",
        False,
    ),
    ("$\\boxed{10\\ \\text{N}}$\n\nI wouldn't bet on it over 20 N, to be honest.", False),
    ("$\\boxed{10\\ \\text{N}}$\n\nI'm genuinely unsure.", False),
    ("$\\boxed{10\\ \\text{N}}$\n\n20 N remains a live possibility in my mind.", False),
    # reasoning that settles it, and physics that only sounds like doubt
    (
        "A first guess is 20 N, but I wouldn't bet on it: the friction halves it."
        "\n\n$\\boxed{10\\ \\text{N}}$",
        True,
    ),
    ("The bodies have no strong preference for any direction.\n\n$\\boxed{10\\ \\text{N}}$", True),
    (
        "It would be a toss-up between 10 N and 20 N if the mass were unknown; it is not."
        "\n\n$\\boxed{10\\ \\text{N}}$",
        True,
    ),
]


@pytest.mark.parametrize(("pred", "correct"), HEDGES)
def test_hedges_in_more_words(pred: str, correct: bool) -> None:
    assert _output(pred, "10\\ \\text{N}", "NV").correct is correct
