"""The per-type judgers: does one predicted answer equal one gold answer?

Each judger takes two *normalised* box contents and returns an :class:`Outcome` whose
``reason`` names the rule that decided (``numeric``, ``unit_converted``, ``symbolic``, ...) or
why it failed (``wrong_value``, ``unit_mismatch``, ``unparseable``, ...). The dispatcher
:func:`judge_answers` applies the answer type's selection rules (last box, TUP positions, ALT
candidates) on top. Everything here is pure and runs inside the verifier's worker processes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studybench.data.answer_types import AnswerType
from studybench.verify.chains import chain, is_restatement, judge_chain, same_label
from studybench.verify.normalize import last_side, normalize_answer, split_top_level
from studybench.verify.numeric import judge_nv_text, nv_single
from studybench.verify.parsing import UnparseableError, parse_expressions
from studybench.verify.relations import is_label, split_top
from studybench.verify.symbolic import (
    closed_forms_equal,
    evaluate,
    numerically_equal,
    relative_tolerance,
    sample_points,
    substitute_definitions,
    vanishes,
)

SYMBOLIC_TOLERANCE = 1e-6


@dataclass(frozen=True, slots=True)
class Outcome:
    correct: bool
    reason: str


def _ok(reason: str) -> Outcome:
    return Outcome(True, reason)


def _no(reason: str) -> Outcome:
    return Outcome(False, reason)


# --------------------------------------------------------------------------- NV


def judge_nv(pred: str, gold: str, tolerance: float, requested: tuple[Any, ...] = ()) -> Outcome:
    """A number with an optional unit; ``requested``: the units the question asks for."""

    def expression(side: str, form: str) -> tuple[bool, str]:
        outcome = _ex_single(side, form, tolerance)
        return outcome.correct, outcome.reason

    outcome: Outcome = judge_nv_text(
        pred, gold, tolerance, requested, _match_all, _ok, _no, expression
    )
    return outcome


def _nv_single(pred: str, gold: str, tolerance: float) -> Outcome:
    correct, reason = nv_single(pred, gold, tolerance)
    return Outcome(correct, reason)


# --------------------------------------------------------------------------- EX


def _positive_symbols(*exprs: Any) -> list[Any]:
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
    """Every stated form of the prediction against the gold's forms (see
    :mod:`studybench.verify.chains`: a chain ``A = B = C`` is right only when every side
    that states an expression equals the gold; a side naming the asked quantity is a label)."""

    def compare(side: str, form: str) -> tuple[bool, str]:
        outcome = _ex_single(side, form, tolerance)
        return outcome.correct, outcome.reason

    correct, reason = judge_chain(pred, gold, compare, _ex_uncheckable)
    return Outcome(correct, reason)


# A number as written: digits, a power of ten, a unit in \mathrm / \text (never a bare letter:
# ``2m`` beside the gold ``m`` is twice it, not two metres).
_WRITTEN_NUMBER = re.compile(
    r"^\s*[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)"
    r"(?:\s*(?:\\times|\\cdot)\s*10\s*\^\s*(?:\{\s*[+-]?\d+\s*\}|\d))?"
    r"(?:\s*(?:\\[,;:! ]|~)?\s*\\(?:mathrm|text|rm)\s*\{[^{}]*\})*\s*$"
)


def _ex_uncheckable(side: str, form: str, reason: str) -> bool:
    """Only a number *written as a number* beside a symbolic gold form (``E = mc^2 =
    9.0\\times10^{16}\\,\\mathrm J``, ``T = 2\\pi\\sqrt{l/g} = 2.0``: the problem's data
    plugged in, which the verifier does not hold) cannot contradict it. It is no candidate for
    a symbolic answer, so skipping it lets no chain hedge.

    Every other side is checked (issue 32): a side in a symbol the gold lacks (``F = ma = 2ma
    + Y``, ``E = \\tfrac12 mv^2 = p^2/2m``), a symbolic step beside a closed gold (``v =
    \\sqrt{2gh}`` for ``\\sqrt 2``), an expression that evaluates to a number (``G = (G)^0``)
    and a side beside a gold form the parser cannot read all claim an equality with the gold
    that the verifier cannot show. Skipping them as "derivation steps" let a chain hedge
    between candidates (``F = ma + mg\\sin\\theta = ma`` was accepted for ``ma``)."""
    if reason.startswith(("gold_unparseable", "unparseable")) or not _WRITTEN_NUMBER.match(side):
        return False
    try:
        (form_e,) = _parse_compared(form)
    except UnparseableError:
        return False
    return bool(form_e.free_symbols)


def _ex_single(pred: str, gold: str, tolerance: float) -> Outcome:
    if pred.replace(" ", "") == gold.replace(" ", ""):
        return _ok("equal")
    try:
        pred_e, gold_e = _parse_compared(pred, gold)
    except UnparseableError as exc:
        return _side_failure(exc, {1})
    return _compare_expressions(pred_e, gold_e, tolerance, seed=pred + "\x00" + gold)


def _compare_expressions(pred_e: Any, gold_e: Any, tolerance: float, seed: str) -> Outcome:
    if pred_e == gold_e:
        return _ok("structural")
    pred_e, gold_e = substitute_definitions(pred_e, gold_e)
    if not pred_e.free_symbols and not gold_e.free_symbols:
        same = closed_forms_equal(pred_e, gold_e, tolerance)
        if same is None:
            return _no("unparseable:not_a_number")
        return _ok("numeric") if same else _no("wrong_value")
    pred_p, gold_p = _positive_symbols(pred_e, gold_e)
    if not pred_e.free_symbols or not gold_e.free_symbols:
        # symbols on one side only: equal just when they cancel exactly (sin^2 + cos^2 against
        # 1); sampling would also take a leftover small term (1 + 10^-4 x) for the constant
        if _varies(pred_p - gold_p, seed):  # not a constant: no simplify needed to say so
            return _no("wrong_value")
        return _ok("symbolic") if _symbolic_zero(pred_p - gold_p) else _no("wrong_value")
    if pred_p == gold_p:
        return _ok("structural")
    rel = relative_tolerance(pred_p, gold_p, tolerance)
    numeric = numerically_equal(pred_p, gold_p, rel, seed)
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
    """Equations are equal when proportional, when one holds wherever the other does after
    solving it for a variable it is linear in (``h\\nu = E_2 - E_1`` and ``\\nu = (E_2 -
    E_1)/h``), or when only the label on the left differs (``a = g/7``, ``\\dot v = g/7``).

    A predicted chain ``A = B = C`` states the equations ``A = B`` and ``A = C``: each must be
    the gold's (``chain_link_k`` names the first that is not). Only the gold's left side, or
    only a name, restates the question."""
    gold_sides = _equation_sides(gold)
    if gold_sides is None:
        return judge_ex(pred, gold, tolerance)  # a gold without "=" is an expression
    pred_parts = chain(pred)
    if len(pred_parts) < 2:
        if same_label(pred, gold_sides[0]) or is_restatement(pred, gold):
            return _no("restated_question")
        if is_label(gold_sides[0]):
            outcome = judge_ex(pred, gold_sides[1], tolerance)
            return _ok("rhs_only") if outcome.correct else outcome
        return _no("not_an_equation")
    if len(pred_parts) == 2:
        return _judge_equation((pred_parts[0], pred_parts[1]), gold_sides, pred, gold, tolerance)
    held: Outcome | None = None
    for link in range(1, len(pred_parts)):
        # every link is checked: a link in symbols the gold lacks (``h = v^2/2g`` beside
        # ``h = 5``, ``F = ma + Y`` beside ``F = ma``) is not the gold's equation. Skipping it
        # as a derivation step let a chain hedge between candidates (issue 32).
        outcome = _judge_equation(
            (pred_parts[0], pred_parts[link]), gold_sides, pred, gold, tolerance
        )
        if not outcome.correct:
            return _no(f"chain_link_{link}:{outcome.reason}")
        held = held or outcome
    return held or _no("wrong_equation")


def _judge_equation(
    pred_sides: tuple[str, str],
    gold_sides: tuple[str, str],
    pred: str,
    gold: str,
    tolerance: float,
) -> Outcome:
    """One predicted equation ``lhs = rhs`` against the gold's."""
    if same_label(pred_sides[1], gold_sides[0]) and same_label(pred_sides[0], gold_sides[0]):
        return _no("restated_question")
    try:
        p_lhs, p_rhs, g_lhs, g_rhs = _parse_compared(*pred_sides, *gold_sides)
    except UnparseableError as exc:
        return _side_failure(exc, {2, 3})
    gold_d, pred_d = _positive_symbols(g_lhs - g_rhs, p_lhs - p_rhs)
    pred_d, gold_d = substitute_definitions(pred_d, gold_d)
    seed = pred + "\x00" + gold
    outcome = _proportional(pred_d, gold_d, seed)
    if outcome.correct:
        return outcome
    if is_label(pred_sides[0]) and is_label(gold_sides[0]) and p_lhs != g_lhs:
        renamed = _ex_single(pred_sides[1], gold_sides[1], tolerance)
        labels = p_lhs.free_symbols | g_lhs.free_symbols
        if renamed.correct and not (labels & (p_rhs.free_symbols | g_rhs.free_symbols)):
            return _ok("renamed_label")
    if _rearranged((p_lhs, p_rhs), (g_lhs, g_rhs), seed):
        return _ok("rearranged")
    return outcome


def _rearranged(pred: tuple[Any, Any], gold: tuple[Any, Any], seed: str) -> bool:
    """One equation solved for a variable (``x = f(...)``, ``x`` not on the right) makes the
    other hold: ``\\nu = (E_2 - E_1)/h`` and ``h\\nu = E_2 - E_1``, ``\\theta = \\arctan\\mu``
    and ``\\tan\\theta = \\mu``.

    Checked at points of both signs and without positivity assumptions, and refused when
    the other equation is a polynomial of degree two or more in that variable: squaring
    (``v^2 = 2gh`` for ``v = \\sqrt{2gh}``) adds a root, it does not rearrange.
    """
    pred_d, gold_d = pred[0] - pred[1], gold[0] - gold[1]
    if pred_d == 0 or gold_d == 0:
        return False
    tolerance = relative_tolerance(pred_d, gold_d, SYMBOLIC_TOLERANCE)
    for (lhs, rhs), target in ((gold, pred_d), (pred, gold_d)):
        if not lhs.is_Symbol or lhs in rhs.free_symbols or lhs not in target.free_symbols:
            continue
        if _degree(target, lhs) > 1:
            continue
        if vanishes(target.subs(lhs, rhs), tolerance, seed, signed=True):
            return True
    return False


def _degree(expr: Any, symbol: Any) -> int:
    """Degree of ``expr`` as a polynomial in ``symbol``; 1 when it is not a polynomial."""
    import sympy

    try:
        return int(sympy.Poly(expr, symbol).degree())
    except (sympy.PolynomialError, sympy.GeneratorsNeeded):
        return 1


def _proportional(a: Any, b: Any, seed: str) -> Outcome:
    """Two equations ``a = 0`` and ``b = 0`` are equivalent when ``a / b`` is a non-zero
    constant (side swaps give -1, scaled equations any factor, rational or not).

    Decided at the seeded sample points when two or more evaluate (points where either side
    is undefined or below 1e-30 are skipped; every ratio within the tolerance of the first,
    inclusive); otherwise by ``simplify(a / b)``, which is skipped as ``inconclusive`` above
    250 operations (both sides together) so that one answer cannot stall the verifier."""
    import sympy

    if a == 0 or b == 0:
        return _ok("symbolic") if a == b else _no("wrong_equation")
    tolerance = relative_tolerance(a, b, SYMBOLIC_TOLERANCE)
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    ratios = []
    for point in sample_points(symbols, seed):
        va, vb = evaluate(a, point), evaluate(b, point)
        if va is None or vb is None or abs(vb) < 1e-30 or abs(va) < 1e-30:
            continue
        ratios.append(va / vb)
    if len(ratios) >= 2:
        first = ratios[0]
        same = all(abs(r - first) <= tolerance * abs(first) for r in ratios)
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
# an option named in the text after a lead: "(A) and (C) are correct" (not "f(x)")
_MC_MARKED = re.compile(r"(?:^|[\s,;/&])\(([A-Za-z])\)")


def mc_letters(text: str) -> frozenset[str] | None:
    text = _MC_WORDS.sub("", text.strip())
    lead = _MC_LEAD.match(text)
    if ":" in text:  # "B: 5 m/s", "(A), (C): both": the letters are before the first colon
        text = text.split(":", 1)[0]
    tokens = [t.strip("()[]{}.") for t in re.split(r"[\s,;/&]+|\band\b", text) if t.strip()]
    if tokens and all(re.fullmatch(r"[A-Za-z]", t) for t in tokens):
        return frozenset(t.upper() for t in tokens)
    if lead is not None:  # the lead and every other option the text names: none is dropped
        named = {letter.upper() for letter in _MC_MARKED.findall(text)}
        return frozenset({lead.group(1).upper()} | named)
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


def judge_atom(
    pred: str,
    gold: str,
    answer_type: AnswerType,
    tolerance: float,
    requested: tuple[Any, ...] = (),
) -> Outcome:
    """One normalised predicted answer against one normalised gold answer of an atomic type.

    ``requested``: the units the question asks for (see :mod:`studybench.verify.question`).
    """
    judger = JUDGERS.get(answer_type)
    if judger is None:
        return _no(f"unsupported_type:{answer_type.value}")
    if pred == gold and answer_type is not AnswerType.TF:  # a TF gold must be a truth value
        return _ok("equal")
    try:
        if answer_type is AnswerType.NV:
            return judge_nv(pred, gold, tolerance, requested)
        return judger(pred, gold, tolerance)
    except UnparseableError as exc:
        return _no(f"unparseable:{exc.reason}")
    except RecursionError:
        return _no("unparseable:too_deep")


def _assignment(preds: list[Any], golds: list[Any], match: Callable[[Any, Any], bool]) -> bool:
    """A one-to-one matching of predictions to golds (order-insensitive): a perfect matching
    of the bipartite graph of matching pairs. Within tolerance one prediction may match two
    golds; a first-fit pairing could then use up the gold another prediction needed and
    reject a right answer.

    Augmenting paths (Kuhn's algorithm) in plain Python: answer lists have a handful of
    values, and scipy's matching cost a 0.2-0.8 s import in every worker that met a list."""
    if len(preds) != len(golds):
        return False
    table = [[match(p, g) for g in golds] for p in preds]
    if not all(any(row) for row in table):  # a prediction that matches no gold
        return False
    owner: list[int | None] = [None] * len(golds)  # the prediction each gold is given to

    def place(pred: int, seen: set[int]) -> bool:
        for gold, fits in enumerate(table[pred]):
            if fits and gold not in seen:
                seen.add(gold)
                holder = owner[gold]
                if holder is None or place(holder, seen):
                    owner[gold] = pred
                    return True
        return False

    return all(place(pred, set()) for pred in range(len(preds)))


def _match_all(preds: list[str], golds: list[str], match: Callable[[str, str], Outcome]) -> Outcome:
    failures: list[str] = []  # the reasons of the pairs that do not match

    def ok(p: str, g: str) -> bool:
        outcome = match(p, g)
        if not outcome.correct:
            failures.append(outcome.reason)
        return outcome.correct

    if _assignment(preds, golds, ok):
        return _ok("matched_all")
    return _no(failures[0] if failures else "wrong_value")


_OR = re.compile(r"\s+or\s+|\s*\\(?:lor|vee)\s*", re.IGNORECASE)


def _offered_values(preds: tuple[str, ...]) -> list[str]:
    """The distinct final values of an ALT prediction (``2 or 3`` in one box is two)."""
    values: list[str] = []
    for pred in preds:
        for part in (p.strip() for p in split_top(pred, _OR)):
            if part and part not in values:
                values.append(part)
    return values


def judge_alternatives(
    preds: tuple[str, ...],
    golds: tuple[str, ...],
    type_sequence: tuple[AnswerType, ...],
    tolerance: float,
    requested: tuple[Any, ...] = (),
) -> Outcome:
    """ALT: one alternative suffices, but every value offered must be one of them.

    Boxing several guesses (``\\boxed{2} \\boxed{3}`` for "1 s or 3 s") is wrong; boxing
    several of the listed alternatives (both roots of a quadratic) is right.
    """
    matched: str | None = None
    last = "wrong_value"
    for value in _offered_values(preds):
        hit = None
        for g, kind in zip(golds, type_sequence, strict=True):
            outcome = judge_atom(value, g, kind, tolerance, requested)
            if outcome.correct:
                hit = outcome
                break
            last = outcome.reason
        if hit is None:
            return _no("extra_guess" if matched or len(preds) > 1 else last)
        matched = matched or hit.reason
    return _ok(f"alternative:{matched}") if matched else _no(last)


def judge_answers(
    preds: tuple[str, ...],
    golds: tuple[str, ...],
    answer_type: AnswerType,
    type_sequence: tuple[AnswerType, ...],
    tolerance: float,
    requested: tuple[Any, ...] = (),
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
            outcome = judge_atom(p, g, kind, tolerance, requested)
            if not outcome.correct:
                return _no(f"element_{position}:{outcome.reason}")
        return _ok("tuple")
    if answer_type is AnswerType.ALT:
        if len(type_sequence) != len(golds):
            return _no("gold_type_sequence_mismatch")
        return judge_alternatives(preds, golds, type_sequence, tolerance, requested)
    if len(golds) == 1:
        return judge_atom(preds[-1], golds[0], answer_type, tolerance, requested)
    return _match_all(
        list(preds), list(golds), lambda p, g: judge_atom(p, g, answer_type, tolerance, requested)
    )


def normalize_all(answers: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(normalize_answer(a) for a in answers)
