"""Comparing a solution's outputs with the expected ones, as structured data.

Outputs arrive as parsed JSON from the sandbox (the host never evaluates program text, which
the reference did with ``eval`` on printed output). Numbers match within a relative and an
absolute tolerance (NaN matches NaN), booleans only booleans, lists element by element with
equal lengths (an array and a nested list are the same data), complex numbers are
``{"complex": [re, im]}``.
"""

from __future__ import annotations

import math
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
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


def outputs_equal(actual: Any, expected: Any, rel: float = 1e-6, abs_: float = 1e-9) -> bool:
    """Whether ``actual`` is ``expected`` within tolerance (recursively)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and actual == expected
    if _number(expected):
        if _number(actual):
            return _close(float(actual), float(expected), rel, abs_)
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
