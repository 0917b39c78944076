"""Comparing a solution's outputs with the expected ones, as structured data.

Outputs arrive as parsed JSON from the sandbox (the host never evaluates program text, which
the reference did with ``eval`` on printed output). Numbers match within an absolute
tolerance (the reference's 1e-2 by default; a relative one can be added), infinities of the
same sign match, NaN matches NaN; booleans only booleans, lists element by element with equal
lengths (an array and a nested list are the same data), complex numbers are
``{"complex": [re, im]}``.

Stricter than the reference on purpose: a one-element list is not its element (the reference
unwrapped ``[[5]]`` to ``5``), ``True`` is not ``1``, and dictionaries must have the same keys
with equal values (the reference compared keys only in places).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _complex(value: Any) -> complex | None:
    if isinstance(value, dict) and set(value) == {"complex"}:
        pair = value["complex"]
        if isinstance(pair, list) and len(pair) == 2 and all(_number(p) for p in pair):
            return complex(pair[0], pair[1])
    return None


def _close(a: float, b: float, rel: float, abs_: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def outputs_equal(actual: Any, expected: Any, rel: float = 0.0, abs_: float = 1e-2) -> bool:
    """Whether ``actual`` is ``expected`` within tolerance (recursively)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and actual == expected
    if _number(expected):
        if isinstance(actual, int) and isinstance(expected, int) and not isinstance(actual, bool):
            diff = abs(actual - expected)  # exact, even beyond float range
            return diff <= abs_ or (rel > 0 and Fraction(diff) <= Fraction(rel) * abs(expected))
        if _number(actual):
            try:
                return _close(float(actual), float(expected), rel, abs_)
            except OverflowError:  # an int beyond float range against a float
                return False
        value = _complex(actual)
        return value is not None and value.imag == 0 and _close(value.real, expected, rel, abs_)
    expected_complex = _complex(expected)
    if expected_complex is not None:
        got = complex(actual) if _number(actual) else _complex(actual)
        return (
            got is not None
            and _close(got.real, expected_complex.real, rel, abs_)
            and _close(got.imag, expected_complex.imag, rel, abs_)
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(outputs_equal(a, e, rel, abs_) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and set(actual) == set(expected)
            and all(outputs_equal(actual[k], expected[k], rel, abs_) for k in expected)
        )
    return type(actual) is type(expected) and bool(actual == expected)
