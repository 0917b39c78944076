from __future__ import annotations

import pytest

from studybench.verify.normalize import last_side, normalize_answer, split_top_level


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        (r"\left( a + b \right)", "( a + b )"),
        (r"\dfrac{1}{2}", r"\frac{1}{2}"),
        (r"\tfrac12", r"\frac12"),
        (r"3.0\,\mathrm{m/s}", "3.0 m/s"),
        (r"\text{clockwise}", "clockwise"),
        (r"\mathrm{kg\,m^{2}}", "kg m^{2}"),
        (r"45^\circ", r"45 ^{\circ}"),
        (r"45^{\circ}", r"45 ^{\circ}"),
        ("45°", r"45 ^{\circ}"),
        (r"50\%", "50 %"),
        (r"\approx 3.2", "3.2"),
        (r"E \approx 3.2", "E = 3.2"),
        ("（A），", "(A)"),
        ("−3", "-3"),
        ("$x$.", "x"),
        (r"\displaystyle\frac{a}{b}", r"\frac{a}{b}"),
    ],
)
def test_normalize(raw: str, normalised: str) -> None:
    assert normalize_answer(raw) == normalised


@pytest.mark.parametrize(
    "text",
    [r"\theta", r"\beta e^{x}", r"\frac{\hbar}{2}", r"\sqrt{R^2+h^2}", r"\leftarrow", "G M_e"],
)
def test_constants_and_commands_are_never_mangled(text: str) -> None:
    assert normalize_answer(text) == text


def test_last_side_takes_the_last_expression() -> None:
    assert last_side(r"v = \sqrt{2gh}") == r"\sqrt{2gh}"
    assert last_side(r"T = 2\pi\sqrt{l/g} = 2.0 s") == "2.0 s"
    assert last_side(r"\frac{a=b}{c}") == r"\frac{a=b}{c}"
    assert last_side("x <= 3") == "x <= 3"


def test_split_top_level() -> None:
    assert split_top_level("a=b=c", "=") == ["a", "b", "c"]
    assert split_top_level("f(a,b),c", ",") == ["f(a,b)", "c"]
