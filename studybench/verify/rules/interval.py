"""IN: intervals, unions of intervals and inequalities, compared as sets.

A bound is a number (with its unit, see :mod:`studybench.verify.rules.numeric_value`) or an
expression (:mod:`studybench.verify.rules.expression`); the intervals of a union are matched
one to one in any order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from studybench.verify.asking import asking_part, asking_sentences
from studybench.verify.chains import label_key, quantity_key, same_label, underlying_name
from studybench.verify.normalize import NAME, last_side, question_math, split_top_level
from studybench.verify.parsing import has_decimal, written_precision
from studybench.verify.question import (
    WRITTEN_NAME,
    asked_names,
    asked_nouns,
    given_names,
    math_names,
    named_nouns,
)
from studybench.verify.relations import is_label, split_top
from studybench.verify.rules.expression import judge_ex
from studybench.verify.rules.matching import assignment
from studybench.verify.rules.numeric_value import judge_nv_form
from studybench.verify.rules.outcome import Outcome, accept, reject

_CUP = re.compile(r"\\cup(?![a-zA-Z])|\s+U\s+|\\vee(?![a-zA-Z])")
# an approximate bound (\\lesssim, ≲) is a closed one: the ends are the values given
_RELATION = re.compile(
    r"(\\lesssim|\\gtrsim|\\lessapprox|\\gtrapprox"
    r"|\\leqslant|\\geqslant|\\leqq|\\geqq|\\leq|\\geq|\\le|\\ge|\\lt|\\gt)(?![a-zA-Z])"
    r"|(<=|>=|\u2a7d|\u2a7e|\u2264|\u2265|\u2272|\u2273|<|>)"  # ⩽ ⩾ ≤ ≥ ≲ ≳
)
_LESS = ("<", "<=", "\u2a7d", "\u2264", "\u2272")
_STRICT = ("<", ">", r"\lt", r"\gt")
_MEMBER = re.compile(r"^(?P<variable>.+?)\s*(?:\\in(?![a-zA-Z])|\u2208)\s*(?P<set>.+)$")
_SET_BUILDER = re.compile(r"^\\\{(?P<body>.*)\\\}$")
_AND = re.compile(r"\s+and\s+|\\(?:land|wedge)(?![a-zA-Z])|,|;")
# "x \le -1 or x \ge 1": a top-level "or" between the sets of one quantity (their union)
_SPACING = r"(?:\s|\\[ ,;:!>]|\\q?quad(?![a-zA-Z]))"
_OR = re.compile(
    rf"{_SPACING}*(?:\\(?:text|textrm|textnormal|mathrm|mbox)\s*\{{{_SPACING}*[oO][rR]{_SPACING}*\}}"
    rf"|\\(?:lor|vee)(?![a-zA-Z])){_SPACING}*"
    rf"|{_SPACING}+[oO][rR]{_SPACING}+"
)
_OR_WORD = re.compile(r"(?<![A-Za-z\\])[oO][rR](?![A-Za-z])")  # "or", not \lor
_INF = {r"\infty", r"+\infty", "infty", "+infty", "inf", "+inf", "oo", "+oo", "\u221e", "+\u221e"}
_NEG_INF = {r"-\infty", "-infty", "-inf", "-oo", "-\u221e"}  # U+221E: ∞


@dataclass(frozen=True, slots=True)
class _Interval:
    low: str
    high: str
    low_closed: bool
    high_closed: bool
    variable: str | None = None  # the quantity an inequality bounds (``x`` of ``x < 3``)


def _bound(text: str) -> str:
    compact = text.replace(" ", "")
    if compact in _INF:
        return "+inf"
    if compact in _NEG_INF:
        return "-inf"
    return text.strip()


def _split_relations(text: str) -> tuple[list[str], list[str]]:
    """The sides of ``a < x \\le b`` and its relations, at the top level."""
    values: list[str] = []
    ops: list[str] = []
    depth = start = i = 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        match = _RELATION.match(text, i) if depth == 0 else None
        if match is not None:
            values.append(text[start:i])
            ops.append(match.group(0))
            start = i = match.end()
            continue
        i += 2 if char == "\\" and i + 1 < len(text) and not text[i + 1].isalpha() else 1
    values.append(text[start:])
    return values, ops


def _is_number(text: str) -> bool:
    from studybench.verify.parsing import UnparseableError, parse_quantity

    if _bound(text) in ("+inf", "-inf"):
        return True
    try:
        parse_quantity(text)
    except (UnparseableError, RecursionError):
        return False
    return True


def _variable_side(left: str, right: str, hint: str | None) -> bool:
    """Whether the left side of ``left < right`` is the bounded quantity.

    The side that names a quantity (``\\omega``, ``v_{\\max}``) is the variable, the other the
    bound; of two names, the one the gold bounds (``hint``), else the left; of two
    expressions, the one that is not a number (``x^2 < 3``: the variable is ``x^2``)."""
    left_label, right_label = is_label(left), is_label(right)
    if left_label != right_label:
        return left_label
    if left_label and hint is not None and same_label(right, hint) and not same_label(left, hint):
        return False
    return left_label or not _is_number(left) or _is_number(right)


def _from_inequality(text: str, hint: str | None = None) -> list[_Interval] | None:
    values, ops = _split_relations(text)
    if len(values) not in (2, 3):
        return None
    values = [v.strip() for v in values]
    if not all(values):
        return None
    strict = [op in _STRICT for op in ops]
    less = [op in _LESS or op.startswith((r"\le", r"\lt")) for op in ops]
    if len(set(less)) != 1:
        return None
    if len(values) == 3:
        low, variable, high = values
        if not less[0]:
            low, high = high, low
            strict = strict[::-1]
        return [_Interval(_bound(low), _bound(high), not strict[0], not strict[1], variable)]
    left, right = values
    variable_left = _variable_side(left, right, hint)
    variable, bound = (left, right) if variable_left else (right, left)
    upper = less[0] == variable_left  # "x < b" or "b > x": b is an upper bound
    if upper:
        return [_Interval("-inf", _bound(bound), False, not strict[0], variable)]
    return [_Interval(_bound(bound), "+inf", not strict[0], False, variable)]


def _conjunction(text: str, hint: str | None) -> list[_Interval] | None:
    """``\\theta \\ge a \\text{ and } \\theta \\le b``: two one-sided bounds of one quantity,
    one lower and one upper, are the interval between them."""
    parts = [p.strip() for p in split_top(text, _AND) if p.strip()]
    if len(parts) != 2:
        return None
    read = [_from_inequality(p, hint) for p in parts]
    if any(r is None or len(r) != 1 for r in read):
        return None
    first, second = (r[0] for r in read if r is not None)
    if first.variable is None or second.variable is None:
        return None
    if not same_label(first.variable, second.variable) and first.variable != second.variable:
        return None
    lower = [i for i in (first, second) if i.high == "+inf" and i.low != "-inf"]
    upper = [i for i in (first, second) if i.low == "-inf" and i.high != "+inf"]
    if len(lower) != 1 or len(upper) != 1:
        return None
    low, high = lower[0], upper[0]
    return [_Interval(low.low, high.high, low.low_closed, high.high_closed, first.variable)]


def _bracketed(part: str) -> _Interval | None:
    """``[a, b)``, and the ISO forms ``]a, b]``, ``[a, b[`` (a bracket turned outwards is open)."""
    if len(part) < 2 or part[0] not in "([]" or part[-1] not in ")][":
        return None
    bounds = split_top_level(part[1:-1], ",")
    if len(bounds) == 1:  # "(30; 45)": a semicolon where a decimal comma keeps the comma free
        bounds = split_top_level(part[1:-1], ";")
    if len(bounds) != 2:
        return None
    low, high = (_bound(b) for b in bounds)
    return _Interval(low, high, part[0] == "[", part[-1] == "]")


_TRAILING_UNIT = re.compile(r"^(?P<body>[(\[\]].*[)\]\[])\s*(?P<unit>[^()\[\],=<>]+)$", re.DOTALL)


def _with_unit(body: str, unit: str) -> list[_Interval] | None:
    """The intervals of ``body`` with ``unit`` after every finite bound, when ``unit`` is one
    (``(0, 20)\\ \\text{cm}``, ``[20.4, 69.6]^{\\circ}``) or the name of a quantity the
    bounds are multiples of (``[2, 4]\\,T_0``); None otherwise."""
    from studybench.verify.units import parse_unit

    if parse_unit(unit.strip()) is None and not is_label(unit.strip()):
        return None
    intervals = parse_intervals(body)
    if not intervals:
        return None

    def bound(value: str) -> str:
        return value if value in ("+inf", "-inf") else f"{value} {unit.strip()}"

    return [
        _Interval(bound(i.low), bound(i.high), i.low_closed, i.high_closed, i.variable)
        for i in intervals
    ]


# an interval in words, its ends' kind stated: "between 30 and 45 cm (exclusive)", "from
# 20.4° to 69.6° inclusive"; without "inclusive"/"exclusive" the ends are not known
_WORDED = re.compile(
    r"^(?:between|from)\s+(?P<low>\S.*?)\s+(?:and|to)\s+(?P<high>\S.*?)\s*,?\s*\(?\s*"
    r"(?P<kind>inclusive|exclusive)\s*\)?\s*\.?$",
    re.IGNORECASE,
)
_PLAIN_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)$")
_NUMBER_AND_UNIT = re.compile(r"^(?P<number>[-+]?(?:\d+\.?\d*|\.\d+))\s+(?P<unit>[^\d\s].*)$")


def _worded(text: str) -> str | None:
    """``between 30 and 45 cm (exclusive)`` -> ``(30, 45) cm``; None for no worded interval."""
    match = _WORDED.match(text)
    if match is None:
        return None
    low, high = match.group("low").strip(), match.group("high").strip()
    opening, closing = ("[", "]") if match.group("kind").lower() == "inclusive" else ("(", ")")
    united = _NUMBER_AND_UNIT.match(high)
    if united is not None and _PLAIN_NUMBER.match(low):  # the unit once, after the high end
        return f"{opening}{low}, {united.group('number')}{closing} {united.group('unit')}"
    return f"{opening}{low}, {high}{closing}"


def parse_intervals(text: str, hint: str | None = None) -> list[_Interval] | None:
    """The intervals ``text`` states; ``hint``: the gold's variable, which decides which side of
    ``x < L`` is the variable when both are names."""
    text = text.strip()
    text = _worded(text) or text
    if text.replace(" ", "") in (r"\mathbb{R}", "mathbb{R}", r"\mathbbR", "R"):
        return [_Interval("-inf", "+inf", False, False)]
    builder = _SET_BUILDER.match(text)
    if builder is not None:  # \{\theta : a \le \theta \le b\}: the condition
        body = builder.group("body")
        condition = split_top(body, re.compile(r":|\\mid(?![a-zA-Z])|\|"))
        element = condition[0].split("\\in")[0].strip() if len(condition) > 1 else ""
        if element and not is_label(element):
            return None  # \{x^2 : x < 3\} is a set of squares, not of x
        text = condition[-1].strip()
    absolute = _ABSOLUTE.match(text)
    if absolute is not None:
        return _absolute(absolute)
    parts = [p.strip() for p in split_top(text, _OR)]
    if len(parts) > 1:
        either = _union(parts, hint)
        # "(0, 1) \vee (2, 3)", "x \in (0, 1) \vee (2, 3)": \vee as \cup, read below
        if either is not None or _OR_WORD.search(text) or any(map(_RELATION.search, parts)):
            return either
    member = _MEMBER.match(text)
    if member is not None:  # \theta \in [a, b]
        intervals = parse_intervals(member.group("set"))
        variable = member.group("variable").strip()
        if not intervals or any(i.variable is not None for i in intervals):
            return None
        return [_Interval(i.low, i.high, i.low_closed, i.high_closed, variable) for i in intervals]
    if _RELATION.search(text) and not text.startswith(("(", "[", "]")):
        joined = _conjunction(text, hint)
        if joined is not None:
            return joined
        return _from_inequality(last_side(text) if "=" in text else text, hint)
    united = _TRAILING_UNIT.match(text)
    if united is not None:  # (0, 20)\ \text{cm}: the unit of both bounds
        return _with_unit(united.group("body"), united.group("unit"))
    intervals = []
    for part in _CUP.split(text):
        interval = _bracketed(part.strip())
        if interval is None:
            return None
        intervals.append(interval)
    return intervals


# |x| > 1, |x| \le 2: a bound on a magnitude, by a plain positive number
_ABSOLUTE = re.compile(
    r"^(?:\\left\s*)?(?:\||\\lvert|\\vert)\s*(?P<variable>[^|<>]+?)\s*"
    r"(?:\\right\s*)?(?:\||\\rvert|\\vert)\s*(?P<relation>" + _RELATION.pattern + r")\s*"
    r"(?P<bound>\d+(?:\.\d*)?|\.\d+)\s*$"
)


def _absolute(match: re.Match[str]) -> list[_Interval] | None:
    """``|x| > 1`` as (-∞, -1) ∪ (1, ∞), ``|x| \\le 2`` as [-2, 2]: the same set of x."""
    variable, bound = match.group("variable").strip(), match.group("bound")
    if not is_label(variable) or float(bound) <= 0:
        return None
    relation = match.group("relation").strip()
    closed = relation not in _STRICT
    if relation in _LESS or relation in (r"\le", r"\leq", r"\leqslant", r"\leqq", r"\lt"):
        return [_Interval(f"-{bound}", bound, closed, closed, variable)]
    if relation in (">", ">=", "\u2a7e", "\u2265", r"\ge", r"\geq", r"\geqslant", r"\geqq", r"\gt"):
        return [
            _Interval("-inf", f"-{bound}", False, closed, variable),
            _Interval(bound, "+inf", closed, False, variable),
        ]
    return None  # \lesssim and its kin: no exact set


def _union(parts: list[str], hint: str | None) -> list[_Interval] | None:
    """``x \\le -1 \\text{ or } x \\ge 1``: conditions on one quantity, the whole their union,
    matched against the gold's intervals one to one like a ``\\cup``. Every part must bound
    the same quantity (an inequality, ``x \\in [1, \\infty)``): ``x \\le -1 or y \\ge 1`` is no
    set of one variable; ``(0, 1) or (2, 3)`` names none and may be a choice between two
    sets, not their union; a part that is no set (``x = 0``, an empty one) is unreadable."""
    intervals: list[_Interval] = []
    for part in parts:
        read = parse_intervals(part, hint) if part else None
        if not read or any(i.variable is None for i in read):
            return None
        intervals.extend(read)
    first = intervals[0].variable or ""
    if not all(_same_quantity(i.variable or "", first) for i in intervals):
        return None
    return intervals


def _same_quantity(first: str, second: str) -> bool:
    """The same bounded quantity, however spaced or labelled (``v_{max}``, ``v_\\max``)."""
    return first.replace(" ", "") == second.replace(" ", "") or same_label(first, second)


def _same_bound(pred: str, gold: str, tolerance: float, requested: tuple[Any, ...]) -> bool:
    if {pred, gold} & {"+inf", "-inf"}:  # _bound spelled every infinity one way
        return pred == gold
    if not has_decimal(gold) and any(c.isdigit() for c in gold):
        # ends in whole numbers are exact (0, 1, a focal length given as 30 cm), no rounded
        # measurements: an end agrees with them to the digits it writes, so (0, 1.01] is
        # not (0, 1]
        tolerance = min(tolerance, written_precision(pred))
    numeric = judge_nv_form(pred, gold, tolerance, requested)  # numbers, with units or degrees
    if numeric.correct or not numeric.reason.startswith(("unparseable", "gold_unparseable")):
        return numeric.correct
    return judge_ex(pred, gold, tolerance).correct


_RATIO = re.compile(
    r"^\\frac\s*\{(?P<num>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*\{(?P<den>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}$"
)


def _names_quantity(text: str) -> bool:
    """A name (``\\theta``, ``v_{\\max}``) or a ratio of two names (``m_1/m_2``): a quantity a
    question may ask the range of. A power or a function of a name (``x^2``) is not."""
    if is_label(text):
        return True
    ratio = _RATIO.match(text.strip())
    parts = [ratio.group("num"), ratio.group("den")] if ratio else text.split("/")
    return len(parts) == 2 and all(is_label(p) for p in parts) and not same_label(*parts)


_WRITTEN_RATIO = re.compile(
    r"\\[dt]?frac\s*\{(?P<num>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*\{(?P<den>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}"
    r"|(?P<a>\\?[A-Za-z]+(?:_\s*(?:\{[^{}]*\}|\w))?)\s*/\s*(?P<b>\\?[A-Za-z]+(?:_\s*(?:\{[^{}]*\}|\w))?)"
)


def _ratios(text: str) -> list[tuple[str, str]]:
    """The ratios of two names written in ``text`` (``m_1/m_2``, ``\\frac{m_1}{m_2}``)."""
    found = []
    for match in _WRITTEN_RATIO.finditer(text):
        num, den = (
            match.group("num", "den") if match.group("num") is not None else match.group("a", "b")
        )
        if is_label(num) and is_label(den):
            found.append((label_key(num), label_key(den)))
    return found


def _other_quantity(variable: str | None, question: str) -> bool:
    """Whether the quantity an interval bounds is another than the one the question asks
    about, where the question's math says so by a ratio: a ratio the question does not write
    (``\\frac{m_2}{m_1}`` where it asks for ``m_1/m_2``, ``u/f`` where it asks for ``u``),
    or one name of the question's ratio alone (``m_1`` for ``m_1/m_2``). A name the question
    writes no ratio of is left alone (``\\theta``, ``\\mu``: the writer's own names)."""
    if variable is None:
        return False
    math = question_math(question)
    asked = _ratios(math)
    # a ratio written whole is one pair (a name holds no top-level "/" nor \frac); a ratio of
    # marked names (\Delta x/\Delta t) is no pair the pattern reads, only its "x/\Delta"
    own = _ratios(variable.strip())
    if own and _WRITTEN_RATIO.fullmatch(variable.strip()):
        return own[0] not in asked
    if is_label(variable):
        name = label_key(variable)
        alone = re.sub(_WRITTEN_RATIO, " ", math)
        named_alone = any(label_key(t) == name for t in NAME.findall(alone))
        return not named_alone and any(name in pair for pair in asked)
    return False


def _key(label: str) -> str:
    """A bounded quantity's name to compare with the names a question writes: ``\\overline
    {T}`` is ``\\bar T``, ``q(t)`` is ``q``."""
    return quantity_key(label).replace("\\overline", "\\bar")


def _keys(math: str) -> set[str]:
    return {_key(name) for name in math_names(math)}


def _derived_variable(variable: str | None, question: str, gold: str) -> bool:
    """Whether the quantity an interval bounds is the change, rate or mean of a name the
    question or the gold writes, where neither writes that change: ``\\Delta T \\in [2T_0,
    4T_0]`` (or ``\\dot T``, ``\\overline{T}``, ``\\delta T``) for "What range of temperatures
    ...?" about a gas at ``$T_0$``; ``\\dot u \\in (0, 20)`` for "For what range of object
    distances $u$". A mark makes another quantity (:func:`~studybench.verify.chains.
    derived_label`), and a name of the same letter (``T_0``) says which letter the question
    gave the quantity. The change a question writes itself (``$\\Delta T$``) is the asked one;
    a mark on a letter the question never writes (``\\Delta E``) is the writer's own name."""
    if variable is None or not is_label(variable):
        return False
    under = underlying_name(variable)
    if under is None:
        return False
    written = math_names(question_math(question)) + math_names(gold)
    if _key(variable) in {_key(name) for name in written}:
        return False
    letters = {(underlying_name(name) or quantity_key(name)).partition("_")[0] for name in written}
    return under.partition("_")[0] in letters


def _point_value(key: str, written: set[str], question: str) -> bool:
    """Whether a name the question does not write is a quantity at a point or state it
    names, away from the asking: ``T_A \\in [2T_0, 4T_0]`` where the question starts the gas
    "in state $A$" and asks the range over step B to C; ``T_A`` is one value there. A point
    the asking sentences write (``v_P`` for "the speeds at $P$") is the asked one's."""
    sub = key.partition("_")[2]
    if len(sub) != 1 or not sub.isupper() or sub not in written:
        return False
    return sub not in _keys(" ".join(map(question_math, asking_sentences(question))))


def _not_asked(variable: str | None, question: str, gold: str) -> bool:
    """Whether a gold without a variable is bounded here in a name the question writes but
    does not ask about: ``f \\in (0, 20)`` (the focal length) where the question asks "For
    what range of object distances $u$"; ``v_0 \\in [20.4^\\circ, 69.6^\\circ]`` where it
    asks "Find the set of launch angles" after "Take $v_0 = 30.0\\,\\mathrm{m/s}$".

    Where an asking sentence writes the asked name (:func:`~studybench.verify.question.
    asked_names`: "For which range of $d$"), only that name is asked: ``f_2`` of "... smaller
    than $f_2$" is a condition. Where it names the quantity in words only, a name the
    question gives a value to (``$g = 9.80$``) is no unknown, nor one written only in its
    setup while the asking part writes another name (``p`` of "the $p$–$V$ diagram", asked
    "During step $B\\to C$ ... What range of temperatures"), unless the setup introduces it
    with the noun asked ("at an angle $\\theta$" for "the set of angles").

    A name the gold's bounds are written in (``T_0 \\in [2T_0, 4T_0]``) is never the bounded
    one, nor the name under an asked change (``T`` where it asks the range of ``$\\Delta
    T$``), nor a quantity at a point away from the asking (:func:`_point_value`). Names the
    question never writes stay the writer's own (``T``, ``\\mu``); a ratio is
    :func:`_other_quantity`'s."""
    if variable is None or not is_label(variable):
        return False
    key = _key(variable)
    if key in _keys(gold):
        return True
    asked = asked_names(question)
    if key in {underlying_name(name) for name in asked}:
        return True  # T for "What range of values can $\\Delta T$ take?"
    written = _keys(question_math(question))
    if key not in written:
        return _point_value(key, written, question)
    if asked:
        return key not in {_key(name) for name in asked if WRITTEN_NAME.fullmatch(name)}
    given = {name.replace("\\overline", "\\bar") for name in given_names(question)}
    if key in given:
        return True
    part = _keys(question_math(asking_part(question)))
    if key in part or not part - given:
        return False
    # the setup's name for the noun asked in words stays: "at an angle $\\theta$" for "Find
    # the set of angles" where the asking part also writes a distance $D$
    return not named_nouns(question, key) & asked_nouns(question)


def _misnamed(variable: str | None, question: str, gold: str) -> bool:
    """The quantity bounded, against a gold that names none, is another than the asked one:
    a change, rate or mean of a name written (:func:`_derived_variable`), or a name written
    and not asked about (:func:`_not_asked`)."""
    return _derived_variable(variable, question, gold) or _not_asked(variable, question, gold)


def _same_variable(pred: str | None, gold: str | None) -> bool:
    """The quantity bounded must be the gold's (``0 < y \\le 2`` is not ``0 < x \\le 2``, nor
    ``0 < x^2 \\le 2``); an interval written as brackets names none. Against a gold that names
    none, the prediction may name any quantity, not a function of one (``x^2``)."""
    if pred is None:
        return True
    if gold is None:
        return _names_quantity(pred)
    return pred.replace(" ", "") == gold.replace(" ", "") or same_label(pred, gold)


def _same_interval(
    pred: _Interval, gold: _Interval, tolerance: float, requested: tuple[Any, ...] = ()
) -> bool:
    low_kind = gold.low == "-inf" or pred.low_closed == gold.low_closed
    high_kind = gold.high == "+inf" or pred.high_closed == gold.high_closed
    return (
        low_kind
        and high_kind
        and _same_variable(pred.variable, gold.variable)
        and _same_bound(pred.low, gold.low, tolerance, requested)
        and _same_bound(pred.high, gold.high, tolerance, requested)
    )


def judge_in(
    pred: str,
    gold: str,
    tolerance: float,
    requested: tuple[Any, ...] = (),
    question: str | None = None,
) -> Outcome:
    """``requested``: the units the question asks for, the unit of a unitless gold's bounds;
    ``question``: its text, whose ratios say which quantity a gold without one bounds
    (:func:`_other_quantity`)."""
    gold_i = parse_intervals(gold)
    if not gold_i:
        return reject("gold_unparseable:interval")
    hint = next((i.variable for i in gold_i if i.variable is not None), None)
    pred_i = parse_intervals(pred, hint)
    if not pred_i:
        return reject("unparseable:interval")
    if len(pred_i) != len(gold_i):
        return reject("wrong_interval")
    if not all(_same_variable(p.variable, hint) for p in pred_i):
        return reject("wrong_variable")
    if hint is None and question and any(_other_quantity(p.variable, question) for p in pred_i):
        return reject("wrong_variable")
    if hint is None and question and any(_misnamed(p.variable, question, gold) for p in pred_i):
        return reject("wrong_variable")
    matched = assignment(pred_i, gold_i, lambda p, g: _same_interval(p, g, tolerance, requested))
    return accept("interval") if matched else reject("wrong_interval")
