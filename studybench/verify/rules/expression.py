"""EX: a symbolic or closed-form expression against the gold's.

Also holds the parsing helpers the equation judger (:mod:`studybench.verify.rules.equation`)
builds on: sides are parsed together (the last text is the gold) and every free symbol is
re-declared positive, as physical magnitudes are.
"""

from __future__ import annotations

import re
from typing import Any

from studybench.verify.asked import asked_question
from studybench.verify.chains import (
    chain,
    definition_conflict,
    gold_chain,
    judge_chain,
    value_sides,
)
from studybench.verify.constant_values import LEAST_TOLERANCE, substitute_constants
from studybench.verify.normalize import ELL, question_math, split_top_level
from studybench.verify.parsing import (
    SPREAD,
    UnparseableError,
    coarsest_precision,
    exact_gold_tolerance,
    fast_readable,
    has_decimal,
    parse_expressions,
)
from studybench.verify.question import single_asked_name, symbols_of
from studybench.verify.relations import is_label, name_operator_products, operator_order_differs
from studybench.verify.rules.outcome import Outcome, accept, reject, side_failure
from studybench.verify.symbolic import (
    EXACT_TOLERANCE,
    agree_at_points,
    canonical_name,
    checked_closed_forms,
    closed_forms_equal,
    evaluate,
    exactly_zero,
    free_of,
    has_non_analytic,
    new_symbols,
    numerically_equal,
    proven_zero,
    relative_tolerance,
    sample_points,
    substitute_definitions,
)


def positive_symbols(*exprs: Any) -> list[Any]:
    """Re-declare every free symbol as positive (physical magnitudes), consistently."""
    import sympy

    names = sorted({s.name for e in exprs for s in e.free_symbols})
    mapping = {name: sympy.Symbol(name, positive=True) for name in names}
    out = []
    for expr in exprs:
        out.append(expr.xreplace({s: mapping[s.name] for s in expr.free_symbols}))
    return out


def _varies(expr: Any, seed: str) -> bool:
    """Whether ``expr`` takes clearly different values at two sample points: then it is no
    constant, let alone zero (``simplify`` took 0.1-0.3 s to find that out)."""
    values = [
        evaluate(expr, point)
        for point in sample_points(sorted(expr.free_symbols, key=str), seed, 3)
    ]
    known = [v for v in values if v is not None]
    if len(known) < 2:
        return False
    scale = max(abs(v) for v in known)
    spread = max(abs(v - known[0]) for v in known)
    return bool(spread > 1e-6 * scale and spread > 1e-20)  # an exact identity leaves ~1e-60


def _symbolic_zero(diff: Any) -> bool:
    import sympy

    if sympy.count_ops(diff) > 250:
        return False
    try:
        return bool(sympy.simplify(diff) == 0)
    except Exception:
        return False


def parse_compared(*texts: str) -> tuple[Any, ...]:
    """Parse texts compared with each other (the last one is the gold) as expressions."""
    import sympy

    for side, text in enumerate(texts):
        # a list (``a, b``) is never one expression; the slow parser took 0.3-1.5 s to read
        # it as a set, which is then refused anyway (``1,000`` is read by the fast parser)
        if len(split_top_level(text, ",")) > 1 and not fast_readable(text):
            raise UnparseableError("not_an_expression", side)
    parsed = parse_expressions(*texts)
    for side, expr in enumerate(parsed):
        if not isinstance(expr, sympy.Expr):
            raise UnparseableError("not_an_expression", side)
    return parsed


def judge_ex(pred: str, gold: str, tolerance: float) -> Outcome:
    """Every stated form of the prediction against the gold's forms (see
    :mod:`studybench.verify.chains`: a chain ``A = B = C`` is right only when every side
    that states an expression equals the gold; a side naming the asked quantity is a label).
    Symbols the answer defines after its value (``v_0e^{-t/\\tau}, \\tau = RC``) are read
    as defined (:func:`split_definitions`)."""
    pred, definitions = split_definitions(pred)
    if definitions:
        problem = definition_problem(pred, definitions, gold)
        if problem is not None:
            return reject(problem)

    def compare(side: str, form: str) -> tuple[bool, str]:
        outcome = judge_ex_form(side, form, tolerance, definitions)
        return outcome.correct, outcome.reason

    values = value_sides(pred, gold_chain(gold).label)
    last = values[-1][1] if values else chain(pred)[-1]  # the last value, not a label after it

    def uncheckable(side: str, form: str, reason: str) -> bool:
        return _ex_uncheckable(side, form, reason) or (side != last and _working(side, form))

    correct, reason = judge_chain(pred, gold, compare, uncheckable, single_asked_name())
    return Outcome(correct, reason)


def _working(side: str, form: str) -> bool:
    """A side before the last in a symbol that neither the gold nor the question writes (``I
    = \\frac{\\mathcal E}{R} = \\frac{BLv}{R}``, ``W = nRT_0\\ln 2 = p_0V_0\\ln 2``): a
    step of the working in a quantity the answer brought in, which the verifier cannot
    relate to the gold. The last side is always checked, and so is a step in the gold's and
    the question's symbols only (``F = ma + mg\\sin\\theta = ma`` is a hedge, issue 32)."""
    question = asked_question(folded=False)
    if not question:
        return False
    known = _quantities(question_math(question)) | set(_PROSE_LETTER.findall(question.casefold()))
    return bool(_quantities(side) - _quantities(form) - known)


# a letter standing alone in the question's prose names a quantity too ("the emf E")
_PROSE_LETTER = re.compile(r"(?<![A-Za-z\\])[a-z](?![A-Za-z])")


# what does not name a new quantity: text (``\\text{(approx.)}``), a subscript (``m_{\\rm
# block}`` is the question's m), words in brackets
_NOT_A_QUANTITY = re.compile(
    r"\\(?:text|mathrm|textrm|rm|mbox|operatorname)\s*\{[^{}]*\}|_\s*(?:\{[^{}]*\}|\\[A-Za-z]+|\w)"
    r"|\([A-Za-z.\s]*\)"
)
# spellings of one letter: a variant glyph, or a Greek letter a model writes for the Latin one
_SAME_LETTER = {"\\epsilon": "\\varepsilon", "\\vartheta": "\\theta", "\\varphi": "\\phi",
                "\\kappa": "k"}  # fmt: skip


def _quantities(text: str) -> set[str]:
    """The letters ``text`` writes as quantities, read loosely so that a quantity is new only
    when no spelling of it is written elsewhere: subscripts and text dropped, variant glyphs
    one letter, case ignored (``M`` may be the question's ``m``)."""
    letters = symbols_of(ELL.sub("l", _NOT_A_QUANTITY.sub(" ", text)))
    return {_SAME_LETTER.get(letter, letter).casefold() for letter in letters}


Definitions = tuple[tuple[str, str], ...]
_LIST_SEPARATORS = (",", ";")
_DEFINITION_LEAD = re.compile(r"^(?:where|with|and|in\s+which)\s+", re.IGNORECASE)
MAX_DEFINITIONS = 4
# the words that open a definition after the value: "A\\cos(\\omega t) where \\omega = …"
_DEFINITION_WORD = re.compile(
    r"(?:\s*,)?\s+(?:where|with|in\s+which)\s+(?=\\?[A-Za-z])", re.IGNORECASE
)
# a definition in brackets after the value: "\\frac{V_0}{R}e^{-t/\\tau} (\\tau = RC)"
_BRACKETED_DEFINITION = re.compile(
    r"^(?P<value>.*\S)\s*\(\s*(?P<name>[^()=,]+?)\s*=\s*(?P<body>(?:[^()]|\([^()]*\))+?)\s*\)\s*$",
    re.DOTALL,
)


def _definition_in_brackets(text: str) -> str:
    """A last bracket that defines a plain symbol (``(\\tau = RC)``) as a listed definition
    (``, \\tau = RC``); any other bracket is left to the value."""
    match = _BRACKETED_DEFINITION.match(text)
    if match is None or not is_label(match.group("name")):
        return text
    return f"{match.group('value')}, {match.group('name')} = {match.group('body')}"


def split_definitions(text: str) -> tuple[str, Definitions]:
    """``v(t) = v_0e^{-t/\\tau},\\ \\tau = \\frac{mR}{B^2L^2}``: the value, then the
    definitions of symbols it uses, as (symbol, expression) pairs; ``(text, ())`` when the
    parts after the first are not all definitions of one plain symbol each.

    Why: a model names a combination (a time constant, a frequency) and defines it beside the
    value. A defined symbol is no free symbol: the value means the definition substituted, and
    that is what is compared with the gold, so a wrong definition is a wrong value. Read as
    one expression, the list was not even parsed (and took the slow parser 1-2 s to refuse)."""
    parts = [_definition_in_brackets(_DEFINITION_WORD.sub(", ", text))]
    for separator in _LIST_SEPARATORS:
        parts = [piece.strip() for part in parts for piece in split_top_level(part, separator)]
    if len(parts) < 2 or len(parts) > MAX_DEFINITIONS + 1 or not parts[0]:
        return text, ()
    definitions = []
    for part in parts[1:]:
        sides = chain(_DEFINITION_LEAD.sub("", part))
        if len(sides) != 2 or "(" in sides[0] or not is_label(sides[0]):
            return text, ()
        definitions.append((sides[0], sides[1]))
    return parts[0], tuple(definitions)


def definition_problem(value: str, definitions: Definitions, gold: str) -> str | None:
    """Why definitions cannot be read as such, or None. A definition of a symbol the gold
    itself uses (the question's given ``\\tau``) claims something about a given quantity
    that the verifier cannot check (``unchecked_definition``); one that no side of the value
    uses is a second answer, not a definition (``unused_definition``); one in terms of its
    own symbol (``\\tau = 2\\tau``) defines nothing. First, what no definition may do at all
    (:func:`~studybench.verify.chains.definition_conflict`): redefine the answer's label or
    the gold's, define one symbol twice, or define a symbol through the label."""
    conflict = definition_conflict(value, definitions, gold_chain(gold).label)
    if conflict is not None:
        return conflict
    texts = [*chain(value), *(name for name, _ in definitions), *(e for _, e in definitions)]
    try:
        parsed = parse_compared(*texts, *chain(gold))
    except UnparseableError:
        return None  # left to the comparison, which names the side it cannot read
    count = len(chain(value))
    names = parsed[count : count + len(definitions)]
    bodies = parsed[count + len(definitions) : count + 2 * len(definitions)]
    gold_names = {
        canonical_name(s) for e in parsed[count + 2 * len(definitions) :] for s in e.free_symbols
    }
    used = {canonical_name(s) for e in parsed[:count] for s in e.free_symbols}
    for name, body in zip(names, bodies, strict=True):
        if not name.is_Symbol:
            return "unparseable:definition"
        key = canonical_name(name)
        if key in gold_names:
            return "unchecked_definition"
        if key not in used and not any(
            key in {canonical_name(s) for s in b.free_symbols} for b in bodies
        ):
            return "unused_definition"
        if key in {canonical_name(s) for s in body.free_symbols}:
            return "unparseable:definition"
    return None


def _substitute(expr: Any, names: tuple[Any, ...], bodies: tuple[Any, ...]) -> Any:
    """``expr`` with each defined symbol replaced by its definition (nested ones too)."""
    by_name = {canonical_name(name): body for name, body in zip(names, bodies, strict=True)}
    for _ in range(len(by_name)):
        mapping = {
            s: by_name[canonical_name(s)] for s in expr.free_symbols if canonical_name(s) in by_name
        }
        if not mapping:
            break
        expr = expr.xreplace(mapping)
    return expr


def parse_defined(
    texts: tuple[str, ...], definitions: Definitions, gold_count: int
) -> tuple[Any, ...]:
    """Parse ``texts`` (the last ``gold_count`` are the gold's) together with the definitions,
    and substitute the definitions into the prediction's texts."""
    if not definitions:
        return parse_compared(*texts)
    names = tuple(name for name, _ in definitions)
    bodies = tuple(body for _, body in definitions)
    own = len(texts) - gold_count
    try:
        parsed = parse_compared(*texts[:own], *names, *bodies, *texts[own:])
    except UnparseableError as exc:
        side = exc.side
        if side is None or side < own:
            raise
        if side < own + 2 * len(names):
            raise UnparseableError("definition", 0) from None
        raise UnparseableError(exc.reason, side - 2 * len(names)) from None
    defined_names = parsed[own : own + len(names)]
    defined_bodies = parsed[own + len(names) : own + 2 * len(names)]
    pred = tuple(_substitute(e, defined_names, defined_bodies) for e in parsed[:own])
    return (*pred, *parsed[own + 2 * len(names) :])


# A number as written: digits and a power of ten, then perhaps a unit (``9.0\times10^{16}\,
# \mathrm J``, ``9.8\,\text{m/s}^2``, ``3 kg m/s``, ``30^{\circ}``: the spelling of the unit
# does not matter once normalised).
_MANTISSA = re.compile(r"^\s*[+-]?\s*(\d+(?:\.\d*)?|\.\d+)")
_WRITTEN_NUMBER = re.compile(
    r"^\s*[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)"
    r"(?:\s*(?:\\times|\\cdot)\s*10\s*\^\s*(?:\{\s*[+-]?\d+\s*\}|\d))?"
)
_UNIT_WRAPPER = re.compile(
    r"\\(?:mathrm|text|textrm|rm|mbox)\s*\{([^{}]*)\}|\\(?:mathrm|rm)(?![A-Za-z])"
)
_UNIT_SPACING = re.compile(r"\\[,;:! ]|~")
_UNIT_SYMBOL = re.compile(r"\\[A-Za-z]+|[A-Za-z]")
# Units a number is written with (pint's names, any SI prefix): never a physical constant
# (``3mc^2`` is no "3 milli-speed-of-light squared", ``3c`` no three speeds of light).
_COMMON_UNITS = frozenset(
    {
        "meter", "second", "gram", "ampere", "kelvin", "mole", "candela", "newton", "joule",
        "watt", "pascal", "hertz", "coulomb", "volt", "ohm", "farad", "tesla", "henry",
        "weber", "siemens", "electron_volt", "liter", "minute", "hour", "day", "year",
        "radian", "degree", "steradian", "standard_atmosphere", "bar", "gauss_SI",
        "angstrom", "AU", "light_year", "parsec", "degree_Celsius", "degree_Fahrenheit",
        "calorie", "dalton", "unified_atomic_mass_unit", "becquerel", "gray", "sievert",
        "turn", "revolutions_per_minute", "torr", "watt_hour", "barn", "lumen", "lux",
    }
)  # fmt: skip


def _plain_unit(text: str) -> bool:
    """Whether ``text`` is a unit made only of common units (see :data:`_COMMON_UNITS`)."""
    from studybench.verify.units import parse_unit, registry

    unit = parse_unit(text)
    if unit is None:
        return False
    ureg = registry()
    for name in unit._units:
        readings = ureg.parse_unit_name(name)
        if not readings or not all(base in _COMMON_UNITS for _, base, _ in readings):
            return False
    return True


def written_number(side: str, form_names: set[str]) -> bool:
    """Whether ``side`` is a number written as one, with perhaps a unit, beside a gold form
    whose symbols are ``form_names``.

    A unit spelled only with the gold's own symbols is read as those symbols: ``2 L`` beside
    the gold ``L`` is twice it (else ``x = L = 2L`` would hedge), and ``2m`` beside ``m``
    twice the mass. Any other common unit (``9 J`` beside ``mc^2``, ``9.8 m/s^2`` beside
    ``g``) cannot be read as the gold's expression, so it is the data plugged in."""
    match = _WRITTEN_NUMBER.match(side)
    if match is None:
        return False
    rest = _UNIT_WRAPPER.sub(lambda m: " " + (m.group(1) or "") + " ", side[match.end() :])
    rest = _UNIT_SPACING.sub(" ", rest).strip()
    if not rest:
        return True
    if not _plain_unit(rest):
        return False
    symbols = {symbol.lstrip("\\") for symbol in _UNIT_SYMBOL.findall(rest)}
    return not symbols <= form_names


def _ex_uncheckable(side: str, form: str, reason: str) -> bool:
    """Only a number *written as a number* (with any unit, see :func:`written_number`) beside
    a symbolic gold form (``E = mc^2 = 9.0\\times10^{16}\\,\\mathrm J``, ``T = 2\\pi\\sqrt{l/g}
    = 2.0``: the problem's data plugged in, which the verifier does not hold) cannot
    contradict it. It is no candidate for a symbolic answer, so skipping it lets no chain
    hedge.

    Every other side is checked (issue 32): a side in a symbol the gold lacks (``F = ma = 2ma
    + Y``, ``E = \\tfrac12 mv^2 = p^2/2m``), a symbolic step beside a closed gold (``v =
    \\sqrt{2gh}`` for ``\\sqrt 2``), an expression that evaluates to a number (``G = (G)^0``)
    and a side beside a gold form the parser cannot read all claim an equality with the gold
    that the verifier cannot show. Skipping them as "derivation steps" let a chain hedge
    between candidates (``F = ma + mg\\sin\\theta = ma`` was accepted for ``ma``)."""
    written = _WRITTEN_NUMBER.match(side)
    if reason.startswith(("gold_unparseable", "unparseable")) or written is None:
        return False
    mantissa = _MANTISSA.match(side)
    if mantissa is not None and float(mantissa.group(1)) == 0:
        return False  # "= 0" is no data plugged in: it claims the form vanishes; checked
    try:
        (form_e,) = parse_compared(form)
    except UnparseableError:
        return False
    names = {canonical_name(symbol) for symbol in form_e.free_symbols}
    return bool(names) and written_number(side, names)


def judge_ex_form(pred: str, gold: str, tolerance: float, definitions: Definitions = ()) -> Outcome:
    if pred.replace(" ", "") == gold.replace(" ", ""):
        return accept("equal")
    if operator_order_differs(pred, gold):
        return reject("operator_order")  # \hat p\hat x for \hat x\hat p: they need not commute
    pred, gold = name_operator_products((pred, gold))
    try:
        pred_e, gold_e = parse_defined((pred, gold), definitions, 1)
    except UnparseableError as exc:
        return side_failure(exc, {1})
    seed = pred + "\x00" + gold
    outcome = _compare_expressions(pred_e, gold_e, tolerance, seed=seed)
    if not outcome.correct and not definitions:
        return with_constant_values(pred, pred_e, gold_e, tolerance, seed) or outcome
    if outcome.correct and has_decimal(pred) and not has_decimal(gold):
        # an exact gold: the decimals agree to the digits they write (the whole, at the
        # sample points), not only to the tolerance meant for rounded golds
        written = exact_gold_tolerance(pred, gold, tolerance)
        pred_p, gold_p = positive_symbols(pred_e, gold_e)
        if written < tolerance and agree_at_points(pred_p, gold_p, written, seed) is False:
            return reject("wrong_value")
        if rounds_gold(pred, gold_e, definitions, seed) is False:
            return reject("wrong_value")
    return outcome


_DECIMAL_POWER = re.compile(r"\^\s*\{?\s*[-+]?\s*\d*\.\d")


def with_constant_values(
    pred: str, pred_e: Any, gold_e: Any, tolerance: float, seed: str
) -> Outcome | None:
    """Accept ``pred`` where it is the gold with the values of its constants written in
    (:mod:`studybench.verify.constant_values`): ``\\frac{1.99\\times10^{-25}}{\\lambda}`` for
    ``\\frac{hc}{\\lambda}``, at a tolerance no looser than the digits ``pred`` writes. None:
    it does not apply, or the values disagree (the rejection stands as it was)."""
    if not re.search(r"\d", pred) or _DECIMAL_POWER.search(pred):
        return None  # a decimal power (\lambda^{1.001}) is no constant written as its value
    readings = substitute_constants(pred_e, gold_e, asked_question(folded=False))
    if readings is None:
        return None
    tolerance = min(tolerance, max(SPREAD * coarsest_precision(pred), LEAST_TOLERANCE))
    valued, misvalued = readings.valued, readings.misvalued
    if not _compare_expressions(pred_e, valued, tolerance, seed=seed).correct:
        return None
    scalings = [
        {symbol: symbol * factor}
        for factor in _SCALES
        for symbol in sorted(pred_e.free_symbols, key=str)
    ]
    loose = max(3 * tolerance, _SCALED_TOLERANCE)
    for scaling in scalings:  # a limit of the gold agrees only near the sampled scale
        answer = pred_e.xreplace(scaling)
        if _agree(answer, valued.xreplace(scaling), loose, seed) is False and (
            _agree(answer, readings.rounded.xreplace(scaling), loose, seed) is False
        ):  # (the constants as answers round them move an exponential's argument)
            return None
    for other in misvalued:  # a constant whose misvalued reading matches everywhere is unchecked
        if _agree(pred_e, other, tolerance, seed) is not False and all(
            _agree(pred_e.xreplace(scaling), other.xreplace(scaling), tolerance, seed) is not False
            for scaling in scalings
        ):
            return None
    return accept("constant_values")


def _agree(pred_e: Any, gold_e: Any, tolerance: float, seed: str) -> bool | None:
    """Whether two expressions agree as wholes at the sampled points (None: too few points
    evaluate): the cheap comparison, for the many readings of a constant's check."""
    pred_p, gold_p = positive_symbols(pred_e, gold_e)
    return agree_at_points(pred_p, gold_p, relative_tolerance(pred_p, gold_p, tolerance), seed)


# Two questions make a match of constants written as values mean something. Does it depend on
# each value put in? The gold is read with each constant at 1.5 times its value
# (``constant_values.MISVALUED``); a constant whose misvalued reading matches too at every
# scale below was never checked (``\\frac{36}{5R_\\infty}`` against its correction for the
# nucleus's motion, ``1 + m_e/m_p``). Does it hold away from the sampled scale? The answer's
# symbols are sampled near 1 (v = 1 m/s, f = 1 Hz), where a classical formula is the limit of
# the relativistic or quantum one whose constants it writes as values (``\\frac12 mv^2`` for
# ``mc^2(\\gamma - 1)``, ``3.00\\times10^{8}f/(3.00\\times10^{8} - v)`` for the relativistic
# Doppler shift, Rayleigh-Jeans for Planck); so each symbol is also scaled by each factor
# below, alone, and the answer must agree there too (an undecided scale, an overflow, says
# nothing). Red team r22a.
_SCALES = (1e8, 1e12, 1e-8, 1e-12, 1e4, 1e-4)  # the scales of c and of h/k_B first
# far from the sampled scale a limit is off by far more than a rounded constant moves the
# answer (3.00e8 for c, 9.81 for a given 9.8): only such a difference counts there
_SCALED_TOLERANCE = 0.03


# a decimal as written: its digits after the point say how far it may be from what it rounds
# ("1.0", "2.00": a whole number written with a point, read as exact, so padding an answer
# with factors of 1.0 widens nothing)
_DECIMAL = re.compile(r"(?<![\d.])(\d*)\.(\d*[1-9]\d*)(?![\d.])")
_MOST_CORNERS = 3  # up to 2^3 readings at the corners; more decimals: one at a time
_MOST_DECIMALS = 8


def rounds_gold(pred: str, gold_e: Any, definitions: Definitions, seed: str) -> bool | None:
    """Whether the decimals of ``pred`` are roundings of the numbers that make it the exact
    gold: each decimal stands for any number within half a unit of its last digit, and the
    gold must lie between the least and the greatest value ``pred`` takes over those at
    every sampled point. Up to three decimals, the readings at the corners bound it (the
    ranges are so narrow that ``pred`` is monotone across them); beyond, each decimal is
    moved alone and the effects are added (to first order the same bound). ``6.49\\,p_0V_0``
    is no rounding of ``\\frac{13}{2}p_0V_0`` (6.50 is), nor ``\\frac{2d}{3} + 0.005d`` of
    ``\\frac{2d}{3}``, nor ``2^{-1.66}`` of ``2^{-5/3}``; ``0.667d`` and ``1.41\\sqrt{gh}``
    (for ``\\sqrt{2gh}``) are. Measuring each decimal's own precision let a small added term
    or a digit off by one through. None: undecided (no decimal, too many, a reading no
    parser reads, too few points evaluate)."""
    import itertools

    decimals = list(_DECIMAL.finditer(pred))
    if not decimals or len(decimals) > _MOST_DECIMALS:
        return None
    if len(decimals) <= _MOST_CORNERS:
        shifts = list(itertools.product((-1, 1), repeat=len(decimals)))
    else:  # the answer as written, then each decimal moved alone either way
        shifts = [(0,) * len(decimals)] + [
            tuple(sign if i == j else 0 for j in range(len(decimals)))
            for i in range(len(decimals))
            for sign in (-1, 1)
        ]
    readings = []
    for signs in shifts:
        try:
            (reading,) = parse_defined((_shifted(pred, decimals, signs),), definitions, 0)
        except UnparseableError:
            return None
        readings.append(reading)
    *readings, gold_p = positive_symbols(*readings, gold_e)
    symbols = sorted(set().union(*(r.free_symbols for r in (*readings, gold_p))), key=str)
    checked = 0
    for point in sample_points(symbols, seed):
        target = evaluate(gold_p, point)
        values = [v for r in readings if (v := evaluate(r, point)) is not None and not v.imag]
        if target is None or target.imag or len(values) < len(readings):
            continue  # undefined or complex there: no rounding to compare
        if len(decimals) <= _MOST_CORNERS:
            low, high = min(v.real for v in values), max(v.real for v in values)
        else:
            base = values[0].real
            spread = sum(
                max(abs(values[1 + 2 * i].real - base), abs(values[2 + 2 * i].real - base))
                for i in range(len(decimals))
            )
            low, high = base - spread, base + spread
        slack = 1e-12 * max(abs(low), abs(high), abs(target.real))
        if not low - slack <= target.real <= high + slack:
            return False
        checked += 1
    return None if checked < 2 else True


def _shifted(pred: str, decimals: list[re.Match[str]], signs: tuple[int, ...]) -> str:
    """``pred`` with each decimal moved by half a unit of its last digit the way ``signs``
    says (0: as written)."""
    text = pred
    for match, sign in sorted(zip(decimals, signs, strict=True), key=lambda m: -m[0].start()):
        if sign == 0:
            continue
        half = f"0.{'0' * len(match.group(2))}5"
        whole = match.group(1) or "0"
        shifted = f"({whole}.{match.group(2)} {'+' if sign > 0 else '-'} {half})"
        text = text[: match.start()] + shifted + text[match.end() :]
    return text


def _compare_expressions(pred_e: Any, gold_e: Any, tolerance: float, seed: str) -> Outcome:
    import sympy

    if pred_e == gold_e:
        return accept("structural")
    shapes = [
        getattr(e, "shape", None) if getattr(e, "is_Matrix", False) else None
        for e in (pred_e, gold_e)
    ]
    if shapes[0] != shapes[1]:
        return reject("wrong_shape")  # a matrix against a scalar, or of another size: sympy
        # raised on their difference (TypeError "Mix of Matrix and Scalar symbols")
    pred_e, gold_e = substitute_definitions(pred_e, gold_e)
    pred_e, gold_e = checked_closed_forms(pred_e), checked_closed_forms(gold_e)
    if pred_e.has(sympy.Sum, sympy.Product) or gold_e.has(sympy.Sum, sympy.Product):
        # a sum with parameters and no checked closed form (sympy cannot evaluate it
        # reliably), an infinite product, a sum of numbers that neither has a checked closed
        # form nor is short enough to add up: each has no value (``unbounded_series_in``),
        # and simplify would evaluate it unchecked and without a time bound
        return accept("structural") if pred_e == gold_e else reject("inconclusive")
    if any(
        len(limit) == 3
        for integral in pred_e.atoms(sympy.Integral) | gold_e.atoms(sympy.Integral)
        for limit in integral.limits
    ):
        # a definite integral whose closed form quadrature did not confirm (a pole inside,
        # \\int_{-b}^{b} dx/x^2, or an unknown integrand): simplify would evaluate it unchecked
        return accept("structural") if pred_e == gold_e else reject("inconclusive")
    extra = new_symbols(pred_e, gold_e)
    if extra and not free_of(pred_e, extra, seed):
        return reject("wrong_value")  # a term or factor in a symbol the gold does not have
    if not pred_e.free_symbols and not gold_e.free_symbols:
        same = closed_forms_equal(pred_e, gold_e, tolerance)
        if same is None:
            return reject("unparseable:not_a_number")
        return accept("numeric") if same else reject("wrong_value")
    pred_p, gold_p = positive_symbols(pred_e, gold_e)
    if not pred_e.free_symbols or not gold_e.free_symbols:
        # symbols on one side only: equal just when they cancel exactly (sin^2 + cos^2 against
        # 1); sampling would also take a leftover small term (1 + 10^-4 x) for the constant
        if _varies(pred_p - gold_p, seed):  # not a constant: no simplify needed to say so
            return reject("wrong_value")
        return accept("symbolic") if _symbolic_zero(pred_p - gold_p) else reject("wrong_value")
    if pred_p == gold_p:
        return accept("structural")
    if has_non_analytic(pred_p, gold_p):
        # floor, min, |x|, cases: a few sample points say nothing; only a proof does
        return accept("symbolic") if proven_zero(pred_p - gold_p) else reject("wrong_value")
    rel = relative_tolerance(pred_p, gold_p, tolerance)
    numeric = numerically_equal(pred_p, gold_p, rel, seed)
    if numeric is True:
        if rel <= EXACT_TOLERANCE and not exactly_zero(pred_p - gold_p, seed):
            return reject("wrong_value")  # equal to 40 digits, not exactly (a tiny term)
        return accept("symbolic_numeric")
    if numeric is False:
        return reject("wrong_value")
    return accept("symbolic") if _symbolic_zero(pred_p - gold_p) else reject("inconclusive")
