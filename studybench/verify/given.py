"""A formula in a numeric answer, evaluated with the values the question gives its symbols.

A numeric chain ``h = \\frac{kx^2}{mg} = 0.816\\,m`` states a formula and a value. The formula
used to be skipped as a symbolic step with no number to check, so a wrong formula beside the
right number was rewarded (issue 32: a chain is right only when every side equals the gold).
Where the question gives every symbol of the formula a value (``$k = 400$ N/m``, ``$x =
0.100$ m``, ...), the formula has a value too: one in the gold's dimension that differs from
it says the answer contradicts itself. Nothing is ever accepted this way; a formula that
cannot be evaluated (an unbound symbol, a dimension that does not fit, such as Kepler's law in
years and AU) is left as it was: skipped."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from studybench.verify.normalize import normalize_answer, superscripts_as_powers
from studybench.verify.parsing import UnparseableError, parse_expressions, parse_quantity
from studybench.verify.question import given_assignments
from studybench.verify.units import PROSE_WORDS, has_offset, parse_unit, registry

# How far a formula's value may lie from the gold before it contradicts it: the givens are
# rounded, and a formula may use g = 9.8 where the gold used 9.80665.
CONTRADICTION = 0.03
MAX_FORMULA_CHARS = 300


@lru_cache(maxsize=256)
def given_quantities(question: str) -> dict[str, Any]:
    """The pint quantities the question's math gives its names (``$R = 2.00\\,k\\Omega$``),
    keyed by the name's symbol as the parser reads it. ``$t = 0$`` names an instant, not a
    value; a name given twice (two parts, two values) is no value of either."""
    ureg = registry()
    found: dict[str, Any] = {}
    twice: set[str] = set()
    written = _PLAIN_GIVEN.sub(_as_math, question) if "=" in question else question
    for name, value in given_assignments(_UNIT_AFTER_MATH.sub(_unit_inside, written)):
        try:
            (symbol,) = parse_expressions(name)
            quantity = parse_quantity(normalize_answer(value))
        except (UnparseableError, RecursionError, ValueError):
            continue
        if not getattr(symbol, "is_Symbol", False):
            continue
        if quantity.unit is not None and (has_offset(quantity.unit) or _turns(quantity.unit)):
            continue  # 20 °C is no multiplicative quantity; 300 rpm is 2π rad or one cycle
        if symbol.name in found:
            twice.add(symbol.name)
        unit = quantity.unit if quantity.unit is not None else ureg.dimensionless
        found[symbol.name] = ureg.Quantity(quantity.value, unit)
    return {name: q for name, q in found.items() if name not in twice}


# "$T = 300$ K": a value's unit written after its math closes
_UNIT_AFTER_MATH = re.compile(
    r"\$(?P<math>[^$]*?=\s*[-+]?\d+(?:\.\d+)?(?:\s*\\times\s*10\^\{?-?\d+\}?)?)\$"
    r"\s*(?P<unit>[A-Za-zΩμ°][A-Za-zΩμ°/^0-9\-]*)"
)


# a value given in plain text, outside the math: "(g = 9.8 m/s^2)", "Take g = 9.8 m/s²" (red
# team r27b); math spans are matched whole so that nothing inside them is read twice
_PLAIN_GIVEN = re.compile(
    r"\$[^$]*\$|\\\(.*?\\\)"
    # a vector's name ("\\vec F_1 = 3 N east"): its magnitude is no value of the symbol
    r"|\\[A-Za-z]+\s*\{?\s*[A-Za-z](?:_\{?[A-Za-z0-9]{1,4}\}?)?\}?"
    r"|(?<![\w\\^_{])(?P<name>[A-Za-z](?:_\{?[A-Za-z0-9]{1,4}\}?)?)[ \t]*=[ \t]*"
    r"(?P<value>[-+]?\d+(?:\.\d+)?(?:[ \t]*(?:×|\*)[ \t]*10\^?[-−]?\d+)?)"
    r"(?:[ \t]*(?P<unit>[A-Za-zΩμ°][A-Za-zΩμ°/^0-9²³⁻¹·-]*))?"
)
_MORE_UNIT = re.compile(r"[ \t]+[A-Za-zΩμ][\w^/²³·-]*[\^/²³]")


def _as_math(match: re.Match[str]) -> str:
    """A plain ``name = value unit`` written as the math a question usually gives it in."""
    if match.group("name") is None:
        return match.group(0)  # a math span: left as written
    value = match.group("value").replace("×", "\\times ").replace("*", "\\times ")
    value = re.sub(r"10\^?([-−]?\d+)$", r"10^{\1}", value) if "times" in value else value
    unit = superscripts_as_powers((match.group("unit") or "").rstrip(".,;:-")).replace("·", " ")
    if unit and (unit.casefold() in PROSE_WORDS or parse_unit(unit) is None):
        return match.group(0)  # "x = 2 apples": no quantity read
    if _MORE_UNIT.match(match.string, match.end()):
        return match.group(0)  # "k = 9.0e9 N m^2/C^2": a unit of several words, not read
    shown = f"\\,\\mathrm{{{unit}}}" if unit else ""
    return f"${match.group('name')} = {value}{shown}$"


def _unit_inside(match: re.Match[str]) -> str:
    unit = match.group("unit").rstrip(".,;:")
    if unit.casefold() in PROSE_WORDS or parse_unit(unit) is None:
        return match.group(0)
    return f"${match.group('math')}\\,\\mathrm{{{unit}}}$"


def _turns(unit: Any) -> bool:
    """Whether ``unit`` counts turns (rpm, rev/s, cycles): pint reads a revolution as 2π
    radians, a formula's f as cycles; which one a symbol means is not written."""
    return any(word in str(unit) for word in ("rev", "turn", "cycle", "rpm"))


def contradicts_givens(side: str, form: str, question: str) -> bool:
    """Whether the formula ``side``, evaluated with the question's given values, states a
    value in the dimension of the gold ``form`` that differs from it by more than
    :data:`CONTRADICTION`. False wherever that cannot be decided."""
    if not question or len(side) > MAX_FORMULA_CHARS:
        return False
    value = _evaluated(side, question)
    if value is None:
        return False
    try:
        gold = parse_quantity(form)
    except UnparseableError:
        return False
    if gold.value == 0.0 or (gold.unit is not None and has_offset(gold.unit)):
        return False
    ureg = registry()
    try:
        stated = value.to(gold.unit if gold.unit is not None else ureg.dimensionless).magnitude
    except Exception:  # pint: another dimension, so no statement about the gold's quantity
        return False
    if isinstance(stated, complex) or not math.isfinite(stated):
        return False
    return bool(abs(stated - gold.value) > CONTRADICTION * abs(gold.value))


def _evaluated(side: str, question: str) -> Any | None:
    """The pint quantity ``side`` evaluates to with every symbol given; None otherwise."""
    import sympy

    givens = given_quantities(question)
    if not givens:
        return None
    try:
        (expr,) = parse_expressions(side)
    except (UnparseableError, RecursionError):
        return None
    symbols = sorted(getattr(expr, "free_symbols", set()), key=str)
    if not isinstance(expr, sympy.Expr) or not symbols:
        return None
    if any(s.name not in givens for s in symbols):
        return None
    try:
        function = sympy.lambdify(symbols, expr, modules=[_PINT_FUNCTIONS, "math"])
        value = function(*(givens[s.name] for s in symbols))
    except Exception:  # pint: adding unlike dimensions, a logarithm of a length, ...
        return None
    return value if hasattr(value, "to") else registry().Quantity(value)


def _of_number(function: Callable[[float], float]) -> Callable[[Any], float]:
    """``function`` of a dimensionless quantity: pint's ``float`` gives an angle in degrees in
    radians, and refuses a length (another dimension: no value, the formula is skipped)."""

    def applied(x: Any) -> float:
        return function(float(x))

    return applied


_PINT_FUNCTIONS: dict[str, Any] = {
    "sqrt": lambda x: x**0.5,
    "Abs": abs,
    **{
        name: _of_number(getattr(math, name))
        for name in (
            "exp",
            "log",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
        )
    },
}
