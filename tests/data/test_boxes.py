from __future__ import annotations

import pytest

from studybench.data.boxes import scan_boxes, split_top_level_commas


@pytest.mark.parametrize(
    ("text", "contents", "unbalanced"),
    [
        (r"\boxed{1}", ("1",), False),
        (r"so \boxed{a} and then \boxed{b}", ("a", "b"), False),
        (r"\boxed{\frac{1}{2}}", (r"\frac{1}{2}",), False),
        (r"\boxed {x}", ("x",), False),
        (r"\boxed{\{a, b\}}", (r"\{a, b\}",), False),
        (r"\boxed{\}}", (r"\}",), False),
        (r"\boxed{\boxed{a}} \boxed{b}", (r"\boxed{a}", "b"), False),
        (r"\boxed{}", ("",), False),
        (r"\boxed{1} \boxed{2", ("1",), True),
        ("no box here", (), False),
        (r"\fbox{1}", (), False),
    ],
)
def test_scan_boxes(text: str, contents: tuple[str, ...], unbalanced: bool) -> None:
    scan = scan_boxes(text)
    assert scan.contents == contents
    assert scan.unbalanced is unbalanced


def test_scan_is_linear_on_long_input() -> None:
    text = r"\boxed{" + "{" * 20000 + "}" * 20000 + "}" + r"\boxed{x}" * 1000
    scan = scan_boxes(text)
    assert len(scan.contents) == 1001


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("1, 2, 3", ["1", "2", "3"]),
        ("single", ["single"]),
        ("[0, 1), (2, 3]", ["[0, 1)", "(2, 3]"]),
        (r"\frac{1,2}{3}, x", [r"\frac{1,2}{3}", "x"]),
        (r"\{a, b\}, c", [r"\{a, b\}", "c"]),
        ("f(a, b), g[c, d]", ["f(a, b)", "g[c, d]"]),
        ("a,", ["a", ""]),
    ],
)
def test_split_top_level_commas(text: str, parts: list[str]) -> None:
    assert split_top_level_commas(text) == parts
