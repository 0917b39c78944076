"""Chains, labels and restated questions: which sides of a box are claims, and the rule that
every claim must hold.

A box ``A = B = C`` claims that every side is equal. The verifier is the RL reward, so a chain
is correct only when **every side that states a value or an expression equals the gold**, and
wrong as soon as one side contradicts it (it used to be enough for *any* side to match, and a
policy could earn the reward by repeating the gold's left side, or by boxing only the name of
the asked quantity).

Sides are sorted into two roles:

* **labels** name the asked quantity. The gold's first side is its label whenever the gold is
  a chain (``\\Delta x = 3c``, ``\\frac{I(X)}{I(0)} = e^{-X}``, ``\\alpha_\\mu\\alpha^\\mu =
  c^2``, ``E_{\\rm k} = \\tfrac12 mv^2``), unless it is a plain number. A predicted side that
  spells the gold's label (compared as text: spaces, braces and font switches do not count)
  is a label; so is a plain symbol in first place (``a = g/7`` for ``\\dot v = g/7``) or in
  last place when another side states the value (``g/7 = a``).
* **values**: every other side. Each must match one of the gold's value forms.

A prediction with no value side restates the question (``\\boxed{\\Delta x}`` for
``\\Delta x = 3c``) and is wrong, reason ``restated_question``. A failing side of a chain is
named when several sides state values: ``chain_link_2:wrong_value`` is the third side (sides
count from 0, labels included).

The comparison of one side with one gold form belongs to the answer type (NV compares
quantities, EX expressions); ``uncheckable`` tells which failures say nothing about the side
(a symbolic derivation step inside a numeric answer): such a side is skipped when another
side holds, never counted as the match.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from studybench.verify.asked import asked_question
from studybench.verify.asking import asking_part
from studybench.verify.normalize import NAME, is_negated, split_top_level
from studybench.verify.relations import is_label

Compare = Callable[[str, str], tuple[bool, str]]
Uncheckable = Callable[[str, str, str], bool]

_LABEL_NOISE = re.compile(r"[\s{}]|\\(?:rm|mathrm|text|mathit|it|bf|mathbf|[,;:! ])(?![a-zA-Z])")
_PLAIN_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$")
_RATIO = re.compile(
    r"^\s*\\[dt]?frac\s*\{(?P<num>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*\{(?P<den>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*$"
)
_APPLIED = re.compile(r"^(?P<head>[^()]*)\(\s*[^()]+\)\s*$")


def chain(text: str) -> list[str]:
    """The sides of ``A = B = C`` at the top level (never inside braces or parentheses)."""
    parts = [p.strip() for p in split_top_level(text, "=")]
    parts = [p for p in parts if p]
    return parts or [text.strip()]


# A function of one quantity: a number times it, its negative, a power, a part, a shift, a
# logarithm or a root of it (``v^2``, ``2v``, ``-m``, ``v/2``, ``v + 1``, ``\\ln v``). As the
# first side of a value (``v^2 = 14.5``, ``$2v = \\boxed{14.5}$``, ``-m = -2.00``: m is 2.00)
# it says the value is that function's, not the quantity's; a formula in several quantities
# (``\\frac12 mv^2``) is a step of the working.
_TRANSFORM = re.compile(
    r"^\s*(?:\d|[-−])|\^\s*\{?\s*-?\d|/\s*\d|[+\-−]\s*\d"
    r"|\\(?:ln|log|lg|exp|sin|cos|tan|sqrt)(?![a-zA-Z])"
    r"|\\[dt]?frac\s*\{[^{}]*\}\s*\{\s*\d"
)
_SYMBOL = re.compile(
    r"\\(?!(?:ln|log|lg|exp|sin|cos|tan|sqrt|frac|dfrac|tfrac|pi|left|right|mathrm|text|rm"
    r"|cdot|times|arcsin|arccos|arctan|sinh|cosh|tanh|operatorname)(?![a-zA-Z]))[A-Za-z]+"
    r"|(?<![\\A-Za-z])[A-Za-z](?![A-Za-z])"
)
# a subscript: braced, one command, a capital before a capital (k_BT is k_B times T), or a
# word (E_kin, v_max: a name, so 2E_kin and v_max^2 are functions of one quantity)
_SUBSCRIPT = re.compile(r"_\s*(?:\{[^{}]*\}|\\[A-Za-z]+|[A-Z](?=[A-Z])|\w+)")


def transformed_quantity(side: str) -> bool:
    """Whether ``side`` is a function of one quantity (see ``_TRANSFORM``): ``v_2^2`` is,
    ``v_2`` (a name) and ``\\frac{1}{2} m v^2`` (two quantities) are not."""
    bare = _SUBSCRIPT.sub("", side)  # v_2 is one quantity, its index no number
    return _TRANSFORM.search(bare) is not None and len(set(_SYMBOL.findall(bare))) == 1


def in_one_quantity(sides: list[str]) -> bool:
    """Whether every side is a multiple of the same one quantity (``\\ln(10)\\,\\tau =
    2.3\\,\\tau``): a chain of values written in units of it, not a function of a quantity
    set equal to a number (``v^2 = 14.5``)."""
    names = [{m.group(0) for m in NAME.finditer(side)} - _NOT_NAMES for side in sides]
    return len(names) > 1 and len(names[0]) == 1 and all(n == names[0] for n in names)


# commands that NAME reads but that name no quantity: functions, operators, spacing words
_NOT_NAMES = frozenset(
    r"\ln \log \lg \exp \sin \cos \tan \sqrt \frac \dfrac \tfrac \times \cdot \left"
    r" \right \approx \mathrm \text \rm \pi".split()
)


def label_key(text: str) -> str:
    """A label as text, without what does not change the name: ``E_{\\rm k}`` = ``E_k``,
    and ``h_{\\min}`` = ``h_{\\rm min}`` (an operator's name in a subscript is its word)."""
    return _LABEL_NOISE.sub("", _OPERATOR_WORD.sub(r"\1", text))


_OPERATOR_WORD = re.compile(
    r"(?<=_)\s*\{?\s*\\(min|max|sup|inf|lim|exp|log|ln|det|arg|deg)(?![a-zA-Z])"
)


def ratio_label(text: str) -> bool:
    """Whether ``text`` is one quantity at two arguments, as a ratio (``\\frac{v(t)}{v(0)}``,
    ``I(X)/I(0)``): the name of a normalised quantity, not an expression to compare. Only
    the same function at both places counts (``\\frac{v(t)}{x(0)}`` relates two quantities)."""
    match = _RATIO.match(text)
    if match is not None:
        num, den = match.group("num"), match.group("den")
    elif text.count("/") == 1:
        num, den = text.split("/")
    else:
        return False
    heads = []
    for part in (num.strip(), den.strip()):
        applied = _APPLIED.match(part)
        if applied is None or not is_label(part):
            return False
        heads.append(label_key(applied.group("head")))
    return bool(heads[0]) and heads[0] == heads[1]


# Subscripts of one quantity's later and earlier values: a ratio of the later over the earlier
# (``\\frac{v_f}{v_i}``, ``U'/U``, ``v/v_0``) is the factor by which the quantity changed.
_LATER_EARLIER = frozenset(
    {
        ("f", "i"), ("final", "initial"), ("fin", "init"), ("after", "before"),
        ("new", "old"), ("'", ""), ("", "0"),
    }
)  # fmt: skip


def _subscript(label: str) -> tuple[str, str]:
    """``v_f`` -> (``v``, ``f``); ``U'`` -> (``U``, ``'``); ``v`` -> (``v``, ``""``)."""
    base, _, subscript = label.partition("_")
    if not subscript and base.endswith("'"):
        return base.rstrip("'"), "'"
    return base, subscript


def change_ratio(text: str) -> int:
    """1 when ``text`` is one quantity's later value over its earlier value (``\\frac{U_f}
    {U_i}``, ``v_{\\rm final}/v_{\\rm initial}``, ``v/v_0``), -1 for the earlier over the
    later, else 0. Both parts must be plain labels of the same base quantity: the factor
    asked by "by what factor does U change?", named. ``v_2/v_1`` is not read (which index is
    the later one depends on the problem)."""
    parts = _raw_ratio_parts(text)
    if parts is None or not all(is_label(part) and "(" not in part for part in parts):
        return 0
    (base_n, sub_n), (base_d, sub_d) = (_subscript(label_key(part)) for part in parts)
    if not base_n or base_n != base_d:
        return 0
    if (sub_n, sub_d) in _LATER_EARLIER:
        return 1
    return -1 if (sub_d, sub_n) in _LATER_EARLIER else 0


def same_label(a: str, b: str | None) -> bool:
    return b is not None and bool(label_key(a)) and label_key(a) == label_key(b)


def contradicting_labels(a: str, b: str) -> bool:
    """Two labels of one quantity's family that name different members of it: ``v_{\\max}``
    and ``v_{\\min}``, ``x_2`` and ``x_1``. Renaming the asked quantity (``a`` for ``\\dot
    v``) is fine; naming its sibling says the value belongs to another quantity. A
    function's arguments are not part of the name: ``E_{\\rm k}(v)`` is ``E_{\\rm k}``."""
    base_a, mark_a, sub_a = quantity_key(a).partition("_")
    base_b, mark_b, sub_b = quantity_key(b).partition("_")
    return bool(mark_a and mark_b and base_a) and base_a == base_b and sub_a != sub_b


def _raw_ratio_parts(text: str) -> tuple[str, str] | None:
    match = _RATIO.match(text)
    if match is not None:
        return match.group("num"), match.group("den")
    if text.count("/") == 1:
        num, den = text.split("/")
        return num, den
    return None


def _ratio_parts(text: str) -> tuple[str, str] | None:
    parts = _raw_ratio_parts(text)
    return None if parts is None else (label_key(parts[0]), label_key(parts[1]))


def label_ratio(text: str) -> bool:
    """A ratio of two labels (``\\frac{m_1}{m_2}``, ``v_2/v_1``, ``\\frac{I(X)}{I(0)}``)."""
    parts = _raw_ratio_parts(text)
    return parts is not None and all(is_label(part) for part in parts)


def reciprocal_label(pred: str, gold: str) -> bool:
    """``\\frac{I(0)}{I(X)}`` beside the gold's label ``\\frac{I(X)}{I(0)}``, ``m_2/m_1``
    beside ``m_1/m_2``: the same ratio upside down, whose value is the reciprocal of the
    gold's (skipped as a symbolic step, ``\\frac{m_2}{m_1} = 3`` was right for
    ``\\frac{m_1}{m_2} = 3``)."""
    if not (label_ratio(pred) and label_ratio(gold)):
        return False
    pred_parts, gold_parts = _ratio_parts(pred), _ratio_parts(gold)
    return pred_parts is not None and gold_parts is not None and pred_parts == gold_parts[::-1]


# An operator on a quantity that makes another quantity of it: its rate of change, second
# derivative, change or mean (``\\dot v``, ``\\ddot T``, ``\\Delta P``, ``\\bar v``).
_DERIVED = re.compile(
    r"^\\(?:dot|ddot|dddot|bar|overline|Delta|delta)(?![a-zA-Z])\s*(?P<rest>.+)$|"
    r"^\\langle(?![a-zA-Z])\s*(?P<mean>.+?)\s*\\rangle$",
    re.DOTALL,
)


# A name's primes once braces are gone: ``q'``, ``x^{\\prime}``.
_PRIMES = re.compile(r"(?:'|\^\\prime)+")


def quantity_key(label: str) -> str:
    """:func:`label_key` without a function's arguments: ``q(t)`` and ``q`` are one quantity
    at an argument and in general, so ``q`` is the key of both."""
    key = label_key(label)
    applied = _APPLIED.match(key)
    return applied.group("head").strip() if applied is not None else key


def underlying_name(label: str) -> str | None:
    """The :func:`quantity_key` of the name under a label's derivative, change or mean marks
    (``T`` of ``\\Delta T``, ``\\dot{T}``, ``\\overline{T}``; ``h_\\min`` of ``\\ddot h_{\\min}``),
    or None for a label without one (``T``, ``T_0``)."""
    text, marked = label.strip(), False
    while (match := _DERIVED.match(text)) is not None:
        text = (match.group("rest") or match.group("mean") or "").strip()
        if text.startswith("(") and text.endswith(")"):
            text = text[1:-1]
        marked = True
    return (quantity_key(text) or None) if marked else None


def derived_label(pred: str, gold: str, primes: bool = False) -> bool:
    """Whether ``pred`` is the rate of change, second derivative, change or mean of the
    quantity ``gold`` names (``\\dot v``, ``\\ddot v``, ``\\Delta v``, ``\\bar v`` for ``v``):
    another quantity, so a value labelled so is not the asked one's. Subscripts are part of
    the name and arguments are not (``\\overline{h}_{\\min}`` for ``h_{\\min}``, ``\\dot q(t)``
    and ``\\Delta q`` for ``q(t)``); marks stack (``\\Delta\\dot x`` for ``\\dot x`` and ``x``).
    With ``primes``, a primed name is another quantity too (``q'(t)`` for ``q(t)``: its
    derivative, or its value after some change)."""
    target = quantity_key(gold)
    if not target:
        return False
    text = pred.strip()
    while (match := _DERIVED.match(text)) is not None:
        text = (match.group("rest") or match.group("mean") or "").strip()
        if text.startswith("(") and text.endswith(")"):
            text = text[1:-1]  # \\Delta(v)
        if quantity_key(text) == target:
            return True
    if not primes:
        return False
    key = quantity_key(pred)
    plain = _PRIMES.sub("", key)
    return plain != key and plain == target


# a derivative written as Leibniz did: "\\frac{dv}{dt}", "\\frac{\\mathrm{d}v}{\\mathrm{d}t}",
# "dI/dt", "\\frac{\\partial U}{\\partial\\theta}"
_D = r"(?:d|\\mathrm\s*\{\s*d\s*\})"  # d, upright or not
_LEIBNIZ = re.compile(
    rf"^\s*(?:\\[dt]?frac\s*\{{\s*(?:{_D}|\\partial)\s*"
    r"(?P<top>(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})+?)\s*\}\s*\{(?:[^{}]|\{[^{}]*\})*\}"
    rf"|{_D}\s*(?P<over>[^/]+?)\s*/\s*{_D}\s*\\?\w+)\s*$"
)


def names_a_derivative(side: str, asked: str) -> bool:
    """Whether ``side`` names the rate of change, change or mean of the quantity ``asked``
    names (:func:`derived_label`, primes included: ``v'(t)``), or its derivative as Leibniz
    wrote it (``\\frac{dv}{dt}``, ``dI/dt``)."""
    if is_label(side) and derived_label(side, asked, primes=True):
        return True
    leibniz = _LEIBNIZ.match(side)
    if leibniz is None:
        return False
    name = (leibniz.group("top") or leibniz.group("over") or "").strip()
    return bool(name) and quantity_key(name) == quantity_key(asked)


def wrong_label(side: str, gold_label: str) -> bool:
    """Whether a predicted side names a quantity other than the gold's label: a sibling of
    its family (``v_{\\max}`` for ``v_{\\min}``), a derivative, change or mean of it
    (``\\dot v`` for ``v``, :func:`derived_label`), or a ratio of labels that is neither the
    gold's ratio nor its reciprocal (``m_2/m_3`` for ``m_1/m_2``). Any side counts, not only
    the first: ``v_{\\min} = v_{\\max} = 11.2`` and ``11.2 = v_{\\max}`` name the sibling too."""
    if is_label(side):
        return contradicting_labels(side, gold_label) or derived_label(side, gold_label)
    if label_ratio(side) and label_ratio(gold_label):
        return not same_label(side, gold_label) and not reciprocal_label(side, gold_label)
    return False


# what marks a number as measured: decimals, a power of ten, a unit set in upright type
_MEASURED = re.compile(
    r"\d\.\d|\\times\s*10|\\(?:mathrm|text|rm|mbox)\s*\{|\d\s*[eE][-+]?\d|^\s*[-+]?\d+\s*$"
)


def _measured_side(side: str) -> bool:
    """Whether a side is a number (``2``, ``0.40``, ``14.5\\,\\mathrm{m/s}``) and no formula
    a unit reader could also take (``\\frac{3}{7} m g`` is no number of metre-grams)."""
    return _MEASURED.search(side) is not None and _numeric_side(side)


def _numeric_side(side: str) -> bool:
    """Whether a side reads as a number with or without a unit (``5\\,\\mathrm{m}``)."""
    from studybench.verify.parsing import UnparseableError, parse_quantity

    try:
        parse_quantity(side)
    except UnparseableError:
        return False
    return True


def names_own_value(label: str, others: list[str]) -> bool:
    """Whether a would-be label is a symbol of another side's expression (``g = 2\\pi
    \\sqrt{l/g}``): then the side is a claim (g equals an expression in g), not a name.
    Sides that read as a number with a unit are not read as expressions (``m = 5 m``)."""
    from studybench.verify.parsing import UnparseableError, parse_expressions

    symbolic = [side for side in others if not _numeric_side(side)]
    if not symbolic:
        return False
    try:
        parsed = parse_expressions(label, *symbolic)
    except UnparseableError:
        return False
    names: set[object] = set(getattr(parsed[0], "free_symbols", set()))
    return any(names & set(getattr(expr, "free_symbols", set())) for expr in parsed[1:])


@dataclass(frozen=True, slots=True)
class GoldChain:
    """The gold's label (None when the gold is one form) and its value forms."""

    label: str | None
    forms: tuple[str, ...]


def gold_chain(gold: str) -> GoldChain:
    parts = chain(gold)
    if len(parts) > 1 and not _PLAIN_NUMBER.match(parts[0].replace(" ", "")):
        return GoldChain(parts[0], tuple(parts[1:]))
    return GoldChain(None, tuple(parts))


def value_sides(pred: str, gold_label: str | None) -> list[tuple[int, str]]:
    """The predicted sides that state a value, with their positions in the chain.

    A side that is not the gold's label is only a label when it cannot be a claim: a renamed
    label that is a symbol of the value (``g = 2\\pi\\sqrt{l/g}``) claims an equation, and
    a ratio that is not the gold's ratio label, nor its reciprocal (see :func:`judge_chain`),
    is compared as a value."""
    parts = chain(pred)
    roles = []
    for position, part in enumerate(parts):
        label = gold_label is not None and same_label(part, gold_label)
        if not label and len(parts) > 1 and position == 0:
            label = (is_label(part) and not names_own_value(part, parts[1:])) or (
                ratio_label(part) and (gold_label is None or not ratio_label(gold_label))
            )
            label = label or (
                gold_label is None
                and change_ratio(part) != 0
                and not names_own_value(part, parts[1:])
            )
            label = label or (gold_label is not None and reciprocal_label(part, gold_label))
        roles.append(label)
    if gold_label is None and len(parts) > 2 and roles[0] and _asks_for_each():
        for position in range(1, len(parts) - 1):  # F_{12} = F_{21} = 0.216 N
            if not _other_member(parts[0], parts[position]):
                break
            roles[position] = True
    last = parts[-1]
    if len(parts) > 1 and not roles[-1] and is_label(last) and "(" not in last:
        # "g/7 = a": the value stated first, then named. Not an application: ``M = Q(M)``
        # would name the gold's own value as a label and hide a factor Q; nor a symbol the
        # value is written in (``x = \\frac{2d}{3} = d`` claims x equals d), nor a second
        # name after a formula that opens with its label (``v = \\sqrt{10gh/7} = R`` claims
        # v equals R); after numbers a name says which quantity they are (``\\eta = 0.40 =
        # \\eta_C``), no value a number could be compared with
        stated = [part for part, role in zip(parts[:-1], roles[:-1], strict=True) if not role]
        roles[-1] = (
            bool(stated)
            and not names_own_value(last, stated)
            and (len(stated) == len(parts) - 1 or all(map(_measured_side, stated)))
        )
    return [(position, part) for position, part in enumerate(parts) if not roles[position]]


# a question that asks one value of several members: "the current through each resistor", "the
# force between them", "the force they exert on each other", "both"
_FOR_EACH = re.compile(
    r"\beach\b|\bbetween\s+(?:them|the\s+two)\b|\bboth\b|\bon\s+(?:one\s+another|each\s+other)\b",
    re.IGNORECASE,
)
# a member of a family: a letter (maybe a vector, maybe in bars) with a subscript
_MEMBER = re.compile(
    r"^\|?\s*(?:\\vec\s*)?\{?\s*(?P<letter>[A-Za-z])\s*\}?\s*_\s*\{?\s*(?P<index>[0-9A-Z]{1,2})\s*\}?\s*\|?$"
)


_ALIKE = re.compile(r"\b(?:identical|equal|same|alike)\b", re.IGNORECASE)


def _asks_for_each() -> bool:
    question = asked_question(folded=False)
    return bool(question) and _FOR_EACH.search(asking_part(question or "")) is not None


def _other_member(first: str, other: str) -> bool:
    """Whether ``other`` names another member of ``first``'s family that shares its value in
    a question asking for each: the other side of one interaction (``F_{21}`` beside
    ``F_{12}``), or a member of a family the question calls identical (``I_2`` beside
    ``I_1`` for "two identical resistors")."""
    one, two = _MEMBER.match(first.strip()), _MEMBER.match(other.strip())
    if one is None or two is None or one.group("letter") != two.group("letter"):
        return False
    index, other_index = one.group("index"), two.group("index")
    if len(index) == 2 and other_index == index[::-1]:
        return True  # F_{12} and F_{21}: one interaction, seen from each side
    question = asked_question(folded=False) or ""
    # members share the value only where the question makes them alike (red team r23a:
    # V_1 = V_2 across two different resistors in series)
    return index != other_index and _ALIKE.search(question) is not None


def _label_head(label: str) -> str:
    """A label without its arguments: ``v(t)`` -> ``v``, ``x_1`` -> ``x_1``."""
    applied = _APPLIED.match(label)
    return label_key(applied.group("head") if applied is not None else label)


def definition_conflict(
    value: str, definitions: tuple[tuple[str, str], ...], gold_label: str | None = None
) -> str | None:
    """Why the definitions after a value (``q(t) = C\\varepsilon(1 - e^{-t/\\tau}), \\tau =
    RC``) are no definitions, or None.

    A definition names a symbol the value is written in, so that the value means it
    substituted. An "equation" for the answer's own label (``x = \\frac{2d}{3}, x =
    \\frac{d}{3}``, ``\\ \\text{where}\\ x = 0``) is a second claim about the value, and the
    judge never read it: the label is no symbol of the value, so it was skipped as a name and
    the first value alone decided (``redefined_label``). Two definitions of one symbol are two
    values for it (``duplicate_definition``); a definition whose symbol no value side and no
    other definition uses (the label's own symbols do not count) is a second answer
    (``unused_definition``); one written in terms of the label itself (``v = \\sqrt{2gh}, h =
    \\frac{v^2}{2g}``) defines the symbol through the answer (``circular_definition``)."""
    from studybench.verify.parsing import UnparseableError, parse_expressions
    from studybench.verify.symbolic import canonical_name

    values = value_sides(value, gold_label)
    positions = {position for position, _ in values}
    labels = [side for position, side in enumerate(chain(value)) if position not in positions]
    labels += [gold_label] if gold_label is not None else []
    heads = {_label_head(label) for label in labels} - {""}
    names = [_label_head(name) for name, _ in definitions]
    if any(name in heads for name in names):
        return "redefined_label"
    if len(set(names)) != len(names):
        return "duplicate_definition"
    texts = [side for _, side in values]
    bodies = [body for _, body in definitions]
    plain_labels = [label for label in labels if "(" not in label and is_label(label)]
    try:
        parsed = parse_expressions(
            *texts, *(name for name, _ in definitions), *bodies, *plain_labels
        )
    except (UnparseableError, RecursionError):
        return None  # left to the comparison, which names the side it cannot read

    def symbols(exprs: tuple[object, ...]) -> set[str]:
        return {canonical_name(s) for e in exprs for s in getattr(e, "free_symbols", set())}

    count, defined = len(texts), len(definitions)
    used = symbols(parsed[:count])
    defined_names = parsed[count : count + defined]
    parsed_bodies = parsed[count + defined : count + 2 * defined]
    label_names = symbols(parsed[count + 2 * defined :])
    for index, name in enumerate(defined_names):
        own = symbols((name,))
        others = symbols(parsed_bodies[:index] + parsed_bodies[index + 1 :])
        if own and not own & (used | others):
            return "unused_definition"
        if label_names & symbols((parsed_bodies[index],)):
            return "circular_definition"
    return None


def is_restatement(pred: str, gold: str) -> bool:
    """Whether ``pred`` only names what the gold's question asks (the gold's label)."""
    label = gold_chain(gold).label
    return label is not None and not value_sides(pred, label)


_DOTS = r"(?:\\[lc]?dots(?![A-Za-z])|…|\.\.\.)"
_SERIES_END = re.compile(r"[+\-−]\s*" + _DOTS)
_BARE_DOTS = re.compile(r"^\s*" + _DOTS + r"\s*$")


def _written_series(side: str) -> bool:
    """Whether ``side`` writes a series out (two or more terms, then ``+ \\dots``) or is bare
    dots: no value to check. ``\\frac{\\pi^2}{6} + \\dots`` (one term) and ``1.645\\ldots``
    (digits) state values and are compared."""
    end = _SERIES_END.search(side)
    if end is not None:
        return len(re.findall(r"[+\-−]", side[: end.start()])) >= 1
    return _BARE_DOTS.match(side) is not None


def judge_chain(
    pred: str,
    gold: str,
    compare: Compare,
    uncheckable: Uncheckable | None = None,
    asked: str | None = None,
) -> tuple[bool, str]:
    """Every value side of ``pred`` against the gold's forms (any form may match a side).
    ``asked`` is the name the question asks for, where the gold gives none: a side labelled
    with its derivative, change or mean (``\\dot v(t)`` for ``v(t)``) names another
    quantity."""
    if is_negated(pred) and not is_negated(gold):
        return False, "negated_relation"  # ``v \\neq 5`` says what the value is not
    gold_c = gold_chain(gold)
    parts = chain(pred)
    forms = gold_c.forms
    if gold_c.label is not None and len(parts) > 1:
        if any(wrong_label(part, gold_c.label) for part in parts):
            return False, "wrong_label"  # v_{\\max} = ... for v_{\\min}
        if reciprocal_label(parts[0], gold_c.label):  # the value is the gold's reciprocal
            forms = tuple(f"\\frac{{1}}{{{form}}}" for form in forms)
    elif gold_c.label is None and len(parts) > 1:
        if asked is not None and any(names_a_derivative(part, asked) for part in parts):
            return False, "wrong_label"  # \\dot v(t) = … where the question asks for v(t)
        if change_ratio(parts[0]) == -1:
            forms = tuple(f"\\frac{{1}}{{{form}}}" for form in forms)  # U_i/U_f: the reciprocal
    values = value_sides(pred, gold_c.label)
    if not values:
        return False, "restated_question"
    chained = len(values) > 1  # a position is named when several sides state values
    matched: str | None = None
    skipped: list[tuple[int, str]] = []
    last_position = values[-1][0]
    for position, side in values:
        if chained and position != last_position and _written_series(side):
            continue  # 1 + \\frac19 + \\frac1{25} + \\dots = \\frac{\\pi^2}{8}: a series written
            # out, no value of its own (its terms alone are a partial sum); the rest decides
        hit: str | None = None
        failures: list[str] = []
        checkable = False
        for form in reversed(forms):  # the last, most explicit form first
            correct, reason = compare(side, form)
            if correct:
                hit = reason
                break
            failures.append(reason)
            checkable = checkable or uncheckable is None or not uncheckable(side, form, reason)
        if hit is not None:
            matched = matched or hit
            continue
        if chained and not checkable:
            skipped.append((position, failures[0]))
            continue
        return False, f"chain_link_{position}:{failures[0]}" if chained else failures[0]
    if matched is None:
        position, failure = skipped[0] if skipped else (0, "wrong_value")
        return False, f"chain_link_{position}:{failure}" if chained else failure
    return True, matched
