"""The per-type judgers: does one predicted answer equal one gold answer?

Each judger takes two *normalised* box contents and returns an :class:`Outcome` whose
``reason`` names the rule that decided (``numeric``, ``unit_converted``, ``symbolic``, ...) or
why it failed (``wrong_value``, ``unit_mismatch``, ``unparseable``, ...). The dispatcher
:func:`judge_answers` applies the answer type's selection rules (last box, TUP positions, ALT
candidates) on top. Everything here is pure and runs inside the verifier's worker processes.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studybench.data.answer_types import AnswerType
from studybench.verify.normalize import last_side, normalize_answer, split_top_level
from studybench.verify.parsing import (
    Quantity,
    UnparseableError,
    numeric_value,
    parse_expressions,
    parse_quantity,
    split_values,
)
from studybench.verify.units import convert, is_dimensionless, to_base_dimensionless

ZERO_TOLERANCE = 1e-9
SYMBOLIC_TOLERANCE = 1e-6
RANDOM_POINTS = 5


@dataclass(frozen=True, slots=True)
class Outcome:
    correct: bool
    reason: str


def _ok(reason: str) -> Outcome:
    return Outcome(True, reason)


def _no(reason: str) -> Outcome:
    return Outcome(False, reason)


def close(pred: float, gold: float, tolerance: float) -> bool:
    """Relative closeness; a zero gold needs an absolute match within ``ZERO_TOLERANCE``."""
    if gold == 0.0:
        return abs(pred) <= ZERO_TOLERANCE
    return abs(pred - gold) <= tolerance * abs(gold) * (1 + 1e-9)


# --------------------------------------------------------------------------- NV


def _quantity_candidates(pred: Quantity, gold: Quantity) -> tuple[list[float], list[float], str]:
    """Comparable (pred values, gold values) and the reason a match would have."""
    if gold.unit is not None and pred.unit is not None:
        converted = convert(pred.value, pred.unit, gold.unit)
        if converted is None:
            return [], [], "unit_mismatch"
        return [converted], [gold.value], "unit_converted"
    if gold.unit is not None:  # bare number: read in the gold's unit
        golds = [gold.value]
        if is_dimensionless(gold.unit):
            plain = to_base_dimensionless(gold.value, gold.unit)
            golds += [plain] if plain is not None else []
        return [pred.value], golds, "numeric"
    if pred.unit is not None:  # the gold carries no unit: the number as written
        preds = [pred.value]
        if is_dimensionless(pred.unit):
            plain = to_base_dimensionless(pred.value, pred.unit)
            preds += [plain] if plain is not None else []
        return preds, [gold.value], "numeric"
    return [pred.value], [gold.value], "numeric"


def judge_nv(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_parts = split_values(last_side(gold))
    pred_parts = split_values(last_side(pred))
    if len(gold_parts) > 1:
        if len(pred_parts) != len(gold_parts):
            return _no("wrong_count")
        return _match_all(pred_parts, gold_parts, lambda p, g: _nv_single(p, g, tolerance))
    return _nv_single(last_side(pred), last_side(gold), tolerance)


def _nv_single(pred: str, gold: str, tolerance: float) -> Outcome:
    try:
        gold_q = parse_quantity(gold)
    except UnparseableError as exc:
        return _no(f"gold_unparseable:{exc.reason}")
    try:
        pred_q = parse_quantity(pred)
    except UnparseableError as exc:
        return _no(f"unparseable:{exc.reason}")
    preds, golds, reason = _quantity_candidates(pred_q, gold_q)
    if not preds:
        return _no(reason)
    if any(close(p, g, tolerance) for p in preds for g in golds):
        return _ok(reason)
    return _no("wrong_value")


# --------------------------------------------------------------------------- EX


def _positive_symbols(*exprs: Any) -> list[Any]:
    """Re-declare every free symbol as positive (physical magnitudes), consistently."""
    import sympy

    names = sorted({s.name for e in exprs for s in e.free_symbols})
    mapping = {name: sympy.Symbol(name, positive=True) for name in names}
    out = []
    for expr in exprs:
        out.append(expr.subs({s: mapping[s.name] for s in expr.free_symbols}))
    return out


def _has_float(expr: Any) -> bool:
    import sympy

    return any(isinstance(atom, sympy.Float) for atom in expr.atoms(sympy.Number))


def _random_points(symbols: list[Any], seed_text: str) -> list[dict[Any, float]]:
    rng = random.Random(seed_text)
    return [{s: rng.uniform(1.1, 2.9) for s in symbols} for _ in range(RANDOM_POINTS)]


def _evaluate(expr: Any, point: dict[Any, float]) -> complex | None:
    try:
        value = complex(expr.evalf(20, subs=point))
    except (TypeError, ValueError, OverflowError, ZeroDivisionError, AttributeError):
        return None
    if value != value or abs(value) == float("inf"):
        return None
    return value


def _numerically_equal(a: Any, b: Any, tolerance: float, seed: str) -> bool | None:
    """Compare at random positive points; None when too few points evaluate."""
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    agreed = 0
    for point in _random_points(symbols, seed):
        va, vb = _evaluate(a, point), _evaluate(b, point)
        if va is None or vb is None:
            continue
        scale = max(abs(va), abs(vb))
        if abs(va - vb) > tolerance * scale + 1e-12:
            return False
        agreed += 1
    return True if agreed >= 2 else None


def _symbolic_zero(diff: Any) -> bool:
    import sympy

    if sympy.count_ops(diff) > 250:
        return False
    try:
        return bool(sympy.simplify(diff) == 0)
    except Exception:
        return False


def _parse_compared(*texts: str) -> tuple[Any, ...]:
    """Parse texts compared with each other (the last one is the gold) as expressions."""
    import sympy

    parsed = parse_expressions(*texts)
    for side, expr in enumerate(parsed):
        if not isinstance(expr, sympy.Expr):
            raise UnparseableError("not_an_expression", side)
    return parsed


def _side_failure(exc: UnparseableError, gold_sides: set[int]) -> Outcome:
    prefix = "gold_unparseable" if exc.side in gold_sides else "unparseable"
    return _no(f"{prefix}:{exc.reason}")


def judge_ex(pred: str, gold: str, tolerance: float) -> Outcome:
    pred, gold = last_side(pred), last_side(gold)
    if pred.replace(" ", "") == gold.replace(" ", ""):
        return _ok("equal")
    try:
        pred_e, gold_e = _parse_compared(pred, gold)
    except UnparseableError as exc:
        return _side_failure(exc, {1})
    return _compare_expressions(pred_e, gold_e, tolerance, seed=pred + "\x00" + gold)


def _compare_expressions(pred_e: Any, gold_e: Any, tolerance: float, seed: str) -> Outcome:
    gold_value, pred_value = numeric_value(gold_e), numeric_value(pred_e)
    if gold_value is not None and pred_value is not None:
        if abs(gold_value.imag) < 1e-12 and abs(pred_value.imag) < 1e-12:
            ok = close(pred_value.real, gold_value.real, tolerance)
        else:
            ok = abs(pred_value - gold_value) <= tolerance * abs(gold_value)
        return _ok("numeric") if ok else _no("wrong_value")
    if (gold_value is None) != (pred_value is None):
        return _no("wrong_value")
    if pred_e == gold_e:
        return _ok("structural")
    pred_p, gold_p = _positive_symbols(pred_e, gold_e)
    if pred_p == gold_p:
        return _ok("structural")
    rel = tolerance if (_has_float(pred_p) or _has_float(gold_p)) else SYMBOLIC_TOLERANCE
    numeric = _numerically_equal(pred_p, gold_p, rel, seed)
    if numeric is True:
        return _ok("symbolic_numeric")
    if numeric is False:
        return _no("wrong_value")
    return _ok("symbolic") if _symbolic_zero(pred_p - gold_p) else _no("inconclusive")


# --------------------------------------------------------------------------- EQ


def _equation_sides(text: str) -> tuple[str, str] | None:
    sides = split_top_level(text, "=")
    if len(sides) < 2 or not sides[0].strip() or not sides[-1].strip():
        return None
    return sides[0].strip(), sides[-1].strip()


def judge_eq(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_sides = _equation_sides(gold)
    if gold_sides is None:
        return judge_ex(pred, gold, tolerance)  # a gold without "=" is an expression
    pred_sides = _equation_sides(pred)
    if pred_sides is None:
        try:
            (lhs,) = parse_expressions(gold_sides[0])
        except UnparseableError:
            return _no("not_an_equation")
        if getattr(lhs, "is_Symbol", False):
            outcome = judge_ex(pred, gold_sides[1], tolerance)
            return _ok("rhs_only") if outcome.correct else outcome
        return _no("not_an_equation")
    try:
        p_lhs, p_rhs, g_lhs, g_rhs = _parse_compared(*pred_sides, *gold_sides)
    except UnparseableError as exc:
        return _side_failure(exc, {2, 3})
    gold_d, pred_d = _positive_symbols(g_lhs - g_rhs, p_lhs - p_rhs)
    return _proportional(pred_d, gold_d, seed=pred + "\x00" + gold)


def _proportional(a: Any, b: Any, seed: str) -> Outcome:
    """Two equations ``a = 0`` and ``b = 0`` are equivalent when ``a / b`` is a non-zero
    constant (side swaps give -1, scaled equations any factor, rational or not)."""
    import sympy

    if a == 0 or b == 0:
        return _ok("symbolic") if a == b else _no("wrong_equation")
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    ratios: list[complex] = []
    for point in _random_points(symbols, seed):
        va, vb = _evaluate(a, point), _evaluate(b, point)
        if va is None or vb is None or abs(vb) < 1e-14 or abs(va) < 1e-14:
            continue
        ratios.append(va / vb)
    if len(ratios) >= 2:
        first = ratios[0]
        same = all(abs(r - first) <= SYMBOLIC_TOLERANCE * abs(first) for r in ratios)
        return _ok("proportional") if same else _no("wrong_equation")
    if sympy.count_ops(a) + sympy.count_ops(b) > 250:
        return _no("inconclusive")
    try:
        ratio = sympy.simplify(a / b)
    except Exception:
        return _no("inconclusive")
    if not ratio.free_symbols and ratio != 0 and ratio.is_finite:
        return _ok("proportional")
    return _no("wrong_equation")


# --------------------------------------------------------------------------- IN

_CUP = re.compile(r"\\cup(?![a-zA-Z])|\s+U\s+|\\vee(?![a-zA-Z])")
_RELATION = re.compile(r"(\\leqslant|\\geqslant|\\leq|\\geq|\\le|\\ge|<=|>=|<|>)")
_INF = {r"\infty", r"+\infty", "infty", "+infty", "oo"}
_NEG_INF = {r"-\infty", "-infty", "-oo"}


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
    if "inf" in (pred, gold) or pred in ("+inf", "-inf") or gold in ("+inf", "-inf"):
        return pred == gold
    numeric = _nv_single(pred, gold, tolerance)  # numbers, with units or degrees
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
        return _no("gold_unparseable:interval")
    pred_i = parse_intervals(pred)
    if not pred_i:
        return _no("unparseable:interval")
    if len(pred_i) != len(gold_i):
        return _no("wrong_interval")
    matched = _assignment(pred_i, gold_i, lambda p, g: _same_interval(p, g, tolerance))
    return _ok("interval") if matched else _no("wrong_interval")


# --------------------------------------------------------------------------- MC, TF, QL

_MC_WORDS = re.compile(r"^(?:option|choice|answer|ans)\s*[:.]?\s*", re.IGNORECASE)
_MC_LEAD = re.compile(r"^\(?([A-Za-z])\s*[).:]\s*\S")


def mc_letters(text: str) -> frozenset[str] | None:
    text = _MC_WORDS.sub("", text.strip())
    lead = _MC_LEAD.match(text)
    if ":" in text and lead is None:
        text = text.split(":", 1)[0]
    tokens = [t.strip("()[]{}.") for t in re.split(r"[\s,;/&]+|\band\b", text) if t.strip()]
    if tokens and all(re.fullmatch(r"[A-Za-z]", t) for t in tokens):
        return frozenset(t.upper() for t in tokens)
    if lead is not None:
        return frozenset({lead.group(1).upper()})
    return None


def judge_mc(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_l = mc_letters(gold)
    pred_l = mc_letters(pred)
    if gold_l is None or pred_l is None:
        equal = pred.strip().casefold() == gold.strip().casefold()
        return _ok("equal") if equal else _no("unparseable:choice")
    return _ok("choice") if gold_l == pred_l else _no("wrong_choice")


_TRUE = {"true", "t", "yes", "y", "1", "correct", "right", "是", "对", "正确", "√", "✓"}
_FALSE = {"false", "f", "no", "n", "0", "incorrect", "wrong", "否", "错", "错误", "不对", "×", "✗"}


def truth_value(text: str) -> bool | None:
    word = re.sub(r"[\s.!。()\[\]{}]+", "", text).casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return None


def judge_tf(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_v = truth_value(gold)
    if gold_v is None:
        return _no("gold_unparseable:truth")
    pred_v = truth_value(pred)
    if pred_v is None:
        return _no("unparseable:truth")
    return _ok("truth") if gold_v == pred_v else _no("wrong_truth")


_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def phrase_key(text: str) -> str:
    text = text.casefold().replace("-", "")
    text = re.sub(r"[^\w\s]", " ", text)
    text = _ARTICLES.sub(" ", text)
    return re.sub(r"\s+", "", text)


def judge_ql(pred: str, gold: str, tolerance: float) -> Outcome:
    gold_k, pred_k = phrase_key(gold), phrase_key(pred)
    if not gold_k:
        return _no("gold_unparseable:phrase")
    return _ok("phrase") if gold_k == pred_k else _no("wrong_phrase")


# --------------------------------------------------------------------------- dispatch

Judger = Callable[[str, str, float], Outcome]
JUDGERS: dict[AnswerType, Judger] = {
    AnswerType.NV: judge_nv,
    AnswerType.EX: judge_ex,
    AnswerType.EQ: judge_eq,
    AnswerType.IN: judge_in,
    AnswerType.MC: judge_mc,
    AnswerType.TF: judge_tf,
    AnswerType.QL: judge_ql,
}


def judge_atom(pred: str, gold: str, answer_type: AnswerType, tolerance: float) -> Outcome:
    """One normalised predicted answer against one normalised gold answer of an atomic type."""
    judger = JUDGERS.get(answer_type)
    if judger is None:
        return _no(f"unsupported_type:{answer_type.value}")
    if pred == gold and answer_type is not AnswerType.TF:  # a TF gold must be a truth value
        return _ok("equal")
    try:
        return judger(pred, gold, tolerance)
    except UnparseableError as exc:
        return _no(f"unparseable:{exc.reason}")
    except RecursionError:
        return _no("unparseable:too_deep")


def _assignment(preds: list[Any], golds: list[Any], match: Callable[[Any, Any], bool]) -> bool:
    """A one-to-one matching of predictions to golds (order-insensitive)."""
    if len(preds) != len(golds):
        return False
    table = [[match(p, g) for g in golds] for p in preds]
    if len(golds) <= 7:
        return any(
            all(table[i][j] for i, j in enumerate(perm))
            for perm in itertools.permutations(range(len(golds)))
        )
    used: set[int] = set()
    for row in table:
        choice = next((j for j, ok in enumerate(row) if ok and j not in used), None)
        if choice is None:
            return False
        used.add(choice)
    return True


def _match_all(preds: list[str], golds: list[str], match: Callable[[str, str], Outcome]) -> Outcome:
    reasons: list[str] = []

    def ok(p: str, g: str) -> bool:
        outcome = match(p, g)
        reasons.append(outcome.reason)
        return outcome.correct

    if _assignment(preds, golds, ok):
        return _ok("matched_all")
    failures = [r for r in reasons if r not in ("equal", "numeric")]
    return _no(failures[0] if failures else "wrong_value")


def judge_answers(
    preds: tuple[str, ...],
    golds: tuple[str, ...],
    answer_type: AnswerType,
    type_sequence: tuple[AnswerType, ...],
    tolerance: float,
) -> Outcome:
    """Selected, normalised predictions against normalised golds, by answer type."""
    if not preds:
        return _no("no_answer")
    if not golds:
        return _no("gold_empty")
    if answer_type is AnswerType.TUP:
        if len(type_sequence) != len(golds):
            return _no("gold_type_sequence_mismatch")
        if len(preds) != len(golds):
            return _no("wrong_count")
        for position, (p, g, kind) in enumerate(zip(preds, golds, type_sequence, strict=True)):
            outcome = judge_atom(p, g, kind, tolerance)
            if not outcome.correct:
                return _no(f"element_{position}:{outcome.reason}")
        return _ok("tuple")
    if answer_type is AnswerType.ALT:
        if len(type_sequence) != len(golds):
            return _no("gold_type_sequence_mismatch")
        last = "wrong_value"
        for p in preds:
            for g, kind in zip(golds, type_sequence, strict=True):
                outcome = judge_atom(p, g, kind, tolerance)
                if outcome.correct:
                    return _ok(f"alternative:{outcome.reason}")
                last = outcome.reason
        return _no(last)
    if len(golds) == 1:
        return judge_atom(preds[-1], golds[0], answer_type, tolerance)
    return _match_all(
        list(preds), list(golds), lambda p, g: judge_atom(p, g, answer_type, tolerance)
    )


def normalize_all(answers: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(normalize_answer(a) for a in answers)
