"""TeX lengths in points: the one table the hiding rules (visibility, enclosure) read."""

from __future__ import annotations

import pytest

from studybench.verify.lengths import points

CASES = [
    ("12pt", 12.0),
    ("12", 12.0),
    ("-300pt", 300.0),
    ("+2pt", 2.0),
    ("0.5cm", 14.225),
    (".5cm", 14.225),
    ("5.", 5.0),
    ("1in", 72.27),
    ("10mm", 28.5),
    ("2em", 20.0),
    ("2ex", 8.6),
    ("4bp", 4.0),
    ("1pc", 12.0),
    ("1dd", 1.07),
    ("1cc", 12.84),
    ("65536sp", 1.0),
    ("4px", 3.0),
    ("10Q", 7.1),
    ("3 PT", 3.0),
    ("  7pt  ", 7.0),
]


@pytest.mark.parametrize(("spec", "expected"), CASES)
def test_a_length_is_read_in_points(spec: str, expected: float) -> None:
    assert points(spec) == pytest.approx(expected)


@pytest.mark.parametrize(
    "spec", ["", "pt", "\\zero", "3furlongs", "3xx", "1e3pt", "3 4pt", "--3pt", "3pt5"]
)
def test_no_length_a_reader_can_tell_is_none(spec: str) -> None:
    assert points(spec) is None
