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

from studybench.data.boxes import brace_partners
from studybench.verify.asked import asked_question
from studybench.verify.normalize import ELL, THOUSANDS, question_math, split_top_level
from studybench.verify.units import parse_unit

MAX_PARSE_CHARS = 1000  # a final answer is a few hundred characters at most
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
# A numeric power tower (10^{10^{10}}) would make sympy compute an astronomically large
# integer; symbolic towers such as e^{-x^2} are fine.
_POWER_TOWER = re.compile(r"\d\s*\^\s*\{?\s*[+-]?\s*\d+\s*\^")
_BIG_EXPONENT = re.compile(r"\^\s*\{?\s*[+-]?\s*(\d{4,})")
_BIG_FACTORIAL = re.compile(r"\d{3,}\s*!")
# a binomial of a large number is computed exactly by the parser (\binom{10^6}{5 10^5}: minutes)
_BIG_BINOMIAL = re.compile(r"\\[dt]?binom\s*\{\s*(?:\d{5,}|\d+\s*\^)")
# exponents inside exponents (e^{d + e^{d + e^{d + e^{d}}}}): at four levels the value at a
# sample point has millions of digits, and evaluating it took minutes
MAX_EXPONENT_NESTING = 3
_EXPONENT_OPEN = re.compile(r"\^\s*\{|\\exp\s*(?:\\left)?\s*[({]")
# fractions inside fractions: evaluating a continued fraction at a sample point doubled in
# cost with each level (10 levels 0.8 s, 16 levels 10 s); an answer nests a few
MAX_FRACTION_NESTING = 6
_FRACTION = re.compile(r"\\[dt]?frac\s*\{")
_OPEN_BRACE = re.compile(r"\s*\{")
# absolute-value bars: the slow parser's prediction on |d|d|d... grows steeply (20 bars 1 s,
# 50 bars 7.5 s); no answer writes more than a few
MAX_BARS = 8
_SUBSCRIPT_CHAR = re.compile(r"_([A-Za-z0-9])")
_SUBSCRIPT_CMD = re.compile(r"_\\([A-Za-z]+)")
_GREEK_VARIANTS = re.compile(r"\\var(epsilon|theta|phi|rho|sigma|pi)(?![a-zA-Z])")
# \ell is the letter l in a script glyph (a length, a quantum number): one symbol, as the
# variants of a Greek letter are
_BARE_L = re.compile(r"(?<![\\A-Za-z])l(?![A-Za-z])")
# \frac1n, \frac1{n+1}, \frac{1}n: arguments of one character without braces, which the
# slow parser could not read inside a sum (``\sum_{n=1}^{\infty}(\frac1n - \frac1{n+1})``)
_BARE_FRAC_ARGUMENTS = re.compile(
    r"\\([dt]?frac)\s*(?:([0-9A-Za-z])|(\{[^{}]*\}))\s*(?:([0-9A-Za-z])(?![A-Za-z])|(?=\{))"
)


def _braced_fraction(match: re.Match[str]) -> str:
    numerator = match.group(3) or "{" + match.group(2) + "}"
    denominator = "{" + match.group(4) + "}" if match.group(4) else ""
    return f"\\{match.group(1)}{numerator}{denominator}"


# A prime after a number or a power of ten is a unit, feet or arcminutes (4.5', 30'',
# 1.5\times10^{-10}'): both parsers dropped it,
# so 4.5' was 4.5 in the gold's unit. Neither reading is taken: the number is refused.
_NUMBER_PRIME = re.compile(
    r"(?:(?<![\w.{])(?:\d+(?:\.\d*)?|\.\d+)"  # 4.5', 30''
    r"|10\s*\^\s*(?:\{\s*[+-]?\s*\d+\s*\}|[+-]?\d))"  # 1.5\times10^{-10}', 10^5'
    r"\s*(?:'|\^\s*\{?\s*\\prime)"
)
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
    if _BIG_FACTORIAL.search(text) or _BIG_BINOMIAL.search(text):
        raise UnparseableError("too_large")
    if _exponent_nesting(text) > MAX_EXPONENT_NESTING:
        raise UnparseableError("too_large")
    if text.count("|") > MAX_BARS:
        raise UnparseableError("too_deep")
    if text.count("frac") > MAX_FRACTION_NESTING and _fraction_nesting(text) > (
        MAX_FRACTION_NESTING
    ):
        raise UnparseableError("too_deep")


def _fraction_nesting(text: str) -> int:
    """How many fractions the deepest ``\\frac`` is inside, counting itself (a fraction's
    numerator and denominator are its inside)."""
    partners = brace_partners(text)
    fractions = list(_FRACTION.finditer(text))
    insides = []
    for match in fractions:
        numerator = match.end() - 1
        close = partners.get(numerator)
        if close is None:
            continue
        following = _OPEN_BRACE.match(text, close + 1)
        end = partners.get(following.end() - 1) if following else None
        insides.append((numerator, close if end is None else end))
    return max(
        (1 + sum(1 for low, high in insides if low < m.start() < high) for m in fractions),
        default=0,
    )


def _exponent_nesting(text: str) -> int:
    """How many exponents (``^{…}``, ``\\exp(…)``) the deepest one is inside, counting
    itself: one pass, each opening brace or bracket remembered as an exponent's or not."""
    opens = (
        {match.end() - 1 for match in _EXPONENT_OPEN.finditer(text)}
        if "^" in text or "exp" in text
        else set()
    )
    if not opens:
        return 0
    stack: list[bool] = []
    depth = deepest = 0
    for index, char in enumerate(text):
        if char in "{(":
            exponent = index in opens
            stack.append(exponent)
            depth += exponent
            deepest = max(deepest, depth)
        elif char in "})" and stack:
            depth -= stack.pop()
    return deepest


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
_ARGUMENTS = r"\(\s*(" + _ARGUMENT + r"(?:\s*,\s*" + _ARGUMENT + r")*)\s*\)"
_APPLICATION = re.compile(
    r"(?<![\\A-Za-z])([A-Za-z]|" + _GREEK_BASE + r")"
    r"(?:_(\{[A-Za-z0-9\s\\]*\}|[A-Za-z0-9]|\\[A-Za-z]+))?\s*" + _ARGUMENTS
)
_NAME_NOISE = re.compile(r"[^A-Za-z0-9]")
# The arguments of an opaque application, spelled with letters and digits only and without
# losing their punctuation: ``x(t, 1)`` and ``x(t_1)`` both became ``x_{oft1}``, ``E(1, 0)``
# and ``E(10)`` both ``E_{of10}``. Each mark is an escape that starts with Z (Z itself is ZZ).
_ARGUMENT_ESCAPES = {"Z": "ZZ", ",": "Zc", "_": "Zs", "\\": "Zb", ".": "Zp"}


def _argument_name(arguments: str) -> str:
    spelled = "".join(_ARGUMENT_ESCAPES.get(char, char) for char in arguments)
    return _NAME_NOISE.sub("", spelled)


def _opaque_application(match: re.Match[str]) -> str:
    base, subscript, arguments = match.group(1), match.group(2) or "", match.group(3)
    name = _NAME_NOISE.sub("", subscript) + "of" + _argument_name(arguments)
    return f"{base}_{{{name}}}"


# Derivatives, in the notations physics uses, as one opaque quantity named by the function
# and the variables (sorted, with multiplicity). Partial derivatives are ``u_{dxx}``:
# \frac{\partial^2 u}{\partial x^2}, \partial_x^2 u, \partial^2_x u, \partial_{xx} u,
# \partial_x\partial_x u, \partial^2 u/\partial x^2, \frac{\partial^2}{\partial x^2} u. Total
# (Leibniz) derivatives are ``x_{Dtt}``: \frac{d^2x}{dt^2}, d^2x/dt^2, \frac{d^2}{dt^2}x. Read
# as a ratio, \frac{dN}{dt} was (d N)/(d t) = N/t, so \frac{N}{t} was accepted for it. Neither
# parser reads \partial, and an argument list (u(x,t)) after the function is dropped: the
# derivative of u is the same quantity however u's arguments are written.
_FUNCTION = (
    r"(?:[A-Za-z]|\\(?!(?:partial|frac|sqrt|left|right|cdot|times|Delta)(?![A-Za-z]))[A-Za-z]+)"
    r"(?:_\{?[A-Za-z0-9]+\}?)?"
)
_BRACED_FUNCTION = (
    r"(?:\{\s*(" + _FUNCTION + r")\s*\}|\(\s*(" + _FUNCTION + r")\s*\)|(" + _FUNCTION + r"))"
    r"(?:\s*\([A-Za-z0-9,\s\\_{}]*\))?"
)
_VARIABLE = r"(?:[A-Za-z]|\\[A-Za-z]+)"
_ORDER = r"(?:\s*\^\s*\{?\s*(\d)\s*\}?)?"
_BRACED_VARIABLE = r"(?:\{\s*" + _VARIABLE + r"\s*\}|" + _VARIABLE + ")"  # braces in pairs
_PARTIAL_VARIABLE = r"\\partial\s*" + _BRACED_VARIABLE + r"(?:\s*\^\s*\{?\s*\d\s*\}?)?"
_PARTIAL_FRAC = re.compile(
    r"\\frac\s*\{\s*\\partial" + _ORDER + r"\s*" + _BRACED_FUNCTION + r"\s*\}"
    r"\s*\{((?:\s*" + _PARTIAL_VARIABLE + r")+)\s*\}"
)
_PARTIAL_SLASH = re.compile(
    r"\\partial"
    + _ORDER
    + r"\s*"
    + _BRACED_FUNCTION
    + r"\s*/\s*((?:\s*"
    + _PARTIAL_VARIABLE
    + r")+)"
)
# \frac{\partial^2}{\partial x^2} u: the operator applied to what follows
_PARTIAL_OPERATOR = re.compile(
    r"\\frac\s*\{\s*\\partial" + _ORDER + r"\s*\}\s*\{((?:\s*" + _PARTIAL_VARIABLE + r")+)\s*\}"
    r"\s*" + _BRACED_FUNCTION
)
_PARTIAL_SUB = re.compile(
    r"\\partial\s*(?:\^\s*\{?\s*(\d)\s*\}?\s*)?_\s*(\{\s*(?:"
    + _VARIABLE
    + r"\s*)+\}|"
    + _VARIABLE
    + r")"
    r"\s*(?:\^\s*\{?\s*(\d)\s*\}?)?\s*" + _BRACED_FUNCTION
)
# \partial_x(\rho v): the operator applied to an expression, written as the fraction the slow
# parser reads as a derivative (:func:`_fields_differentiated`)
_PARTIAL_APPLIED = re.compile(
    r"\\partial\s*_\s*(\{\s*" + _VARIABLE + r"\s*\}|" + _VARIABLE + r")\s*(?=\(|\\left\s*\()"
)
_DENOMINATOR_VARIABLE = re.compile(
    r"(?:\\partial|(?<![A-Za-z\\])d)\s*(?:\{\s*(" + _VARIABLE + r")\s*\}|(" + _VARIABLE + r"))"
    r"(?:\s*\^\s*\{?\s*(\d)\s*\}?)?"
)
_D = r"(?<![A-Za-z\\])d"
_TOTAL_VARIABLE = _D + r"\s*" + _BRACED_VARIABLE + r"(?:\s*\^\s*\{?\s*\d\s*\}?)?"
_TOTAL_FRAC = re.compile(
    r"\\frac\s*\{\s*" + _D + _ORDER + r"\s*" + _BRACED_FUNCTION + r"\s*\}"
    r"\s*\{\s*(" + _TOTAL_VARIABLE + r")\s*\}"
)
_TOTAL_SLASH = re.compile(
    _D + _ORDER + r"\s*" + _BRACED_FUNCTION + r"\s*/\s*(" + _TOTAL_VARIABLE + r")(?![A-Za-z0-9])"
)
_TOTAL_OPERATOR = re.compile(
    r"\\frac\s*\{\s*"
    + _D
    + _ORDER
    + r"\s*\}\s*\{\s*("
    + _TOTAL_VARIABLE
    + r")\s*\}\s*"
    + _BRACED_FUNCTION
)
# (\partial U/\partial T)_V and \partial U/\partial T|_V: the variable held fixed is a note
_HELD_FIXED = re.compile(
    r"\(\s*([A-Za-z]+_\{[A-Za-z0-9]*[dD][A-Za-z]+\})\s*\)\s*_\s*\{?\s*[A-Za-z]\s*\}?"
)
_HELD_FIXED_BAR = re.compile(
    r"([A-Za-z]+_\{[A-Za-z0-9]*[dD][A-Za-z]+\})\s*\|\s*_\s*\{?\s*[A-Za-z]\s*\}?"
)


# a partial derivative with the variable held fixed: (\partial U/\partial T)_V, written as a
# bracketed fraction or slash with a subscript, or as a fraction with a bar: \frac{…}{…}|_V
_DIFFERENTIATED = r"(?:\\partial|d)\s*\{?\s*(\\?[A-Za-z]+(?:_\s*\{?[A-Za-z0-9]+\}?)?)\s*\}?"
_HELD_SUBSCRIPT = r"\s*_\s*\{?\s*(\\?[A-Za-z]+)\s*\}?"
_HELD_FORMS = (
    re.compile(
        r"\(\s*\\frac\s*\{\s*"
        + _DIFFERENTIATED
        + r"\s*\}\s*\{\s*"
        + _DIFFERENTIATED
        + r"\s*\}\s*\)"
        + _HELD_SUBSCRIPT
    ),
    re.compile(
        r"\(\s*" + _DIFFERENTIATED + r"\s*/\s*" + _DIFFERENTIATED + r"\s*\)" + _HELD_SUBSCRIPT
    ),
    re.compile(
        r"\\frac\s*\{\s*"
        + _DIFFERENTIATED
        + r"\s*\}\s*\{\s*"
        + _DIFFERENTIATED
        + r"\s*\}\s*\|"
        + _HELD_SUBSCRIPT
    ),
)


def held_fixed(text: str) -> dict[tuple[str, str], frozenset[str]]:
    """The variables ``text`` holds fixed in its partial derivatives, by (function, variable):
    ``{("U", "T"): {"V"}}`` for ``(\\partial U/\\partial T)_V``."""
    found: dict[tuple[str, str], set[str]] = {}
    if "partial" not in text and "|" not in text and ")_" not in text.replace(" ", ""):
        return {}
    for form in _HELD_FORMS:
        for match in form.finditer(text):
            key = (match.group(1).replace(" ", ""), match.group(2).replace(" ", ""))
            found.setdefault(key, set()).add(match.group(3))
    return {key: frozenset(held) for key, held in found.items()}


def held_fixed_differs(pred: str, gold: str) -> bool:
    """Whether the answer holds another variable fixed than the gold in a derivative both
    write with one: ``(\\partial U/\\partial T)_p`` (C_p) is not ``(\\partial U/\\partial
    T)_V`` (C_V). Parsing reads the held variable as a note and drops it, so the two were
    equal (red team r22c); a side that holds none fixed is left to the comparison."""
    gold_held = held_fixed(gold)
    if not gold_held:
        return False
    pred_held = held_fixed(pred)
    return any(key in pred_held and pred_held[key] != held for key, held in gold_held.items())


def _apart(match: re.Match[str], name: str) -> str:
    """``name`` spaced from a letter before the match: ``\\gamma\\frac{\\partial u}{\\partial
    t}`` was ``\\gammau_{dt}``, a command neither parser knows (the slow one then read a
    gamma function of u_{dt}). After a number no space is added: a space there ends a
    denominator (``1/2 x``)."""
    start = match.start()
    return " " + name if start and match.string[start - 1].isalpha() else name


class _Derivatives:
    """Rewrites derivatives of one text as names; an operator applied to a derivative it
    produced (\\partial_x \\partial_t u) adds its variables to that derivative."""

    def __init__(self) -> None:
        self.made: dict[str, tuple[str, str, list[str]]] = {}  # name -> (function, kind, vars)

    def name(self, function: str, variables: list[str], kind: str) -> str:
        made = self.made.get(function.replace(" ", ""))
        if made is not None and made[1] == kind:
            function, variables = made[0], made[2] + variables
        name = self._spelled(function, variables, kind)
        self.made[name] = (function, kind, variables)
        return name

    @staticmethod
    def _spelled(function: str, variables: list[str], kind: str) -> str:
        base, _, subscript = function.partition("_")
        letters = "".join(sorted(v.lstrip("\\") for v in variables))
        return f"{base}_{{{_NAME_NOISE.sub('', subscript)}{kind}{letters}}}"

    @staticmethod
    def _variables(text: str) -> list[str]:
        variables: list[str] = []
        for variable in _DENOMINATOR_VARIABLE.finditer(text):
            variables += [variable.group(1) or variable.group(2)] * int(variable.group(3) or 1)
        return variables

    @staticmethod
    def _function(match: re.Match[str], first: int) -> str:
        """The function of a match, written bare, braced or in parentheses (three groups)."""
        return next(g for g in match.groups()[first - 1 : first + 2] if g)

    def fraction(self, match: re.Match[str], kind: str) -> str:
        order = int(match.group(1) or 1)
        variables = self._variables(match.group(5))
        if len(variables) != order:
            return match.group(0)  # orders that do not add up: left to fail as written
        return _apart(match, self.name(self._function(match, 2), variables, kind))

    def operator(self, match: re.Match[str], kind: str) -> str:
        order = int(match.group(1) or 1)
        variables = self._variables(match.group(2))
        if len(variables) != order:
            return match.group(0)
        return _apart(match, self.name(self._function(match, 3), variables, kind))

    def subscript(self, match: re.Match[str]) -> str:
        letters = re.findall(_VARIABLE, match.group(2).strip("{} "))
        order = int(match.group(1) or match.group(3) or 1)
        variables = letters * order if len(letters) == 1 else letters
        if len(letters) > 1 and order != 1:
            return match.group(0)
        return _apart(match, self.name(self._function(match, 4), variables, "d"))

    def rewrite(self, text: str) -> str:
        if "partial" in text:
            for _ in range(4):  # nested operators, innermost first
                before = text
                text = _PARTIAL_FRAC.sub(lambda m: self.fraction(m, "d"), text)
                text = _PARTIAL_SLASH.sub(lambda m: self.fraction(m, "d"), text)
                text = _PARTIAL_OPERATOR.sub(lambda m: self.operator(m, "d"), text)
                text = _PARTIAL_SUB.sub(self.subscript, text)
                if text == before:
                    break
            text = _PARTIAL_APPLIED.sub(r"\\frac{\\partial}{\\partial \1}", text)
        if "d" in text:
            text = _BRACED_D.sub("d", text)  # {\rm d}x: {d}x
            for _ in range(3):
                before = text
                text = _TOTAL_FRAC.sub(lambda m: self.fraction(m, "D"), text)
                text = _TOTAL_SLASH.sub(lambda m: self.fraction(m, "D"), text)
                text = _TOTAL_OPERATOR.sub(lambda m: self.operator(m, "D"), text)
                if text == before:
                    break
            text = _LEFT_DIFFERENTIAL.sub(r"\1d_{\2}", text)
        if self.made:
            text = _HELD_FIXED.sub(r"\1", text)
            text = _HELD_FIXED_BAR.sub(r"\1", text)
        return text


def single_variable_totals(text: str) -> str:
    """A whole answer's partial derivatives written as total ones where it differentiates in
    one variable only (``m\\,\\partial_t v = -kv`` is ``m\\frac{dv}{dt} = -kv``): with no
    other variable in sight the notations say the same. An answer that writes total
    derivatives too (``\\dot q = \\partial H/\\partial p``), differentiates in two
    variables (``\\partial_t u = k\\partial_x^2 u``, ``\\partial_t\\rho = -\\rho_0\\partial_x
    v``) or writes a function with a subscript too (``u_t = D\\partial_x^2 u``) keeps its
    partials. Read over the whole answer, both sides of an equation, before it is parsed side
    by side."""
    if "partial" not in text:
        return text
    derivatives = _Derivatives()
    if "partial" in derivatives.rewrite(text):
        return text  # a derivative of an expression (\\partial_x(\\rho v)): read as written
    functions = {function.replace(" ", "") for function, _, _ in derivatives.made.values()}
    variables = {v for _, _, used in derivatives.made.values() for v in used}
    totals = any(kind == "D" for _, kind, _ in derivatives.made.values()) or _DOTTED.search(text)
    if len(variables) != 1 or totals or any(_subscripted(f).search(text) for f in functions):
        # fields of several variables, totals beside partials (Hamilton's \dot q = \partial
        # H/\partial p distinguishes them), or PDE subscripts (u_t) beside the partials
        return text
    text = _PARTIAL_SUB.sub(_total_fraction, text)
    return _PARTIAL_SIGN.sub("d", text)


_PARTIAL_SIGN = re.compile(r"\\partial(?![A-Za-z])\s*")
_DOTTED = re.compile(r"\\d?dot(?![A-Za-z])|'")


def _subscripted(function: str) -> re.Pattern[str]:
    """``u`` written with a subscript elsewhere (``u_t``, ``u_{xx}``): a PDE's notation."""
    return re.compile(rf"(?<![A-Za-z\\]){re.escape(function)}\s*_")


def _total_fraction(match: re.Match[str]) -> str:
    """``\\partial_t v`` -> ``\\frac{d v}{d t}``, ``\\partial_t^2 x`` -> ``\\frac{d^{2} x}{d
    t^{2}}``; a mixed subscript (``\\partial_{xt}``) is left as written."""
    letters = re.findall(_VARIABLE, match.group(2).strip("{} "))
    order = match.group(1) or match.group(3)
    if len(letters) != 1:
        return match.group(0)
    function = next(g for g in match.groups()[3:6] if g)
    power = f"^{{{order}}}" if order else ""
    return rf"\frac{{d{power} {function}}}{{d {letters[0]}{power}}}"


# \Delta x is one quantity, the change in x (read as \Delta times x, \frac{\Delta p}{\Delta t}
# cancelled to p/t): the symbol \Delta_{x}.
_DELTA_SYMBOL = (
    r"([A-Za-z]|" + _GREEK_BASE + r")\s*(?:_\s*(\{[A-Za-z0-9\s\\]*\}|[A-Za-z0-9]|\\[A-Za-z]+))?"
)
_DELTA = re.compile(r"\\Delta\s*(?:\{\s*" + _DELTA_SYMBOL + r"\s*\}|" + _DELTA_SYMBOL + ")")


def _delta(match: re.Match[str]) -> str:
    symbol = (match.group(1) or match.group(3)).lstrip("\\")
    subscript = match.group(2) or match.group(4) or ""
    return r"\Delta_{" + symbol + _NAME_NOISE.sub("", subscript) + "}"


# A Leibniz fraction no rule above could read (\frac{d}{dt}(mv), \frac{d(mv)}{dt}, d(mv)/dt):
# the ``d t`` below is one symbol, so the d's never cancel into a ratio (mv/t).
_LEFT_DIFFERENTIAL = re.compile(
    r"(\\frac\s*\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}\s*\{\s*|/\s*)(?<![A-Za-z\\])d\s*("
    + _VARIABLE
    + r")(?![A-Za-z])"
)
_BRACED_D = re.compile(r"\{\s*d\s*\}(?=\s*[A-Za-z\\^])")
# Primes: x' is x_{prime}, x'' x_{primeprime}, x_1' x_{1prime} (one subscript, so both
# parsers read it; x_1_{prime} was a syntax error).
_PRIMES = r"(?:'|\^\s*\{\s*\\prime\s*\}|\^\s*\\prime(?![A-Za-z]))+"
_PRIMED = re.compile(
    r"((?:[A-Za-z]|\\[A-Za-z]+))(?:_\s*(\{[A-Za-z0-9\s\\]*\}|[A-Za-z0-9]|\\[A-Za-z]+))?\s*("
    + _PRIMES
    + r")(?:\s*\(\s*[A-Za-z]\s*\))?"  # x''(t): the derivative, whatever its argument is called
)
_ONE_PRIME = re.compile(r"'|\\prime")
# An accent braced before primes, \dot{x}': unbraced (\dot x'), so the primes are read with
# the letter; braced, they were dropped and \dot{x}' (a second derivative) read as \dot x.
_BRACED_ACCENT_PRIMED = re.compile(
    r"(\\(?:dot|ddot|dddot|hat|bar|tilde|vec))\s*\{\s*([A-Za-z]|\\[A-Za-z]+)\s*\}(?=\s*(?:"
    + _PRIMES
    + r"))"
)


def _primed(match: re.Match[str]) -> str:
    primes = len(_ONE_PRIME.findall(match.group(3)))
    subscript = _NAME_NOISE.sub("", match.group(2) or "")
    return f"{match.group(1)}_{{{subscript}{'prime' * primes}}}"


# Sums written with a lower bound only: \sum_{n\ge1} is \sum_{n=1}^{\infty}.
_SUM_FROM = re.compile(
    r"\\sum\s*_\s*\{\s*([A-Za-z])\s*(?:\\geq?(?:slant)?(?![A-Za-z])|>=)\s*(-?\d+)\s*\}(?!\s*\^)"
)
# The Riemann zeta function at an even integer, which has a closed form (\zeta(2) = pi^2/6);
# elsewhere \zeta(x) stays an opaque quantity (a damping ratio, a function of x).
_ZETA = re.compile(r"\\zeta\s*\(\s*(\d{1,2})\s*\)")


def _zeta(match: re.Match[str]) -> str:
    n = int(match.group(1))
    if n < 2 or n % 2:
        return match.group(0)
    import sympy

    return "{" + str(sympy.latex(sympy.zeta(n))) + "}"


# A trigonometric function of a number of degrees written without parentheses: ``\sin 30^\circ``
# is sin(30 degrees). Read as written, the degree sign converted the product ``\sin 30`` (sin
# of 30 radians, times pi/180: -0.0172), so the right answer 0.5 was wrong and a gold near the
# misreading would have been matched.
_TRIG_DEGREES = re.compile(
    r"(\\(?:sin|cos|tan|cot|sec|csc)(?![A-Za-z])(?:\s*\^\s*(?:\{[^{}]*\}|\d))?)"
    r"\s*([+-]?\s*(?:\d+(?:\.\d*)?|\.\d+))\s*\^\s*\{\s*\\circ\s*\}"
)


def _prepare(text: str) -> str:
    """Rewrite notation the LaTeX parser misreads, without changing meaning."""
    if "zeta" in text:
        text = _ZETA.sub(_zeta, text)
    if "sum" in text:
        text = _SUM_FROM.sub(r"\\sum_{\1=\2}^{\\infty}", text)
    if "{" in text:
        text = _BRACED_ACCENT_PRIMED.sub(r"\1 \2", text)
    text = _PRIMED.sub(_primed, text)
    text = _Derivatives().rewrite(text)
    if "Delta" in text:
        text = _DELTA.sub(_delta, text)
    text = _APPLICATION.sub(_opaque_application, text)
    for command, name in _SPECIAL_SUBSCRIPTS.items():
        text = text.replace("_{" + command + "}", "_{" + name + "}")
        text = text.replace("_" + command, "_{" + name + "}")
    text = _GREEK_VARIANTS.sub(r"\\\1", text)
    if "ell" in text:  # \\ell is l, unless the text writes an l of its own beside it
        text = ELL.sub("L_{ell}" if _BARE_L.search(text) else "l", text)
    if "frac" in text:
        text = _BARE_FRAC_ARGUMENTS.sub(_braced_fraction, text)
    text = _SUBSCRIPT_CMD.sub(r"_{\\\1}", text)
    text = _SUBSCRIPT_CHAR.sub(r"_{\1}", text)
    if "circ" in text:
        text = _TRIG_DEGREES.sub(r"\1(\2^{\\circ})", text)
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


_SLOW_FRAC_DIGITS = re.compile(r"\\frac\s*(\d)\s*(?:(\d)|(?=\{))")
# latex2sympy2_extended reads a power ``^T`` or ``^{T}`` as a matrix transpose: ``e^{T}`` was
# e itself, ``\\int_0^T`` a syntax error. Spaced inside braces, T is the symbol.
_SLOW_TRANSPOSE = re.compile(r"\^\s*(?:\{\s*T\s*\}|T(?![A-Za-z_]))")


def _prepare_slow(text: str) -> str:
    """Accents and vectors for latex2sympy2_extended, named as the fast parser names them;
    ``\\frac1{n^2}`` braced (the grammar wants a group)."""
    text = _SLOW_FRAC_DIGITS.sub(
        lambda m: "\\frac{" + m.group(1) + "}" + ("{" + m.group(2) + "}" if m.group(2) else ""),
        text,
    )
    text = _SLOW_TRANSPOSE.sub("^{ T }", text)
    text = _SLOW_VECTOR.sub(r"\1", text)
    # a Greek letter keeps its backslash: ``theta_{dot}`` was read as the product
    # t h e t a_dot, so ``\\dot\\omega`` held a ``g`` and met the gravitational g
    text = _SLOW_MEAN.sub(lambda m: m.group(1) + "_{mean}", text)
    text = _SLOW_ACCENT.sub(
        lambda m: (
            (m.group(2) or m.group(3)) + "_{" + _ACCENT_NAMES.get(m.group(1), m.group(1)) + "}"
        ),
        text,
    )
    return _letter_symbols(text)  # last: \\dot I is I_{dot} by now


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


def parse_latex(text: str) -> Any:
    """A sympy object for ``text`` (expression, equation, relation, interval).

    Raises :class:`UnparseableError` for refused or unreadable input. A failure is cached as
    a success is: ``parse_quantity`` tries a box at each place a unit may start, and a box
    near the size limit that the slow parser refuses took 0.4 s each time (2.8 s in all).
    """
    parsed, failure = _parsed_or_failure(text)
    if failure is not None:
        raise UnparseableError(failure)
    return parsed


@lru_cache(maxsize=8192)
def _parsed_or_failure(text: str) -> tuple[Any, str | None]:
    try:
        return _parsed(text), None
    except UnparseableError as exc:
        return None, exc.reason


# a subscript straight after a written number ("3.8_{2.6}", "2_{4}\\pi", "48_{\\text{or } 24}"):
# no notation gives a number one, and the LaTeX parser dropped it, so that every wrong
# value could ride on a right one (red team r24a); a name's subscript (``v_0``, ``x_{12}``,
# ``\\log_{10}``, ``10^{3}_{…}``) is no number's
_NUMBER_SUBSCRIPT = re.compile(r"(?<![\w.^}\\])(?<!\^\{)(?<!\^\{-)\d+(?:\.\d+)?\s*_")


def _parsed(text: str) -> Any:
    guard(text)
    if not _balanced(text):  # a truncated answer: ANTLR took 20-60 ms to say so
        raise UnparseableError("syntax")
    if _NUMBER_SUBSCRIPT.search(text):
        raise UnparseableError("number_subscript")
    prepared = _prepare(text)
    dummies: dict[Any, Any] = {}
    if "\\int" in prepared:
        prepared, dummies = _name_integration_dummies(prepared)
    parsed = _slow_parse(prepared)
    if dummies and hasattr(parsed, "xreplace"):
        parsed = parsed.xreplace(dummies)
    if polynomial_degree(parsed) > MAX_EXPONENT:
        raise UnparseableError("too_large")
    return bind_integration_variables(parsed) if "int" in text else parsed


def polynomial_degree(expr: Any) -> int:
    """The degree ``expr`` has once multiplied out (an upper bound, computed on the tree):
    powers nested in bases multiply (``(d + (d + 1)^2)^2`` is 4), so ten such levels are
    degree 1,024, on which sympy's assumptions ran ``real_roots`` for minutes. A written
    exponent above 400 is refused already (:data:`MAX_EXPONENT`); so is a degree above it."""
    if not hasattr(expr, "is_Pow"):
        return 0
    if expr.is_Pow and expr.exp.is_Integer:
        return polynomial_degree(expr.base) * abs(int(expr.exp))
    if expr.is_Symbol:
        return 1
    degrees = [polynomial_degree(arg) for arg in getattr(expr, "args", ())]
    if not degrees:
        return 0
    return sum(degrees) if expr.is_Mul else max(degrees)


def _slow_parse(prepared: str) -> Any:
    """latex2sympy2_extended's reading of text already through :func:`_prepare`, with the
    letter I a symbol (:func:`_letter_symbols`); raises :class:`UnparseableError`."""
    from latex2sympy2_extended import latex2sympy

    normalization, conversion = _configs()
    try:
        parsed = latex2sympy(
            _prepare_slow(prepared),
            normalization_config=normalization,
            conversion_config=conversion,
        )
    except UnparseableError:
        raise
    except Exception as exc:  # the parser raises bare Exception on syntax errors
        raise UnparseableError("syntax") from exc
    return _fields_differentiated(_letter_symbols_named(parsed))


def _fields_differentiated(parsed: Any) -> Any:
    """A derivative of an expression (``\\frac{\\partial(\\rho v)}{\\partial x}``) with its
    symbols read as fields of the variables: the slow parser's ``Derivative(rho*v, x)`` of
    constant symbols vanished, so any factor or sign on it (``-2\\partial_x(\\rho v)``) was
    accepted (issue 32). Differentiated by the product and chain rules, each field's own
    derivative is named as :class:`_Derivatives` names a written one (``rho_{dx}``), so
    ``v\\partial_x\\rho + \\rho\\partial_x v`` is the same; a derivative of the variables
    alone (``\\partial_x x^2``) is computed. A derivative of a derivative is left as parsed."""
    import sympy

    if not hasattr(parsed, "atoms") or not parsed.atoms(sympy.Derivative):
        return parsed

    def differentiated(derivative: Any) -> Any:
        variables = derivative.variables
        if not all(isinstance(v, sympy.Symbol) for v in variables) or derivative.expr.has(
            sympy.Derivative
        ):
            return derivative
        held = sorted(set(variables), key=str)
        fields = {
            symbol: sympy.Function(f"field·{symbol.name}")(*held)
            for symbol in derivative.expr.free_symbols - set(variables)
        }
        done = sympy.diff(derivative.expr.xreplace(fields), *derivative.variable_count)
        named = {
            d: sympy.Symbol(_field_derivative_name(d.expr.func.__name__[6:], d.variables))
            for d in done.atoms(sympy.Derivative)
        }
        return done.xreplace(named).xreplace({f: s for s, f in fields.items()})

    return parsed.replace(lambda e: isinstance(e, sympy.Derivative), differentiated)


def _field_derivative_name(field: str, variables: tuple[Any, ...]) -> str:
    """The name :class:`_Derivatives` gives a written partial derivative of ``field`` in
    ``variables`` (with repeats for order), as the slow parser reads it back."""
    base, _, subscript = field.partition("_")
    letters = "".join(sorted(str(v) for v in variables))
    return f"{base}_{{{_NAME_NOISE.sub('', subscript)}d{letters}}}"


# latex2sympy2_extended reads the letter I as the imaginary unit and then drops its subscript
# and power: ``I_0`` was i, ``LI^2`` was iL, so ``\\int_0^1 LI\\,dx`` met ``LI^2`` and ``LI_1^2``
# met ``LI_0^2``. It reads ``\\gamma`` and ``\\Gamma`` as Euler's constant (``\\gamma x`` met
# ``0.5772x``) or as the gamma function (``\\gamma\\,x``, ``\\gamma_0 x`` were gamma(x)). An E
# or e with a subscript (``E_0``) was a syntax error. The fast parser reads each as a symbol
# (a current, a damping rate, an energy); the slow one now does too: the letter is written
# ``\\mathit{I}`` (a symbol ``math{I}``), renamed ``I`` after parsing. Inside a subscript or
# a text command it is left as written; E and e without a subscript keep their reading
# (Euler's number, the parsers agree on it).
_SYMBOL_LETTER = re.compile(
    r"\\(?:text|math|mbox|operatorname|bold)[A-Za-z]*\s*\{[^{}]*\}"  # kept as written
    r"|_\s*(?:\{[^{}]*\}|[A-Za-z0-9])"  # a subscript: a name, kept
    r"|\\(gamma|Gamma)(?![A-Za-z])"  # a symbol
    r"|\\[A-Za-z]+"  # another command (\\Im, \\Iota), kept
    r"|(I|[Ee](?=\s*_))"  # a symbol
)
_MATH_LETTER = re.compile(r"math\{(I|E|e|gamma|Gamma)\}(?=_|$)")


def _letter_symbols(text: str) -> str:
    """Each letter I, ``\\gamma``, ``\\Gamma`` (and E, e with a subscript) of ``text`` written
    ``\\mathit{I}``, but in a subscript or a text command."""
    if "I" not in text and "_" not in text and "amma" not in text:
        return text
    return _SYMBOL_LETTER.sub(_symbol_letter, text)


def _symbol_letter(match: re.Match[str]) -> str:
    """One match of :data:`_SYMBOL_LETTER`: a letter to write as a symbol, or kept."""
    letter = match.group(1) or match.group(2)
    return r"\mathit{" + letter + "}" if letter else match.group(0)


def _letter_symbols_named(parsed: Any) -> Any:
    """The symbols ``math{I}...`` that :func:`_letter_symbols` made, renamed ``I...``."""
    import sympy

    if not hasattr(parsed, "atoms"):
        return parsed
    renamed = {
        symbol: sympy.Symbol(_MATH_LETTER.sub(r"\1", symbol.name), **symbol.assumptions0)
        for symbol in parsed.atoms(sympy.Symbol)
        if _MATH_LETTER.match(symbol.name)
    }
    return parsed.xreplace(renamed) if renamed else parsed


# An integral's variable as the grammar cannot read it in the differential: primed or
# subscripted (``dt'`` is ``dt_{prime}`` here: a syntax error), or the letter I (``\\mathit{I}``
# there). Inside the integral it is one bound symbol: written as a Greek letter absent from
# the text for parsing, then renamed to the variable's own symbol, so ``t'`` is neither
# ``t`` nor a derivative, the variable outside the integral stays free (a leaked ``q'`` is a
# symbol the gold does not have), and an integrand in another variable stays a constant
# (``\\int_0^A kx\\,dx'`` is ``kxA``).
_INTEGRAL_START = re.compile(r"\\int(?![A-Za-z])(?:\s*\\(?:no)?limits(?![A-Za-z]))?\s*")
_DUMMY = r"(?:[A-Za-z]|\\[A-Za-z]+)(?:_\{[A-Za-z0-9]*\})?"
_DIFFERENTIAL = re.compile(r"(?<![A-Za-z\\])d\s*(" + _DUMMY + r")(?![A-Za-z0-9_{])")
_PLACEHOLDERS = ("omicron", "varsigma", "upsilon", "iota")  # Greek letters physics leaves alone


def _group_end(text: str, start: int) -> int | None:
    """The end of the limit that begins at ``start``: a braced group, a command, one
    character; None when there is none."""
    if start >= len(text):
        return None
    if text[start] == "{":
        depth = 0
        for index in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            if depth == 0:
                return index + 1
        return None
    command = re.match(r"\\[A-Za-z]+|[A-Za-z0-9]", text[start:])
    return start + command.end() if command else None


def _limits_end(text: str, start: int) -> int | None:
    """The end of a definite integral's two limits (``_a^b`` or ``^b_a``) from ``start``."""
    position, marks = start, ""
    for _ in range(2):
        mark = re.match(r"\s*([_^])\s*", text[position:])
        if mark is None or mark.group(1) in marks:
            return None
        marks += mark.group(1)
        end = _group_end(text, position + mark.end())
        if end is None:
            return None
        position = end
    return position


def _differential(text: str, start: int) -> re.Match[str] | None:
    """The first differential of the integrand from ``start``, at its own brace depth;
    None where the integrand closes first or holds another integral (nested integrals are
    left as written)."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return None
        elif char == "\\" and _INTEGRAL_START.match(text, index):
            return None
        elif char == "d" and depth == 0:
            match = _DIFFERENTIAL.match(text, index)
            if match is not None and (index == 0 or not text[index - 1].isalpha()):
                return match
    return None


def _needs_dummy(variable: str) -> bool:
    """Whether the grammar cannot read ``variable`` in a differential (see above)."""
    return "_" in variable or variable == "I"


def _name_integration_dummies(text: str) -> tuple[str, dict[Any, Any]]:
    """``text`` with the variable of each definite integral that needs it (see above)
    written as a placeholder inside that integral, and the placeholder symbols mapped to
    the variables' symbols."""
    import sympy

    free = [name for name in _PLACEHOLDERS if "\\" + name not in text]
    mapping: dict[Any, Any] = {}
    position = 0
    while free:
        start = _INTEGRAL_START.search(text, position)
        if start is None:
            break
        position = start.end()
        body = _limits_end(text, start.end())
        differential = _differential(text, body) if body is not None else None
        if body is None or differential is None or not _needs_dummy(differential.group(1)):
            continue
        variable = differential.group(1)
        symbol = _variable_symbol(variable)
        if symbol is None:
            continue
        placeholder = free.pop(0)
        occurrence = re.compile(r"(?<![A-Za-z\\])" + re.escape(variable) + r"(?![A-Za-z0-9_{'])")
        written = "\\" + placeholder + " "
        integrand = occurrence.sub(written.replace("\\", "\\\\"), text[body : differential.start()])
        text = text[:body] + integrand + "d" + written + text[differential.end() :]
        mapping[sympy.Symbol(placeholder)] = symbol
    return text, mapping


@lru_cache(maxsize=1024)
def _variable_symbol(variable: str) -> Any:
    """The symbol the slow parser makes of an integral's variable alone; None if not one."""
    import sympy

    try:
        symbol = _slow_parse(variable)
    except UnparseableError:
        return None
    return symbol if isinstance(symbol, sympy.Symbol) else None


def bind_integration_variables(expr: Any) -> Any:
    """Each opaque application of an integral's variable inside that integral made a
    function of it: ``\\int_0^L \\lambda(x)\\,dx`` integrates ``lambda(x)`` over x. As an
    opaque symbol (``lambda_{ofx}``) it was a constant, so the integral equalled ``L
    \\lambda(x)`` and ``\\int_0^L \\lambda(x)\\,dt`` (issue 32: a planted attack). An integral
    of an unknown function stays unevaluated: equal only to itself as written."""
    import sympy

    if not hasattr(expr, "atoms"):
        return expr
    replacements = {}
    for integral in expr.atoms(sympy.Integral):
        variables = {_skeleton(canonical_name_of(v)): v for v, *_ in integral.limits}
        bound = {}
        for symbol in integral.function.free_symbols:
            base, marker, arguments = canonical_name_of(symbol).partition("_of")
            if not marker or not base:
                continue
            names = [_skeleton(_unescaped(name)) for name in arguments.split("Zc")]
            applied = [variables[name] for name in names if name in variables]
            if applied:
                bound[symbol] = sympy.Function(symbol.name)(*applied)
        if bound:
            replacements[integral] = integral.xreplace(bound)
    return expr.xreplace(replacements) if replacements else expr


_ESCAPED = re.compile(r"Z(.)")
_UNESCAPES = {escape[1]: char for char, escape in _ARGUMENT_ESCAPES.items()}


def _unescaped(argument: str) -> str:
    """An argument of an opaque application as written (:func:`_argument_name` undone)."""
    return _ESCAPED.sub(lambda m: _UNESCAPES.get(m.group(1), m.group(0)), argument)


def _skeleton(name: str) -> str:
    """A name's letters and digits: how an application's argument (``\\theta``, ``t_{prime}``)
    and the integral's variable (``theta``, ``t_{prime}``) are matched. Matching loosely only
    binds more: an integrand bound to the variable is left unevaluated. As written, ``f(\\theta)``
    (argument ``Zbtheta``) and ``v(t')`` were constants in ``\\int f(\\theta)\\,d\\theta`` and
    ``\\int v(t')\\,dt'``: ``\\pi f(\\theta)`` was accepted for the first."""
    return _NAME_NOISE.sub("", name)


def canonical_name_of(symbol: Any) -> str:
    from studybench.verify.symbolic import canonical_name

    return str(canonical_name(symbol))


def _parse_fast_prepared(text: str) -> Any:
    """The fast parser's reading of ``text``; its failure is cached too (see
    :func:`parse_latex`)."""
    from studybench.verify.latex_fast import FastParseError

    parsed, failure = _fast_parsed_or_failure(text)
    if failure is not None:
        raise FastParseError(failure)
    return parsed


@lru_cache(maxsize=8192)
def _fast_parsed_or_failure(text: str) -> tuple[Any, str | None]:
    from studybench.verify.latex_fast import FastParseError, parse_fast

    try:
        return parse_fast(_prepare(text)), None
    except FastParseError as exc:
        return None, str(exc)


def fast_readable(text: str) -> bool:
    """Whether the fast parser reads ``text`` (a cheap test before the slow parser)."""
    from studybench.verify.latex_fast import FastParseError

    try:
        guard(text)
        _parse_fast_prepared(text)
    except (FastParseError, UnparseableError):
        return False
    return True


def parse_expressions(*texts: str) -> tuple[Any, ...]:
    """Parse several texts that will be compared with each other.

    The fast parser is tried on all of them; if it cannot read one, all are parsed with
    latex2sympy2_extended, so that both sides of a comparison always use the same symbol
    naming. A failure names the text (``side``) that could not be parsed. Where the question
    writes ``e`` as a quantity of its own, ``e`` is that quantity (:func:`e_is_a_quantity`).
    """
    parsed = _expressions(*texts)
    question = asked_question(folded=False)
    if question is None or not e_is_a_quantity(question):
        return parsed
    return tuple(_e_as_symbol(expr) for expr in parsed)


# ``e`` standing alone in a question's math: not a letter of a word or command, not the base
# of a power (``e^{-t/\tau}`` is Euler's), not a subscript's, not scientific notation
# (``1.6e-19``), not typeset upright (``\mathrm{e}`` is Euler's number)
_UPRIGHT_E = re.compile(r"\\(?:mathrm|text|rm|operatorname|mbox)\s*\{[^{}]*\}")
_QUANTITY_E = re.compile(r"(?<![A-Za-z\\_.])e(?![A-Za-z_^])(?!\s*[-+]?\d)")


@lru_cache(maxsize=64)
def e_is_a_quantity(question: str) -> bool:
    """Whether ``question`` writes ``e`` as a quantity of its own: a coefficient of
    restitution (``$e < 1$``), the elementary charge (``a charge $-e$``), an eccentricity.
    Then the gold's ``h\\frac{1+e^2}{1-e^2}`` is in that quantity, not in Euler's number:
    read as Euler's, ``-1.313h`` equalled it (red team r19b), and the electron's
    ``\\frac{e^2}{4\\pi\\varepsilon_0 r}`` was exp(2) over the rest."""
    return _QUANTITY_E.search(_UPRIGHT_E.sub(" ", question_math(question))) is not None


def _e_as_symbol(expr: Any) -> Any:
    """``expr`` with Euler's number, and each exponential, written in the symbol ``e``."""
    import sympy

    if not isinstance(expr, sympy.Basic) or not expr.has(sympy.E, sympy.exp):
        return expr
    e = sympy.Symbol("e")
    return expr.replace(sympy.exp, lambda power: e**power).xreplace({sympy.E: e})


def _expressions(*texts: str) -> tuple[Any, ...]:
    """:func:`parse_expressions` as written, whatever the question."""
    from studybench.verify.latex_fast import FastParseError

    for side, text in enumerate(texts):
        try:
            guard(text)
        except UnparseableError as exc:
            raise UnparseableError(exc.reason, side) from None
        if _NUMBER_PRIME.search(text):
            raise UnparseableError("unit", side)
    try:
        fast = tuple(_parse_fast_prepared(text) for text in texts)
    except FastParseError:
        pass
    else:
        for side, parsed in enumerate(fast):
            if polynomial_degree(parsed) > MAX_EXPONENT:
                raise UnparseableError("too_large", side)
        return fast
    parsed = []
    for side, text in enumerate(texts):
        try:
            parsed.append(parse_latex(text))
        except UnparseableError as exc:
            raise UnparseableError(exc.reason, side) from None
    return tuple(parsed)


def numeric_value(expr: Any) -> complex | None:
    """The value of a closed-form sympy expression, or None if it has free symbols or no
    value found in bounded time (see :func:`_bounded`)."""
    try:
        if getattr(expr, "free_symbols", None):
            return None
        expr = _bounded(expr)
        if expr is None:
            return None
        value = complex(expr.evalf(30))
    except (TypeError, ValueError, OverflowError, AttributeError, ZeroDivisionError):
        return None
    if cmath.isnan(value):
        return None
    return value


MAX_MAGNITUDE = 1e300  # beyond a float: no answer of a physics problem is a larger number
MAX_INTEGRAL_ERROR = 1e-10  # quadrature's own error estimate, relative to the value
# digits kept of an integral's value: far more than any tolerance needs
SERIES_DIGITS = 20


def _bounded(expr: Any) -> Any:
    """``expr`` ready for ``evalf``, or None where evaluating it has no time bound or no
    value that can be trusted.

    sympy's ``evalf`` of a series went through Euler-Maclaurin (derivatives that grow
    without end: ``\\sum (-1)^n/\\ln(n+1)`` ran for minutes), and of ``\\sin(e^{e^{e^{e}}})``
    through a reduction modulo 2 pi at millions of bits. So:

    * a finite sum or product of at most
      :data:`~studybench.verify.symbolic.MAX_FINITE_TERMS` terms is computed;
    * an infinite sum takes its closed form where sympy finds one that mpmath's sum of the
      series confirms (:func:`~studybench.verify.symbolic.checked_closed_forms`, as in an
      expression), else it has no value: a numeric extrapolation alone is fooled by a term
      that is nothing for the first thousand indices and everything after
      (``\\sum (1/n^2 + e^{n - 10^4})`` diverges; extrapolated, it is pi^2/6);
    * an infinite product has no value;
    * an integral is integrated by quadrature of bounded degree whose own error estimate
      must be small (what ``evalf`` did, with a bound);
    * every power and exponential, innermost first, must stay a float: a tower is refused
      before its next storey is evaluated."""
    import sympy

    series = (sympy.Sum, sympy.Product, sympy.Integral)
    replacements = {}
    for node in sympy.postorder_traversal(expr):
        if isinstance(node, series):
            if node.free_symbols or len(node.limits) != 1 or node.function.has(*series):
                return None
            value = _series_value(node)
            if value is None or (value := _bounded(value)) is None:
                return None
            replacements[node] = value
        elif (
            (isinstance(node, sympy.exp) or node.is_Pow)
            and not node.free_symbols  # a power of a sum's index is the sum's term
            and not node.has(*series)
        ):
            size = node.evalf(15)
            if not size.is_number or not abs(complex(size)) <= MAX_MAGNITUDE:
                return None
    return expr.xreplace(replacements) if replacements else expr


def _series_value(node: Any) -> Any:
    """One sum, product or integral of numbers as a number or a closed form, or None (see
    :func:`_bounded`)."""
    import sympy

    from studybench.verify.symbolic import checked_closed_forms, quadrature

    if isinstance(node, (sympy.Sum, sympy.Product)):
        closed = checked_closed_forms(node)
        return None if closed.has(sympy.Sum, sympy.Product) else closed
    value = quadrature(node, {}, max_error=MAX_INTEGRAL_ERROR)
    if value is None or not abs(value) <= MAX_MAGNITUDE:
        return None
    return sympy.Float(value.real, SERIES_DIGITS) + sympy.I * sympy.Float(value.imag, SERIES_DIGITS)


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
        mantissa = float(match.group("mant"))
    else:
        exponent = int((match.group("q1") or match.group("q2") or "0").replace(" ", ""))
        if abs(exponent) > MAX_EXPONENT:
            return None
        mantissa = 1.0
    try:
        value = mantissa * 10.0**exponent
    except OverflowError:
        raise UnparseableError("out_of_range") from None
    if math.isinf(value) or (value == 0.0 and mantissa != 0.0):
        # 10^{400} is no float, and 10^{-400} is not zero (it was read as 0: a zero gold's)
        raise UnparseableError("out_of_range")
    return sign * value, match.end()


@lru_cache(maxsize=8192)
def parse_number(text: str) -> float:
    """A real number from plain or LaTeX notation (``2.5e26``, ``2.5\\times10^{26}``,
    ``\\frac{1}{2}``, ``3\\sqrt{2}``, ``\\pi/2``); raises :class:`UnparseableError`."""
    text = text.strip()
    if not text:
        raise UnparseableError("empty")
    if THOUSANDS.fullmatch(text):
        return float(text.replace("{,}", "").replace(",", ""))
    fast = _fast_number(text)
    if fast is not None and fast[1] == len(text):
        return fast[0]
    (expr,) = _expressions(text)  # cached by text: a number's e is Euler's, whatever the question
    value = numeric_value(_euler_number(expr))
    if value is None:
        raise UnparseableError("not_a_number")
    if abs(value.imag) > 1e-12 * max(abs(value.real), 1.0):
        raise UnparseableError("complex")
    real = value.real
    if math.isinf(real):
        raise UnparseableError("too_large")
    return real


def _euler_number(expr: Any) -> Any:
    """A number's ``e`` read as Euler's number. The fast parser keeps a bare ``e`` a symbol
    (the elementary charge of ``\\frac{q}{e}``); a number has no other symbol for it to be,
    so ``\\frac{1}{e}`` and ``e^{\\pi/e}`` are values, as ``e^{-1}`` already was."""
    import sympy

    symbols: set[Any] = getattr(expr, "free_symbols", set())
    if len(symbols) == 1 and str(next(iter(symbols))) == "e":
        return expr.subs(next(iter(symbols)), sympy.E)
    return expr


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
    if THOUSANDS.fullmatch(text.strip()):
        return [text.strip()]
    return [part.strip() for part in split_top_level(text, ",")]


# Numbers as written, for the precision they claim
_DECIMAL = re.compile(r"\d\.\d|(?<!\d)\.\d|\d[eE][+\-−]?\d")
_WRITTEN_NUMBERS = re.compile(r"(\d*)(?:\.(\d+))?(?:[eE]([+\-]?\d+))?")
_EXACT_FRACTION = re.compile(r"\\[dt]?frac(?![a-zA-Z])|\d\s*/\s*\d")
_EXACT_PRECISION = 1e-9  # an exact number against an exact number: only rounding error


def has_decimal(text: str) -> bool:
    """Whether ``text`` writes a decimal number (``0.5``, ``.5``, ``5e-1``)."""
    return _DECIMAL.search(text) is not None


def written_precision(text: str, whole_numbers: bool = True) -> float:
    """The relative error the numbers of ``text`` can carry as written: half a unit in the
    last digit over the size of its most precise number (``0.667``: 0.0005/0.667; ``173``
    cm: 0.5/173). A fraction of whole numbers (``\\frac{101}{200}``) is exact and carries
    none; so do whole numbers in an expression (``whole_numbers`` False: the 12 of ``12
    x^{2}``). An exact gold holds a prediction to it: a prediction that agrees with the gold
    only within the 1 % tolerance, not to the digits it writes, names another number
    (``0.5049`` for 1/2, ``0.672\\,d`` for 2d/3).

    The most precise number, not the sum of all: a sum grew with every number written, so
    padding a value with exact factors (``5.04\\times10^{-1}``, ``0.672\\,d \\cdot 1.0``,
    ``\\frac{6.55}{1.0}``) loosened the check back to the 1 % tolerance. A number added can
    only tighten the least error."""
    if _EXACT_FRACTION.search(text) and not has_decimal(text):
        return _EXACT_PRECISION
    least = min(_precisions(text, whole_numbers), default=_EXACT_PRECISION)
    return max(least, _EXACT_PRECISION)


def coarsest_precision(text: str) -> float:
    """The largest relative error one decimal of ``text`` carries as written (its whole
    numbers are exact): where each number rounds a constant of its own (``(1.60\\times
    10^{-19})^2/(4\\pi\\cdot 8.85\\times10^{-12})``) the errors add up, and the coarsest
    bounds how far the whole may be off, not the finest."""
    return max(_precisions(text, whole_numbers=False), default=_EXACT_PRECISION)


def _precisions(text: str, whole_numbers: bool) -> list[float]:
    """Half a unit in the last digit over the size, for each nonzero number ``text`` writes."""
    found = []
    for whole, decimals, exponent in _WRITTEN_NUMBERS.findall(text):
        if not (whole or decimals) or not (decimals or whole_numbers):
            continue
        value = float(f"{whole or 0}.{decimals or 0}e{exponent or 0}")
        if value:
            found.append(0.5 * 10.0 ** (int(exponent or 0) - len(decimals)) / value)
    return found


# a decimal in an expression may sit inside a function (\\sin(0.6931 x)), whose slope at the
# sample points spreads its rounding up to about twice
SPREAD = 2.0


def exact_gold_tolerance(pred: str, gold: str, tolerance: float) -> float:
    """The tolerance of an expression or equation ``pred`` with decimals against ``gold``:
    where the gold writes no decimal (it is exact: ``2d/3``, ``x = L/(2\\sqrt 3)``) the
    decimals must agree to the digits they write (:func:`written_precision`), not to the 1 %
    meant for rounded golds: ``0.667\\,d`` passes for ``2d/3``, ``0.672049\\,d`` does not."""
    if has_decimal(gold) or not has_decimal(pred):
        return tolerance
    return min(tolerance, SPREAD * written_precision(pred, whole_numbers=False))
