"""Rows that kill the surviving mutants of verifier 1.19.0's new readers (``make mutation``):
which lists an ALT answer's prose writes (``restatement.listed_values``), which equations an
EX answer's prose concludes with (``restatement.restated_equations``), what a heading of words
becomes (``restatement._heading``), and a value against the zero of a scale with an offset
(``numeric._zero_of_a_scale``). Each row is an edge one of them moved."""

from __future__ import annotations

import pytest

from studybench.verify.restatement import listed_values, restated_equations
from studybench.verify.verifier import judge_inline

S = "\\,\\mathrm{s}"


# -- listed_values: units written once, tables, checks, runs ------------------------------------
@pytest.mark.parametrize(
    ("after", "lists"),
    [
        # a unit written once after the math's close is every value's
        ("$t \\in \\{1.0, 3.0, 4.0\\}$ s", [[f"1.0{S}", f"3.0{S}", f"4.0{S}"]]),
        # a unit already a command is kept as written, not wrapped again
        (
            "$\\{1.0\\,\\mathrm{s}, 3.0\\,\\mathrm{s}, 4\\,\\mathrm{s}\\}$",
            [[f"1.0{S}", f"3.0{S}", f"4{S}"]],
        ),
        # a table's cell holding a list is the table's
        ("| times | 1.0, 3.0 and 4.0 s |", []),
        # a check's sentence is left, the next sentence is still read
        (
            "Check: 1, 2 and 3 fit. All the times: 1.0 s, 3.0 s and 4.0 s.",
            [[f"1.0{S}", f"3.0{S}", f"4.0{S}"]],
        ),
        (
            "| a | b |\nAll the times: 1.0 s, 3.0 s and 4.0 s.",
            [[f"1.0{S}", f"3.0{S}", f"4.0{S}"]],
        ),
        # a value that ends one run starts the next
        (
            "The first is 7 s but the list is 1.0 s, 3.0 s and 4.0 s.",
            [[f"1.0{S}", f"3.0{S}", f"4.0{S}"]],
        ),
        # two lists paired in one sentence are a table; the next sentence is still read
        (
            "The times 1, 3 and 4 s give heights 15, 15 and 0 m. All: 1.0 s, 3.0 s and 4.0 s.",
            [[f"1.0{S}", f"3.0{S}", f"4.0{S}"]],
        ),
    ],
)
def test_listed_values_at_the_edges(after: str, lists: list[list[str]]) -> None:
    assert listed_values(after) == lists


# -- restated_equations: what is skipped, where an equation ends --------------------------------
@pytest.mark.parametrize(
    ("after", "equations"),
    [
        ("So $x = d/3 = 0.333d$.", []),  # a label's chain: restated_expressions reads it
        ("So $x = 2d/3$. Hence $x/d = 1/3$.", [("x/d", "1/3")]),
        ("So x/d = 1/3 from the left charge.", [("x/d", "1/3")]),
        ("So $0 < x < d$. So $x/d = 1/3$.", [("x/d", "1/3")]),
        ("So $v^2 = 2gh$ for a sliding block. So $x/d = 1/3$.", [("x/d", "1/3")]),
        ("So x/d = 1/3:", [("x/d", "1/3")]),
        ("So $y/d = 2X$.", [("y/d", "2X")]),
        ("So $= d/3$.", []),  # no left side
        ("So $x/d =$.", []),  # no right side
        ("So $X/D = 1/3$.", [("X/D", "1/3")]),  # capitals are symbols too
        ("So $2 = 2$.", []),  # no symbol: nothing about the asked quantity
    ],
)
def test_restated_equations_at_the_edges(after: str, equations: list[tuple[str, str]]) -> None:
    assert restated_equations(after) == equations


# -- a heading that names the answer makes the line below it one --------------------------------
ADIABAT = "\\boxed{2^{-5/3} p_0}"
ADIABAT_Q = "If instead the expansion is adiabatic, what is the final pressure $p$?"


@pytest.mark.parametrize(
    ("after", "correct"),
    [
        ("### Final Answer\n$2^{-2/3}p_0$", False),  # unlabelled: only the heading says so
        ("### Final Answer\n$2^{-5/3}p_0$", True),
        ("### Next\n$2^{-2/3}p_0$ would be the isothermal-like guess.", True),
    ],
)
def test_a_heading_naming_the_answer(after: str, correct: bool) -> None:
    pred = f"Working.\n\n$${ADIABAT}$$\n\n{after}"
    verdict = judge_inline(pred, ADIABAT, "EX", question=ADIABAT_Q)
    assert verdict.correct is correct


# -- the zero of a scale: reasons -------------------------------------------------------------
@pytest.mark.parametrize(
    ("pred", "reason"),
    [
        ("273\\,\\mathrm{K}", "unit_converted"),
        ("275\\,\\mathrm{K}", "wrong_value"),
        ("0\\,\\mathrm{m}", "unit_mismatch"),
    ],
)
def test_the_zero_of_a_scale_says_why(pred: str, reason: str) -> None:
    verdict = judge_inline(f"So $\\boxed{{{pred}}}$.", "\\boxed{0\\,^\\circ\\mathrm{C}}", "NV")
    assert verdict.reason == reason


def test_a_temperature_change_keeps_other_units() -> None:
    """Only a scale with an offset becomes a step: a speed in a question about a temperature
    change keeps its unit (and its reading)."""
    question = "By how much does the temperature rise, and how fast?"
    verdict = judge_inline(
        "So $\\boxed{36\\,\\mathrm{km/h}}$.", "\\boxed{10\\,\\mathrm{m/s}}", "NV", question=question
    )
    assert verdict.correct


def test_a_temperature_change_keeps_a_units_other_readings() -> None:
    """ "A" written for ångström is still read so beside a wavelength: a quantity that is no
    temperature keeps its unit as written, with every reading of it."""
    question = "By how much does the temperature rise, and what wavelength is emitted?"
    verdict = judge_inline(
        "So $\\boxed{150\\,\\mathrm{A}}$.", "\\boxed{15\\,\\mathrm{nm}}", "NV", question=question
    )
    assert verdict.correct
