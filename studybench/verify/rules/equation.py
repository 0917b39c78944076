"""EQ: equations, equal when proportional, rearranged (solved for a variable) or relabelled.

Built on the EX judger (:mod:`studybench.verify.rules.expression`): a gold without ``=`` is
an expression, and a renamed label is decided by comparing the right sides.
"""

from __future__ import annotations

from typing import Any

from studybench.verify.chains import chain, contradicting_labels, is_restatement, same_label
from studybench.verify.normalize import is_negated, split_top_level
from studybench.verify.parsing import UnparseableError
from studybench.verify.relations import is_label
from studybench.verify.rules.expression import (
    judge_ex,
    judge_ex_form,
    parse_compared,
    positive_symbols,
)
from studybench.verify.rules.outcome import Outcome, accept, reject, side_failure
from studybench.verify.symbolic import (
    evaluate,
    relative_tolerance,
    sample_points,
    substitute_definitions,
    vanishes,
)

SYMBOLIC_TOLERANCE = 1e-6


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
    if is_negated(pred) and not is_negated(gold):
        return reject("negated_relation")  # ``x \\neq 2`` is no equation for x
    gold_sides = _equation_sides(gold)
    if gold_sides is None:
        return judge_ex(pred, gold, tolerance)  # a gold without "=" is an expression
    pred_parts = chain(pred)
    if len(pred_parts) < 2:
        if same_label(pred, gold_sides[0]) or is_restatement(pred, gold):
            return reject("restated_question")
        if is_label(gold_sides[0]):
            outcome = judge_ex(pred, gold_sides[1], tolerance)
            return accept("rhs_only") if outcome.correct else outcome
        return reject("not_an_equation")
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
            return reject(f"chain_link_{link}:{outcome.reason}")
        held = held or outcome
    return held or reject("wrong_equation")


def _judge_equation(
    pred_sides: tuple[str, str],
    gold_sides: tuple[str, str],
    pred: str,
    gold: str,
    tolerance: float,
) -> Outcome:
    """One predicted equation ``lhs = rhs`` against the gold's."""
    if same_label(pred_sides[1], gold_sides[0]) and same_label(pred_sides[0], gold_sides[0]):
        return reject("restated_question")
    try:
        p_lhs, p_rhs, g_lhs, g_rhs = parse_compared(*pred_sides, *gold_sides)
    except UnparseableError as exc:
        return side_failure(exc, {2, 3})
    gold_d, pred_d = positive_symbols(g_lhs - g_rhs, p_lhs - p_rhs)
    pred_d, gold_d = substitute_definitions(pred_d, gold_d)
    seed = pred + "\x00" + gold
    outcome = _proportional(pred_d, gold_d, seed)
    if outcome.correct:
        return outcome
    if is_label(pred_sides[0]) and is_label(gold_sides[0]) and p_lhs != g_lhs:
        if contradicting_labels(pred_sides[0], gold_sides[0]):
            return reject("wrong_label")  # h_{\\max} = ... for h_{\\min} = ...
        renamed = judge_ex_form(pred_sides[1], gold_sides[1], tolerance)
        labels = p_lhs.free_symbols | g_lhs.free_symbols
        if renamed.correct and not (labels & (p_rhs.free_symbols | g_rhs.free_symbols)):
            return accept("renamed_label")
    if _rearranged((p_lhs, p_rhs), (g_lhs, g_rhs), seed):
        return accept("rearranged")
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
        return accept("symbolic") if a == b else reject("wrong_equation")
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
        return accept("proportional") if same else reject("wrong_equation")
    if sympy.count_ops(a) + sympy.count_ops(b) > 250:
        return reject("inconclusive")
    try:
        ratio = sympy.simplify(a / b)
    except Exception:
        return reject("inconclusive")
    if not ratio.free_symbols and ratio != 0 and ratio.is_finite:
        return accept("proportional")
    return reject("wrong_equation")
