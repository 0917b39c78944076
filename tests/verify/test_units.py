from __future__ import annotations

import pytest

from studybench.verify.parsing import UnparseableError, parse_number, parse_quantity
from studybench.verify.units import convert, parse_unit, same_dimension


@pytest.mark.parametrize(
    ("text", "target", "factor"),
    [
        ("m/s", "m/s", 1.0),
        ("km/h", "m/s", 1 / 3.6),
        ("kg m^{2}", "kg*m**2", 1.0),
        ("m s^{-1}", "m/s", 1.0),
        (r"\mu m", "m", 1e-6),
        (r"k\Omega", "ohm", 1e3),
        (r"\AA", "m", 1e-10),
        ("N * m", "J", 1.0),
        ("N.m", "J", 1.0),
        ("eV", "J", 1.602176634e-19),
        ("%", "dimensionless", 0.01),
        (r"M_{\odot}", "kg", 1.98847e30),
        ("AU", "m", 1.495978707e11),
        ("g/cm^3", "kg/m**3", 1000.0),
        # a scale's degree inside a compound unit is a step of the scale (issue 32)
        (r"J/ ^{\circ} C", "J/K", 1.0),
        (r"J/(kg ^{\circ} C)", "J/(kg*K)", 1.0),
        (r"^{\circ} C/s", "K/s", 1.0),
        (r"^{\circ} C^{-1}", "1/K", 1.0),
        (r"J/ ^{\circ} F", "J/K", 1.8),
    ],
)
def test_parse_unit(text: str, target: str, factor: float) -> None:
    unit = parse_unit(text)
    assert unit is not None, text
    assert convert(1.0, unit, parse_unit(target) or target) == pytest.approx(factor, rel=1e-6)


@pytest.mark.parametrize("text", ["x", r"\theta", "2", "", "m^{10^{10}}", "foo bar"])
def test_not_units(text: str) -> None:
    assert parse_unit(text) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2.5e26", 2.5e26),
        (r"2.5\times10^{26}", 2.5e26),
        (r"2.5 \cdot 10^{26}", 2.5e26),
        (r"25\times 10^{25}", 2.5e26),
        (r"10^{-3}", 1e-3),
        (r"-\frac{3}{4}", -0.75),
        (r"3\sqrt{2}", 4.242640687),
        (r"\pi/2", 1.570796327),
        ("1,000", 1000.0),
        ("1{,}000", 1000.0),
        (".5", 0.5),
    ],
)
def test_parse_number(text: str, value: float) -> None:
    assert parse_number(text) == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize("text", [r"10^{10^{10}}", "x + 1", r"10^{5000}", "1000!", "{" * 60 + "1"])
def test_refused_numbers(text: str) -> None:
    with pytest.raises(UnparseableError):
        parse_number(text)


def test_parse_quantity_splits_value_and_unit() -> None:
    q = parse_quantity(r"\frac{1}{2} kg")
    assert q.value == 0.5 and str(q.unit) == "kilogram"
    q = parse_quantity(r"2\pi rad/s")
    assert q.value == pytest.approx(6.283185307) and q.unit is not None
    assert parse_quantity("3.0").unit is None


@pytest.mark.parametrize(
    ("value", "unit", "target", "expected"),
    [
        (50.0, "cycles/s", "Hz", 50.0),  # a frequency counts turns: one a second is 1 Hz
        (3000.0, "rpm", "Hz", 50.0),
        (50.0, "rev/s", "kHz", 0.05),
        (50.0, "Hz", "rpm", 3000.0),  # either way round
        (0.05, "kHz", "rev/s", 50.0),
        (3000.0, "rpm", "rad/s", 314.159),  # against radians a turn is 2 pi radians
        (314.0, "rad/s", "Hz", None),  # Hz and an angle per time never convert
        (0.314, "kHz", "rad/s", None),  # a prefixed hertz is hertz
        (314.0, "mrad/ms", "Hz", None),  # a prefixed radian is an angle
        (50.0, "cycles/s", "deg/s", 18000.0),
    ],
)
def test_turns_per_time_beside_hertz(
    value: float, unit: str, target: str, expected: float | None
) -> None:
    converted = convert(value, parse_unit(unit), parse_unit(target))
    if expected is None:
        assert converted is None
        assert not same_dimension(parse_unit(unit), parse_unit(target))
    else:
        assert converted == pytest.approx(expected, rel=1e-4)
        assert same_dimension(parse_unit(unit), parse_unit(target))


@pytest.mark.parametrize("word", ["Nuclei", "nuclei", "Quanta", "quanta", "Photons"])
def test_counted_things_in_any_case(word: str) -> None:
    from studybench.verify.units import counts_things

    assert counts_things(word)


@pytest.mark.parametrize("text", [r"^{\circ} C", r"^{\circ} F", "degrees Celsius"])
def test_a_scale_alone_keeps_its_offset(text: str) -> None:
    """Alone, a degree Celsius is a point of the scale: 0 °C is 273.15 K, not 0 K."""
    unit = parse_unit(text)
    assert unit is not None and "delta" not in str(unit)
