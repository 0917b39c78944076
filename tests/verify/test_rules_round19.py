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
    (ELECTRON, "\\frac{e^{2}}{4\\pi\\varepsilon_0 r}", "\\frac{7.389}{4\\pi\\varepsilon_0 r}", False),
    # where the question's e is Euler's, it stays Euler's
    (DECAY, "I_0 e^{-t/\\tau}", "I_0\\exp(-t/\\tau)", True),
    (DECAY, "I_0 e^{-t/\\tau}", "\\frac{I_0}{e^{t/\\tau}}", True),
    (DECAY, "I_0 e^{-t/\\tau}", "I_0 e^{t/\\tau}", False),
]


@pytest.mark.parametrize(("question", "gold", "pred", "correct"), E_AS_A_QUANTITY)
def test_e_is_the_questions_quantity(question: str, gold: str, pred: str, correct: bool) -> None:
    verdict = judge_inline(f"So $\\boxed{{{pred}}}$.", f"\\boxed{{{gold}}}", "EX", question=question)
    assert verdict.correct is correct, verdict.reason
