"""Interval names against the question (verifier 1.17.0, mutation review of ``interval.py``):
which quantity an interval bounds when the gold names none. A bar is one name however
written, a name the question gives a value to is no unknown, a ratio is read whole, a name
written beside a fraction is still written alone, and only a one-capital subscript names a
point or state."""

from __future__ import annotations

import pytest

from studybench.verify import judge_inline

MEAN_GIVEN_OVERLINE = (
    "A gas has mean temperature $\\overline{T} = 300\\,\\mathrm{K}$. "
    "What range of pressures does it reach?"
)
MEAN_GIVEN_BAR = (
    "A gas has mean temperature $\\bar T = 300\\,\\mathrm{K}$. "
    "What range of pressures does it reach?"
)
MEAN_ASKED = (
    "One mole of gas goes round a cycle. During step $B\\to C$ its mean temperature changes. "
    "What range of values does the mean temperature $\\bar T$ take during that step?"
)


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # the asked \\bar T written as \\overline{T}, and the other way round
        ("\\boxed{\\overline{T} \\in [2T_0, 4T_0]}", "\\boxed{[2T_0, 4T_0]}", MEAN_ASKED, True),
        ("\\boxed{\\bar T \\in [2T_0, 4T_0]}", "\\boxed{[2T_0, 4T_0]}", MEAN_ASKED, True),
        # a mean temperature the question gives a value to is no unknown, however its bar is
        # written (the question asks for pressures)
        ("\\boxed{\\bar T \\in [2, 3]}", "\\boxed{[2, 3]}", MEAN_GIVEN_OVERLINE, False),
        ("\\boxed{\\overline{T} \\in [2, 3]}", "\\boxed{[2, 3]}", MEAN_GIVEN_OVERLINE, False),
        ("\\boxed{\\overline{T} \\in [2, 3]}", "\\boxed{[2, 3]}", MEAN_GIVEN_BAR, False),
        ("\\boxed{p \\in [2, 3]}", "\\boxed{[2, 3]}", MEAN_GIVEN_OVERLINE, True),
    ],
)
def test_a_bar_is_one_name_however_written(
    pred: str, gold: str, question: str, correct: bool
) -> None:
    """``\\overline{T}`` and ``\\bar T`` name one quantity, both as the asked name and as a
    name the question gives a value to."""
    verdict = judge_inline(pred, gold, "IN", question=question)
    assert verdict.correct is correct, verdict


RATIO_WITH_G = (
    "The block stays at rest for a range of the ratio $m_1/m_2$ of the two masses, "
    "with $g = 9.8\\,\\mathrm{m/s^2}$. Find that range."
)
AVERAGE_FRAC = (
    "The average velocity $\\frac{\\Delta x}{\\Delta t}$ of the cart stays in a range. "
    "Find that range."
)
AVERAGE_SLASH = (
    "The average velocity $\\Delta x/\\Delta t$ of the cart stays in a range. Find that range."
)
PERIOD = (
    "An oscillator has period $\\frac{2\\pi}{\\omega}$. "
    "For what range of angular frequencies is the period between 1 s and 2 s?"
)
LENS = (
    "A converging lens of focal length $f$ forms a real image at $v = u\\frac{f}{u - f}$ "
    "with magnification $m = v/u$. For what range of object distances is the image magnified?"
)


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # one name of the question's ratio is another quantity, other names written or not
        ("\\boxed{m_1 \\in (0, 1]}", "\\boxed{(0, 1]}", RATIO_WITH_G, False),
        ("\\boxed{m_1/m_2 \\in (0, 1]}", "\\boxed{(0, 1]}", RATIO_WITH_G, True),
        # a ratio of changes is the question's in either spelling, its reciprocal is not
        ("\\boxed{\\Delta x/\\Delta t \\in (0, 2)}", "\\boxed{(0, 2)}", AVERAGE_FRAC, True),
        ("\\boxed{\\Delta x/\\Delta t \\in (0, 2)}", "\\boxed{(0, 2)}", AVERAGE_SLASH, True),
        (
            "\\boxed{\\frac{\\Delta x}{\\Delta t} \\in (0, 2)}",
            "\\boxed{(0, 2)}",
            AVERAGE_FRAC,
            True,
        ),
        (
            "\\boxed{\\frac{\\Delta t}{\\Delta x} \\in (0, 2)}",
            "\\boxed{(0, 2)}",
            AVERAGE_FRAC,
            False,
        ),
        # 2\\pi/\\omega is no ratio of two names: \\omega is the asked angular frequency
        ("\\boxed{\\omega \\in [\\pi, 2\\pi]}", "\\boxed{[\\pi, 2\\pi]}", PERIOD, True),
        # u written right before a fraction (u\\frac{f}{u - f}) is written alone, not only in
        # the ratio v/u: the object distance asked in words
        ("\\boxed{u \\in (f, 2f)}", "\\boxed{(f, 2f)}", LENS, True),
        ("\\boxed{v \\in (f, 2f)}", "\\boxed{(f, 2f)}", LENS, False),
    ],
)
def test_ratios_are_read_whole(pred: str, gold: str, question: str, correct: bool) -> None:
    """A ratio a question writes decides which names are another quantity: only a fraction of
    two names is a ratio (``\\frac{2\\pi}{\\omega}`` is none), a prediction's ratio is compared
    whole (a ratio of marked names, whose parts the ratio pattern cannot read, is left
    alone), and a name written next to a fraction still counts as written alone."""
    verdict = judge_inline(pred, gold, "IN", question=question)
    assert verdict.correct is correct, verdict


LAUNCH = (
    "A ball is launched from level ground at $20\\,\\mathrm{m/s}$. Find, in degrees, the "
    "launch angles $\\theta$ for which it lands beyond $30\\,\\mathrm{m}$."
)


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # the asking part writes \\theta (no asked name: a comma before it), with no "range
        # of" noun to match: \\theta is the asked one
        (
            "\\boxed{\\theta \\in [25^\\circ, 65^\\circ]}",
            "\\boxed{[25^\\circ, 65^\\circ]}",
            LAUNCH,
            True,
        ),
        ("\\boxed{[25^\\circ, 65^\\circ]}", "\\boxed{[25^\\circ, 65^\\circ]}", LAUNCH, True),
    ],
)
def test_a_name_the_asking_part_writes_is_asked(
    pred: str, gold: str, question: str, correct: bool
) -> None:
    """A name the asking part of the question writes is the asked quantity, whatever noun
    the question asks in words (the setup's names need that noun)."""
    verdict = judge_inline(pred, gold, "IN", question=question)
    assert verdict.correct is correct, verdict


HEATED = (
    "A gas starts at temperature $T_0$ and is heated slowly. "
    "What range of temperatures does it pass through?"
)
LENSES = (
    "A lens $L_1$ is placed $30\\,\\mathrm{cm}$ in front of a fixed lens $L_2$. "
    "For what range of focal lengths of the first lens is the final image real?"
)
COLLISION = (
    "Block $A$ slides toward block $B$, at rest on a table. "
    "For what range of initial speeds does the struck block fall off the table?"
)
BEAD = (
    "A bead is released at $A$ and slides along a wire through its lowest point. "
    "Is its energy conserved? What range of speeds can it have at $P$?"
)


@pytest.mark.parametrize(
    ("pred", "gold", "question", "correct"),
    [
        # a point the question never writes: T_A is the writer's own name
        ("\\boxed{T_A \\in [2T_0, 4T_0]}", "\\boxed{[2T_0, 4T_0]}", HEATED, True),
        # a subscript longer than one capital names no point: the focal length of lens L_1,
        # the initial speed of block A
        ("\\boxed{f_{L_1} \\in (10, 20)}", "\\boxed{(10, 20)}", LENSES, True),
        ("\\boxed{v_{i_A} \\in (2, 5)}", "\\boxed{(2, 5)}", COLLISION, True),
        # the point the second asking sentence writes is the asked one's; the setup's is not
        ("\\boxed{v_P \\in (2, 5)}", "\\boxed{(2, 5)}", BEAD, True),
        ("\\boxed{v_A \\in (2, 5)}", "\\boxed{(2, 5)}", BEAD, False),
    ],
)
def test_point_values(pred: str, gold: str, question: str, correct: bool) -> None:
    """A name the question does not write, subscripted by one capital letter the question
    writes away from its asking sentences, is a value at that point (``v_A`` for a bead
    released at $A$); a point of any asking sentence is the asked one's (``v_P``), a point
    the question never writes or a longer subscript is no point value."""
    verdict = judge_inline(pred, gold, "IN", question=question)
    assert verdict.correct is correct, verdict
