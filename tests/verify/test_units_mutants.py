"""Every unit spelling the reader rewrites (verify/units.py), checked against physical values.

Found unchecked by mutation testing (issue 26): most rewrites of ``_UNIT_REWRITES`` (degrees
Celsius and Fahrenheit, solar and Earth units, constants written inside a unit, gauss,
angstrom spellings, ``\\cdot``/``\\times``, powers) had no test, nor the two readings of
``A``, the dimension helpers or the dimensionless conversion. The expected factors are the
SI values (CODATA 2018, IAU 2015 nominal values), not the module's definitions.
"""

from __future__ import annotations

import math

import pytest

from studybench.verify.units import (
    convert,
    is_dimensionless,
    parse_unit,
    same_dimension,
    to_base_dimensionless,
    unit_readings,
)


@pytest.fixture(autouse=True)
def _read_afresh() -> None:
    """Each test here checks the reader itself, not what an earlier test left in its caches
    (mutation testing runs the tests in processes forked after a full run)."""
    parse_unit.cache_clear()
    unit_readings.cache_clear()


@pytest.mark.parametrize(
    ("text", "target", "value", "expected"),
    [
        (r"\vec{N}", "N", 2.0, 2.0),
        (r"m/\sec", "m/s", 3.0, 3.0),
        (r"^{\circ}K", "K", 300.0, 300.0),
        (r"^{\circ} C", "K", 25.0, 298.15),
        (r"^{\circ}F", "K", 212.0, 373.15),
        (r"^{\circ}", "radian", 180.0, math.pi),
        (r"R_{\odot}", "m", 1.0, 6.957e8),
        (r"L_\odot", "W", 1.0, 3.828e26),
        (r"M_{\oplus}", "kg", 1.0, 5.9722e24),
        (r"R_\oplus", "m", 1.0, 6.3781e6),
        (r"\mu_0 A/m", "T", 1.0, 1.25663706212e-6),
        (r"\epsilon_{0} V/m", "C/m**2", 1.0, 8.8541878128e-12),
        (r"\varepsilon_0 V/m", "C/m**2", 1.0, 8.8541878128e-12),
        (r"\hbar", "J*s", 2.0, 2 * 1.054571817e-34),
        (r"k_{B} K", "J", 1.0, 1.380649e-23),
        (r"m_e", "kg", 1.0, 9.1093837015e-31),
        (r"m_{p}", "kg", 1.0, 1.67262192369e-27),
        ("G", "T", 1.0, 1e-4),
        ("mG", "T", 1.0, 1e-7),
        ("kG", "T", 1.0, 0.1),
        ("gauss", "T", 1.0, 1e-4),
        ("Gauss", "T", 1.0, 1e-4),
        ("Å", "m", 1.0, 1e-10),
        (r"\mathring{A}", "m", 1.0, 1e-10),
        (r"\mathring A", "m", 1.0, 1e-10),
        (r"N \cdot m", "J", 1.0, 1.0),
        (r"N \times m", "J", 1.0, 1.0),
        ("m^{1/2}", "cm**0.5", 1.0, 10.0),
        ("s^-1", "Hz", 1.0, 1.0),
        ("s^{ -2 }", "Hz**2", 1.0, 1.0),
        ("Jy", "W/m**2/Hz", 1.0, 1e-26),
        ("nuclei/s", "1/s", 4.0, 4.0),
        ("quanta", "dimensionless", 3.0, 3.0),
        ("photons/s", "Hz", 5.0, 5.0),
        ("dex", "dimensionless", 1.0, 1.0),
        ("mag", "dimensionless", 1.0, 1.0),
    ],
)
def test_unit_spellings_convert_to_their_si_value(
    text: str, target: str, value: float, expected: float
) -> None:
    unit = parse_unit(text)
    assert unit is not None, text
    assert convert(value, unit, parse_unit(target) or target) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(
    "text", ["2 m", "1000 m", r"\frac{m}{s}", "{}", "  ", r"\alpha m", "m + s", "m; s", "5"]
)
def test_not_a_unit(text: str) -> None:
    assert parse_unit(text) is None


def test_a_has_two_readings_the_usual_first() -> None:
    readings = unit_readings("A")
    assert [convert(1.0, r, "A") for r in readings[:1]] == [pytest.approx(1.0)]
    assert len(readings) == 2
    assert convert(1.0, readings[1], "m") == pytest.approx(1e-10)
    assert len(unit_readings("mA")) == 1  # milliampere only
    assert unit_readings("x") == ()
    assert len(unit_readings("m")) == 1


def test_dimension_helpers() -> None:
    metre, km, second = parse_unit("m"), parse_unit("km"), parse_unit("s")
    assert same_dimension(metre, km) and not same_dimension(metre, second)
    assert not same_dimension(metre, None)
    assert is_dimensionless(parse_unit("%")) and not is_dimensionless(metre)
    assert convert(1.0, metre, second) is None
    assert to_base_dimensionless(50.0, parse_unit("%")) == pytest.approx(0.5)
    assert to_base_dimensionless(180.0, parse_unit(r"^{\circ}")) == pytest.approx(math.pi)
    assert to_base_dimensionless(1.0, metre) is None


def test_quanta_is_a_count_not_micrometres() -> None:
    """Bug found here: the plural rewrite turned "quanta" into "um", so "3 quanta" read as
    3 micrometres (and "nuclei" only worked because its branch kept the stem)."""
    quanta = parse_unit("quanta")
    assert quanta is not None and convert(1.0, quanta, "m") is None
    assert convert(3.0, quanta, parse_unit("quantum")) == pytest.approx(3.0)
    assert convert(2.0, parse_unit("nuclei"), parse_unit("nucleus")) == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("text", "target", "factor"),
    [("{kg}", "kg", 1.0), ("{m}/{s}", "m/s", 1.0), ("{ }N", "N", 1.0)],
)
def test_grouping_braces_are_dropped(text: str, target: str, factor: float) -> None:
    unit = parse_unit(text)
    assert unit is not None, text
    assert convert(1.0, unit, target) == pytest.approx(factor)
