"""Verifier 1.27.0 rules (red-team round 30), each with its table of cases and the controls
the rule must leave alone: wrong answers of the same shape stay rejected, honest ones stay
accepted."""

from __future__ import annotations

import pytest

from studybench.verify.angle_reference import with_agreed_reference
from studybench.verify.closing_remarks import against_convention, closing_remark, conventions
from studybench.verify.normalize import normalize_answer
from studybench.verify.number_words import numbers_in_digits
from studybench.verify.revisions import (
    last_option,
    revised_phrase,
    revision,
    undecided,
)
from studybench.verify.tuple_labels import asked_parts, labelled_order
from studybench.verify.verifier import Verdict, judge_inline
from studybench.verify.viewpoints import (
    question_viewpoint,
    seen_as_asked,
    turned,
    viewpoint,
    viewpoint_after,
)


def _output(pred: str, gold: str, kind: str, question: str | None = None) -> Verdict:
    """A whole model output ``pred`` against a boxed gold."""
    return judge_inline(pred, f"\\boxed{{{gold}}}", kind, question=question)


BOX = "Working.\n\n**Final Answer**\n\\[\\boxed{%s}\\]\n\n%s"
OPTIONS = "Which quantity is conserved? (A) speed (B) momentum (C) energy (D) velocity"
STATEMENT = "True or false: in an elastic collision kinetic energy is conserved."
KINETIC = "A 2.0 kg cart moves at 1.5 m/s. Find its kinetic energy."
SPEED = "A ball rolls up a ramp. Does its speed increase or decrease as it rises?"

# ---------------------------------------------------------------------------------------------
# A revision in more words: an option by its place or in small letters, "not B but C", "would
# be", an aside's words kept to their clause, a contrast ending a condition
# ---------------------------------------------------------------------------------------------

REVISIONS = [
    # (question, gold, kind, box, text after it, correct)
    (OPTIONS, "B", "MC", "B", "Wait, the third option is the right one.", False),
    (OPTIONS, "B", "MC", "B", "Hmm, actually I'd pick the third option.", False),
    (OPTIONS, "B", "MC", "B", "Actually, option (c) is correct.", False),
    (OPTIONS, "B", "MC", "B", "Hmm, on reflection I'd go with option 4.", False),
    (OPTIONS, "B", "MC", "B", "Double-checking: the second option is right.", True),
    (OPTIONS, "B", "MC", "B", "Wait, the answer is not B but C.", False),
    (OPTIONS, "B", "MC", "B", "Wait, it's not A but B.", True),
    (OPTIONS, "B", "MC", "B", "Wait, the answer is B, not C.", True),
    (OPTIONS, "B", "MC", "B", "Actually, not only B but also C holds here? No: B.", True),
    (OPTIONS, "B", "MC", "B", "Hmm, the correct option would be C.", False),
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "Actually, if friction mattered, the correct option would be C.",
        True,
    ),
    (OPTIONS, "B", "MC", "B", "Hmm, the correct option would be C with friction.", True),
    (OPTIONS, "B", "MC", "B", "Wait, checking it again, the answer is C.", False),
    (OPTIONS, "B", "MC", "B", "Wait, checking it again, the answer is B.", True),
    (OPTIONS, "B", "MC", "B", "Many students pick C, but the answer is B.", True),
    (OPTIONS, "B", "MC", "B", "Hmm, you might think B, but the answer is C.", False),
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "Hmm, if the cart were rough it could be C, but here B stands.",
        True,
    ),
    (
        KINETIC,
        "2.25 J",
        "NV",
        "2.25\\text{ J}",
        "Hmm, checking again, the kinetic energy is 4.5 J.",
        False,
    ),
    (
        KINETIC,
        "2.25 J",
        "NV",
        "2.25\\text{ J}",
        "Hmm, checking again, the kinetic energy is 2.25 J.",
        True,
    ),
    (KINETIC, "2.25 J", "NV", "2.25\\text{ J}", "Wait, the answer is not 2.25 J but 4.5 J.", False),
    (KINETIC, "2.25 J", "NV", "2.25\\text{ J}", "Wait, the answer is 2.25 J, not 4.5 J.", True),
    (
        KINETIC,
        "2.25 J",
        "NV",
        "2.25\\text{ J}",
        "Hmm, if the mass were doubled, the answer would be 4.5 J.",
        True,
    ),
    (
        KINETIC,
        "2.25 J",
        "NV",
        "2.25\\text{ J}",
        "Wait, I made a slip: it is four point five joules.",
        False,
    ),
    (KINETIC, "2.25 J", "NV", "2.25\\text{ J}", "Hmm, I'd go with four point five J.", False),
    (
        KINETIC,
        "2.25 J",
        "NV",
        "2.25\\text{ J}",
        "Wait, checking it, it is two point two five joules.",
        True,
    ),
    (
        SPEED,
        "\\text{decreases}",
        "QL",
        "\\text{decreases}",
        "Hmm, actually the speed goes up.",
        False,
    ),
    (
        SPEED,
        "\\text{decreases}",
        "QL",
        "\\text{increases}",
        "Wait, actually the speed goes down.",
        False,
    ),
    (
        SPEED,
        "\\text{decreases}",
        "QL",
        "\\text{decreases}",
        "Wait, the speed goes down as it rises, as expected.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "kind", "box", "after", "correct"), REVISIONS)
def test_a_revision_in_more_words(
    question: str, gold: str, kind: str, box: str, after: str, correct: bool
) -> None:
    verdict = _output(BOX % (box, after), gold, kind, question)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("tail", "option"),
    [
        ("Wait, the first option is right.", "A"),
        ("Wait, I'd go with option three.", "C"),
        ("Wait, I'd go with option 2.", "B"),
        ("Hmm, option (d) is correct.", "D"),
        ("Hmm, (c) is more complete.", "C"),
        ("Hmm, option (C) is correct.", "C"),
        ("Wait, the choice one makes here matters.", None),
    ],
)
def test_an_option_named_by_its_place(tail: str, option: str | None) -> None:
    region = revision(tail)
    assert region is not None
    assert last_option(region) == option


def test_a_phrase_of_two_words_in_a_revision() -> None:
    assert revised_phrase("Actually, it goes down.", "\\text{increases}") == "goes down"
    assert revised_phrase("Actually, it goes down.", "\\text{goes down}") is None
    assert revised_phrase("Actually, it decreases.", "\\text{goes down}") is None


# ---------------------------------------------------------------------------------------------
# An angle given from the line at right angles to the asked one: 90° less it
# ---------------------------------------------------------------------------------------------

LAUNCH = (
    "A ball is launched at 25 m/s and lands 30 m away on level ground. Find the launch angle "
    "above the horizontal."
)
REFRACTION = (
    "Light passes from air into glass (n = 1.5) at 40° to the normal. Find the angle of "
    "refraction measured from the normal."
)
COMPLEMENTS = [
    (LAUNCH, "23.7^\\circ", "66.3^\\circ \\text{ from the vertical}", True),
    (LAUNCH, "23.7^\\circ", "\\theta = 66.3^\\circ \\text{ from the vertical}", True),
    (LAUNCH, "23.7^\\circ", "66.3° from the vertical", True),
    (LAUNCH, "23.7^\\circ", "66.3^\\circ", False),
    (LAUNCH, "23.7^\\circ", "23.7^\\circ \\text{ from the vertical}", False),
    (LAUNCH, "23.7^\\circ", "66.3^\\circ \\text{ below the vertical}", False),
    (LAUNCH, "23.7^\\circ", "60^\\circ \\text{ from the vertical}", False),
    (LAUNCH, "23.7^\\circ", "1.157 \\text{ rad from the vertical}", False),
    (REFRACTION, "25.4^\\circ", "64.6^\\circ \\text{ from the surface}", True),
    (REFRACTION, "25.4^\\circ", "64.6^\\circ \\text{ from the normal}", False),
    (REFRACTION, "25.4^\\circ", "25.4^\\circ \\text{ from the surface}", False),
]


@pytest.mark.parametrize(("question", "gold", "box", "correct"), COMPLEMENTS)
def test_an_angle_from_the_complementary_line(
    question: str, gold: str, box: str, correct: bool
) -> None:
    verdict = _output(BOX % (box, ""), gold, "NV", question)
    assert verdict.correct is correct, verdict


def test_the_complement_is_read_after_the_box_and_only_of_degrees() -> None:
    after = BOX % ("66.3^\\circ", "") + " from the vertical."
    assert _output(after, "23.7^\\circ", "NV", LAUNCH).correct
    assert with_agreed_reference(
        "66.3^\\circ \\text{ from the vertical}", ("23.7^\\circ",), LAUNCH
    ) == ("23.7^\\circ")
    # two references, or a number of degrees no complement is taken of: no agreement
    assert (
        with_agreed_reference("95^\\circ \\text{ from the vertical}", ("5^\\circ",), LAUNCH) is None
    )
    assert (
        with_agreed_reference(
            "66^\\circ \\text{ from the vertical, } 24^\\circ \\text{ above the horizontal}",
            ("24^\\circ",),
            LAUNCH,
        )
        is None
    )


# ---------------------------------------------------------------------------------------------
# A multiple-answer choice written box by box: the boxes next to one another read as one
# ---------------------------------------------------------------------------------------------

VECTORS = (
    "Which of the following are vector quantities? Select all that apply. (A) velocity (B) mass "
    "(C) force (D) momentum (E) energy"
)
JOINED = [
    (
        "So A, C and D.\n\n**Final Answer**\n\\boxed{A}, \\boxed{C}, \\boxed{D}",
        "\\boxed{ACD}",
        True,
    ),
    ("**Final Answer**\n\\boxed{A} \\boxed{C} \\boxed{D}", "\\boxed{ACD}", True),
    ("**Final Answer**\n$\\boxed{A}$, $\\boxed{C}$, and $\\boxed{D}$", "\\boxed{A, C, D}", True),
    ("**Final Answer**\n\\boxed{A}, \\boxed{C}", "\\boxed{ACD}", False),
    ("**Final Answer**\n\\boxed{A}, \\boxed{C}, \\boxed{D}, \\boxed{E}", "\\boxed{ACD}", False),
    ("**Final Answer**\n\\boxed{A} or \\boxed{C} or \\boxed{D}", "\\boxed{ACD}", False),
    (
        "First \\boxed{A}, then the rest of the work shows a change.\n\n\\boxed{C}, \\boxed{D}",
        "\\boxed{ACD}",
        False,
    ),
    ("**Final Answer**\n\\boxed{A}, \\boxed{C}", "\\boxed{A}", False),
]


@pytest.mark.parametrize(("pred", "gold", "correct"), JOINED)
def test_a_multiple_answer_choice_box_by_box(pred: str, gold: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, "MC", question=VECTORS)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        ("Wait, it is twelve meters.", "Wait, it is 12 meters."),
        ("twenty-one metres", "21 metres"),
        ("minus three joules", "-3 joules"),
        ("it takes one and a half seconds", "it takes 1.5 seconds"),
        ("one of them is two point five seconds long", "one of them is 2.5 seconds long"),
        ("the two cases", "the two cases"),
    ],
)
def test_numbers_in_words_in_a_revision(sentence: str, read: str) -> None:
    assert numbers_in_digits(sentence) == read


# ---------------------------------------------------------------------------------------------
# A brace group around a whole answer typesets as its content
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "normalized"),
    [
        ("{9.0\\text{ J}}", "9.0 J"),
        ("\\color{red}{9.0\\text{ J}}", "9.0 J"),
        ("{{x}}", "x"),
        ("{a}{b}", "{a}{b}"),
        ("{a}^{2}", "{a}^{2}"),
        ("\\{1,2\\}", "\\{1,2\\}"),
    ],
)
def test_a_group_around_the_whole_answer(box: str, normalized: str) -> None:
    assert normalize_answer(box) == normalized


def test_a_coloured_group_is_judged_by_its_content() -> None:
    assert _output(BOX % ("\\color{red}{9.0\\text{ J}}", ""), "9.0 J", "NV", KINETIC).correct
    assert not _output(BOX % ("\\color{red}{12\\text{ J}}", ""), "9.0 J", "NV", KINETIC).correct


# ---------------------------------------------------------------------------------------------
# A remark closing the final box is read with it: directions, per item, unit changes, sign
# conventions
# ---------------------------------------------------------------------------------------------

FALL = "A ball thrown up at 4.9 m/s. Find its velocity 1.0 s later (take up as positive)."
DOWN = "A ball is thrown up at 4.9 m/s. Find its speed and direction of motion 1.0 s later."
CAR = "A 1200 kg car rounds a flat curve of radius 50 m at 20 m/s. Find the net force on the car."
LIFT = "A 2.0 kg object is lifted 3.0 m at constant speed. How much work is done against gravity?"
HIGHWAY = "A car travels at 75 km/h. What is its speed?"
DISPLAY = "Work.\n\n**Final Answer**\n\\[\n\\boxed{%s}\n\\]\n%s"
CLOSING = [
    # (question, gold, box, text after it, correct)
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", "(going up)", False),
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", "upwards", False),
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", ", ascending", False),
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", "(falling)", True),
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", "(the ball is now falling)", True),
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", "downward.", True),
    (DOWN, "4.9\\,\\text{m/s downward}", "4.9\\ \\text{m/s}", "\n\nThis is the speed.", True),
    (CAR, "9.6\\,\\text{kN}", "9.6\\ \\text{kN}", "on each of the four tires.", False),
    (CAR, "9.6\\,\\text{kN}", "9.6\\ \\text{kN}", "(toward the center)", True),
    (LIFT, "58.8\\,\\text{J}", "58.8\\,\\text{J}", "per kilogram", False),
    (
        LIFT,
        "58.8\\,\\text{J}",
        "58.8\\,\\text{J}",
        "per lift; two lifts would need twice that.",
        True,
    ),
    (HIGHWAY, "75\\,\\text{km/h}", "75\\ \\text{km/h}", "squared", False),
    (HIGHWAY, "75\\,\\text{km/h}", "75\\ \\text{km/h}", "(rounded)", True),
    (FALL, "-4.9\\,\\text{m/s}", "-4.9\\ \\text{m/s}", "(taking downward as positive)", False),
    (FALL, "-4.9\\,\\text{m/s}", "-4.9\\ \\text{m/s}", "(taking upward as positive)", True),
    (FALL, "-4.9\\,\\text{m/s}", "-4.9\\ \\text{m/s} \\text{ (down positive)}", "", False),
]


@pytest.mark.parametrize(("question", "gold", "box", "after", "correct"), CLOSING)
def test_a_remark_closing_the_box(
    question: str, gold: str, box: str, after: str, correct: bool
) -> None:
    verdict = _output(DISPLAY % (box, after), gold, "NV", question)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("after", "remark"),
    [
        ("\n\\]\n(going up)", "(going up)"),
        (" upwards, as expected.", "upwards, as expected"),
        ("\n\n(going up)", "(going up)"),  # a bracketed paragraph of its own
        ("\n\n(going up, since the ball is still rising after one second)", None),
        ("\n\nThe ball is going up.", None),  # a sentence of its own
        (" Upward.", "Upward"),  # a short phrase of its own that names a direction
        (" \\ (\\uparrow)", "(up)"),
        (" This is the time.", None),  # a sentence of its own
        (" which is the speed.", None),
        (" (to 3 s.f.)", None),
        (" (i.e. 4.9 m/s upward)", None),
        (" $\\boxed{3}$", None),
    ],
)
def test_what_closes_a_box(after: str, remark: str | None) -> None:
    assert closing_remark(after) == remark


def test_sign_conventions() -> None:
    assert conventions("taking downward as positive") == {"down"}
    assert conventions("with up as the positive direction") == {"up"}
    assert conventions("positive to the right") == {"right"}
    assert not against_convention("-4.9", " (taking up as positive)", FALL)
    assert against_convention("-4.9", " (taking down as positive)", FALL)
    assert not against_convention("-4.9", " (taking down as positive)", DOWN)  # none asked


# ---------------------------------------------------------------------------------------------
# A rotation seen from a side: the question's side, or the opposite one turned round
# ---------------------------------------------------------------------------------------------

LOOP = (
    "A bar magnet is dropped through a horizontal loop. Viewed from above, is the induced "
    "current clockwise or counterclockwise as the magnet approaches?"
)
LOOP_NO_SIDE = (
    "A bar magnet falls through a loop. Is the induced current clockwise or counterclockwise?"
)
VIEWS = [
    (LOOP, "\\text{counterclockwise}", "(when viewed from below)", False),
    (LOOP, "\\text{Counterclockwise}", "— as viewed from beneath the loop.", False),
    (LOOP, "\\text{counterclockwise}", "(as seen from above)", True),
    (LOOP, "\\text{counterclockwise (viewed from above)}", "", True),
    (LOOP, "\\text{anticlockwise (as seen from above)}", "", True),
    (LOOP, "\\text{clockwise, as seen from below}", "", True),
    (LOOP, "\\text{clockwise}", "as seen from below.", True),
    (LOOP, "\\text{clockwise}", "as seen from above.", False),
    (LOOP, "\\text{counterclockwise (viewed from the left)}", "", False),
    (LOOP, "\\text{counterclockwise}", "looking down on the loop.", True),
    (LOOP, "\\text{counterclockwise}", "looking up at the loop.", False),
    (LOOP, "\\text{counterclockwise}", "\n\nViewed from below, it would appear clockwise.", True),
    (LOOP_NO_SIDE, "\\text{counterclockwise}", "(viewed from below)", False),
    (LOOP_NO_SIDE, "\\text{counterclockwise}", "", True),
]


@pytest.mark.parametrize(("question", "box", "after", "correct"), VIEWS)
def test_a_rotation_seen_from_a_side(question: str, box: str, after: str, correct: bool) -> None:
    verdict = _output(DISPLAY % (box, after), "\\text{counterclockwise}", "QL", question)
    assert verdict.correct is correct, verdict


def test_viewpoints_read() -> None:
    assert viewpoint("clockwise as seen from below") == ("clockwise", "below")
    assert viewpoint("clockwise") == ("clockwise", None)
    assert question_viewpoint(LOOP) == "above"
    assert question_viewpoint(LOOP_NO_SIDE) is None
    assert turned("counterclockwise, then clockwise") == "clockwise, then counterclockwise"
    assert seen_as_asked("clockwise (seen from below)", "counterclockwise", LOOP) == (
        "counterclockwise",
        "counterclockwise",
    )
    assert seen_as_asked("clockwise (seen from the left)", "counterclockwise", LOOP) is None
    assert viewpoint_after("\\text{up}", " (seen from below)") == "\\text{up}"  # no rotation


# ---------------------------------------------------------------------------------------------
# A tuple read in the order its labels give
# ---------------------------------------------------------------------------------------------

PROJECTILE = (
    "A projectile is launched at 20 m/s at 30° above level ground. Find (a) the maximum height "
    "and (b) the horizontal range."
)
ROPES = "A lamp hangs from rope A and rope B. Find the tensions in rope A and rope B."
ENERGY = (
    "A ball is dropped from 5.0 m. When it is 2.0 m up, find its kinetic energy and its "
    "potential energy."
)
LOOP_SPEEDS = (
    "A cart moves on a loop. Find its speed at the top of the loop and its speed at mid-height."
)
LABELS = [
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "(b) $\\boxed{5.10\\ \\text{m}}$ (a) $\\boxed{35.3\\ \\text{m}}$",
        False,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "(b) $\\boxed{35.3\\ \\text{m}}$ (a) $\\boxed{5.10\\ \\text{m}}$",
        True,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "Range: $\\boxed{5.10\\ \\text{m}}$, maximum height: $\\boxed{35.3\\ \\text{m}}$",
        False,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "Range: $\\boxed{35.3\\ \\text{m}}$, maximum height: $\\boxed{5.10\\ \\text{m}}$",
        True,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "$R = \\boxed{5.10\\ \\text{m}}$, $H = \\boxed{35.3\\ \\text{m}}$",
        False,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "\\[\\boxed{R = 5.10\\ \\text{m},\\ H = 35.3\\ \\text{m}}\\]",
        False,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "\\[\\boxed{H = 5.10\\ \\text{m},\\ R = 35.3\\ \\text{m}}\\]",
        True,
    ),
    (
        PROJECTILE,
        "5.10 m",
        "35.3 m",
        "(a) $\\boxed{5.10\\ \\text{m}}$ (b) $\\boxed{35.3\\ \\text{m}}$",
        True,
    ),
    (
        ROPES,
        "24.5 N",
        "42.4 N",
        "$T_B = \\boxed{24.5\\ \\text{N}}$, $T_A = \\boxed{42.4\\ \\text{N}}$",
        False,
    ),
    (
        ROPES,
        "24.5 N",
        "42.4 N",
        "Rope B: $\\boxed{24.5\\,\\mathrm{N}}$; rope A: $\\boxed{42.4\\,\\mathrm{N}}$",
        False,
    ),
    (
        ROPES,
        "24.5 N",
        "42.4 N",
        "Rope A: $\\boxed{24.5\\,\\mathrm{N}}$; rope B: $\\boxed{42.4\\,\\mathrm{N}}$",
        True,
    ),
    (
        ENERGY,
        "58.8 J",
        "39.2 J",
        "\\[\\boxed{U = 58.8\\ \\text{J}},\\quad \\boxed{K = 39.2\\ \\text{J}}\\]",
        False,
    ),
    (
        ENERGY,
        "58.8 J",
        "39.2 J",
        "\\[\\boxed{K = 58.8\\ \\text{J}},\\quad \\boxed{U = 39.2\\ \\text{J}}\\]",
        True,
    ),
    (
        LOOP_SPEEDS,
        "2.83 m/s",
        "14.3 m/s",
        "\\[v_{\\text{mid}} = \\boxed{2.83\\ \\text{m/s}},\\quad "
        "v_{\\text{top}} = \\boxed{14.3\\ \\text{m/s}}\\]",
        False,
    ),
]


@pytest.mark.parametrize(("question", "first", "second", "answer", "correct"), LABELS)
def test_a_tuple_in_the_order_of_its_labels(
    question: str, first: str, second: str, answer: str, correct: bool
) -> None:
    gold = f"\\boxed{{{first}}}, \\boxed{{{second}}}"
    pred = f"Work.\n\n**Final Answer**\n{answer}"
    verdict = judge_inline(pred, gold, "TUP", "NV,NV", question=question)
    assert verdict.correct is correct, verdict


def test_the_parts_a_question_asks() -> None:
    assert asked_parts(PROJECTILE, 2) == ["the maximum height and ", "the horizontal range."]
    assert asked_parts(ROPES, 2) == [" the tensions in rope A", "rope B."]
    assert asked_parts(PROJECTILE, 3) is None
    # a label naming no part, or two labels naming one: the written order stands
    assert labelled_order(("1 m", "2 m"), ("Answer: $", "$, $"), PROJECTILE) is None
    assert labelled_order(("1 m", "2 m"), ("(a) $", "$ (a) $"), PROJECTILE) is None
    assert labelled_order(("1 m", "2 m"), ("(b) $", "$ (a) $"), PROJECTILE) == (1, 0)


# ---------------------------------------------------------------------------------------------
# Undecided after the box: torn between answers, a fallback, candidates weighed
# ---------------------------------------------------------------------------------------------

WAVE = "A wave has frequency 5.0 Hz and wavelength 4.0 m. Find its speed."
UNDECIDED = [
    ("I'm torn between this and 125 m/s.", False),
    ("If that's wrong, then 125 m/s.", False),
    ("I can't decide between 20 m/s and 125 m/s.", False),
    ("Honestly it's a coin flip between this and 125 m/s.", False),
    ("Each toss is a 50/50 event, like a coin flip.", True),
    ("I was torn between 20 m/s and 125 m/s at first, but the data settle it.", True),
    ("My two candidates were 20 m/s and 125 m/s; pick whichever matches.", False),
    ("- 20 m/s (60%)\n- 125 m/s (40%)", False),
    ("I keep going back and forth on this.", False),
    ("Students are often torn between the two formulas.", True),
    ("If the frequency were doubled, the speed would double too.", True),
    ("This is 72 km/h.", True),
    ("- speed: 20 m/s\n- period: 0.20 s", True),
]


@pytest.mark.parametrize(("after", "correct"), UNDECIDED)
def test_undecided_after_the_box(after: str, correct: bool) -> None:
    verdict = _output(BOX % ("20\\ \\text{m/s}", after), "20 m/s", "NV", WAVE)
    assert verdict.correct is correct, verdict
    assert undecided(after) is not correct


# ---------------------------------------------------------------------------------------------
# The box said to be someone else's, and the model's own answer beside it
# ---------------------------------------------------------------------------------------------

DISOWNED = [
    (OPTIONS, "B", "MC", "B", "(That's what the textbook says; I believe it's D.)", False),
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "The expected answer is B, but my own derivation points to A.",
        False,
    ),
    (OPTIONS, "B", "MC", "B", "Most students pick A. I'd pick B.", True),
    (OPTIONS, "B", "MC", "B", "Most students pick B. I'd pick A.", False),
    (OPTIONS, "B", "MC", "B", "This matches the answer key, and I got B as well.", True),
    (
        LIFT,
        "58.8 J",
        "NV",
        "58.8\\,\\text{J}",
        "That is the standard answer; my own calculation gives 29.4 J.",
        False,
    ),
    (LIFT, "58.8 J", "NV", "58.8\\,\\text{J}", "(official), 29.4 J (mine)", False),
    (
        LIFT,
        "58.8 J",
        "NV",
        "58.8\\,\\text{J}",
        "Redoing it gives W ≈ 29.4 J, which I'll stand by.",
        False,
    ),
    (LIFT, "58.8 J", "NV", "58.8\\,\\text{J}", "My own calculation gives 58.8 J too.", True),
]


@pytest.mark.parametrize(("question", "gold", "kind", "box", "after", "correct"), DISOWNED)
def test_a_box_given_as_someone_elses(
    question: str, gold: str, kind: str, box: str, after: str, correct: bool
) -> None:
    verdict = _output(BOX % (box, after), gold, kind, question)
    assert verdict.correct is correct, verdict


# ---------------------------------------------------------------------------------------------
# Units: the working's unit for a bare box, units after a display, powers in their own math
# ---------------------------------------------------------------------------------------------

FORCE = "A 1200 kg car accelerates at 8.0 m/s^2. Find the net force on it."
UNITS = [
    ("$$F = 9600\\ \\text{N}$$\n\n**Final Answer**\n\\[\\boxed{9600}\\]", "9.6\\,\\text{kN}", True),
    ("$$F = 9600\\ \\text{N}$$\n\n**Final Answer**\n\\[\\boxed{9.6}\\]", "9.6\\,\\text{kN}", True),
    (
        "$$F = 9600\\ \\text{kN}$$\n\n**Final Answer**\n\\[\\boxed{9600}\\]",
        "9.6\\,\\text{kN}",
        False,
    ),
    ("**Final Answer**\n\\[\\boxed{9.6}\\] (in watts)", "9.6\\,\\text{kN}", False),
    ("**Final Answer**\n\\[\\boxed{9.6}\n\\]\n(kilonewtons)", "9.6\\,\\text{kN}", True),
    ("**Final Answer**\n\\[\\boxed{9.6}\\] million newtons", "9.6\\,\\text{kN}", False),
    ("**Final Answer**\n\\[\\boxed{9.6}\\] thousand newtons", "9.6\\,\\text{kN}", True),
]


@pytest.mark.parametrize(("pred", "gold", "correct"), UNITS)
def test_the_unit_of_a_bare_box(pred: str, gold: str, correct: bool) -> None:
    verdict = judge_inline(pred, f"\\boxed{{{gold}}}", "NV", question=FORCE)
    assert verdict.correct is correct, verdict


def test_a_power_of_a_unit_in_math_of_its_own() -> None:
    pred = "(a) $\\boxed{1.0 \\times 10^{-6}}$ s$^{-1}$ (b) $\\boxed{0.125}$"
    gold = "\\boxed{1.00\\times10^{-6}\\,\\mathrm{s^{-1}}}, \\boxed{0.125}"
    assert judge_inline(pred, gold, "TUP", "NV,NV").correct
    wrong = "(a) $\\boxed{1.0 \\times 10^{-6}}$ s$^{-2}$ (b) $\\boxed{0.125}$"
    assert not judge_inline(wrong, gold, "TUP", "NV,NV").correct


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("y = A\\sin(kx - \\omega t)", True),
        ("y = A\\sin(kx + \\omega t)", False),
        ("u = A\\sin(kx - \\omega t)", False),
    ],
)
def test_a_plain_label_for_a_gold_label_with_arguments(pred: str, correct: bool) -> None:
    gold = "\\boxed{y(x,t) = A\\sin(kx - \\omega t)}"
    assert judge_inline(f"Final Answer: \\boxed{{{pred}}}", gold, "EQ").correct is correct


# ---------------------------------------------------------------------------------------------
# Draft 2: units spoken after a box, more conventions, fallbacks, the other truth value, tuple
# labels after the boxes, joined options with "&"
# ---------------------------------------------------------------------------------------------

ACCELERATE = "A cart speeds up from rest to 6.0 m/s in 3.0 s. Find its acceleration."
SPOKEN = [
    ("2.0\\,\\text{m/s}", " per second", "2.0 m/s^2", True),
    ("4.9\\ \\text{m/s}", " squared", "4.9 m/s^2", True),
    ("2.0\\,\\text{m/s}", " per second", "2.0 m/s", False),
    ("3.34\\times10^{5}\\,\\text{J/kg}", " (per kg)", "3.34\\times10^{5} J/kg", True),
    ("58.8\\,\\text{J}", " per kilogram", "58.8 J", False),
    ("300\\,\\text{J}", " per second", "300 W", True),
]


@pytest.mark.parametrize(("box", "after", "gold", "correct"), SPOKEN)
def test_a_unit_spoken_after_the_box(box: str, after: str, gold: str, correct: bool) -> None:
    pred = f"Work.\n\n**Final Answer**\n\\[\\boxed{{{box}}}\\]{after}"
    verdict = judge_inline(pred, f"\\boxed{{{gold}}}", "NV", question=ACCELERATE)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ("(downward-positive)", {"down"}),
        ("(with down = +)", {"down"}),
        ("(+ve down)", {"down"}),
        ("(y-axis pointing down)", {"down"}),
        ("(positive sense: downward)", {"down"}),
        ("take up as positive", {"up"}),
        ("the speed is positive", set()),
    ],
)
def test_more_sign_conventions(text: str, taken: set[str]) -> None:
    assert conventions(text) == taken


def test_a_hypothetical_convention_is_no_convention() -> None:
    after = " (it would be +4.7 m/s if we took downward as positive)"
    assert not against_convention("-4.7", after, FALL)


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Failing that, 125 m/s.", False),
        ("If I'm mistaken, 125 m/s.", False),
        ("My fallback is 125 m/s.", False),
        ("If that's wrong, it would mean energy is not conserved, which cannot be.", True),
        ("Either could be used here (energy or kinematics); both give the same result.", True),
        ("The water molecules exchange energy back and forth until equilibrium.", True),
        ("I'm torn on whether to quote more digits, but three figures match the data.", True),
    ],
)
def test_fallbacks_and_ordinary_prose(after: str, correct: bool) -> None:
    verdict = _output(BOX % ("20\\ \\text{m/s}", after), "20 m/s", "NV", WAVE)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Gut says the opposite.", False),
        ("Truthfully I'd mark it the other way.", False),
        ("Strictly speaking, I'd say the statement does not survive.", False),
        ("Strictly speaking, the statement holds.", True),
    ],
)
def test_the_other_truth_value_after_the_box(after: str, correct: bool) -> None:
    verdict = _output(BOX % ("\\text{True}", after), "\\text{True}", "TF", STATEMENT)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("My money is on A, though.", False),
        ("Personally, D seems more defensible to me.", False),
        ("B is the official answer; A is mine.", False),
        ("Personally, B seems right to me too.", True),
    ],
)
def test_another_option_after_the_box(tail: str, correct: bool) -> None:
    verdict = _output(BOX % ("B", tail), "B", "MC", OPTIONS)
    assert verdict.correct is correct, verdict


def test_tuple_labels_after_the_boxes_and_one_left_over() -> None:
    gold = "\\boxed{5.10\\,\\text{m}}, \\boxed{35.3\\,\\text{m}}"
    swapped = "$\\boxed{5.10\\,\\text{m}}$ (range), $\\boxed{35.3\\,\\text{m}}$ (maximum height)"
    right = "$\\boxed{35.3\\,\\text{m}}$ (range), $\\boxed{5.10\\,\\text{m}}$ (maximum height)"
    one = "(b) $\\boxed{35.3\\,\\text{m}}$ and $\\boxed{5.10\\,\\text{m}}$"
    for answer, correct in [(swapped, False), (right, True), (one, True)]:
        pred = f"Work.\n\nFinal Answer: {answer}"
        verdict = judge_inline(pred, gold, "TUP", "NV,NV", question=PROJECTILE)
        assert verdict.correct is correct, (answer, verdict)


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{A} \\;\\&\\; \\boxed{C} \\;\\&\\; \\boxed{D}", True),
        ("$\\boxed{A}$, $\\boxed{C}$, also $\\boxed{D}$", True),
        ("$\\boxed{A}$/$\\boxed{C}$/$\\boxed{D}$", False),  # "/" is "or"
        ("$\\boxed{A}$, $\\boxed{C}$, $\\boxed{D}$ (velocity, force and momentum)", True),
    ],
)
def test_options_joined_and_named(pred: str, correct: bool) -> None:
    verdict = judge_inline(f"**Final Answer**\n{pred}", "\\boxed{ACD}", "MC", question=VECTORS)
    assert verdict.correct is correct, verdict


# ---------------------------------------------------------------------------------------------
# Round 32: a value under the answer's own sign convention, the working's unit only against a
# gold with a unit, more hedges and fallbacks, labels after the boxes
# ---------------------------------------------------------------------------------------------

DROP = "An object falls from rest. What is its velocity after 3.0 s? Take upward as positive."
OWN_CONVENTION = [
    ("\\boxed{29.4} m/s (taking downward as positive)", True),
    ("\\boxed{-29.4} m/s (taking downward as positive)", False),
    ("\\boxed{-29.4} m/s", True),
    ("\\boxed{-29.4} m/s (it would read +29.4 m/s had we taken downward as positive)", True),
]


@pytest.mark.parametrize(("answer", "correct"), OWN_CONVENTION)
def test_a_value_under_its_own_sign_convention(answer: str, correct: bool) -> None:
    pred = f"$v = gt$.\n\nFinal Answer: {answer}"
    verdict = judge_inline(pred, "\\boxed{-29.4\\ \\text{m/s}}", "NV", question=DROP)
    assert verdict.correct is correct, verdict


def test_the_workings_unit_only_against_a_gold_with_one() -> None:
    pred = "Speed is v = 20 m/s.\nFinal Answer: \\boxed{20}"
    assert judge_inline(pred, "\\boxed{20}", "NV").correct  # a bare gold: compared as it is
    assert judge_inline(pred, "\\boxed{72\\,\\text{km/h}}", "NV").correct
    assert not judge_inline(pred, "\\boxed{20\\,\\text{km/h}}", "NV").correct


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        ("I'm of two minds here: B or C.", False),
        ("Should B be rejected, go with C.", False),
        ("If the grader disagrees, C.", False),
        ("B (55%) vs C (45%).", False),
        ("On balance, though, C is the one to mark.", False),
        ("No — it's C.", False),
        ("My fallback is always to check limiting cases, and B passes them.", True),
        ("My two candidates were B and D; D fails because the mass cancels, so B.", True),
    ],
)
def test_more_hedges_and_fallbacks(tail: str, correct: bool) -> None:
    verdict = _output(BOX % ("B", tail), "B", "MC", OPTIONS)
    assert verdict.correct is correct, verdict


def test_part_letters_after_the_boxes() -> None:
    question = (
        "A 2.0 kg block rests on a rough floor (mu = 0.25). Find (a) the normal force and "
        "(b) the friction force."
    )
    gold = "\\boxed{19.6\\ \\text{N}}, \\boxed{4.9\\ \\text{N}}"
    right = "Final Answer: $\\boxed{4.9\\ \\text{N}}$ (b), $\\boxed{19.6\\ \\text{N}}$ (a)"
    swapped = "Final Answer: $\\boxed{19.6\\ \\text{N}}$ (b), $\\boxed{4.9\\ \\text{N}}$ (a)"
    assert judge_inline(right, gold, "TUP", "NV,NV", question=question).correct
    assert not judge_inline(swapped, gold, "TUP", "NV,NV", question=question).correct
