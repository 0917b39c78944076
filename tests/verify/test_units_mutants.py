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
    counts_things,
    is_dimensionless,
    parse_unit,
    same_dimension,
    si_factor,
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


@pytest.mark.parametrize(
    ("word", "counted"),
    [
        ("photon", True),
        ("photons", True),  # a plural: the singular is a counted thing
        ("nucleus", True),
        ("nuclei", True),  # Latin plural: nucle-i is nucle-us
        ("quantum", True),
        ("quanta", True),  # Latin plural: quant-a is quant-um
        ("Photons", True),  # case does not matter
        ("people", True),
        ("times", False),  # "3 times" is an operator, not three things called "time"
        ("Times", False),
        ("metres", False),  # a unit, not a thing counted
        ("s", False),
        ("stars", True),
        ("sphotons", False),  # only a trailing s is a plural ending
    ],
)
def test_counts_things_reads_plurals(word: str, counted: bool) -> None:
    """A remark naming things counted (``12 photons``, ``3 nuclei``) names a count; ``times``
    is the one counted word that is an operator."""
    assert counts_things(word) is counted


@pytest.mark.parametrize(
    ("text", "factor"),
    [
        ("km", 1000.0),
        ("%", 0.01),
        ("m/s", 1.0),
        ("g", 1e-3),
        ("K", 1.0),
        (r"^{\circ}", math.pi / 180),
    ],
)
def test_si_factor_of_multiplicative_units(text: str, factor: float) -> None:
    assert si_factor(parse_unit(text)) == pytest.approx(factor)


@pytest.mark.parametrize("text", [r"^{\circ}C", r"^{\circ}F", "degrees Celsius", "fahrenheit"])
def test_si_factor_of_a_scale_with_an_offset_is_none(text: str) -> None:
    """25 degC is 298.15 K, not 25 times some factor: no factor converts it."""
    unit = parse_unit(text)
    assert unit is not None, text
    assert si_factor(unit) is None


def test_si_factor_of_no_unit_is_none() -> None:
    assert si_factor("not a unit at all") is None


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("rad/s", "Hz"),
        ("Hz", "rad/s"),
        (r"^{\circ}/s", "Hz"),
        ("kHz", "rad/s"),
        ("rad/s", "MHz"),
        ("mrad/ms", "Hz"),
    ],
)
def test_hertz_and_an_angle_per_time_do_not_convert_either_way(text: str, target: str) -> None:
    """1 Hz is 2 pi rad/s to a physicist while pint's radian is 1 (1 Hz "equals" 1 rad/s):
    neither reading may decide, whichever side the hertz is on, prefixed or not."""
    unit, other = parse_unit(text), parse_unit(target)
    assert unit is not None and other is not None
    assert convert(1.0, unit, other) is None
    assert not same_dimension(unit, other)


@pytest.mark.parametrize(
    ("text", "target", "factor"),
    [
        ("Hz", "Hz", 1.0),
        ("kHz", "Hz", 1000.0),
        ("Hz", "1/s", 1.0),
        ("rad/s", "rev/min", 30 / math.pi),
    ],
)
def test_hertz_converts_to_hertz_and_angles_to_angles(
    text: str, target: str, factor: float
) -> None:
    unit, other = parse_unit(text), parse_unit(target)
    assert same_dimension(unit, other)
    assert convert(1.0, unit, other) == pytest.approx(factor)


@pytest.mark.parametrize(
    ("text", "target", "factor"),
    [
        ("Hz", "rev/min", 60.0),
        ("rev/s", "kHz", 1e-3),
        ("rpm", "Hz", 1 / 60),
        ("cycle/s", "Hz", 1.0),
    ],
)
def test_turns_per_time_beside_hertz_count_turns(text: str, target: str, factor: float) -> None:
    """A frequency counts turns: 3000 rpm is 50 Hz (pint's reading, 2 pi per turn, made it
    314 Hz), prefixed hertz included; beside radians a turn stays 2 pi radians."""
    unit, other = parse_unit(text), parse_unit(target)
    assert same_dimension(unit, other)
    assert convert(1.0, unit, other) == pytest.approx(factor)
