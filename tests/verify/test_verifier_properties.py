"""Invariants of the rule verifier through its public API (``studybench.verify``), checked
with hypothesis: a value restated in another unit of the same dimension is accepted; ten
times the value or the opposite sign is rejected; NV agrees with itself when prediction and
gold swap, where the rule is symmetric (one value in two notations, or values far apart);
a TUP answer counts only in the gold's boxing order. Unit sizes come from
``property_units.json`` (SI definitions), not from the verifier's registry."""

from __future__ import annotations

import json
import math
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.verify import judge_inline, verify

UNITS: dict[str, dict[str, float]] = json.loads(
    Path(__file__).with_name("property_units.json").read_text()
)["dimensions"]
FAST = settings(max_examples=60, deadline=None)

# Three significant figures, 10^-4 .. 10^4: the values physics answers carry.
values = st.builds(
    lambda mantissa, exponent: mantissa / 100 * 10.0**exponent,
    st.integers(100, 999),
    st.integers(-4, 4),
)
unit_pairs = st.sampled_from(sorted(UNITS)).flatmap(
    lambda dim: st.tuples(
        st.just(dim), st.sampled_from(sorted(UNITS[dim])), st.sampled_from(sorted(UNITS[dim]))
    )
)


def latex_number(x: float, style: str = "g") -> str:
    """A number as an answer writes it: plain, or ``a \\times 10^{b}``."""
    if style == "sci" or (style == "g" and not 1e-3 <= abs(x) < 1e5):
        exponent = math.floor(math.log10(abs(x)))
        mantissa = x / 10.0**exponent
        return f"{mantissa:.6g} \\times 10^{{{exponent}}}"
    return f"{x:.6g}"


def boxed(x: float, unit: str = "", style: str = "g") -> str:
    suffix = f"\\,\\mathrm{{{unit}}}" if unit else ""
    return f"\\boxed{{{latex_number(x, style)}{suffix}}}"


@FAST
@given(values, unit_pairs, st.sampled_from(["g", "sci"]))
def test_another_unit_of_the_same_dimension_is_accepted(
    value: float, pair: tuple[str, str, str], style: str
) -> None:
    dim, gold_unit, pred_unit = pair
    converted = value * UNITS[dim][gold_unit] / UNITS[dim][pred_unit]
    verdict = judge_inline(boxed(converted, pred_unit, style), boxed(value, gold_unit), "NV")
    assert verdict.correct, (boxed(converted, pred_unit, style), boxed(value, gold_unit), verdict)


@FAST
@given(values, unit_pairs, st.sampled_from([10.0, 0.1, -1.0, -10.0]))
def test_ten_times_or_the_opposite_sign_is_rejected(
    value: float, pair: tuple[str, str, str], factor: float
) -> None:
    dim, gold_unit, pred_unit = pair
    wrong = factor * value * UNITS[dim][gold_unit] / UNITS[dim][pred_unit]
    verdict = judge_inline(boxed(wrong, pred_unit), boxed(value, gold_unit), "NV")
    assert not verdict.correct, (boxed(wrong, pred_unit), boxed(value, gold_unit), verdict)


@FAST
@given(values, st.sampled_from([1.0, 10.0, -1.0, 0.01]))
def test_unitless_values_wrong_by_ten_or_sign_are_rejected(value: float, factor: float) -> None:
    verdict = judge_inline(boxed(value * factor), boxed(value), "NV")
    assert verdict.correct is (factor == 1.0), (value, factor, verdict)


def _notations(x: float) -> list[str]:
    out = [latex_number(x, "g"), latex_number(x, "sci"), f"{x:.6e}"]
    if x == int(x) and abs(x) < 1e6:
        out.append(str(int(x)))
    return out


@FAST
@given(
    values,
    st.sampled_from([1.0, 1.0, 3.0, 0.2, -1.0, 100.0]),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_nv_is_symmetric_where_the_rule_is(value: float, ratio: float, i: int, j: int) -> None:
    """Equal values in any two notations, or values a factor >= 3 apart: swapping prediction
    and gold cannot change the verdict (relative tolerance only breaks symmetry at its edge)."""
    a_forms, b_forms = _notations(value), _notations(value * ratio)
    a, b = f"\\boxed{{{a_forms[i % len(a_forms)]}}}", f"\\boxed{{{b_forms[j % len(b_forms)]}}}"
    forward, backward = judge_inline(a, b, "NV"), judge_inline(b, a, "NV")
    assert forward.correct == backward.correct == (ratio == 1.0), (a, b, forward, backward)


@FAST
@given(st.integers(2, 4), st.data())
def test_tup_counts_only_in_the_gold_order(n: int, data: st.DataObject) -> None:
    base = data.draw(values)
    elements = [base * (i + 2) for i in range(n)]  # distinct well beyond the tolerance
    gold = "".join(boxed(x) for x in elements)
    sequence = ",".join(["NV"] * n)
    assert judge_inline(f"Final Answer: {gold}", gold, "TUP", sequence).correct
    order = data.draw(st.permutations(range(n)).filter(lambda p: list(p) != list(range(n))))
    pred = "".join(boxed(elements[i]) for i in order)
    verdict = judge_inline(f"Final Answer: {pred}", gold, "TUP", sequence)
    assert not verdict.correct, (pred, gold, verdict)


@FAST
@given(values, st.sampled_from(["g", "sci"]))
def test_percent_of_a_dimensionless_value_is_read_as_hundredths(value: float, style: str) -> None:
    """One reading of a dimensionless scale, never both (issue 32): a percent prediction
    against a unitless gold is applied (a share), a bare prediction against a percent gold
    is read in percent, as a bare number is read in any gold's unit."""
    fraction = value / 1000  # 1e-7 .. 10: a share
    percent = f"\\boxed{{{latex_number(fraction * 100, style)}\\%}}"
    plain = boxed(fraction, style=style)
    assert judge_inline(percent, plain, "NV").correct, (percent, plain)
    assert judge_inline(boxed(fraction * 100, style=style), percent, "NV").correct
    assert not judge_inline(plain, percent, "NV").correct, (plain, percent)
    assert not judge_inline(boxed(fraction * 10, style=style), percent, "NV").correct


@FAST
@given(st.integers(1, 179))
def test_degrees_and_radians_of_one_angle_agree(degrees: int) -> None:
    """Degrees applied to a unitless gold are radians; a bare prediction against a degree
    gold is in degrees, unless it is a multiple of pi (a radian measure)."""
    gold = f"\\boxed{{{degrees}^\\circ}}"
    radians = boxed(math.radians(degrees))
    in_pi = f"\\boxed{{\\frac{{{degrees}\\pi}}{{180}}}}"
    assert judge_inline(in_pi, gold, "NV").correct, (in_pi, gold)
    assert judge_inline(boxed(degrees), gold, "NV").correct, (degrees, gold)
    assert judge_inline(gold, radians, "NV").correct, (gold, radians)
    assert not judge_inline(f"\\boxed{{-\\frac{{{degrees}\\pi}}{{180}}}}", gold, "NV").correct


@settings(max_examples=8, deadline=None)
@given(values, unit_pairs)
def test_the_bounded_public_verify_agrees(value: float, pair: tuple[str, str, str]) -> None:
    """The same decisions through :func:`verify` (worker processes, bounded time)."""
    dim, gold_unit, pred_unit = pair
    converted = value * UNITS[dim][gold_unit] / UNITS[dim][pred_unit]
    assert verify(boxed(converted, pred_unit), boxed(value, gold_unit), "NV").correct
    assert not verify(boxed(-converted, pred_unit), boxed(value, gold_unit), "NV").correct
