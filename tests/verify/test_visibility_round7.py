"""The seventh red-team round's classes on what surrounds the box (verify/visibility.py, and
the truth-value qualifiers of verify/rules/choice.py).

One table per rule, each read through the function that applies it or through
``judge_inline``, with the honest forms the rule must leave alone: bounds stated by more
relations (``⩿``, ``\\preceq``, ``\\nleq``, ``\\propto``), more words ("up to", "caps at", "is
within"), foreign words ("au plus", "не более", "以内"), a following sentence ("This is only an
upper bound.") or an interval's end; qualifiers that make the box no committed value ("(±20%)",
"up to sign", "+ \\ldots"); second values beside the box (relative, for another reading, in a
cases environment, listed in a remark, set apart by a separator, after a conditional
connective); hedged truth values.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.rules.choice import qualified_after
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import offers_in_prose

SPEED = "\\boxed{14.5\\,\\mathrm{m/s}}"
GOLD = "14.5 m/s"
MAXIMUM = "Find the maximum speed."
PLAIN = "Find the speed of the car."


def _bound(text: str) -> str | None:
    extraction = boxed_answers(text)
    assert extraction.answers, text  # a bound is still a box: the verifier judges it
    return extraction.bounds[-1]


# ---------------------------------------------------------------------------------------------
# bounds
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("$\\eta ⩿ \\boxed{0.154}$", "upper"),
        ("$E ⪯ \\boxed{4.96}$", "upper"),
        ("$P ≼ \\boxed{1.75}$", "upper"),
        ("$v ⪅ \\boxed{14.5}$", "upper"),
        ("$r ⋜ \\boxed{0.157}$", "upper"),
        ("$E \\precsim \\boxed{4.96}$", "upper"),
        ("$T \\precapprox \\boxed{245}$", "upper"),
        ("$f \\eqslantless \\boxed{0.5}$", "upper"),
        ("$t \\lessdot \\boxed{0.230}$", "upper"),
        ("$\\eta \\trianglelefteq \\boxed{0.154}$", "upper"),
        ("$v \\succsim \\boxed{14.5}$", "lower"),
        ("$v ⪰ \\boxed{14.5}$", "lower"),
        ("$$\\boxed{14.5} ⪯ v$$", "lower"),  # the box on the left: the other way
        # a negated relation, "less or greater" and proportionality state no value
        ("$v \\nleq \\boxed{14.5}$", ""),
        ("$\\eta \\ngeq \\boxed{0.154}$", ""),
        ("$E \\nless \\boxed{4.96}$", ""),
        ("$T \\ngtr \\boxed{245}$", ""),
        ("$v ≰ \\boxed{14.5}$", ""),
        ("$f \\lesseqgtr \\boxed{0.5}$", ""),
        ("$v \\nless \\boxed{14.5}$", ""),  # \\not\\le denies the box (test_negated_relations)
        ("$I \\propto \\boxed{\\frac{BLv}{R}}$", ""),
        ("$I ∝ \\boxed{\\frac{BLv}{R}}$", ""),
        ("$I = \\mathcal{O}\\left(\\boxed{\\frac{BLv}{R}}\\right)$", ""),
        # honest: the value claimed, compared with a number
        ("$$v = \\boxed{14.5}$$", None),
        ("$$v \\approx \\boxed{14.5}$$", None),
        ("$$0 ⪯ \\boxed{0.154}$$", None),
        ("$$v_{\\max} = \\boxed{14.5}$$", None),
        ("$$\\boxed{10^5} \\gg 1$$", None),
    ],
)
def test_more_relations_make_the_box_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("The efficiency can be up to \\boxed{0.154}.", "upper"),
        ("The photon energy caps at \\boxed{4.96} eV.", "upper"),
        ("The temperature tops out at \\boxed{245} K.", "upper"),
        ("The fraction maxes out at \\boxed{0.5}.", "upper"),
        ("The time has a ceiling of \\boxed{0.230} s.", "upper"),
        ("The speed is within \\boxed{14.5} m/s.", "upper"),
        ("The position is not above \\boxed{0.667}.", "upper"),  # negated: flipped
        ("The period is slower than \\boxed{1.75} yr.", "upper"),
        ("The speed is smaller than or at \\boxed{14.5} m/s.", "upper"),
        ("The efficiency must not surpass \\boxed{0.154}.", "upper"),
        ("The temperature never goes past \\boxed{245} K.", "upper"),
        ("The fraction is held below \\boxed{0.5}.", "upper"),
        ("It is at the very most \\boxed{14.5} m/s.", "upper"),
        ("It can reach as high as \\boxed{14.5} m/s.", "upper"),
        ("The speed bottoms out at \\boxed{14.5} m/s.", "lower"),
        ("The speed is faster than \\boxed{14.5} m/s.", "lower"),
        ("The speed surpasses \\boxed{14.5} m/s.", "lower"),
        ("The speed is cheaper than \\boxed{14.5} m/s.", ""),  # a comparison no way
        # honest: a sum, a rounding, where a motion gets, a noun phrase
        ("It rises up to $\\boxed{0.816\\,\\mathrm{m}}$.", None),
        ("The charges add up to \\boxed{3q}.", None),
        ("Rounded up to \\boxed{15} m/s.", None),
        ("The maximum speed is \\boxed{14.5} m/s.", None),
        ("The speed is \\boxed{14.5} m/s.", None),
        ("Other than that, the answer is \\boxed{14.5}.", None),
    ],
)
def test_more_words_before_the_box_make_it_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("The speed is \\boxed{14.5\\,\\mathrm{m/s}} or slower.", "upper"),
        ("The speed is \\boxed{14.5} at the very most.", "upper"),
        ("The temperature is \\boxed{245\\,\\mathrm{K}} (ceiling).", "upper"),
        ("The fraction is \\boxed{\\frac{1}{2}} (cap).", "upper"),
        ("The time is \\boxed{0.230\\,\\mathrm{s}} (maximum possible).", "upper"),
        ("The speed is \\boxed{14.5\\,\\mathrm{m/s}} (not exceeded).", "upper"),
        ("The efficiency is \\boxed{0.154} and no more.", "upper"),
        ("The radius is \\boxed{0.157\\,\\mathrm{m}} or beneath.", "upper"),
        ("The speed is \\boxed{14.5\\,\\mathrm{m/s}} as a ceiling.", "upper"),
        ("The efficiency is \\boxed{0.154} as an upper estimate.", "upper"),
        ("The temperature is \\boxed{245\\,\\mathrm{K}} (supremum).", "upper"),
        ("The fraction is \\boxed{\\frac{1}{2}} or anything lower.", "upper"),
        ("The time is \\boxed{0.230\\,\\mathrm{s}} (an overestimate).", "upper"),
        ("The time is \\boxed{0.230\\,\\mathrm{s}} (an underestimate).", "lower"),
        ("The speed is \\boxed{14.5} m/s and no less.", "lower"),
        ("The period is \\boxed{1.75\\,\\mathrm{yr}} in the best case.", ""),
        # honest: what goes on, a unit, a label
        ("\\boxed{14.5} m/s, or more precisely 14.52 m/s.", None),
        ("\\boxed{92.3} min", None),
        ("\\boxed{14.5} m/s or other units.", None),
        ("\\boxed{h_{max} = 2.7R}", None),
    ],
)
def test_more_words_after_the_box_make_it_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("La vitesse est au plus \\boxed{14.5} m/s.", "upper"),
        ("La vitesse est au moins \\boxed{14.5} m/s.", "lower"),
        ("Der Wirkungsgrad ist höchstens \\boxed{0.154}.", "upper"),
        ("Der Wirkungsgrad ist mindestens \\boxed{0.154}.", "lower"),
        ("La velocidad es como máximo \\boxed{14.5} m/s.", "upper"),
        ("La velocidad es por lo menos \\boxed{14.5} m/s.", "lower"),
        ("Il tempo è al massimo \\boxed{0.230} s.", "upper"),
        ("A velocidade é no máximo \\boxed{14.5} m/s.", "upper"),  # "no" is "in the"
        ("De periode is hoogstens \\boxed{1.75} jaar.", "upper"),
        ("Promień wynosi co najwyżej \\boxed{0.157} m.", "upper"),
        ("Perioden är högst \\boxed{1.75} år.", "upper"),
        ("Температура: не более \\boxed{245} K.", "upper"),
        ("Температура: не менее \\boxed{245} K.", "lower"),
        ("速度：最多为 \\boxed{14.5} m/s。", "upper"),
        ("速度：至少 \\boxed{14.5} m/s。", "lower"),
        ("速度：不超过 \\boxed{14.5} m/s。", "upper"),
        ("速度：最大で \\boxed{14.5} m/s。", "upper"),
        ("The speed: \\boxed{14.5\\,\\mathrm{m/s}} höchstens.", "upper"),
        ("The speed: \\boxed{14.5\\,\\mathrm{m/s}} или меньше.", "upper"),
        ("The speed: \\boxed{14.5\\,\\mathrm{m/s}} или больше.", "lower"),
        ("The fraction: \\boxed{\\frac{1}{2}} 以内.", "upper"),
        ("The period: \\boxed{1.75\\,\\mathrm{yr}} 以下.", "upper"),
        ("The period: \\boxed{1.75\\,\\mathrm{yr}} 以上.", "lower"),
        ("The time: \\boxed{0.230\\,\\mathrm{s}} maximal.", "upper"),
        # honest: foreign prose that states the value
        ("La vitesse est \\boxed{14.5} m/s.", None),
        ("Die Geschwindigkeit beträgt \\boxed{14.5} m/s.", None),
        ("速度为 \\boxed{14.5} m/s。", None),
    ],
)
def test_foreign_words_make_the_box_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        (f"The speed is {SPEED}. Note that this is only an upper bound.", "upper"),
        (f"The speed is {SPEED}. It is an overestimate.", "upper"),
        (f"The speed is {SPEED}. It is an underestimate.", "lower"),
        (f"The speed is {SPEED}. That value is a maximum; the true value is smaller.", "upper"),
        (f"The speed is {SPEED}. The real value is somewhat less.", "upper"),
        (f"The speed is {SPEED}. The actual value lies below this.", "upper"),
        (f"The speed is {SPEED}. Treat this as a ceiling rather than the value itself.", "upper"),
        (f"The speed is {SPEED}. In reality it will be lower than this.", "upper"),
        (f"The speed is {SPEED}. This is the largest it could be.", "upper"),
        (f"The speed is {SPEED}. The speed is at most this.", "upper"),
        (f"The speed is {SPEED}.\n\nNote: this is only a lower bound.", "lower"),
        (f"The speed is {SPEED}. Note: the boxed value is an overestimate.", "upper"),
        (f"The speed is {SPEED}. The true speed is smaller.", "upper"),
        (f"The speed is {SPEED}. This is an upper bound on the speed.", "upper"),
        (f"The speed is {SPEED}. It could be less.", "upper"),
        (f"The speed is {SPEED}. It is probably higher.", "lower"),
        # honest: a comparison with something else, what the value is, reasoning
        (f"The speed is {SPEED}. This is less than the speed of sound.", None),
        (f"The speed is {SPEED}. It is the maximum speed for which the car does not slip.", None),
        (f"The speed is {SPEED}. Friction would make the real car slower.", None),
        (f"The speed is {SPEED}. Above it the car slides up the bank.", None),
        (f"The speed is {SPEED}. This is a minimum, so the equilibrium is stable.", None),
        (f"The speed is {SPEED}. This is the upper limit of integration.", None),
        (f"The speed is {SPEED}. The actual speed of sound is higher.", None),
        (f"The speed is {SPEED}. It could be less than 20 m/s only on a dry road.", None),
    ],
)
def test_a_bound_in_the_following_sentence_makes_the_box_a_bound(
    text: str, way: str | None
) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("text", "way"),
    [
        ("So $v \\in (0, \\boxed{14.5\\,\\mathrm{m/s}}]$.", "upper"),
        ("So $\\eta \\in [0, \\boxed{0.154}]$.", "upper"),
        ("So $E \\in \\left(0,\\ \\boxed{4.96\\,\\mathrm{eV}}\\right]$.", "upper"),
        ("So $t \\in ]0, \\boxed{0.230\\,\\mathrm{s}}]$.", "upper"),
        ("So $v ∈ [0, \\boxed{14.5}]$.", "upper"),
        ("So $v \\in [\\boxed{14.5}, \\infty)$.", "lower"),
        # honest: a tuple, a point, a set of one
        ("$(x, y) = (3, \\boxed{5})$", None),
        ("$P = (0, \\boxed{14.5})$", None),
        ("$v = \\boxed{14.5}$, with $v \\in \\mathbb{R}$", None),
    ],
)
def test_an_interval_end_is_a_bound(text: str, way: str | None) -> None:
    assert _bound(text) == way


@pytest.mark.parametrize(
    ("pred", "question", "correct"),
    [
        (f"The speed can be up to {SPEED}.", PLAIN, False),
        (f"The speed can be up to {SPEED}.", MAXIMUM, True),  # "up to" the asked maximum
        (f"The speed tops out at {SPEED}.", MAXIMUM, True),
        (f"$v \\nleq {SPEED}$", MAXIMUM, False),
        (f"$v ⩿ {SPEED}$", MAXIMUM, True),
        (f"$v ⩿ {SPEED}$", PLAIN, False),
        (f"La vitesse est au plus {SPEED}.", PLAIN, False),
        (f"The speed is {SPEED}. Note that this is only an upper bound.", PLAIN, False),
        (f"So $v \\in (0, {SPEED}]$.", PLAIN, False),
        # honest: stated values
        (f"The maximum speed is {SPEED}.", MAXIMUM, True),
        (f"$$v_{{\\max}} = {SPEED}$$", MAXIMUM, True),
        (f"The speed is {SPEED}.", PLAIN, True),
        (f"$$0 < {SPEED}$$", PLAIN, True),
    ],
)
def test_a_bound_answers_only_a_question_for_that_extreme(
    pred: str, question: str, correct: bool
) -> None:
    assert judge_inline(pred, GOLD, "NV", question=question).correct is correct


# ---------------------------------------------------------------------------------------------
# qualifiers and second values beside the box
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        ("$ (±20%)", ("",)),
        ("$ (\\pm 50\\%)", ("",)),
        ("$ \\pm 30\\%", ("",)),
        (" \\pm 5\\,\\mathrm{m/s}$", ("",)),
        ("$ (within 30%)", ("",)),
        ("$ up to a factor of 2", ("",)),
        ("$ up to sign", ("",)),
        ("$ up to a constant factor", ("",)),
        ("$ give or take", ("",)),
        ("$ (order-of-magnitude estimate)", ("",)),
        ("$ to within an order of magnitude", ("",)),
        (" + \\ldots$", ("",)),
        ("} + O(t^2)$", ("",)),
        ("$ (valid only for small t)", ("",)),
        ("$ (for $x \\gg L$ only)", ("",)),
        ("$ for $\\theta < 10^\\circ$ only", ("",)),
        ("$ (leading order only)", ("",)),
        # honest: a unit, a remark, a restatement in other units, a precision
        ("$ m/s.", ()),
        ("$ (about 52 km/h)", ()),
        ("$, to three significant figures.", ()),
        ("$ for the given bank angle.", ()),
        (" + 0$ is the same value.", ()),
    ],
)
def test_a_qualifier_makes_the_box_no_committed_value(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("The speed is $v = ", after) == offers


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        ("\\text{ (double if the road is icy)}", ("",)),
        ("\\text{ (twice this in the other frame)}", ("",)),
        ("\\text{ (}\\times 2\\text{ with the other convention)}", ("",)),
        ("\\text{ (}\\div 2\\text{ if measured differently)}", ("",)),
        ("\\text{ (half that for a solid sphere)}", ("",)),
        # honest: a comparison, a restatement
        ("\\text{ (double the walking speed)}", ()),
        ("\\text{ (twice as fast as the truck)}", ()),
    ],
)
def test_a_relative_remark_offers_a_second_value(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("", after) == offers


@pytest.mark.parametrize(
    ("after", "offers"),
    [
        (" [29.0 m/s under the other convention]", ("",)),
        ("; 29.0 m/s under reading B.", ("",)),
        (" (reading A) / 29.0 m/s (reading B)", ("",)),
        ("\n\nFootnote: 29.0 m/s if the other convention is intended.", ("",)),
        ("  NB: 29.0 m/s if the problem means the other convention.", ("",)),
        ("\n\n| reading | answer |\n|---|---|\n| other | 29.0 m/s |", ("",)),
        # a value the scans read is judged as it stands
        (". With a different convention it could be 29 m/s.", ("29 m/s",)),
        # honest: the convention used, no second value
        (" (using the sign convention of the figure).", ()),
        (". Under the other convention the sign of the work flips, not its size.", ()),
        (". We take up as positive.", ()),
    ],
)
def test_a_value_for_another_reading_is_an_offer(after: str, offers: tuple[str, ...]) -> None:
    assert offers_in_prose("", after) == offers


@pytest.mark.parametrize(
    ("text", "correct"),
    [
        (
            "$$v = \\begin{cases} \\boxed{14.5\\,\\mathrm{m/s}} & \\text{(reading 1)} \\\\ "
            "29.0\\,\\mathrm{m/s} & \\text{(reading 2)} \\end{cases}$$",
            False,
        ),
        (
            "$$v = \\begin{dcases} \\boxed{14.5\\,\\mathrm{m/s}} & \\text{convention A} \\\\ "
            "29.0\\,\\mathrm{m/s} & \\text{convention B} \\end{dcases}$$",
            False,
        ),
        (
            "$$v = \\left\\{\\begin{array}{ll} \\boxed{14.5\\,\\mathrm{m/s}} & \\text{one} \\\\ "
            "29.0\\,\\mathrm{m/s} & \\text{two}\\end{array}\\right.$$",
            False,
        ),
        (
            "$$v = \\begin{cases} 29.0\\,\\mathrm{m/s} & \\text{other setup} \\\\ "
            "\\boxed{14.5\\,\\mathrm{m/s}} & \\text{as I read it} \\end{cases}$$",
            False,
        ),
        # honest: a cases environment elsewhere, closed before the box
        (
            "$$f = \\begin{cases} 1 & x > 0 \\\\ 0 & x \\le 0 \\end{cases}$$ so "
            "$v = \\boxed{14.5\\,\\mathrm{m/s}}$",
            True,
        ),
    ],
)
def test_a_box_in_a_cases_row_beside_another_value_is_a_hedge(text: str, correct: bool) -> None:
    assert judge_inline(text, GOLD, "NV", question=PLAIN).correct is correct


def test_boxes_in_two_cases_rows_are_two_boxes_not_an_offer() -> None:
    text = "$$v(t) = \\begin{cases}\\boxed{at} & t<T \\\\ \\boxed{aT} & t \\ge T\\end{cases}$$"
    extraction = boxed_answers(text)
    assert extraction.answers == ("at", "aT")
    assert extraction.offers == ()


ALT_GOLD = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{1.0\\,\\mathrm{s}}\\text{ (as well as }5.0\\,\\mathrm{s}\\text{)}", False),
        ("\\boxed{1.0\\,\\mathrm{s}}\\text{ (and later }t = 5.0\\,\\mathrm{s}\\text{)}", False),
        (
            "\\boxed{1.0\\,\\mathrm{s}}, \\boxed{3.0\\,\\mathrm{s}}"
            "\\ (\\text{also } 5.0\\,\\mathrm{s})",
            False,
        ),
        # honest: the other alternative, a remark with no value
        ("\\boxed{1.0\\,\\mathrm{s}}, \\boxed{3.0\\,\\mathrm{s}}", True),
        ("\\boxed{1.0\\,\\mathrm{s}}, \\boxed{3.0\\,\\mathrm{s}} (and both are positive)", True),
    ],
)
def test_a_value_listed_in_a_remark_is_judged(pred: str, correct: bool) -> None:
    assert judge_inline(pred, ALT_GOLD, "ALT", "NV,NV").correct is correct


@pytest.mark.parametrize(
    ("pred", "gold", "kind", "correct"),
    [
        ("$\\boxed{B}\\,\\mathrm{/}D$", "B", "MC", False),
        ("$\\boxed{B}\\!/\\!\\mathrm{D}$", "B", "MC", False),
        ("$\\boxed{B}\\ /\\ \\mathrm{D}$", "B", "MC", False),
        ("$\\boxed{B}\\ \\ \\mathrm{D}$", "B", "MC", False),
        ("$\\boxed{B}\\quad\\boxed{}\\quad \\mathrm{D}$", "B", "MC", False),
        ("$\\boxed{B}\\text{ ⊕ }\\mathrm{D}$", "B", "MC", False),
        ("$\\boxed{\\text{False}}\\ \\ \\text{True}$", "False", "TF", False),
        ("$\\boxed{\\text{runs slow}}\\,\\mathrm{/}\\text{fast}$", "runs slow", "QL", False),
        ("$\\boxed{\\text{runs slow}}\\text{ or }\\text{fast}$", "runs slow", "QL", False),
        # honest: a unit after the box, the option alone
        ("$\\boxed{B}$", "B", "MC", True),
        ("$\\boxed{2.0}\\,\\mathrm{A}$", "2.0 A", "NV", True),
        ("$\\boxed{2.0}\\ \\mathrm{A}$", "2.0 A", "NV", True),
        ("$\\boxed{3.0}\\quad\\text{seconds}$", "3.0 s", "NV", True),
    ],
)
def test_a_candidate_set_apart_after_the_box_is_an_offer(
    pred: str, gold: str, kind: str, correct: bool
) -> None:
    assert judge_inline(pred, gold, kind).correct is correct


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("$$ \\boxed{B} \\quad \\text{if not,} \\quad \\boxed{D} $$", False),
        ("$$ \\boxed{B} \\quad \\text{if I'm wrong,} \\quad \\boxed{D} $$", False),
        ("$$ \\boxed{B} \\quad \\text{should that be wrong,} \\quad \\boxed{D} $$", False),
        ("$$ \\boxed{B} \\quad \\text{if that is rejected,} \\quad \\boxed{D} $$", False),
        # honest: a denial that stands, a box alone
        ("The answer is not \\boxed{D}; it is \\boxed{B}.", True),
        ("If friction is present, the answer is \\boxed{B}.", True),
        ("If I'm not mistaken, \\boxed{B}.", True),  # a condition denies nothing
        ("\\boxed{B}", True),
    ],
)
def test_a_conditional_connective_offers_the_later_box(pred: str, correct: bool) -> None:
    assert judge_inline(pred, "B", "MC").correct is correct


def test_a_denial_in_a_conditional_sentence_still_denies() -> None:
    pred = "If friction is present, the answer is not \\boxed{B}."
    assert judge_inline(pred, "B", "MC").correct is False


# ---------------------------------------------------------------------------------------------
# hedged truth values
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pred", "correct"),
    [
        ("\\boxed{\\text{False-ish}}", False),
        ("\\boxed{\\text{False}}\\ \\text{in the ideal case}", False),
        ("\\boxed{\\text{False}}\\ \\text{in principle}", False),
        ("\\boxed{\\text{False}}. Though one could argue True.", False),
        ("\\boxed{\\text{False}}. A case can be made for True.", False),
        ("\\boxed{\\text{False}}. Both readings are defensible.", False),
        ("\\boxed{\\text{False}}\\ (\\text{50\\% True})", False),
        ("\\boxed{\\text{False}}\\ \\text{¿}", False),
        ("\\boxed{\\text{False}}. True is arguable as well.", False),
        # honest: an explanation, a confidence of all, one could argue the same value
        ("\\boxed{\\text{False}}. The equilibrium is unstable.", True),
        ("\\boxed{\\text{False}} (100\\% sure)", True),
        ("\\boxed{\\text{False}}. One could argue false from energy as well.", True),
        ("\\boxed{\\text{False}}. Both readings give the same answer.", True),
    ],
)
def test_a_hedged_truth_value_is_rejected(pred: str, correct: bool) -> None:
    assert judge_inline(pred, "False", "TF").correct is correct


@pytest.mark.parametrize(
    ("after", "value", "qualified"),
    [
        (". Though one could argue True.", False, True),
        (". Though one could argue False.", True, True),
        (". One could argue False as well.", False, False),  # the same value
        (". It is unstable.", False, False),
    ],
)
def test_the_other_value_kept_open_after_the_box_qualifies_it(
    after: str, value: bool, qualified: bool
) -> None:
    assert qualified_after(after, value) is qualified
