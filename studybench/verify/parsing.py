"""From normalised answer text to numbers, quantities and sympy expressions, with guards.

LaTeX goes through latex2sympy2_extended (the parser behind math-verify) with symbols kept
case-sensitive, since physics uses both ``E`` and ``e``. Inputs that could make sympy run
away (power towers such as ``10^{10^{10}}``, huge exponents or factorials, very long or very
deeply nested text) are refused before parsing: a refusal is a verdict, not a hang. The
process pool's hard timeout is the last line of defence, not the first.

Parses are cached per process, so a gold answer compared with many samples is parsed once.
"""

from __future__ import annotations

import cmath
import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from studybench.verify.normalize import split_top_level
from studybench.verify.units import parse_unit

MAX_PARSE_CHARS = 2000
MAX_NESTING = 40
MAX_EXPONENT = 400

_NUMBER = re.compile(
    r"""^\s*(?P<sign>[+-])?\s*
    (?:
        10\s*\^\s*(?:\{\s*(?P<q1>[+-]?\s*\d+)\s*\}|(?P<q2>[+-]?\d))
      | (?P<mant>(?:\d+(?:\.\d*)?|\.\d+))
        (?:\s*[eE]\s*(?P<e>[+-]?\d+))?
        (?:\s*(?:\\times|\\cdot|\*|x)\s*10\s*\^\s*(?:\{\s*(?P<p1>[+-]?\s*\d+)\s*\}|(?P<p2>[+-]?\d)))?
    )""",
    re.VERBOSE,
)
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?")
# A numeric power tower (10^{10^{10}}) would make sympy compute an astronomically large
# integer; symbolic towers such as e^{-x^2} are fine.
_POWER_TOWER = re.compile(r"\d\s*\^\s*\{?\s*[+-]?\s*\d+\s*\^")
_BIG_EXPONENT = re.compile(r"\^\s*\{?\s*[+-]?\s*(\d{4,})")
_BIG_FACTORIAL = re.compile(r"\d{3,}\s*!")
_SUBSCRIPT_CHAR = re.compile(r"_([A-Za-z0-9])")
_SUBSCRIPT_CMD = re.compile(r"_\\([A-Za-z]+)")
_PRIME = re.compile(r"(?:\^\s*\{\s*\\prime\s*\}|\^\s*\\prime|')")
_GREEK_VARIANTS = re.compile(r"\\var(epsilon|theta|phi|rho|sigma|pi)(?![a-zA-Z])")
_SPECIAL_SUBSCRIPTS = {r"\odot": "sun", r"\oplus": "earth", r"\star": "star", r"\ast": "star"}


class UnparseableError(ValueError):
    """The text is not a number / expression this parser accepts; ``reason`` says why and
    ``side`` which of several texts parsed together failed."""

    def __init__(self, reason: str, side: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.side = side


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with an optional pint unit."""

    value: float
    unit: Any | None = None
    unit_text: str = ""  # as written, for the other readings of ambiguous symbols (A, G)


def _nesting_depth(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char in "{([":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "})]":
            depth -= 1
    return deepest


def guard(text: str) -> None:
    """Refuse inputs that are too big for exact symbolic work."""
    if len(text) > MAX_PARSE_CHARS:
        raise UnparseableError("too_long")
    if _nesting_depth(text) > MAX_NESTING:
        raise UnparseableError("too_deep")
    if _POWER_TOWER.search(text):
        raise UnparseableError("too_large")
    big = _BIG_EXPONENT.search(text)
    if big and int(big.group(1)) > MAX_EXPONENT:
        raise UnparseableError("too_large")
    if _BIG_FACTORIAL.search(text):
        raise UnparseableError("too_large")


# A function of simple arguments, ``F(t)``, ``I(0)``, ``v_x(t_1)``, ``U_{eff}(\theta)``: one
# opaque quantity. Read as a product it was ``I \cdot X`` (latex2sympy: the imaginary unit
# times X), and ``\frac{I(X)}{I(0)}`` cancelled to nonsense. Products such as ``m(g + a)``
# or ``R(1 - \cos\theta)`` have operators in the parentheses and stay products.
_ARGUMENT = r"(?:[A-Za-z]|\\[A-Za-z]+|\d+(?:\.\d+)?)(?:_\{?[A-Za-z0-9]+\}?)?"
_GREEK_BASE = (
    r"\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda"
    r"|mu|nu|xi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi"
    r"|Sigma|Upsilon|Phi|Psi|Omega)(?![A-Za-z])"
)  # not \pi: \pi(x) is a product
_APPLICATION = re.compile(
    r"(?<![\\A-Za-z])([A-Za-z]|" + _GREEK_BASE + r")"
    r"(?:_(\{[A-Za-z0-9\s\\]*\}|[A-Za-z0-9]|\\[A-Za-z]+))?\s*"
    r"\(\s*(" + _ARGUMENT + r"(?:\s*,\s*" + _ARGUMENT + r")*)\s*\)"
)
_NAME_NOISE = re.compile(r"[^A-Za-z0-9]")


def _opaque_application(match: re.Match[str]) -> str:
    base, subscript, arguments = match.group(1), match.group(2) or "", match.group(3)
    name = _NAME_NOISE.sub("", subscript) + "of" + _NAME_NOISE.sub("", arguments)
    return f"{base}_{{{name}}}"


# Partial derivatives, in the notations physics uses, as one opaque quantity named by the
# function and the variables (sorted, with multiplicity): \frac{\partial^2 u}{\partial x^2},
# \partial_x^2 u and \partial^2_x u are all ``u_{dxx}``. Neither parser reads \partial.
_FUNCTION = r"(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?"
_VARIABLE = r"(?:[A-Za-z]|\\[A-Za-z]+)"
_PARTIAL_FRAC = re.compile(
    r"\\frac\s*\{\s*\\partial\s*(?:\^\s*\{?\s*(\d)\s*\}?)?\s*(" + _FUNCTION + r")\s*\}"
    r"\s*\{((?:\s*\\partial\s*" + _VARIABLE + r"(?:\s*\^\s*\{?\s*\d\s*\}?)?)+)\s*\}"
)
_PARTIAL_SUB = re.compile(
    r"\\partial\s*(?:\^\s*\{?\s*(\d)\s*\}?\s*)?_\s*\{?\s*(" + _VARIABLE + r")\s*\}?"
    r"\s*(?:\^\s*\{?\s*(\d)\s*\}?)?\s*(" + _FUNCTION + r")"
)
_DENOMINATOR_VARIABLE = re.compile(r"\\partial\s*(" + _VARIABLE + r")(?:\s*\^\s*\{?\s*(\d)\s*\}?)?")


def _derivative_name(function: str, variables: list[str]) -> str:
    base, _, subscript = function.partition("_")
    letters = "".join(sorted(v.lstrip("\\") for v in variables))
    return f"{base}_{{{_NAME_NOISE.sub('', subscript)}d{letters}}}"


def _partial_frac(match: re.Match[str]) -> str:
    order = int(match.group(1) or 1)
    variables = []
    for variable in _DENOMINATOR_VARIABLE.finditer(match.group(3)):
        variables += [variable.group(1)] * int(variable.group(2) or 1)
    if len(variables) != order:
        return match.group(0)  # orders that do not add up: left to fail as written
    return _derivative_name(match.group(2), variables)


def _partial_sub(match: re.Match[str]) -> str:
    order = int(match.group(1) or match.group(3) or 1)
    return _derivative_name(match.group(4), [match.group(2)] * order)


def _prepare(text: str) -> str:
    """Rewrite notation the LaTeX parser misreads, without changing meaning."""
    if "partial" in text:
        text = _PARTIAL_FRAC.sub(_partial_frac, text)
        text = _PARTIAL_SUB.sub(_partial_sub, text)
    text = _APPLICATION.sub(_opaque_application, text)
    for command, name in _SPECIAL_SUBSCRIPTS.items():
        text = text.replace("_{" + command + "}", "_{" + name + "}")
        text = text.replace("_" + command, "_{" + name + "}")
    text = _GREEK_VARIANTS.sub(r"\\\1", text)
    text = _PRIME.sub("_{prime}", text)
    text = _SUBSCRIPT_CMD.sub(r"_{\\\1}", text)
    text = _SUBSCRIPT_CHAR.sub(r"_{\1}", text)
    text = text.replace("^{\\circ}", "\\cdot\\frac{\\pi}{180}")
    text = re.sub(r"(?<!\\)%", r"\\cdot\\frac{1}{100}", text)
    return text


@cache
def _configs() -> tuple[Any, Any]:
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig
    from latex2sympy2_extended.math_normalization import NormalizationConfig

    normalization = NormalizationConfig(
        basic_latex=False,
        units=False,
        malformed_operators=False,
        nits=False,
        boxed="none",
        equations=False,
    )
    conversion = ConversionConfig(
        interpret_as_mixed_fractions=False,
        interpret_simple_eq_as_assignment=False,
        interpret_contains_as_eq=False,
        lowercase_symbols=False,
    )
    return normalization, conversion


_SLOW_ACCENT = re.compile(
    r"\\(dot|ddot|hat|widehat|bar|overline|tilde|widetilde|check)\s*"
    r"(?:\{\s*([A-Za-z]|\\[A-Za-z]+)\s*\}|([A-Za-z]|\\[A-Za-z]+))"
)
_SLOW_MEAN = re.compile(r"\\langle\s*([A-Za-z]|\\[A-Za-z]+)\s*\\rangle")
_SLOW_VECTOR = re.compile(r"\\vec\s*\{([^{}]*)\}")
_ACCENT_NAMES = {"widehat": "hat", "widetilde": "tilde", "bar": "mean", "overline": "mean"}


def _prepare_slow(text: str) -> str:
    """Accents and vectors for latex2sympy2_extended, named as the fast parser names them."""
    text = _SLOW_VECTOR.sub(r"\1", text)
    text = _SLOW_MEAN.sub(lambda m: m.group(1).lstrip("\\") + "_{mean}", text)
    return _SLOW_ACCENT.sub(
        lambda m: (
            (m.group(2) or m.group(3)).lstrip("\\")
            + "_{"
            + _ACCENT_NAMES.get(m.group(1), m.group(1))
            + "}"
        ),
        text,
    )


def _balanced(text: str) -> bool:
    """Whether the (unescaped) braces of ``text`` pair up."""
    depth = 0
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


@lru_cache(maxsize=8192)
def parse_latex(text: str) -> Any:
    """A sympy object for ``text`` (expression, equation, relation, interval).

    Raises :class:`UnparseableError` for refused or unreadable input.
    """
    guard(text)
    if not _balanced(text):  # a truncated answer: ANTLR took 20-60 ms to say so
        raise UnparseableError("syntax")
    from latex2sympy2_extended import latex2sympy

    normalization, conversion = _configs()
    try:
        return latex2sympy(
            _prepare_slow(_prepare(text)),
            normalization_config=normalization,
            conversion_config=conversion,
        )
    except UnparseableError:
        raise
    except Exception as exc:  # the parser raises bare Exception on syntax errors
        raise UnparseableError("syntax") from exc


@lru_cache(maxsize=8192)
def _parse_fast_prepared(text: str) -> Any:
    from studybench.verify.latex_fast import parse_fast

    return parse_fast(_prepare(text))


def parse_expressions(*texts: str) -> tuple[Any, ...]:
    """Parse several texts that will be compared with each other.

    The fast parser is tried on all of them; if it cannot read one, all are parsed with
    latex2sympy2_extended, so that both sides of a comparison always use the same symbol
    naming. A failure names the text (``side``) that could not be parsed.
    """
    from studybench.verify.latex_fast import FastParseError

    for side, text in enumerate(texts):
        try:
            guard(text)
        except UnparseableError as exc:
            raise UnparseableError(exc.reason, side) from None
    try:
        return tuple(_parse_fast_prepared(text) for text in texts)
    except FastParseError:
        pass
    parsed = []
    for side, text in enumerate(texts):
        try:
            parsed.append(parse_latex(text))
        except UnparseableError as exc:
            raise UnparseableError(exc.reason, side) from None
    return tuple(parsed)


def numeric_value(expr: Any) -> complex | None:
    """The value of a closed-form sympy expression, or None if it has free symbols."""
    try:
        if getattr(expr, "free_symbols", None):
            return None
        value = complex(expr.evalf(30))
    except (TypeError, ValueError, OverflowError, AttributeError):
        return None
    if cmath.isnan(value):
        return None
    return value


def _fast_number(text: str) -> tuple[float, int] | None:
    """Plain decimal / scientific notation at the start of ``text``: (value, end index)."""
    match = _NUMBER.match(text)
    if match is None:
        return None
    sign = -1.0 if match.group("sign") == "-" else 1.0
    if match.group("mant") is not None:
        exponent = int(match.group("e") or 0)
        power = match.group("p1") or match.group("p2")
        if power is not None:
            exponent += int(power.replace(" ", ""))
        if abs(exponent) > MAX_EXPONENT:
            return None
        value = float(match.group("mant")) * 10.0**exponent
    else:
        power = (match.group("q1") or match.group("q2") or "0").replace(" ", "")
        if abs(int(power)) > MAX_EXPONENT:
            return None
        value = 10.0 ** int(power)
    return sign * value, match.end()


@lru_cache(maxsize=8192)
def parse_number(text: str) -> float:
    """A real number from plain or LaTeX notation (``2.5e26``, ``2.5\\times10^{26}``,
    ``\\frac{1}{2}``, ``3\\sqrt{2}``, ``\\pi/2``); raises :class:`UnparseableError`."""
    text = text.strip()
    if not text:
        raise UnparseableError("empty")
    if _THOUSANDS.fullmatch(text):
        return float(text.replace("{,}", "").replace(",", ""))
    fast = _fast_number(text)
    if fast is not None and fast[1] == len(text):
        return fast[0]
    (expr,) = parse_expressions(text)
    value = numeric_value(expr)
    if value is None:
        raise UnparseableError("not_a_number")
    if abs(value.imag) > 1e-12 * max(abs(value.real), 1.0):
        raise UnparseableError("complex")
    real = value.real
    if math.isinf(real):
        raise UnparseableError("too_large")
    return real


def _unit_split_points(text: str) -> list[int]:
    """Positions where a unit could begin: a word start, a command, a degree or percent."""
    points = []
    for i in range(1, len(text)):
        char, prev = text[i], text[i - 1]
        if char == "\\" or char in "%^" or (char.isalpha() and not prev.isalpha() and prev != "\\"):
            points.append(i)
    return points[:24]


@lru_cache(maxsize=8192)
def parse_quantity(text: str) -> Quantity:
    """A number with an optional unit: ``3.0\\times10^{8} m/s``, ``\\frac{1}{2} kg``, ``45
    ^{\\circ}``; raises :class:`UnparseableError` when no reading works."""
    text = text.strip()
    guard(text)
    fast = _fast_number(text)
    if fast is not None:
        value, end = fast
        rest = text[end:].strip()
        if not rest:
            return Quantity(value)
        unit = parse_unit(rest)
        if unit is not None:
            return Quantity(value, unit, rest)
    try:
        return Quantity(parse_number(text))
    except UnparseableError as exc:
        first_failure = exc
    for point in _unit_split_points(text):
        unit = parse_unit(text[point:])
        if unit is None:
            continue
        try:
            return Quantity(parse_number(text[:point]), unit, text[point:])
        except UnparseableError:
            continue
    raise first_failure


def split_values(text: str) -> list[str]:
    """Top-level comma list of an answer, keeping thousands separators (``1,000``) whole."""
    if _THOUSANDS.fullmatch(text.strip()):
        return [text.strip()]
    return [part.strip() for part in split_top_level(text, ",")]
