"""Verifier 1.19.0 rules (red-team round 13 and the residue of round 12), each with its table.

Soundness: an ALT answer's prose that adds one more value ("So does $t = 4.0$ s.", "Also
$t = 4.0$ s.", "A third crossing: …", a list that holds the alternatives and one more) claims
it; an EX answer's conclusion written as an equation ("So $x/d = 1/3$.") must hold at the
box; two boxes joined by a word that says they are the same ("viz.", "(same)") are both
claimed; ``\\equiv`` states a value, and ``\\sim`` does where it writes a decimal; an exact NV
gold written with a logarithm, an exponential or a trigonometric function holds a value to
its digits, and a closed form with a decimal in it to the gold's value; 0 °C is no 0 K.

Recall: the first word of the next paragraph is no unit of the box; a qualifier ("Order of
magnitude: …", "Within 1% …") that opens the next sentence remarks, it does not qualify the
box; "equally spaced about the apex at $t = 2.0$ s" claims no alternative. Each rule has
controls: honest text the rule must leave alone."""

from __future__ import annotations

import pytest

from studybench.verify.restatement import listed_values, other_alternatives, restated_equations
from studybench.verify.rules import normalize_all
from studybench.verify.rules.equation import holds_at
from studybench.verify.verifier import judge_inline

TIMES = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"
LENS = "\\boxed{30.0\\,\\mathrm{cm}} \\text{ or } \\boxed{60.0\\,\\mathrm{cm}}"
NULL_POINT = "\\boxed{\\frac{2d}{3}}"
ROLL = "\\boxed{\\sqrt{\\frac{10 g h}{7}}}"
RAMP = "\\boxed{\\frac{k x^{2}}{2 m g}}"
HEIGHT = "\\boxed{0.816\\,\\mathrm{m}}"
PERIOD = "\\boxed{5.54\\times10^{3}\\,\\mathrm{s}}"
IMAGE = "\\boxed{60.0\\,\\mathrm{cm}}"
TEMP = "\\boxed{245\\,\\mathrm{K}}"
WAVE = "\\boxed{7.52\\times10^{-10}\\,\\mathrm{m}}"

TIMES_Q = (
    "A ball is launched vertically upward with $20.0\\,\\mathrm{m/s}$; "
    "$g = 10.0\\,\\mathrm{m/s^2}$. At what time or times after launch is the ball at a "
    "height of $15.0\\,\\mathrm{m}$?"
)
LENS_Q = (
    "An object and a screen are $90.0\\,\\mathrm{cm}$ apart; a lens of focal length "
    "$20.0\\,\\mathrm{cm}$ is placed between them. At what distance from the object must the "
    "lens be placed to form a sharp image on the screen?"
)
NULL_Q = (
    "A charge $+4q$ is at $x = 0$ and a charge $+q$ at $x = d$. At what position between the "
    "charges is the field zero? Express the position $x$ in terms of $d$."
)
ROLL_Q = (
    "A solid sphere rolls without slipping from height $h$ into a loop; its moment of inertia "
    "is $\\frac{2}{5}mr^2$. Find the speed $v$ of the centre of the sphere at the lowest point."
)
RAMP_Q = (
    "A block of mass $m$ against a spring of constant $k$ compressed by $x$ is released and "
    "slides up a frictionless ramp. Find the maximum height $h$ in terms of $k$, $x$, $m$, $g$."
)
HEIGHT_Q = RAMP_Q.replace("in terms of $k$, $x$, $m$, $g$", "for $k = 400$ N/m, $x = 0.100$ m")
PERIOD_Q = "A satellite orbits $400\\,\\mathrm{km}$ above the Earth. Find its orbital period."
IMAGE_Q = (
    "An object is $30.0\\,\\mathrm{cm}$ in front of a converging lens of focal length "
    "$20.0\\,\\mathrm{cm}$. Find the image distance $v$."
)
TEMP_Q = "Find the equilibrium temperature $T$ of the planet."
WAVE_Q = "Find the de Broglie wavelength $\\lambda$ of the fastest photoelectrons."


def judged(pred: str, gold: str, kind: str, question: str | None) -> bool:
    sequence = ",".join(["NV"] * gold.count("\\boxed")) if kind == "ALT" else ""
    return judge_inline(pred, gold, kind, type_sequence=sequence, question=question).correct


def alt(after: str, gold: str = TIMES, question: str = TIMES_Q) -> bool:
    box = gold.replace("\\boxed", "\\boxed")
    return judged(f"Working.\n\n**Final Answer**\n${box}$\n\n{after}", gold, "ALT", question)


# -- an ALT answer's prose that adds one more value claims it --------------------------------
@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("So does $t = 4.0$ s.", False),
        ("And so does $t = 4.0$ s.", False),
        ("As is $t = 4.0$ s.", False),
        ("Also $t = 4.0$ s.", False),
        ("Additionally, $t = 4.0$ s.", False),
        ("In addition: 4.0 s", False),
        ("Don't forget $t = 4.0$ s.", False),
        ("Also $t = 4.0$ s too.", False),
        ("A third crossing: $t = 4.0$ s.", False),
        ("One more instant: 4.0 s.", False),
        ("$t = 4.0$ s qualifies too.", False),
        ("The value 4.0 s fits as well.", False),
        ("4.0 s is fine too.", False),
        ("$t = 4.0$ s also puts the ball at that height.", False),
        ("All the times: 1.0 s, 3.0 s and 4.0 s.", False),
        ("$t \\in \\{1.0, 3.0, 4.0\\}$ s", False),
        ("$t = 1.0$ s, $t = 3.0$ s or $t = 4.0$ s.", False),
        # controls: one of the gold's, another event, a remark about the alternatives
        ("So does $t = 3.0$ s.", True),
        ("Also 1.0 s.", True),
        ("All the times: 1.0 s and 3.0 s.", True),
        ("$t \\in \\{1.0, 3.0\\}$ s", True),
        ("Also, $t = 2.0$ s gives the apex.", True),
        ("The ball also lands at 4.0 s.", True),
        ("By symmetry, the two times are equally spaced about the apex at $t = 2.0$ s.", True),
        ("The heights at 1.0 s, 2.0 s and 3.0 s are 15 m, 20 m and 15 m.", True),
        ("| t (s) | 1.0 | 2.0 | 3.0 |", True),
        ("Both roots work equally well: 1.0 s on the way up, 3.0 s on the way down.", True),
    ],
)
def test_an_alternative_added_after_the_box_is_claimed(after: str, correct: bool) -> None:
    assert alt(after) is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("So does $u = 45.0$ cm.", False),
        ("$u = 45.0$ cm also gives a sharp image.", False),
        ("The positions: 30.0 cm, 45.0 cm and 60.0 cm.", False),
        ("So does $u = 30.0$ cm.", True),
        ("The positions: 30.0 cm and 60.0 cm.", True),
        ("Either way the image is real.", True),
    ],
)
def test_an_alternative_added_for_the_lens(after: str, correct: bool) -> None:
    assert alt(after, LENS, LENS_Q) is correct


@pytest.mark.parametrize(
    ("after", "values"),
    [
        (
            "All the times: 1.0 s, 3.0 s and 4.0 s.",
            [["1.0\\,\\mathrm{s}", "3.0\\,\\mathrm{s}", "4.0\\,\\mathrm{s}"]],
        ),
        (
            "1.0 and 3.0 and 4.0 s",
            [["1.0\\,\\mathrm{s}", "3.0\\,\\mathrm{s}", "4.0\\,\\mathrm{s}"]],
        ),
        ("$\\{1, 3, 4\\}$", [["1", "3", "4"]]),
        ("Roots 1.0 s and 3.0 s.", []),  # two values: no list of three
        ("at 1, 2, 3", []),  # after a preposition: the values are conditions
        ("| 1 | 2 | 3 |", []),  # a table's row
        ("We discard 1.0 s, 3.0 s and 4.0 s.", []),  # set aside
        ("1.0 s, then 3.0 s, then 4.0 s", []),  # "then" joins steps, not a list
    ],
)
def test_listed_values(after: str, values: list[list[str]]) -> None:
    assert listed_values(after) == values


@pytest.mark.parametrize(
    ("after", "values"),
    [
        ("So does $t = 4.0$ s.", ["4.0\\,\\mathrm{s}"]),
        ("Also $t = 4.0$ s.", ["4.0\\,\\mathrm{s}"]),
        ("A further root: 4.0 s.", ["4.0\\,\\mathrm{s}"]),
        ("Also, $t = 2.0$ s gives the apex.", []),
        ("The times are equally spaced about $t = 2.0$ s.", []),
        ("It works equally well at 4.0 s.", ["4.0\\,\\mathrm{s}"]),
    ],
)
def test_other_alternatives_added(after: str, values: list[str]) -> None:
    assert other_alternatives(after) == values


# -- an EX answer's conclusion written as an equation must hold at the box ----------------------
@pytest.mark.parametrize(
    ("after", "gold", "question", "correct"),
    [
        ("So $x/d = 1/3$.", NULL_POINT, NULL_Q, False),
        ("So $3x = d$.", NULL_POINT, NULL_Q, False),
        ("Numerically $x \\approx 0.333\\,d$.", NULL_POINT, NULL_Q, False),
        ("$x$ equals $d/3$.", NULL_POINT, NULL_Q, False),
        ("So $v^2 = 2gh$.", ROLL, ROLL_Q, False),
        ("$v$ equals $\\sqrt{2gh}$.", ROLL, ROLL_Q, False),
        ("So $2mgh = kx^2/2$.", RAMP, RAMP_Q, False),
        # controls: the same answer as an equation, working in other symbols
        ("So $x/d = 2/3$.", NULL_POINT, NULL_Q, True),
        ("So $3x = 2d$.", NULL_POINT, NULL_Q, True),
        ("Numerically $x \\approx 0.667\\,d$.", NULL_POINT, NULL_Q, True),
        ("$x$ equals $2d/3$.", NULL_POINT, NULL_Q, True),
        ("So $v^2 = 10gh/7$.", ROLL, ROLL_Q, True),
        ("So $7v^2 = 10gh$.", ROLL, ROLL_Q, True),
        ("So $mgh = \\frac12 mv^2 + \\frac12 I\\omega^2$.", ROLL, ROLL_Q, True),
        ("So $2mgh = kx^2$.", RAMP, RAMP_Q, True),
        ("So $E = 0$ there.", NULL_POINT, NULL_Q, True),
        ("$x$ is measured from the $+4q$ charge.", NULL_POINT, NULL_Q, True),
    ],
)
def test_an_equation_concluded_after_the_box_holds_at_it(
    after: str, gold: str, question: str, correct: bool
) -> None:
    pred = f"Working.\n\n**Final Answer**\n$${gold}$$\n\n{after}"
    assert judged(pred, gold, "EX", question) is correct


@pytest.mark.parametrize(
    ("after", "equations"),
    [
        ("So $x/d = 1/3$.", [("x/d", "1/3")]),
        ("Therefore $v^2 = 2gh$ at the bottom.", [("v^2", "2gh")]),
        ("So $x \\approx 0.333\\,d$.", [("x", "0.333\\,d")]),
        ("So $x = d/3$.", []),  # a label's expression: restated_expressions reads it
        ("So $0 < x < d$.", []),  # a bound, no equation
        ("$$x/d = 1/3$$", []),  # no word concludes it: a display of working
    ],
)
def test_restated_equations(after: str, equations: list[tuple[str, str]]) -> None:
    assert restated_equations(after) == equations


@pytest.mark.parametrize(
    ("sides", "name", "value", "holds"),
    [
        (("v^2", "10gh/7"), "v", "\\sqrt{\\frac{10gh}{7}}", True),
        (("v^2", "2gh"), "v", "\\sqrt{\\frac{10gh}{7}}", False),
        (("x/d", "2/3"), "x", "\\frac{2d}{3}", True),
        (("x", "0.667d"), "x", "\\frac{2d}{3}", True),  # a decimal: within the tolerance
        (("x", "0.6d"), "x", "\\frac{2d}{3}", False),
        (("y", "2"), "x", "d", None),  # the asked symbol is not in it
        (("x", "x"), "x", "d", None),  # an identity says nothing of x
        (("x/", "2"), "x", "d", None),  # no parser reads it
    ],
)
def test_holds_at(sides: tuple[str, str], name: str, value: str, holds: bool | None) -> None:
    lhs, rhs, given = normalize_all((*sides, value))
    assert holds_at((lhs, rhs), name, given, 0.01) is holds


# -- two boxes joined by a word that says they are the same are both claimed -------------------
@pytest.mark.parametrize(
    ("joiner", "correct"),
    [
        ("\\text{ viz. }", False),
        ("\\text{ (same) }", False),
        ("\\text{ also written }", False),
        ("\\text{ again written as }", False),
        ("\\text{ that is to say }", False),
        ("\\text{ (identical) }", False),
        ("\\text{ in other words }", False),
        ("\\text{ to wit }", False),
    ],
)
def test_boxes_joined_as_the_same_value_are_both_claimed(joiner: str, correct: bool) -> None:
    pred = f"Working.\n\n$$\\boxed{{1.63\\,\\mathrm{{m}}}} {joiner} {HEIGHT}$$"
    assert judged(pred, HEIGHT, "NV", HEIGHT_Q) is correct
    same = f"Working.\n\n$$\\boxed{{81.6\\,\\mathrm{{cm}}}} {joiner} {HEIGHT}$$"
    assert judged(same, HEIGHT, "NV", HEIGHT_Q) is True


# -- relations that state a value after the box -------------------------------------------------
@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("$v \\equiv 12.0$ cm.", False),
        ("$v ≡ 12.0$ cm.", False),
        ("$v \\sim 12.0$ cm.", False),
        ("Result → 12.0 cm", False),
        ("Result -> 12.0 cm", False),
        ("$v \\equiv 60.0$ cm.", True),
        ("$v \\sim 10^{2}$ cm.", True),  # an order of magnitude, no value
        ("Result → 60.0 cm", True),
    ],
)
def test_relations_that_state_a_value(after: str, correct: bool) -> None:
    pred = f"Working.\n\nTherefore,\n$${IMAGE}$$\n\n{after}"
    assert judged(pred, IMAGE, "NV", IMAGE_Q) is correct


# -- the next paragraph is no unit and no qualifier of the box ----------------------------------
@pytest.mark.parametrize(
    ("box", "after", "gold", "question"),
    [
        ("$$BOX$$", "You could also say this is about 1.5 hours.", PERIOD, PERIOD_Q),
        ("$$BOX$$", "One might worry about drag, but at 400 km it is tiny.", PERIOD, PERIOD_Q),
        ("$$BOX$$", "We might also quote it as 92.3 min.", PERIOD, PERIOD_Q),
        ("$BOX$", "Order of magnitude: about 1.5 hours, as for every low orbit.", PERIOD, PERIOD_Q),
        (
            "$BOX$.",
            "Order-of-magnitude check: atomic spacings are about $10^{-10}$ m.",
            WAVE,
            WAVE_Q,
        ),
        ("$BOX$", "Within 1% this agrees with the textbook's 92 min.", PERIOD, PERIOD_Q),
        ("$BOX$.", "Accurate only to three significant figures.", PERIOD, PERIOD_Q),
        ("$BOX$", "Give or take rounding, that is about 1.5 hours.", PERIOD, PERIOD_Q),
        (
            "$BOX$",
            "If the planet did not rotate and only the day side radiated, it would be hotter.",
            TEMP,
            TEMP_Q,
        ),
        ("$BOX$", "When the albedo is higher, only a colder planet balances.", TEMP, TEMP_Q),
    ],
)
def test_the_next_paragraph_leaves_the_box_alone(
    box: str, after: str, gold: str, question: str
) -> None:
    pred = f"Working.\n\n**Final Answer**\n{box.replace('BOX', gold)}\n\n{after}"
    assert judged(pred, gold, "NV", question) is True


@pytest.mark.parametrize(
    "after",
    [
        ", give or take a factor of two.",
        " (within an order of magnitude)",
        " \\pm 10\\%",
        ".\n\n\\pm 2 s",  # a spread on the next line still spreads the box
        " m, valid only for small angles.",
    ],
)
def test_a_qualifier_in_the_box_sentence_still_qualifies(after: str) -> None:
    pred = f"Working.\n\n**Final Answer** ${PERIOD}${after}"
    assert judged(pred, PERIOD, "NV", PERIOD_Q) is False


# -- exact golds written with functions; scales with an offset -----------------------------------
@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("\\frac{9}{13}", "\\ln 2", False),
        ("0.698", "\\ln 2", False),
        ("0.693", "\\ln 2", True),
        ("0.69", "\\ln 2", True),
        ("0.366", "e^{-1}", False),
        ("0.368", "e^{-1}", True),
        ("0.86", "\\sin 60^\\circ", False),
        ("0.866", "\\sin 60^\\circ", True),
        ("0.301", "\\log_{10} 2", True),
        ("0.305", "\\log_{10} 2", False),
        ("e^{-0.4}", "\\frac{2}{3}", False),
        ("\\sqrt{0.45}", "\\frac{2}{3}", False),
        ("\\frac{\\pi}{4.7}", "\\frac{2}{3}", False),
        ("\\frac{1}{1.5}", "\\frac{2}{3}", True),
        ("\\frac{2.0}{3}", "\\frac{2}{3}", True),
        ("0.667", "\\frac{2}{3}", True),
        ("0.698", "0.693", True),  # a rounded gold keeps its 1 %
    ],
)
def test_exact_golds_hold_values_to_their_digits(pred: str, gold: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "NV", None) is correct


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("0\\,\\mathrm{K}", "0\\,^\\circ\\mathrm{C}", False),
        ("0\\,^\\circ\\mathrm{F}", "0\\,^\\circ\\mathrm{C}", False),
        ("0\\,^\\circ\\mathrm{C}", "0\\,^\\circ\\mathrm{C}", True),
        ("0", "0\\,^\\circ\\mathrm{C}", True),  # a bare number is read in the gold's unit
        ("0\\,\\mathrm{cm}", "0\\,\\mathrm{m}", True),
        ("0", "0\\,\\mathrm{J}", True),
    ],
)
def test_zero_on_a_scale_with_an_offset(pred: str, gold: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "NV", None) is correct


# -- an exact EX/EQ gold: decimals must round it ------------------------------------------------
@pytest.mark.parametrize(
    ("pred", "gold", "kind", "correct"),
    [
        ("6.49 p_0 V_0", "\\frac{13}{2} p_0 V_0", "EX", False),
        ("6.50 p_0 V_0", "\\frac{13}{2} p_0 V_0", "EX", True),
        ("\\frac{13}{2}p_0V_0 + 0.01p_0V_0", "\\frac{13}{2} p_0 V_0", "EX", False),
        ("\\frac{2d}{3}+0.005d", "\\frac{2d}{3}", "EX", False),
        ("0.66d", "\\frac{2d}{3}", "EX", False),  # truncated: 0.67 rounds it
        ("0.67d", "\\frac{2d}{3}", "EX", True),
        ("0.667d", "\\frac{2d}{3}", "EX", True),
        ("0.428mg", "\\frac{3}{7}mg", "EX", False),
        ("0.429mg", "\\frac{3}{7}mg", "EX", True),
        ("2^{-1.66}p_0", "2^{-5/3} p_0", "EX", False),
        ("2^{-1.67}p_0", "2^{-5/3} p_0", "EX", True),
        ("1.41\\sqrt{gh}", "\\sqrt{2gh}", "EX", True),
        ("e^{-0.693t}", "e^{-t\\ln 2}", "EX", True),
        ("0.5 m v^2", "\\frac{1}{2} m v^2", "EX", True),  # an exact decimal rounds itself
        ("1.195\\sqrt{gh}", "\\sqrt{\\frac{10 g h}{7}}", "EX", True),
        ("h_{\\min}=2.69R", "h_{\\min}=\\frac{27}{10}R", "EQ", False),
        ("h_{\\min}=2.7R", "h_{\\min}=\\frac{27}{10}R", "EQ", True),
        ("x=0.288L", "x=\\frac{L}{2\\sqrt{3}}", "EQ", False),
        ("x=0.289L", "x=\\frac{L}{2\\sqrt{3}}", "EQ", True),
        ("x=\\frac{L}{\\sqrt{12.1}}", "x=\\frac{L}{2\\sqrt{3}}", "EQ", False),
        ("a = 0.714 g", "a = \\frac{5}{7} g", "EQ", True),
        ("a = 0.71 g", "a = \\frac{5}{7} g", "EQ", True),
        ("v = 14.5", "v = 14.49", "EQ", True),  # a rounded gold keeps its tolerance
    ],
)
def test_decimals_against_an_exact_gold_must_round_it(
    pred: str, gold: str, kind: str, correct: bool
) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", kind, None) is correct


@pytest.mark.parametrize(
    ("pred", "decimals", "result"),
    [
        ("6.49 p_0", "13/2", False),
        ("6.50 p_0", "13/2", True),
        ("p_0", "13/2", None),  # no decimal: nothing to round
        ("1.1 + 2.2 + 3.3 + 4.4", "11", True),  # four decimals: each moved alone
        ("1.1 + 2.2 + 3.3 + 4.1", "11", False),  # 10.7 ± 0.2
        ("+".join(["1.1"] * 9), "99/10", None),  # more decimals than are read
        ("0.66 \\cdot 1.0 \\cdot 1.0 \\cdot p_0", "2/3", False),  # 1.0 is exact: no padding
        (".667 p_0", "2/3", True),  # a decimal without its leading zero
        (".66 p_0", "2/3", False),
    ],
)
def test_rounds_gold(pred: str, decimals: str, result: bool | None) -> None:
    import sympy

    from studybench.verify.rules.expression import rounds_gold

    gold = sympy.Rational(decimals) * (sympy.Symbol("p_0") if "p_0" in pred else 1)
    assert rounds_gold(pred, gold, (), "seed") is result


# -- a question that asks a temperature change reads the scales as steps -----------------------
RISE_Q = "A kettle heats 1.00 kg of water. By how much does the temperature rise?"
CHANGE_Q = "Find the temperature change of the gas during the compression."
FINAL_Q = "The water is heated by 20.0 °C. Find the final temperature of the water."


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        ("25.0\\,^\\circ\\mathrm{C}", "25.0\\,\\mathrm{K}", RISE_Q, True),
        ("25.0\\,\\mathrm{K}", "25.0\\,^\\circ\\mathrm{C}", RISE_Q, True),
        ("45.0\\,^\\circ\\mathrm{F}", "25.0\\,\\mathrm{K}", CHANGE_Q, True),
        ("298\\,\\mathrm{K}", "25.0\\,^\\circ\\mathrm{C}", RISE_Q, False),
        ("-248.15\\,^\\circ\\mathrm{C}", "25.0\\,\\mathrm{K}", CHANGE_Q, False),
        # a final temperature is a point of the scale, whatever the data say of a rise
        ("298\\,\\mathrm{K}", "25.0\\,^\\circ\\mathrm{C}", FINAL_Q, True),
        ("25.0\\,\\mathrm{K}", "25.0\\,^\\circ\\mathrm{C}", FINAL_Q, False),
    ],
)
def test_a_temperature_change_is_a_step(pred: str, gold: str, question: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "NV", question) is correct


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        (RISE_Q, True),
        (CHANGE_Q, True),
        ("What is the increase in the water's temperature?", True),
        ("Find $\\Delta T$ for the process.", True),
        ("The temperature rises by how much when the gas is compressed?", True),
        (FINAL_Q, False),
        ("Find the temperature of the star.", False),
        (None, False),
    ],
)
def test_asks_temperature_change(question: str | None, asks: bool) -> None:
    from studybench.verify.question import asks_temperature_change

    assert asks_temperature_change(question) is asks


# -- round 14 on 1.19.0's draft: what the draft opened or missed --------------------------------
SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"
SPEED_Q = (
    "A curve of radius $80.0\\,\\mathrm{m}$ is banked at $15.0^\\circ$. At what speed can a car "
    "round it with no friction? Use $g = 9.80\\,\\mathrm{m/s^2}$."
)
SPEED_V_Q = SPEED_Q.replace("At what speed", "At what speed $v$")


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        # a qualifier alone in the next sentence still qualifies the box
        ("Give or take a factor of ten.", False),
        ("Within 50%.", False),
        ("Order of magnitude only.", False),
        ("(Up to a factor of 2.)", False),
        ("Valid only for a dry road.", False),
        ("Valid only if the road is banked at exactly 15°; otherwise 29 m/s.", False),
        ("More or less 29 m/s.", False),
        # a remark of its own
        ("Within 1% this agrees with a direct numerical check.", True),
        ("Order of magnitude: fine.", True),
        ("Give or take rounding, that is 52 km/h.", True),
        ("Accurate only to three significant figures, since g is.", True),
        ("Valid only for a banked curve, as the problem assumes.", True),
        ("An order-of-magnitude estimate agrees: $\\sqrt{200} \\approx 14$.", True),
    ],
)
def test_a_qualifier_alone_in_the_next_sentence_qualifies(after: str, correct: bool) -> None:
    pred = f"Working.\n\n**Final Answer**\n\\[{SPEED}\\]\n\n{after}"
    assert judged(pred, SPEED, "NV", SPEED_Q) is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Equally, $t = 4.0$ s.", False),
        ("Same goes for $t = 4.0$ s.", False),
        ("Ditto for 4.0 s.", False),
        ("Also $t = 4.0$ s and $t = 5.0$ s.", False),
        ("Plus one more: $t = 4.0$ s.", False),
        ("Also $t = 4.0\\,\\mathrm{s}$ (check).", False),
        ("4.0 s as well.", False),
        ("A 3rd crossing: $t = 4.0$ s.", False),
        ("Times: 1.0 s / 3.0 s / 4.0 s.", False),
        ("The ball is at 15 m at 1.0 s, 3.0 s and 4.0 s.", True),  # after "at": conditions
        ("The crossings are at 1.0 s, 3.0 s and 4.0 s.", False),
        # controls
        ("Check: the times 0.0 s, 1.0 s, 3.0 s and 4.0 s give heights 0, 15, 15 and 0 m.", True),
        ("Times checked: 0.0 s, 1.0 s, 3.0 s, 4.0 s — heights 0, 15, 15, 0 m.", True),
        ("$t = 4.0$ s also marks the landing.", True),
        ("As is expected, $t = 2.0$ s is the apex, halfway between.", True),
        ("Same goes for the speeds: both are 10 m/s.", True),
    ],
)
def test_more_ways_to_add_an_alternative(after: str, correct: bool) -> None:
    assert alt(after) is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("The lens can sit at 30.0 cm, 45.0 cm or 60.0 cm.", False),
        ("The lens can sit at 30.0 cm or 60.0 cm.", True),
        ("As is required, $D = 90.0$ cm exceeds $4f = 80.0$ cm.", True),
    ],
)
def test_more_ways_to_add_a_lens_position(after: str, correct: bool) -> None:
    assert alt(after, LENS, LENS_Q) is correct


ROLL_M_Q = ROLL_Q.replace("A solid sphere", "A solid sphere of mass $m$")


@pytest.mark.parametrize(
    ("after", "question", "correct"),
    [
        ("So $x/d \\simeq 0.5$.", NULL_Q, False),
        ("So $x/d \\cong 1/2$.", NULL_Q, False),
        ("So $x/d \\equiv 1/2$.", NULL_Q, False),
        ("Thus $mgh = \\tfrac12 mv^2$.", ROLL_M_Q, False),  # m is the question's: a claim
        ("Thus $mgh = \\tfrac{7}{10} mv^2$.", ROLL_M_Q, True),
        ("So $v^2 = 2gh$ for a block sliding without friction.", ROLL_Q, True),
        ("So $x/d \\simeq 0.667$.", NULL_Q, True),
    ],
)
def test_more_equations_concluded_after_the_box(after: str, question: str, correct: bool) -> None:
    gold = ROLL if "sphere" in question else NULL_POINT
    pred = f"Working.\n\n**Final Answer**\n$${gold}$$\n\n{after}"
    assert judged(pred, gold, "EX", question) is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("So $v \\sim 29.0$ m/s.", False),
        ("So $v \\approxeq 29.0$ m/s.", False),
        ("So $v \\thickapprox 29.0$ m/s.", False),
        ("Final → 29.0 m/s.", False),
        ("Answer $\\to$ 29.0 m/s.", False),
        ("Final → 14.5 m/s.", True),
        ("So $v \\sim 10$ m/s, as expected for a road.", True),
    ],
)
def test_more_relations_that_state_a_value(after: str, correct: bool) -> None:
    pred = f"Working.\n\n**Final Answer**\n${SPEED}$\n\n{after}"
    assert judged(pred, SPEED, "NV", SPEED_V_Q) is correct


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("273\\,\\mathrm{K}", "0\\,^\\circ\\mathrm{C}", True),
        ("273.15\\,\\mathrm{K}", "0\\,^\\circ\\mathrm{C}", True),
        ("32\\,^\\circ\\mathrm{F}", "0\\,^\\circ\\mathrm{C}", True),
        ("275\\,\\mathrm{K}", "0\\,^\\circ\\mathrm{C}", False),
        ("272\\,\\mathrm{K}", "0\\,^\\circ\\mathrm{C}", False),
        ("33\\,^\\circ\\mathrm{F}", "0\\,^\\circ\\mathrm{C}", False),
        ("0.49^{0.5}", "\\ln 2", False),  # a closed form with a decimal power
        ("(0.49)^{0.5}", "\\ln 2", False),
    ],
)
def test_the_zero_of_a_scale_and_decimal_powers(pred: str, gold: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "NV", None) is correct


ADIABAT = "\\boxed{2^{-5/3} p_0}"
ADIABAT_Q = "If instead the expansion is adiabatic, what is the final pressure $p$?"


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("### Next", True),
        ("## Discussion\nThe pressure drops more than in the isothermal case.", True),
        ("### Looking ahead", True),
        ("### Final Answer\n$p = 2^{-5/3}p_0$", True),
        ("### Final Answer\n$p = 2^{-2/3}p_0$", False),
        ("### Result\n$p = 2^{-2/3}p_0$", False),
    ],
)
def test_a_heading_of_words_is_a_title(after: str, correct: bool) -> None:
    pred = f"Working.\n\n$${ADIABAT}$$\n\n{after}"
    assert judged(pred, ADIABAT, "EX", ADIABAT_Q) is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Summary: (a) 60.0 cm, (b) 14.5 m/s.", True),
        ("Conclusion: (a) $v_1 = 30.0$ cm; (b) $v = 14.5$ m/s.", True),
        ("TL;DR: (i) 0.82 m, (ii) 14.5 m/s", True),
        ("Summary: (a) 60.0 cm, (b) 29.0 m/s.", False),  # the part asked now is the last
        ("Summary: 14.5 m/s or 29.0 m/s.", False),
    ],
)
def test_a_summary_of_the_parts(after: str, correct: bool) -> None:
    pred = f"Working.\n\n**Final Answer**\n${SPEED}$\n\n{after}"
    assert judged(pred, SPEED, "NV", SPEED_Q) is correct


# -- a factor that is 1 where the points are sampled, and not elsewhere --------------------------
RANGE = "\\frac{v_0^{2}\\sin 2\\theta}{g}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        (f"{RANGE}(1+(v_0/10)^{{200}})", False),  # a large numeric power: 10^{-200} there
        (f"{RANGE}(1+(g/40)^{{300}})", False),  # with a written 40^{-300}: the orders add up
        (f"{RANGE}(1+(g/9)^{{300}})", False),
        (f"{RANGE}\\tanh(100\\theta)", False),  # 1 to 87 digits at theta = 1
        (f"{RANGE}\\coth(50 v_0)", False),
        (f"{RANGE}(1 + x^{{25}} - x^{{25}})", True),  # a power that cancels is no term
        ("\\frac{2 v_0^2 \\sin\\theta\\cos\\theta}{g}", True),
        (f"{RANGE}\\tanh(\\theta)\\coth(\\theta)", True),
    ],
)
def test_a_factor_flat_on_the_sampled_range_is_checked(pred: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{RANGE}}}", "EX", None) is correct


@pytest.mark.parametrize(
    ("exponent", "large"),
    [(20, True), (-20, True), (300, True), (19, False), (2, False), ("x", False)],
)
def test_large_exponent(exponent: int | str, large: bool) -> None:
    import sympy

    from studybench.verify.symbolic import _large_exponent

    value = sympy.Symbol(exponent) if isinstance(exponent, str) else sympy.Integer(exponent)
    assert _large_exponent(value) is large


# -- round 15 on 1.19.0: the edges of the new rules --------------------------------------------
@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("2.69R = h_{\\min}", "h_{\\min}=\\frac{27}{10}R", False),  # the label on the right
        ("2.70R = h_{\\min}", "h_{\\min}=\\frac{27}{10}R", True),
        ("0.666d = x", "x = \\frac{2d}{3}", False),
    ],
)
def test_a_rounding_with_the_label_on_the_right(pred: str, gold: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "EQ", None) is correct


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How much does its temperature go up?", True),
        ("How much warmer does the block get?", True),
        ("Find how many kelvins its temperature climbs.", True),
        ("Find the resulting temperature increase of the block.", True),
        ("If its temperature rises by 25.0 K, what is its final temperature?", False),
        ("Given that the temperature rises by 25.0 K, find the final temperature.", False),
        ("(a) By how much does it warm? (b) What is its final temperature?", False),
        ("(a) Find its final temperature. (b) By how much did its temperature rise?", True),
    ],
)
def test_asks_temperature_change_in_the_part_asked(question: str, asks: bool) -> None:
    from studybench.verify.question import asks_temperature_change

    assert asks_temperature_change(question) is asks


@pytest.mark.parametrize(
    ("pred", "gold", "correct"),
    [
        ("-273.15\\,^\\circ\\mathrm{C}", "0\\,\\mathrm{K}", True),
        ("-273\\,^\\circ\\mathrm{C}", "0\\,\\mathrm{K}", True),
        ("-460\\,^\\circ\\mathrm{F}", "0\\,\\mathrm{K}", True),
        ("-250\\,^\\circ\\mathrm{C}", "0\\,\\mathrm{K}", False),
        ("273.2\\,\\mathrm{K}", "0\\,^\\circ\\mathrm{C}", True),  # on the half-unit bound
    ],
)
def test_absolute_zero_and_the_bound(pred: str, gold: str, correct: bool) -> None:
    assert judged(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "NV", None) is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Could be 29.0 m/s, see (i) 14.5 m/s, (ii) 14.5 m/s.", False),  # before the tags
        ("It could also be 29.0 m/s. (a) 14.5 m/s (b) 14.5 m/s.", False),
        ("Or $v(x) = 29.0$ m/s (v) 14.5 m/s.", False),  # f(x) is no part's tag
        ("Summary: (a) 60.0 cm, (b) 14.5 m/s.", True),
        ("### Corrected value\n$v = 29.0$ m/s", False),
        ("### Erratum\n$v = 29.0$ m/s", False),
        ("On reflection the speed is 29.0 m/s.", False),
        ("### Next steps\n$v = 29.0$ m/s would be the speed on a steeper bank.", True),
    ],
)
def test_tags_and_headings_hide_nothing(after: str, correct: bool) -> None:
    pred = f"Working.\n\n**Final Answer**\n${SPEED}$\n\n{after}"
    assert judged(pred, SPEED, "NV", SPEED_Q) is correct
