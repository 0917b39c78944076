"""Verifier 1.28.0 rules (red-team round 33), each with its table of cases and the controls
the rule must leave alone: wrong answers of the same shape stay rejected, honest ones stay
accepted."""

from __future__ import annotations

import pytest

from studybench.verify.closing_remarks import against_convention, conventions, stated_direction
from studybench.verify.revisions import last_option
from studybench.verify.tuple_labels import asked_parts
from studybench.verify.verifier import Verdict, judge_inline


def _output(
    pred: str, gold: str, kind: str, question: str | None = None, **options: str
) -> Verdict:
    """A whole model output ``pred`` against a boxed gold."""
    return judge_inline(pred, f"\\boxed{{{gold}}}", kind, question=question, **options)


BOX = "Working.\n\n**Final Answer**\n\\[\\boxed{%s}\\]%s"
LAUNCH = "A ball is launched from the ground. At what angle above the horizontal is it launched?"
VELOCITY = "A ball is thrown straight up at 4.9 m/s. Find its velocity at t = 1.0 s."

# ---------------------------------------------------------------------------------------------
# An angle from the complementary line is judged within the tolerance as it was written
# ---------------------------------------------------------------------------------------------

COMPLEMENTS = [
    # (box, after it, gold, correct)
    ("66^\\circ", " from the vertical", "23.7^\\circ", True),  # 66.3° rounded
    ("66.3^\\circ", " from the vertical", "23.7^\\circ", True),
    ("\\theta = 66^\\circ", " from the vertical", "23.7^\\circ", True),
    ("66\\text{ degrees}", " measured from the vertical", "23.7^\\circ", True),
    ("67^\\circ", " from the vertical", "23.7^\\circ", False),  # 1.1 % from 66.3°
    ("65^\\circ", " from the vertical", "23.7^\\circ", False),
    ("23.7^\\circ", " from the vertical", "23.7^\\circ", False),  # the other line
    ("24^\\circ", "", "23.7^\\circ", False),  # the same rounding from the asked line is not
    ("54^\\circ", " from the vertical", "36.0^\\circ", True),
    ("55^\\circ", " from the vertical", "36.0^\\circ", False),
]


@pytest.mark.parametrize(("box", "after", "gold", "correct"), COMPLEMENTS)
def test_a_rounded_angle_from_the_complementary_line(
    box: str, after: str, gold: str, correct: bool
) -> None:
    assert _output(BOX % (box, after), gold, "NV", LAUNCH).correct is correct


# ---------------------------------------------------------------------------------------------
# A question's sign convention in other words
# ---------------------------------------------------------------------------------------------

QUESTION_CONVENTIONS = [
    ("Let +x point east.", {"east"}),
    ("Take the positive x-axis to point east.", {"east"}),
    ("Use axes with +y upward.", {"up"}),
    ("The +x direction is to the right.", {"right"}),
    ("Take +x to the right and +y up.", {"right", "up"}),
    ("Let +y be vertically upward.", {"up"}),
    ("positive x is east", {"east"}),
    ("Let up be positive.", {"up"}),
    ("Take the positive direction to be downward.", {"down"}),
    ("+z points out of the page", {"out"}),
    # no side named: a direction in a figure, a motion, a signed value
    ("the +x direction in Figure 1", set()),
    ("It moves in the +x direction at 5 m/s.", set()),
    ("v = +3 m/s upward", set()),
    ("x = +2 m to the right", set()),
]


@pytest.mark.parametrize(("text", "taken"), QUESTION_CONVENTIONS)
def test_a_convention_in_other_words(text: str, taken: set[str]) -> None:
    assert set(conventions(text)) == taken


def test_a_remark_against_the_questions_convention_in_other_words() -> None:
    question = "Let +y point upward. A stone is dropped from rest. Find its velocity after 1.0 s."
    after = " m/s (taking downward as positive)"
    assert _output(BOX % ("9.8", after), "-9.8\\ \\text{m/s}", "NV", question).correct
    assert not _output(BOX % ("-9.8", after), "-9.8\\ \\text{m/s}", "NV", question).correct
    assert _output(BOX % ("-9.8", " m/s"), "-9.8\\ \\text{m/s}", "NV", question).correct


# ---------------------------------------------------------------------------------------------
# The sentence right after the box says where the value points
# ---------------------------------------------------------------------------------------------

STATED = [
    # (text after the box, direction read)
    (" m/s. It points upward.", "upward"),
    (" m/s. It is directed upward.", "upward"),
    (" m/s. The velocity is upward.", "upward"),
    (" N.\n\nThe net force points to the left, toward the wall.", "left"),
    (" m/s. Its direction is east.", "east"),
    (". This is directed downward.", "downward"),
    (" m/s. **It points north.**", "north"),
    # no direction of this value: another object, a number, a condition, a view, none
    (" N. The normal force points up.", None),
    (" m/s. The ball is moving upward at this instant.", "upward"),  # the body's motion
    (" m/s. The direction is skyward.", "upward"),
    (" N.\n\nIts sense is opposite to gravity.", "upward"),
    (" m/s.\n\nSo the boat heads west at this speed.", "west"),
    (" T.\n\nDirection: out of the page.", "out of the page"),
    (" km/h.\n\nHeading: due south.", "south"),
    (" m/s. The velocity is directed toward the ground.", "downward"),
    (" m/s. It would point upward if thrown harder.", None),
    (" m/s. It points 30 degrees north of east.", None),
    (" m/s. This is the speed.", None),
    (" m/s. It points upward as seen from the ground.", None),
    (" m/s, and it points upward.", "upward"),
]


@pytest.mark.parametrize(("after", "direction"), STATED)
def test_the_direction_stated_after_the_box(after: str, direction: str | None) -> None:
    from studybench.verify.closing_remarks import after_unit

    assert stated_direction(after_unit(after)) == direction


DIRECTED = [
    # (text after the box, gold, correct)
    (" m/s. The velocity points upward.", "4.9\\ \\text{m/s downward}", False),
    (" m/s. It is directed upward.", "4.9\\ \\text{m/s downward}", False),
    (" m/s. It is directed downward.", "4.9\\ \\text{m/s downward}", True),
    (" m/s. The velocity is downward.", "4.9\\ \\text{m/s downward}", True),
    (" m/s. It points upward.", "4.9\\ \\text{m/s}", True),  # the gold names no direction
    (" m/s. The ball is moving upward at this instant.", "4.9\\ \\text{m/s downward}", False),
    (" m/s. The ball is moving downward at this instant.", "4.9\\ \\text{m/s downward}", True),
    (" m/s. It heads earthward.", "4.9\\ \\text{m/s downward}", True),
    (" m/s. It heads skyward.", "4.9\\ \\text{m/s downward}", False),
]


@pytest.mark.parametrize(("after", "gold", "correct"), DIRECTED)
def test_a_direction_in_the_next_sentence_is_judged(after: str, gold: str, correct: bool) -> None:
    assert _output(BOX % ("4.9", after), gold, "NV", VELOCITY).correct is correct


def test_a_phrase_box_takes_no_direction_from_the_next_sentence() -> None:
    question = "Which way does friction act on the block?"
    pred = BOX % ("\\text{up the incline}", ". It points up.")
    assert _output(pred, "\\text{up the incline}", "QL", question).correct


# ---------------------------------------------------------------------------------------------
# A value per item: the question must ask per item, not only name the items
# ---------------------------------------------------------------------------------------------

TABLE = "A 60-kg table stands on four identical legs. What %s does the floor exert%s?"
PER_ITEM = [
    # (question, box, after it, gold, correct)
    (
        TABLE % ("total force", " on the table"),
        "588\\,\\text{N}",
        " per leg",
        "588\\,\\text{N}",
        False,
    ),
    (
        TABLE % ("force", " on the table"),
        "588\\,\\text{N}",
        " on each leg",
        "588\\,\\text{N}",
        False,
    ),
    (TABLE % ("force", " on each leg"), "147\\,\\text{N}", " per leg", "147\\,\\text{N}", True),
    (TABLE % ("force", " on one leg"), "147\\,\\text{N}", " on each leg", "147\\,\\text{N}", True),
    (
        "A 1600 kg car is parked. What is the normal force on each of its four tires?",
        "3920",
        " N on each tire",
        "3920\\,\\text{N}",
        True,
    ),
    (
        "A man lifts a 20 kg box by 1.0 m ten times. How much work does he do in total?",
        "196\\,\\text{J}",
        " per lift",
        "196\\,\\text{J}",
        False,
    ),
    (
        "A lifter raises a 10 kg barbell by 0.50 m ten times. How much work is done in one lift?",
        "49\\,\\text{J}",
        " per lift of the barbell",
        "49\\,\\text{J}",
        True,
    ),
    (
        "How much net work does the gas do during one complete cycle?",
        "50\\,\\text{J}",
        " per cycle",
        "50\\,\\text{J}",
        True,
    ),
]


@pytest.mark.parametrize(("question", "box", "after", "gold", "correct"), PER_ITEM)
def test_a_value_per_item_the_question_does_not_ask(
    question: str, box: str, after: str, gold: str, correct: bool
) -> None:
    assert _output(BOX % (box, after), gold, "NV", question).correct is correct


# ---------------------------------------------------------------------------------------------
# Tuple labels by roman numeral and by "respectively"
# ---------------------------------------------------------------------------------------------

ROMAN = "A ball is launched. Find (i) the maximum height and (ii) the range."
LETTERS = "A ball is launched. Find (a) the maximum height and (b) the range."
HEIGHT_RANGE = "\\boxed{35.3\\ \\text{m}}, \\boxed{5.10\\ \\text{m}}"
LABELLED = [
    # (question, answer, correct)
    (ROMAN, "(ii) $\\boxed{5.10}$ m\n(i) $\\boxed{35.3}$ m", True),
    (ROMAN, "(ii) $\\boxed{35.3}$ m\n(i) $\\boxed{5.10}$ m", False),
    (ROMAN, "(i) $\\boxed{35.3}$ m\n(ii) $\\boxed{5.10}$ m", True),
    (ROMAN, "(i) $\\boxed{5.10}$ m\n(ii) $\\boxed{35.3}$ m", False),
    (
        LETTERS,
        "The range and maximum height are $\\boxed{5.10}$ m and $\\boxed{35.3}$ m, respectively.",
        True,
    ),
    (
        LETTERS,
        "The range and maximum height are $\\boxed{35.3}$ m and $\\boxed{5.10}$ m, respectively.",
        False,
    ),
    (
        LETTERS,
        "The maximum height and range are $\\boxed{35.3}$ m and $\\boxed{5.10}$ m, respectively.",
        True,
    ),
    (
        LETTERS,
        "So the range and the maximum height come out to "
        "$\\boxed{5.10}$ m and $\\boxed{35.3}$ m respectively.",
        True,
    ),
    (
        LETTERS,
        "Thus the range and height: $\\boxed{35.3}$ m and $\\boxed{5.10}$ m, respectively.",
        False,
    ),
    # a list that names no part, or one item for two boxes: the written order stands
    (LETTERS, "The two values are $\\boxed{35.3}$ m and $\\boxed{5.10}$ m, respectively.", True),
    (LETTERS, "The answers are $\\boxed{5.10}$ m and $\\boxed{35.3}$ m, respectively.", False),
]


@pytest.mark.parametrize(("question", "answer", "correct"), LABELLED)
def test_tuple_labels_by_roman_numeral_and_respectively(
    question: str, answer: str, correct: bool
) -> None:
    verdict = judge_inline(answer, HEIGHT_RANGE, "TUP", type_sequence="NV,NV", question=question)
    assert verdict.correct is correct


def test_parts_asked_by_roman_numeral() -> None:
    assert asked_parts("Find (i) the height, (ii) the range and (iii) the time.", 3) == [
        "the height, ",
        "the range and ",
        "the time.",
    ]
    parts = asked_parts("Find (i) x, (ii) y, (iii) z, (iv) the speed and (v) the time.", 5)
    assert parts is not None and parts[4] == "the time."


# ---------------------------------------------------------------------------------------------
# A revision to several options
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tail", "options"),
    [
        ("I'd go with just A and C.", "AC"),
        ("Actually, I'd go with A, C and E.", "ACE"),
        ("Hmm, I'd pick only B & D.", "BD"),
        ("Wait, I'd go with C.", "C"),
        ("Wait, A and C are wrong, so I'll stick with B.", "B"),
    ],
)
def test_a_revision_to_several_options(tail: str, options: str) -> None:
    assert last_option(tail) == options


SEVERAL = "Which statements are true? (A) ... (B) ... (C) ... (D) ... (E) ..."


@pytest.mark.parametrize(
    ("box", "after", "gold", "correct"),
    [
        ("ACE", "\n\nHmm, on reflection E is too strong; I'd go with just A and C.", "ACE", False),
        ("ACE", "\n\nActually, I'd go with A and C.", "ACE", False),
        ("ACE", "\n\nI'd go with A, C and E.", "ACE", True),
        ("B", "\n\nWait, I'd go with B and C.", "B", False),
        ("B", "\n\nWait, A and C are wrong, so I'll stick with B.", "B", True),
    ],
)
def test_a_multiple_answer_box_revised(box: str, after: str, gold: str, correct: bool) -> None:
    assert _output(BOX % (box, after), gold, "MC", SEVERAL).correct is correct


# ---------------------------------------------------------------------------------------------
# Phrases: "-wards" is "-ward", a slope is an incline, "up" is "upward"
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "gold", "correct"),
    [
        ("\\text{upwards}", "\\text{upward}", True),
        ("\\text{towards the centre}", "\\text{toward the center}", True),
        ("\\text{radially inwards}", "\\text{radially inward}", True),
        ("\\text{up the slope}", "\\text{up the incline}", True),
        ("\\text{up the ramp}", "\\text{up the incline}", True),
        ("\\text{up}", "\\text{upward}", True),
        ("\\text{down the slope}", "\\text{up the incline}", False),
        ("\\text{upwards}", "\\text{downward}", False),
        ("\\text{outwards}", "\\text{inward}", False),
        ("\\text{decreases}", "\\text{decrease}", False),  # another inflection stays another
    ],
)
def test_phrases_in_other_spellings(box: str, gold: str, correct: bool) -> None:
    assert _output(BOX % (box, ""), gold, "QL", "Which way?").correct is correct


# ---------------------------------------------------------------------------------------------
# A magnitude with its direction is the signed value under the question's convention
# ---------------------------------------------------------------------------------------------

FALL = "An object falls from rest. What is its velocity after 3.0 s? Take upward as positive."
THROW = (
    "A ball is thrown upward at 4.9 m/s. What is its velocity 1.0 s later? Take upward as positive."
)
CART = (
    "A cart's velocity changes from +2.0 m/s to -4.0 m/s in "
    "3.0 s. What is its average acceleration?"
)
REBOUND = (
    "A ball moving east rebounds from a wall. What is the impulse on it? Take east as positive."
)
SIGNED = [
    # (question, box, after it, gold, correct)
    (FALL, "29.4", " m/s downward", "-29.4\\ \\text{m/s}", True),
    (FALL, "29.4", " m/s (downward)", "-29.4\\ \\text{m/s}", True),
    (FALL, "29.4", " m/s. It points downward.", "-29.4\\ \\text{m/s}", True),
    (FALL, "29.4", " m/s upward", "-29.4\\ \\text{m/s}", False),
    (FALL, "29.4", " m/s", "-29.4\\ \\text{m/s}", False),
    (FALL, "-29.4", " m/s (downward)", "-29.4\\ \\text{m/s}", True),
    (THROW, "-4.9", " m/s (upward)", "-4.9\\ \\text{m/s}", False),  # contradicts itself
    (THROW, "-4.9", " m/s (upward)", "4.9\\ \\text{m/s}", False),
    (REBOUND, "3.5\\ \\text{N}\\cdot\\text{s}", " (directed west)", "-3.5\\ \\text{N s}", True),
    (REBOUND, "3.5\\ \\text{N}\\cdot\\text{s}", " (directed east)", "-3.5\\ \\text{N s}", False),
    (CART, "2.0", " m/s², in the −x direction", "-2.0\\ \\text{m/s}^2", True),
    (CART, "-2.0", " m/s², in the −x direction", "-2.0\\ \\text{m/s}^2", True),
    (CART, "2.0", " m/s², in the +x direction", "-2.0\\ \\text{m/s}^2", False),
    (CART, "-2.0", " m/s², in the +x direction", "-2.0\\ \\text{m/s}^2", False),
    # a magnitude asked: the direction changes nothing
    (FALL.replace("velocity", "speed"), "29.4", " m/s downward", "29.4\\ \\text{m/s}", True),
    # a convention of the answer's own is read by the convention rule, not here
    (
        "Take east as positive. A car moving east brakes. Find its acceleration.",
        "-5.0\\ \\text{m/s}^2",
        ", taking the car's direction of motion (east) as positive",
        "-5.0\\ \\text{m/s}^2",
        True,
    ),
]


@pytest.mark.parametrize(("question", "box", "after", "gold", "correct"), SIGNED)
def test_a_magnitude_and_its_direction_as_a_signed_value(
    question: str, box: str, after: str, gold: str, correct: bool
) -> None:
    assert _output(BOX % (box, after), gold, "NV", question).correct is correct


def test_a_value_said_to_point_the_positive_way_with_a_minus_sign_contradicts_itself() -> None:
    verdict = _output(BOX % ("-4.9", " m/s (upward)"), "-4.9\\ \\text{m/s}", "NV", THROW)
    assert verdict.reason == "sign_direction"


# ---------------------------------------------------------------------------------------------
# More conventions and directions after the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ("(with the y-axis taken downward)", {"down"}),
        ("(positive = down)", {"down"}),
        ("(+ downward)", {"down"}),
        ("i.e. down counted as positive", {"down"}),
        ("positive pointing down", {"down"}),
        ("a + up", set()),
        ("(+ 5 N)", set()),
    ],
)
def test_conventions_in_brackets(text: str, taken: set[str]) -> None:
    assert set(conventions(text)) == taken


UP_POSITIVE = (
    "Take upward as positive. A ball is thrown straight up at "
    "10 m/s. Find its velocity 2.0 s later."
)
CONVENTIONS_AFTER = [
    # (after the box, correct) for the box -9.6 m/s and the gold -9.6 m/s
    ("\n\nHere I took downward as positive.", False),
    (" (with the y-axis taken downward)", False),
    (" (positive = down)", False),
    (" (+ downward)", False),
    ("\n\nHere I took upward as positive.", True),
    ("\n\nHad I taken downward as positive, it would read +9.6 m/s.", True),
]


@pytest.mark.parametrize(("after", "correct"), CONVENTIONS_AFTER)
def test_a_convention_after_the_box(after: str, correct: bool) -> None:
    pred = BOX % ("-9.6\\ \\text{m/s}", after)
    verdict = _output(pred, "-9.6\\ \\text{m/s}", "NV", UP_POSITIVE)
    assert (verdict.reason != "equal") is not correct or verdict.correct is correct
    if not correct:
        assert not verdict.correct


def test_a_convention_of_another_frame_is_not_the_answers() -> None:
    assert not against_convention("-9.6 m/s", " (negative in an up-positive frame)", UP_POSITIVE)
    assert against_convention("-9.6 m/s", " (positive = down)", UP_POSITIVE)


def test_a_convention_in_math_after_the_box() -> None:
    question = (
        "Take right as positive. A cart moving right rebounds from "
        "a wall. Find the change in its momentum."
    )
    pred = BOX % ("-3.5\\ \\text{kg m/s}", ", with the $+x$ axis pointing to the left")
    assert not _output(pred, "-3.5\\ \\text{kg m/s}", "NV", question).correct


NET_FORCE = "A 12 N force pulls a box east while a 5 N force pulls it west. Find the net force."
DIRECTIONS_AFTER = [
    # (after the box, correct) for the box 7.0 N and the gold 7.0 N east
    ("\nas expected, pointing west.", False),
    ("\nas expected, pointing east.", True),
    (" (as expected)", True),
    ("\n\nDirection: to the west.", False),
    ("\n\n*Direction: East*", True),
    (", and it acts toward the west.", False),
    (" — toward the west (bearing 270°).", False),
    (" — toward the east (bearing 090°).", True),
]


@pytest.mark.parametrize(("after", "correct"), DIRECTIONS_AFTER)
def test_a_direction_in_other_places_after_the_box(after: str, correct: bool) -> None:
    pred = BOX % ("7.0\\,\\text{N}", after)
    assert _output(pred, "7.0\\ \\text{N east}", "NV", NET_FORCE).correct is correct


# ---------------------------------------------------------------------------------------------
# An option's text after a dash is the box's remark
# ---------------------------------------------------------------------------------------------

TOP = (
    "A ball is thrown vertically upward. At the highest point, its acceleration is: (A) zero "
    "(B) 9.8 m/s^2 upward (C) 9.8 m/s^2 downward (D) undefined"
)
BASE_UNITS = "Which of the following are SI base units? (A) newton (B) kelvin (C) joule (D) ampere"
DASHED = [
    # (question, box, after it, gold, correct)
    (TOP, "C", " — 9.8 m/s² downward", "C", True),
    (TOP, "C", ": 9.8 m/s² downward", "C", True),
    (TOP, "C", " — 9.8 m/s² upward", "C", False),  # option B's text
    (TOP, "C", " — gravity still acts at the top", "C", True),
    (BASE_UNITS, "B, D", " — kelvin and ampere", "BD", True),
    (BASE_UNITS, "B, D", " — newton and ampere", "BD", False),
    (BASE_UNITS, "B", " — not A, since the newton is derived", "B", True),
    (BASE_UNITS, "B", " — or C.", "B", False),  # another option offered
]


@pytest.mark.parametrize(("question", "box", "after", "gold", "correct"), DASHED)
def test_an_options_text_after_a_dash(
    question: str, box: str, after: str, gold: str, correct: bool
) -> None:
    assert _output(BOX % (box, after), gold, "MC", question).correct is correct


# ---------------------------------------------------------------------------------------------
# Undecided before the box; "the opposite" that the sentence goes on against
# ---------------------------------------------------------------------------------------------

UNDECIDED_BEFORE = [
    ("I can't decide between the two; either could be the intended one.", False),
    ("I keep going back and forth between true and false here.", False),
    ("I'm torn between true and false.", False),
    ("I can't decide between the two at first, but checking the limit settles it.", True),
    (
        "I keep going back and forth between true and false.\n\nThe energy argument decides it.",
        True,
    ),
    ("The energy argument decides it.", True),
]


@pytest.mark.parametrize(("before", "correct"), UNDECIDED_BEFORE)
def test_undecided_before_the_box(before: str, correct: bool) -> None:
    pred = f"{before}\n\nFinal Answer: $\\boxed{{\\text{{True}}}}$"
    verdict = _output(pred, "\\text{True}", "TF", "True or false: the claim holds.")
    assert verdict.correct is correct
    if not correct:
        assert verdict.reason == "hedged:undecided"


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Gut says the opposite, but the math says KE drops.", True),
        ("Gut says the opposite.", False),
        ("Personally I lean the other way, though.", False),
    ],
)
def test_the_opposite_gone_on_against(after: str, correct: bool) -> None:
    pred = BOX % ("\\text{False}", f"\n\n{after}")
    question = "True or false: kinetic energy is conserved in an inelastic collision."
    assert _output(pred, "\\text{False}", "TF", question).correct is correct


# ---------------------------------------------------------------------------------------------
# Phrases of change by a factor; tuple labels by the question's symbols
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "gold", "correct"),
    [
        ("\\text{doubles}", "\\text{it doubles}", True),
        ("\\text{increases by a factor of 2}", "\\text{it doubles}", True),
        ("\\text{is multiplied by a factor of two}", "\\text{doubles}", True),
        ("\\text{increases by a factor of 4}", "\\text{it doubles}", False),
        ("\\text{it is halved}", "\\text{halves}", True),
        ("\\text{decreases by a factor of 2}", "\\text{halves}", True),
        ("\\text{it is doubled}", "\\text{halves}", False),
        ("\\text{vertically up}", "\\text{upward}", True),
        ("\\text{vertically down}", "\\text{upward}", False),
        ("\\text{it decreases}", "\\text{increases}", False),
    ],
)
def test_phrases_of_change_by_a_factor(box: str, gold: str, correct: bool) -> None:
    assert _output(BOX % (box, ""), gold, "QL", "What happens?").correct is correct


ORBIT = (
    "A particle of charge q and mass m moves in a field B at "
    "speed v. Find the radius and the period."
)
RC = "An RC circuit has R = 2.0 kΩ and C = 50 μF. Find the time constant and the final charge."
FALLEN = "Find (a) the speed and (b) the kinetic energy of a 3.0 kg object fallen through 5.0 m."
SYMBOLS = [
    # (question, answer, gold, type sequence, correct)
    (
        ORBIT,
        "$T = \\boxed{2\\pi m/(qB)}$, $r = \\boxed{mv/(qB)}$",
        "\\boxed{\\frac{mv}{qB}}, \\boxed{\\frac{2\\pi m}{qB}}",
        "EX,EX",
        True,
    ),
    (
        ORBIT,
        "$T = \\boxed{mv/(qB)}$, $r = \\boxed{2\\pi m/(qB)}$",
        "\\boxed{\\frac{mv}{qB}}, \\boxed{\\frac{2\\pi m}{qB}}",
        "EX,EX",
        False,
    ),
    (
        RC,
        "$Q = \\boxed{450}$ μC, $\\tau = \\boxed{0.10}$ s",
        "\\boxed{0.10\\ \\text{s}}, \\boxed{4.5\\times10^{-4}\\ \\text{C}}",
        "NV,NV",
        True,
    ),
    (
        RC,
        "$Q = \\boxed{450}$ μC, τ = $\\boxed{0.10}$ s",
        "\\boxed{0.10\\ \\text{s}}, \\boxed{4.5\\times10^{-4}\\ \\text{C}}",
        "NV,NV",
        True,
    ),
    (
        FALLEN,
        "$\\boxed{147}$ J (kinetic energy) and $\\boxed{9.90}$ m/s",
        "\\boxed{9.90\\ \\text{m/s}}, \\boxed{147\\ \\text{J}}",
        "NV,NV",
        True,
    ),
    # "T" names the tension or the period: where both are asked it names neither
    (
        "Find the tension in the string and the period.",
        "$T = \\boxed{2.0}$ s and $F = \\boxed{39}$ N",
        "\\boxed{39\\ \\text{N}}, \\boxed{2.0\\ \\text{s}}",
        "NV,NV",
        False,
    ),
    # unlabelled elements in another order than asked stay wrong
    (
        RC,
        "$\\boxed{450}$ μC and $\\boxed{0.10}$ s",
        "\\boxed{0.10\\ \\text{s}}, \\boxed{4.5\\times10^{-4}\\ \\text{C}}",
        "NV,NV",
        False,
    ),
]


@pytest.mark.parametrize(("question", "answer", "gold", "sequence", "correct"), SYMBOLS)
def test_tuple_labels_by_the_questions_symbols(
    question: str, answer: str, gold: str, sequence: str, correct: bool
) -> None:
    verdict = judge_inline(answer, gold, "TUP", type_sequence=sequence, question=question)
    assert verdict.correct is correct


# ---------------------------------------------------------------------------------------------
# Round 33b: labels after the boxes, a restated set of options, commitments in more words,
# a revised value against a bare box, a definition in brackets, phrases of no change
# ---------------------------------------------------------------------------------------------

KICK = (
    "A ball is kicked at 20 m/s at 30°. Find (a) the maximum height and (b) the horizontal range."
)
HEIGHT_AND_RANGE = "\\boxed{5.1\\ \\text{m}}, \\boxed{35.3\\ \\text{m}}"
AFTER_LABELS = [
    (
        "\\boxed{35.3\\ \\text{m}} \\text{ and } \\boxed{5.1\\ \\text{m}} "
        "are the range and maximum height, respectively.",
        True,
    ),
    (
        "\\boxed{5.1\\ \\text{m}} \\text{ and } \\boxed{35.3\\ \\text{m}} "
        "are the range and maximum height, respectively.",
        False,
    ),
    ("\\boxed{35.3\\ \\text{m}} \\boxed{5.1\\ \\text{m}} (range and height, respectively)", True),
    ("\\boxed{5.1\\ \\text{m}} \\boxed{35.3\\ \\text{m}} (range and height, respectively)", False),
    ("Range $= \\boxed{35.3\\ \\text{m}}$, Height $= \\boxed{5.1\\ \\text{m}}$", True),
    ("Range $= \\boxed{5.1\\ \\text{m}}$, Height $= \\boxed{35.3\\ \\text{m}}$", False),
]


@pytest.mark.parametrize(("answer", "correct"), AFTER_LABELS)
def test_labels_after_the_boxes_and_before_an_equals_sign(answer: str, correct: bool) -> None:
    verdict = judge_inline(answer, HEIGHT_AND_RANGE, "TUP", type_sequence="NV,NV", question=KICK)
    assert verdict.correct is correct


BASE = "Which of these are SI base units? (A) kilogram (B) newton (C) ampere (D) joule (E) kelvin."
OPTION_SETS = [
    # (box, after it, correct) against the gold ACE
    ("A, C, E", " Final: A, C, E.", True),
    ("A, C, E", "\n\nSo the answer is A, C, E.", True),
    ("A, C, E", " So A and C.", False),
    ("A, C, E", " or maybe B.", False),
    ("ACE", " On reflection, only A and C are correct.", False),
    ("ACE", " On reflection, only A, C and E are correct.", True),
]


@pytest.mark.parametrize(("box", "after", "correct"), OPTION_SETS)
def test_a_set_of_options_stated_again(box: str, after: str, correct: bool) -> None:
    pred = f"Final Answer: \\boxed{{{box}}}{after}"
    assert _output(pred, "ACE", "MC", BASE).correct is correct


COMMITMENTS = [
    # (question, gold, kind, box, after it, correct)
    ("Which? (A) a (B) b (C) c", "C", "MC", "C", " Oops, I meant B.", False),
    ("Which? (A) a (B) b (C) c", "C", "MC", "C", " Oops, I meant C, not B.", True),
    ("True or false: X.", "\\text{False}", "TF", "\\text{False}", " Oops, I meant True.", False),
    ("Which? (A) a (B) b (C) c", "C", "MC", "C", " Hmm, but B is really the better answer.", False),
    (
        "What is the tension in the string?",
        "100\\ \\text{N}",
        "NV",
        "100\\ \\text{N}",
        " Hmm, but the radius is really a diameter, so 200 N is what the problem intends.",
        False,
    ),
    (
        "What is the capacitance?",
        "1.2\\ \\mu\\text{F}",
        "NV",
        "1.2\\ \\mu\\text{F}",
        " My earlier estimate was wrong; the right value is 5 μF.",
        False,
    ),
    (
        "What is the capacitance?",
        "1.2\\ \\mu\\text{F}",
        "NV",
        "1.2\\ \\mu\\text{F}",
        " My earlier estimate was wrong; the right value is 1.2 μF.",
        True,
    ),
    # a bare box: the revised value measures what the gold does
    (
        "What current flows from the battery?",
        "1.5\\ \\text{A}",
        "NV",
        "1.5",
        " Hmm, but each resistor carries 0.5 A, so 0.5 A is the answer.",
        False,
    ),
    (
        "What current flows from the battery?",
        "1.5\\ \\text{A}",
        "NV",
        "1.5",
        " Hmm, each resistor carries 0.5 A, so 1.5 A is the answer.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "kind", "box", "after", "correct"), COMMITMENTS)
def test_commitments_in_more_words(
    question: str, gold: str, kind: str, box: str, after: str, correct: bool
) -> None:
    pred = f"Final Answer: \\boxed{{{box}}}{after}"
    assert _output(pred, gold, kind, question).correct is correct


def test_a_definition_in_brackets_is_no_value_per_item() -> None:
    pred = BOX % ("2.20\\ \\text{s}", "\n\n(period of one full back-and-forth swing)")
    assert _output(pred, "2.20\\ \\text{s}", "NV", "What is its period?").correct
    pred = BOX % ("9.6\\ \\text{kN}", " (on one tire)")
    assert not _output(
        pred, "9.6\\ \\text{kN}", "NV", "What force does the road exert on the car?"
    ).correct


@pytest.mark.parametrize(
    ("box", "gold", "correct"),
    [
        ("\\text{CCW}", "\\text{counterclockwise}", True),
        ("\\text{CW}", "\\text{counterclockwise}", False),
        ("\\text{They all go out}", "\\text{they go out}", True),
        ("\\text{stays the same}", "\\text{remains constant}", True),
        ("\\text{unchanged}", "\\text{remains constant}", True),
        ("\\text{it doesn't change}", "\\text{unchanged}", True),
        ("\\text{increases}", "\\text{remains constant}", False),
        ("\\text{goes up}", "\\text{increases}", False),  # a direction as much as a change
    ],
)
def test_phrases_of_no_change_and_abbreviations(box: str, gold: str, correct: bool) -> None:
    assert _output(BOX % (box, ""), gold, "QL", "What happens?").correct is correct


# ---------------------------------------------------------------------------------------------
# Round 33a: remarks closing ALT and EX boxes and each value of a tuple; undecided paragraphs;
# a set of options narrowed; parts by ordinal; "respectively" before the boxes
# ---------------------------------------------------------------------------------------------

ELASTIC = (
    "Cart A ends at 3.2 m/s to the left or 1.0 m/s to the right. Give cart A's final velocity."
)
TABLE_WEIGHT = (
    "Find the total force exerted by the ground on a table of weight W standing on four legs."
)
REMARKED = [
    # (question, gold, kind, box, after it, correct)
    (
        ELASTIC,
        "3.2\\,\\mathrm{m/s}\\text{ to the left}} \\text{ or } "
        "\\boxed{1.0\\,\\mathrm{m/s}\\text{ to the right}",
        "ALT",
        "3.2\\,\\mathrm{m/s}",
        " (to the right)",
        False,
    ),
    (
        ELASTIC,
        "3.2\\,\\mathrm{m/s}\\text{ to the left}} \\text{ or } "
        "\\boxed{1.0\\,\\mathrm{m/s}\\text{ to the right}",
        "ALT",
        "3.2\\,\\mathrm{m/s}",
        " (to the left)",
        True,
    ),
    (
        "When does it pass 15 m?",
        "1.0\\ \\text{s}} \\text{ or } \\boxed{3.0\\ \\text{s}",
        "ALT",
        "1.0\\ \\text{s}",
        " per metre",
        False,
    ),
    (TABLE_WEIGHT, "W", "EX", "W", " on each leg", False),
    (TABLE_WEIGHT, "W", "EX", "W", " (the weight of the table)", True),
    (
        "Find the force on the block.",
        "mg\\sin\\theta",
        "EX",
        "mg\\sin\\theta",
        " (down the incline)",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "kind", "box", "after", "correct"), REMARKED)
def test_a_remark_closing_an_alternative_or_an_expression(
    question: str, gold: str, kind: str, box: str, after: str, correct: bool
) -> None:
    pred = BOX % (box, after)
    verdict = judge_inline(
        pred,
        f"\\boxed{{{gold}}}",
        kind,
        type_sequence="NV,NV" if kind == "ALT" else "",
        question=question,
    )
    assert verdict.correct is correct


LEGS = "A 480 N table on four legs: find (a) the total floor force and (b) the force per leg."
DROPPED = (
    "A stone dropped from rest: find (a) its speed after 1.0 s "
    "and (b) its acceleration, with direction."
)
ELEMENTS = [
    # (question, answer, gold, correct)
    (
        LEGS,
        "(a) $\\boxed{480\\ \\text{N}}$ on each leg\n(b) $\\boxed{120\\ \\text{N}}$",
        "\\boxed{480\\ \\text{N}}, \\boxed{120\\ \\text{N}}",
        False,
    ),
    (
        LEGS,
        "(a) $\\boxed{480\\ \\text{N}}$ in total\n(b) $\\boxed{120\\ \\text{N}}$ on each leg",
        "\\boxed{480\\ \\text{N}}, \\boxed{120\\ \\text{N}}",
        True,
    ),
    (
        DROPPED,
        "(a) $\\boxed{9.8\\ \\text{m/s}}$\n(b) $\\boxed{9.8\\ \\text{m/s}^2}$ (upward)",
        "\\boxed{9.8\\ \\text{m/s}}, \\boxed{9.8\\ \\text{m/s}^2\\text{ downward}}",
        False,
    ),
    (
        DROPPED,
        "(a) $\\boxed{9.8\\ \\text{m/s}}$ (downward)\n(b) "
        "$\\boxed{9.8\\ \\text{m/s}^2}$ (downward)",
        "\\boxed{9.8\\ \\text{m/s}}, \\boxed{9.8\\ \\text{m/s}^2\\text{ downward}}",
        True,
    ),
]


@pytest.mark.parametrize(("question", "answer", "gold", "correct"), ELEMENTS)
def test_each_value_of_a_tuple_is_closed_by_its_remark(
    question: str, answer: str, gold: str, correct: bool
) -> None:
    verdict = judge_inline(answer, gold, "TUP", type_sequence="NV,NV", question=question)
    assert verdict.correct is correct


@pytest.mark.parametrize(
    ("paragraph", "correct"),
    [
        ("50/50 between A and C. Going with:", False),
        ("I can't really separate A from C here — could be either.", False),
        ("I'm genuinely unsure whether it's A or C, so take this with a grain of salt:", False),
        ("Both A and C seem equally defensible to me; picking arbitrarily.", False),
        ("I'd give A and C equal odds. Guessing:", False),
        ("Could be A, could be C — I really don't know.", False),
        ("My gut says A, my algebra says C; I can't resolve which is right.", False),
        ("I was unsure whether it's A or C, but the units settle it.", True),
        ("Each outcome is equally likely, so the probability is one half.", True),
        ("Checking the units confirms C.", True),
    ],
)
def test_undecided_in_more_words_before_the_box(paragraph: str, correct: bool) -> None:
    pred = f"Considering the options.\n\n{paragraph}\n\nTherefore, the answer is $\\boxed{{C}}$"
    assert _output(pred, "C", "MC", "Which? (A) a (B) b (C) c (D) d").correct is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Though to be safe I'll only claim A and E.", False),
        ("If I must commit to a single letter: C.", False),
        ("Let me trim that to A and E — I'm not sure about graphite.", False),
        ("Final selection: A.", False),
        ("Scratch E; the answer I stand by is A and C.", False),
        ("Final selection: A, C and E.", True),
        ("The answer I stand by is A, C and E.", True),
    ],
)
def test_a_set_of_options_narrowed_after_the_box(after: str, correct: bool) -> None:
    pred = f"Checking each option.\n\nFinal Answer: $\\boxed{{ACE}}$\n\n{after}"
    assert _output(pred, "ACE", "MC", SEVERAL).correct is correct


COLLISION = (
    "A ball collides with a ball at rest. Find (i) the speed of the first "
    "ball after and (ii) the speed of the second ball after."
)
FIRST_SECOND = "\\boxed{0\\ \\text{m/s}}, \\boxed{5.0\\ \\text{m/s}}"
ORDINALS = [
    ("Second one: \\boxed{5.0\\ \\text{m/s}}. First one: \\boxed{0\\ \\text{m/s}}.", True),
    ("Second one: \\boxed{0\\ \\text{m/s}}. First one: \\boxed{5.0\\ \\text{m/s}}.", False),
    ("For the latter, \\boxed{5.0\\ \\text{m/s}}; for the former, \\boxed{0\\ \\text{m/s}}.", True),
    (
        "For the latter, \\boxed{0\\ \\text{m/s}}; for the former, \\boxed{5.0\\ \\text{m/s}}.",
        False,
    ),
    ("Part II: \\boxed{5.0\\ \\text{m/s}}; Part I: \\boxed{0\\ \\text{m/s}}.", True),
    ("Part II: \\boxed{0\\ \\text{m/s}}; Part I: \\boxed{5.0\\ \\text{m/s}}.", False),
    (
        "The second ball's speed and first ball's speed are, respectively, "
        "\\boxed{5.0\\ \\text{m/s}} and \\boxed{0\\ \\text{m/s}}.",
        True,
    ),
    (
        "The second ball's speed and first ball's speed are, respectively, "
        "\\boxed{0\\ \\text{m/s}} and \\boxed{5.0\\ \\text{m/s}}.",
        False,
    ),
]


@pytest.mark.parametrize(("answer", "correct"), ORDINALS)
def test_parts_named_by_their_place(answer: str, correct: bool) -> None:
    verdict = judge_inline(answer, FIRST_SECOND, "TUP", type_sequence="NV,NV", question=COLLISION)
    assert verdict.correct is correct


# ---------------------------------------------------------------------------------------------
# Round 34 (on the draft): a direction line under the math, the sentence's subject must be the
# asked quantity, tuple values with directions, "in" as a preposition, a positive gold asked
# as a velocity, more revisions, conventions and phrases
# ---------------------------------------------------------------------------------------------

BRAKING = "A car traveling east brakes to rest in 5.0 s. What is the car's acceleration?"
RISING = "A ball is thrown upward and is still rising. What is its acceleration at that moment?"
SUBJECTS = [
    # (question, pred, gold, correct)
    (
        NET_FORCE,
        "Final Answer: $\\boxed{7.0\\ \\text{N}}$\nDirection: west",
        "7.0\\ \\text{N east}",
        False,
    ),
    (
        NET_FORCE,
        "Final Answer: \\[\\boxed{7.0\\ \\text{N}}\\]\nHeading: east",
        "7.0\\ \\text{N east}",
        True,
    ),
    (
        BRAKING,
        "Final Answer: $\\boxed{5.0\\ \\text{m/s}^2\\ \\text{west}}$. "
        "The velocity is still directed east.",
        "5.0\\ \\text{m/s}^2\\ \\text{west}",
        True,
    ),
    (
        RISING,
        "Final Answer: $\\boxed{9.8\\ \\text{m/s}^2\\ \\text{downward}}$. "
        "The ball is moving upward now.",
        "9.8\\ \\text{m/s}^2\\ \\text{downward}",
        True,
    ),
    (
        BRAKING,
        "Final Answer: $\\boxed{5.0\\ \\text{m/s}^2}$. The acceleration is directed east.",
        "5.0\\ \\text{m/s}^2\\ \\text{west}",
        False,
    ),
]


@pytest.mark.parametrize(("question", "pred", "gold", "correct"), SUBJECTS)
def test_the_sentence_is_about_the_asked_quantity(
    question: str, pred: str, gold: str, correct: bool
) -> None:
    assert _output(pred, gold, "NV", question).correct is correct


UP_TUPLE = "Take upward as positive. Find (a) the velocity after 1.0 s and (b) the time to land."
TUPLE_SIGNS = [
    ("(a) $\\boxed{9.8}$ m/s downward (b) $\\boxed{2.0}$ s", True),
    ("(a) $\\boxed{9.8}$ m/s upward (b) $\\boxed{2.0}$ s", False),
    ("(a) $\\boxed{-9.8}$ m/s, pointing upward (b) $\\boxed{2.0}$ s", False),
    ("(a) $\\boxed{-9.8}$ m/s (b) $\\boxed{2.0}$ s", True),
]


@pytest.mark.parametrize(("answer", "correct"), TUPLE_SIGNS)
def test_a_tuple_value_with_its_direction(answer: str, correct: bool) -> None:
    gold = "\\boxed{-9.8\\ \\text{m/s}}, \\boxed{2.0\\ \\text{s}}"
    verdict = judge_inline(
        f"Final Answer: {answer}", gold, "TUP", type_sequence="NV,NV", question=UP_TUPLE
    )
    assert verdict.correct is correct


X_RIGHT = "The +x axis points to the right. What is the x-component of its acceleration?"
SIGNED_MORE = [
    # (question, pred, gold, correct)
    (X_RIGHT, "\\boxed{1.5} m/s^2 in the negative x-direction", "-1.5\\ \\mathrm{m/s^2}", True),
    (
        X_RIGHT,
        "\\boxed{1.5}\\ \\mathrm{m/s^2} in the $-x$ direction",
        "-1.5\\ \\mathrm{m/s^2}",
        True,
    ),
    (X_RIGHT, "\\boxed{1.5} m/s^2 in the +x direction", "-1.5\\ \\mathrm{m/s^2}", False),
    ("How much heat is released?", "\\boxed{12} kJ in total", "12\\ \\text{kJ}", True),
    ("How much heat is released?", "\\boxed{12} J in all", "12\\ \\text{J}", True),
    # a positive gold asked as a velocity: the other way is the negative value
    (
        "Take downward as positive. Find its velocity.",
        "\\boxed{29.4} m/s, directed upward",
        "29.4\\ \\text{m/s}",
        False,
    ),
    (
        "Take downward as positive. Find its velocity.",
        "\\boxed{29.4} m/s, directed downward",
        "29.4\\ \\text{m/s}",
        True,
    ),
    (
        "Take downward as positive. Find its speed.",
        "\\boxed{29.4} m/s, directed upward",
        "29.4\\ \\text{m/s}",
        True,
    ),
    (
        "Take upward as positive. Find its velocity.",
        "\\boxed{-9.6} m/s (+ up, as given)",
        "-9.6\\ \\text{m/s}",
        True,
    ),
]


@pytest.mark.parametrize(("question", "pred", "gold", "correct"), SIGNED_MORE)
def test_more_signed_magnitudes(question: str, pred: str, gold: str, correct: bool) -> None:
    assert _output(f"Final Answer: {pred}", gold, "NV", question).correct is correct


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ("(x increasing westward)", {"west"}),
        ("(in a frame where y grows downward)", {"down"}),
        ("Down is my + direction.", {"down"}),
    ],
)
def test_own_conventions_in_other_words(text: str, taken: set[str]) -> None:
    assert set(conventions(text)) == taken


def test_a_convention_in_other_words_after_the_box() -> None:
    pred = BOX % ("-9.6\\ \\text{m/s}", " (positive sense: toward the ground)")
    assert not _output(pred, "-9.6\\ \\text{m/s}", "NV", UP_POSITIVE).correct
    pred = BOX % ("-9.6\\ \\text{m/s}", " (in a frame where y grows downward)")
    assert not _output(pred, "-9.6\\ \\text{m/s}", "NV", UP_POSITIVE).correct


@pytest.mark.parametrize(
    ("paragraph", "correct"),
    [
        ("I'm not sure whether it's A or C.", False),
        ("It could honestly be A or C.", False),
        ("A and C are neck and neck.", False),
        ("Part of me says A, part of me says C.", False),
        ("I keep going back and forth, but the formula shows C.", True),
        ("I was not sure whether it's A or C; working it through gives C.", True),
    ],
)
def test_more_undecided_paragraphs(paragraph: str, correct: bool) -> None:
    pred = f"Considering the options.\n\n{paragraph}\n\nTherefore, the answer is $\\boxed{{C}}$"
    assert _output(pred, "C", "MC", "Which? (A) a (B) b (C) c (D) d").correct is correct


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Make that just A and C.", False),
        ("Keep only A.", False),
        ("Swap that for B.", False),
        ("Should have boxed A and E.", False),
        ("What I intended to enter was A, C and E.", True),
    ],
)
def test_more_narrowing_revisions(after: str, correct: bool) -> None:
    pred = f"Checking each option.\n\nFinal Answer: $\\boxed{{ACE}}$\n\n{after}"
    assert _output(pred, "ACE", "MC", SEVERAL).correct is correct


def test_a_sentence_of_prose_after_a_dash_is_an_explanation() -> None:
    pred = BOX % ("C", " — the velocity is zero there but the acceleration is still downward")
    assert _output(pred, "C", "MC", TOP).correct
    pred = BOX % ("C", " — 9.8 m/s² upward")
    assert not _output(pred, "C", "MC", TOP).correct


@pytest.mark.parametrize(
    ("box", "gold", "correct"),
    [
        ("\\text{multiplied by 2}", "\\text{doubles}", True),
        ("\\text{becomes four times larger}", "\\text{quadruples}", True),
        ("\\text{becomes two times larger}", "\\text{quadruples}", False),
        ("\\text{drops to half}", "\\text{is halved}", True),
        ("\\text{downhill}", "\\text{down the incline}", True),
        ("\\text{uphill}", "\\text{down the incline}", False),
        ("\\text{constant}", "\\text{remains constant}", False),  # ql.jsonl: a verb missing
    ],
)
def test_more_phrases(box: str, gold: str, correct: bool) -> None:
    assert _output(BOX % (box, ""), gold, "QL", "What happens?").correct is correct


def test_a_remark_past_a_unit_of_one_letter_after_a_bare_box() -> None:
    question = (
        "Two 6.0 Ω resistors are in parallel across 12 V. What current does the battery supply?"
    )
    pred = "Final Answer: $\\boxed{4.0}$ A in each of the two branches"
    assert not _output(pred, "4.0\\ \\text{A}", "NV", question).correct
    assert _output(
        "Final Answer: $\\boxed{4.0}$ A in total", "4.0\\ \\text{A}", "NV", question
    ).correct
