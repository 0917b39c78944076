"""Combining answers: the atomic judger for each answer type, and the selection rules of
the composite ones (several golds matched one to one, TUP positions, ALT candidates).

:func:`judge_answers` is what the verifier calls; it is pure and runs inside the verifier's
worker processes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from studybench.data.answer_types import AnswerType
from studybench.verify.asking import asking_part
from studybench.verify.chains import (
    chain,
    gold_chain,
    label_key,
    names_a_derivative,
    same_label,
)
from studybench.verify.normalize import NAME, normalize_answer, question_math
from studybench.verify.parsing import (
    UnparseableError,
    held_fixed_differs,
    single_variable_totals,
)
from studybench.verify.question import asked_dimension
from studybench.verify.relations import (
    DIRECTION_NAMES,
    MARK_OPEN,
    asked_place,
    is_inequality,
    is_label,
    resolve_unit_annotations,
    split_top,
    strip_remark,
    unmark,
)
from studybench.verify.rules.choice import judge_mc, judge_ql, judge_tf
from studybench.verify.rules.equation import judge_eq
from studybench.verify.rules.expression import judge_ex
from studybench.verify.rules.interval import judge_in
from studybench.verify.rules.matching import match_all
from studybench.verify.rules.numeric_value import judge_nv
from studybench.verify.rules.outcome import Outcome, accept, reject
from studybench.verify.units import same_dimension
from studybench.verify.word_labels import in_asked_order, word_label

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
    question: str | None = None,
) -> Outcome:
    """One normalised predicted answer against one normalised gold answer of an atomic type.

    ``requested``: the units the question asks for (see :mod:`studybench.verify.question`);
    ``question``: its text, whose words a QL answer may use as its subject.
    """
    judger = JUDGERS.get(answer_type)
    if judger is None:
        return reject(f"unsupported_type:{answer_type.value}")
    if pred == gold and answer_type is not AnswerType.TF:  # a TF gold must be a truth value
        return accept("equal")
    if answer_type in (AnswerType.EX, AnswerType.EQ) and _WORDED_CHANGE.search(
        _MARKED.sub(" ", pred)
    ):
        return reject("unparseable:words")  # "= 0 or 7", "= 0 at least": read as symbols,
        # the words multiplied the zero away and the answer was the gold
    if answer_type in (AnswerType.EX, AnswerType.EQ) and held_fixed_differs(pred, gold):
        return reject("held_fixed_variable")  # (\\partial U/\\partial T)_p for …_V
    if MARK_OPEN in pred or MARK_OPEN in gold:  # units set apart after EX/EQ sides
        if answer_type not in (AnswerType.EX, AnswerType.EQ):
            pred, gold = unmark(pred), unmark(gold)
        else:
            resolved = resolve_unit_annotations(pred, gold, requested, asked_dimension(question))
            if isinstance(resolved, str):
                return reject(resolved)
            pred, gold = resolved
    try:
        if answer_type is AnswerType.NV:
            return judge_nv(pred, gold, tolerance, requested, question)
        if answer_type is AnswerType.IN:
            return judge_in(pred, gold, tolerance, requested, question)
        if answer_type is AnswerType.QL and question:
            return judge_ql(pred, gold, tolerance, question)
        if answer_type is AnswerType.MC and question:
            return judge_mc(pred, gold, tolerance, question)
        if answer_type is AnswerType.TF and question:
            return judge_tf(pred, gold, tolerance, question)
        return judger(pred, gold, tolerance)
    except UnparseableError as exc:
        return reject(f"unparseable:{exc.reason}")
    except RecursionError:
        return reject("unparseable:too_deep")


_VALUE_TYPES = frozenset({AnswerType.NV, AnswerType.EX, AnswerType.EQ})
# words left in a formula that offer another value, bound it or scale it: never symbols
_WORDED_CHANGE = re.compile(
    r"(?<![\\A-Za-z])(?:or|and|at\s+(?:least|most)|times|doubled|tripled|squared|cubed|halved"
    r"|thousand|million|twice|thrice|half)(?![A-Za-z])"
)
_MARKED = re.compile("\u27e6[^\u27e7]*\u27e7")  # units set apart: "m per s" is a unit
_OR = re.compile(r"\s+or\s+|\s*\\(?:lor|vee)\s*", re.IGNORECASE)
# several values offered in one box: "1 s, 3 s", "1 s and 3 s", "1 s; 3 s", "\{1 s, 3 s\}"
_LISTED = re.compile(r"\s+and\s+|,|;", re.IGNORECASE)
# a set of values, named (``t \\in \\{1.0, 3.0\\}``) and with one unit after it (``\\{1.0,
# 3.0\\} s``, or marked for an equation: ``\\{0.218, 0.382\\} ⟦m⟧``): each element is
# offered, with the name and the unit
_SET = re.compile(
    r"^(?:(?P<label>[^=\\{}()]{1,20}?)\s*\\in\s*)?"
    r"(?:\\\{(?P<braces>.*)\\\}|\((?P<parens>.*)\))"
    r"(?P<unit>\s*(?:[A-Za-zµΩ°%][\w/^{}\s.\-]{0,20}|⟦[^⟦⟧]{1,20}⟧\s*))?$",
    re.DOTALL,
)
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?$")


def _offered_values(preds: tuple[str, ...], listed: bool = False, math: bool = False) -> list[str]:
    """The distinct final values of an ALT prediction (``2 or 3`` in one box is two).

    ``listed``: a box may also list values (``1 s, 3 s``, ``1 s and 3 s``, a set ``\\{1, 3\\}``):
    each is offered, so each must be an alternative. Not where an alternative is an
    interval or a tuple, which a comma or parentheses belong to. ``math``: the alternatives
    are values, so a remark after one (``t = 1 s (on the way up) and t = 3 s``) is dropped as
    it is after a box (:func:`~studybench.verify.relations.strip_remark`)."""
    values: list[str] = []
    for pred in preds:
        for part in (p.strip() for p in split_top(pred, _OR)):
            pieces = [part]
            if listed and not _THOUSANDS.match(part):
                grouped = _SET.match(part)
                inner = (grouped.group("braces") or grouped.group("parens")) if grouped else part
                pieces = [p.strip() for p in split_top(inner or part, _LISTED)]
                if grouped is not None and len(pieces) > 1:
                    unit, label = (grouped.group(g) or "" for g in ("unit", "label"))
                    pieces = [f"{label.strip()} = {p}" if label.strip() else p for p in pieces]
                    pieces = [f"{p} {unit.strip()}" if unit.strip() else p for p in pieces]
            for piece in pieces:
                piece = strip_remark(piece) if math else piece
                if piece and piece not in values:
                    values.append(piece)
    return values


# a plus-minus sign: \pm, \mp (not \pmb, \pmod, \mpmath) or the glyphs
_PLUS_MINUS = re.compile(r"\\pm(?![A-Za-z])|\\mp(?![A-Za-z])|±|∓")


def _has_plus_minus(text: str) -> bool:
    """Whether ``text`` holds a plus-minus sign (``\\pm``, ``\\mp``, ``±``, ``∓``)."""
    return _PLUS_MINUS.search(text) is not None


# a number, then the sign, then a number: 0.30 \pm 0.08 m, (2.0 \pm 0.1) s
_NUMBER_BEFORE = re.compile(r"(?:^|[=({])\s*[+-]?\d+(?:\.\d*)?\s*$")
_NUMBER_AFTER = re.compile(r"^\s*\.?\d")


def _both_signs(value: str) -> list[str]:
    """``x = \\pm 2`` as the two values it stands for, ``x = +2`` and ``x = -2``
    (``\\mp``: ``-`` first): an ALT answer that writes both roots with one sign offers both,
    so each must be an alternative, as if boxed apart. Only a value with exactly one sign:
    with two (``\\pm a \\pm b``) the signs may be tied or free, which the text does not
    say. Nor a number plus-minus a number (``x = 0.30 \\pm 0.08\\,m``): that is how a
    measurement's uncertainty is written, one value (0.30 m) with an error bar, and that
    reading is as likely as two roots. Those values stay as written (and unread)."""
    signs = list(_PLUS_MINUS.finditer(value))
    if len(signs) != 1:
        return [value]
    sign = signs[0]
    head, tail = value[: sign.start()], value[sign.end() :]
    if _NUMBER_BEFORE.search(head) and _NUMBER_AFTER.match(tail):
        return [value]
    minus_first = sign.group() in (r"\mp", "∓")
    return [f"{head}{first}{tail}" for first in (("-", "+") if minus_first else ("+", "-"))]


def _signed(values: list[str], signs: bool) -> list[str]:
    """``values`` with each one of one plus-minus sign read as its two values (``signs``:
    where that reading applies, see :func:`judge_alternatives`)."""
    return [each for value in values for each in (_both_signs(value) if signs else [value])]


Claims = tuple[frozenset[str], ...]


def _remark_conflict(pred: frozenset[str], gold: frozenset[str]) -> str | None:
    """Why a value's remark cannot be an alternative's: it claims what the alternative's
    remark does not (``to the right`` for ``to the left``); None where the alternative's
    remark claims nothing (nothing can be checked) or the claims fit."""
    extra = pred - gold
    if not gold or not extra:
        return None
    return "wrong_direction" if extra <= DIRECTION_NAMES else "wrong_remark"


def judge_alternatives(
    preds: tuple[str, ...],
    golds: tuple[str, ...],
    type_sequence: tuple[AnswerType, ...],
    tolerance: float,
    requested: tuple[Any, ...] = (),
    question: str | None = None,
    claims: tuple[Claims, Claims] | None = None,
) -> Outcome:
    """ALT: one alternative suffices, but every value offered must be one of them.

    Boxing several guesses (``\\boxed{2} \\boxed{3}`` for "1 s or 3 s") is wrong; boxing
    several of the listed alternatives (both roots of a quadratic) is right. Where one
    alternative is an interval, an inequality is compared with the intervals only: read as a
    bound's value, ``x < 2`` matched the alternative ``2`` of ``[2, \\infty)`` or ``2``. A
    value labelled as another alternative (``x_2 = 1`` where ``x_1 = 1``) is not that one.
    ``claims``: what each predicted box's remark and each gold alternative's remark claim
    (:func:`~studybench.verify.relations.remark_claims`); a value is an alternative only with
    that alternative's remark (``3.2 m/s to the right`` is not ``3.2 m/s to the left`` because
    another alternative points right). A value of one plus-minus sign (``x = \\pm 2``) offers
    its two values (:func:`_both_signs`), unless an alternative is written with the sign.
    """
    matched: str | None = None
    last = "wrong_value"
    intervals = AnswerType.IN in type_sequence
    labels = [gold_chain(g).label for g in golds]
    listed = not intervals and AnswerType.TUP not in type_sequence
    math = all(kind in _VALUE_TYPES for kind in type_sequence)
    pred_claims, gold_claims = claims if claims is not None else ((), ())
    if len(pred_claims) != len(preds) or len(gold_claims) != len(golds):
        pred_claims, gold_claims = (frozenset(),) * len(preds), (frozenset(),) * len(golds)
    # x = \pm 2 is two values, unless an alternative is itself written with the sign
    signs = math and not any(_has_plus_minus(g) for g in golds)
    last_box = _offered_values(preds[-1:], listed, math)
    if len(preds) > 1 and len(_signed(last_box, signs)) >= len(golds):
        # the last box offers as many values as there are alternatives: it is the final
        # answer, and a box before it an intermediate result (as for every other type, where
        # only the last box counts); it must still hold alternatives only
        preds, pred_claims = preds[-1:], pred_claims[-1:]
    offered: list[tuple[str, frozenset[str]]] = []
    for box, box_claims in zip(preds, pred_claims, strict=True):
        values = _offered_values((box,), listed, math)
        # a box of several values: its remarks are not paired with them (left unchecked);
        # both values of one \pm keep the box's remark, which is said of each
        own = box_claims if len(values) == 1 else frozenset()
        offered.extend((value, own) for value in _signed(values, signs))
    seen: set[tuple[str, frozenset[str]]] = set()
    numbered: set[int] = set()  # the alternatives that a numbered root (x_1 = ...) matched
    for value, box_claims in offered:
        if (value, box_claims) in seen:
            continue
        seen.add((value, box_claims))
        unnumbered = _indexed_alternative(value, labels)
        is_numbered, value = unnumbered != value, unnumbered
        hit = None
        conflicted: str | None = None
        for index, (g, kind) in enumerate(zip(golds, type_sequence, strict=True)):
            if intervals and kind is AnswerType.NV and is_inequality(value):
                continue  # beside an interval alternative, x < 2 is a set, not the value 2
            if _names_another(value, index, labels):
                last = "wrong_label"
                continue
            conflict = _remark_conflict(box_claims, gold_claims[index])
            if conflict is not None and kind in _VALUE_TYPES:
                conflicted = conflicted or conflict  # the value with another one's remark
                continue
            outcome = judge_atom(value, g, kind, tolerance, requested, question)
            if outcome.correct and kind is not AnswerType.NV:
                stray = _stray_number(value, golds, type_sequence, tolerance, requested)
                if stray is not None:
                    return reject(stray)
            if outcome.correct:
                if is_numbered and index in numbered:
                    # x_1 and x_2 both the same root: the answer says the roots are equal
                    return reject("repeated_root")
                numbered |= {index} if is_numbered else set()
                hit = outcome
                break
            last = outcome.reason
        if hit is None:
            last = conflicted or last
            return reject("extra_guess" if matched or len(preds) > 1 else last)
        matched = matched or hit.reason
    return accept(f"alternative:{matched}") if matched else reject(last)


# x_1, x_{12}: a root's number; x_0 names the initial or given value, another quantity
_INDEX = re.compile(r"^_(?:[1-9]\d?)$")


def _indexed_alternative(value: str, labels: list[str | None]) -> str:
    """``x_1 = 0.382\\,m`` where every alternative is ``x = …``: the roots of one quantity
    numbered, so the index names an alternative, not another quantity; the value is read
    with the alternatives' label. Only a plain label and a numeric index (``x_2``,
    ``x_{2}``); ``x_{\\max}`` or ``v_x`` name other quantities."""
    shared = labels[0] if labels else None
    if shared is None and labels and all(label is None for label in labels):
        return _numbered_root(value)
    if shared is None or not all(same_label(shared, other) for other in labels):
        return value
    key = label_key(shared)
    sides = chain(value)
    if len(sides) < 2 or "_" in key or not key:
        return value
    name = label_key(sides[0])
    if not name.startswith(key) or _INDEX.match(name[len(key) :]) is None:
        return value
    return " = ".join([shared, *sides[1:]])


_NUMBERED_NAME = re.compile(r"^[^_]+_(?:[1-9]\d?)$")


def _numbered_root(value: str) -> str:
    """``t_1 = 1.0\\,s`` beside unlabelled alternatives: a numbered root, read as its value
    (so two numbered roots at one alternative are a repeated root); else unchanged."""
    sides = chain(value)
    if len(sides) != 2 or _NUMBERED_NAME.match(label_key(sides[0])) is None:
        return value
    return sides[1]


def _stray_number(
    value: str,
    golds: tuple[str, ...],
    type_sequence: tuple[AnswerType, ...],
    tolerance: float,
    requested: tuple[Any, ...],
) -> str | None:
    """Why a chain that matched a symbolic alternative states a wrong number: beside a
    symbolic gold a written number is the data plugged in and skipped, but where another
    alternative is that number (``\\sqrt{2h/g}`` or ``0.45\\,s``), a side stating a number
    (``t = \\sqrt{2h/g} = 0.90\\,s``) claims it and must be one of the numeric alternatives."""
    from studybench.verify.parsing import parse_quantity

    numeric = [g for g, kind in zip(golds, type_sequence, strict=True) if kind is AnswerType.NV]
    sides = chain(value)
    if not numeric or len(sides) < 2:
        return None
    for position, side in enumerate(sides):
        try:
            parse_quantity(side)
        except (UnparseableError, RecursionError):
            continue  # no written number: the symbolic side, or a label
        if not any(judge_nv(side, g, tolerance, requested).correct for g in numeric):
            return f"chain_link_{position}:wrong_value"
    return None


def _label(pred: str, labels: list[str | None]) -> str | None:
    """The name a predicted element gives itself (``x`` of ``x = 2``), if any."""
    sides = chain(pred)
    if len(sides) < 2:
        return None
    for side in (sides[0], sides[-1]):  # a name in first place, else in last (2 m = y)
        if is_label(side) or any(g is not None and same_label(side, g) for g in labels):
            return side
    return None


def _names(pred: str) -> list[str]:
    """Every side of ``pred`` that only names a quantity (``x = y = 2``: x and y)."""
    sides = chain(pred)
    return [s for s in sides if is_label(s)] if len(sides) > 1 else []


def _names_another(pred: str, position: int, labels: list[str | None]) -> bool:
    """Whether ``pred`` is labelled as another gold element or alternative than the one at
    ``position`` (``y = 2`` where the gold says ``x = 2, y = 3``): its value is then a claim
    about the other quantity, whatever it equals."""
    own = labels[position]
    if own is None:
        return False  # an unlabelled gold form (``\\sqrt{2gh}`` beside ``v = \\sqrt{2gh}``)
    names = [n for n in _names(pred) if not same_label(n, own)]
    return any(
        other is not None
        and index != position
        and (same_label(name, other) or _same_member(name, other, own))
        for name in names
        for index, other in enumerate(labels)
    )


def _same_member(name: str, other: str, own: str) -> bool:
    """``u_B`` beside the gold's ``v_A`` (here) and ``v_B`` (elsewhere): the subscript names
    the member of the other element, whatever the letter before it."""
    sub = label_key(name).partition("_")[2]
    return (
        bool(sub) and sub == label_key(other).partition("_")[2] != label_key(own).partition("_")[2]
    )


# A member of a numbered family: v_1, v_{2}, v_2' (the primes name another family: v_1' is
# the final v_1); x_{max} or v_A are no numbering.
# a state after the number names another family too (v_{1f}, v_{2,\text{final}}: the final
# velocities; red team r26a)
_NUMBERED = re.compile(
    r"^(?P<base>[^_]+)_(?P<index>\d{1,2})(?:,?(?P<state>f|i|final|initial))?"
    r"(?P<primes>'*|\^\\prime)$"
)


def _numbered(label: str) -> tuple[str, int] | None:
    """``v_2'`` -> (``v'``, 2), ``v_{2f}`` -> (``vf``, 2): the family and the number of a
    numbered label, else None."""
    match = _NUMBERED.match(label_key(label))
    if match is None:
        return None
    state = (match.group("state") or "")[:1]
    primes = "'" if match.group("primes") == "^\\prime" else match.group("primes")
    return match.group("base") + state + primes, int(match.group("index"))


def _element_labels_problem(preds: tuple[str, ...], labels: list[str | None]) -> str | None:
    """Why the labels a TUP prediction gives its elements cannot all be right, or None.

    A label is a claim about the element's value: ``v_2 = X`` says X is v_2. Where the gold
    names its elements, a label of another element is caught by :func:`_names_another`; where
    it does not, the prediction's labels must still be consistent with each other and with the
    order of the elements: two elements under one name (``v_1 = X, v_1 = Y``) claim two values
    for one quantity (``duplicate_label``); one element naming two members of a numbered
    family (``v_1 = X = v_2``) claims both are X (``element_k:wrong_label``); and the members
    of a numbered family named in another order than the elements' (``v_2 = X, v_1 = Y``, or
    ``X = v_2, Y = v_1``) put each value under the other's name, since the gold lists v_1
    before v_2 (``swapped_labels``). Positions the gold labels itself are left to the gold's
    labels."""
    named: list[tuple[int, str]] = []
    for position, pred in enumerate(preds):
        if labels[position] is not None:
            continue
        name = _label(pred, labels)
        if name is not None:
            named.append((position, name))
        sides = chain(pred)
        ends = [_numbered(side) for side in (sides[0], sides[-1]) if is_label(side)]
        families = [member for member in ends if member is not None]
        if len(sides) > 2 and len(families) == 2:
            (first, one), (last, other) = families
            if first == last and one != other:
                return f"element_{position}:wrong_label"
    keys = [label_key(name) for _, name in named]
    if len(set(keys)) != len(keys):
        return "duplicate_label"
    numbers: dict[str, list[int]] = {}
    for _, name in named:
        member = _numbered(name)
        if member is not None:
            numbers.setdefault(member[0], []).append(member[1])
    if any(indices != sorted(indices) for indices in numbers.values()):
        return "swapped_labels"
    return None


def _asked_order_problem(
    preds: tuple[str, ...], labels: list[str | None], question: str | None
) -> str | None:
    """``swapped_labels`` where every element of a TUP prediction is labelled with a name
    the question writes, and the names come in another order than the question's: the gold,
    which labels nothing, lists the values in the order asked ("Find $T_B$, $T_C$ and $T_D$":
    ``T_C = 2T_0, T_B = 4T_0, …`` puts each value under the other's name). Where the gold
    labels its elements, or a name is not the question's, the labels are left to the rest."""
    if not question or any(label is not None for label in labels):
        return None
    named = [_label(pred, labels) for pred in preds]
    if any(name is None for name in named):
        return None
    first: dict[str, int] = {}
    for token in NAME.finditer(question_math(question)):
        first.setdefault(label_key(token.group(0)), token.start())
    places = [first.get(label_key(name)) for name in named if name is not None]
    if len(set(map(label_key, filter(None, named)))) != len(named) or None in places:
        return None
    return "swapped_labels" if places != sorted(places) else None  # type: ignore[type-var]


def _family_place_problem(
    preds: tuple[str, ...], labels: list[str | None], question: str | None
) -> str | None:
    """``element_<i>:wrong_label`` where the gold labels nothing and an element names a
    member of a numbered family that the question lists with as many members as the tuple
    has elements, in another place than the question's: "(u_1, v_1) = (-1.0, 2.0)" puts 2.0
    under v_1, the first of the asked v_1 and v_2 (red team r25a: the order was checked
    only where every element's name was the question's). Read in the question's math, or
    in its words where it writes none."""
    if not question or any(label is not None for label in labels):
        return None
    asked, written = _families(asking_part(question)), _families(question)
    for position, pred in enumerate(preds):
        name = _label(pred, labels)
        member = _numbered(name) if name is not None else None
        if member is None:
            continue
        # the members the asking part names where they are the tuple's count ("given v_1,
        # v_2, v_3 … find v_2 and v_3"), else the question's
        order = asked.get(member[0], [])
        if len(order) != len(preds):
            order = written.get(member[0], [])
        if len(order) != len(preds) or member[1] not in order:
            continue
        if order.index(member[1]) != position:
            return f"element_{position}:wrong_label"
    return None


def _families(text: str) -> dict[str, list[int]]:
    """The numbered families ``text`` writes (in its math, or its words where it writes
    none), each with its members' numbers in the order written."""
    families: dict[str, list[int]] = {}
    for token in NAME.finditer(question_math(text) or text):
        member = _numbered(token.group(0))
        if member is not None and member[1] not in families.setdefault(member[0], []):
            families[member[0]].append(member[1])
    return families


def _unasked_name_problem(
    preds: tuple[str, ...], labels: list[str | None], question: str | None
) -> str | None:
    """``element_<i>:wrong_label`` where the gold labels nothing and an element names a
    quantity the question does not ask for (red team r19a): the derivative, change or mean of
    an asked one (``\\dot T_C = 4T_0`` beside "Find $T_B$, $T_C$ and $T_D$"), or another
    member of the asked family (``T_A``: state A's temperature, which the question gives). A
    family written in other subscripts (``T_2, T_3, T_4``) is another spelling: left alone."""
    if not question or any(label is not None for label in labels):
        return None
    asked = [m.group(0) for m in NAME.finditer(question_math(asking_part(question)))]
    keys = {label_key(name) for name in asked}
    for position, pred in enumerate(preds):
        name = _label(pred, labels)
        if name is None:
            continue
        if any(names_a_derivative(name, other) for other in asked):
            return f"element_{position}:wrong_label"
        key = label_key(name)
        base, _, subscript = key.partition("_")
        family = {
            other
            for other in keys
            if other.partition("_")[0] == base
            and _subscript_kind(other.partition("_")[2]) == _subscript_kind(subscript)
        }
        if subscript and key not in keys and len(family) >= 2:
            return f"element_{position}:wrong_label"
    return None


def _subscript_kind(subscript: str) -> str:
    """What a family's subscripts are written in: digits (``T_2``), letters (``T_B``) or
    else; ``T_2`` for ``T_B`` is a renumbering, not another member."""
    text = subscript.strip("{}")
    return "digit" if text.isdigit() else "letter" if text.isalpha() else "other"


def _by_asked_words(
    preds: tuple[str, ...], labels: list[str | None], question: str | None
) -> tuple[str, ...]:
    """A tuple whose every element is labelled in words the question asks about
    (``\\text{work} = 800\\,J, \\text{efficiency} = 0.40``), in the order the question asks
    them, which is the order of an unlabelled gold; else as given. So the labels are claims:
    ``work = 0.40, efficiency = 800 J`` puts 800 J in the efficiency's place."""
    if any(label is not None for label in labels):
        return preds
    names = [word_label(pred) for pred in preds]
    if any(name is None for name in names):
        return preds
    order = in_asked_order([name for name in names if name is not None], question)
    return preds if order is None else tuple(preds[i] for i in order)


def _by_label(preds: tuple[str, ...], labels: list[str | None]) -> tuple[str, ...]:
    """A tuple whose every element is labelled with the gold's labels, in another order
    (``y = 3, x = 2`` for ``x = 2, y = 3``), in the gold's order; else as given."""
    known = [label for label in labels if label is not None]
    if len(known) != len(labels):
        return preds
    names = [_label(p, labels) for p in preds]
    order = []
    for label in known:
        hits = [i for i, name in enumerate(names) if name is not None and same_label(name, label)]
        if len(hits) != 1:
            return preds
        order.append(hits[0])
    return tuple(preds[i] for i in order) if len(set(order)) == len(preds) else preds


def judge_answers(
    preds: tuple[str, ...],
    golds: tuple[str, ...],
    answer_type: AnswerType,
    type_sequence: tuple[AnswerType, ...],
    tolerance: float,
    requested: tuple[Any, ...] = (),
    question: str | None = None,
    claims: tuple[Claims, Claims] | None = None,
) -> Outcome:
    """Selected, normalised predictions against normalised golds, by answer type;
    ``claims``: what the remarks of each predicted and gold box claim (ALT pairs them)."""
    if not preds:
        return reject("no_answer")
    if not golds:
        return reject("gold_empty")
    if answer_type is AnswerType.TUP:
        if len(type_sequence) != len(golds):
            return reject("gold_type_sequence_mismatch")
        if len(preds) != len(golds):
            return reject("wrong_count")
        labels = [gold_chain(g).label for g in golds]
        preds = _by_label(preds, labels)
        preds = _by_asked_words(preds, labels, question)
        problem = (
            _element_labels_problem(preds, labels)
            or _asked_order_problem(preds, labels, question)
            or _family_place_problem(preds, labels, question)
            or _unasked_name_problem(preds, labels, question)
        )
        if problem is not None:
            return reject(problem)
        for position, p in enumerate(preds):
            if _names_another(p, position, labels):
                return reject(f"element_{position}:wrong_label")
        for position, pred in enumerate(preds):
            if labels[position] is None and _unasked_word_label(pred, question):
                return reject(f"element_{position}:unasked_label")
        units = _units_by_position(requested, type_sequence)
        for position, (p, g, kind) in enumerate(zip(preds, golds, type_sequence, strict=True)):
            outcome = judge_atom(p, g, kind, tolerance, units[position], question)
            if not outcome.correct:
                return reject(f"element_{position}:{outcome.reason}")
        return accept("tuple")
    if answer_type is AnswerType.ALT:
        if len(type_sequence) != len(golds):
            return reject("gold_type_sequence_mismatch")
        return judge_alternatives(
            preds, golds, type_sequence, tolerance, requested, question, claims
        )
    if len(golds) == 1:
        if answer_type is AnswerType.NV:
            requested = _first_asked_kind(requested)
            if _unasked_word_label(preds[-1], question):
                return reject("unasked_label")
            if _later_asked_word_label(preds[-1], question):
                return reject("wrong_label")
        return judge_atom(preds[-1], golds[0], answer_type, tolerance, requested, question)
    return match_all(
        list(preds),
        list(golds),
        lambda p, g: judge_atom(p, g, answer_type, tolerance, requested, question),
    )


def _dimensional(requested: tuple[Any, ...]) -> list[Any]:
    """The asked units that have a dimension, in the order asked (the scales left out)."""
    return [unit for unit in requested if not unit.dimensionless]


def _units_by_position(
    requested: tuple[Any, ...], type_sequence: tuple[AnswerType, ...]
) -> list[tuple[Any, ...]]:
    """The units each element of a tuple may take: where the question asks for as many units
    of a dimension as the tuple has numeric elements ("the image distance in cm and the
    time in ns"), the i-th element takes the i-th, the dimensionless scales beside it; else
    every element takes every unit asked. Any element took any asked unit, so a unitless
    gold's 60.0 (cm) took "60.0 ns" (red team r20a)."""
    dimensional = _dimensional(requested)
    scales = tuple(unit for unit in requested if unit.dimensionless)
    if len(dimensional) < 2 or len(dimensional) != len(type_sequence):
        return [requested] * len(type_sequence)
    if any(kind is not AnswerType.NV for kind in type_sequence):
        return [requested] * len(type_sequence)
    return [(unit, *scales) for unit in dimensional]


def _unasked_word_label(pred: str, question: str | None) -> bool:
    """Whether ``pred`` names itself in words the question's asking part does not write
    (``\\text{distance} = 14.5\\,m/s``, ``\\text{heat} = 0.40`` for "the speed", "the
    efficiency"): the value is claimed for another quantity (red team r23a)."""
    words = _label_words(pred)
    return bool(question and words and asked_place(" ".join(words), question) is None)


def _label_words(pred: str) -> list[str]:
    """The words ``pred`` names itself with (``\\text{range} = 5.1 m``), without a symbol
    after them ("radius of the circular path r"); none where no word is longer than two
    letters."""
    label = word_label(pred)
    words = label.split() if label is not None else []
    while words and len(words[-1]) == 1:
        words.pop()
    return words if any(len(word) > 2 for word in words) else []


_ASKING_VERB = re.compile(
    r"\b(?:find|determine|calculate|compute|obtain|estimate|evaluate|what\s+(?:is|are))\b",
    re.IGNORECASE,
)
_NEXT_ASKED = re.compile(r"\s(?:and|as\s+well\s+as)\s", re.IGNORECASE)


def _later_asked_word_label(pred: str, question: str | None) -> bool:
    """Whether one value names itself in words the asking part writes only after its first
    "and" ("\\text{range} = 5.1 m" for "Find the maximum height and the horizontal range"):
    one value answers the first quantity asked (as :func:`_first_asked_kind` reads its
    unit), so the value is claimed for another (red team r24c)."""
    words = _label_words(pred)
    if not question or not words:
        return False
    part = asking_part(question)
    verb = _ASKING_VERB.search(part)
    place = asked_place(" ".join(words), question)
    if verb is None or place is None:
        return False
    later = _NEXT_ASKED.search(part, verb.end())
    # the first place the words are asked at: "the speed … and the speed in km/h" is before
    return later is not None and place > later.start()


def _first_asked_kind(requested: tuple[Any, ...]) -> tuple[Any, ...]:
    """The units one value may take where the question asks for quantities of several
    dimensions ("the image distance in cm and the time in ns"): those of the first asked
    dimension, the scales beside them. One value answers one quantity, and a sub-problem's
    gold answers the first it asks; any asked unit let "60.0 ns" pass for the image distance
    60.0 (cm) (red team r20a)."""
    dimensional = _dimensional(requested)
    if len(dimensional) < 2:
        return requested
    first = dimensional[0]
    return tuple(unit for unit in requested if unit.dimensionless or same_dimension(unit, first))


def normalize_all(answers: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(single_variable_totals(normalize_answer(a)) for a in answers)
