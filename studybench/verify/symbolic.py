"""Deciding whether two sympy expressions are equal: exact where cheap, else sampled.

Why sampling is done this way: a comparison at points in [1.1, 2.9] with 20 digits let a
large term swallow a small one (``x^{100}`` "equalled" ``x^{100}+1``), and complex floats
overflowed on exact huge numbers (``7^{399} 13^{399}`` "differed" from ``91^{399}``). Points
are now spread on both sides of 1 (log-uniform in [0.3, 3]), values are computed in mpmath
with 60 digits and an unbounded exponent range, and expressions without decimals must agree
to 40 digits (closed exact numbers exactly). Expressions with decimals use the answer
tolerance.

Standard definitions of physical constants (``\\hbar = h/2\\pi``, ``c^2 = 1/\\mu_0\\epsilon_0``,
the Lorentz factor) are substituted when one side uses the constant and the other does not.
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections.abc import Callable
from typing import Any

import mpmath  # type: ignore[import-untyped]
import sympy

from studybench.verify.asked import asked_question

EXACT_DIGITS = 60
# A private context: mpmath's global one works at 15 digits and is shared with the host.
_mp = mpmath.MPContext()
_mp.dps = EXACT_DIGITS + 10
EXACT_TOLERANCE = _mp.mpf("1e-40")
SERIES_TOLERANCE = _mp.mpf("1e-12")  # an infinite sum's numeric value (mpmath nsum) agrees to this
POINTS = 5
_LOG_LOW, _LOG_HIGH = math.log(0.3), math.log(3.0)

Value = Any  # an mpmath mpc


def canonical_name(symbol: Any) -> str:
    """``epsilon_{0}``, ``\\epsilon_0`` and ``epsilon_0`` are one name (the two parsers)."""
    return canonical_spelling(str(symbol.name))


def canonical_spelling(name: str) -> str:
    """A name as :func:`canonical_name` spells a symbol's: no braces, backslashes, spaces."""
    return name.replace("{", "").replace("}", "").replace("\\", "").replace(" ", "")


def _s(name: str) -> Any:
    return sympy.Symbol(name)


# name -> (definition builder over a symbol lookup). Order matters: the Lorentz factor
# introduces c, which may then be replaced by its own definition.
_DEFINITIONS: tuple[tuple[str, Callable[[Callable[[str], Any]], Any]], ...] = (
    ("gamma", lambda s: 1 / sympy.sqrt(1 - s("v") ** 2 / s("c") ** 2)),
    ("hbar", lambda s: s("h") / (2 * sympy.pi)),
    ("k_e", lambda s: 1 / (4 * sympy.pi * s("epsilon_0"))),
    ("k", lambda s: 1 / (4 * sympy.pi * s("epsilon_0"))),  # Coulomb's k, see _REQUIRES
    ("beta", lambda s: s("v") / s("c")),  # the speed in units of c, see _REQUIRES
    ("R", lambda s: s("N_A") * s("k_B")),  # the gas constant, see _REQUIRES
    ("c", lambda s: 1 / sympy.sqrt(s("mu_0") * s("epsilon_0"))),
)


# A name that is a constant only beside the constants it is defined by: ``k`` is Coulomb's
# constant where the other side writes epsilon_0, and a spring constant everywhere else;
# ``R`` is the gas constant beside Boltzmann's k_B (elsewhere a resistance or a radius);
# ``\\beta`` is v/c beside v and c (elsewhere an angle or 1/k_BT).
_REQUIRES = {"k": ("epsilon_0",), "R": ("k_B",), "beta": ("v", "c")}


# A letter a definition reads as a constant is, in most problems, a quantity of their own:
# ``h`` a height, ``k`` a spring constant, ``R`` a resistance or a radius, ``c`` a specific
# heat, ``\\beta`` and ``\\gamma`` angles or ratios. A prediction that writes the constant
# (``\\hbar``, ``\\varepsilon_0``, ``N_A k_B``) would then hit the gold's quantity:
# ``\\sqrt{20\\pi g\\hbar/7}`` "equalled" ``\\sqrt{10gh/7}`` and ``BLv/(N_A k_B)`` equalled
# ``BLv/R``. Where the question is known, a definition that reads a letter of the gold as
# the constant (``k``, ``R``, ``c``, ``\\beta``, ``\\gamma`` in the gold; ``h`` of the gold
# met by the prediction's ``\\hbar``) is used only where the question speaks of the
# constant's physics (these words). The gold's own constants (``\\varepsilon_0``, ``\\hbar``)
# say what they are, and without a question the definitions are used as before.
CONSTANT_CUES = {
    name: re.compile(words)
    for name, words in (
        ("gamma", r"relativ|lorentz|light|photon"),
        (
            "hbar",
            r"quantum|photon|planck|wave\s*length|frequenc|electron|atom|\\hbar|ħ|broglie"
            r"|uncertaint|spin|energy\s+level|wave\s*function|schr[oö]dinger",
        ),
        ("k_e", r"charge|coulomb|electr|epsilon|permittiv"),
        ("k", r"charge|coulomb|electr|epsilon|permittiv"),
        ("beta", r"relativ|light|lorentz|photon"),
        (
            "R",
            r"\bgas|\bmol(?:e|ar|s)?\b|thermo|temperature|boltzmann|avogadro|k_\{?b\b"
            r"|entrop|isotherm|adiabat|\bheat",
        ),
        (
            "c",
            r"light|relativ|electromagnetic|photon|permeab|permittiv|\\mu_0|epsilon_0|rest\s+energy"
            r"|mass[\s-]+energy|einstein|annihilat|nuclear|binding\s+energy|mass\s+defect|fission|fusion",
        ),
        # used by constant_values only (no definition writes e or G by other constants)
        ("e", r"electron|proton|\bions?\b|elementary\s+charge"),
        ("m_e", r"electron"),
        ("m_p", r"proton"),
        ("N_A", r"avogadro|\bmol(?:e|es|ar)?\b"),
        (
            "G",
            r"gravit|orbit|planet|satellite|\bstars?\b|\bmoon|\bearth|\bsun\b|galax|black\s+hole",
        ),
    )
}


def _speaks_of(name: str, in_prediction: bool) -> bool:
    """Whether the definition of ``name``, which stands in the prediction or (not
    ``in_prediction``) in the gold, may be used in answer to the question (see
    ``CONSTANT_CUES``)."""
    question = asked_question()
    cue = CONSTANT_CUES.get(name)
    if question is None or cue is None or in_prediction is (name != "hbar"):
        return True  # no question, or the gold's letter is not read as the constant
    return cue.search(question) is not None


# A partial derivative as the parser names it (parsing._derivative_name): the function, then
# ``d`` and the variables sorted (u_{dxx}, psi_{dtx}); a subscript of single letters (u_{xx}).
_DERIVATIVE_NAME = re.compile(r"([A-Za-z]+)_d([A-Za-z]+)")
_LETTER_SUBSCRIPT = re.compile(r"([A-Za-z]+)_([A-Za-z]{1,4})")
# accents the parsers spell as a subscript word (\dot x is x_dot): neither a derivative nor
# variables (x_ddot would otherwise read as the derivative of x by d, o, t)
_ACCENT_WORDS = frozenset({"dot", "ddot", "dddot", "hat", "tilde", "check", "mean", "vec"})


def read_subscript_derivatives(a: Any, b: Any) -> tuple[Any, Any]:
    """Read PDE subscript notation (``u_t``, ``u_{xx}``, ``u_{xt}``) as the partial
    derivative, in one side, only where the other side writes that very derivative: the
    derivative of the same function with respect to the same variables, with the same
    multiplicity (mixed partials in either order).

    Why only then: ``v_x`` is as often a component or an index as a derivative; beside
    ``\\frac{\\partial u}{\\partial t}`` the subscript ``u_t`` can only mean that
    derivative. A subscript with no matching derivative on the other side (``u_{tt}`` beside
    ``\\partial_t u``, ``u_x`` beside ``\\partial_t u``) stays an ordinary subscript, so a
    wrong order or variable is still a different quantity."""

    def derivatives(expr: Any) -> dict[str, Any]:
        found = {}
        for symbol in expr.free_symbols:
            name = canonical_name(symbol)
            if _DERIVATIVE_NAME.fullmatch(name) and name.split("_", 1)[1] not in _ACCENT_WORDS:
                found[name] = symbol
        return found

    def read(expr: Any, other: dict[str, Any]) -> Any:
        mapping = {}
        for symbol in expr.free_symbols:
            match = _LETTER_SUBSCRIPT.fullmatch(canonical_name(symbol))
            if match is None or match.group(2) in _ACCENT_WORDS:
                continue
            wanted = f"{match.group(1)}_d{''.join(sorted(match.group(2)))}"
            if wanted in other:
                mapping[symbol] = other[wanted]
        return expr.xreplace(mapping) if mapping else expr

    in_a, in_b = derivatives(a), derivatives(b)
    if not in_a and not in_b:
        return a, b
    return read(a, in_b), read(b, in_a)


# Dot and prime notation for a derivative, as the parsers name it (\\dot x_1 is x_dot_1, x_1'
# is x_1prime, x'' x_primeprime), and a total derivative as parsing names it (\\frac{dx_1}{dt}
# is x_1Dt: the function, its subscript, ``D`` and the variables).
_DOTTED = re.compile(r"([A-Za-z]+)_(d+)ot(?:_([A-Za-z0-9]+))?")
_PRIMED = re.compile(r"([A-Za-z]+)_([A-Za-z0-9]*?)((?:prime)+)")
_APPLIED = re.compile(r"([A-Za-z]+)_of([a-z])")  # x(t): a function at a plain letter


def read_derivative_notations(a: Any, b: Any) -> tuple[Any, Any]:
    """Read Newton's and Lagrange's notation as the Leibniz derivative, in one side, only
    where the other side writes that derivative: ``\\dot v`` is ``\\frac{dv}{dt}`` (dots are
    time derivatives), ``v'`` and ``v''`` the first and second derivative by the one variable
    the other side differentiates by. A function written with its argument (``x(t)``) is that
    function where the other side writes it bare (``x``) and never applied.

    Why only then (the rule of :func:`read_subscript_derivatives`): ``v'`` is as often a
    second velocity as a derivative; beside ``dv/dt`` it can only be the derivative, and a
    wrong order or function is still a different quantity."""

    def names(expr: Any) -> dict[str, Any]:
        return {canonical_name(symbol): symbol for symbol in expr.free_symbols}

    def read(expr: Any, own: dict[str, Any], other: dict[str, Any]) -> Any:
        mapping = {}
        for name, symbol in own.items():
            wanted: list[str] = []
            dotted = _DOTTED.fullmatch(name)
            primed = _PRIMED.fullmatch(name)
            applied = _APPLIED.fullmatch(name)
            if dotted is not None and set(dotted.group(2)) == {"d"}:
                order = len(dotted.group(2))
                wanted = [f"{dotted.group(1)}_{dotted.group(3) or ''}D{'t' * order}"]
            elif primed is not None:
                order = len(primed.group(3)) // len("prime")
                stem = f"{primed.group(1)}_{primed.group(2)}D"
                wanted = [
                    n for n in other if n.startswith(stem) and _one_variable(n[len(stem) :], order)
                ]
                dots = f"{primed.group(1)}_{'d' * order}ot" + (
                    f"_{primed.group(2)}" if primed.group(2) else ""
                )
                wanted += [dots] if dots in other else []
            elif (
                applied is not None
                and applied.group(1) in other
                and not any(n.startswith(applied.group(1) + "_of") for n in other)
            ):
                wanted = [applied.group(1)]
            if len(wanted) == 1 and wanted[0] in other and wanted[0] not in own:
                mapping[symbol] = other[wanted[0]]
        return expr.xreplace(mapping) if mapping else expr

    in_a, in_b = names(a), names(b)
    return read(a, in_a, in_b), read(b, in_b, in_a)


def _one_variable(letters: str, order: int) -> bool:
    """``tt`` is one variable twice (order 2); ``xt`` is two variables."""
    return len(letters) == order and len(set(letters)) == 1


# Glyphs of one quantity that only the typeface tells apart: an emf is written \\mathcal{E},
# \\mathscr{E} or \\varepsilon. Only bare names: \\epsilon_0 is the vacuum permittivity and
# \\mathcal{E}_0 an emf's amplitude.
_GLYPHS = (("mathE", "epsilon"),)


def read_glyph_aliases(a: Any, b: Any) -> tuple[Any, Any]:
    """One side's ``\\mathcal{E}`` is the other's ``\\varepsilon`` where each side writes only
    one of the two (a side with both names two quantities, and nothing is renamed)."""
    for first, second in _GLYPHS:
        names_a = {canonical_name(s): s for s in a.free_symbols}
        names_b = {canonical_name(s): s for s in b.free_symbols}
        written_a = names_a.keys() & {first, second}
        written_b = names_b.keys() & {first, second}
        if written_a == {first} and written_b == {second}:
            a = a.xreplace({names_a[first]: names_b[second]})
        elif written_b == {first} and written_a == {second}:
            b = b.xreplace({names_b[first]: names_a[second]})
    return a, b


def substitute_definitions(a: Any, b: Any) -> tuple[Any, Any]:
    """Replace a constant that only one side names by its definition, in both sides (``a``
    the prediction, ``b`` the gold; see ``CONSTANT_CUES`` for the question's part), after
    reading PDE subscripts beside written derivatives (:func:`read_subscript_derivatives`)
    and the glyphs of one quantity (:func:`read_glyph_aliases`)."""
    a, b = read_subscript_derivatives(a, b)
    a, b = read_derivative_notations(a, b)
    a, b = read_glyph_aliases(a, b)
    for name, build in _DEFINITIONS:
        in_a = [s for s in a.free_symbols if canonical_name(s) == name]
        in_b = [s for s in b.free_symbols if canonical_name(s) == name]
        if bool(in_a) == bool(in_b):
            continue
        other_names = {canonical_name(s) for s in (b if in_a else a).free_symbols}
        if not set(_REQUIRES.get(name, ())) <= other_names or not _speaks_of(name, bool(in_a)):
            continue
        present = {canonical_name(s): s for s in a.free_symbols | b.free_symbols}

        def lookup(symbol_name: str, present: dict[str, Any] = present) -> Any:
            return present.get(symbol_name, _s(symbol_name))

        definition = build(lookup)
        target = (in_a or in_b)[0]
        a, b = a.xreplace({target: definition}), b.xreplace({target: definition})
    return a, b


SUMMAND_OPS_LIMIT = 40  # larger summands are left to the numeric check (summation may stall)
# a larger shift of the index (``n - 10^4``) is not summed: sympy's telescoping solves a
# polynomial of about that degree (minutes for e^{n - 10^4}; 3.6 s for 1/(n + 500)^2)
MAX_INDEX_SHIFT = 100


def _far_shift(summand: Any, index: Any) -> bool:
    """Whether ``summand`` shifts its index by more than :data:`MAX_INDEX_SHIFT`."""
    for node in sympy.preorder_traversal(summand):
        if node.is_Add and node.has(index):
            shift, _ = node.as_independent(index, as_Add=True)
            if shift.is_Number and abs(shift) > MAX_INDEX_SHIFT:
                return True
    return False


@functools.lru_cache(maxsize=256)
def _closed_form(total: Any) -> Any:
    """The checked closed form of one infinite sum, or None (see :func:`checked_closed_forms`).
    Cached per worker: the gold of a slot meets its k samples with the same sum."""
    if len(total.limits) != 1:
        return None
    _, low, high = total.limits[0]
    if not (low.is_infinite or high.is_infinite):
        return None
    if sympy.count_ops(total.function) > SUMMAND_OPS_LIMIT or _far_shift(
        total.function, total.limits[0][0]
    ):
        return None
    try:
        summed = _summed(total)
    except Exception:  # summation's own failures leave the numeric check in charge
        return None
    if summed is None:
        return None
    closed, region = summed
    if closed.has(sympy.Sum, sympy.Piecewise) or closed.is_finite is False:
        return None
    if not total.free_symbols:
        if closed.is_finite is not True or region is not sympy.true:
            return None
        # summed by mpmath, as with parameters: Sum.evalf goes through lambdify's default
        # modules and imported scipy (0.3 s in the first comparison with a series)
        numeric, exact = _partial_series(total, {}), evaluate(closed, {})
        if numeric is None or exact is None:
            return None
        return closed if _series_close(numeric, exact) else None
    checked = 0
    for point in _points_in(region, total, count=2):
        numeric, exact = _partial_series(total, point), evaluate(closed, point)
        if numeric is None or exact is None or not _series_close(numeric, exact):
            return None
        checked += 1
    return closed if checked == 2 else None


def _summed(total: Any) -> tuple[Any, Any] | None:
    """sympy's summation of ``total`` and the region where it converges (issue 32 item 5).

    A power series in a parameter (``\\sum x^n``) sums to a case split: the closed form where
    ``|x| < 1``, the unevaluated sum elsewhere. The closed form is kept with its region, and
    the series is checked against it at points inside that region only; outside it the sum
    diverges, and the closed form is its analytic continuation, so comparing it with the gold
    anywhere says the same. A summand ``e^{-n\\beta\\hbar\\omega}`` is summed as the power
    ``y^n`` of ``y = e^{-\\beta\\hbar\\omega}`` (sympy leaves the exponential form alone)."""
    index = total.limits[0][0]
    summand, back = _exponential_powers(total.function, index)
    closed = sympy.Sum(summand, total.limits[0]).doit().xreplace(back)
    regions = []
    cases = {}
    for case in closed.atoms(sympy.Piecewise):
        (expression, condition), *rest = case.args
        if expression.has(sympy.Sum) or condition is sympy.true:
            return None
        if not all(other.has(sympy.Sum) or cond is sympy.false for other, cond in rest):
            return None  # a case split of the answer itself, not only of convergence
        cases[case] = expression
        regions.append(condition)
    return closed.xreplace(cases), sympy.And(*regions) if regions else sympy.true


def _exponential_powers(summand: Any, index: Any) -> tuple[Any, dict[Any, Any]]:
    """``summand`` with each ``exp(a + b n)`` written ``e^a y^n`` for a new ``y = e^b``, and
    the map back from each ``y``."""
    back: dict[Any, Any] = {}
    replacements = {}
    for power in summand.atoms(sympy.exp):
        argument = sympy.expand(power.args[0])
        rate = argument.coeff(index, 1)
        rest = sympy.expand(argument - rate * index)
        if rate == 0 or rest.has(index):
            continue
        base = sympy.Dummy("y", positive=True)
        back[base] = sympy.exp(rate)
        replacements[power] = sympy.exp(rest) * base**index
    return (summand.xreplace(replacements), back) if replacements else (summand, {})


CONVERGENCE_TRIES = 12  # candidate points drawn to find two inside a sum's region


def _points_in(region: Any, total: Any, count: int) -> list[dict[Any, Any]]:
    """``count`` sample points inside ``region`` (the drawn points, then the same points
    mapped into (0, 1), where power series converge); fewer where none are found."""
    symbols = sorted(total.free_symbols, key=lambda s: s.name)
    drawn = sample_points(symbols, "series:" + str(total), count=CONVERGENCE_TRIES // 2)
    candidates = drawn + [{s: v / (1 + v) for s, v in point.items()} for point in drawn]
    inside = []
    for point in candidates:
        try:
            holds = region.xreplace(point)
        except Exception:  # a region sympy cannot decide at a point excludes the point
            continue
        if holds is sympy.true:
            inside.append(point)
            if len(inside) == count:
                break
    return inside


def _series_close(numeric: Value, exact: Value) -> bool:
    return bool(abs(numeric - exact) <= SERIES_TOLERANCE * max(abs(exact), _mp.mpf(1)))


def _partial_series(total: Any, point: dict[Any, Any]) -> Value | None:
    """A sum with parameters at one point, summed by mpmath (``Sum.evalf`` returned 1.0 for
    ``\\sum x^n/n!`` at x = 0.8998: sympy's own series evaluation is wrong at non-integer
    parameters)."""
    index, low, high = total.limits[0]
    summand = total.function.xreplace({s: sympy.Rational(v) for s, v in point.items()})
    try:
        term = sympy.lambdify(index, summand, modules="mpmath")
        with mpmath.workdps(EXACT_DIGITS // 2):
            bounds = [
                mpmath.mpf(b) if b.is_finite else (mpmath.inf if b > 0 else -mpmath.inf)
                for b in (low, high)
            ]
            value = mpmath.nsum(term, bounds)
            return _mp.mpc(value)
    except Exception:  # a series mpmath cannot sum is not checked, so not replaced
        return None


MAX_FINITE_TERMS = 10_000  # a finite sum or product of numbers is computed up to this


def _finite(node: Any) -> bool:
    """Whether ``node`` (a sum or product) runs over at most :data:`MAX_FINITE_TERMS`
    integers."""
    if len(node.limits) != 1 or len(node.limits[0]) != 3:
        return False
    _, low, high = node.limits[0]
    # integers as read (``10^{4}`` is an unevaluated power: integer, not an Integer)
    if not all(bound.is_number and bound.is_integer for bound in (low, high)):
        return False
    return bool(sympy.Integer(high - low) <= MAX_FINITE_TERMS)


MAX_PARAMETER_TERMS = 100  # terms of a finite sum or product with parameters written out


@functools.lru_cache(maxsize=256)
def _finite_value(node: Any) -> Any:
    """A finite sum or product, computed term by term, or None: one of more terms than
    :data:`MAX_FINITE_TERMS` stays as written (``evalf`` of ``\\prod_{n=1}^{10^9}`` ran for
    18 s), and so does one with parameters of more than :data:`MAX_PARAMETER_TERMS` (a
    thousand terms in ``x`` would be a polynomial of degree a thousand)."""
    if not _finite(node):
        return None
    _, low, high = node.limits[0]
    if node.free_symbols and sympy.Integer(high - low) > MAX_PARAMETER_TERMS:
        return None
    done = node.doit()
    return None if done.has(sympy.Sum, sympy.Product) else done


def checked_closed_forms(expr: Any) -> Any:
    """Replace each finite sum or product by its value (:func:`_finite_value`),
    and each infinite sum and each definite integral by its closed form where sympy
    finds one that a numeric check confirms (integrals: :func:`_integrated`). A sum of
    numbers: ``\\sum_{n\\ge1} 1/n^2`` becomes ``\\pi^2/6``, so the comparison is exact (40
    digits) instead of the numeric series check (1e-12), which would take a wrong closed form
    within 1e-12 of the true value (``\\pi^2/6 + 10^{-14}``) for the sum.

    Soundness first: a closed form is used only when it is finite, free of any remaining sum
    or case split, and agrees with the series summed numerically (mpmath) to 1e-12, so a wrong
    result of summation can never make an answer right; otherwise the sum stays and the
    numeric check decides as before. A sum with free parameters (``\\sum x^n/n!``) takes its
    closed form (``e^x``) when the series, summed by mpmath at two sample points, agrees with
    it; otherwise it stays, and the comparison is inconclusive (sympy cannot evaluate it at
    the sample points). The pool's per-comparison time bound holds a slow summation (a
    timeout is a rejection)."""
    replacements = {}
    for total in expr.atoms(sympy.Sum, sympy.Product):
        closed = _finite_value(total)
        if closed is None and isinstance(total, sympy.Sum):
            closed = _closed_form(total)
        if closed is not None:
            replacements[total] = closed
    for integral in expr.atoms(sympy.Integral):
        closed = _integrated(integral)
        if closed is not None:
            replacements[integral] = closed
    return expr.xreplace(replacements) if replacements else expr


INTEGRAND_OPS_LIMIT = 30  # larger integrands are not integrated (risch may stall)
INTEGRAL_TOLERANCE = _mp.mpf("1e-12")  # quadrature agrees with the closed form to this
INTEGRAL_ERROR = 1e-14  # and its own error estimate, relative to the value, is below this


@functools.lru_cache(maxsize=256)
def _integrated(integral: Any) -> Any:
    """The checked closed form of one definite integral, or None (the rule of
    :func:`checked_closed_forms`, issue 32): ``\\int_0^L x^2\\,dx`` is ``L^3/3``. Before, an
    integral was never evaluated, so a chain with an integral link (``W = \\int p\\,dV =
    nRT\\ln 2``) was wrong. Used only when sympy's result is free of integrals, case splits
    and unknown functions and agrees with mpmath's quadrature to 1e-12 at two sample points
    of its parameters (at the point itself when it has none); an indefinite integral (its
    constant is arbitrary) and an integral of an unknown function are left as written."""
    if len(integral.limits) != 1 or len(integral.limits[0]) != 3:
        return None  # one definite integral at a time (quadrature checks one variable)
    if integral.has(sympy.core.function.AppliedUndef):
        return None
    if sympy.count_ops(integral.function) > INTEGRAND_OPS_LIMIT:
        return None
    # quadrature first: a closed form is used only where quadrature confirms it, so where
    # quadrature cannot reach that precision (an integrand that oscillates without end,
    # e^{-x^2}\sin(1/x)) sympy's search, which ran 20 s and more in heurisch, is not made
    symbols = sorted(integral.free_symbols, key=lambda s: s.name)
    points = sample_points(symbols, "integral:" + str(integral), count=2) if symbols else [{}]
    numerics = [quadrature(integral, point, max_error=INTEGRAL_ERROR) for point in points]
    if any(numeric is None for numeric in numerics):
        return None
    # the parameters positive, as everywhere in the verifier: sympy's case split for a zero or
    # negative parameter (\\int_0^T \\sin\\omega t\\,dt at omega = 0) is then not made
    positive = {s: sympy.Dummy(s.name, positive=True) for s in integral.free_symbols}
    try:
        closed = integral.xreplace(positive).doit()
    except Exception:  # integration's own failures leave the integral as written
        return None
    closed = closed.xreplace({dummy: symbol for symbol, dummy in positive.items()})
    if closed.has(sympy.Integral, sympy.Piecewise) or closed.is_finite is False:
        return None
    for point, numeric in zip(points, numerics, strict=True):
        exact = evaluate(closed, point)
        if exact is None:
            return None
        if abs(numeric - exact) > INTEGRAL_TOLERANCE * max(abs(exact), _mp.mpf(1)):
            return None
    return closed


def quadrature(
    integral: Any, point: dict[Any, Any], max_error: float | None = None
) -> Value | None:
    """A definite integral at one point of its parameters, by mpmath's quadrature (sympy's
    evalf of an integral with substituted parameters gave no number). With ``max_error``,
    at bounded degree, and None unless quadrature's own error estimate is below that share
    of the value (an oscillating integrand: no value rather than an unbounded refinement)."""
    variable, low, high = integral.limits[0]
    values = {s: sympy.Rational(v) for s, v in point.items()}
    integrand = integral.function.xreplace(values)
    bounds = [sympy.sympify(b).xreplace(values) for b in (low, high)]
    try:
        term = sympy.lambdify(variable, integrand, modules="mpmath")
        with mpmath.workdps(EXACT_DIGITS // 2):
            ends = [
                mpmath.mpf(sympy.N(b, EXACT_DIGITS // 2))
                if b.is_finite
                else (mpmath.inf if b > 0 else -mpmath.inf)
                for b in bounds
            ]
            if max_error is None:
                return _mp.mpc(mpmath.quad(term, ends))
            value, error = mpmath.quad(term, ends, error=True, maxdegree=8)
            return _mp.mpc(value) if error <= max_error * max(1, abs(value)) else None
    except Exception:  # an integral mpmath cannot evaluate is not checked, so not replaced
        return None


def has_float(expr: Any) -> bool:
    return any(isinstance(atom, sympy.Float) for atom in expr.atoms(sympy.Number))


def sample_points(
    symbols: list[Any], seed_text: str, count: int = POINTS, signed: bool = False
) -> list[dict[Any, Any]]:
    """Points on both sides of 1, the same for both expressions of a comparison; ``signed``
    draws negative values too (an equation squared gains the negative root)."""
    rng = random.Random(seed_text)
    points = []
    for _ in range(count):
        point = {}
        for s in symbols:
            magnitude = math.exp(rng.uniform(_LOG_LOW, _LOG_HIGH))
            sign = -1 if signed and rng.random() < 0.5 else 1
            point[s] = sympy.Float(sign * magnitude, EXACT_DIGITS)
        points.append(point)
    return points


@functools.lru_cache(maxsize=1024)
def unbounded_series_in(expr: Any) -> bool:
    """Whether ``expr`` holds a sum or product that is not finite (:func:`_finite`): an
    infinite sum whose closed form was not found and checked (:func:`checked_closed_forms`),
    an infinite product, or one of too many terms. Such a node has no value, as in a numeric
    answer (``parsing._bounded``): sympy's ``evalf`` of it took seconds to minutes
    (``\\sum \\sin n/n^{1.5}``: 145 s) and extrapolates from the first terms, which a
    series can be built to defeat (``\\sum (1/n^2 + e^{n - 10^4})``)."""
    return not all(_finite(node) for node in expr.atoms(sympy.Sum, sympy.Product))


def evaluate(expr: Any, point: dict[Any, Any]) -> Value | None:
    """``expr`` at ``point`` as an mpmath complex, or None where it is undefined (an infinite
    sum without a checked closed form included)."""
    if unbounded_series_in(expr):
        return None
    try:
        value = expr.evalf(EXACT_DIGITS, subs=point)
        real, imag = value.as_real_imag()
        if not (real.is_Number and imag.is_Number):
            return None
        prec = _mp.prec
        result = _mp.mpc(
            sympy.Float(real, EXACT_DIGITS)._to_mpmath(prec),
            sympy.Float(imag, EXACT_DIGITS)._to_mpmath(prec),
        )
    except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
        return None
    if _mp.isnan(result) or _mp.isinf(result):
        return None
    return result


def relative_tolerance(a: Any, b: Any, tolerance: float) -> Any:
    """40 digits for exact expressions; the answer tolerance once decimals appear."""
    if has_float(a) or has_float(b):
        return _mp.mpf(tolerance)
    return SERIES_TOLERANCE if a.has(sympy.Sum) or b.has(sympy.Sum) else EXACT_TOLERANCE


# Atoms whose value can jump or bend anywhere (floor, min, |x|, cases): agreement at a few
# points in [0.3, 3] says nothing about them (``x + \\lfloor x/10 \\rfloor`` equals ``x`` there,
# ``\\min(x, 10)`` too). An expression holding one is only equal when proven so.
_NON_ANALYTIC = (
    sympy.floor,
    sympy.ceiling,
    sympy.Min,
    sympy.Max,
    sympy.Abs,
    sympy.Piecewise,
    sympy.sign,
    sympy.Mod,
    sympy.Heaviside,
    sympy.frac,
)
PROOF_OPS_LIMIT = 250  # simplify above this size may stall; the answer is then not proven
# cancel expands products of sums and powers of sums: (x_0 + d)(x_1 + d)…(x_15 + d) has 2^16
# terms (20 s), (d + x + y + z)^{40} 12,341 (9 s); above this many the numeric proof decides
MAX_EXPANDED_TERMS = 2000


_HUGE = 10**9  # the size of a power above degree 400: more than any bound here


def expansion_size(expr: Any, denominators: bool = False) -> int:
    """How many terms ``expr`` has once products and integer powers of sums are multiplied
    out, computed without multiplying: a sum adds its terms' counts, a product multiplies
    them, a power k of m terms has C(m + k - 1, k). ``denominators``: negative powers too
    (``cancel`` expands them; ``expand`` leaves them)."""
    if expr.is_Add:
        return sum(expansion_size(term, denominators) for term in expr.args)
    if expr.is_Mul:
        return math.prod(expansion_size(factor, denominators) for factor in expr.args)
    if expr.is_Pow and expr.exp.is_Integer and (expr.exp > 1 or (denominators and expr.exp < 0)):
        terms = expansion_size(expr.base, denominators)
        power = abs(int(expr.exp))
        if terms == 1 or power == 1:
            return terms
        return math.comb(terms + power - 1, power) if power <= 400 else _HUGE
    return 1


MAX_PROOF_DIGITS = 3000


_INVERSE_TRIG = (sympy.asin, sympy.acos, sympy.atan, sympy.acot, sympy.asec, sympy.acsc)
_TRIG = (sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc)


def has_non_analytic(*exprs: Any) -> bool:
    """Whether an expression holds a function whose value jumps or bends (floor, |x|), or an
    inverse trigonometric function of a trigonometric one: ``\\arccos(\\cos d)`` is ``d``
    on [0, pi] only, ``2\\arctan(\\tan\\frac{\\theta}{2})`` is ``\\theta`` on (-pi, pi)
    only, a sawtooth that agreed with them at every sample point in [0.3, 3]."""
    for expr in exprs:
        if expr.has(*_NON_ANALYTIC):
            return True
        if any(call.args[0].has(*_TRIG) for call in expr.atoms(*_INVERSE_TRIG)):
            return True
    return False


def proven_zero(diff: Any) -> bool:
    """``simplify`` shows ``diff`` is zero (bounded in size; a failure proves nothing)."""
    if diff == 0:
        return True
    if sympy.count_ops(diff) > PROOF_OPS_LIMIT:
        return False
    try:
        return bool(sympy.simplify(diff) == 0)
    except Exception:
        return False


def exactly_zero(diff: Any, seed: str) -> bool:
    """Confirm that an exact difference (no decimals) that vanished to 40 digits is zero.

    Why: 40 digits let a tiny term through (``\\sqrt2 + 10^{-45}``, ``F = ma + 10^{-50}``).
    A rational function of its symbols is zero exactly when ``cancel`` says so; anything else
    is evaluated again with 60 digits more than the magnitude of any number written in it
    (10^{-45}: 105 digits; e^{-400}: 234), and must vanish there relative to its terms."""
    if diff == 0:
        return True
    try:
        if (
            _plain_rational(diff)
            and sympy.count_ops(diff) <= PROOF_OPS_LIMIT
            and expansion_size(diff, denominators=True) <= MAX_EXPANDED_TERMS
        ):
            return bool(sympy.cancel(sympy.together(diff)) == 0)
    except Exception:
        return False
    symbols = sorted(diff.free_symbols, key=lambda s: s.name)
    points = [
        {s: sympy.Rational(v) for s, v in point.items()}
        for point in sample_points(symbols, seed, count=1)
    ]
    # a written number and a power can shrink one term together ((g/40)^{300}: 40^{-300}
    # times g^{300}), so their orders add up
    digits = EXACT_DIGITS + _written_magnitude(diff) + _exponential_magnitude(diff, points)
    if digits > MAX_PROOF_DIGITS:
        return False  # a number too small (or large) to confirm: not proven equal
    terms = sympy.Add.make_args(diff)
    bound = sympy.Float(10, digits) ** (EXACT_DIGITS // 2 - digits)
    for exact in points:
        try:
            # evaluated at the point, not rebuilt there: a rational raised to a rational
            # power built exactly factors its integers (minutes for TV^{\gamma-1} against
            # PV^\gamma, red team r35b)
            total = sympy.Abs(diff.evalf(digits, subs=exact))
            scale = max(sympy.Abs(t.evalf(digits, subs=exact)) for t in terms)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
            continue
        if total.is_Number and scale.is_Number and bool(total > bound * scale):
            return False
    return True


def _exponential_magnitude(expr: Any, points: list[dict[Any, Any]]) -> int:
    """The largest number of decimal orders of a power with a symbol in its exponent
    (``e^{-500h}``: 651 at h = 3), of a power with a large numeric exponent (``x^{200}``) or
    of a hyperbolic function's distance from its limit (``\\tanh(100\\theta)``) at ``points``.
    No number is written there, yet the term is as tiny as ``10^{-651}``: ``\\sqrt{2h/g}(1 +
    e^{-500h})`` passed as ``\\sqrt{2h/g}``."""
    worst = 0.0
    powers = [
        node
        for node in sympy.preorder_traversal(expr)
        if (
            isinstance(node, sympy.exp)
            or (node.is_Pow and (node.exp.free_symbols or _large_exponent(node.exp)))
        )
        and node.free_symbols
    ]
    # a hyperbolic function of a large argument differs from its limit by e^{-2|x|}
    # (\\tanh(100\\theta) is 1 to 87 digits at theta = 1)
    saturating = [
        node.args[0]
        for node in sympy.preorder_traversal(expr)
        if isinstance(node, _HYPERBOLIC) and node.free_symbols
    ]
    # the size of each power is read in floats: a rational point raised to a rational power
    # (``V^{\\gamma}`` at exact sample points) made sympy look for an exact root of integers
    # of hundreds of digits, for minutes (red team r27: ``pV^\\gamma = p_0V_0^\\gamma = …``)
    floats = [{s: sympy.Float(v, 20) for s, v in point.items()} for point in points]
    for node in powers:
        for point in floats:
            try:
                value = abs(node.xreplace(point).evalf(15))
                if value.is_Number and value != 0:
                    worst = max(worst, abs(float(sympy.log(value, 10).evalf(15))))
            except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
                continue
    for argument in saturating:
        for point in points:
            try:
                size = abs(argument.xreplace(point).evalf(15))
                if size.is_Number:
                    worst = max(worst, 2 * float(size) / math.log(10))
            except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
                continue
    return int(min(worst, MAX_PROOF_DIGITS)) + 1 if powers or saturating else 0


_HYPERBOLIC = (sympy.tanh, sympy.coth, sympy.sech, sympy.csch, sympy.sinh, sympy.cosh)
_LARGE_EXPONENT = 20  # x^{200} is 10^{-105} at x = 0.3: as tiny as a term written so


def _large_exponent(exponent: Any) -> bool:
    """Whether a power's exponent is a number so large that the power, at the sample points
    (0.3 to 3), is a term as tiny or as large as a written 10^{-100}: ``(v_0/10)^{200}``."""
    return bool(exponent.is_Number and abs(exponent) >= _LARGE_EXPONENT)


def _written_magnitude(expr: Any) -> int:
    """The largest number of decimal orders (either way) of a closed number in ``expr``."""
    worst = 0.0
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Rational):  # (10^{300} - 1)/10^{300} needs 300 digits
            worst = max(worst, math.log10(max(abs(node.p), node.q)))
            continue
        if not (node.is_number and (node.is_Atom or node.is_Pow or isinstance(node, sympy.exp))):
            continue
        try:
            value = abs(complex(sympy.N(node, 15)))
        except (TypeError, ValueError, OverflowError):
            continue
        if value not in (0.0, float("inf")):
            worst = max(worst, abs(math.log10(value)))
        elif value == float("inf"):
            return MAX_PROOF_DIGITS
    return int(worst) + 1


def _plain_rational(expr: Any) -> bool:
    """A rational function of symbols with rational coefficients (pi and e count as symbols):
    ``cancel`` decides whether it is zero. Roots and functions can hide identities from it
    (``\\sqrt{3+2\\sqrt2} = 1+\\sqrt2``)."""
    if expr.atoms(sympy.Function) or has_float(expr):
        return False
    return all(power.exp.is_Integer for power in expr.atoms(sympy.Pow))


def new_symbols(pred: Any, gold: Any) -> set[Any]:
    """Symbols of ``pred`` the gold does not have (compared by name)."""
    names = {canonical_name(s) for s in gold.free_symbols}
    return {s for s in pred.free_symbols if canonical_name(s) not in names}


def free_of(expr: Any, symbols: set[Any], seed: str) -> bool:
    """Whether ``expr`` does not depend on ``symbols``: each derivative is exactly zero. A
    term in a symbol the gold lacks is never absorbed by a tolerance (``f(1 + 0.002\\xi)``
    is within 1% of ``f`` at the sample points), however small its coefficient."""
    if sympy.count_ops(expr) > PROOF_OPS_LIMIT:
        return False  # too large to show: the new symbol is not shown to cancel
    try:
        for symbol in symbols:
            derivative = sympy.diff(expr, symbol)
            if derivative == 0:
                continue
            if has_float(derivative) or not exactly_zero(derivative, seed):
                return False
    except Exception:  # sympy's own failures prove nothing
        return False
    return True


def constant_ratio(a: Any, b: Any, seed: str) -> bool:
    """Confirm that ``a / b``, equal at the sample points to 40 digits, is constant: its
    values at two points agree to 60 digits more than any number written in it (``F = ma +
    10^{-50}`` is no multiple of ``F = ma``)."""
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    points = [
        {s: sympy.Rational(v) for s, v in point.items()}
        for point in sample_points(symbols, seed + "\x00ratio", count=4)
    ]
    written = _written_magnitude(a) + _written_magnitude(b)
    produced = _exponential_magnitude(a, points) + _exponential_magnitude(b, points)
    digits = EXACT_DIGITS + max(written, produced)
    if digits > MAX_PROOF_DIGITS:
        return False
    values = []
    for exact in points:
        # the points as floats of more digits than are compared: exact rational powers with
        # rational exponents (``V^{\\gamma}``) made sympy search exact roots for minutes
        point = {s: sympy.Float(v, digits + 10) for s, v in exact.items()}
        try:
            va, vb = a.xreplace(point).evalf(digits), b.xreplace(point).evalf(digits)
            if not (va.is_Number and vb.is_Number) or vb == 0:
                continue
            values.append(va / vb)
        except Exception:  # undefined here: another point decides
            continue
        if len(values) == 2:
            bound = sympy.Float(10, digits) ** (EXACT_DIGITS // 2 - digits)
            return bool(sympy.Abs(values[0] - values[1]) <= bound * sympy.Abs(values[0]))
    return False


def numerically_equal(a: Any, b: Any, tolerance: Any, seed: str) -> bool | None:
    """Equal at every sampled point, relative to the values' size (no absolute floor: values
    of 10^{-45} are as much compared as values of 1); None when fewer than two points
    evaluate. With a decimal tolerance, every part must agree too (``parts_agree``), unless
    the two are one expression with its decimals rounded (``rounded_alike``)."""
    if tolerance > EXACT_TOLERANCE and rounded_alike(a, b, tolerance):
        return True
    wholes = agree_at_points(a, b, tolerance, seed)
    if wholes is not True:
        return wholes
    return tolerance <= EXACT_TOLERANCE or parts_agree(a, b, tolerance, seed)


def agree_at_points(a: Any, b: Any, tolerance: Any, seed: str) -> bool | None:
    """``a`` and ``b`` as wholes within ``tolerance`` of their size at every sampled point
    where both evaluate; None when fewer than two do."""
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    agreed = 0
    for point in sample_points(symbols, seed):
        va, vb = evaluate(a, point), evaluate(b, point)
        if va is None or vb is None:
            continue
        scale = max(abs(va), abs(vb))
        if abs(va - vb) > tolerance * scale:
            return False
        agreed += 1
    return None if agreed < 2 else True


# Above this many terms after distributing products, parts are grouped as written.
_MAX_EXPANDED_TERMS = 200


def _expanded_terms(expr: Any, log: bool = False) -> tuple[Any, ...]:
    """``expr``'s additive terms with products distributed and small integer powers of sums
    multiplied out (``x(1 + 10^{-45}y)`` has two terms, ``0.6(v + 340)^2`` three), so that
    each power of a symbol is compared with its counterpart; as written when that would give
    more than ``_MAX_EXPANDED_TERMS``. ``log`` also splits logarithms of products (``10\\log_{10}
    (I/10^{-12})`` into ``10\\log_{10} I + 120``)."""

    terms: tuple[Any, ...] = tuple(sympy.Add.make_args(expr))
    if sum(expansion_size(term) for term in terms) > _MAX_EXPANDED_TERMS:
        return terms
    try:
        expanded = sympy.expand(expr, power_exp=False, power_base=False, log=log, multinomial=True)
    except Exception:  # sympy's own failure: the terms as written
        return terms
    return tuple(sympy.Add.make_args(expanded))


def _group_terms(parts: list[tuple[Any, Value]]) -> dict[Any, list[Value]]:
    """The terms of ``sum(factor * part)`` by their non-numeric factor: ``-1.8e10 y`` and
    ``9e9 y`` are both terms in ``y``, with coefficients -1.8e10 and 9e9 (times the factor)."""
    groups: dict[Any, list[Value]] = {}
    for part, factor in parts:
        # term by term as written: -4.9(t - 2.041)^2 + 20.41 keeps a constant group of size
        # 20.4, not the -0.002 left once its two constants are added
        pieces = [p for t in sympy.Add.make_args(part) for p in _expanded_terms(t)]
        for term in pieces:
            coefficient, key = _numeric_factor(term)
            value = evaluate(coefficient, {})
            if value is None:
                value, key = _mp.mpc(1), term
            groups.setdefault(key, []).append(value * factor)
    return groups


def _numeric_factor(term: Any) -> tuple[Any, Any]:
    """``term`` as (its factors without symbols, the rest): ``p_0V_0\\ln 2`` is a term in
    ``p_0V_0`` with coefficient ``\\ln 2``, as ``0.6931p_0V_0`` is, and ``\\sqrt{10gh/7}``
    one in ``\\sqrt{g}\\sqrt{h}``. Why: with only the rational factor split off
    (``as_coeff_Mul``) a gold whose coefficient is irrational shared no group with its
    decimal approximation, so every group was unmatched and a stray term (``0.6931p_0V_0 +
    10^{-30}``) only had to cancel against the whole."""
    if not term.free_symbols:
        return term, sympy.Integer(1)
    if not term.is_Mul:
        return sympy.Integer(1), term
    number, rest = term.as_independent(*term.free_symbols, as_Add=False)
    return number, rest


def _unmatched_cancel(
    groups: dict[Any, list[Value]], point: dict[Any, Any], tolerance: Any
) -> bool | None:
    """Whether the grouped terms that do not cancel within their own group cancel among
    themselves, relative to the largest of them rather than to the whole expression.

    A group whose terms agree within the tolerance of its own size is matched. The others
    (a term only one side has, an identity written differently: ``\\log_{10}(I/10^{-12})``
    and ``\\log_{10} I + 12``, ``(v + 340)^2`` and its expansion) must cancel at their own
    scale: ``x + 3\\times10^{-45}y`` against ``x + 6.6\\times10^{-45}y`` leaves the ``y``
    group alone, and so does ``T = 293 + 1.5t`` against ``T = 293 + 1.0t`` the ``t`` group,
    though both vanish against the whole. None where a group does not evaluate."""
    residual, largest = _mp.mpc(0), _mp.mpf(0)
    for key, coefficients in groups.items():
        at = evaluate(key, point)
        if at is None:
            return None
        values = [c * at for c in coefficients]
        group_residual = sum(values, _mp.mpc(0))
        size = max(abs(v) for v in values)
        if abs(group_residual) > tolerance * size:
            residual += group_residual
            largest = max(largest, size)
    return bool(abs(residual) <= tolerance * largest)


def _term_scale(terms: tuple[Any, ...], point: dict[Any, Any]) -> Value | None:
    """The largest of ``terms`` (``_expanded_terms`` of an expression) at ``point``."""
    sizes = []
    for term in terms:
        size = evaluate(term, point)
        if size is None:
            return None
        sizes.append(abs(size))
    return max(sizes, default=_mp.mpf(0))


def close_in_structure(a: Any, b: Any, tolerance: Any) -> bool:
    """The same expression tree, every decimal within ``tolerance`` of its counterpart and
    every exact number equal: a constant rounded where it is written (``e^{-455t}`` for
    ``e^{-t/2.2\\times10^{-3}}``, ``e^{-E/0.026}`` for ``e^{-E/0.0259}``). Sampling cannot
    judge these: at points of order one the exponential is far below or above the rest, so
    there any rate passed, or none."""
    if isinstance(a, sympy.Float) or isinstance(b, sympy.Float):
        if not (a.is_Number and b.is_Number):
            return False
        big = max(abs(a), abs(b))
        return bool(big == 0 or abs(a - b) <= tolerance * big)
    if a.is_Atom or b.is_Atom:
        return bool(a == b)
    if a.func != b.func or len(a.args) != len(b.args):
        return False
    return all(close_in_structure(x, y, tolerance) for x, y in zip(a.args, b.args, strict=True))


def rounded_alike(a: Any, b: Any, tolerance: Any) -> bool:
    """``close_in_structure`` as written or with products distributed (``12 - 12e^{-455t}``
    for ``12.0(1 - e^{-t/2.2\\times10^{-3}})``)."""
    if not (has_float(a) or has_float(b)):
        return False
    if close_in_structure(a, b, tolerance):
        return True
    try:
        return close_in_structure(sympy.expand_mul(a), sympy.expand_mul(b), tolerance)
    except Exception:  # sympy's own failure proves nothing
        return False


def parts_agree(a: Any, b: Any, tolerance: Any, seed: str, factor: Value = 1) -> bool:
    """With a decimal tolerance, ``a`` and ``factor * b``, equal as wholes at the sample points,
    also agree part by part; without this a number far smaller or larger than the rest of an
    expression is only compared to within the tolerance of the whole.

    Two checks at two points: the terms that do not match within their own group cancel at
    their own scale (``_unmatched_cancel``), and the partial derivative in every symbol
    agrees relative to the size of its terms, which reaches numbers inside functions and
    denominators (``\\frac{x}{1 + 3\\times10^{-25}y}``, ``\\sin(x + 3\\times10^{-25}y)``).
    ``F = 1.8\\times10^{10}\\,q_1q_2/r^2`` is no multiple of
    ``F = 9\\times10^{9}\\,q_1q_2/r^2``: the ratio of the sides is 2 to ten digits, yet in
    ``F`` the two differ by a factor 2. Then, at all the points, the wholes agree and every
    term or factor the comparison cannot see there has its counterpart in the gold
    (``_stray_parts``: ``\\sqrt{xy + 3\\times10^{-45}y}`` is no ``\\sqrt{xy}``). Exact
    expressions are confirmed by ``exactly_zero`` and ``constant_ratio`` instead."""
    factor = _mp.mpc(factor)
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    groups = _group_terms([(a, _mp.mpc(1)), (b, -factor)])
    try:
        # each derivative with its terms, expanded once for all the points
        slopes = [
            (da, _expanded_terms(da), db, _expanded_terms(db))
            for da, db in ((sympy.diff(a, s), sympy.diff(b, s)) for s in symbols)
        ]
    except Exception:  # sympy cannot differentiate it: the groups decide alone
        slopes = []
    checked, compared = 0, []
    for point in sample_points(symbols, seed + "\x00parts"):
        if checked < 2:
            decided = _parts_agree_at(a, b, groups, slopes, point, tolerance, factor)
            if decided is False:
                return False
            checked += decided is True
        if not _wholes_agree(a, b, point, tolerance, factor):
            return False
        compared.append(point)
    return not _stray_parts(a, b, tolerance, compared, factor)


def _parts_agree_at(
    a: Any,
    b: Any,
    groups: dict[Any, list[Value]],
    slopes: list[tuple[Any, ...]],
    point: dict[Any, Any],
    tolerance: Any,
    factor: Value,
) -> bool | None:
    """``parts_agree``'s two checks at one point: the unmatched term groups cancel, and every
    partial derivative agrees relative to its terms; None where the groups do not evaluate."""
    unmatched = _unmatched_cancel(groups, point, tolerance)
    if unmatched is not True:
        return unmatched
    for da, terms_a, db, terms_b in slopes:
        sa, sb = evaluate(da, point), evaluate(db, point)
        scale_a, scale_b = _term_scale(terms_a, point), _term_scale(terms_b, point)
        if sa is None or sb is None or scale_a is None or scale_b is None:
            continue
        if abs(sa - factor * sb) > tolerance * max(scale_a, abs(factor) * scale_b):
            return False
    return True


def _wholes_agree(a: Any, b: Any, point: dict[Any, Any], tolerance: Any, factor: Value) -> bool:
    """``a`` and ``factor * b`` agree at ``point`` within the tolerance of their size: the
    points where terms are looked for one by one (``_stray_parts``) are compared as wholes too,
    so that a term seen there is also checked there."""
    va, vb = evaluate(a, point), evaluate(b, point)
    if va is None or vb is None:
        return True  # undefined here: the sampled comparison decides
    return bool(abs(va - factor * vb) <= tolerance * max(abs(va), abs(factor * vb)))


# Above this many parts (terms of sums, factors of products), a prediction's unseen parts are
# not looked for one by one: such a prediction with decimals is not shown to agree.
_MAX_PARTS = 80


def _parts(expr: Any) -> list[tuple[Any, Any]] | None:
    """Every (term, its sum) and (factor with a symbol, its product) anywhere in ``expr``
    (under roots, in denominators, in function arguments), once each; None above
    ``_MAX_PARTS``. A number is a coefficient, compared as such, and no factor here."""
    pairs: dict[tuple[Any, Any], None] = {}
    for node in sympy.preorder_traversal(expr):
        if node.is_Add:
            pairs.update(dict.fromkeys((term, node) for term in node.args))
        elif node.is_Mul:
            pairs.update(dict.fromkeys((f, node) for f in node.args if f.free_symbols))
        if len(pairs) > _MAX_PARTS:
            return None
    return list(pairs)


# A part of a prediction: (the part, the sum or product holding it, the top-level piece
# holding that, which is the part itself for a top-level term).
_Placed = tuple[Any, Any, Any]


def _placed_parts(expr: Any) -> list[_Placed] | None:
    """The parts of ``expr`` at every depth: its written terms with products distributed, each
    kept apart (in ``-4.9(t - 2.041)^2 + 20.41`` the constants -20.4114 and 20.41, not their
    sum -0.0014, which no gold holds), then the parts inside them; None above
    ``_MAX_PARTS``."""
    pieces = [p for t in sympy.Add.make_args(expr) for p in _expanded_terms(t)]
    whole = sympy.Add(*pieces, evaluate=False)  # a sum, even where the pieces are a product's
    placed: list[_Placed] = [(piece, whole, piece) for piece in pieces] if len(pieces) > 1 else []
    for piece in pieces:
        inner = _parts(piece)
        if inner is None or len(placed) + len(inner) > _MAX_PARTS:
            return None
        placed += [(part, node, piece) for part, node in inner]
    return placed


def _gold_parts(gold: Any) -> list[tuple[Any, Any]]:
    """Every (part, its sum or product) of the gold as written, with products distributed and
    with logarithms split too (``10\\log_{10}(I/10^{-12})`` holds ``120``), and the gold
    itself."""
    found: dict[tuple[Any, Any], None] = {(gold, gold): None}
    forms = (gold, sympy.Add(*_expanded_terms(gold)), sympy.Add(*_expanded_terms(gold, log=True)))
    for form in forms:
        found.update(dict.fromkeys(_parts(form) or []))
    return list(found)


def _stray_parts(
    a: Any, b: Any, tolerance: Any, points: list[dict[Any, Any]], factor: Value
) -> bool:
    """Whether the prediction ``a`` holds a term or a factor, at any depth, that the sampled
    comparison cannot see and that ``factor * b`` (the gold) does not hold.

    Why: with decimals the whole is compared to within the tolerance (1%), so a part whose
    removal changes ``a`` by less than that is never checked by value: ``\\sqrt{1.4286gh +
    10^{-30}}``, ``\\frac{1.0}{x + 10^{-9}}`` or ``0.6931p_0V_0\\,e^{10^{-9}V_0}`` passed for
    ``\\sqrt{10gh/7}``, ``1/x`` and ``p_0V_0\\ln 2`` however wrong the part. Such a part is
    kept only where the gold has its counterpart (``_counterpart``); where parts are too many
    to go through, the prediction is not shown to agree."""
    placed = _placed_parts(a)
    if placed is None:
        return True
    if not placed:
        return False
    wholes = [evaluate(a, point) for point in points]
    gold_parts = _gold_parts(b)
    return any(
        _unseen(part, node, piece, points, wholes, tolerance)
        # the equations' factor scales the top-level terms only
        and not _counterpart(
            part, node, gold_parts, points, tolerance, factor if part is piece else 1
        )
        for part, node, piece in placed
    )


def _unseen(
    part: Any,
    node: Any,
    piece: Any,
    points: list[dict[Any, Any]],
    wholes: list[Value | None],
    tolerance: Any,
) -> bool:
    """Whether leaving ``part`` out of its sum or product ``node`` (within the top-level
    ``piece``) changes the prediction by no more than twice the tolerance of its value
    (``wholes``) at every one of ``points``: the comparison of the wholes there
    (``_wholes_agree``) cannot tell that part's value (twice: a stray term may offset the
    rounding of the rest). A part seen at one point is checked by value there."""
    if part is piece:
        without = sympy.Integer(0)
    else:
        rest = node.func(*(arg for arg in node.args if arg != part))
        try:
            without = piece.xreplace({node: rest})
        except Exception:  # sympy's own failure: the part is not shown to be seen
            return True
    for point, whole in zip(points, wholes, strict=True):
        full, other = evaluate(piece, point), evaluate(without, point)
        if whole is None or full is None or other is None:
            continue
        if abs(full - other) > 2 * tolerance * abs(whole):
            return False
    return True


def _counterpart(
    part: Any,
    node: Any,
    gold_parts: list[tuple[Any, Any]],
    points: list[dict[Any, Any]],
    tolerance: Any,
    factor: Value,
) -> bool:
    """Whether a gold part matches ``part`` (of the sum or product ``node``): the same
    expression with its decimals rounded (a rate in an exponent, which no value within 1%
    shows), or alike at every one of ``points`` (``_alike``). A number held by a sum is a
    counterpart of terms only: a stray factor near 1 (``e^{10^{-9}m}``) is no counterpart of
    the gold's term 1 in ``(1 + \\mu)``, while a symbol is one whether it is a term or a
    factor (``x`` of ``x - 9\\times10^9y`` in ``2x``)."""
    for gold_part, gold_node in gold_parts:
        if not (gold_part.free_symbols or gold_node.is_Add == node.is_Add):
            continue
        if close_in_structure(part, gold_part, tolerance):
            return True
        if all(_alike(part, node, gold_part, gold_node, p, tolerance, factor) for p in points):
            return True
    return False


def _alike(
    part: Any,
    node: Any,
    gold_part: Any,
    gold_node: Any,
    point: dict[Any, Any],
    tolerance: Any,
    factor: Value,
) -> bool:
    """``part`` and ``gold_part`` have the same value at ``point``; a term of a sum may also
    match a gold term times the equations' ``factor``, or one with the same share of its sum
    (``\\frac{1000}{1000x + 1}`` for ``\\frac{1}{x + 10^{-3}}``)."""
    t, u = evaluate(part, point), evaluate(gold_part, point)
    if t is None or u is None:
        return False
    bound = tolerance * abs(t)
    if abs(t - u) <= bound:
        return True
    if not (node.is_Add and gold_node.is_Add):
        return False
    if abs(t - factor * u) <= bound:
        return True
    n, m = evaluate(node, point), evaluate(gold_node, point)
    if n is None or m is None or n == 0 or m == 0:
        return False
    return bool(abs(t / n - u / m) <= tolerance * abs(t / n))


def closed_forms_equal(pred: Any, gold: Any, tolerance: float) -> bool | None:
    """Two expressions without symbols. Exact ones (no decimals) must be equal: 3^{200}+1 is
    not 9^{100}, however small the relative difference; with a decimal, the tolerance."""
    exact = not (has_float(pred) or has_float(gold))
    if pred.is_Rational and gold.is_Rational and exact:
        return bool(pred == gold)
    va, vb = evaluate(pred, {}), evaluate(gold, {})
    if va is None or vb is None:
        return None
    if vb == 0:
        # a zero gold is matched by zero only (as in NV): 1.6e-19 or sqrt(2) 10^-12 is no 0
        if abs(va) > EXACT_TOLERANCE:
            return False
        return not exact or exactly_zero(pred, "")
    bound = EXACT_TOLERANCE if exact else _mp.mpf(tolerance) * (1 + 1e-9)
    if exact and (pred.has(sympy.Sum) or gold.has(sympy.Sum)):
        bound = SERIES_TOLERANCE  # a series is summed numerically: not to 40 digits
    if not abs(va - vb) <= bound * abs(vb):
        return False
    if exact and bound == EXACT_TOLERANCE:  # 40 digits: now exactly (\\sqrt2 + 10^{-45})
        return exactly_zero(pred - gold, "")
    return True


def vanishes(expr: Any, tolerance: Any, seed: str, signed: bool = False) -> bool | None:
    """``expr`` is zero at every sampled point, relative to the size of its terms."""
    symbols = sorted(expr.free_symbols, key=lambda s: s.name)
    terms = sympy.Add.make_args(expr)
    agreed = 0
    for point in sample_points(symbols, seed, signed=signed):
        total = evaluate(expr, point)
        sizes = [evaluate(t, point) for t in terms]
        if total is None or any(s is None for s in sizes):
            continue
        scale = max(abs(s) for s in sizes if s is not None)
        if abs(total) > tolerance * scale:
            return False
        agreed += 1
    return True if agreed >= 2 else None
