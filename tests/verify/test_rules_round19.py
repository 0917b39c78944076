"""Verifier 1.22.0 rules (round 19: red-team sets r19a, false accepts, and r19b, equivalent
forms), each with its table of cases and the honest controls the rule must leave alone."""

from __future__ import annotations

import pytest

from studybench.verify.parsing import e_is_a_quantity
from studybench.verify.verifier import judge_inline

# ---------------------------------------------------------------------------------------------
# ``e`` is the question's quantity where the question writes it as one
# ---------------------------------------------------------------------------------------------

RESTITUTION = (
    "A ball is dropped from height $h$ onto a floor with coefficient of restitution $e<1$. "
    "Find the total distance it travels."
)
ELECTRON = (
    "Two electrons, each of charge $-e$, are held a distance $r$ apart. Find the potential "
    "energy of the pair."
)
DECAY = "The current decays as $I = I_0 e^{-t/\\tau}$. Find the current at time $t$."

QUESTIONS_WRITING_E = [
    (RESTITUTION, True),
    (ELECTRON, True),
    ("A proton has charge $+e$ and mass $m_p$.", True),
    ("A particle of charge $2e$ enters the field.", True),
    ("The specific charge $\\frac{e}{m}$ is measured.", True),
    ("An orbit of eccentricity $e$ and semi-major axis $a$.", True),
    (DECAY, False),  # e^{...}: Euler's
    ("Take $e = \\mathrm{e}^{1}$ as usual.", True),  # the name stands alone once
    ("Use $\\mathrm{e}^{x}$ for the exponential.", False),
    ("The charge is $1.6e-19$ C.", False),  # scientific notation
    ("The escape speed $v_e$ and the energy $E$.", False),
    ("Find $x$.", False),
]


@pytest.mark.parametrize(("question", "quantity"), QUESTIONS_WRITING_E)
def test_where_a_question_writes_e_as_a_quantity(question: str, quantity: bool) -> None:
    assert e_is_a_quantity(question) is quantity


# Read as Euler's number, the restitution gold h(1+e^2)/(1-e^2) was -1.313h, and the electron
# pair's e^2/(4 pi eps0 r) was exp(2)/(4 pi eps0 r) (red team r19b, S1).
E_AS_A_QUANTITY = [
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "h\\,\\frac{1+e^2}{1-e^2}", True),
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "h\\left(1 + \\frac{2e^2}{1-e^2}\\right)", True),
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "h + 2h\\sum_{n=1}^{\\infty} e^{2n}", True),
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "-1.313\\,h", False),
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "h\\frac{1+2.718^2}{1-2.718^2}", False),
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "h\\frac{1+e}{1-e}", False),
    (RESTITUTION, "h\\frac{1+e^{2}}{1-e^{2}}", "h\\frac{1-e^{2}}{1+e^{2}}", False),
    (ELECTRON, "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}", "\\frac{k e^{2}}{r}", True),
    (ELECTRON, "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}", "\\frac{e^{2}}{4\\pi\\epsilon_0 r}", True),
    (ELECTRON, "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}", "\\frac{e}{4\\pi\\varepsilon_0 r}", False),
    (
        ELECTRON,
        "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}",
        "\\frac{7.389}{4\\pi\\varepsilon_0 r}",
        False,
    ),
    # where the question's e is Euler's, it stays Euler's
    (DECAY, "I_0 e^{-t/\\tau}", "I_0\\exp(-t/\\tau)", True),
    (DECAY, "I_0 e^{-t/\\tau}", "\\frac{I_0}{e^{t/\\tau}}", True),
    (DECAY, "I_0 e^{-t/\\tau}", "I_0 e^{t/\\tau}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), E_AS_A_QUANTITY)
def test_e_is_the_questions_quantity(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(
        f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "EX", question=question
    )
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# a correction after the box, in the words people write one in (red team r19a, M4)
# ---------------------------------------------------------------------------------------------

CURRENT = (
    "A rod slides with speed $v$ on rails a distance $L$ apart in a field $B$; the circuit "
    "resistance is $R$. Find the magnitude of the current $I$ in the circuit."
)
CURRENT_BOX = "The emf is $BLv$, so\n\n$$\\boxed{I = \\frac{BLv}{R}}$$\n\n"
# each opens a sentence that takes the box back; {w} is the wrong form after it
CORRECTIONS = [
    "Actually, I made an error: {w}.",
    "I made a mistake in the last step: {w}.",
    "Oops, that should be {w}.",
    "Wait — I dropped a factor of 2: {w}.",
    "Erratum: {w}.",
    "Update: {w}.",
    "EDIT: {w}.",
    "Revised: {w}.",
    "Let me fix that: {w}.",
    "Correction to the above: {w}.",
    "(Typo above: {w}.)",
    "Sorry, it's {w}.",
    "My mistake — {w}.",
    "Scratch that; {w}.",
    "Make that {w}.",
    "I mean {w}.",
    "Should be {w} instead.",
    "The answer above is wrong; {w}.",
    "Upon re-evaluation, {w}.",
    "P.S. {w}.",
    "Hmm, or maybe {w}.",
    "I'd also accept {w}.",
    "> {w}",
]


@pytest.mark.parametrize("opening", CORRECTIONS)
def test_a_correction_to_a_wrong_expression_is_a_second_claim(opening: str) -> None:
    pred = CURRENT_BOX + opening.format(w="$I = \\frac{BLv}{2R}$")
    verdict = judge_inline(pred, "\\boxed{\\frac{BLv}{R}}", "EX", question=CURRENT)
    assert not verdict.correct, verdict.reason
    same = CURRENT_BOX + opening.format(w="$I = \\frac{BLv}{R}$")  # the same form: one claim
    assert judge_inline(same, "\\boxed{\\frac{BLv}{R}}", "EX", question=CURRENT).correct


STOPPING = (
    "Light of wavelength $250\\,\\mathrm{nm}$ falls on a metal of work function "
    "$2.30\\,\\mathrm{eV}$. Find the stopping potential $V_s$."
)


@pytest.mark.parametrize(
    "opening",
    [
        "Oops, that should be {w}.",
        "Should be {w} instead.",
        "Hmm, or maybe {w}.",
        "P.S. {w}.",
        "I'd also accept {w}.",
        "My mistake — {w}.",
        "Hold on, the stopping potential is really {v}.",
    ],
)
def test_a_correction_to_a_wrong_value_is_a_second_claim(opening: str) -> None:
    box = "So $eV_s = 4.96 - 2.30 = 2.66$ eV.\n\n$\\boxed{V_s = 2.66\\,\\mathrm{V}}$\n\n"
    wrong = box + opening.format(w="$V_s = 2.30\\,\\mathrm{V}$", v="2.30 V")
    assert not judge_inline(wrong, "\\boxed{2.66\\,\\mathrm{V}}", "NV", question=STOPPING).correct
    right = box + opening.format(w="$V_s = 2.66\\,\\mathrm{V}$", v="2.66 V")
    assert judge_inline(right, "\\boxed{2.66\\,\\mathrm{V}}", "NV", question=STOPPING).correct


CYCLE = (
    "A monatomic ideal gas goes around a rectangular cycle A-B-C-D; state A has temperature "
    "$T_0$. Find the temperatures $T_B$, $T_C$ and $T_D$ in terms of $T_0$, in that order."
)
CYCLE_BOX = "$$\\boxed{T_B = 2T_0,\\ T_C = 4T_0,\\ T_D = 2T_0}$$\n\n"
CYCLE_GOLD = "\\boxed{2T_0}, \\boxed{4T_0}, \\boxed{2T_0}"


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("Oops, that should be $T_C = 3T_0$.", False),
        ("Update: $T_C = 3T_0$.", False),
        ("My mistake — $T_D = T_0$.", False),
        ("So $T_C = 4T_0$, the hottest state.", True),  # an element stated again, the same
        ("Update: $T_C = 4T_0$ as well.", True),
        ("The work per cycle is $W = p_0V_0$.", True),  # another quantity
    ],
)
def test_a_correction_of_a_tuple_element_is_judged_in_its_place(after: str, correct: bool) -> None:
    verdict = judge_inline(CYCLE_BOX + after, CYCLE_GOLD, "TUP", "EX,EX,EX", question=CYCLE)
    assert verdict.correct is correct, verdict.reason


# what follows a right box in honest answers, with the new words in it, is no correction
@pytest.mark.parametrize(
    "after",
    [
        "Update: the same result follows from energy conservation, $I^2R = Fv$.",
        "Edit: fixed a typo in the emf above; the result stands.",
        "P.S. For a hoop one would use $I = mr^2$ for the moment of inertia.",
        "Sorry for the long derivation; the current is $I = \\frac{BLv}{R}$.",
        "I made an error in the sign convention earlier, but the magnitude is unchanged.",
        "Hmm, note that the force on the rod is $F = \\frac{B^2L^2v}{R}$.",
        "Should the rod speed up, $I$ grows in proportion.",
        "The current flows counterclockwise as seen from above.",
    ],
)
def test_honest_words_after_the_box_are_no_correction(after: str) -> None:
    verdict = judge_inline(CURRENT_BOX + after, "\\boxed{\\frac{BLv}{R}}", "EX", question=CURRENT)
    assert verdict.correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# a truth value whose explanation restates the statement, through "i.e.", "since", "indeed"
# ---------------------------------------------------------------------------------------------

HOOP = (
    "A bead slides on a hoop rotating about its vertical diameter. True or false: under the "
    "condition $\\omega^2 R > g$, the lowest point $\\theta = 0$ is a stable equilibrium."
)


@pytest.mark.parametrize(
    ("box", "correct"),
    [
        # the explanation says the statement holds: the box contradicts itself
        ("False, i.e. it is stable", False),
        ("False; indeed it is a stable equilibrium", False),
        ("False, since the lowest point is a stable equilibrium", False),
        ("False (i.e. the lowest point is stable)", False),
        ("False, as the lowest point is stable", False),
        ("False, because the lowest point is stable", False),
        # the explanation says it does not, or says something of its own
        ("False, i.e. it is unstable", True),
        ("False, i.e. it is not stable", True),
        ("False; indeed it is an unstable equilibrium", True),
        ("False, since the lowest point is unstable", True),
        ("False", True),
    ],
)
def test_a_truth_values_explanation_through_a_connective(box: str, correct: bool) -> None:
    pred = f"So $$\\boxed{{\\text{{{box}}}}}$$"
    verdict = judge_inline(pred, "\\boxed{\\text{False}}", "TF", question=HOOP)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# a label that names another quantity than the one asked, where the gold labels nothing
# ---------------------------------------------------------------------------------------------

SPEED = (
    "A rod of mass $m$ slides on rails a distance $L$ apart in a field $B$; the circuit "
    "resistance is $R$. At $t=0$ its speed is $v_0$. Find the speed $v(t)$ of the rod for "
    "$t \\ge 0$."
)
SPEED_GOLD = "\\boxed{v_0 \\exp\\left(-\\frac{B^{2} L^{2} t}{m R}\\right)}"
DECAY_FORM = "v_0 e^{-B^2L^2t/(mR)}"


@pytest.mark.parametrize(
    ("label", "correct"),
    [
        # the rate of change, change or mean of the asked v(t): another quantity
        ("\\dot v", False),
        ("\\dot v(t)", False),
        ("\\frac{dv}{dt}", False),
        ("\\frac{\\mathrm{d}v}{\\mathrm{d}t}", False),
        ("dv/dt", False),
        ("v'(t)", False),
        ("\\Delta v(t)", False),
        ("\\bar v", False),
        ("\\langle v\\rangle", False),
        # the asked quantity, as the question writes it or without its argument
        ("v(t)", True),
        ("v", True),
        ("v_{\\text{rod}}(t)", True),
    ],
)
def test_a_derivative_of_the_asked_name_is_another_quantity(label: str, correct: bool) -> None:
    pred = f"So $$\\boxed{{{label} = {DECAY_FORM}}}$$"
    verdict = judge_inline(pred, SPEED_GOLD, "EX", question=SPEED)
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("box", "correct"),
    [
        ("\\dot V_s = 2.66\\,\\mathrm{V}", False),
        ("\\Delta V_s = 2.66\\,\\mathrm{V}", False),
        ("\\bar V_s = 2.66\\,\\mathrm{V}", False),
        ("V_s = 2.66\\,\\mathrm{V}", True),
        ("2.66\\,\\mathrm{V}", True),
    ],
)
def test_a_derivative_of_the_asked_name_in_a_value(box: str, correct: bool) -> None:
    verdict = judge_inline(
        f"$\\boxed{{{box}}}$", "\\boxed{2.66\\,\\mathrm{V}}", "NV", question=STOPPING
    )
    assert verdict.correct is correct, verdict.reason


@pytest.mark.parametrize(
    ("box", "correct"),
    [
        ("T_B = 2T_0,\\ \\dot T_C = 4T_0,\\ T_D = 2T_0", False),
        ("T_B = 2T_0,\\ \\Delta T_C = 4T_0,\\ T_D = 2T_0", False),
        ("T_B = 2T_0,\\ T_C = 4T_0,\\ T_A = 2T_0", False),  # state A's: the question gives it
        ("T_A = 2T_0,\\ T_C = 4T_0,\\ T_D = 2T_0", False),
        ("T_B = 2T_0,\\ T_C = 4T_0,\\ T_D = 2T_0", True),
        ("T_2 = 2T_0,\\ T_3 = 4T_0,\\ T_4 = 2T_0", True),  # numbered: another spelling
        ("2T_0,\\ 4T_0,\\ 2T_0", True),
    ],
)
def test_a_tuple_element_named_for_an_unasked_quantity(box: str, correct: bool) -> None:
    verdict = judge_inline(f"$$\\boxed{{{box}}}$$", CYCLE_GOLD, "TUP", "EX,EX,EX", question=CYCLE)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# an inverse trigonometric function of a number is an angle in radians (red team r19b, F4/F5)
# ---------------------------------------------------------------------------------------------

REFRACTION = (
    "Light in air hits water ($n = 1.33$) at $40.0^\\circ$ to the normal. Find the angle of "
    "refraction."
)
CRITICAL = "Find the critical angle for glass of index $1.50$ in air."


@pytest.mark.parametrize(
    ("question", "gold", "box", "correct"),
    [
        (REFRACTION, "28.9^\\circ", "\\theta_2 = \\arcsin(0.483) = 28.9^\\circ", True),
        (REFRACTION, "28.9^\\circ", "\\arcsin\\left(\\frac{\\sin 40^\\circ}{1.33}\\right)", True),
        (REFRACTION, "28.9^\\circ", "\\sin^{-1}(0.483)", True),
        (REFRACTION, "28.9^\\circ", "\\operatorname{arcsin}(0.483)", True),
        (CRITICAL, "41.8^\\circ", "\\arcsin(2/3) \\approx 41.8^\\circ", True),
        (
            CRITICAL,
            "41.8^\\circ",
            "\\theta_c = \\sin^{-1}\\left(\\frac{1}{1.50}\\right) = 41.8^\\circ",
            True,
        ),
        # another angle, or the radian value read as degrees
        (REFRACTION, "28.9^\\circ", "\\arcsin(0.5)", False),
        (REFRACTION, "28.9^\\circ", "\\arcsin(0.483)^\\circ", False),
        (CRITICAL, "41.8^\\circ", "\\arccos(2/3) = 41.8^\\circ", False),
        (CRITICAL, "41.8^\\circ", "\\arcsin(1/3) \\approx 41.8^\\circ", False),
        (CRITICAL, "41.8^\\circ", "0.7297", False),  # 41.8 degrees in radians, no unit: degrees
    ],
)
def test_an_inverse_trigonometric_value_is_in_radians(
    question: str, gold: str, box: str, correct: bool
) -> None:
    verdict = judge_inline(f"$\\boxed{{{box}}}$", f"\\boxed{{{gold}}}", "NV", question=question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# a remark in the question's own words names the asked quantity (red team r19b, F1)
# ---------------------------------------------------------------------------------------------

EMF = (
    "A coil of 50 turns sees its flux change at $0.160\\,\\mathrm{Wb/s}$ per turn. Find the "
    "magnitude of the induced emf."
)
MOTIONAL = (
    "A rod of length $L$ moves with speed $v$ perpendicular to a uniform field $B$. Find the "
    "motional emf."
)
COIL = (
    "The field through a coil of 50 turns decreases steadily. Find the magnitude of the "
    "induced emf and the induced current in the coil, in that order."
)
BLOCKS = (
    "Two blocks collide elastically on a frictionless track. Find the final speeds of the "
    "heavier block and of the lighter block, in that order."
)
VOLT, AMPERE, SPEED_UNIT = "\\,\\mathrm{V}", "\\,\\mathrm{A}", "\\,\\mathrm{m/s}"
EMF_GOLD = f"\\boxed{{8.00{VOLT}}}"
COIL_GOLD = f"\\boxed{{8.00{VOLT}}}, \\boxed{{2.00{AMPERE}}}"
BLOCKS_GOLD = f"\\boxed{{2.0{SPEED_UNIT}}}, \\boxed{{3.0{SPEED_UNIT}}}"


@pytest.mark.parametrize(
    ("question", "gold", "kind", "sequence", "box", "correct"),
    [
        (EMF, EMF_GOLD, "NV", "", f"8.00{VOLT}\\ (\\text{{induced emf}})", True),
        (EMF, EMF_GOLD, "NV", "", f"8.00{VOLT}\\ \\text{{(emf)}}", True),
        (EMF, EMF_GOLD, "NV", "", f"4.00{VOLT}\\ (\\text{{induced emf}})", False),
        (EMF, EMF_GOLD, "NV", "", f"8.00{VOLT}\\ (\\text{{twice the emf}})", False),
        (MOTIONAL, "\\boxed{B L v}", "EX", "", "BLv\\ \\text{(motional emf)}", True),
        (MOTIONAL, "\\boxed{B L v}", "EX", "", "2BLv\\ \\text{(motional emf)}", False),
        # in a tuple, the remarks must name the asked quantities in the order asked
        (
            COIL,
            COIL_GOLD,
            "TUP",
            "NV,NV",
            f"8.00{VOLT}\\ \\text{{(induced emf)}},\\ 2.00{AMPERE}\\ \\text{{(current)}}",
            True,
        ),
        (
            COIL,
            COIL_GOLD,
            "TUP",
            "NV,NV",
            f"8.00{VOLT}\\ \\text{{(current)}},\\ 2.00{AMPERE}\\ \\text{{(emf)}}",
            False,
        ),
        (
            BLOCKS,
            BLOCKS_GOLD,
            "TUP",
            "NV,NV",
            f"2.0{SPEED_UNIT}\\ (\\text{{heavier block}}),\\ "
            f"3.0{SPEED_UNIT}\\ (\\text{{lighter block}})",
            True,
        ),
        (
            BLOCKS,
            BLOCKS_GOLD,
            "TUP",
            "NV,NV",
            f"2.0{SPEED_UNIT}\\ (\\text{{lighter block}}),\\ "
            f"3.0{SPEED_UNIT}\\ (\\text{{heavier block}})",
            False,
        ),
    ],
)
def test_a_remark_in_the_questions_words(
    question: str, gold: str, kind: str, sequence: str, box: str, correct: bool
) -> None:
    verdict = judge_inline(f"$$\\boxed{{{box}}}$$", gold, kind, sequence, question=question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# a box that names its quantity in words before the value (red team r19b, F2)
# ---------------------------------------------------------------------------------------------

PERIOD = "Find the period $T$ of a mass $m$ on a spring of constant $k$."
MIXING = (
    "$0.500\\,\\mathrm{kg}$ of water at $80.0\\,^\\circ\\mathrm{C}$ is mixed with "
    "$0.300\\,\\mathrm{kg}$ of water at $20.0\\,^\\circ\\mathrm{C}$. Find the final temperature "
    "of the water."
)
PERIOD_GOLD = "\\boxed{2\\pi\\sqrt{\\frac{m}{k}}}"
MIXING_GOLD = "\\boxed{57.5\\,^\\circ\\mathrm{C}}"


@pytest.mark.parametrize(
    ("question", "gold", "kind", "box", "correct"),
    [
        (PERIOD, PERIOD_GOLD, "EX", "\\text{The period is } 2\\pi\\sqrt{\\frac{m}{k}}", True),
        (PERIOD, PERIOD_GOLD, "EX", "\\text{Period: } 2\\pi\\sqrt{m/k}", True),
        (PERIOD, PERIOD_GOLD, "EX", "\\text{The period is } 2\\pi\\sqrt{\\frac{k}{m}}", False),
        (PERIOD, PERIOD_GOLD, "EX", "\\text{The period is twice } \\pi\\sqrt{\\frac{m}{k}}", False),
        (PERIOD, PERIOD_GOLD, "EX", "\\text{The period is less than } 2\\pi\\sqrt{m/k}", False),
        (MIXING, MIXING_GOLD, "NV", "\\text{Final temperature: } 57.5\\,^\\circ\\text{C}", True),
        (MIXING, MIXING_GOLD, "NV", "\\text{The final temperature is } 330.65\\,\\mathrm{K}", True),
        (MIXING, MIXING_GOLD, "NV", "\\text{Final temperature: } 57.5\\,\\mathrm{K}", False),
        (MIXING, MIXING_GOLD, "NV", "\\text{Final temperature: } 50.0\\,^\\circ\\text{C}", False),
    ],
)
def test_a_quantity_named_in_words_before_its_value(
    question: str, gold: str, kind: str, box: str, correct: bool
) -> None:
    verdict = judge_inline(f"$\\boxed{{{box}}}$", gold, kind, question=question)
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# an equation's label written with the variables it depends on (red team r19a, R2)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "box", "correct"),
    [
        ("E_{\\rm k} = \\frac{1}{2} m v^2", "E_{\\rm k}(v) = \\frac12 mv^2", True),
        ("E_{\\rm k} = \\frac{1}{2} m v^2", "E_{\\rm k}(v) = mv^2", False),
        ("E_{\\rm k} = \\frac{1}{2} m v^2", "E_{\\rm p}(v) = \\frac12 mv^2", False),
        ("x = A\\cos(\\omega t)", "x(t) = A\\cos(\\omega t)", True),
        ("x = A\\cos(\\omega t)", "x(t) = A\\sin(\\omega t)", False),
        # a value at a point, not the function: another claim
        ("x = A\\cos(\\omega t)", "x(0) = A\\cos(\\omega t)", False),
        ("x = A\\cos(\\omega t)", "x(L) = A\\cos(\\omega t)", False),
    ],
)
def test_a_label_with_its_arguments(gold: str, box: str, correct: bool) -> None:
    verdict = judge_inline(f"$\\boxed{{{box}}}$", f"\\boxed{{{gold}}}", "EQ")
    assert verdict.correct is correct, verdict.reason


# ---------------------------------------------------------------------------------------------
# a multiple of a time constant inside a numeric chain is a step, not a unit (r19b, F6)
# ---------------------------------------------------------------------------------------------

CHARGING = (
    "A capacitor $C$ is charged through a resistor $R$. For $R = 2.00\\,\\mathrm{k\\Omega}$ and "
    "$C = 50.0\\,\\mu\\mathrm{F}$, how long after the switch is closed does the charge reach "
    "$90.0\\%$ of its final value?"
)


@pytest.mark.parametrize(
    ("box", "correct"),
    [
        ("t = 2.30\\,\\tau = 2.30\\,RC = 0.230\\,\\mathrm{s}", True),
        ("t = 2.30\\,\\tau = 0.230\\,\\mathrm{s}", True),
        ("t = 2.30\\,RC = 0.230\\,\\mathrm{s}", True),
        ("t = 2.30\\,\\tau = 0.330\\,\\mathrm{s}", False),
        ("t = 3.30\\,RC = 0.230\\,\\mathrm{s}", False),  # R and C are given: 0.330 s
        ("t = 0.230\\,\\mathrm{m}", False),
    ],
)
def test_a_multiple_of_a_time_constant_in_a_chain(box: str, correct: bool) -> None:
    verdict = judge_inline(
        f"$\\boxed{{{box}}}$", "\\boxed{0.230\\,\\mathrm{s}}", "NV", question=CHARGING
    )
    assert verdict.correct is correct, verdict.reason
