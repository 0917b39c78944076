"""EQ: equations, equal when proportional, rearranged (solved for a variable) or relabelled.

Built on the EX judger (:mod:`studybench.verify.rules.expression`): a gold without ``=`` is
an expression, and a renamed label is decided by comparing the right sides.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Any

from studybench.verify.chains import (
    chain,
    contradicting_labels,
    derived_label,
    is_restatement,
    label_key,
    quantity_key,
    same_label,
    underlying_name,
)
from studybench.verify.normalize import is_negated, split_top_level
from studybench.verify.parsing import UnparseableError, exact_gold_tolerance, has_decimal
from studybench.verify.question import symbols_of
from studybench.verify.relations import is_label, name_operator_products, operator_order_differs
from studybench.verify.rules.expression import (
    Definitions,
    definition_problem,
    judge_ex,
    judge_ex_form,
    parse_compared,
    parse_defined,
    positive_symbols,
    rounds_gold,
    split_definitions,
    with_constant_values,
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
    parts_agree,
    relative_tolerance,
    rounded_alike,
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


# steps of a derivation in one box: "\\tfrac12 kx^2 = \\tfrac12 mv^2 \\Rightarrow kx^2 = mv^2"
_IMPLIES = re.compile(
    r"\\(?:Rightarrow|implies|Longrightarrow|Leftrightarrow|iff|therefore)(?![A-Za-z])|⇒|⟹|∴"
)
_MAX_STEPS = 4
_STEP_NAME = re.compile(r"\s*(?:\\[A-Za-z]+|[A-Za-z])(?:_\{?[A-Za-z0-9,]+\}?)?\s*")


def _judge_steps(steps: list[str], gold: str, tolerance: float) -> Outcome:
    """Steps of a derivation (``A = B \\Rightarrow C = D``): each states an equation, and each
    must be the gold's (``step_k`` names the first that is not) or, before the last, hold for
    the gold's solution (:func:`_satisfied_by_gold`); a step whose sides are only names the
    gold does not use (``U_s = K``, ``E_i = E_f``: where the equation came from) claims
    nothing to check (red team r24b: every step is judged, "wrong ⇒ gold" as
    much as "gold ⇒ wrong")."""
    steps = [step.strip().rstrip(",;").strip() for step in steps]
    if len(steps) > _MAX_STEPS or not all("=" in step for step in steps):
        return reject("unparseable:steps")
    outcome = reject("unparseable:steps")
    for index, step in enumerate(steps):
        sides = split_top_level(step, "=")
        naming = all(_STEP_NAME.fullmatch(side) and side.strip() not in gold for side in sides)
        if naming and index < len(steps) - 1:
            continue  # "U_s = K": the names of what the next step writes out
        outcome = judge_eq(step, gold, tolerance)
        if not outcome.correct and not (
            index < len(steps) - 1 and _satisfied_by_gold(sides, gold, tolerance)
        ):
            return reject(f"step_{index}:{outcome.reason}")
    return outcome


def _satisfied_by_gold(sides: list[str], gold: str, tolerance: float) -> bool:
    """Whether a premise (``mgh = \\tfrac12 mv^2`` before ``v = \\sqrt{2gh}``) holds with the
    gold's asked quantity set to the gold's value: the step the answer starts from is true of
    the gold's solution (red team r25b); ``mgh = mv^2`` is not."""
    gold_sides = _equation_sides(gold)
    if gold_sides is None or len(sides) != 2 or not is_label(gold_sides[0]):
        return False
    return holds_at((sides[0], sides[1]), gold_sides[0], gold_sides[1], tolerance) is True


def judge_eq(pred: str, gold: str, tolerance: float) -> Outcome:
    """Equations are equal when proportional, when one holds wherever the other does after
    solving it for a variable it is linear in (``h\\nu = E_2 - E_1`` and ``\\nu = (E_2 -
    E_1)/h``), or when only the label on the left differs (``a = g/7``, ``\\dot v = g/7``).

    A predicted chain ``A = B = C`` states the equations ``A = B`` and ``A = C``: each must be
    the gold's (``chain_link_k`` names the first that is not). Only the gold's left side, or
    only a name, restates the question."""
    if is_negated(pred) and not is_negated(gold):
        return reject("negated_relation")  # ``x \\neq 2`` is no equation for x
    steps = _IMPLIES.split(pred)
    if len(steps) > 1:
        return _judge_steps(steps, gold, tolerance)
    tolerance = exact_gold_tolerance(pred, gold, tolerance)
    gold_sides = _equation_sides(gold)
    if gold_sides is None:
        return judge_ex(pred, gold, tolerance)  # a gold without "=" is an expression
    pred = without_common_argument(pred, gold)
    whole = pred
    pred, definitions = split_definitions(pred)
    if definitions:  # q(t) = C\\varepsilon(1 - e^{-t/\\tau}), \\tau = RC
        problem = definition_problem(pred, definitions, gold)
        if problem is not None:
            return reject(problem)
    pred_parts = chain(pred)
    if len(pred_parts) < 2:
        if same_label(pred, gold_sides[0]) or is_restatement(pred, gold):
            return reject("restated_question")
        if is_label(gold_sides[0]):
            outcome = judge_ex(whole, gold_sides[1], tolerance)
            return accept("rhs_only") if outcome.correct else outcome
        return reject("not_an_equation")
    if len(pred_parts) == 2:
        return _judge_equation(
            (pred_parts[0], pred_parts[1]), gold_sides, pred, gold, tolerance, definitions
        )
    held: Outcome | None = None
    for link in range(1, len(pred_parts)):
        # every link is checked: a link in symbols the gold lacks (``h = v^2/2g`` beside
        # ``h = 5``, ``F = ma + Y`` beside ``F = ma``) is not the gold's equation. Skipping it
        # as a derivation step let a chain hedge between candidates (issue 32).
        outcome = _judge_equation(
            (pred_parts[0], pred_parts[link]), gold_sides, pred, gold, tolerance, definitions
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
    definitions: Definitions = (),
) -> Outcome:
    """One predicted equation ``lhs = rhs`` against the gold's, the prediction's defined
    symbols read as defined; where the gold is exact, a side with decimals that solves for the
    gold's label must round the gold's side (:func:`expression.rounds_gold`)."""
    outcome = _judge_sides(pred_sides, gold_sides, pred, gold, tolerance, definitions)
    if not outcome.correct or has_decimal(gold) or not has_decimal(" ".join(pred_sides)):
        return outcome
    if outcome.reason == "constant_values":
        return outcome  # compared to the digits it writes against the constants' values
    if same_label(pred_sides[1], gold_sides[0]):  # "2.69R = h_{\min}": the label on the right
        pred_sides = (pred_sides[1], pred_sides[0])
    if not same_label(pred_sides[0], gold_sides[0]):
        return outcome
    try:
        (gold_side,) = parse_compared(gold_sides[1])
    except UnparseableError:
        return outcome
    seed = pred + "\x00" + gold
    if rounds_gold(pred_sides[1], gold_side, definitions, seed) is False:
        return reject("wrong_value")  # h_{\min} = 2.69R is no rounding of \frac{27}{10}R
    return outcome


def _judge_sides(
    pred_sides: tuple[str, str],
    gold_sides: tuple[str, str],
    pred: str,
    gold: str,
    tolerance: float,
    definitions: Definitions = (),
) -> Outcome:
    """:func:`_judge_equation` before the check of an exact gold's roundings."""
    if _with_arguments(pred_sides, gold_sides[0]):
        pred_sides = (gold_sides[0], pred_sides[1])  # E_{\\rm k}(v) = … for E_{\\rm k} = …
    elif _with_arguments(gold_sides, pred_sides[0]):
        gold_sides = (pred_sides[0], gold_sides[1])  # y = … for y(x,t) = … (red team r30b)
    if same_label(pred_sides[1], gold_sides[0]) and same_label(pred_sides[0], gold_sides[0]):
        return reject("restated_question")
    if operator_order_differs(" = ".join(pred_sides), " = ".join(gold_sides), equation=True):
        return reject("operator_order")  # [p, x] = i hbar: operators need not commute
    p_l, p_r, g_l, g_r = name_operator_products((*pred_sides, *gold_sides))
    pred_sides, gold_sides = (p_l, p_r), (g_l, g_r)
    try:
        p_lhs, p_rhs, g_lhs, g_rhs = parse_defined((*pred_sides, *gold_sides), definitions, 2)
    except UnparseableError as exc:
        return side_failure(exc, {2, 3})
    gold_d, pred_d = positive_symbols(g_lhs - g_rhs, p_lhs - p_rhs)
    pred_d, gold_d = substitute_definitions(pred_d, gold_d)
    read_pred, read_gold = _read_sides((p_lhs, p_rhs), (g_lhs, g_rhs))
    seed = pred + "\x00" + gold
    if rounded_alike(pred_d, gold_d, tolerance) or rounded_alike(pred_d, -gold_d, tolerance):
        return accept("rounded")  # the gold with its decimals rounded (e^{-E/0.026})
    outcome = _proportional(pred_d, gold_d, seed)
    if outcome.correct:
        return outcome
    if is_label(pred_sides[0]) and is_label(gold_sides[0]) and p_lhs != g_lhs:
        if contradicting_labels(pred_sides[0], gold_sides[0]):
            return reject("wrong_label")  # h_{\\max} = ... for h_{\\min} = ...
        if _extremum_named_bare(pred_sides[0], gold_sides[0]) or (
            not _derived_pair(pred_sides[0], gold_sides[0])
            and _may_rename(pred_sides[0], gold_sides[0], (p_lhs, p_rhs), (g_lhs, g_rhs))
        ):
            renamed = judge_ex_form(pred_sides[1], gold_sides[1], tolerance, definitions)
            if renamed.correct:
                return accept("renamed_label")
    read_pred = _read_kinematic_name(tuple(read_pred), tuple(read_gold))
    if _rearranged(tuple(read_pred), tuple(read_gold), seed, tolerance):
        return accept("rearranged")
    if not definitions and p_lhs == g_lhs and is_label(pred_sides[0]):
        # E = 1.99\times10^{-25}/\lambda for E = hc/\lambda: the constants' values written in
        valued = with_constant_values(pred_sides[1], p_rhs, g_rhs, tolerance, seed)
        if valued is not None:
            return valued
    return outcome


# a quantity written with the variable it depends on: ``x(t)``, ``\\ddot{x}(t)``, ``q(t)``
_APPLIED = re.compile(
    r"(?P<name>(?:\\d{1,2}dot\s*\{\s*[A-Za-z]\s*\}|\\d{1,2}dot\s+[A-Za-z]|(?<!\\)[A-Za-z])"
    r"(?:_\{?[A-Za-z0-9]\}?)?'*)\s*\(\s*(?P<variable>t|x|r|z|s|\\theta|\\phi|\\tau)\s*\)"
)


def without_common_argument(pred: str, gold: str) -> str:
    """An equation whose quantities are written as functions of one variable the gold never
    writes (``\\ddot x(t) = -\\tfrac{k}{m}x(t)`` for ``m\\ddot x + kx = 0``) without it: the
    gold's ``x`` is the same function, unnamed argument and all (the parser read ``x(t)`` as
    x times t). Only where every application takes that one variable, never a number (``x(0)``
    is a value at a point) and each applied name is one the gold writes."""
    applications = [m for m in _APPLIED.finditer(pred) if not _in_command(pred, m.start())]
    if not applications or "(" not in pred:
        return pred
    variables = {m.group("variable") for m in applications}
    if len(variables) != 1:
        return pred
    (variable,) = variables
    gold_symbols, letters = symbols_of(gold), symbols_of(pred)
    if variable.lstrip("\\") in gold_symbols or variable in gold_symbols:
        return pred
    names = {
        re.sub(r"\\d{1,2}dot\s*\{?\s*|\}", "", m.group("name")).strip()[:1] for m in applications
    }
    if not names <= gold_symbols or not letters:
        return pred
    kept = {m.start() for m in applications}
    return _APPLIED.sub(lambda m: m.group("name") if m.start() in kept else m.group(0), pred)


def _in_command(text: str, at: int) -> bool:
    """Whether the letter at ``at`` is part of a command's name (the n of ``\\sin``)."""
    start = at
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    return start > 0 and text[start - 1] == "\\"


def _with_arguments(pred_sides: tuple[str, str], gold_label: str) -> bool:
    """Whether the prediction's left side is the gold's plain label written with the
    variables it depends on (``E_{\\rm k}(v) = \\tfrac12 mv^2`` for ``E_{\\rm k} = …``): one
    quantity, so the equation is compared under the gold's label (a function ``E_k(v)`` is
    no symbol ``E_k``; red team r19a, R2). Each argument must be a name the right side uses:
    ``x(0) = A\\cos\\omega t`` is the value at a point, another claim."""
    label = pred_sides[0]
    if not (is_label(label) and is_label(gold_label)):
        return False
    applied = _ARGUMENTS.match(label_key(label))
    if applied is None or label_key(gold_label) != quantity_key(gold_label):
        return False
    if quantity_key(label) != label_key(gold_label):
        return False
    arguments = [a.strip() for a in applied.group("arguments").split(",")]
    used = symbols_of(pred_sides[1])
    return all(re.fullmatch(r"\\?[A-Za-z]+", a) and symbols_of(a) <= used for a in arguments)


_ARGUMENTS = re.compile(r"^[^()]*\(\s*(?P<arguments>[^()]+)\)\s*$")


def holds_at(sides: tuple[str, str], name: str, value: str, tolerance: float) -> bool | None:
    """Whether the equation ``sides`` holds with the symbol ``name`` set to ``value`` (an
    expression in the equation's other symbols), at every sampled point of them; None where
    undecided (a side no parser reads, ``name`` not in it, too few points evaluate). An
    equation stated after an answer ("So $x/d = 1/3$", "So $v^2 = 10gh/7$") says the asked
    quantity is one of its solutions: it agrees with the answer exactly when the answer
    satisfies it, whatever else satisfies it too (v = -\\sqrt{10gh/7} is no second claim)."""
    try:
        lhs, rhs, symbol, given = parse_compared(*sides, name, value)
    except UnparseableError:
        return None
    if not symbol.is_Symbol:
        return None
    target = next(
        (s for s in (lhs - rhs).free_symbols if canonical_name(s) == canonical_name(symbol)), None
    )
    if target is None or any(
        canonical_name(s) == canonical_name(symbol) for s in given.free_symbols
    ):
        return None
    lhs, rhs = lhs.xreplace({target: given}), rhs.xreplace({target: given})
    lhs, rhs = positive_symbols(lhs, rhs)
    if lhs == rhs:
        return True
    equal = numerically_equal(lhs, rhs, relative_tolerance(lhs, rhs, tolerance), sides[0] + name)
    return equal


def _derived_pair(pred_label: str, gold_label: str) -> bool:
    """Whether one label is a derivative, change, mean or primed form of the other's quantity
    (:func:`derived_label`), either way round: ``\\dot q(t) = C\\varepsilon(1 - e^{-t/RC})``
    is no answer for ``q(t) = ...``, nor ``q(t) = ...`` for ``\\dot q(t) = ...``, so neither
    renames the other. The parsed names hid it where a subscript or an argument follows the
    mark (``h_ddot_min``, ``q_dot_oft``: :func:`_may_rename` saw two quantities)."""
    return (
        derived_label(pred_label, gold_label, primes=True)
        or derived_label(gold_label, pred_label, primes=True)
        or _derived_variant(pred_label, gold_label)
        or _derived_variant(gold_label, pred_label)
    )


def _derived_variant(label: str, other: str) -> bool:
    """Whether ``label`` is a derivative, change or mean of a name of the same symbol as
    ``other``'s (``\\Delta x_{\\rm opt}`` beside ``x``, ``\\Delta q_{\\rm C}(t)`` beside
    ``q(t)``): a change of a variant of the asked quantity is none of its names, where a
    derivative of another symbol may be (``\\dot v`` for ``a``)."""
    under = underlying_name(label)
    return under is not None and under.split("_")[0] == quantity_key(other).split("_")[0]


# A plain name: a letter or Greek letter with a subscript, perhaps at arguments (x(0)).
# Another plain name for a plain name is another quantity (\\omega for T, v_0 for v, x(0)
# for x); only where one label is compound (\\dot v, \\ddot x, a derivative, a ratio) may
# the other rename it (``a = g/7`` for ``\\dot v = g/7``).
_PLAIN_NAME = re.compile(
    r"^\s*(?:[A-Za-z]|\\[A-Za-z]+)\s*(?:_\s*(?:\{[^{}]*\}|[A-Za-z0-9]|\\[A-Za-z]+))?"
    r"\s*(?:\([^()]*\))?\s*$"
)


# The marks that make a name another order, change or form of one quantity: x_dot, x_ddot,
# v_Dt (dv/dt), Delta_U, a_mean (\\bar a), a_hat, a_tilde, a_prime
_ORDER_MARKS = re.compile(r"_(?:d+ot|D[A-Za-z]+|mean|hat|tilde|(?:prime)+)$|^(?:Delta|delta)_")


def _quantity(symbol: Any) -> str:
    return _ORDER_MARKS.sub("", canonical_name(symbol))


# A plain name and the derivatives that are one quantity with it by the usual convention: a
# velocity is the first derivative of a position, an acceleration the second (or the
# velocity's first); likewise for angles. (plain name, quantities differentiated, order).
# Not r: a radius's rate is no speed (in circular motion r is constant while v = \\omega r),
# so \\dot r = \\omega r is no answer for v = \\omega r.
_POSITIONS = frozenset("xyzs")
_ANGLES = frozenset({"theta", "phi", "varphi"})
_KINEMATIC: tuple[tuple[str, frozenset[str], int], ...] = (
    ("v", _POSITIONS, 1),
    ("a", _POSITIONS, 2),
    ("a", frozenset({"v"}), 1),
    ("omega", _ANGLES, 1),
    ("alpha", _ANGLES, 2),
    ("alpha", frozenset({"omega"}), 1),
)
_KINEMATIC_NAMES = frozenset(plain for plain, _, _ in _KINEMATIC)
# Quantities whose derivatives and changes are kinematic: such a name is only ever the plain
# name of the table (\\ddot x is no force, \\dot a no velocity, \\dot r no speed).
_KINEMATIC_QUANTITIES = _POSITIONS | _ANGLES | {"r", *_KINEMATIC_NAMES}
# A rate's derivative is the plain name whatever position the gold writes (\\dot v is a in
# a = -\\omega^2 x); only a position's derivative must be of the position written.
_RATES = frozenset({"v", "omega"})
_AXES = frozenset("xyz")
# Newton's dots (x_dot, x_ddot, x_dddot) and Leibniz's d/dt (x_Dt, x_Dtt) as parsed.
_ORDER_MARK = re.compile(r"^(?:(?P<dots>d{1,3})ot|D(?P<ts>t{1,3}))$")
_PRIMED = re.compile(r"^(?P<sub>.*?)(?P<primes>(?:prime)+)$")


@dataclass(frozen=True, slots=True)
class _Derivative:
    """A label read as a derivative or change of a quantity: ``\\ddot x_1`` is (x, 1, 2)."""

    base: str
    subscript: str
    order: int  # 0 for a change (\\Delta v), -1 where unknown
    change: bool

    @property
    def quantity(self) -> str:
        return f"{self.base}_{self.subscript}" if self.subscript else self.base


def _derivative(name: str) -> _Derivative | None:
    """The derivative or change a parsed name is (``x_ddot``, ``x_primeprime``, ``x_Dt``,
    ``Delta_v``), else None. Each dot, prime or d/dt adds one order; a name with both dots and
    primes (``v_dot_prime``) has no known order (-1), so it is no kinematic name."""
    tokens = name.split("_")
    change = tokens[0] in ("Delta", "delta")
    tokens = tokens[1:] if change else tokens
    if not tokens or not tokens[0]:
        return None
    dots, primes, subscript = 0, 0, []
    for token in tokens[1:]:
        mark = _ORDER_MARK.match(token)
        if mark is not None:
            dots += len(mark.group("dots") or mark.group("ts") or "")
            continue
        primed = _PRIMED.match(token)
        if primed is not None:
            primes += primed.group("primes").count("prime")
            token = primed.group("sub")
        if token:
            subscript.append(token)
    if dots + primes == 0 and not change:
        return None
    # dots and primes together (\\dot x'): the prime may name a frame's coordinate (x' of a
    # moving frame, whose rate \\dot x' is a velocity), so the order is unknown
    order = -1 if dots and primes else dots + primes
    return _Derivative(tokens[0], "_".join(subscript), order, change)


def _of_the_written_position(
    derivative: _Derivative, positions: frozenset[str], gold_right: Any
) -> bool:
    """Whether ``derivative`` (``y_ddot``) is of the position the gold's right side writes,
    where it writes one: ``\\ddot y = -\\omega^2 x`` is no answer for ``a = -\\omega^2 x``. A
    right side that writes no position of the table (``a = g/7``) leaves the position free."""
    written = {
        canonical_name(s)
        for s in gold_right.free_symbols
        if canonical_name(s).partition("_")[0] in positions
    }
    return not written or derivative.quantity in written


def _is_kinematic_name(plain: str, derivative: _Derivative, gold_right: Any) -> bool:
    """Whether ``derivative`` is the plain name ``plain`` (``a``, ``v_x``, ``\\omega_1``) by
    the convention of :data:`_KINEMATIC`, of the right order and quantity: a first derivative
    of a position is v, a second one a (``\\ddot x``, ``x''``, ``\\frac{d^2x}{dt^2}``), a
    first derivative of v is a; likewise omega and alpha. The subscript must agree
    (``\\dot x_1`` for ``v_1``, ``\\dot v_y`` for ``a_y``), an axis names the position
    (``\\dot x`` for ``v_x``), and a position must be the one the gold writes, if any. A
    change (``\\Delta v``) is no rate, and any other order or quantity (``\\ddot v``, ``s'``
    and ``\\dot p`` for a; ``x''`` and ``\\theta'`` for v) is another quantity."""
    base, _, sub = plain.partition("_")
    if derivative.change:
        return False
    for name, quantities, order in _KINEMATIC:
        if name != base or derivative.base not in quantities or derivative.order != order:
            continue
        if derivative.base in _RATES:
            return derivative.subscript == sub
        if sub in _AXES and quantities is _POSITIONS:
            return not derivative.subscript and derivative.base == sub
        if derivative.subscript != sub:
            return False
        return _of_the_written_position(derivative, quantities, gold_right)
    return False


def _kinematic_label(plain: str, compound: str, gold_right: Any) -> bool | None:
    """For a plain name and a compound label (parsed names): whether they are one quantity by
    the kinematic convention (:func:`_is_kinematic_name`), or None where the convention says
    nothing: the compound label is no derivative or change, or neither name is kinematic
    (``\\dot p`` for F, ``\\dot q`` for I are left to :func:`_may_rename`)."""
    derivative = _derivative(compound)
    if derivative is None:
        return None
    if plain.partition("_")[0] not in _KINEMATIC_NAMES and (
        derivative.base not in _KINEMATIC_QUANTITIES
    ):
        return None
    return _is_kinematic_name(plain, derivative, gold_right)


def _read_kinematic_name(pred: tuple[Any, Any], gold: tuple[Any, Any]) -> tuple[Any, Any]:
    """The prediction's derivative read as the gold's plain name, by the convention of
    :data:`_KINEMATIC`: ``\\ddot x + \\omega^2 x = 0`` for ``a = -\\omega^2 x``. Only where
    the gold's left side is that plain name and the prediction never writes it, the derivative
    is that name (:func:`_is_kinematic_name`: of the right order, of the position the gold
    writes if any) and the gold does not write it, and the prediction has just one such
    derivative; otherwise ``pred`` is returned as it is."""
    import sympy

    if not gold[0].is_Symbol:
        return pred
    plain = canonical_name(gold[0])
    pred_names = {canonical_name(s): s for s in sympy.Tuple(*pred).free_symbols}
    gold_names = {canonical_name(s) for s in sympy.Tuple(*gold).free_symbols}
    if plain in pred_names:
        return pred
    gold_right = sympy.Tuple(*(s for s in gold[1:]))
    derivatives = [
        symbol
        for name, symbol in pred_names.items()
        if name not in gold_names
        and (derivative := _derivative(name)) is not None
        and _is_kinematic_name(plain, derivative, gold_right)
    ]
    if len(derivatives) != 1:
        return pred  # \\ddot y + \\omega^2 y = 0 for a = -\\omega^2 x: another position
    lhs, rhs = (side.xreplace({derivatives[0]: gold[0]}) for side in pred)
    return lhs, rhs


def _kinematic_rename(
    pred_plain: bool, pred: tuple[Any, Any], gold: tuple[Any, Any]
) -> bool | None:
    """The kinematic convention (:func:`_kinematic_label`) for two labels of one symbol each,
    one plain (``pred_plain``: the prediction's), or None where it says nothing."""
    pred_names = [canonical_name(s) for s in pred[0].free_symbols]
    gold_names = [canonical_name(s) for s in gold[0].free_symbols]
    if len(pred_names) != 1 or len(gold_names) != 1:
        return None
    plain, compound = (pred_names[0], gold_names[0])[:: 1 if pred_plain else -1]
    return _kinematic_label(plain, compound, gold[1])


# a label that marks an extreme of a quantity: h_{\min}, v_{\rm max}, T_{\text{max}}
_EXTREMUM_LABEL = re.compile(
    r"^\s*(?P<base>\\?[A-Za-z]+)\s*_\s*\{?\s*(?:\\(?:rm|mathrm|text|textrm)\s*\{?\s*|\\)?"
    r"(?:min|max)\s*\}?\s*\}?\s*$"
)


def _extremum_named_bare(pred_label: str, gold_label: str) -> bool:
    """``h = \\frac{27}{10}R`` for ``h_{\\min} = \\frac{27}{10}R``: the quantity's bare name
    for its extreme, which the question asks for; the right sides must still agree (another
    extreme, ``h_{\\max}``, is :func:`contradicting_labels`'s)."""
    match = _EXTREMUM_LABEL.match(gold_label)
    return match is not None and pred_label.strip() == match.group("base")


def _may_rename(
    pred_label: str, gold_label: str, pred: tuple[Any, Any], gold: tuple[Any, Any]
) -> bool:
    """Whether the prediction's left side may rename the gold's (``a = g/7`` for ``\\dot v =
    g/7``): only a plain name for a compound label, or the reverse, and only of another
    quantity than any the equations are about. Two compound labels are two quantities
    (``\\Delta U`` and ``\\Delta K``, ``\\vec E`` and ``\\vec F``); another order of the same
    quantity (``\\dot x`` for ``\\ddot x``, ``\\dot a`` for ``a``) is another equation; a
    label whose quantity the right sides use (``\\ddot x = -\\omega^2 x``) is no free name.
    A derivative or change beside a kinematic name, or of a kinematic quantity, renames only
    by the kinematic convention (:func:`_kinematic_label`: ``\\ddot v``, ``y''`` or ``\\dot p``
    for a, ``\\ddot x`` for F are other quantities)."""
    plain = [_PLAIN_NAME.match(label) is not None for label in (pred_label, gold_label)]
    if plain.count(True) != 1:
        return False
    kinematic = _kinematic_rename(plain[0], pred, gold)
    if kinematic is not None:
        return kinematic  # a for \\ddot x: one quantity in two notations
    pred_names = {_quantity(s) for s in pred[0].free_symbols}
    gold_names = {_quantity(s) for s in gold[0].free_symbols}
    right = {canonical_name(s) for s in pred[1].free_symbols | gold[1].free_symbols}
    labels = {canonical_name(s) for s in pred[0].free_symbols | gold[0].free_symbols}
    return not (pred_names & gold_names) and not (labels | pred_names | gold_names) & right


def _read_sides(pred: tuple[Any, Any], gold: tuple[Any, Any]) -> tuple[Any, Any]:
    """Both equations' sides with definitions and derivative notations read, as for their
    differences (:func:`substitute_definitions` decides from the symbols of both)."""
    import sympy

    return substitute_definitions(sympy.Tuple(*pred), sympy.Tuple(*gold))


SOLVE_OPS_LIMIT = 120  # larger equations are not solved (sympy's solve may stall)
FACTOR_OPS_LIMIT = 60  # larger sums are not factored when looking for a hedging factor
MAX_ASKED = 4  # at most this many candidate quantities are solved for
# a power of a quantity above this degree is not solved or factored: x^{399} - a^{399} took
# sympy's factor minutes, and no physics answer is an equation of such a degree
MAX_DEGREE = 12


def _intractable(expr: Any, name: str = "") -> bool:
    """Whether solving ``expr = 0`` (for the symbol called ``name``; any symbol if empty) has
    no time bound in sympy: a power of it above :data:`MAX_DEGREE`, or the quantity inside two
    different transcendental functions (``e^h + \\sin h = c``: sympy's ``_tsolve`` tries
    hundreds of factorisations and has no closed form to find)."""
    import sympy

    def asked(node: Any) -> bool:
        return any(not name or canonical_name(s) == name for s in node.free_symbols)

    for power in expr.atoms(sympy.Pow):
        exponent = power.exp
        if exponent.is_Number and abs(exponent) > MAX_DEGREE and asked(power.base):
            return True
    families = {
        _FAMILY.get(call.func.__name__, call.func.__name__)
        for call in expr.atoms(sympy.Function)
        if not isinstance(call, sympy.core.function.AppliedUndef) and asked(call)
    }
    families |= {
        "exp" for power in expr.atoms(sympy.Pow) if power.exp.free_symbols and asked(power.exp)
    }
    return len(families) > 1


# functions sympy's solve rewrites into one another: one family of generators
_FAMILY = {
    **dict.fromkeys(("sin", "cos", "tan", "cot", "sec", "csc"), "trig"),
    **dict.fromkeys(("exp", "sinh", "cosh", "tanh", "coth", "sech", "csch"), "exp"),
}


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
    if _intractable(pred_d) or _intractable(gold_d):
        return False  # undecided: never shown the same
    extra = new_symbols(pred_d, gold_d)
    if extra and free_of(pred_d, extra, seed):  # they cancel: any value will do
        pred_d = sympy.simplify(pred_d.xreplace(dict.fromkeys(extra, sympy.Integer(1))))
    elif extra and not _only_common_factors(pred_d, gold_d):
        return False
    magnitude = not gold[0].is_Symbol  # a factor of a product on the left (PV, m dv/dt)
    asked_all = _asked_quantities(gold[0], gold_d)
    if not gold[0].is_Symbol and gold[1].is_Symbol and gold[1] not in asked_all:
        # "\\tan\\theta = \\mu_s": the bare right side is solved for as well (one solution,
        # where the left's function has a family: sin = mu cos for theta; red team r27b)
        asked_all.append(gold[1])
    # a quantity the prediction is solved for first (theta = arcsin(lambda/d) for d sin theta =
    # lambda: theta, not d, whose solve through arcsin took 0.2 s)
    in_pred = {canonical_name(s): s for s in pred_d.free_symbols}

    def unsolved(asked: Any) -> bool:
        own = in_pred.get(canonical_name(asked))
        return own is None or _linear_in(pred_d, own, "") is None

    asked_all.sort(key=unsolved)
    if _scaled_by_magnitudes(pred_d, gold_d, {canonical_name(s) for s in asked_all}):
        return True
    rel = relative_tolerance(pred_d, gold_d, tolerance)
    for asked in asked_all[:MAX_ASKED]:
        name = canonical_name(asked)
        target = next((s for s in pred_d.free_symbols if canonical_name(s) == name), None)

        # (v - \\sqrt{2gh})(h - 1) = 0 also holds at h = 1, whatever v is: such a hedge
        # rejects before anything can accept; being costly (a factorisation), it is looked
        # for after the cheap rejections and before any acceptance or next quantity
        def hedged(target: Any = target, name: str = name) -> bool:
            return target is not None and _hedging_factor(pred_d, name)

        branch = _principal_branch(pred_d, gold_d, name) if target is not None else None
        if branch is None and _periodic_in(name, pred_d, gold_d):
            return False  # solve lists one solution of tan's family: tan x = tan a, x = a
        if branch is not None:
            if hedged():
                return False
            decided = _principal_by_linear_forms(pred_d, gold_d, name, branch, tolerance, seed)
            if decided is not None:
                return decided
        bare = asked is gold[1] and gold[1].is_Symbol  # the right side: it may be 0
        from_gold = _solutions(gold_d, name, magnitude and not bare)
        if from_gold is None:
            if hedged():
                return False
            continue
        if target is None:
            return False
        # necessary, and cheap: the prediction holds at every solution of the gold (on the
        # principal branch, only at the gold's solution on it: see _principal_branch)
        if branch is None and not _holds_at(pred_d, target, from_gold, rel, seed):
            return False
        if branch is None and hedged():
            return False
        from_pred = _solutions(pred_d, name, magnitude and not bare)
        if from_pred is None:
            continue
        # one quantity decides: the same solutions for it, at every value of the others,
        # is the same relation between all of them
        if _covered(from_pred, from_gold, tolerance, seed) and _covered(
            from_gold, from_pred, tolerance, seed
        ):
            return True
        return branch is not None and _same_principal_solution(
            from_pred, from_gold, branch[1], tolerance, seed
        )
    return False


def _scaled_by_magnitudes(pred_d: Any, gold_d: Any, asked: set[str]) -> bool:
    """Whether ``pred_d`` is ``gold_d`` times a product of powers of magnitudes other than the
    asked quantities (``g = \\omega^2R\\cos\\theta_0`` for ``\\cos\\theta_0 =
    g/(\\omega^2R)``): both sides multiplied by a non-zero magnitude, so every solution set
    is the same, with no need to solve (sympy's solve took 0.1-0.3 s on such trigonometric
    equations). ``cancel`` reduces the ratio, functions taken as opaque; bounded in size."""
    import sympy

    if sympy.count_ops(pred_d) + sympy.count_ops(gold_d) > SOLVE_OPS_LIMIT:
        return False
    try:
        ratio = sympy.cancel(sympy.together(pred_d / gold_d))
    except Exception:  # sympy's own failures decide nothing
        return False
    for factor in sympy.Mul.make_args(ratio):
        if factor.is_Number:
            if factor == 0 or not factor.is_finite:
                return False
            continue
        base = factor.base if factor.is_Pow and factor.exp.is_Rational else factor
        if not base.is_Symbol or canonical_name(base) in asked:
            return False
    return True


def _hedging_factor(expr: Any, name: str) -> bool:
    """Whether ``expr`` has a factor free of the asked quantity that may vanish (``h - 1``):
    the equation then also holds wherever that factor is zero, whatever the asked quantity
    is, and sympy's solve for the quantity drops that factor. A magnitude, or a sum of
    magnitudes (``m_1 + m_2``), is never zero."""
    import sympy

    if sympy.count_ops(expr) > SOLVE_OPS_LIMIT:
        return False
    (positive,) = positive_symbols(expr)
    try:
        factored = sympy.factor_terms(positive)
        if factored.is_Add and sympy.count_ops(factored) <= FACTOR_OPS_LIMIT:
            factored = sympy.factor(factored)
    except Exception:  # sympy's own failures: no factor found
        return False
    for factor in sympy.Mul.make_args(factored):
        if factor.is_Pow and factor.exp.is_negative:
            continue  # a denominator never makes the equation hold
        base = factor.base if factor.is_Pow and factor.exp.is_Rational else factor
        if any(canonical_name(s) == name for s in base.free_symbols) or base.is_positive:
            continue
        if base.free_symbols or base == 0:
            return True
    return False


def _periodic_in(name: str, *exprs: Any) -> bool:
    """The asked quantity inside tan or cot: its solutions repeat every pi, and sympy's solve
    gives one of them (``\\tan x = \\tan a``: only ``x = a``), so the sets are not compared."""
    import sympy

    return any(
        canonical_name(s) == name
        for expr in exprs
        for call in expr.atoms(sympy.tan, sympy.cot)
        for s in call.free_symbols
    )


def _holds_at(pred_d: Any, target: Any, solutions: tuple[Any, ...], rel: Any, seed: str) -> bool:
    """``pred_d`` vanishes at every one of ``solutions`` for ``target``."""
    import sympy

    for solution in solutions:
        # term by term, unevaluated: the size of x - 0.38 at 0.382 is that of its terms
        at = sympy.Add(
            *(t.xreplace({target: solution}) for t in sympy.Add.make_args(pred_d)),
            evaluate=False,
        )
        if vanishes(at, rel, seed) is False:
            return False
    return True


def _principal_branch(pred_d: Any, gold_d: Any, name: str) -> tuple[Any, tuple[Any, Any]] | None:
    """The one inverse trigonometric function and its principal range (arccos: [0, pi],
    arcsin: [-pi/2, pi/2]) that the two equations use, when exactly one kind is used and
    never of the asked quantity; else None.

    The rule (physics convention): ``\\theta_0 = \\arccos\\frac{g}{\\omega^2R}`` is how
    the solution of ``\\cos\\theta_0 = \\frac{g}{\\omega^2R}`` is written, the angle being
    taken on the inverse function's principal branch; by writing the inverse the answer
    fixes that branch. So the two equations are equivalent when the one in inverse form has a
    single solution, on the branch, and it is the only solution of the other equation on the
    branch (:func:`_same_principal_solution`). The other branch (``\\theta = \\pi -
    \\arcsin x`` for ``\\sin\\theta = x``), a wrong argument, a second root (``(\\theta -
    \\arccos x)(\\theta - 5) = 0``) and equations without an inverse function (``\\cos\\theta
    = \\cos\\alpha`` for ``\\theta = \\alpha``) stay different."""
    import sympy

    ranges = {
        sympy.acos: (sympy.Integer(0), sympy.pi),
        sympy.asin: (-sympy.pi / 2, sympy.pi / 2),
        sympy.atan: (-sympy.pi / 2, sympy.pi / 2),
    }
    used = {
        kind
        for expr in (pred_d, gold_d)
        for kind in ranges
        for call in expr.atoms(kind)
        if not any(canonical_name(s) == name for s in call.free_symbols)
    }
    if len(used) != 1:
        return None
    kind = used.pop()
    return kind, ranges[kind]


def _linear_in(expr: Any, atom: Any, name: str) -> tuple[Any, Any] | None:
    """``(A, B)`` with ``expr = A*atom + B``, neither holding the symbol called ``name``
    (A not zero), or None."""
    import sympy

    slot = sympy.Dummy("slot")
    replaced = expr.xreplace({atom: slot})
    if any(canonical_name(s) == name for s in replaced.free_symbols):
        return None
    slope = sympy.diff(replaced, slot)
    if slope == 0 or slope.has(slot):
        return None
    return slope, replaced.xreplace({slot: sympy.Integer(0)})


def _principal_by_linear_forms(
    pred_d: Any,
    gold_d: Any,
    name: str,
    branch: tuple[Any, tuple[Any, Any]],
    tolerance: float,
    seed: str,
) -> bool | None:
    """The principal-branch rule (:func:`_principal_branch`) without sympy's solve, where
    both equations are linear: one in the angle (``\\theta - \\arccos c``: its single
    solution), the other in the angle's cosine (sine for arcsin) with the angle nowhere else
    (``\\omega^2R\\cos\\theta - g``: on arccos's branch, where cos is one-to-one, its only
    solution is ``\\arccos(g/\\omega^2R)``). None when the forms are not these (solve
    decides)."""
    import sympy

    kind, _ = branch
    function = {sympy.acos: sympy.cos, sympy.asin: sympy.sin, sympy.atan: sympy.tan}[kind]
    for single, other in ((pred_d, gold_d), (gold_d, pred_d)):
        angle = next((s for s in single.free_symbols if canonical_name(s) == name), None)
        other_angle = next((s for s in other.free_symbols if canonical_name(s) == name), None)
        if angle is None or other_angle is None:
            return None
        solved = _linear_in(single, angle, name)
        trig = _linear_in(other, function(other_angle), name)
        if solved is None or trig is None:
            continue
        solution = -solved[1] / solved[0]
        on_branch = kind(-trig[1] / trig[0])
        return _same_value(solution, on_branch, tolerance, seed)
    return None


BRANCH_POINTS = 8  # sample points that place a solution on or off the principal branch


def _same_principal_solution(
    from_pred: tuple[Any, ...],
    from_gold: tuple[Any, ...],
    branch: tuple[Any, Any],
    tolerance: float,
    seed: str,
) -> bool:
    """One side has a single solution, on ``branch``, and it is the only solution of the
    other side on the branch (see :func:`_principal_branch`)."""
    for single, other in ((from_pred, from_gold), (from_gold, from_pred)):
        if len(single) != 1 or _on_branch(single[0], branch, seed) is not True:
            continue
        placed = [_on_branch(solution, branch, seed) for solution in other]
        if None in placed:
            return False  # a solution both on and off the branch: undecided
        kept = tuple(s for s, on in zip(other, placed, strict=True) if on)
        return len(kept) == 1 and _same_value(single[0], kept[0], tolerance, seed)
    return False


def _on_branch(solution: Any, branch: tuple[Any, Any], seed: str) -> bool | None:
    """True when ``solution`` is real and within ``branch`` at every sample point where it is
    real (at least two), False when outside at each of them, None when mixed or unknown.
    Placing a value needs no 60 digits: 30 and a margin of 1e-20 (the bounds are exact)."""
    low, high = (float(bound) for bound in branch)
    symbols = sorted(solution.free_symbols, key=lambda s: s.name)
    inside: set[bool] = set()
    for point in sample_points(symbols, seed + "\x00branch", count=BRANCH_POINTS):
        try:
            value = complex(solution.xreplace(point).evalf(30))
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            continue
        if not math.isfinite(value.real) or abs(value.imag) > 1e-20 * max(abs(value.real), 1):
            continue
        inside.add(low - 1e-20 <= value.real <= high + 1e-20)
        if len(inside) > 1:
            return None
    if len(inside) != 1:
        return None
    return inside.pop()


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
    if target is None or _intractable(expr, name):
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
        elif same:  # decimals: each part, not only the whole (x = 1.8e10 y is no 2(x = 9e9 y))
            same = parts_agree(a, b, tolerance, seed, factor=first)
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
