"""IN: intervals, unions of intervals and inequalities, compared as sets.

A bound is a number (with its unit, see :mod:`studybench.verify.rules.numeric_value`) or an
expression (:mod:`studybench.verify.rules.expression`); the intervals of a union are matched
one to one in any order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studybench.verify.normalize import last_side, split_top_level
from studybench.verify.rules.expression import judge_ex
from studybench.verify.rules.matching import assignment
from studybench.verify.rules.numeric_value import judge_nv_form
from studybench.verify.rules.outcome import Outcome, accept, reject

_CUP = re.compile(r"\\cup(?![a-zA-Z])|\s+U\s+|\\vee(?![a-zA-Z])")
_RELATION = re.compile(r"(\\leqslant|\\geqslant|\\leq|\\geq|\\le|\\ge|<=|>=|<|>)")
_INF = {r"\infty", r"+\infty", "infty", "+infty", "inf", "+inf", "oo", "+oo", "\u221e", "+\u221e"}
_NEG_INF = {r"-\infty", "-infty", "-inf", "-oo", "-\u221e"}  # U+221E: ∞


@dataclass(frozen=True, slots=True)
class _Interval:
    low: str
    high: str
    low_closed: bool
    high_closed: bool


def _bound(text: str) -> str:
    compact = text.replace(" ", "")
    if compact in _INF:
        return "+inf"
    if compact in _NEG_INF:
        return "-inf"
    return text.strip()


def _from_inequality(text: str) -> list[_Interval] | None:
    pieces = _RELATION.split(text)
    if len(pieces) not in (3, 5):
        return None
    values, ops = pieces[0::2], pieces[1::2]
    strict = [op in ("<", ">") for op in ops]
    less = [op in ("<", "<=") or op.startswith(r"\le") for op in ops]
    if len(set(less)) != 1:
        return None
    if len(values) == 3:
        low, _, high = (v.strip() for v in values)
        if not less[0]:
            low, high = high, low
            strict = strict[::-1]
        return [_Interval(_bound(low), _bound(high), not strict[0], not strict[1])]
    left, right = (v.strip() for v in values)
    variable_left = bool(re.fullmatch(r"[A-Za-z](?:_\{?\w+\}?)?", left))
    bound = right if variable_left else left
    upper = less[0] == variable_left  # "x < b" or "b > x": b is an upper bound
    if upper:
        return [_Interval("-inf", _bound(bound), False, not strict[0])]
    return [_Interval(_bound(bound), "+inf", not strict[0], False)]


def parse_intervals(text: str) -> list[_Interval] | None:
    text = text.strip()
    if text.replace(" ", "") in (r"\mathbb{R}", "mathbb{R}", r"\mathbbR", "R"):
        return [_Interval("-inf", "+inf", False, False)]
    if _RELATION.search(text) and not text.startswith(("(", "[")):
        return _from_inequality(last_side(text) if "=" in text else text)
    intervals = []
    for part in _CUP.split(text):
        part = part.strip()
        if len(part) < 2 or part[0] not in "([" or part[-1] not in ")]":
            return None
        bounds = split_top_level(part[1:-1], ",")
        if len(bounds) != 2:
            return None
        low, high = (_bound(b) for b in bounds)
        intervals.append(_Interval(low, high, part[0] == "[", part[-1] == "]"))
    return intervals


def _same_bound(pred: str, gold: str, tolerance: float) -> bool:
    if {pred, gold} & {"+inf", "-inf"}:  # _bound spelled every infinity one way
        return pred == gold
    numeric = judge_nv_form(pred, gold, tolerance)  # numbers, with units or degrees
    if numeric.correct or not numeric.reason.startswith(("unparseable", "gold_unparseable")):
        return numeric.correct
    return judge_ex(pred, gold, tolerance).correct


def _same_interval(pred: _Interval, gold: _Interval, tolerance: float) -> bool:
    low_kind = gold.low == "-inf" or pred.low_closed == gold.low_closed
    high_kind = gold.high == "+inf" or pred.high_closed == gold.high_closed
    return (
        low_kind
        and high_kind
        and _same_bound(pred.low, gold.low, tolerance)
        and _same_bound(pred.high, gold.high, tolerance)
    )


def judge_in(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_i = parse_intervals(gold)
    if not gold_i:
        return reject("gold_unparseable:interval")
    pred_i = parse_intervals(pred)
    if not pred_i:
        return reject("unparseable:interval")
    if len(pred_i) != len(gold_i):
        return reject("wrong_interval")
    matched = assignment(pred_i, gold_i, lambda p, g: _same_interval(p, g, tolerance))
    return accept("interval") if matched else reject("wrong_interval")
