"""Numeric values (NV): a number with an optional unit against the gold's.

The rules, in the order a physicist applies them:

* the forms of the box: every side of ``A = B = C`` (a leading label such as ``\\dot M``
  or ``F(t)`` is dropped), and the value of a bound written as the answer
  (``B < 0.866\\,T``); a chain whose numeric sides contradict each other is wrong;
* units: converted with pint, ambiguous symbols read in the gold's dimension (``1.5\\,A``
  for a length is 1.5 angstrom), temperature scales with their offsets, counted things
  (``12 drops``) and magnitudes (``mag``) as plain numbers;
* a gold without a unit: the unit the question asks for (``in days``) is the gold's unit;
  an answer in a unit of another dimension, or in any dimensional unit when the question
  names none, is not accepted (it used to be: ``57 kg`` matched ``57``);
* ``\\pm``: both sides must carry it, then magnitudes are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studybench.verify.chains import Compare, judge_chain
from studybench.verify.normalize import last_side
from studybench.verify.parsing import Quantity, UnparseableError, parse_quantity, split_values
from studybench.verify.relations import bound_value
from studybench.verify.units import (
    convert,
    is_dimensionless,
    to_base_dimensionless,
    unit_readings,
)

ZERO_TOLERANCE = 1e-9
_PLUS_MINUS = (r"\pm", r"\mp", "±", "∓")

Outcome = Any  # studybench.verify.rules.outcome.Outcome (kept import-free to avoid a cycle)
MatchAll = Callable[[list[str], list[str], Callable[[str, str], Any]], Any]


def close(pred: float, gold: float, tolerance: float) -> bool:
    """Relative closeness; a zero gold needs an absolute match within ``ZERO_TOLERANCE``."""
    if gold == 0.0:
        return abs(pred) <= ZERO_TOLERANCE
    return abs(pred - gold) <= tolerance * abs(gold) * (1 + 1e-9)


def _readings(quantity: Quantity) -> tuple[Any, ...]:
    if quantity.unit is None:
        return ()
    others = unit_readings(quantity.unit_text) if quantity.unit_text else ()
    return (quantity.unit, *(u for u in others if u != quantity.unit))


def _convert_any(pred: Quantity, targets: tuple[Any, ...]) -> tuple[float, Any] | None:
    """The prediction in the first target unit one of its readings converts to."""
    for target in targets:
        for unit in _readings(pred):
            converted = convert(pred.value, unit, target)
            if converted is not None:
                return converted, target
    return None


def quantity_candidates(
    pred: Quantity, gold: Quantity, requested: tuple[Any, ...] = ()
) -> tuple[list[float], list[float], str]:
    """Comparable (pred values, gold values) and the reason a match would have."""
    if gold.unit is not None and pred.unit is not None:
        for gold_unit in _readings(gold):  # the gold's value in each reading of its unit
            hit = _convert_any(pred, (gold_unit,))
            if hit is not None:
                return [hit[0]], [gold.value], "unit_converted"
        return [], [], "unit_mismatch"
    if gold.unit is not None:  # bare number: read in the gold's unit
        golds = [gold.value]
        if is_dimensionless(gold.unit):
            plain = to_base_dimensionless(gold.value, gold.unit)
            golds += [plain] if plain is not None else []
        return [pred.value], golds, "numeric"
    if pred.unit is not None:  # the gold carries no unit
        if is_dimensionless(pred.unit):
            preds = [pred.value]
            plain = to_base_dimensionless(pred.value, pred.unit)
            preds += [plain] if plain is not None else []
            return preds, [gold.value], "numeric"
        hit = _convert_any(pred, requested)
        if hit is not None:
            return [hit[0]], [gold.value], "unit_requested"
        return [], [], "unit_mismatch" if requested else "unit_unrequested"
    return [pred.value], [gold.value], "numeric"


def _plus_minus(text: str) -> tuple[bool, str]:
    stripped = text.strip()
    for sign in _PLUS_MINUS:
        if stripped.startswith(sign):
            return True, stripped[len(sign) :].strip()
    return False, stripped


def nv_single(
    pred: str, gold: str, tolerance: float, requested: tuple[Any, ...] = ()
) -> tuple[bool, str]:
    """One value against one value: (correct, reason)."""
    pred_pm, pred = _plus_minus(pred)
    gold_pm, gold = _plus_minus(gold)
    if pred_pm != gold_pm:
        return False, "sign_mismatch"
    try:
        gold_q = parse_quantity(gold)
    except UnparseableError as exc:
        return False, f"gold_unparseable:{exc.reason}"
    try:
        pred_q = parse_quantity(pred)
    except UnparseableError as exc:
        return False, f"unparseable:{exc.reason}"
    if pred_q.value == 0.0 and gold_q.value == 0.0:
        return True, "zero"  # zero is zero in every unit
    preds, golds, reason = quantity_candidates(pred_q, gold_q, requested)
    if not preds:
        return False, reason
    if any(close(p, g, tolerance) for p in preds for g in golds):
        return True, reason
    return False, "wrong_value"


def judge_nv_text(
    pred: str,
    gold: str,
    tolerance: float,
    requested: tuple[Any, ...],
    match_all: MatchAll,
    ok: Callable[[str], Outcome],
    no: Callable[[str], Outcome],
    expression: Compare | None = None,
) -> Outcome:
    """NV on normalised text; ``match_all`` is the one-to-one matcher of value lists."""
    gold_parts = split_values(last_side(gold))
    if len(gold_parts) > 1:
        pred_parts = split_values(last_side(pred))
        if len(pred_parts) != len(gold_parts):
            return no("wrong_count")

        def single(p: str, g: str) -> Outcome:
            correct, reason = nv_single(p, g, tolerance, requested)
            return ok(reason) if correct else no(reason)

        return match_all(pred_parts, gold_parts, single)

    def compare(side: str, form: str) -> tuple[bool, str]:
        correct, reason = nv_single(bound_value(side), bound_value(form), tolerance, requested)
        if not correct and reason.startswith("gold_unparseable") and expression is not None:
            return expression(side, form)  # a symbolic form of the gold: T = 2\pi\sqrt{l/g}
        return correct, reason

    correct, reason = judge_chain(pred, gold, compare, _uncheckable)
    return ok(reason) if correct else no(reason)


def _uncheckable(side: str, form: str, reason: str) -> bool:
    """A symbolic step inside a numeric chain (``F = 2mg = 19.6\\,N``): no number to check."""
    return reason.startswith(("unparseable", "gold_unparseable"))
