"""EQ: equations, equal when proportional, rearranged (solved for a variable) or relabelled.

Built on the EX judger (:mod:`studybench.verify.rules.expression`): a gold without ``=`` is
an expression, and a renamed label is decided by comparing the right sides.
"""

from __future__ import annotations

import functools
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
    EXACT_TOLERANCE,
    PROOF_OPS_LIMIT,
    canonical_name,
    closed_forms_equal,
    constant_ratio,
    evaluate,
    exactly_zero,
    free_of,
    has_non_analytic,
    new_symbols,
    numerically_equal,
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
    read_pred, read_gold = _read_sides((p_lhs, p_rhs), (g_lhs, g_rhs))
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
    if _rearranged(tuple(read_pred), tuple(read_gold), seed, tolerance):
        return accept("rearranged")
    return outcome


def _read_sides(pred: tuple[Any, Any], gold: tuple[Any, Any]) -> tuple[Any, Any]:
    """Both equations' sides with definitions and derivative notations read, as for their
    differences (:func:`substitute_definitions` decides from the symbols of both)."""
    import sympy

    return substitute_definitions(sympy.Tuple(*pred), sympy.Tuple(*gold))


SOLVE_OPS_LIMIT = 120  # larger equations are not solved (sympy's solve may stall)
MAX_ASKED = 4  # at most this many candidate quantities are solved for


def _rearranged(
    pred: tuple[Any, Any], gold: tuple[Any, Any], seed: str, tolerance: float = SYMBOLIC_TOLERANCE
) -> bool:
    """The two equations have the same solution set for the asked quantity (issue 32 item 5):
    ``\\nu = (E_2 - E_1)/h`` and ``h\\nu = E_2 - E_1``, ``PV = nRT`` and ``PV/T = nR``,
    ``\\tan\\theta = \\mu`` and ``\\theta = \\arctan\\mu``.

    ``pred`` and ``gold`` are (left, right) after definitions and notations are read. The asked
    quantity is the gold's left side when it is one symbol, else each symbol of the gold's
    left side (``PV``: P and V; ``\\cos\\theta_0``: theta_0). Both equations are solved for
    it (sympy, the quantity real and unsigned, every other symbol a positive magnitude) and
    the solution sets must agree at sample points, both ways. So squaring (``v^2 = 2gh``: two
    roots), a hedge (``(v - a)(e^v - e^b) = 0``), applying cos to both sides (``\\cos\\theta =
    \\cos\\alpha``: theta = +-alpha) and multiplying by the quantity (``x^2 = 2x``: x = 0)
    change the set; dividing by a non-zero magnitude does not. A symbol the gold does not have
    (``v = \\sqrt{2gh} + \\xi``) is never allowed unless it only multiplies both sides (a
    non-zero magnitude), and a quantity that cannot be solved for within the size bound
    decides nothing."""
    import sympy

    pred_d, gold_d = pred[0] - pred[1], gold[0] - gold[1]
    if pred_d == 0 or gold_d == 0 or has_non_analytic(pred_d, gold_d):
        return False
    if sympy.count_ops(pred_d) + sympy.count_ops(gold_d) > 2 * SOLVE_OPS_LIMIT:
        return False
    extra = new_symbols(pred_d, gold_d)
    if extra and free_of(pred_d, extra, seed):  # they cancel: any value will do
        pred_d = sympy.simplify(pred_d.xreplace(dict.fromkeys(extra, sympy.Integer(1))))
    elif extra and not _only_common_factors(pred_d, gold_d):
        return False
    magnitude = not gold[0].is_Symbol  # a factor of a product on the left (PV, m dv/dt)
    rel = relative_tolerance(pred_d, gold_d, tolerance)
    for asked in _asked_quantities(gold[0], gold_d)[:MAX_ASKED]:
        name = canonical_name(asked)
        from_gold = _solutions(gold_d, name, magnitude)
        if from_gold is None:
            continue
        # necessary, and cheap: the prediction holds at every solution of the gold
        target = next((s for s in pred_d.free_symbols if canonical_name(s) == name), None)
        if target is None:
            return False
        for solution in from_gold:
            # term by term, unevaluated: the size of x - 0.38 at 0.382 is that of its terms
            at = sympy.Add(
                *(t.xreplace({target: solution}) for t in sympy.Add.make_args(pred_d)),
                evaluate=False,
            )
            if vanishes(at, rel, seed) is False:
                return False
        from_pred = _solutions(pred_d, name, magnitude)
        if from_pred is None:
            continue
        # one quantity decides: the same solutions for it, at every value of the others,
        # is the same relation between all of them
        return _covered(from_pred, from_gold, tolerance, seed) and _covered(
            from_gold, from_pred, tolerance, seed
        )
    return False


def _only_common_factors(pred_d: Any, gold_d: Any) -> bool:
    """Whether the symbols ``pred_d`` has and ``gold_d`` lacks only multiply both sides
    (``mg\\sin\\theta = \\mu mg\\cos\\theta`` for ``\\mu = \\tan\\theta``): each is a power
    of one such symbol (a non-zero magnitude) pulled out of the whole equation. A new symbol
    in a term (``v = \\sqrt{2gh} + \\xi``) makes a different equation."""
    import sympy

    extra = new_symbols(pred_d, gold_d)
    for factor in sympy.Mul.make_args(sympy.factor_terms(pred_d)):
        if not factor.free_symbols & extra:
            continue
        base = factor.base if factor.is_Pow and factor.exp.is_Rational else factor
        if not (base.is_Symbol and base in extra):
            return False
    return True


def _asked_quantities(lhs: Any, gold_d: Any) -> list[Any]:
    """The gold's bare left side, else the symbols of its left side, those outside any
    function first (solving for them is cheap: PV, m dv/dt before theta in cos theta)."""
    import sympy

    names = {canonical_name(s) for s in gold_d.free_symbols}
    if lhs.is_Symbol:
        return [lhs]
    inside = {s for f in gold_d.atoms(sympy.Function) for s in f.free_symbols}
    candidates = [s for s in lhs.free_symbols if canonical_name(s) in names]
    return sorted(candidates, key=lambda s: (s in inside, s.name))


@functools.lru_cache(maxsize=512)
def _solutions(expr: Any, name: str, magnitude: bool) -> tuple[Any, ...] | None:
    """The solutions of ``expr = 0`` for the symbol called ``name`` (real; every other symbol
    a positive magnitude), or None when sympy cannot give them. A ``magnitude`` (a symbol of
    a compound left side, m in ``m\\frac{dv}{dt}``) is never zero: a root 0 gained by
    multiplying both sides by it is no solution; a bare left side (x in ``x = 2``) may be 0.
    Cached: the gold of a slot is solved once for its k samples."""
    import sympy

    target = next((s for s in expr.free_symbols if canonical_name(s) == name), None)
    if target is None:
        return None
    variable = sympy.Symbol("solved_" + name, real=True)
    others = {s: sympy.Symbol(s.name, positive=True) for s in expr.free_symbols if s != target}
    plain = expr.xreplace({**others, target: variable})
    plain = plain.replace(sympy.sec, lambda u: 1 / sympy.cos(u))  # roots on cos's branches
    plain = plain.replace(sympy.csc, lambda u: 1 / sympy.sin(u))
    plain = plain.replace(sympy.cot, lambda u: sympy.cos(u) / sympy.sin(u))
    try:
        found = sympy.solve(plain, variable, rational=False)
    except Exception:  # NotImplementedError and friends: undecided
        return None
    if not isinstance(found, list) or not found or any(isinstance(f, dict) for f in found):
        return None
    back = {v: k for k, v in others.items()}
    kept = tuple(f.xreplace(back) for f in found if not (magnitude and f == 0))
    return kept or None


def _covered(these: tuple[Any, ...], those: tuple[Any, ...], tolerance: float, seed: str) -> bool:
    return all(any(_same_value(a, b, tolerance, seed) for b in those) for a in these)


def _same_value(a: Any, b: Any, tolerance: float, seed: str) -> bool:
    a, b = positive_symbols(a, b)
    if a == b:
        return True
    if not a.free_symbols and not b.free_symbols:
        return closed_forms_equal(a, b, tolerance) is True
    rel = relative_tolerance(a, b, tolerance)
    if numerically_equal(a, b, rel, seed) is not True:
        return False
    return rel > EXACT_TOLERANCE or exactly_zero(a - b, seed)


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
    if has_non_analytic(a, b):  # floor, min, |x|: sampled ratios prove nothing
        return accept("proportional") if _proven_constant(a / b) else reject("wrong_equation")
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
        if same and tolerance <= EXACT_TOLERANCE:  # 40 digits; now exactly (F = ma + 10^{-50})
            same = constant_ratio(a, b, seed)
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


def _proven_constant(ratio: Any) -> bool:
    """``simplify`` reduces ``ratio`` to a non-zero finite constant (bounded in size)."""
    import sympy

    if sympy.count_ops(ratio) > PROOF_OPS_LIMIT:
        return False
    try:
        simple = sympy.simplify(ratio)
    except Exception:
        return False
    return bool(not simple.free_symbols and simple != 0 and simple.is_finite)
