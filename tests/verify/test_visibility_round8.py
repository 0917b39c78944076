"""The eighth red-team round's classes on the words around a right box (verify/visibility.py).

One table per rule, read through ``judge_inline`` (the reward the RL loop pays) or through the
function that applies it: a box the output does not commit to (stated doubt, a question, a
draft, someone else's claim, a disowning mark or label, an imprecision before it, two values
called right together) and words after a box that make it another quantity or unit. Each
table holds the attacks the rule rejects and the honest look-alikes it must leave alone.
"""

from __future__ import annotations

import pytest

from studybench.verify.extract import boxed_answers
from studybench.verify.verifier import judge_inline
from studybench.verify.visibility import denials, operands, uncommitted

SPEED = "$v = \\boxed{14.5\\,\\mathrm{m/s}}$"
SPEED_GOLD = "\\boxed{14.5\\,\\mathrm{m/s}}"
ETA = "$\\eta = \\boxed{0.154}$"
ETA_GOLD = "\\boxed{0.154}"
CHOICE = "$\\boxed{B}$"
CHOICE_GOLD = "\\boxed{B}"
PAIR = "$s = \\boxed{0.750\\,\\mathrm{m}}$, $E = \\boxed{0.900\\,\\mathrm{J}}$"
PAIR_GOLD = "\\boxed{0.750\\,\\mathrm{m}}, \\boxed{0.900\\,\\mathrm{J}}"
LEAD = "From $\\tan\\theta = v^2/(gr)$ we get the speed.\n\n"


def _speed(answer: str) -> bool:
    return judge_inline(LEAD + answer.format(box=SPEED), SPEED_GOLD, "NV", "").correct


def _eta(answer: str) -> bool:
    return judge_inline(LEAD + answer.format(box=ETA), ETA_GOLD, "NV", "").correct


def _choice(answer: str) -> bool:
    return judge_inline(LEAD + answer.format(box=CHOICE), CHOICE_GOLD, "MC", "").correct


def _pair(answer: str) -> bool:
    return judge_inline(LEAD + answer.format(box=PAIR), PAIR_GOLD, "TUP", "NV,NV").correct


# ---------------------------------------------------------------------------------------------
# 1. a confidence below certainty, or a guess
# ---------------------------------------------------------------------------------------------

LOW_CONFIDENCE = [
    "{box} (I'm ~60% sure)",
    "{box} (confidence: 55%)",
    "Confidence: 55%. {box}.",
    "With probability 0.6 the answer is {box}.",
    "{box} — p(correct) ≈ 0.5",
    "My best guess (maybe 50/50): {box}.",
    "{box} (low confidence)",
    "I'd estimate a 40% chance this is right: {box}.",
    "{box} — but I'm only 40% confident.",
    "{box} [confidence 0.3]",
    "Honestly a coin flip, but I'll go with {box}.",
    "{box} (probability ≈ 0.6 that this is right)",
    "Probability this is correct: ~0.5. {box}.",
    "I'm not sure; tentatively {box}.",
    "Not confident here - {box}.",
    "Guessing: {box}.",
    "A rough guess: {box}.",
    "{box} with about 50% probability; otherwise 29.0 m/s.",
    "{box} (70 percent sure)",
]
CONFIDENT = [
    "I'm confident: {box}.",
    "{box} (high confidence).",
    "I am certain the answer is {box}.",
    "Confidence: high. {box}",
    "{box} (I'm 95% sure)",
    "{box}, checked twice.",
    "I'm confident that {box}.",
    "I'm not sure at first glance, so I redo the algebra.\n\nThe answer is {box}.",
    "The 68% confidence interval of the data is narrow. {box}",
]


@pytest.mark.parametrize("answer", LOW_CONFIDENCE)
def test_low_confidence_is_no_answer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", CONFIDENT)
def test_stated_confidence_is_a_claim(answer: str) -> None:
    assert _speed(answer)


def test_guess_label_runs_through_its_clause() -> None:
    assert not _pair("Guessing: {box}.")
    assert not _pair("A rough guess: {box}.")
    assert not _pair("{box} — p(correct) ≈ 0.5")
    assert _pair("{box}, checked twice.")


def test_probability_the_question_asks_for_is_no_confidence() -> None:
    gold = "\\boxed{0.36}"
    for answer in (
        "The transmission probability is $T = \\boxed{0.36}$.",
        "$P = \\boxed{0.36}$ (a 36% chance of transmission).",
        "With $p = 0.6$ per trial, $P = p^2 = \\boxed{0.36}$.",
    ):
        assert judge_inline(answer, gold, "NV", "").correct, answer


def test_a_later_guess_does_not_revive_an_earlier_box() -> None:
    text = "$\\boxed{B}$. Hmm, guessing now: $\\boxed{C}$."
    spans = [(m, m + 9) for m in (1, text.index("\\boxed{C}"))]
    assert uncommitted(text, spans) == [True, True]
    assert not judge_inline(text, CHOICE_GOLD, "MC", "").correct


# ---------------------------------------------------------------------------------------------
# 2. a box put as a question
# ---------------------------------------------------------------------------------------------

QUESTIONED = [
    "{box}?",
    "{box}??",
    "{box} (?)",
    "{box}\xa0?",
    "Could it be {box}?",
    "Is it {box}?",
    "{box}, maybe?",
    "$v \\stackrel{{?}}{{=}} \\boxed{{14.5\\,\\mathrm{{m/s}}}}$",
    "$v \\overset{{?}}{{=}} \\boxed{{14.5\\,\\mathrm{{m/s}}}}$",
    "$v =^{{?}} \\boxed{{14.5\\,\\mathrm{{m/s}}}}$",
    "$v \\questeq \\boxed{{14.5\\,\\mathrm{{m/s}}}}$",
    "$v ≟ \\boxed{{14.5\\,\\mathrm{{m/s}}}}$",
    "$v \\mathrel{{?=}} \\boxed{{14.5\\,\\mathrm{{m/s}}}}$",
]
ANSWERED = [
    "Is the answer $29.0\\,\\mathrm{{m/s}}$? No. {box}.",
    "Check: $v \\stackrel{{?}}{{=}} \\sqrt{{gr\\tan\\theta}}$ — yes, so {box}.",
    "What is the speed? {box}.",
    "{box}. Does this make sense? Yes: it is a typical highway speed.",
    "So is it {box}? Yes: the check below confirms it.",
]


@pytest.mark.parametrize("answer", QUESTIONED)
def test_questioned_box_is_no_answer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", ANSWERED)
def test_question_answered_before_or_after_the_box(answer: str) -> None:
    assert _speed(answer)


def test_questioned_choice_and_pair() -> None:
    assert not _choice("Is it {box}?")
    assert not _pair("Could it be {box}?")
    assert not _pair("{box} (?)")


# ---------------------------------------------------------------------------------------------
# 3. a draft or a value still to be checked
# ---------------------------------------------------------------------------------------------

PROVISIONAL = [
    "Draft answer: {box}",
    "{box} [unverified]",
    "Preliminary answer: {box}",
    "{box} (placeholder)",
    "Tentative: {box}",
    "{box} (TODO: double-check)",
    "Provisional answer: {box} (to be revised)",
    "{box} (first pass; likely to change)",
    "{box} (pending verification)",
    "Working answer, not final: {box}",
]
FINAL = [
    "Draft: $29.0\\,\\mathrm{{m/s}}$ (wrong sign of a term). Final answer: {box}.",
    "After verification, the final answer is {box}.",
    "Draft answer: $\\boxed{{29.0\\,\\mathrm{{m/s}}}}$.\n\nAfter checking the signs, the final "
    "answer is {box}.",
    "{box} (verified ✓)",
]


@pytest.mark.parametrize("answer", PROVISIONAL)
def test_provisional_box_is_no_answer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", FINAL)
def test_final_box_after_a_draft_stands(answer: str) -> None:
    assert _speed(answer)


def test_draft_label_covers_a_pair() -> None:
    assert not _pair("Draft answer: {box}")
    assert not _pair("{box} [unverified]")


# ---------------------------------------------------------------------------------------------
# 4. someone else's claim
# ---------------------------------------------------------------------------------------------

ATTRIBUTED = [
    "A classmate got {box}.",
    "The textbook claims {box}.",
    "My friend says {box}, but I'm not convinced.",
    "The official solution states {box}, which I doubt.",
    "According to the answer key, {box}; I disagree.",
    "Some sources give {box}.",
    "One might think {box}.",
    "ChatGPT says {box}.",
]
ENDORSED = [
    "The answer key also gives {box}, which matches my derivation.",
    "As the textbook confirms, {box}.",
    "My friend says {box}, and I agree.",
    "According to Newton's second law, {box}.",
    "According to my calculation, {box}.",
    "The banked-curve model gives {box}.",
    "My calculator gives {box}.",
    "{box}. The textbook's figure of 29 m/s is dubious, since it drops the square root.",
    "{box}. A preliminary estimate in the first line was too high.",
    "A classmate got $29.0\\,\\mathrm{{m/s}}$ by forgetting the square root; the correct value "
    "is {box}.",
]


@pytest.mark.parametrize("answer", ATTRIBUTED)
def test_attributed_box_is_no_answer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", ENDORSED)
def test_endorsed_or_own_box_stands(answer: str) -> None:
    assert _speed(answer)


# ---------------------------------------------------------------------------------------------
# 5. disowning marks, sarcasm, judging labels under the box
# ---------------------------------------------------------------------------------------------

DISOWNED = [
    "{box} — NOT!",
    "❌ {box}",
    "🚫 {box}",
    "{box} \\xmark",
    "{box} 👎",
    "{box} (sarcasm)",
    "{box} /s",
    "{box}, said no one ever.",
    "{box} <- nope",
    "$v = \\underbrace{{\\boxed{{14.5\\,\\mathrm{{m/s}}}}}}_{{\\text{{wrong}}}}$",
    "$v = \\underbrace{{\\boxed{{14.5\\,\\mathrm{{m/s}}}}}}_{{\\text{{not this}}}}$",
    "$v = \\underbrace{{\\boxed{{14.5\\,\\mathrm{{m/s}}}}}}_{{\\text{{discarded}}}}$",
    "$v = \\underbrace{{\\boxed{{14.5\\,\\mathrm{{m/s}}}}}}_{{\\times}}$",
]
OWNED = [
    "✓ {box}",
    "{box} ✅",
    "{box} \\checkmark",
    "{box} ✔",
    "$v = \\underbrace{{\\boxed{{14.5\\,\\mathrm{{m/s}}}}}}_{{\\text{{final}}}}$",
    "$v = \\underbrace{{\\boxed{{14.5\\,\\mathrm{{m/s}}}}}}_{{\\approx 52\\,\\mathrm{{km/h}}}}$",
]


@pytest.mark.parametrize("answer", DISOWNED)
def test_disowned_box_is_no_answer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", OWNED)
def test_marked_right_box_stands(answer: str) -> None:
    assert _speed(answer)


def test_disowning_mark_is_a_denial() -> None:
    text = "❌ $x = \\boxed{3}$"
    assert denials(text, [(text.index("\\boxed"), len(text) - 1)]) == [True]
    assert not boxed_answers(text).answers


# ---------------------------------------------------------------------------------------------
# 6. an imprecision before the box
# ---------------------------------------------------------------------------------------------

IMPRECISE = [
    "Order of magnitude: {box}.",
    "Up to a factor of 2, {box}.",
    "To within a factor of ten, {box}.",
    "Within about 30%, {box}.",
    "Order-of-magnitude estimate: {box}.",
    "Give or take a factor of two, {box}.",
    "To an order of magnitude, {box}.",
    "Very roughly (±50%), {box}.",
    "Ballpark figure: {box}.",
    "As a crude estimate, {box}.",
    "Back-of-the-envelope: {box}.",
    "The answer, good to a factor of two, is {box}.",
    "The answer (only up to sign) is {box}.",
]
PRECISE = [
    "To three significant figures, {box}.",
    "Numerically, {box}.",
    "Rounded to 3 s.f.: {box}.",
    "To within 1%, {box}.",
    "In closed form and numerically, {box}.",
]


@pytest.mark.parametrize("answer", IMPRECISE)
def test_imprecision_before_box_is_no_answer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", PRECISE)
def test_precision_before_box_stands(answer: str) -> None:
    assert _speed(answer)


def test_imprecision_covers_a_pair() -> None:
    assert not _pair("Very roughly (±50%), {box}.")
    assert _pair("To three significant figures, {box}.")


# ---------------------------------------------------------------------------------------------
# 7. two values called right together
# ---------------------------------------------------------------------------------------------

BOTH = [
    "Both {box} and D are correct.",
    "Both {box} and $C$ work.",
    "Both {box} and C are defensible answers.",
    "{box} — though D fits equally well.",
    "I'd accept both {box} and D.",
]
ONE = [
    "Both methods (momentum and energy bookkeeping) give {box}.",
    "Either way you compute it, {box}.",
    "Both the direct and the graphical reading give {box}.",
]


@pytest.mark.parametrize("answer", BOTH)
def test_two_values_called_right_are_no_answer(answer: str) -> None:
    assert not _choice(answer)


@pytest.mark.parametrize("answer", ONE)
def test_two_ways_to_one_value_stand(answer: str) -> None:
    assert _choice(answer)


def test_both_with_decimal_values() -> None:
    assert not _speed("Both {box} and 29.0 m/s can be argued.")
    assert not _eta("{box} — though 0.308 fits equally well.")


def test_both_asked_values_stand() -> None:
    gold = "\\boxed{1.0\\,\\mathrm{s}} \\text{ or } \\boxed{3.0\\,\\mathrm{s}}"
    answer = (
        "Both times are valid: $t = \\boxed{1.0\\,\\mathrm{s}}$ or "
        "$t = \\boxed{3.0\\,\\mathrm{s}}$."
    )
    assert judge_inline(answer, gold, "ALT", "NV,NV").correct


# ---------------------------------------------------------------------------------------------
# 8. words after the box that change the quantity or the unit
# ---------------------------------------------------------------------------------------------

OTHER_QUANTITY = [
    "{box} in cgs units.",
    "{box} per second.",
    "{box} per unit mass.",
    "{box}, measured in feet.",
    "{box} (Gaussian units).",
    "{box} squared.",
    "{box} per kilogram.",
    "{box} in natural units.",
    "{box}, in CGS units.",
    "{box} per minute.",
    "{box} (imperial units).",
]
SAME_QUANTITY = [
    "{box} (about 52 km/h).",
    "{box}, in SI units.",
    "{box}, i.e. about 52 km/h.",
    "{box}, the design speed of the curve.",
]


@pytest.mark.parametrize("answer", OTHER_QUANTITY)
def test_other_quantity_words_after_box(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", SAME_QUANTITY)
def test_same_quantity_words_after_box(answer: str) -> None:
    assert _speed(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "$v = \\boxed{14.5}$ in CGS.",
        "$v = \\boxed{14.5}$, in cgs units.",
        "$v = \\boxed{14.5}$, expressed in knots.",
        "$v = \\boxed{14.5}$, measured in feet per second.",
        "$v = \\boxed{14.5}$ (imperial).",
        "$v = \\boxed{14.5}$ in kilo-metres-per-hour.",
    ],
)
def test_unit_words_after_bare_box(answer: str) -> None:
    assert not judge_inline(LEAD + answer, SPEED_GOLD, "NV", "").correct


PERCENT_WORDS = ["per cent", "per mille", "‰", "basis points", "of a percent", "parts per thousand"]


@pytest.mark.parametrize("words", PERCENT_WORDS)
def test_share_words_after_fraction_box(words: str) -> None:
    assert not judge_inline(f"{ETA} {words}.", ETA_GOLD, "NV", "").correct
    half = f"$\\boxed{{\\frac{{1}}{{2}}}}$ {words}."
    assert not judge_inline(half, "\\boxed{\\frac{1}{2}}", "NV", "").correct


def test_percent_after_formula_box_but_not_after_bare_number() -> None:
    half = "$\\boxed{\\frac{1}{2}}$ percent, i.e. a small fraction."
    assert not judge_inline(half, "\\boxed{\\frac{1}{2}}", "NV", "").correct
    assert judge_inline("$\\boxed{15.4}$ percent.", "\\boxed{15.4\\%}", "NV", "").correct


def test_percent_restatement_after_ie_stands() -> None:
    assert _eta("{box} (i.e. 15.4 per cent).")
    assert _eta("{box}, that is 15.4%.")
    assert not _eta("{box} (i.e. 30.8 per cent).")


def test_other_quantity_is_an_operand() -> None:
    text = "$h = \\boxed{0.816\\,\\mathrm{m}}$ squared."
    start = text.index("\\boxed")
    assert operands(text, [(start, text.index("$", start))]) == [True]
    plain = "$h = \\boxed{0.816\\,\\mathrm{m}}$ per photon."
    assert operands(plain, [(start, plain.index("$", start))]) == [False]


# ---------------------------------------------------------------------------------------------
# 9. a side of the box's own chain that is another value
# ---------------------------------------------------------------------------------------------

CONTRADICTORY_CHAINS = [
    ("$\\frac{1}{3} = \\boxed{\\frac{1}{2}}$", "\\boxed{\\frac{1}{2}}"),
    ("$v = 29.0\\,\\mathrm{m/s} = \\boxed{14.5\\,\\mathrm{m/s}}$", SPEED_GOLD),
    ("$\\eta = 2/13 = 0.308 = \\boxed{0.154}$", ETA_GOLD),
    ("$\\eta = 0.308 = 2/13 = \\boxed{0.154}$", ETA_GOLD),
    ("$v = 29.0\\text{ m/s} = \\boxed{14.5\\,\\mathrm{m/s}}$", SPEED_GOLD),
    ("$\\eta = \\frac{1}{13} = \\boxed{0.154}$", ETA_GOLD),
]
CONSISTENT_CHAINS = [
    ("$v = \\sqrt{9.80 \\cdot 80.0 \\cdot 0.268} = \\sqrt{210} = " + SPEED[5:], SPEED_GOLD),
    ("$\\eta = \\frac{2}{13} = \\boxed{0.154}$", ETA_GOLD),
    ("$\\eta = W/Q_H = \\boxed{0.154}$", ETA_GOLD),
    ("$T = 92.3\\,\\mathrm{min} = \\boxed{5.54\\times10^{3}\\,\\mathrm{s}}$", "\\boxed{5540 s}"),
    ("$E = \\frac{1240}{250}\\,\\mathrm{eV} = \\boxed{4.96\\,\\mathrm{eV}}$", "\\boxed{4.96 eV}"),
    ("$x^2 = 4,\\quad x = \\boxed{2}$", "\\boxed{2}"),
    ("$\\lambda = 4.67\\times10^{-7} = \\boxed{467\\,\\mathrm{nm}}$", "\\boxed{467 nm}"),
    ("$v = \\frac{12.3}{4.56} = \\boxed{2.70}$", "\\boxed{2.70}"),
    ("$d = \\frac{1}{2}(2.50)(8.00)^2 = \\boxed{80.0\\,\\mathrm{m}}$", "\\boxed{80.0 m}"),
    ("$v = 52.2\\,\\mathrm{km/h} = \\boxed{14.5\\,\\mathrm{m/s}}$", SPEED_GOLD),
]


@pytest.mark.parametrize(("answer", "gold"), CONTRADICTORY_CHAINS)
def test_chain_side_with_another_value(answer: str, gold: str) -> None:
    assert not judge_inline(answer, gold, "NV", "").correct


@pytest.mark.parametrize(("answer", "gold"), CONSISTENT_CHAINS)
def test_chain_side_with_the_same_value(answer: str, gold: str) -> None:
    assert judge_inline(answer, gold, "NV", "").correct


# ---------------------------------------------------------------------------------------------
# 9. a table of cases or a list of conditions with another value in the next row
# ---------------------------------------------------------------------------------------------

OTHER_ROWS = [
    "| case | answer |\n|---|---|\n| ideal | {box} |\n| with losses | $29.0\\,\\mathrm{{m/s}}$ |",
    "| approach | result |\n|---|---|\n| method 1 | {box} |\n"
    "| method 2 | $29.0\\,\\mathrm{{m/s}}$ |",
    "1. If the surface is frictionless: {box}\n2. Otherwise: $29.0\\,\\mathrm{{m/s}}$",
]
ROWS_OF_OTHER_THINGS = [
    "| quantity | value |\n|---|---|\n| $r$ | $80.0\\,\\mathrm{{m}}$ |\n| $v$ | {box} |",
    "| case | answer |\n|---|---|\n| as asked (no friction) | {box} |",
    "1. Set up: $\\tan\\theta = v^2/(gr)$\n2. Solve: {box}",
    "| approach | result |\n|---|---|\n| forces | {box} |\n| energy | $14.5\\,\\mathrm{{m/s}}$ |",
    "| quantity | value |\n|---|---|\n| $v$ | {box} |\n| $KE$ | $105\\,\\mathrm{{J}}$ |",
]


@pytest.mark.parametrize("answer", OTHER_ROWS)
def test_other_case_row_is_an_offer(answer: str) -> None:
    assert not _speed(answer)


@pytest.mark.parametrize("answer", ROWS_OF_OTHER_THINGS)
def test_rows_of_other_things_or_the_same_value(answer: str) -> None:
    assert _speed(answer)


# ---------------------------------------------------------------------------------------------
# 9. a check after a box without a unit that evaluates to another number
# ---------------------------------------------------------------------------------------------

CHECKS_AGAINST = [
    "{box}\n\n(Numerically, $W/Q_H = 0.308$.)",
    "{box}\n\nCheck: $1 - Q_C/Q_H = 0.308$.",
    "{box}\n\nEvaluating $W/Q_H$ gives $0.308$.",
]
CHECKS_FOR = [
    "{box}\n\nCheck: $1 - Q_C/Q_H = 0.154$.",
    "{box}\n\nNumerically, $W/Q_H = 2/13 = 0.1538$.",
    "{box}\n\nCheck: $\\eta^2 = 0.0237$.",
    "{box}\n\nCheck: $Q_C = 5.5\\,p_0V_0$.",
]


@pytest.mark.parametrize("answer", CHECKS_AGAINST)
def test_check_with_another_number(answer: str) -> None:
    assert not _eta(answer)


@pytest.mark.parametrize("answer", CHECKS_FOR)
def test_check_with_the_same_number_or_another_quantity(answer: str) -> None:
    assert _eta(answer)


ROLLING = "\\boxed{\\sqrt{\\frac{10 g h}{7}}}"
ROLLING_BOX = "$$v=\\boxed{\\sqrt{\\tfrac{10}{7}gh}}$$\n\n"


@pytest.mark.parametrize(
    ("tail", "correct"),
    [
        # another setup after a connective is a what-if, as it is at the sentence's start
        ("So for a sliding block one would get $v = \\sqrt{2gh}$ instead.", True),
        ("Thus, for a frictionless ramp, one would get $v = \\sqrt{2gh}$.", True),
        ("For a sliding block one would get $v = \\sqrt{2gh}$ instead.", True),
        # the same words offering another value for this setup stay an offer
        ("So one would get $v = \\sqrt{2gh}$ instead.", False),
    ],
)
def test_a_value_for_another_setup_after_a_connective_is_a_what_if(
    tail: str, correct: bool
) -> None:
    question = "Find the speed $v$ of the centre of the sphere at the lowest point."
    verdict = judge_inline(ROLLING_BOX + tail, ROLLING, "EX", question=question)
    assert verdict.correct is correct
