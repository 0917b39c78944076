"""Verifier 1.25.0 rules (round 24 and the round-22 leftovers), each with its table of
cases and the controls the rule must leave alone: wrong answers of the same shape stay
rejected, honest ones stay accepted."""

from __future__ import annotations

import pytest

from studybench.verify.question import data_angle_unit
from studybench.verify.verifier import Verdict, judge_inline


def _output(pred: str, gold: str, kind: str, question: str | None = None) -> Verdict:
    """A whole model output ``pred`` against a boxed gold."""
    return judge_inline(pred, f"\\boxed{{{gold}}}", kind, question=question)


# ---------------------------------------------------------------------------------------------
# A value or expression taken back after the box: in a block, in a sentence that names it
# ---------------------------------------------------------------------------------------------

THROWN_UP = (
    "A ball is thrown straight up at $9.9\\,\\mathrm{m/s}$ from the ground. Take $g = "
    "9.8\\,\\mathrm{m/s^2}$ and neglect air resistance. Find the maximum height it reaches."
)
RAMP = (
    "A block slides from rest down a frictionless ramp of height $h$. Find its speed $v$ at "
    "the bottom."
)
HEIGHT_BOX = "So $h = v_0^2/2g = (9.9)^2/(2\\cdot 9.8)$.\n\n$$h = \\boxed{5.0\\,\\mathrm{m}}$$"
SPEED_BOX = "Energy conservation: $mgh = \\tfrac12 mv^2$.\n\n$\\boxed{\\sqrt{2gh}}$"

TAKEN_BACK = [
    # (question, gold, kind, output, correct)
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo it reaches a height of $3.0\\,\\mathrm{m}$.",
        False,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo the ball rises to a height of 3.0 m.",
        False,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX
        + " \\begin{remark}Actually, I made an error: $h = 3.0\\,\\mathrm{m}$.\\end{remark}",
        False,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n<div>Actually, I made an error: $h = 3.0\\,\\mathrm{m}$.</div>",
        False,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nI made an error above; the block arrives with $\\sqrt{gh}$.",
        False,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nOn reflection the block only reaches $v = \\sqrt{gh}$ at the bottom.",
        False,
    ),
    # controls: the same value again, another quantity, a check of another case
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo it reaches a height of $5.0\\,\\mathrm{m}$.",
        True,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + "\n\nSo it takes a time of 1.0 s to get there.",
        True,
    ),
    (
        THROWN_UP,
        "5.0\\,\\mathrm{m}",
        "NV",
        HEIGHT_BOX + " \\begin{remark}This neglects drag.\\end{remark}",
        True,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nActually, note that this is independent of $m$.",
        True,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nRechecking: $\\sqrt{2gh}$ has the units of a speed.",
        True,
    ),
    (
        RAMP,
        "\\sqrt{2gh}",
        "EX",
        SPEED_BOX + "\n\nActually, for $h \\to 0$ it gives $v = 0$, as it should.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "kind", "output", "correct"), TAKEN_BACK)
def test_a_value_taken_back_after_the_box(
    question: str, gold: str, kind: str, output: str, correct: bool
) -> None:
    verdict = _output(output, gold, kind, question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# An option's text qualified by the opposite word
# ---------------------------------------------------------------------------------------------

CLIFF = (
    "To make a ball launched horizontally from a cliff land farther from the base, one should "
    "use: (A) a smaller launch speed (B) a heavier ball (C) a greater release height (D) a "
    "lighter ball"
)
OPPOSITE_WORDS = [
    ("\\text{(C) lowering the release point}", False),
    ("\\text{C, i.e. decrease the release height}", False),
    ("\\text{(C) a less elevated release}", False),
    ("\\text{(C) a reduced release height}", False),
    # controls: the option's own words, an explanation, a negated opposite
    ("\\text{(C) a greater release height}", True),
    ("\\text{(C) raising the release point}", True),
    ("\\text{(C) a greater release height, because a lower release gives less time}", True),
    ("\\text{(C) a release height that is not lower}", True),
    ("C", True),
]


@pytest.mark.parametrize(("pred", "correct"), OPPOSITE_WORDS)
def test_an_option_qualified_by_its_opposite(pred: str, correct: bool) -> None:
    verdict = _output(
        f"The range is $v_0\\sqrt{{2H/g}}$.\n\n**Answer:** $\\boxed{{{pred}}}$", "C", "MC", CLIFF
    )
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A bare gold for an angle is in the unit the question writes its angles in
# ---------------------------------------------------------------------------------------------

SNELL = (
    "A ray in air strikes glass ($n = 1.41$) at an angle of incidence of $45^\\circ$. Find "
    "the angle of refraction."
)
SNELL_RAD = SNELL.replace("$45^\\circ$", "$\\pi/4\\,\\mathrm{rad}$")
ANGLES = [
    (SNELL, "30", "30^\\circ", True),
    (SNELL, "30", "30\\text{ degrees}", True),
    (SNELL, "30", "0.5236\\,\\mathrm{rad}", True),
    (SNELL, "30", "30", True),
    (SNELL, "30", "30\\,\\mathrm{rad}", False),
    (SNELL, "30", "0.5236", False),
    (SNELL_RAD, "0.5236", "0.5236\\,\\mathrm{rad}", True),
    (SNELL_RAD, "0.5236", "30^\\circ", True),
    (SNELL_RAD, "0.5236", "0.5236^\\circ", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), ANGLES)
def test_a_bare_angle_gold_takes_the_data_unit(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        (SNELL, "degree"),
        (SNELL_RAD, "radian"),
        ("A wheel turns through 3 rad and then through $90^\\circ$. Find the angle.", None),
        ("The gas is at $20^\\circ\\mathrm{C}$. Find the pressure.", None),
        ("The water warms by 5 degrees Celsius. Find the heat.", None),
        ("Find the period.", None),
    ],
)
def test_the_data_angle_unit(question: str, unit: str | None) -> None:
    found = data_angle_unit(question)
    assert (str(found) if found is not None else None) == unit


# ---------------------------------------------------------------------------------------------
# The reference of an angle is part of its value
# ---------------------------------------------------------------------------------------------

REFRACTION = (
    "Light in air strikes a glass block (n = 1.50) at 48.6 degrees from the normal. Find the "
    "angle of refraction."
)
LAUNCH = (
    "A projectile is launched from level ground at 20 m/s and lands 35.3 m away. Find its "
    "launch angle above the horizontal (the smaller solution)."
)
BEARING = (
    "A river flows east at 3.0 m/s; a boat heads so that its velocity relative to the water is "
    "5.0 m/s. To cross straight north, at what angle west of north must it head?"
)
FORCE = (
    "A 5.0 N force has an x-component of 4.0 N and a positive y-component. Find the angle the "
    "force makes with the x-axis."
)
CRITICAL = "A ray in glass (n = 1.50) meets the glass-air boundary. Find the critical angle."
REFERENCES = [
    (REFRACTION, "30^\\circ", "30^\\circ\\ \\text{from the surface}", False),
    (REFRACTION, "30^\\circ", "30^\\circ\\ \\text{from the horizontal}", False),
    (REFRACTION, "30^\\circ", "60^\\circ\\ \\text{from the normal}", False),
    (LAUNCH, "30^\\circ", "30^\\circ\\ \\text{below the horizontal}", False),
    (LAUNCH, "30^\\circ", "30^\\circ\\ \\text{from the vertical}", False),
    (BEARING, "36.9^\\circ", "36.9^\\circ\\ \\text{north of west}", False),
    (BEARING, "36.9^\\circ", "36.9^\\circ\\ \\text{east of north}", False),
    (FORCE, "36.9^\\circ", "36.9^\\circ\\ \\text{with the y-axis}", False),
    # controls: the question's reference in any words, or none
    (REFRACTION, "30^\\circ", "30^\\circ\\ \\text{from the normal}", True),
    (
        REFRACTION,
        "30^\\circ",
        "\\theta_2 = 30.0^{\\circ}\\ \\text{(measured from the normal)}",
        True,
    ),
    (REFRACTION, "30^\\circ", "30^\\circ\\ \\text{with respect to the perpendicular}", True),
    (LAUNCH, "30^\\circ", "30^\\circ\\ \\text{above the horizontal}", True),
    (LAUNCH, "30^\\circ", "30^\\circ\\ \\text{above the ground}", True),
    (BEARING, "36.9^\\circ", "36.9^\\circ\\ \\text{west of north}", True),
    (FORCE, "36.9^\\circ", "36.9^\\circ\\ \\text{with the x-axis}", True),
    (FORCE, "36.9^\\circ", "36.9^\\circ", True),
    (CRITICAL, "41.8^\\circ", "41.8^\\circ\\ \\text{from the normal}", True),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), REFERENCES)
def test_the_reference_of_an_angle(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = _output(f"**Answer:** $\\boxed{{{pred}}}$", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A number has no subscript
# ---------------------------------------------------------------------------------------------

SUBSCRIPTS = [
    ("3.8_{2.6}\\,\\mathrm{m}", "3.8\\,\\mathrm{m}", "NV", False),
    ("48_{\\text{or } 24}\\,\\mu\\mathrm{C}", "48\\,\\mu\\mathrm{C}", "NV", False),
    ("\\frac{mv^2}{2_{1}}", "\\frac{mv^2}{2}", "EX", False),
    ("T = 2_{4}\\pi\\sqrt{L/g}", "T = 2\\pi\\sqrt{L/g}", "EQ", False),
    # controls: subscripts of names, logarithms, powers
    ("v_0 + 2 a_{12} t", "v_0 + 2a_{12}t", "EX", True),
    ("\\log_{10} 2", "\\log_{10} 2", "EX", True),
    ("10^{3}_{}\\,\\mathrm{m}", "1000\\,\\mathrm{m}", "NV", True),
    ("T_{1}/T_{2}", "T_1/T_2", "EX", True),
]


@pytest.mark.parametrize(("pred", "gold", "kind", "correct"), SUBSCRIPTS)
def test_a_number_has_no_subscript(pred: str, gold: str, kind: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, kind)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A short sentence after the box that ends in a value offers it
# ---------------------------------------------------------------------------------------------

PENDULUM = "A simple pendulum has length $L$. Find its period $T$ for small oscillations."
SHORT_AFTER = [
    # (gold, kind, box, after, correct)
    ("3.8\\,\\mathrm{m}", "NV", "3.8\\,\\mathrm{m}", "Technically, 3.0 m.", False),
    ("3.8\\,\\mathrm{m}", "NV", "3.8\\,\\mathrm{m}", "The real answer is 3.0 m.", False),
    (
        "3.8\\,\\mathrm{m}",
        "NV",
        "3.8\\,\\mathrm{m}",
        "Best estimate: $h = 3.0\\,\\mathrm m$.",
        False,
    ),
    ("600\\,\\mathrm{K}", "NV", "600\\,\\mathrm{K}", "Ans: 1200 K", False),
    ("\\text{True}", "TF", "\\text{True}", "Rigorously: False.", False),
    ("\\text{True}", "TF", "\\text{True}", "Strictly speaking, the statement is false.", False),
    ("C", "MC", "C", "Formally, option B.", False),
    ("2\\pi\\sqrt{L/g}", "EX", "2\\pi\\sqrt{L/g}", "Better: $T = \\pi\\sqrt{L/g}$.", False),
    # controls: the same value, a circumstance, a remark with more to say
    ("3.8\\,\\mathrm{m}", "NV", "3.8\\,\\mathrm{m}", "Technically, 3.8 m.", True),
    ("3.8\\,\\mathrm{m}", "NV", "3.8\\,\\mathrm{m}", "In centimetres: 380 cm.", True),
    ("3.8\\,\\mathrm{m}", "NV", "3.8\\,\\mathrm{m}", "At the top of the arc: 0 m/s.", True),
    (
        "3.8\\,\\mathrm{m}",
        "NV",
        "3.8\\,\\mathrm{m}",
        "Precisely, 3.775 m before rounding.",
        True,
    ),
    ("\\text{True}", "TF", "\\text{True}", "Strictly speaking, the statement is true.", True),
    ("C", "MC", "C", "Rigorously: C.", True),
    ("2\\pi\\sqrt{L/g}", "EX", "2\\pi\\sqrt{L/g}", "Properly, $T = 2\\pi\\sqrt{L/g}$.", True),
]


@pytest.mark.parametrize(("gold", "kind", "box", "after", "correct"), SHORT_AFTER)
def test_a_short_sentence_after_the_box_offers_its_value(
    gold: str, kind: str, box: str, after: str, correct: bool
) -> None:
    question = PENDULUM if kind == "EX" else None
    if kind == "MC":
        question = "Which is conserved? (A) energy (B) force (C) momentum (D) speed"
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{box}}}\\]\n\n{after}", gold, kind, question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A box given for comparison is disowned only as another case
# ---------------------------------------------------------------------------------------------

DRAG = (
    "A ball is thrown straight up at 12 m/s. Including linear air drag with b/m = 0.50 s^-1, "
    "find the maximum height it reaches."
)
NO_DRAG = "A ball is thrown straight up at 10 m/s. Ignoring air drag, find the maximum height."
GLASS = (
    "Light of wavelength 500 nm in air enters glass with n = 1.50. Find the wavelength in the "
    "glass."
)
COMPARISONS = [
    # (question, gold, output, correct)
    (
        DRAG,
        "7.3\\,\\mathrm{m}",
        "Ignoring drag: $\\boxed{7.3\\,\\mathrm{m}}$. For contrast, with the drag term kept, "
        "$\\boxed{5.6\\,\\mathrm{m}}$.",
        False,
    ),
    (
        DRAG,
        "5.6\\,\\mathrm{m}",
        "Ignoring drag: $\\boxed{7.3\\,\\mathrm{m}}$. For contrast, with the drag term kept, "
        "$\\boxed{5.6\\,\\mathrm{m}}$.",
        True,
    ),
    (
        GLASS,
        "333\\,\\mathrm{nm}",
        "In air the wavelength is $\\boxed{500\\,\\mathrm{nm}}$. By contrast, inside the glass "
        "it shrinks to $\\lambda/n = \\boxed{333\\,\\mathrm{nm}}$.",
        True,
    ),
    (
        GLASS,
        "500\\,\\mathrm{nm}",
        "In air the wavelength is $\\boxed{500\\,\\mathrm{nm}}$. By contrast, inside the glass "
        "it shrinks to $\\lambda/n = \\boxed{333\\,\\mathrm{nm}}$.",
        False,
    ),
    (GLASS, "333\\,\\mathrm{nm}", "For reference, it is $\\boxed{333\\,\\mathrm{nm}}$.", True),
    # another case: claimed answer first, a hypothetical, an effect the question leaves out
    (
        GLASS,
        "333\\,\\mathrm{nm}",
        "The final answer is: $\\boxed{333\\,\\mathrm{nm}}$ (for comparison, "
        "$\\boxed{500\\,\\mathrm{nm}}$ in air).",
        True,
    ),
    (
        NO_DRAG,
        "5.1\\,\\mathrm{m}",
        "Without drag one gets $\\boxed{5.1\\,\\mathrm{m}}$. (For comparison, with drag: "
        "$\\boxed{4.0\\,\\mathrm{m}}$.)",
        True,
    ),
    (
        NO_DRAG,
        "5.1\\,\\mathrm{m}",
        "$\\boxed{5.1\\,\\mathrm{m}}$. For comparison, a ball twice as fast would reach "
        "$\\boxed{20.4\\,\\mathrm{m}}$.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "output", "correct"), COMPARISONS)
def test_a_comparison_box_is_disowned_only_as_another_case(
    question: str, gold: str, output: str, correct: bool
) -> None:
    verdict = _output(output, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# One value's word label names the first asked quantity; extremes name quantities
# ---------------------------------------------------------------------------------------------

HEIGHT_RANGE = (
    "A ball is launched at 10 m/s and 60 degrees above the horizontal. Find the maximum height "
    "and the horizontal range."
)
TOP_SPEED = (
    "A ball on a string moves in a vertical circle of radius 1.0 m. Find the minimum speed at "
    "the top."
)
WORD_LABELS = [
    (HEIGHT_RANGE, "3.83\\,\\mathrm{m}", "\\text{range} = 3.83\\,\\mathrm{m}", False),
    (HEIGHT_RANGE, "3.83\\,\\mathrm{m}", "\\text{horizontal range} = 3.83\\,\\mathrm{m}", False),
    (HEIGHT_RANGE, "3.83\\,\\mathrm{m}", "\\text{maximum height} = 3.83\\,\\mathrm{m}", True),
    (HEIGHT_RANGE, "3.83\\,\\mathrm{m}", "\\text{height} = 3.83\\,\\mathrm{m}", True),
    (HEIGHT_RANGE, "3.83\\,\\mathrm{m}", "3.83\\,\\mathrm{m}", True),
    (TOP_SPEED, "3.13\\,\\mathrm{m/s}", "\\text{minimum speed} = 3.13\\,\\mathrm{m/s}", True),
    (TOP_SPEED, "3.13\\,\\mathrm{m/s}", "\\text{maximum speed} = 3.13\\,\\mathrm{m/s}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), WORD_LABELS)
def test_a_word_label_names_the_first_asked_quantity(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Answer:** $\\boxed{{{pred}}}$", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Letters denied in more words; "(\text{B})"
# ---------------------------------------------------------------------------------------------

CONSERVED = (
    "Which is conserved in an elastic collision? (A) force (B) kinetic energy (C) speed (D) "
    "acceleration"
)
LETTERS = [
    ("\\text{B -- definitely not}", False),
    ("\\text{B -- hardly}", False),
    ("\\text{B (ruled out)}", False),
    ("\\text{B: eliminated}", False),
    ("(\\text{B})", True),
    ("(\\textbf{B})", True),
    ("(\\mathrm{B})\\ \\text{kinetic energy}", True),
    ("(\\mathrm{B})\\ \\text{speed}", False),
    ("(\\text{A})", False),
]


@pytest.mark.parametrize(("pred", "correct"), LETTERS)
def test_letters_denied_and_letters_in_a_font(pred: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", "B", "MC", CONSERVED)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Every step of a derivation in an equation's box
# ---------------------------------------------------------------------------------------------

SPRING_EQ = "\\frac{1}{2}kx^2 = \\frac{1}{2}mv^2"
STEPS = [
    (SPRING_EQ, "\\tfrac12 kx^2 = \\tfrac12 mv^2 \\Rightarrow kx^2 = mv^2", True),
    (SPRING_EQ, "U_s = K \\;\\Rightarrow\\; \\tfrac12 kx^2 = \\tfrac12 mv^2", True),
    (SPRING_EQ, "E_i = E_f \\implies \\frac{1}{2}kx^{2}=\\frac{1}{2}mv^{2}", True),
    ("PV = nRT", "PV = nRT \\;\\Longrightarrow\\; \\frac{PV}{T} = nR", True),
    (SPRING_EQ, "\\tfrac12 kx^2 = \\tfrac12 mv^2 \\Rightarrow kx^2 = 2mv^2", False),
    (SPRING_EQ, "kx^2 = 4mv^2 \\Rightarrow \\tfrac12 kx^2 = \\tfrac12 mv^2", False),
    (SPRING_EQ, "E_i = E_f \\implies kx = mv", False),
    ("PV = nRT", "PV = nRT \\Rightarrow P = nRTV", False),
    (SPRING_EQ, "F = mv \\Rightarrow \\tfrac12 kx^2 = \\tfrac12 mv^2", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), STEPS)
def test_every_step_of_a_derivation(gold: str, pred: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "EQ")
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Presentation: units in words, norms, ticks, names set equal to a tuple
# ---------------------------------------------------------------------------------------------

PRESENTATION = [
    # (gold, pred, kind, correct)
    ("3.5\\,\\mathrm{kN}", "3.5\\ \\text{kilo-newtons}", "NV", True),
    ("3.5\\,\\mathrm{kN}", "3.5\\ \\text{milli-newtons}", "NV", False),
    ("2.0\\,\\mathrm{MeV}", "2.0\\ \\text{mega electron volts}", "NV", True),
    ("2.0\\,\\mathrm{MeV}", "2.0\\ \\text{kilo electron volts}", "NV", False),
    ("4.2\\,\\mathrm{ly}", "4.2\\ \\text{light years}", "NV", True),
    ("1.5\\,\\mathrm{AU}", "1.5\\ \\text{astronomical units}", "NV", True),
    ("1.0\\,\\mathrm{u}", "1.0\\ \\text{atomic mass units}", "NV", True),
    ("2.0\\,\\mathrm{A}", "2.0\\ \\text{amps}", "NV", True),
    ("2.0\\,\\mathrm{A}", "0.50\\ \\text{amps}", "NV", False),
    ("37\\,^\\circ\\mathrm{C}", "37\\ \\text{degrees C}", "NV", True),
    ("5\\,\\mathrm{mH}", "5\\ \\text{millihenries}", "NV", True),
    ("14.5\\,\\mathrm{m/s}", "\\|\\vec v\\| = 14.5\\ \\mathrm{m/s}", "NV", True),
    ("14.5\\,\\mathrm{m/s}", "\\lVert \\vec{v} \\rVert = 14.5\\,\\mathrm{m/s}", "NV", True),
    ("14.5\\,\\mathrm{m/s}", "|\\vec v|^2 = 14.5\\ \\mathrm{m/s}", "NV", False),
    (
        "3.98\\times10^{-19}\\,\\mathrm{J}",
        "3.98\\times10^{-19}\\ \\mathrm{J}\\ \\checkmark",
        "NV",
        True,
    ),
    ("2.0\\,\\mathrm{A}", "✓ 2.0\\ \\mathrm{A}", "NV", True),
    ("2.0\\,\\mathrm{A}", "2.0\\ \\mathrm{A}\\ ✗", "NV", False),
]


@pytest.mark.parametrize(("gold", "pred", "kind", "correct"), PRESENTATION)
def test_presentation_is_read(gold: str, pred: str, kind: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, kind)
    assert verdict.correct is correct, verdict.reason


CARTS = (
    "Cart 1 (1.0 kg, 3.0 m/s) collides elastically head-on with cart 2 (2.0 kg) at rest. Find "
    "the velocities v_1 and v_2 of the carts after the collision."
)
NAMES_EQUAL = [
    ("(v_1, v_2) = (-1.0,\\ 2.0)\\ \\mathrm{m/s}", True),
    ("(v_1,\\,v_2) = (-1.0\\ \\mathrm{m/s},\\ 2.0\\ \\mathrm{m/s})", True),
    ("(v_1, v_2) = (2.0,\\ -1.0)\\ \\mathrm{m/s}", False),
    ("(v_2, v_1) = (-1.0,\\ 2.0)\\ \\mathrm{m/s}", False),
    ("(v_1, v_2) = (1.0,\\ 2.0)\\ \\mathrm{m/s}", False),
]


@pytest.mark.parametrize(("pred", "correct"), NAMES_EQUAL)
def test_names_set_equal_to_a_tuple(pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]",
        "\\boxed{-1.0\\,\\mathrm{m/s}}, \\boxed{2.0\\,\\mathrm{m/s}}",
        "TUP",
        type_sequence="NV,NV",
        question=CARTS,
    )
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A sentence that takes the box back offers the value it concludes with
# ---------------------------------------------------------------------------------------------

SPRING = (
    "A 0.50 kg mass on a spring of constant 200 N/m is released from rest at 0.10 m extension. "
    "Find the maximum speed."
)
BOYLE = (
    "An ideal gas at 300 K and 1.0 atm is compressed isothermally to half its volume. Find the "
    "final pressure."
)
CONCLUDING = [
    (
        BOYLE,
        "2.0\\,\\mathrm{atm}",
        "Recomputing via Boyle's law: $(1.0)(V) = P(V/2)$, so $P = 1.0$ atm.",
        False,
    ),
    (
        BOYLE,
        "2.0\\,\\mathrm{atm}",
        "Recomputing via Boyle's law: $(1.0)(V) = P(V/2)$, so $P = 2.0$ atm.",
        True,
    ),
    (SPRING, "2.0\\,\\mathrm{m/s}", "Correction: it moves at 3.0 m/s, not 2.0 m/s.", False),
    (
        SPRING,
        "2.0\\,\\mathrm{m/s}",
        "Rechecking: $\\omega = 20$ rad/s, so $v = 0.10 \\times 20 = 2.0$ m/s.",
        True,
    ),
    (SPRING, "2.0\\,\\mathrm{m/s}", "So $v = 0.10 \\times 20 = 3.0$ m/s.", False),
]


@pytest.mark.parametrize(("question", "gold", "after", "correct"), CONCLUDING)
def test_a_taking_back_sentence_offers_its_concluding_value(
    question: str, gold: str, after: str, correct: bool
) -> None:
    output = f"**Final Answer**\n\\[\\boxed{{{gold}}}\\]\n\n{after}"
    verdict = _output(output, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# A qualifier on a unit is read where the question asks for that kind of value
# ---------------------------------------------------------------------------------------------

PEAK = "A household outlet supplies 120 V rms at 60 Hz. Find the peak voltage."
RMS = "An AC source has a peak emf of 170 V. Find the rms voltage."
QUALIFIERS = [
    (PEAK, "170\\,\\mathrm{V}", "170\\ \\mathrm{V_{peak}}", True),
    (PEAK, "170\\,\\mathrm{V}", "170\\ \\mathrm{V}_{\\max}", True),
    (PEAK, "170\\,\\mathrm{V}", "170\\ \\text{V}_{\\text{pk}}", True),
    (RMS, "120\\,\\mathrm{V}", "120\\ \\mathrm{V_{rms}}", True),
    (PEAK, "170\\,\\mathrm{V}", "170\\ \\mathrm{V_{rms}}", False),
    (PEAK, "170\\,\\mathrm{V}", "170\\ \\mathrm{V_{pp}}", False),
    (RMS, "120\\,\\mathrm{V}", "120\\ \\mathrm{V_{peak}}", False),
    (RMS, "120\\,\\mathrm{V}", "120\\ \\mathrm{V}", True),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), QUALIFIERS)
def test_a_qualifier_on_a_unit(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Round 25 on the draft: what the draft's rules must leave alone
# ---------------------------------------------------------------------------------------------

SURFACE_DATA = (
    "A ray in air meets a glass surface at 30 degrees to the surface (n = 1.50). Find the "
    "angle of refraction."
)
LEVEL_WATER = (
    "Light in air hits still water (n = 1.33) with its incidence 70 degrees from the vertical. "
    "Find the angle of refraction."
)
LANDING = (
    "A ball is launched at 40 degrees above the horizontal from level ground. Find the direction "
    "of its velocity just before landing."
)
AXES = (
    "A force of 12 N acts along the +x-axis and a force of 9.0 N along the +y-axis, where x is "
    "horizontal and y vertical. Find the angle the resultant makes with the x-axis."
)
CONVENTIONS = [
    (SURFACE_DATA, "35.3^\\circ", "35.3^\\circ\\ \\text{from the normal}", True),
    (SURFACE_DATA, "35.3^\\circ", "35.3^\\circ\\ \\text{from the surface}", False),
    (LEVEL_WATER, "45.0^\\circ", "45.0^\\circ\\ \\text{from the vertical}", True),
    (LANDING, "40^\\circ", "40^\\circ\\ \\text{below the horizontal}", True),
    (AXES, "36.9^\\circ", "36.9^\\circ\\ \\text{above the horizontal}", True),
    (AXES, "36.9^\\circ", "36.9^\\circ\\ \\text{from the vertical}", False),
    (LAUNCH, "30^\\circ", "30^\\circ\\ \\text{from the vertical}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), CONVENTIONS)
def test_references_by_convention_and_by_axes(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Answer:** $\\boxed{{{pred}}}$", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


PHASE = (
    "Two coherent sources emit in phase; at a point at 30° from the central axis the path "
    "difference is half a wavelength. What is the phase difference between the waves there?"
)
SI_AMPLITUDE = (
    "A simple pendulum is released from rest at 8.0° from the vertical. What is its angular "
    "amplitude in SI units?"
)
RADIANS_ASKED = [
    (PHASE, "3.14", "\\pi\\ \\text{rad}", True),
    (PHASE, "3.14", "3.14^\\circ", False),
    (SI_AMPLITUDE, "0.140", "0.140\\ \\text{rad}", True),
    (SI_AMPLITUDE, "0.140", "0.140^\\circ", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), RADIANS_ASKED)
def test_a_phase_or_si_angle_is_in_radians(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


WORK_ASKED = (
    "A block moves in a circle at constant speed. Does the net force do work on it? (A) Yes, "
    "positive work (B) Yes, negative work (C) It does not (D) Only at the top"
)
QUADRATIC = (
    "A stone thrown up at 19.6 m/s from a 58.8 m cliff: when does it land? (A) 2.0 s (B) 6.0 s "
    "(C) 4.0 s (D) 8.0 s"
)
OWN_WORDS = [
    (WORK_ASKED, "C", "\\text{(C) It does not}", True),
    (QUADRATIC, "B", "\\text{B (the negative root is rejected)}", True),
    (QUADRATIC, "B", "\\text{B (ruled out)}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), OWN_WORDS)
def test_an_option_in_its_own_words_is_no_denial(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "MC", question)
    assert verdict.correct is correct, verdict.reason


PREMISES = [
    ("v = \\sqrt{2gh}", "mgh = \\tfrac{1}{2}mv^2 \\Rightarrow v = \\sqrt{2gh}", True),
    (
        "v = \\sqrt{\\frac{GM}{r}}",
        "\\frac{GMm}{r^2} = \\frac{mv^2}{r} \\Rightarrow v = \\sqrt{\\frac{GM}{r}}",
        True,
    ),
    ("v = \\sqrt{2gh}", "mgh = mv^2 \\Rightarrow v = \\sqrt{2gh}", False),
    ("v = \\sqrt{2gh}", "mgh = \\tfrac{1}{2}mv^2 \\Rightarrow v = \\sqrt{gh}", False),
]


@pytest.mark.parametrize(("gold", "pred", "correct"), PREMISES)
def test_a_premise_holds_for_the_gold(gold: str, pred: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "EQ")
    assert verdict.correct is correct, verdict.reason


RELATIVISTIC = "An electron is accelerated through 500 kV. Find its speed (relativistically)."
AFTER_THE_BOX = [
    (
        "37.5\\,\\mathrm{J}",
        "$\\boxed{37.5\\ \\text{J}}$.\n\nRoughly 40 J.",
        None,
        True,
    ),
    ("0.39\\,\\mathrm{m}", "$\\boxed{0.39\\,\\mathrm{m}}$\n\nBest estimate: 0.78 m.", None, False),
    (
        "2.59\\times10^{8}\\,\\mathrm{m/s}",
        "$$v = \\boxed{2.59\\times 10^{8}\\ \\text{m/s}}$$\n\nFor comparison, the classical "
        "formula gives $\\boxed{4.19\\times10^{8}\\ \\text{m/s}}$, faster than light.",
        RELATIVISTIC,
        True,
    ),
    (
        "2.59\\times10^{8}\\,\\mathrm{m/s}",
        "$$v = \\boxed{2.59\\times 10^{8}\\ \\text{m/s}}$$\n\nNewtonian estimate: 4.19e8 m/s.",
        RELATIVISTIC,
        True,
    ),
]


@pytest.mark.parametrize(("gold", "output", "question", "correct"), AFTER_THE_BOX)
def test_another_model_after_the_box_is_no_second_answer(
    gold: str, output: str, question: str | None, correct: bool
) -> None:
    verdict = _output(output, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


def test_a_limit_after_an_expression_is_no_second_answer() -> None:
    question = "A particle of rest mass $m$ moves at speed $v$. Find its kinetic energy."
    gold = "mc^2\\left(\\frac{1}{\\sqrt{1-v^2/c^2}}-1\\right)"
    output = f"$\\boxed{{{gold}}}$\n\nLow-speed limit: $\\tfrac12 mv^2$."
    assert _output(output, gold, "EX", question).correct
    hedged = f"$\\boxed{{{gold}}}$\n\nBetter: $\\tfrac12 mv^2$."
    assert not _output(hedged, gold, "EX", question).correct


def test_a_numbered_name_stands_in_its_asked_place() -> None:
    gold = "\\boxed{-1.0\\,\\mathrm{m/s}}, \\boxed{2.0\\,\\mathrm{m/s}}"
    question = (
        "Cart 1 moving at 3.0 m/s hits cart 2 at rest. Find the final velocities v_1 and v_2."
    )

    def judge(pred: str) -> bool:
        output = f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]"
        return judge_inline(output, gold, "TUP", type_sequence="NV,NV", question=question).correct

    assert judge("(v_1, v_2) = (-1.0,\\ 2.0)\\ \\mathrm{m/s}")
    assert not judge("(u_1, v_1) = (-1.0,\\ 2.0)\\ \\mathrm{m/s}")
    assert not judge("u_1 = -1.0\\ \\mathrm{m/s},\\ v_1 = 2.0\\ \\mathrm{m/s}")


def test_an_answer_claimed_in_prose_before_a_comparison_box() -> None:
    question = "A stone falls 50 m. Find its speed on landing, with air drag included."
    claimed = (
        "**Answer: v ≈ 26 m/s** (drag included).\n\nFor reference, without drag "
        "$\\boxed{31\\,\\mathrm{m/s}}$."
    )
    assert not _output(claimed, "31\\,\\mathrm{m/s}", "NV", question).correct
    unclaimed = "The stone lands at $\\boxed{26\\,\\mathrm{m/s}}$."
    assert _output(unclaimed, "26\\,\\mathrm{m/s}", "NV", question).correct


GLASS_SURFACE = (
    "A ray in glass meets the glass surface at 30 degrees to the glass surface. Find the angle "
    "the refracted ray makes with the glass surface."
)
ROTATION = (
    "A disk on a 30° incline rolls so that it turns through 2.0 rad each second. Through what "
    "angle does it turn in 1.0 s?"
)
LINES_AND_UNITS = [
    (GLASS_SURFACE, "48.6^\\circ", "48.6^\\circ\\ \\text{from the glass surface}", True),
    (GLASS_SURFACE, "48.6^\\circ", "48.6^\\circ\\ \\text{from the normal}", False),
    (ROTATION, "2.0", "2.0\\ \\text{rad}", True),
    (ROTATION, "2.0", "2.0^\\circ", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), LINES_AND_UNITS)
def test_lines_with_modifiers_and_angles_without_a_line(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# Round 26 on the second draft
# ---------------------------------------------------------------------------------------------

GLASS_40 = (
    "Light in air strikes a flat glass surface (n = 1.50) at 40° from the normal. Find the "
    "angle of refraction."
)
KICK = (
    "A ball is kicked from level ground with speed 20 m/s and lands 35 m away. Find the launch "
    "angle (take the smaller solution)."
)
WEIGHT_PART = (
    "A 5.0 kg box rests on a 30° incline. Find the component of its weight parallel to the incline."
)
ROUND26 = [
    (GLASS_40, "0.443", "0.443^\\circ", False),
    (GLASS_40, "0.443", "0.443\\ \\text{rad}", True),
    (GLASS_40, "25.4", "25.4^\\circ", True),
    (KICK, "29.7^\\circ", "29.7^\\circ\\ \\text{from the normal}", False),
    (KICK, "29.7^\\circ", "29.7^\\circ\\ \\text{above the horizontal}", True),
    (WEIGHT_PART, "24.5\\,\\mathrm{N}", "24.5\\ \\text{N, normal to the incline}", False),
    (WEIGHT_PART, "24.5\\,\\mathrm{N}", "24.5\\ \\text{N, down the incline}", True),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), ROUND26)
def test_round_26_on_the_draft(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


THREE_PUCKS = (
    "Three identical pucks end with speeds v_1, v_2 and v_3 after the collision. Puck 1 stops. "
    "Find v_2 and v_3."
)
ELASTIC = (
    "A 2.0 kg ball at 6.0 m/s collides head-on elastically with a 3.0 kg ball at rest. Find "
    "the final velocities v_1' and v_2'."
)
FAMILIES = [
    (THREE_PUCKS, "1.5", "2.6", "(v_2, v_3) = (1.5, 2.6)\\ \\text{m/s}", True),
    (THREE_PUCKS, "1.5", "2.6", "(v_1, v_2) = (1.5, 2.6)\\ \\text{m/s}", False),
    (ELASTIC, "-1.2", "4.8", "(v_1', v_2') = (-1.2, 4.8)\\ \\text{m/s}", True),
    (
        ELASTIC,
        "-1.2",
        "4.8",
        "(v_{2}^{\\prime}, v_{1}^{\\prime}) = (-1.2, 4.8)\\ \\text{m/s}",
        False,
    ),
    (CARTS, "-1.0", "2.0", "(v_{1f}, v_{2f}) = (-1.0, 2.0)\\ \\text{m/s}", True),
    (CARTS, "-1.0", "2.0", "(v_{2f}, v_{1f}) = (-1.0, 2.0)\\ \\text{m/s}", False),
]


@pytest.mark.parametrize(("question", "first", "second", "pred", "correct"), FAMILIES)
def test_numbered_families_in_their_places(
    question: str, first: str, second: str, pred: str, correct: bool
) -> None:
    verdict = judge_inline(
        f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]",
        f"\\boxed{{{first}\\,\\mathrm{{m/s}}}}, \\boxed{{{second}\\,\\mathrm{{m/s}}}}",
        "TUP",
        type_sequence="NV,NV",
        question=question,
    )
    assert verdict.correct is correct, verdict.reason


WHEEL = (
    "A wheel spins at 2.0 rev/s; a mark starts 30° above the horizontal. Through what angle "
    "does it turn in 1.0 s?"
)
LAKE = (
    "Sunlight strikes a calm lake at 20° above the horizontal. Find the angle of refraction of "
    "the light entering the water (n = 1.33)."
)
ROUND26B = [
    (WHEEL, "12.6", "12.6\\ \\text{rad}", True),
    (WHEEL, "12.6", "12.6^\\circ", False),
    (LAKE, "45.0^\\circ", "45.0^\\circ\\ \\text{from the vertical}", True),
    (LAKE, "45.0^\\circ", "45.0^\\circ\\ \\text{from the water surface}", False),
    (GLASS_40, "25.4^\\circ", "25.4^\\circ\\ \\text{from the normal to the surface}", True),
    (
        GLASS_40,
        "25.4^\\circ",
        "25.4^\\circ\\ \\text{(from the line perpendicular to the surface)}",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), ROUND26B)
def test_turning_angles_and_level_surfaces(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output(f"**Final Answer**\n\\[\\boxed{{{pred}}}\\]", gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


THROW_UP = "A ball is thrown straight up at 10 m/s on Earth (g = 9.8 m/s^2). How high does it rise?"
CAPACITOR = "A 10 μF capacitor is charged to 12 V. How much energy does it store?"
VERTICAL_PART = (
    "A ball is launched at 20 m/s, 30° above the horizontal. Find the vertical component of its "
    "velocity."
)
OTHER_THINGS = [
    (
        VERTICAL_PART,
        "10\\,\\mathrm{m/s}",
        "$\\boxed{10\\ \\text{m/s}}$\n\nHorizontal component: 17.3 m/s.",
        True,
    ),
    (
        VERTICAL_PART,
        "10\\,\\mathrm{m/s}",
        "$\\boxed{10\\ \\text{m/s}}$\n\nVertical component: 17.3 m/s.",
        False,
    ),
    (
        CAPACITOR,
        "0.72\\,\\mathrm{mJ}",
        "$U=\\tfrac12 CV^2 = \\boxed{0.72\\ \\text{mJ}}$.\n\nFor reference, at 24 V it stores "
        "$\\boxed{2.88\\ \\text{mJ}}$.",
        True,
    ),
    (
        THROW_UP,
        "5.1\\,\\mathrm{m}",
        "$$h = \\boxed{5.1\\ \\text{m}}$$\n\nFor reference, on the Moon it would rise "
        "$\\boxed{31\\ \\text{m}}$.",
        True,
    ),
    (
        THROW_UP,
        "5.1\\,\\mathrm{m}",
        "$$h = \\boxed{5.1\\ \\text{m}}$$\n\nRe-checking the units: $\\sqrt{h/g}$ has units of s.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "output", "correct"), OTHER_THINGS)
def test_other_things_after_the_box(question: str, gold: str, output: str, correct: bool) -> None:
    verdict = _output(output, gold, "NV", question)
    assert verdict.correct is correct, verdict.reason


def test_the_other_options_ruled_out() -> None:
    question = (
        "A ball is dropped from rest. Which stays constant? (A) speed (B) acceleration (C) height"
    )
    assert _output("$\\boxed{\\text{B (others ruled out)}}$", "B", "MC", question).correct
    assert not _output("$\\boxed{\\text{B (ruled out)}}$", "B", "MC", question).correct
