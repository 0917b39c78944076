"""A numeric answer left as arithmetic on quantities with their units.

``\\frac{(6.63\\times10^{-34}\\,\\mathrm{J\\,s})(3.00\\times10^{8}\\,\\mathrm{m/s})}{5.00\\times
10^{-7}\\,\\mathrm{m}}`` and ``\\tfrac32 (1.38\\times10^{-23}\\,\\mathrm{J/K})(300\\,\\mathrm{K})``
state a value (3.98e-19 J, 6.21e-21 J) as plainly as the number would; the numeric reader
takes one unit, at the end, and refused them as ``not_a_number``.

Each unit written after a number is read by pint and stands in as a quantity of one such
unit; the arithmetic is then done by pint, which also refuses a sum of two dimensions. The
value and unit that come out are judged as any other: against the gold's dimension, at its
tolerance. Nothing here accepts by itself, and a reading that does not work is no reading.
"""

from __future__ import annotations

import re
from typing import Any

from studybench.verify.parsing import UnparseableError, parse_expressions
from studybench.verify.symbolic import canonical_name
from studybench.verify.units import parse_unit, registry

# A unit after a number (or after an exponent's brace), up to a closing bracket or the end:
# "J s", "m/s", "J/K", "kg m^{2}", "m s^{-1}". Letters only in its words, so a symbol of an
# expression (a bare x) never reads as one unless a parser reads it as a unit too.
_WORD = r"(?:[A-Za-zΩμµÅ°]+(?:\^\{?-?\d\}?)?)"
_UNIT_RUN = re.compile(
    rf"(?<=[\d}}])(?P<gap>\s*(?:\\[,;: ]\s*)*)"
    rf"(?P<unit>{_WORD}(?:(?:\s*(?:/|\\cdot)\s*|\s+){_WORD})*)"
    r"\s*(?=[)}]|$)"
)
MAX_UNITS = 8
# a box, a text or a relation is no arithmetic on quantities (a probe's \boxed{3.0 s} is one
# quantity, read or refused as written)
_NOT_ARITHMETIC = re.compile(r"\\(?:boxed|text|mathrm|fbox)|[=<>]|\\(?:approx|le|ge|sim)(?![a-z])")


def quantity_arithmetic(text: str) -> tuple[float, Any] | None:
    """The value and pint unit of ``text`` read as arithmetic on quantities, or None where it
    is not that (fewer than two units: one is the plain reader's; a unit pint does not know;
    a name that is no unit; a sum of two dimensions)."""
    if _NOT_ARITHMETIC.search(text):
        return None
    runs = list(_UNIT_RUN.finditer(text))
    if not 2 <= len(runs) <= MAX_UNITS:
        return None
    units, pieces, last = [], [], 0
    for index, run in enumerate(runs):
        unit = parse_unit(run.group("unit"))
        if unit is None:
            return None
        units.append(unit)
        pieces.append(f"{text[last : run.start()]} \\cdot U_{{{index}}} ")
        last = run.end()
    pieces.append(text[last:])
    try:
        (expr,) = parse_expressions("".join(pieces))
    except (UnparseableError, RecursionError, ValueError):
        return None
    return _evaluated(expr, units)


def _evaluated(expr: Any, units: list[Any]) -> tuple[float, Any] | None:
    import sympy

    symbols = sorted(expr.free_symbols, key=str)
    wanted = {f"U_{i}": unit for i, unit in enumerate(units)}
    if not symbols or any(canonical_name(s) not in wanted for s in symbols):
        return None  # a name of the answer's own, or every unit cancelled in the parse
    ureg = registry()
    try:
        function = sympy.lambdify(
            symbols, expr, modules=[{"sqrt": lambda q: q**0.5, "Abs": abs}, "math"]
        )
        result = function(*(ureg.Quantity(1.0, wanted[canonical_name(s)]) for s in symbols))
    except Exception:  # pint's DimensionalityError, a function of a dimension, an overflow
        return None
    if not hasattr(result, "units"):
        return None
    magnitude = complex(result.magnitude)
    if magnitude.imag:
        return None
    return magnitude.real, result.units
