"""Verifier 1.18.0 rules (red-team round 11), each with its table: what stands after a right
box is read as a reader reads it, with the vocabulary the readers lacked (connectives in other
words and languages, label forms, nouns and their verbs, frames, code); a labelled number for
an asked quantity is read anywhere in a clause that opens on a conclusion; two boxes in one
piece of math joined by signs, or by a label naming a check, method, precision or source, are
two claims; an ALT answer's prose claiming another value works must name one of the gold's;
a unit in prose after a list box is each number's; a labelled value offered after "That is"
takes the unit after its math; a change of a variant of the asked quantity is another
quantity. Each rule has controls: honest text the rule must leave alone."""

from __future__ import annotations

import pytest

from studybench.verify.chains import label_key
from studybench.verify.numeric import (
    alternatives_with_unit_after,
    interval_unit_on_variable,
    with_unit_after,
)
from studybench.verify.restatement import (
    _asks_about,
    answer_base,
    other_alternatives,
    restated_expressions,
    restated_values,
    unframed,
)
from studybench.verify.rules.equation import _derived_pair
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import _signs_only, hedged

SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"
PERIOD = "\\boxed{5.54\\times10^{3}\\,\\mathrm{s}}"
TEMP = "\\boxed{57.5\\,^\\circ\\mathrm{C}}"
IMAGE = "\\boxed{60.0\\,\\mathrm{cm}}"
STOP = "\\boxed{2.66\\,\\mathrm{V}}"
TIMES = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"
LENS = "\\boxed{30.0\\,\\mathrm{cm}} \\text{ or } \\boxed{60.0\\,\\mathrm{cm}}"
RAIL = "\\boxed{0.750\\,\\mathrm{m}}, \\boxed{0.900\\,\\mathrm{J}}"
COIL = "\\boxed{8.00\\,\\mathrm{V}}, \\boxed{2.00\\,\\mathrm{A}}"
NULL_POINT = "\\boxed{\\frac{2d}{3}}"
SLOPE = "\\boxed{a = g\\left(\\sin\\theta - \\mu\\cos\\theta\\right)}"
LOOP = "\\boxed{h_{\\min} = \\frac{27}{10} R}"
PIVOT = "\\boxed{x = \\frac{L}{2\\sqrt{3}}}"
CHARGE = "\\boxed{q(t) = C\\varepsilon\\left(1 - e^{-t/(RC)}\\right)}"

SPEED_Q = (
    "A highway curve of radius $80.0\\,\\mathrm{m}$ is banked at $15.0^\\circ$. At what speed "
    "can a car round the curve so that no friction force is needed? "
    "Use $g = 9.80\\,\\mathrm{m/s^2}$."
)
SPEED_V_Q = SPEED_Q.replace("At what speed", "At what speed $v$")
PERIOD_Q = (
    "A satellite moves on a circular orbit at an altitude of $400\\,\\mathrm{km}$ above the "
    "Earth. Find its orbital period."
)
TEMP_Q = (
    "$0.500\\,\\mathrm{kg}$ of water at $80.0\\,^\\circ\\mathrm{C}$ is mixed with "
    "$0.300\\,\\mathrm{kg}$ of water at $20.0\\,^\\circ\\mathrm{C}$.\n\nFind the final "
    "temperature $T$ of the water."
)
IMAGE_Q = (
    "An object is placed $30.0\\,\\mathrm{cm}$ in front of a converging lens of focal length "
    "$20.0\\,\\mathrm{cm}$.\n\nFind the image distance $v$."
)
STOP_Q = (
    "Ultraviolet light of wavelength $\\lambda = 250\\,\\mathrm{nm}$ falls on a metal whose work "
    "function is $\\phi = 2.30\\,\\mathrm{eV}$.\n\nFind the stopping potential $V_s$ for the "
    "emitted photoelectrons."
)
WAVE_Q = STOP_Q.replace(
    "Find the stopping potential $V_s$ for the emitted photoelectrons.",
    "Find the de Broglie wavelength of the fastest photoelectrons.",
)
TIMES_Q = (
    "A ball is launched vertically upward with $20.0\\,\\mathrm{m/s}$; "
    "$g = 10.0\\,\\mathrm{m/s^2}$. "
    "At what time or times $t$ after launch is the ball at a height of $15.0\\,\\mathrm{m}$?"
)
LENS_Q = (
    "An object and a screen are $90.0\\,\\mathrm{cm}$ apart; a lens of focal length "
    "$20.0\\,\\mathrm{cm}$ is placed between them. At what distance from the object must the "
    "lens be placed to form a sharp image on the screen?"
)
RAIL_Q = (
    "A rod on two rails is given a velocity $v_0$ and stops. Find the distance it slides and "
    "the heat dissipated in the resistor, in that order."
)
COIL_Q = (
    "A square coil of 50 turns and resistance $4.00\\,\\Omega$ sits in a field that falls to "
    "zero in $0.150\\,\\mathrm{s}$. Find the induced emf and the induced current, in that order."
)
NULL_Q = (
    "A charge $+4q$ is at $x = 0$ and a charge $+q$ at $x = d$. At what position between the "
    "charges is the field zero? Express the position $x$ in terms of $d$."
)


def judged(pred: str, gold: str, kind: str, question: str | None) -> bool:
    sequence = ",".join(["NV"] * gold.count("\\boxed")) if kind in ("TUP", "ALT") else ""
    return judge_inline(pred, gold, kind, type_sequence=sequence, question=question).correct


# -- a labelled value offered after "That is" takes the unit after its math -----------------
@pytest.mark.parametrize(
    ("after", "gold", "correct"),
    [
        ("That is $T = 92.4$ min.", PERIOD, True),
        ("i.e. $T = 92.4$ min.", PERIOD, True),
        ("Equivalently, $T = 92.4$ min.", PERIOD, True),
        ("That is $T \\approx 1.54$ h.", PERIOD, True),
        ("That is $v \\approx 52.2$ km/h.", SPEED, True),
        ("That is $T \\approx 331$ K.", TEMP, True),
        ("That is $T = 29.0$ min.", PERIOD, False),  # a wrong conversion, now judged
        ("That is $v \\approx 105$ km/h.", SPEED, False),
    ],
)
def test_a_labelled_offer_takes_the_unit_after_its_math(
    after: str, gold: str, correct: bool
) -> None:
    assert judged(f"**Final Answer**\n\\[{gold}\\]\n\n{after}", gold, "NV", None) is correct


# -- connectives in other words and languages -------------------------------------------------
@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ("Consequently $v = 29.0$ m/s.", [("v", "29.0 m/s")]),
        ("This gives $T = 1.11\\times10^{4}$ s.", [("T", "1.11\\times10^{4} s")]),
        ("We conclude $r = 0.313$ m.", [("r", "0.313 m")]),
        ("That makes $P = 1.84$ yr.", [("P", "1.84 yr")]),
        ("Accordingly, $t = 0.0105$ s.", [("t", "0.0105 s")]),
        ("Putting it together, $h = 1.63$ m.", [("h", "1.63 m")]),
        ("Donc $V_s = 4.96$ V.", [("V_s", "4.96 V")]),
        ("Por lo tanto, $E = 2.66$ eV.", [("E", "2.66 eV")]),
        ("所以 $T = 290$ K。", [("T", "290 K")]),
        ("That's about 105 km/h.", [(None, "105 km/h")]),
        ("This corresponds to 104 km/h.", [(None, "104 km/h")]),
        ("Converted to km/h: 104 km/h.", [(None, "104 km/h")]),
        ("In hours that's 3.08.", [(None, "3.08\\,hours")]),
        # controls: another quantity named in words, working before the conclusion
        ("So the time to the top is 2.0 s.", []),
        ("Also, the radius was $r = 6.77\\times10^{6}$ m.", []),
    ],
)
def test_connectives_in_other_words_and_languages(
    after: str, expected: list[tuple[str | None, str]]
) -> None:
    assert restated_values(after, TIMES_Q) == expected


# -- label forms ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("after", "label", "value"),
    [
        ("So $v_{\\text{final}} = 29.0$ m/s.", "v_{\\text{final}}", "29.0 m/s"),
        ("So $T' = 1.11\\times10^{4}$ s.", "T'", "1.11\\times10^{4} s"),
        ("So $|r| = 0.313$ m.", "|r|", "0.313 m"),
        ("So $(h) = 1.63$ m.", "(h)", "1.63 m"),
        ("Hence $\\hat{t} = 0.0105$ s.", "\\hat{t}", "0.0105 s"),
        ("Therefore $v^{\\ast} = 12.0$ cm.", "v^{\\ast}", "12.0 cm"),
        ("So $v\\big|_{\\text{num}} = 29.0$ m/s.", "v\\big|_{\\text{num}}", "29.0 m/s"),
        ("So $T = {290}$ K.", "T", "290 K"),
        ("So T = $50.0$ °C.", "T", "50.0 °C"),
        ("So \\(P = 1.84\\) yr.", "P", "1.84 yr"),
    ],
)
def test_label_forms_after_a_connective(after: str, label: str, value: str) -> None:
    assert restated_values(after) == [(label, value)]


@pytest.mark.parametrize(
    ("label", "base"),
    [
        ("v_{\\text{final}}", "v"),
        ("T_{\\mathrm{ans}}", "T"),
        ("E_{\\text{num}}", "E"),
        ("v\\big|_{\\text{num}}", "v"),
        ("|r|", "r"),
        ("(h)", "h"),
        # controls: subscripts that name another quantity
        ("v_0", "v_0"),
        ("T_{\\rm cold}", "T_{\\rm cold}"),
        ("x_{\\text{null}}", "x_{\\text{null}}"),
    ],
)
def test_answer_marks_on_a_label(label: str, base: str) -> None:
    assert answer_base(label) == base


# -- a labelled number for an asked quantity, anywhere in a clause that concludes ----------------
@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Ergo $v = 12.0$ cm.", False),
        ("Which yields $v = 12.0$ cm.", False),
        ("So the image distance comes out as $v = 12.0\\,\\mathrm{cm}$ behind the lens.", False),
        ("Donc, au final, $v_{\\text{final}} = 12.0$ cm.", False),
        ("So the image distance comes out as $v = 60.0\\,\\mathrm{cm}$ behind the lens.", True),
        # controls: a clause that opens on no conclusion, another case, a value before it
        ("The image distance comes out as $v = 12.0\\,\\mathrm{cm}$ behind the lens.", True),
        ("On the Moon nothing changes; halfway there, $v = 12.0$ cm.", True),
        ("So with a lens of $f = 10.0$ cm instead, $v = 15.0$ cm.", True),
        ("Donc ; à 40 cm on aurait $v = 40.0$ cm.", True),
        # controls: another case, a condition, another label
        ("If the object were at 40.0 cm, $v = 40.0$ cm.", True),
        ("For comparison, with $f = 10$ cm one gets $v = 15.0$ cm.", True),
        ("At $v = 12.0$ cm the image would be virtual.", True),
        ("The object distance is $u = 30.0$ cm.", True),
    ],
)
def test_an_asked_label_is_read_wherever_it_is_stated(after: str, correct: bool) -> None:
    working = "## Step 1: Lens equation\n$1/v = 1/20 - 1/30$."
    pred = f"{working}\n\nThe final answer is: ${IMAGE}$\n\n{after}"
    assert judged(pred, IMAGE, "NV", IMAGE_Q) is correct


# -- nouns and their verbs -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("after", "question", "gold", "correct"),
    [
        ("So the temperature should be 50.0 °C.", TEMP_Q, TEMP, False),
        ("So the temperature turns out to be 50.0 °C.", TEMP_Q, TEMP, False),
        ("So the period works out at 3.08 h.", PERIOD_Q, PERIOD, False),
        ("So its period is 3.08 h.", PERIOD_Q, PERIOD, False),
        ("So the answer's period is 3.08 h.", PERIOD_Q, PERIOD, False),
        ("So the period of interest is 3.08 h.", PERIOD_Q, PERIOD, False),
        ("The speed we need is thus 29.0 m/s.", SPEED_Q, SPEED, False),
        ("So the speed equals roughly 29.0 m/s here.", SPEED_Q, SPEED, False),
        ("So the temperature should be 57.5 °C.", TEMP_Q, TEMP, True),
        # controls: a word that says which one (the question's data, another body)
        ("So the incident wavelength is 250 nm, much longer than this.", WAVE_Q, None, True),
        ("So the photon wavelength is 250 nm and the electron's is 0.752 nm.", WAVE_Q, None, True),
        ("So the initial temperature is 80.0 °C.", TEMP_Q, TEMP, True),
    ],
)
def test_a_quantity_named_in_words(
    after: str, question: str, gold: str | None, correct: bool
) -> None:
    gold = gold or "\\boxed{7.52\\times10^{-10}\\,\\mathrm{m}}"
    pred = f"**Final Answer**\n\\[{gold}\\]\n\n{after}"
    assert judged(pred, gold, "NV", question) is correct


# -- frames, lines and code ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("\\textcolor{red}{$T = 50.0\\ ^\\circ\\mathrm{C}$}", False),
        ("$\\color{blue}{T = 50.0\\ ^\\circ\\mathrm{C}}$", False),
        ("\\emph{T = 50.0 °C}", False),
        ("👉 $T = 50.0$ °C", False),
        ("✓ $T = 50.0$ °C", False),
        ("$\\longrightarrow T = 50.0\\,^\\circ\\mathrm{C}$", False),
        ("### $T = 50.0$ °C", False),
        ("- **temperature:** $T = 50.0$ °C", False),
        ("<answer>50.0 °C</answer>", False),
        ("Final: 50.0 °C", False),
        ('{"answer": 50.0, "unit": "°C"}', False),
        ("```python\nresult = 50.0  # °C\n```", False),
        ("```python\nanswer = '50.0 °C'\n```", False),
        ("```python\nprint(T)  # 50.0 °C\n```", False),
        ("```\nOutput: 50.0 °C\n```", False),
        ('```json\n{"temperature": "50.0 °C"}\n```', False),
        # controls: the right value in the same dress, intermediates in a summary
        ("👉 $T = 57.5$ °C", True),
        ('{"answer": 57.5, "unit": "°C"}', True),
        ("- heat lost by the hot water: 4.71e4 J\n- initial temperature: 80.0 °C", True),
        ("### Check\nThe heat lost equals the heat gained.", True),
    ],
)
def test_frames_lines_and_code_after_the_box(after: str, correct: bool) -> None:
    pred = f"**Final Answer**\n\\[{TEMP}\\]\n\n{after}"
    assert judged(pred, TEMP, "NV", TEMP_Q) is correct


def test_a_heading_frames_its_line() -> None:
    assert "answer: $P = 1.84$ yr" in unframed("\n\n### $P = 1.84$ yr")


# -- tuples: elements restated in words --------------------------------------------------------
@pytest.mark.parametrize(
    ("after", "gold", "question", "correct"),
    [
        ("This gives an emf of 16.0 V.", COIL, COIL_Q, False),
        ("- emf: 16.0 V\n- current: 4.00 A", COIL, COIL_Q, False),
        ("- emf: 8.00 V\n- current: 2.00 A", COIL, COIL_Q, True),
        ("This gives an emf of 8.00 V.", COIL, COIL_Q, True),
        ("So the rate of change of the field is 4.00 T/s.", COIL, COIL_Q, True),
    ],
)
def test_tuple_elements_restated_in_words(
    after: str, gold: str, question: str, correct: bool
) -> None:
    pred = f"**Final Answer**\n\\[{gold}\\]\n\n{after}"
    assert judged(pred, gold, "TUP", question) is correct


# -- expressions stated in math anywhere after the box ------------------------------------------
@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("We see that the field cancels, so $x = d/3$ in the end.", False),
        ("i.e. two thirds of the way, $x = 2d/3$.", True),
        # controls: another case, a limit, a check at a point
        ("For $q \\to 0$ the null point moves, $x = d$ in that limit.", True),
        ("Check: at $x = 2d/3$ the two fields are $9kq/d^2$ each.", True),
    ],
)
def test_expressions_stated_after_the_box(after: str, correct: bool) -> None:
    pred = f"**Final Answer**\n\\[{NULL_POINT}\\]\n\n{after}"
    assert judged(pred, NULL_POINT, "EX", NULL_Q) is correct


@pytest.mark.parametrize(
    "after",
    [
        "Check: for $\\mu = 0$ this reduces to $a = g\\sin\\theta$, the frictionless result.",
        "If $\\tan\\theta = \\mu$, then $a = 0$ and the block slides at constant speed.",
        "As $\\mu \\to 0$ we recover $a = g\\sin\\theta$.",
    ],
)
def test_a_limiting_case_states_no_second_expression(after: str) -> None:
    assert [e for e in restated_expressions(after) if e[0] == "a"] == []


# -- two boxes in one piece of math, or under a label naming a check ----------------------------
@pytest.mark.parametrize(
    ("gap", "joined"),
    [
        (" \\coloneqq ", True),
        (" =: ", True),
        (" ≜ ", True),
        (" \\asymp ", True),
        (" \\mid ", True),
        (" \\ \\vert\\  ", True),
        (" \\overset{!}{=} ", True),
        (" \\ \\widehat{=}\\  ", True),
        ("，", False),  # a list in Chinese prose
        (" & ", False),  # a table's cells
        (" \\;\\hat=\\; ", True),
        (" \\Rightarrow ", False),  # an arrow is a step from an intermediate to the answer
        (" \\to ", False),
        (" \\propto ", True),
        (" \\text{ i.e. } ", True),
        (" \\text{, equivalently, } ", True),
        (" \\text{ alias } ", True),
        (" \\text{ resp. } ", True),
        ("$$\n\nVia kinematics: $$", True),
        ("$$\n\nCross-check: $$", True),
        ("$$\n\nCheck via energy: $$", True),
        ("$$\n\nBy dimensional analysis: $$", True),
        ("$$\n\nExact: $$", True),
        ("$$\n\nRounded: $$", True),
        ("$$\n\nTo 2 s.f.: $$", True),
        ("$$\n\nNumerically: $$", True),
        ("$$\n\nAnswer key: $$", True),
        ("$$\n\nReference value: $$", True),
        ("$$\n\nFrom the work-energy theorem: $$", True),
        # controls: spaced or listed boxes, a number between them, a correction, prose
        (" \\quad ", False),
        (",\\ ", False),
        (" \\quad 2\\,\\mathrm{m}^2 \\quad ", False),
        ("$$\n\nCorrected: $$", False),
        ("$$\n\nRecomputed: $$", False),
        ("$ m and $", False),
        ("$$\n\nWait, I dropped a factor of two. Redoing the last step:\n\n$$", False),
    ],
)
def test_two_boxes_joined_by_signs_or_a_check_label(gap: str, joined: bool) -> None:
    assert hedged(gap) is joined


@pytest.mark.parametrize(
    ("first", "correct"),
    [("\\boxed{29.0\\,\\mathrm{m/s}}", False), ("\\boxed{14.5\\,\\mathrm{m/s}}", True)],
)
def test_a_cross_checked_box_must_be_right(first: str, correct: bool) -> None:
    pred = f"$${first}$$\n\nCross-check: $${SPEED}$$"
    assert judged(pred, SPEED, "NV", SPEED_Q) is correct


def test_a_formula_then_its_number_under_a_precision_label_is_right() -> None:
    gold = "\\boxed{0.816\\,\\mathrm{m}}"
    pred = "$$\\boxed{h = \\frac{k x^2}{2 m g}}$$\n\nNumerically: $$\\boxed{0.816\\,\\mathrm{m}}$$"
    assert judged(pred, gold, "NV", None)


# -- ALT: prose claiming another value works ---------------------------------------------------
@pytest.mark.parametrize(
    ("after", "values"),
    [
        ("Likewise $t = 2.0$ s satisfies the equation.", ["2.0\\,\\mathrm{s}"]),
        ("The lens works equally well at 70.0 cm.", ["70.0\\,\\mathrm{cm}"]),
        (
            "Swapping gives the placement at $u = 70.0$ cm, which works too.",
            ["70.0\\,\\mathrm{cm}"],
        ),
        ("It passes the same height once more at $t = 4.0$ s.", ["4.0\\,\\mathrm{s}"]),
        ("A third valid spot: 45.0 cm.", ["45.0\\,\\mathrm{cm}"]),
        ("Both $t = 1.0$ s and $t = 4.0$ s.", ["1.0\\,\\mathrm{s}", "4.0\\,\\mathrm{s}"]),
        ("The other root, $t = 4.0$ s, is not unphysical.", ["4.0\\,\\mathrm{s}"]),
        ("The other time, $t = 4.0$ s, need not be discarded.", ["4.0\\,\\mathrm{s}"]),
        # controls: another event, a value set aside, another clause
        ("The ball also lands at $t = 4.0$ s.", []),
        ("Again, the maximum height of 20 m is reached at $t = 2.0$ s.", []),
        ("The other root, $t = -1.0$ s, is unphysical.", []),
        (
            "The second solution is the same height on the way down, 3.0 s, and the ball "
            "lands again at 4.0 s.",
            ["3.0\\,\\mathrm{s}"],
        ),
    ],
)
def test_other_alternatives_claimed_in_prose(after: str, values: list[str]) -> None:
    assert other_alternatives(after) == values


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Likewise $t = 2.0$ s satisfies the equation.", False),
        ("Both roots are valid: the ball passes 15.0 m going up and coming down.", True),
        ("Both $t = 1.0$ s and $t = 3.0$ s.", True),
    ],
)
def test_an_alt_answer_with_prose_claims(after: str, correct: bool) -> None:
    pred = f"$${TIMES}$$\n\n{after}"
    assert judged(pred, TIMES, "ALT", TIMES_Q) is correct


# -- ALT: a unit in prose after a list box -------------------------------------------------------
@pytest.mark.parametrize(
    ("box", "after", "read"),
    [
        ("\\{30.0,\\ 60.0\\}", "\\ \\mathrm{mm}$", "\\{30.0\\,mm,\\ 60.0\\,mm\\}"),
        ("30.0 \\lor 60.0", "\\ \\mathrm{mm}$", "30.0\\,mm \\lor 60.0\\,mm"),
        ("30.0 \\text{ or } 60.0", "$ — both values in mm", "30.0\\,mm \\text{ or } 60.0\\,mm"),
        (
            "30.0 \\text{ or } 60.0",
            "$, both in millimetres",
            "30.0\\,millimetres \\text{ or } 60.0\\,millimetres",
        ),
        (
            "30.0 \\text{ or } 60.0",
            "$ (all distances in millimetres)",
            "30.0\\,millimetres \\text{ or } 60.0\\,millimetres",
        ),
        # controls: no unit named
        ("30.0 \\text{ or } 60.0", "$ in the two cases", "30.0 \\text{ or } 60.0"),
        ("30.0 \\text{ or } 60.0", "$", "30.0 \\text{ or } 60.0"),
    ],
)
def test_a_unit_in_prose_after_a_list_box(box: str, after: str, read: str) -> None:
    assert alternatives_with_unit_after(box, after) == read


def test_a_unit_in_prose_after_one_number() -> None:
    assert with_unit_after("30.0", "$, in millimetres.") == "30.0\\,millimetres"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("$\\boxed{30.0 \\text{ or } 60.0}$, both in millimetres", False),
        ("$\\boxed{\\{30.0,\\ 60.0\\}}\\ \\mathrm{mm}$", False),
        ("$\\boxed{30.0 \\text{ or } 60.0}$, both in centimetres", True),
    ],
)
def test_alt_lists_with_their_unit(pred: str, correct: bool) -> None:
    assert judged(pred, LENS, "ALT", LENS_Q) is correct


# -- EQ: a change of a variant of the asked quantity is another quantity --------------------------
@pytest.mark.parametrize(
    ("box", "gold", "correct"),
    [
        ("\\bar{h}_{\\rm min} = \\frac{27}{10} R", LOOP, False),
        ("\\dot{h}_{\\rm min} = \\frac{27}{10} R", LOOP, False),
        ("\\Delta h_{\\rm min} = \\frac{27}{10} R", LOOP, False),
        ("\\overline{h}_{\\mathrm{min}} = \\frac{27}{10} R", LOOP, False),
        ("\\Delta x_{\\rm opt} = \\frac{L}{2\\sqrt{3}}", PIVOT, False),
        ("\\Delta q_{\\rm C}(t) = C\\varepsilon\\left(1 - e^{-t/(RC)}\\right)", CHARGE, False),
        # controls: the same name written with \rm, a derivative of another symbol
        ("h_{\\rm min} = \\frac{27}{10} R", LOOP, True),
        ("h_{\\mathrm{min}} = 2.7 R", LOOP, True),
    ],
)
def test_a_change_of_a_variant_is_another_quantity(box: str, gold: str, correct: bool) -> None:
    assert judged(f"$$\\boxed{{{box}}}$$", gold, "EQ", None) is correct


def test_a_derivative_of_another_symbol_may_still_rename() -> None:
    gold = "\\boxed{a = \\frac{g}{7}}"
    assert judged("$$\\boxed{\\dot v = \\frac{g}{7}}$$", gold, "EQ", None)


@pytest.mark.parametrize(
    ("label", "key"),
    [("h_{\\min}", "h_min"), ("h_{\\rm min}", "h_min"), ("T_{\\max}", "T_max"), ("E_k", "E_k")],
)
def test_an_operator_name_in_a_subscript_is_its_word(label: str, key: str) -> None:
    assert label_key(label) == key


# -- lines and label forms of a twelfth round ----------------------------------------------------
@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("$V_s$ = 4.96 V.", False),
        ("$V_s := 4.96$ V.", False),
        ("$V_s \\coloneqq 4.96\\,\\mathrm{V}$.", False),
        ("$V_s \\cong 4.96$ V.", False),
        ("$V_s\\!=\\!4.96$ V.", False),
        ("$V_s = \\SI{4.96}{V}$.", False),
        ("$V_s = (4.96)$ V.", False),
        ("- $V_s$: 4.96 V", False),
        ("- $V_s$ ≈ 4.96 V", False),
        ("=> V_s = 4.96 V", False),
        ("- Stopping potential ≈ 4.96 V", False),
        ("- Stopping potential → 4.96 V", False),
        ("| Stopping potential | 4.96 V |", False),
        ("Without rounding, $V_s = 4.96$ V.", False),
        ("Recomputing with the exact constants: $V_s = 4.96$ V.", False),
        ("More precisely, $V_s = 4.96$ V.", False),
        # controls: the right value in the same forms, another quantity's line
        ("$V_s$ = 2.66 V.", True),
        ("- Stopping potential ≈ 2.66 V", True),
        ("| Photon energy | 4.96 eV |", True),
        ("- Work function: 2.30 eV", True),
        ("Without rounding, $V_s = 2.6597$ V.", True),
    ],
)
def test_lines_and_label_forms_after_the_box(after: str, correct: bool) -> None:
    pred = f"**Final Answer**\n\\[{STOP}\\]\n\n{after}"
    assert judged(pred, STOP, "NV", STOP_Q) is correct


@pytest.mark.parametrize(
    "after",
    [
        "The peak, at $t = 2.0$ s, gives the same speed (zero) for both directions.",
        "Both are acceptable: each is before the ball lands at $t = 4.0$ s.",
        "The midpoint of the two times, 2.0 s, is the apex time — that works as a check.",
        "Both times satisfy $0 < t < 4.0$ s.",
        "Both roots are valid since the ball lands only at $t = 4.0$ s.",
        "The condition $D \\ge 4f = 80.0$ cm is satisfied, so two positions exist.",
    ],
)
def test_prose_about_the_alternatives_claims_no_other(after: str) -> None:
    assert other_alternatives(after) == []


# -- a unit written on an interval's variable ----------------------------------------------------
@pytest.mark.parametrize(
    ("box", "read"),
    [
        ("30 < d/\\mathrm{cm} < 45", "30\\,\\mathrm{cm} < d < 45\\,\\mathrm{cm}"),
        ("30<d/\\mathrm{cm}<45", "30\\,\\mathrm{cm}<d<45\\,\\mathrm{cm}"),
        ("\\theta/{}^\\circ\\in [20.4, 69.6]", "\\theta \\in [20.4^\\circ, 69.6^\\circ]"),
        ("d\\,[\\mathrm{cm}] \\in (30, 45)", "d \\in (30\\,\\mathrm{cm}, 45\\,\\mathrm{cm})"),
        ("d\\ (\\text{cm}) \\in (30,45)", "d \\in (30\\,\\text{cm},45\\,\\text{cm})"),
        ("\\theta/{}^\\circ \\in [20.4, 69.6]", "\\theta \\in [20.4^\\circ, 69.6^\\circ]"),
        ("\\theta\\,[^\\circ] \\in [20.4, 69.6]", "\\theta \\in [20.4^\\circ, 69.6^\\circ]"),
        ("\\theta/\\mathrm{deg} \\in [20.4, 69.6]", "\\theta \\in [20.4^\\circ, 69.6^\\circ]"),
        # controls: a ratio, a plain interval, bounds that are no bare numbers, a list
        ("m_1/m_2 \\in (0, 1]", "m_1/m_2 \\in (0, 1]"),
        ("d \\in (30, 45)", "d \\in (30, 45)"),
        ("pV/R \\in [2T_0, 4T_0]", "pV/R \\in [2T_0, 4T_0]"),
        ("x \\in [0, 2]", "x \\in [0, 2]"),
    ],
)
def test_a_unit_on_an_intervals_variable_is_its_bounds(box: str, read: str) -> None:
    assert interval_unit_on_variable(box) == read


LENS2_Q = (
    "Two lenses share an axis; lens 2 of focal length $15.0\\,\\mathrm{cm}$ is placed a distance "
    "$d$ to the right of lens 1. For what range of $d$, in centimetres, is the final image "
    "real and inverted?"
)


@pytest.mark.parametrize(
    ("box", "correct"),
    [
        ("30 < d/\\mathrm{cm} < 45", True),
        ("d\\,[\\mathrm{m}] \\in (0.30, 0.45)", True),
        ("30 < d/\\mathrm{mm} < 45", False),
        ("d\\,[\\mathrm{cm}] \\in (30, 60)", False),
    ],
)
def test_intervals_with_a_unit_on_the_variable(box: str, correct: bool) -> None:
    assert judged(f"$$\\boxed{{{box}}}$$", "\\boxed{(30, 45)}", "IN", LENS2_Q) is correct


# -- the edges of the sign join (mutation review) --------------------------------------------------
@pytest.mark.parametrize(
    ("gap", "joined"),
    [
        (" \\Vert ", True),  # a command in capitals is a sign too
        (" \\ \\mathrm{m} \\quad ", False),  # the first box's unit, then spacing
        (" \\text{ vs } ", False),  # words (a hedge word is read elsewhere)
        ("$$\n\n$$", False),  # two displays: not one piece of math
        ("$ ≜ $", False),  # two pieces of inline math
    ],
)
def test_the_edges_of_a_sign_join(gap: str, joined: bool) -> None:
    assert _signs_only(gap) is joined


@pytest.mark.parametrize(
    ("gap", "joined"),
    [
        ("$$\n\nNow for the very last part, a cross-check: $$", True),  # eight words
        ("$$\n\nNow for the very very last part, a cross-check: $$", False),  # nine: prose
    ],
)
def test_a_check_label_is_short(gap: str, joined: bool) -> None:
    assert hedged(gap) is joined


@pytest.mark.parametrize(
    ("pred", "gold", "derived"),
    [
        ("q(t)", "q'(t)", True),  # the gold primed: the answer names another quantity
        ("q'(t)", "q(t)", True),
        ("\\Delta x", "x_{\\rm opt}", True),  # a change of x beside a variant of x
        ("\\Delta x_{\\rm opt}", "x", True),
        ("\\dot v", "a", False),  # a derivative of another symbol may rename
        ("x_{\\rm opt}", "x", False),  # two plain names: judged elsewhere
    ],
)
def test_derived_pairs_either_way_round(pred: str, gold: str, derived: bool) -> None:
    assert _derived_pair(pred, gold) is derived


# -- a helper's review of the readers (mutation round) ------------------------------------
def test_a_statement_in_prose_keeps_its_unit() -> None:
    asked = {"v"}.__contains__
    assert restated_values("So, as computed, v = 29 m/s.", None, asked) == [("v", "29 m/s")]


def test_a_preposition_is_read_in_the_clause_only() -> None:
    asked = {"v"}.__contains__
    text = "So, on the flat" + " " * 37 + "$v = 29$ m/s."
    assert restated_values(text, None, asked) == [("v", "29 m/s")]


@pytest.mark.parametrize(
    ("after", "question", "expected"),
    [
        # a connective and a symbol name no quantity in words
        ("So v: 29 m/s", "Solve for the speed.", 0),
    ],
)
def test_nouns_and_their_joining_words(after: str, question: str, expected: int) -> None:
    assert len([v for v in restated_values(after, question) if v[0] is None]) == expected


@pytest.mark.parametrize(
    ("noun", "question", "asked"),
    [
        # the words that only join a name ("of", "in", "at") need not be asked
        ("temperature of the gas in the tank", "Find the temperature of the tank's gas.", True),
        ("speed of the car at impact", "Find the car's speed on impact.", True),
        # "with" and "for" say which case: they must be
        ("acceleration with friction", "Find the acceleration if friction is neglected.", False),
    ],
)
def test_the_joining_words_of_a_name(noun: str, question: str, asked: bool) -> None:
    assert _asks_about(noun, question) is asked


@pytest.mark.parametrize(
    ("noun", "question", "asked"),
    [
        ("period of interest", "Find the period.", True),  # the head is the word before "of"
        ("speed we need", "Find the speed.", True),
        ("required energy of the system", "Find the energy of one photon.", True),
    ],
)
def test_the_head_of_a_name(noun: str, question: str, asked: bool) -> None:
    assert _asks_about(noun, question) is asked


def test_a_bound_at_a_clauses_start_claims_nothing() -> None:
    assert other_alternatives("≤ 4.0 s works too.") == []


def test_a_line_read_as_a_conclusion_is_read_once() -> None:
    question = "Find the final temperature of the water."
    assert restated_values("Final: 50.0 °C", question, lambda _: False) == [(None, "50.0 °C")]


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        # a conclusion on another line leaves a named line to be read
        ("So $V = 8.00$ V.\n- current: 4.00 A", [("V", "8.00 V"), (None, "4.00 A")]),
        # a conclusion that starts where the named line ends
        ("- emf: 16.0 V.\nSo the current is 4.00 A.", [(None, "16.0 V"), (None, "4.00 A")]),
        # a line read as a conclusion already, then a named line
        ("Final: 16.0 V\n- current: 4.00 A", [(None, "16.0 V"), (None, "4.00 A")]),
    ],
)
def test_named_lines_beside_conclusions(after: str, expected: list[tuple[str | None, str]]) -> None:
    assert restated_values(after, COIL_Q, lambda _: False) == expected


def test_a_connective_and_a_symbol_name_no_quantity() -> None:
    assert _asks_about("So v", "Solve for v.") is False


def test_a_value_in_a_named_unit_beside_a_labelled_statement() -> None:
    after = "In km/h this is 104.\nSo, as computed, $v = 29$ m/s."
    expected = [(None, "104\\,km/h"), ("v", "29 m/s")]
    assert restated_values(after, None, {"v"}.__contains__) == expected
