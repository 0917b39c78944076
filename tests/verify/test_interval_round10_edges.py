"""Interval rules of verifier 1.17.0 at their edges (mutation review): a bar written as
``\\overline`` or ``\\bar`` is one name, a ratio needs two names, a name the question never
writes is the writer's own."""

from __future__ import annotations

import pytest

from studybench.verify import judge_inline

CYCLE = "\\boxed{[2T_0, 4T_0]}"
MEAN_Q = (
    "One mole of gas goes round a cycle. During step $B\\to C$ its mean temperature changes. "
    "What range of values does the mean temperature $\\bar T$ take during that step?"
)
CART = "\\boxed{[1, 2]}"
CART_Q = (
    "A cart moves with mean speed $\\overline{v} = 3.0\\,\\mathrm{m/s}$ along a track. "
    "For which range of times $t$ is it past the marker?"
)
RATIO = "\\boxed{(0, 1]}"
RATIO_Q = (
    "The block stays at rest for a range of the ratio $m_1/m_2$ of the two masses. Find that range."
)


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # the question's \\bar T written as \\overline{T}: the asked name
        ("\\boxed{\\overline{T} \\in [2T_0, 4T_0]}", CYCLE, MEAN_Q, True),
        ("\\boxed{\\bar T \\in [2T_0, 4T_0]}", CYCLE, MEAN_Q, True),
        ("\\boxed{\\Delta T \\in [2T_0, 4T_0]}", CYCLE, MEAN_Q, False),
        # a name the question gives a value, however its bar is written, is no asked one
        ("\\boxed{\\bar v \\in [1, 2]}", CART, CART_Q, False),
        ("\\boxed{\\overline{v} \\in [1, 2]}", CART, CART_Q, False),
        ("\\boxed{t \\in [1, 2]}", CART, CART_Q, True),
        # a ratio of two names, the question's or not; a number over a name is no ratio of names
        ("\\boxed{m_1/m_2 \\in (0, 1]}", RATIO, RATIO_Q, True),
        ("\\boxed{\\frac{m_1}{m_2} \\in (0, 1]}", RATIO, RATIO_Q, True),
        ("\\boxed{\\frac{m_2}{m_1} \\in (0, 1]}", RATIO, RATIO_Q, False),
        ("\\boxed{\\frac{m_1}{x} \\in (0, 1]}", RATIO, RATIO_Q, False),
        ("\\boxed{m_1 \\in (0, 1]}", RATIO, RATIO_Q, False),
        # a name the question never writes is the writer's own
        ("\\boxed{\\mu \\in (0, 1]}", RATIO, RATIO_Q, True),
    ],
)
def test_interval_names_at_their_edges(pred: str, gold: str, question: str, correct: bool) -> None:
    verdict = judge_inline(pred, gold, "IN", question=question)
    assert verdict.correct is correct, verdict
