"""Verifier 1.26.0 rules (red-team rounds 27 and 28), each with its table of cases and the
controls the rule must leave alone: wrong answers of the same shape stay rejected, honest
ones stay accepted."""

from __future__ import annotations

import pytest

from studybench.verify.angle_reference import reference_after, with_agreed_reference
from studybench.verify.revisions import last_option, last_truth, revised_phrase, revision
from studybench.verify.rules.choice import mc_letters
from studybench.verify.unit_qualifiers import asked_kinds, claimed_kind
from studybench.verify.verifier import Verdict, judge_inline


def _output(pred: str, gold: str, kind: str, question: str | None = None) -> Verdict:
    """A whole model output ``pred`` against a boxed gold."""
    return judge_inline(pred, f"\\boxed{{{gold}}}", kind, question=question)


# ---------------------------------------------------------------------------------------------
# An answer revised after the final box: the revision's last candidate of the asked kind
# ---------------------------------------------------------------------------------------------

OPTIONS = "Which quantity is conserved? (A) speed (B) momentum (C) energy (D) velocity"
STATEMENT = "True or false: in an elastic collision kinetic energy is conserved at every instant."
FLUX = "A magnet is pulled away from a coil. Does the flux through the coil increase or decrease?"
TILT = "Find the range of angles $\\theta$ for which the block stays at rest."
ATWOOD = "Write Newton's second law for the hanging mass $m$ (tension $T$, acceleration $a$)."
SLIDE = "A block slides from rest down a frictionless ramp of height $h$. Find its speed."
TOSS = "A ball is thrown up at 6.6 m/s. Find the times at which it is 1.0 m above the launch."
KINETIC = "A 2.0 kg cart moves at 1.5 m/s. Find its kinetic energy."
BOX = "\n\n**Final Answer**\n\\[\\boxed{%s}\\]\n\n%s"

REVISIONS = [
    # (question, gold, kind, box, text after it, correct)
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "Hmm, but energy in total is conserved too, so I'd go with C.",
        False,
    ),
    (OPTIONS, "B", "MC", "B", "Wait, I'll change my answer to C.", False),
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "Let me reconsider. Energy is conserved too, so C is more complete.",
        False,
    ),
    (OPTIONS, "B", "MC", "B", "Though honestly I lean towards D here.", False),
    (OPTIONS, "B", "MC", "B", "My vote: C.", False),
    (OPTIONS, "B", "MC", "B", "Wait, let me double-check: C ignores friction, so B stands.", True),
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "Actually, option (C) would be right if the surface were frictionless.",
        True,
    ),
    (
        OPTIONS,
        "B",
        "MC",
        "B",
        "Actually, A and D are both incorrect because they are not conserved.",
        True,
    ),
    (OPTIONS, "B", "MC", "B", "Note that A and D change in the collision.", True),
    (STATEMENT, "\\text{False}", "TF", "\\text{False}", "Hmm, on reflection it is true.", False),
    (
        STATEMENT,
        "\\text{True}",
        "TF",
        "\\text{True}",
        "On second thought, during contact the statement as written is false.",
        False,
    ),
    (STATEMENT, "\\text{True}", "TF", "\\text{True}", "My vote: False.", False),
    (
        STATEMENT,
        "\\text{True}",
        "TF",
        "\\text{True}",
        "Actually, let me double-check: yes, it is true.",
        True,
    ),
    (
        STATEMENT,
        "\\text{True}",
        "TF",
        "\\text{True}",
        "Wait, that is not false: the statement holds.",
        True,
    ),
    (
        FLUX,
        "\\text{decreases}",
        "QL",
        "\\text{decreases}",
        "Actually, by Lenz's law the flux increases.",
        False,
    ),
    (
        FLUX,
        "\\text{decreases}",
        "QL",
        "\\text{decreases}",
        "Though honestly I lean towards increases here.",
        False,
    ),
    (
        FLUX,
        "\\text{decreases}",
        "QL",
        "\\text{decreases}",
        "Wait, let me check: the magnet moves away, so the flux decreases.",
        True,
    ),
    (
        FLUX,
        "\\text{decreases}",
        "QL",
        "\\text{decreases}",
        "The induced current opposes the change.",
        True,
    ),
    (
        TILT,
        "[0, \\frac{\\pi}{4}]",
        "IN",
        "[0, \\frac{\\pi}{4}]",
        "Hmm, I think the right end should be open: $[0, \\pi/4)$.",
        False,
    ),
    (
        TILT,
        "[0, \\frac{\\pi}{4}]",
        "IN",
        "[0, \\frac{\\pi}{4}]",
        "Wait, I made an error: the interval is $[0, \\pi/3]$.",
        False,
    ),
    (
        TILT,
        "[0, \\frac{\\pi}{4}]",
        "IN",
        "[0, \\frac{\\pi}{4}]",
        "Actually, let me double-check: $[0, \\pi/4]$ it is.",
        True,
    ),
    (
        ATWOOD,
        "mg - T = ma",
        "EQ",
        "mg - T = ma",
        "Actually, with downward positive it is $T - mg = ma$.",
        False,
    ),
    (
        ATWOOD,
        "mg - T = ma",
        "EQ",
        "mg - T = ma",
        "Hmm, on reflection the correct form is $mg + T = ma$.",
        False,
    ),
    (
        ATWOOD,
        "mg - T = ma",
        "EQ",
        "mg - T = ma",
        "Wait, let me re-check: $ma = mg - T$, as above.",
        True,
    ),
    (
        SLIDE,
        "\\sqrt{2gh}",
        "EX",
        "\\sqrt{2gh}",
        "Hmm, on reflection the block rolls, so it is $\\sqrt{4gh/3}$ instead.",
        False,
    ),
    (SLIDE, "\\sqrt{2gh}", "EX", "\\sqrt{2gh}", "My vote: $\\sqrt{gh}$.", False),
    (
        SLIDE,
        "\\sqrt{2gh}",
        "EX",
        "\\sqrt{2gh}",
        "Wait, the result does not depend on the mass $m$.",
        True,
    ),
    (
        SLIDE,
        "\\sqrt{2gh}",
        "EX",
        "\\sqrt{2gh}",
        "Wait, the speed does not depend on the mass.",
        True,
    ),
    (KINETIC, "2.25\\,\\mathrm{J}", "NV", "2.25\\,\\mathrm{J}", "My vote: 4.5 J.", False),
    (
        KINETIC,
        "2.25\\,\\mathrm{J}",
        "NV",
        "2.25\\,\\mathrm{J}",
        "Hmm, I forgot the half: it is 4.5 J.",
        False,
    ),
    (
        KINETIC,
        "2.25\\,\\mathrm{J}",
        "NV",
        "2.25\\,\\mathrm{J}",
        "Wait, let me double-check: $\\tfrac12 (2.0)(1.5)^2 = 2.25$ J.",
        True,
    ),
    (
        KINETIC,
        "2.25\\,\\mathrm{J}",
        "NV",
        "2.25\\,\\mathrm{J}",
        "Actually, the momentum is 3.0 kg m/s, which does not matter here.",
        True,
    ),
    (
        KINETIC,
        "2.25\\,\\mathrm{J}",
        "NV",
        "2.25\\,\\mathrm{J}",
        "Hmm, if the speed were doubled it would be 9.0 J.",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "kind", "box", "after", "correct"), REVISIONS)
def test_an_answer_revised_after_the_box(
    question: str, gold: str, kind: str, box: str, after: str, correct: bool
) -> None:
    verdict = _output("Working." + BOX % (box, after), gold, kind, question)
    assert verdict.correct is correct, verdict


def test_an_alternative_revised_to_no_alternative() -> None:
    gold = "\\boxed{0.19\\,\\mathrm{s}} \\text{ or } \\boxed{1.16\\,\\mathrm{s}}"
    for after, correct in [
        ("Hmm, the question may mean when it lands... I'd go with 1.35 s.", False),
        ("Wait, the later time is 1.16 s, also fine.", True),
    ]:
        pred = "Working." + BOX % ("0.19\\,\\mathrm{s}", after)
        assert judge_inline(pred, gold, "ALT", "NV,NV", question=TOSS).correct is correct


@pytest.mark.parametrize(
    ("tail", "option", "truth"),
    [
        ("Wait, I'd go with C.", "C", None),
        ("Hmm. C is wrong, so B.", "B", None),
        ("Actually, a block moves. B stands.", "B", None),
        ("On reflection the statement is not true.", None, "False"),
        ("Actually it's true only for point masses, so false.", None, "False"),
    ],
)
def test_the_last_candidate_of_a_revision(tail: str, option: str | None, truth: str | None) -> None:
    region = revision(tail)
    assert region is not None
    assert last_option(region) == option
    assert last_truth(region) == truth


def test_no_revision_without_a_cue() -> None:
    assert revision("The induced current opposes the change in flux.") is None
    assert revised_phrase("Actually, the flux increases.", "\\text{decreases}") == "increases"
    assert revised_phrase("Actually, the flux decreases.", "\\text{decreases}") is None


# ---------------------------------------------------------------------------------------------
# Options struck out after the box are no second answer
# ---------------------------------------------------------------------------------------------

ELIMINATIONS = [
    ("\\boxed{B} -- A, C, D eliminated.", True),
    ("\\boxed{B} (A, C and D are eliminated).", True),
    ("\\boxed{B}; options A, C and D are incorrect.", True),
    ("\\boxed{B} — A, C, D are all wrong.", True),
    ("\\boxed{B} — B is wrong.", False),
    ("\\boxed{B} -- A, B, D eliminated.", False),
    ("\\boxed{B} (B and D are eliminated).", False),
    ("\\boxed{B} — A.", False),
]


@pytest.mark.parametrize(("pred", "correct"), ELIMINATIONS)
def test_options_eliminated_after_the_box(pred: str, correct: bool) -> None:
    assert _output("Final answer: " + pred, "B", "MC", OPTIONS).correct is correct


# ---------------------------------------------------------------------------------------------
# Several options in one box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("ABD", {"A", "B", "D"}),
        ("AC", {"A", "C"}),
        ("\\{A, C\\}", {"A", "C"}),
        ("A \\& C", {"A", "C"}),
        ("DBA", None),  # capitals out of order: a word, not a list of options
        ("BAD", None),
        ("", None),
    ],
)
def test_several_options_in_one_box(text: str, letters: set[str] | None) -> None:
    found = mc_letters(text)
    assert (None if found is None else set(found)) == letters


def test_a_multiple_answer_gold_written_together() -> None:
    for pred, correct in [
        ("A, B, D", True),
        ("(A), (B), (D)", True),
        ("\\text{A, B, and D}", True),
        ("AB", False),
        ("ABCD", False),
    ]:
        assert _output(f"\\boxed{{{pred}}}", "ABD", "MC").correct is correct, pred


# ---------------------------------------------------------------------------------------------
# A short phrase: lists in any order, synonyms, no item more
# ---------------------------------------------------------------------------------------------

MIRROR = "Describe the image of a real object formed by a convex spherical mirror."
PHRASES = [
    ("\\text{Upright, virtual, and smaller than the object}", True),
    ("\\text{virtual, erect and diminished}", True),
    ("\\text{diminished, virtual, upright}", True),
    ("\\text{virtual, inverted, diminished}", False),
    ("\\text{virtual, upright}", False),
    ("\\text{virtual, upright, diminished, real}", False),
    ("\\text{virtual, upright or diminished}", False),
    ("\\text{not real, upright, diminished}", False),
]


@pytest.mark.parametrize(("pred", "correct"), PHRASES)
def test_a_list_of_descriptions(pred: str, correct: bool) -> None:
    verdict = _output(f"\\boxed{{{pred}}}", "\\text{virtual, upright, diminished}", "QL", MIRROR)
    assert verdict.correct is correct, verdict


@pytest.mark.parametrize(
    ("pred", "correct"),
    [("anticlockwise", True), ("anti-clockwise", True), ("clockwise", False)],
)
def test_a_synonym_of_a_direction(pred: str, correct: bool) -> None:
    verdict = _output(f"\\boxed{{\\text{{{pred}}}}}", "\\text{counterclockwise}", "QL")
    assert verdict.correct is correct


# ---------------------------------------------------------------------------------------------
# The kind of an alternating value: claimed by a label or a word after the box
# ---------------------------------------------------------------------------------------------

RMS = "An AC source has a peak voltage of 170 V. What is its rms voltage?"
PEAK = "An AC source has an rms voltage of 120 V. What is its peak voltage?"
KINDS = [
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\ \\text{V rms}}", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\ \\text{Vrms}}", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\ \\text{V (rms)}}", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\ \\mathrm{V}\\ (\\text{rms})}", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\ \\mathrm{V_{RMS}}}", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{V_{\\text{rms}} = 120\\,\\mathrm{V}}", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\,\\mathrm{V}} (rms)", True),
    (PEAK, "170\\,\\mathrm{V}", "\\boxed{V_{\\text{rms}} = 170\\,\\mathrm{V}}", False),
    (PEAK, "170\\,\\mathrm{V}", "\\boxed{170\\,\\mathrm{V}} (rms)", False),
    (PEAK, "170\\,\\mathrm{V}", "\\boxed{V_{pp} = 170\\,\\mathrm{V}}", False),
    (PEAK, "170\\,\\mathrm{V}", "\\boxed{V_{\\max} = 170\\,\\mathrm{V}}", True),
    (PEAK, "170\\,\\mathrm{V}", "\\boxed{170\\,\\mathrm{V}} peak", True),
    (RMS, "120\\,\\mathrm{V}", "\\boxed{120\\,\\mathrm{V}} peak", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), KINDS)
def test_the_kind_of_an_alternating_value(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output("Working.\n\n" + pred, gold, "NV", question)
    assert verdict.correct is correct, verdict


def test_kinds_are_read_in_the_asked_order() -> None:
    assert asked_kinds("Find the peak current and the rms current.") == ["peak", "rms"]
    assert asked_kinds("Find the peak-to-peak voltage.") == ["pp"]
    assert claimed_kind("I_{\\max} = 2.0\\,A", "") == "peak"
    assert claimed_kind("2.0\\,A", " (amplitude)") == "peak"
    assert claimed_kind("2.0\\,A", " because the peak is 2.8 A") is None
    question = "Find (a) the peak current and (b) the rms current."
    gold = "\\boxed{2.0\\,\\mathrm{A}}, \\boxed{1.41\\,\\mathrm{A}}"
    for pred, correct in [
        ("(a) $\\boxed{2.0\\,\\mathrm{A}}$ peak (b) $\\boxed{1.41\\,\\mathrm{A}}$ rms", True),
        ("(a) $\\boxed{2.0\\,\\mathrm{A}}$ rms (b) $\\boxed{1.41\\,\\mathrm{A}}$ peak", False),
    ]:
        assert judge_inline(pred, gold, "TUP", "NV,NV", question=question).correct is correct


# ---------------------------------------------------------------------------------------------
# The reference of an angle: after the box, in tuples and alternatives, axes and bearings
# ---------------------------------------------------------------------------------------------

LAUNCH = (
    "A ball leaves the table at 20 m/s and lands with vertical speed 9.8 m/s. At what angle "
    "above the horizontal does it land?"
)
FORCE = (
    "A force has components F_x = 4.0 N and F_y = 3.0 N. What angle does the force make with "
    "the x-axis?"
)
BOAT = "A boat moves 3.0 m/s north and 4.0 m/s east. At what angle north of east does it move?"
REFRACTION = (
    "Light in air strikes glass (n = 1.50) at 45° from the normal. At what angle from the "
    "normal does the refracted ray travel?"
)
REFERENCES = [
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ} from the vertical", False),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ} below the horizontal", False),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ} (measured from the vertical)", False),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ} measured from the zenith", False),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ \\text{ with the wall}}", False),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ \\text{ from the rod}}", False),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ} above the horizontal", True),
    (LAUNCH, "26^\\circ", "\\boxed{26^\\circ} to two significant figures", True),
    (FORCE, "36.9^\\circ", "\\boxed{36.9^\\circ \\text{ from the positive } x\\text{-axis}}", True),
    (FORCE, "36.9^\\circ", "\\boxed{36.9^\\circ \\text{ above the } +x \\text{ axis}}", True),
    (
        FORCE,
        "36.9^\\circ",
        "\\boxed{36.9^\\circ \\text{ counterclockwise from the } x\\text{-axis}}",
        True,
    ),
    (FORCE, "36.9^\\circ", "\\boxed{\\theta = 36.9^\\circ \\text{ from } +\\hat{x}}", True),
    (
        FORCE,
        "36.9^\\circ",
        "\\boxed{36.9^\\circ \\text{ from the negative } x\\text{-axis}}",
        False,
    ),
    (FORCE, "36.9^\\circ", "\\boxed{36.9^\\circ \\text{ from the } y\\text{-axis}}", False),
    (BOAT, "36.9^\\circ", "\\boxed{36.9^\\circ \\text{ N of E}}", True),
    (BOAT, "36.9^\\circ", "\\boxed{36.9^\\circ} east of north", False),
    (BOAT, "36.9^\\circ", "\\boxed{36.9^\\circ} from the north", False),
    (REFRACTION, "28.1^\\circ", "\\boxed{28.1^\\circ \\text{ from the surface normal}}", True),
    (REFRACTION, "28.1^\\circ", "\\boxed{28.1^\\circ} with respect to the glass surface", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), REFERENCES)
def test_the_reference_of_an_angle_wherever_written(
    question: str, gold: str, pred: str, correct: bool
) -> None:
    verdict = _output("Working.\n\n**Final Answer**\n" + pred, gold, "NV", question)
    assert verdict.correct is correct, verdict


def test_the_reference_in_tuples_and_alternatives() -> None:
    question = (
        "A ray in glass (n = 1.5) meets air. Find (a) the critical angle and (b) the speed of "
        "light in the glass."
    )
    gold = "\\boxed{41.8^\\circ}, \\boxed{2.00\\times10^{8}\\,\\mathrm{m/s}}"
    for first, correct in [("from the surface", False), ("from the normal", True)]:
        speed = "\\boxed{2.00\\times10^{8}\\,\\mathrm{m/s}}"
        pred = f"(a) $\\boxed{{41.8^\\circ}}$ {first} (b) ${speed}$"
        assert judge_inline(pred, gold, "TUP", "NV,NV", question=question).correct is correct
    launch = "At what launch angle above the horizontal does a 20 m/s ball land 30 m away?"
    alt = "\\boxed{23.7^\\circ} \\text{ or } \\boxed{66.3^\\circ}"
    for after, correct in [("below the horizontal", False), ("above the horizontal", True)]:
        pred = f"**Final Answer**\n\\[\\boxed{{66.3^\\circ}}\\] {after}"
        assert judge_inline(pred, alt, "ALT", "NV,NV", question=launch).correct is correct


def test_a_reference_after_the_box_is_read_with_it() -> None:
    assert reference_after("26^\\circ", " (measured from the vertical).") == (
        "26^\\circ\\text{ from the vertical}"
    )
    assert reference_after("26^\\circ", " to two significant figures") == "26^\\circ"
    ramp = "What angle above the ramp surface makes the pull most effective?"
    assert with_agreed_reference("21.8^\\circ \\text{ above the incline}", ("21.8°",), ramp)


# ---------------------------------------------------------------------------------------------
# An equation whose gold has a function on the left: solved for its bare right side too
# ---------------------------------------------------------------------------------------------

SLIP = "A block on an incline of angle θ is about to slip. Write the relation between θ and μ_s."


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\sin\\theta = \\mu_s\\cos\\theta", True),
        ("mg\\sin\\theta = \\mu_s mg\\cos\\theta", True),
        ("\\theta = \\arctan\\mu_s", True),
        ("\\sin\\theta = 2\\mu_s\\cos\\theta", False),
        ("\\cos\\theta = \\mu_s\\sin\\theta", False),
        ("\\sin\\theta = \\mu_s", False),
        ("\\tan\\theta = \\mu_s^2", False),
    ],
)
def test_an_equation_solved_for_its_bare_right_side(pred: str, correct: bool) -> None:
    assert _output(f"\\boxed{{{pred}}}", "\\tan\\theta = \\mu_s", "EQ", SLIP).correct is correct


# ---------------------------------------------------------------------------------------------
# A name with an extreme before a colon is a label where the question asks for it
# ---------------------------------------------------------------------------------------------

ROOF = (
    "A ball is thrown up from a 5.0 m roof at 11.3 m/s. Find the maximum height above the ground."
)


@pytest.mark.parametrize(
    ("box", "correct"),
    [
        ("\\text{Maximum height: } 11.5\\text{ m}", True),
        ("\\text{Maximum height: 11.5 m}", True),
        ("\\text{Max height: } 11.5\\text{ m}", True),
        ("\\text{Maximum height: } 12.5\\text{ m}", False),
        ("\\text{Time of flight: } 11.5\\text{ s}", False),
        ("\\text{Speed: } 11.5\\text{ m}", False),
    ],
)
def test_an_extreme_names_the_asked_quantity(box: str, correct: bool) -> None:
    assert _output(f"So \\boxed{{{box}}}", "11.5 m", "NV", ROOF).correct is correct
