"""What surrounds the value in a final answer: labels, relations, chains, bounds, remarks.

Physicists box more than the value: ``\\dot M \\approx 2\\times10^{-3}``, ``F(t) = 3t^2``,
``T = 2\\pi\\sqrt{l/g} = 2.0\\,s``, ``B < 0.866\\,T``, ``\\frac{mg}{k}\\ \\text{(downward)}``.
These helpers turn such a box into the forms that may be compared (the sides of a chain, the
value of a bound, the expression without its remark), working on normalised text and
splitting only at the top level (never inside braces or parentheses).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from studybench.data.boxes import closing_bracket
from studybench.verify.asked import asked_question
from studybench.verify.asking import asking_part
from studybench.verify.normalize import (
    MATH_SPAN,
    NAME,
    SPACING,
    normalize_answer,
    question_math,
    split_top_level,
)

# A label names the quantity: one letter or Greek letter, optionally accented, a vector,
# with a subscript, primes, and the arguments of a function (F(t), v_x(t_1)).
_LETTER = r"(?:[A-Za-z]|\\[A-Za-z]+)"
_ACCENT = r"\\(?:dot|ddot|hat|widehat|bar|overline|tilde|widetilde|vec|check)\s*"
# a letter in a font (\mathcal{E}, \mathbf F), and a change or variation of a quantity
# (\Delta U, \delta x): one name, as the parser reads it
_FONT = r"\\(?:mathcal|mathbf|boldsymbol|bm|mathscr|mathsf|mathit|mathrm)\s*"
_ONE = rf"(?:{_ACCENT}|{_FONT})(?:\{{\s*{_LETTER}\s*\}}|{_LETTER})|{_LETTER}"
_LABEL_CORE = (
    rf"(?:\\[Dd]elta\s*(?:\{{\s*(?:{_ONE})\s*\}}|{_ONE})|{_ONE}|\\langle\s*{_LETTER}\s*\\rangle)"
)
# a subscript may hold one level of braces: U_{\mathrm{final}}, T_{\text{eq}}
_SUBSCRIPT = r"(?:\s*_\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|[A-Za-z0-9]|\\[A-Za-z]+))?"
_PRIMES = r"(?:\s*(?:'|\^\s*\{?\s*\\prime\s*\}?))*"
# the arguments of a function are names or numbers (F(t), I(0), u(x, t)); a parenthesis
# holding an expression is a factor (``Q(\frac{v_0^2}{g})`` is Q times it, not a label)
_ARG = r"\s*[+-]?\s*(?:[A-Za-z]|\\[A-Za-z]+|\d+(?:\.\d+)?)(?:\s*_\s*(?:\{[^{}]*\}|[A-Za-z0-9]))?\s*"
_ARGS = rf"(?:\s*\({_ARG}(?:,{_ARG})*\))?"
_LABEL = re.compile(rf"^\s*{_LABEL_CORE}{_SUBSCRIPT}{_PRIMES}{_SUBSCRIPT}{_ARGS}\s*$")
_FUNCTION_NAMES = {
    r"\sin", r"\cos", r"\tan", r"\cot", r"\sec", r"\csc", r"\exp", r"\ln", r"\log",
    r"\sinh", r"\cosh", r"\tanh", r"\coth", r"\pi", r"\infty", r"\sqrt", r"\frac",
}  # fmt: skip
# relations and operators: a side that is one of them names no quantity
_OPERATOR_NAMES = re.compile(
    r"^\\(?:ne|neq|not|sim|simeq|approx|approxeq|cong|equiv|propto|ll|gg|lll|ggg|prec|succ"
    r"|preceq|succeq|nless|ngtr|nleq|ngeq|pm|mp|times|cdot|div|ast|star|circ|to|rightarrow"
    r"|Rightarrow|implies|iff|in|notin|ni|subset|supset|subseteq|supseteq|neg|lnot|vee|wedge"
    r"|land|lor|cap|cup|setminus|mid|parallel|perp)(?![A-Za-z])"
)

# Relations of a bound: the value is what the quantity is compared with (``\\lesssim``: at
# most about). ``\\ll``, ``\\gg`` (much less / greater than) state no value: no bound
# (``x \\gg 2.66\\,V`` was read as 2.66 V).
_BOUND = re.compile(
    r"\\(?:lesssim|gtrsim|leqslant|geqslant|leq|geq|le|ge|lt|gt)(?![a-zA-Z])|<=|>=|<|>"
)
# A relation that is no equality and no bound: a box holding one states no value.
_NOT_A_VALUE = re.compile(
    r"\\(?:ll|gg|lll|ggg|lnsim|gnsim|propto|neq|ne|not|nless|ngtr|nleq|ngeq)(?![a-zA-Z])"
    r"|≪|≫|∝|≠"
)


# A trailing remark: ``\\text{(downward)}``, ``\\text{ directed north}``, ``(to the left)``.
_TEXT_GROUP = re.compile(r"\\(?:text|textrm|mbox|textnormal|textit|mathrm)\s*\{([^{}]*)\}\s*$")
_PAREN_REMARK = re.compile(r"\(\s*([A-Za-z][A-Za-z\s,.-]*)\)\s*$")
# a text group in parentheses: ``-2.00\\ (\\text{inverted})``
_PAREN_TEXT = re.compile(
    r"\(\s*\\(?:text|textrm|mbox|textnormal|textit|mathrm)\s*\{([^{}]*)\}\s*\)\s*$"
)
_WORD = re.compile(r"[A-Za-z]{2,}")
# What a remark may hold: words and punctuation; a digit, an operator, a backslash command or
# a bracket other than parentheses is content (``\\text{ times 2}``, ``\\mathrm{kg\\,m/s}``).
_REMARK_TEXT = re.compile(r"^[A-Za-z\s,.;:()'\u2019-]*$")
_LONE_HYPHEN = re.compile(r"(?<![A-Za-z])-|-(?![A-Za-z])")
_REMARK_WORDS = re.compile(r"[A-Za-z]+")
# Words that change a value when they follow it: numbers and multipliers, operators, signs,
# relations, alternatives. A remark holding one of them is part of the answer, never dropped.
VALUE_WORDS = frozenset(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
    ninety hundred hundreds thousand thousands million millions billion billions trillion
    trillions dozen dozens score gross half halves halved double doubled twice triple tripled
    thrice quadruple quadrupled third thirds quarter quarters fifth fifths tenth tenths
    hundredth hundredths thousandth thousandths millionth percent per cent
    times plus minus over divided multiplied product sum difference ratio squared cubed square
    cube root roots power powers inverse reciprocal negative opposite reversed less more
    greater smaller fewer larger than least most exceeding exceeds or nor either not no order
    factor log ln exp sqrt sin cos tan masses radii luminosities units max min maximum minimum
    maximal minimal bound bounds""".split()
)
# Articles, prepositions and plain words that pint would read as units (``in``: inch, ``a``:
# year, ``point``: a printer's point in "the highest point").
_FUNCTION_WORDS = frozenset(
    "a an the in at to of on as by is it its be and from with for this that into onto point"
    " points".split()
)
_AXES = frozenset("xyz")
# Short words a remark may hold; any other token under four letters may be a unit symbol.
_SHORT_WORDS = (
    frozenset(
        "up out off top far low net max due via all its old new end how way air sea gas ice hot car"
        " rod arm rim hub dry wet red big emf".split()
    )
    - VALUE_WORDS
)


def is_label(text: str) -> bool:
    """Whether ``text`` only names a quantity (``v``, ``\\dot M``, ``B_{\\max}``, ``F(t)``)."""
    if not _LABEL.match(text):
        return False
    head = text.strip().split("_")[0].split("(")[0].strip()
    if _BOUND.search(head) or _OPERATOR_NAMES.match(head):
        return False  # "\\le \\approx 57.5" normalised to "\\le = 57.5" is a bound, no label
    changed = re.sub(r"^\\[Dd]elta\s*\{?\s*", "", head).strip()  # \Delta\sin names nothing
    return head not in _FUNCTION_NAMES and changed not in _FUNCTION_NAMES


def sides(text: str) -> list[str]:
    """The forms a box states as equal: ``A = B = C`` -> ``[B, C]`` when ``A`` only names
    the quantity, else ``[A, B, C]``; a box without ``=`` is its own single form."""
    parts = [p.strip() for p in split_top_level(text, "=")]
    parts = [p for p in parts if p]
    if not parts:
        return [text.strip()]
    if len(parts) > 1 and is_label(parts[0]):
        parts = parts[1:]
    return parts


def is_inequality(text: str) -> bool:
    """Whether ``text`` relates a quantity to a bound (``x < 2``, ``B \\le 0.8\\,T``)."""
    return _BOUND.search(text) is not None


def _bound_parts(text: str) -> tuple[str, str] | None:
    """(name, value) of a bound written as the answer (``B < 0.866 T``, ``0.866 T > B``), or
    None: only a two-sided relation with a label on one side is one."""
    if not _BOUND.search(text) or _NOT_A_VALUE.search(text):
        return None
    pieces = _split_bound(text)
    if len(pieces) != 2:
        return None
    left, right = pieces
    if is_label(left) and not is_label(right):
        return left, right
    if is_label(right) and not is_label(left):
        return right, left
    return None


def bound_value(text: str) -> str:
    """``B < 0.866 T`` -> ``0.866 T`` (and ``0.866 T > B``): a bound written as the answer.

    Only a two-sided relation with a label on one side is read this way; an interval such
    as ``1 < x < 2`` is left alone.
    """
    parts = _bound_parts(text)
    return text if parts is None else parts[1]


def bound_name(text: str) -> str | None:
    """The name a bound written as the answer bounds (``B`` of ``B < 0.866 T`` and of
    ``0.866 T > B``), or None where :func:`bound_value` reads no bound."""
    parts = _bound_parts(text)
    return None if parts is None else parts[0]


def bound_direction(text: str) -> str | None:
    """Which way a bound written as the answer points: ``B < 0.866 T`` and ``0.866 T > B``
    bound the quantity from above (``"upper"``), ``v \\ge 11.2 km/s`` from below; None where
    :func:`bound_value` reads no bound. Two bounds that point different ways are different
    answers, whatever their values."""
    if bound_value(text) == text:
        return None
    match = _BOUND.search(text)
    if match is None:  # pragma: no cover - bound_value found one
        return None
    less = match.group(0).startswith(("<", r"\l"))
    label_first = is_label(_split_bound(text)[0])
    return "upper" if less == label_first else "lower"


def _split_bound(text: str) -> list[str]:
    pieces: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        if depth == 0:
            match = _BOUND.match(text, i)
            if match is not None:
                pieces.append(text[start:i].strip())
                start = i = match.end()
                continue
        if char == "\\":
            i += 2 if i + 1 < len(text) and not text[i + 1].isalpha() else 1
            continue
        i += 1
    pieces.append(text[start:].strip())
    return pieces


# A unit set apart after a side of an EX/EQ answer: ``2\\pi\\sqrt{l/g}\\,\\mathrm{s}``,
# ``x\\text{ (rad/s)}``, ``x = 0.382\\,\\mathrm{m}``; after a number no space is needed.
_UNIT_GROUP = re.compile(
    rf"(?P<space>(?:{SPACING}|\s)*)"
    r"\\(?:text|textrm|mathrm|mbox|rm)\s*\{(?P<unit>[^{}]*)\}\s*$"
)
_NUMBER_END = re.compile(r"(?:\d|\d\s*\})\s*$")
# commands of a numeric expression: "(0.3 + \\tfrac{1}{\\sqrt{150}})\\mathrm{m}" is a number
_NUMERIC_COMMANDS = re.compile(r"\\(?:[dt]?frac|sqrt|left|right|cdot|times|pi)(?![a-zA-Z])")


def _numeric_end(before: str) -> bool:
    """Whether the side before a unit ends in a number, or in a bracket around an expression
    of numbers only (``(0.3 + \\frac{1}{\\sqrt{150}})``), so the unit right after it is its
    unit and no symbol of a product."""
    if _NUMBER_END.search(before) is not None:
        return True
    stripped = before.rstrip()
    if not stripped.endswith(")"):
        return False
    last = len(stripped) - 1
    opening = next(
        (
            at
            for at, char in enumerate(stripped)
            if char == "(" and closing_bracket(stripped, at) == last
        ),
        None,
    )
    if opening is None:
        return False
    inner = _NUMERIC_COMMANDS.sub(" ", stripped[opening:])
    return re.search(r"\d", inner) is not None and re.search(r"[A-Za-z]", inner) is None


# What may follow a side's unit without meaning anything: spacing commands, a full stop, a
# lone backslash (the rest of a "\ " whose space was stripped with the box), the brace that
# closes a set of values (``x \in \{0.218\,\mathrm{m}, 0.382\,\mathrm{m}\}``).
_SIDE_FILLER = re.compile(rf"(?:\s|{SPACING}|\.|\\\}}|\\$)+$")
_SIDE_BREAK = re.compile(
    r"=|\\(?:approx|simeq|sim|cong|doteq|equiv|q?quad)(?![a-zA-Z])|,|;"
    r"|\\text\s*\{\s*(?:or|and)\s*\}"
)
# Where a unit annotation stood: ``0.382 ⟦m⟧``. The pair of brackets survives normalisation,
# so the unit can be compared with the gold's (:func:`resolve_unit_annotations`).
MARK_OPEN, MARK_CLOSE = "\u27e6", "\u27e7"
_MARKS = re.compile(r"\s*[\u27e6\u27e7]\s*")
_MARKED = re.compile(r"^(?P<value>.*?)\s*\u27e6(?P<unit>[^\u27e7]*)\u27e7\s*$", re.DOTALL)


def _side_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each side of ``A = B \\approx C`` at the top level (a list or an
    ``\\text{ or }`` ends a side too: ``x = 1\\,m \\text{ or } x = 2\\,m``)."""
    spans: list[tuple[int, int]] = []
    depth = start = i = 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0 and (char in "=\\,;") and (i == 0 or text[i - 1] not in "<>!"):
            match = _SIDE_BREAK.match(text, i)
            if match is not None:
                spans.append((start, i))
                start = i = match.end()
                continue
        i += 2 if char == "\\" and i + 1 < len(text) and not text[i + 1].isalpha() else 1
    spans.append((start, len(text)))
    return spans


_NUMBER_TEXT = (
    r"[+\-−]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s*\\times\s*10\s*\^\s*\{?\s*[+\-−]?\d+\s*\}?)?"
)
_UNIT_TEXT = r"\\(?:text|mathrm|rm)\s*\{[^{}]+\}"
# a unit written inside a fraction's numerator at the end of a side, or before "/ denominator":
# ``-\frac{13.6\ \text{eV}}{n^2}``, ``-13.6\ \text{eV}/n^2``
_UNIT_IN_NUMERATOR = re.compile(
    rf"\\[dt]?frac\s*\{{\s*(?P<num>{_NUMBER_TEXT})(?:\s|\\[,;: ]|~)*(?P<unit>{_UNIT_TEXT})\s*\}}"
    r"\s*\{(?P<den>[^{}]+)\}\s*$"
    rf"|(?<![\w.])(?P<num2>{_NUMBER_TEXT})(?:\s|\\[,;: ]|~)*(?P<unit2>{_UNIT_TEXT})\s*/\s*"
    r"(?P<den2>[A-Za-z](?:\^\{?\d+\}?)?|\{[^{}]+\}|\([^()]+\))\s*$"
)


def unit_out_of_fraction(text: str) -> str:
    """A unit inside the numerator that ends a side moved after the fraction, where
    :func:`mark_unit_annotations` reads it: ``-\\frac{13.6\\ \\text{eV}}{n^2}`` is
    ``-\\frac{13.6}{n^2}\\,\\text{eV}`` (the same quantity; read as symbols, e, V and the rest
    made another expression)."""
    from studybench.verify.units import parse_unit

    def moved(match: re.Match[str]) -> str:
        number = match.group("num") or match.group("num2")
        unit = match.group("unit") or match.group("unit2")
        denominator = match.group("den") or match.group("den2")
        if parse_unit(normalize_answer(unit)) is None:
            return match.group(0)
        return f"\\frac{{{number}}}{{{denominator}}}\\,{unit}"

    return "=".join(_UNIT_IN_NUMERATOR.sub(moved, side) for side in split_top_level(text, "="))


def mark_unit_annotations(text: str) -> str:
    """Mark the unit set apart at the end of each side of an EX/EQ answer as ``⟦unit⟧``.

    Read as symbols, ``\\mathrm{s}`` would make ``2\\pi\\sqrt{l/g}\\,\\mathrm{s}`` wrong;
    dropped (as it was), ``\\Delta x = 3\\,\\mathrm{km}`` equalled ``\\Delta x =
    3\\,\\mathrm{m}``. Marked, the unit is converted or compared with the gold's."""
    from studybench.verify.units import parse_unit

    out: list[str] = []
    pos = 0
    for start, end in _side_spans(text):
        side = text[start:end]
        match = _UNIT_GROUP.search(_SIDE_FILLER.sub("", side))
        if match is not None and side[: match.start()].strip():
            unit = match.group("unit").strip().strip("()[]").strip()
            spaced = bool(match.group("space")) or match.group("unit")[:1] in (" ", "(")
            numeric = _numeric_end(side[: match.start()])
            if unit and (spaced or numeric) and parse_unit(normalize_answer(unit)) is not None:
                out.append(text[pos : start + match.start()])
                out.append(f" {MARK_OPEN}{unit}{MARK_CLOSE} ")
                pos = start + match.end()
                continue
    out.append(text[pos:])
    return "".join(out)


def unmark(text: str) -> str:
    """A marked answer as plain normalised text (``0.382 ⟦m⟧`` -> ``0.382 m``), for display."""
    return _MARKS.sub(" ", text).strip()


def _latex_number(value: float) -> str:
    text = f"{value:.12g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}\\times10^{{{int(exponent)}}}"
    return text


@dataclass(frozen=True, slots=True)
class _Side:
    value: str
    number: float | None  # the value, when it is a plain number
    units: tuple[Any, ...]  # the readings of the side's unit annotation (none: no annotation)
    unit_text: str = ""


def _read_side(text: str) -> _Side:
    from studybench.verify.parsing import UnparseableError, parse_number
    from studybench.verify.units import unit_readings

    match = _MARKED.match(text)
    value, units, unit_text = text.strip(), (), ""
    if match is not None:
        value, unit_text = match.group("value").strip(), match.group("unit").strip()
        units = unit_readings(unit_text)
    try:
        number: float | None = parse_number(value) if value else None
    except (UnparseableError, RecursionError):
        number = None
    return _Side(value, number, units, unit_text)


def _in_units(side: _Side, targets: tuple[Any, ...]) -> float | None:
    """The side's number in the first target one reading of its unit converts to."""
    from studybench.verify.units import convert

    assert side.number is not None
    for target in targets:
        for unit in side.units:
            converted = convert(side.number, unit, target)
            if converted is not None:
                return converted
    return None


def _scaled(side: _Side) -> str | None:
    """A symbolic side with its unit: the expression times the unit's SI factor (``\\,
    \\mathrm{m/s}``: times 1, dropped; ``\\,\\%``: times 0.01); None for an offset scale."""
    from studybench.verify.units import si_factor

    factor = si_factor(side.units[0])
    if factor is None:
        return None
    if abs(factor - 1.0) <= 1e-12:
        return side.value
    return rf"({side.value}) \cdot {_latex_number(factor)}"


def resolve_unit_annotations(
    pred: str, gold: str, requested: tuple[Any, ...] = (), asked: Any | None = None
) -> tuple[str, str] | str:
    """Compare the marked units of an EX/EQ prediction with the gold's; the two texts with
    every numeric side in the gold's unit and no marks left, or the reason they differ.

    The NV rules, side by side: a number with a unit is converted to the gold's unit of that
    dimension (``38.2 cm`` for ``0.382 m``), and is wrong in another dimension or beside a
    unitless numeric gold, unless the question asks for that unit (then converted to it; a
    dimensionless unit such as ``%`` is applied); a bare number is read in the gold's unit.
    A unit after an expression scales it to SI (``\\mathrm{s}``: by one, ``\\%``: by 0.01), and
    must share the dimension of the gold's unit when the gold has one. A number with a unit
    beside a purely symbolic gold is the data plugged in, left for the chain rule to judge.
    Where the gold has no unit, a unit after an expression must share the dimension of the
    quantity the question asks for (``asked``, :func:`~studybench.verify.question.
    asked_dimension`): ``\\frac{3}{7}mg\\,\\mathrm{kg}`` is no force."""
    from studybench.verify.units import same_dimension, to_base_dimensionless

    if MARK_OPEN not in pred and MARK_OPEN not in gold:
        return pred, gold
    gold_sides = [_read_side(s) for s in split_top_level(gold, "=")]
    references: list[Any] = []  # the gold's first unit of each dimension
    for side in gold_sides:
        if side.units and not any(same_dimension(side.units[0], r) for r in references):
            references.append(side.units[0])
    new_gold = []
    for side in gold_sides:
        if not side.units:
            new_gold.append(side.value)
        elif side.number is not None:
            converted = _in_units(side, tuple(references))
            new_gold.append(_latex_number(converted) if converted is not None else side.value)
        else:
            new_gold.append(_scaled(side) or side.value)
    gold_numeric = any(side.number is not None for side in gold_sides)
    new_pred = []
    for side in (_read_side(s) for s in split_top_level(pred, "=")):
        if not side.units:
            new_pred.append(side.value)
            continue
        fits = [r for r in references if any(same_dimension(u, r) for u in side.units)]
        if references and not fits:
            return "unit_mismatch"
        if side.number is None:
            if (
                not references
                and asked is not None
                and not any(same_dimension(u, asked) for u in side.units)
            ):
                return "unit_mismatch"
            scaled = _scaled(side)
            if scaled is None:
                return "unparseable:unit"
            new_pred.append(scaled)
        elif fits:
            new_pred.append(_latex_number(_in_units(side, tuple(fits)) or 0.0))
        elif not gold_numeric:
            new_pred.append(side.value)  # data beside a symbolic gold: the chain rule decides
        else:
            wanted = tuple(r for r in requested if any(same_dimension(u, r) for u in side.units))
            if wanted:
                new_pred.append(_latex_number(_in_units(side, wanted) or 0.0))
            elif side.units[0].dimensionless:
                plain = to_base_dimensionless(side.number, side.units[0])
                if plain is None:
                    return "unit_mismatch"
                new_pred.append(_latex_number(plain))
            else:
                return "unit_mismatch" if requested else "unit_unrequested"
    return " = ".join(new_pred), " = ".join(new_gold)


# An object named by its number in a remark ("to the right of lens 1", "from charge 2"):
# the number names the object, it states no value. Only nouns of numbered objects, and only a
# number that nothing follows but words.
_NUMBERED_OBJECT = re.compile(
    r"\b(lens|mirror|object|image|charge|block|ball|slit|plate|wire|loop|coil|resistor"
    r"|capacitor|inductor|particle|body|cart|car|region|medium|part|step|source|sphere|string"
    r"|spring|rod|pulley|planet|star|satellite|surface|case|stage|figure|fig|container|tank"
    r"|box|bulb|battery|branch|junction|node|electrode|piston|gas|sample|layer|interface)"
    r"\s*\d{1,2}\b(?!\s*[\d.,%^/*+=-])",
    re.IGNORECASE,
)


# The words a droppable remark is made of: where a quantity points or lies, what an image
# is like, how exact a value is, what it refers to. Any other word may change what the value
# means (``(kilo)``, ``(tenfold)``, ``(diameter)``, ``(gauge)``, ``(exclusive)``, ``(round
# trip)``, ``wavelengths``): a list of the words that change a value can never be complete, so
# the words that may be dropped are listed instead, and a remark of other words stays.
_DESCRIPTIVE = frozenset(
    """up upward upwards down downward downwards left leftward leftwards right rightward
    rightwards north south east west northeast northwest southeast southwest northward
    southward eastward westward northerly southerly easterly westerly northbound southbound
    eastbound westbound due clockwise
    counterclockwise anticlockwise counter inward inwards outward outwards toward towards away
    forward forwards backward backwards above below behind front beneath under underneath
    along across through radially radial radially tangential tangentially horizontal
    horizontally vertical vertically perpendicular parallel antiparallel direction directions
    directed pointing points pointed pointing axis plane page screen center centre centered
    origin ground floor wall ceiling surface incline ramp slope side sides top bottom edge
    inside outside within between near beyond past position located location lies lying
    inverted upright erect real virtual enlarged magnified diminished image object lens mirror
    lenses mirrors focal focus
    approximately approx about roughly nearly around exactly precisely estimated rounded
    attractive repulsive attraction repulsion attracted repelled
    magnitude only final initial initially finally moving motion travelling traveling
    stable unstable equilibrium net resultant
    slab gap plates plate capacitor charge charges field wire loop coil block ball mass car cart
    particle body string spring rod disk disc ring sphere shell cylinder pulley satellite
    planet star earth moon sun orbit path trajectory region medium water glass air vacuum
    observer frame lab laboratory rest stationary relative respect
    way trip then when where which while after before during since once
    given expected assumed neglecting ignoring including using taken measured
    launch launched release released start starting rising falling ascending descending
    parabola parabolic circle circular ellipse elliptical line straight""".split()
)


# Directions a remark may state, each with its canonical name: a prediction whose remark
# points elsewhere than the gold's (``to the right`` for ``to the left``) is wrong.
_DIRECTIONS = {
    **dict.fromkeys("up upward upwards rising ascending climbing".split(), "up"),
    **dict.fromkeys("down downward downwards falling descending".split(), "down"),
    **dict.fromkeys("left leftward leftwards".split(), "left"),
    **dict.fromkeys("right rightward rightwards".split(), "right"),
    **dict.fromkeys("north northward northwards northerly northbound".split(), "north"),
    **dict.fromkeys("south southward southwards southerly southbound".split(), "south"),
    **dict.fromkeys("east eastward eastwards easterly eastbound".split(), "east"),
    **dict.fromkeys("west westward westwards westerly westbound".split(), "west"),
    **dict.fromkeys("clockwise".split(), "clockwise"),
    **dict.fromkeys("counterclockwise anticlockwise".split(), "counterclockwise"),
    **dict.fromkeys("inward inwards".split(), "inward"),
    **dict.fromkeys("outward outwards".split(), "outward"),
    **dict.fromkeys("toward towards".split(), "toward"),
    **dict.fromkeys("away".split(), "away"),
    **dict.fromkeys("attractive attraction attracted".split(), "attractive"),
    **dict.fromkeys("repulsive repulsion repelled".split(), "repulsive"),
    **dict.fromkeys("above".split(), "above"),
    **dict.fromkeys("below beneath underneath".split(), "below"),
    **dict.fromkeys("inverted".split(), "inverted"),
    **dict.fromkeys("upright erect".split(), "upright"),
    **dict.fromkeys("real".split(), "real"),
    **dict.fromkeys("virtual".split(), "virtual"),
}


DIRECTION_NAMES = frozenset(_DIRECTIONS.values())
DIRECTION_WORDS = frozenset(_DIRECTIONS)


# A remark's words that claim nothing: articles, prepositions that only link, and the words
# that say a value points somewhere or is approximate. Every other word of a prediction's
# remark claims something (into, behind, top, before, horizontal, enlarged, stable, cart).
_NEUTRAL = frozenset(
    """a an the at to of on as by is it its be and from with for this that directed direction due
    pointing points point pointed toward towards approximately approx about roughly nearly
    around exactly precisely estimated rounded magnitude only net resultant value""".split()
)


def remark_words(text: str) -> frozenset[str]:
    """The words, case folded, of the text remarks in ``text`` (``\\text{(induced emf)}``,
    ``(after heating)``; not a name's subscript)."""
    found: set[str] = set()
    for match in _WORDED_ANY.finditer(text):
        words = re.findall(r"[A-Za-z]{2,}", match.group(1) or match.group(2) or "")
        found.update(word.casefold() for word in words)
    return frozenset(found)


_WORDED_ANY = re.compile(  # not in a subscript or superscript: v_{\\mathrm{final}} is a name
    r"(?<![_^])(?<![_^]\{)\\(?:text|textrm|mbox|textnormal|textit|mathrm)\s*\{([^{}]*)\}"
    r"|\(([A-Za-z][^()]*)\)"
)
_TURNING = re.compile(r"(?i)\b(?:counter|anti)[\s-]*clockwise\b")
# A compass bearing is ordered: "east of north" is not "north of east" (one claim each)
_BEARING = re.compile(r"(?i)\b(north|south|east|west)\s+of\s+(north|south|east|west)\b")
_NUMBERED = re.compile(_NUMBERED_OBJECT.pattern.replace(r"\s*\d{1,2}", r"\s*(\d{1,2})"), re.I)


def _claim(word: str) -> str | None:
    """A remark word as the claim it makes (``upwards``: up, ``vertically``: vertical), or
    None for a word that claims nothing or is a unit (``mm`` in ``mm/s to the left``)."""
    from studybench.verify.units import parse_unit

    lower = word.casefold()
    if lower in _DIRECTIONS:
        return _DIRECTIONS[lower]
    if lower in _NEUTRAL or len(lower) < 2 or parse_unit(word) is not None:
        return None
    if lower in ("const", "konst"):
        return "constant"  # the abbreviation claims what the word does
    for suffix in ("ly", "es", "s", "ed"):
        if lower.endswith(suffix) and len(lower) - len(suffix) >= 4:
            return lower[: -len(suffix)]
    return lower


def remark_claims(box: str) -> frozenset[str]:
    """What the words of a box's remarks claim (``\\text{ into the page}``: into, page;
    ``(to the left of lens 2)``: left, lens 2), the directions in their canonical names."""
    found: set[str] = set()
    box = _BEARING.sub(lambda m: f"{m.group(1)}of{m.group(2)}".casefold(), box)
    for match in _WORDED_ANY.finditer(_TURNING.sub("counterclockwise", box)):
        text = match.group(1) or match.group(2) or ""
        for numbered in _NUMBERED.finditer(text):
            found.add(f"{numbered.group(1).casefold()} {numbered.group(2)}")
        for word in _REMARK_WORDS.findall(_NUMBERED.sub(" ", text)):
            claim = _claim(word)
            if claim is not None:
                found.add(claim)
    return frozenset(found)


def _describes(word: str) -> bool:
    """Whether ``word`` (case folded) is one of the words a droppable remark may hold."""
    if word in _DESCRIPTIVE or word in _SHORT_WORDS or word in _FUNCTION_WORDS:
        return True
    for suffix in ("s", "es", "ly", "ed", "ing"):
        if word.endswith(suffix) and word[: -len(suffix)] in _DESCRIPTIVE:
            return True
    return False


def is_remark(
    text: str,
    strict: bool = True,
    allowed: frozenset[str] = frozenset(),
    after_unit: bool = False,
) -> bool:
    """:func:`describing_remark`, or after a value with its own unit, a remark of
    circumstance (:func:`circumstance_remark`)."""
    if describing_remark(text, strict, allowed, after_unit):
        return True
    return strict and after_unit and circumstance_remark(text)


# the name of a law or principle, as a remark: "(Snell's law)", "the ideal gas law", "(Hooke's
# law)", "(equation of state)", "(Bernoulli's principle)"; names only, no value words
_LAW_NAME = re.compile(
    r"^\s*\(?\s*(?:the\s+)?(?:(?:[A-Z][a-z]+['’]s|(?i:ideal|gas|first|second|third|zeroth|general"
    r"|thin|lens|mirror|energy|momentum|work|conservation|of|mass|charge))\s+)*"
    r"(?i:law|principle|theorem|equation\s+of\s+state|rule|formula|relation)\s*\)?\s*$"
)


def describing_remark(
    text: str,
    strict: bool = True,
    allowed: frozenset[str] = frozenset(),
    after_unit: bool = False,
) -> bool:
    """Whether ``text`` is words that cannot change the value they follow (``(downward)``,
    ``directed north``, ``approximately``), so dropping it leaves the claim as it was.

    Not a remark: a digit, an operator, a command (``\\text{ times 2}``, ``\\mathrm{kg\\,m/s}``),
    a word that multiplies, relates or offers another value (``thousand``, ``squared``, ``per``,
    ``or``, ``less than``), a unit (``(radians)``, ``per second``; things counted, ``(photons)``,
    are plain numbers read as counts) or a lone letter other than an axis (``k``). ``strict``
    (a prediction's remark): every word must be one that describes (:data:`_DESCRIPTIVE`); a
    gold's remark is trusted to change nothing, and the words it uses (``allowed``) may be
    repeated. ``after_unit``: the value before the remark has its own unit (``60 cm (real
    image)``), so a counted thing in it describes (what the 60 cm is of) and counts nothing;
    after a bare number (``3\\ \\text{photons}``) it is what the number counts."""
    from studybench.verify.units import counts_things, parse_unit

    if _LAW_NAME.match(text):
        return True  # "(Snell's law)", "(ideal gas law)": the name of what the answer states
    text = _NUMBERED_OBJECT.sub(r"\1", text)  # "to the left of lens 2": the lens's name
    if not _REMARK_TEXT.match(text) or _LONE_HYPHEN.search(text):
        return False
    words = _REMARK_WORDS.findall(text)
    if not any(len(word) > 1 and word not in _FUNCTION_WORDS for word in words):
        return False  # ``\\text{ x}``, ``\\text{ a}``: a symbol, not words
    pairs = (" ".join(words[i : i + 2]) for i in range(len(words) - 1))
    if any(parse_unit(pair) is not None for pair in pairs):
        return False  # a unit of two words: "solar radii", "degrees Celsius", "Earth years"
    for word in words:
        lower = word.casefold()
        if lower in VALUE_WORDS:
            return False
        if counts_things(word) and not after_unit:
            return False  # ``12 photons`` is a count: read as one, never dropped
        if counts_things(word):
            continue
        if word in _FUNCTION_WORDS or word in _AXES:
            continue  # lower case only: ``A`` is an ampere, ``a`` an article
        if strict and not _describes(lower) and lower not in allowed:
            return False  # a word that may change the value's meaning: (kilo), (diameter)
        if len(word) < 4 and lower not in _SHORT_WORDS:
            return False  # ``kms``, ``kto``: a short token that is no word may be a unit
        if word[1:] != word[1:].lower() or parse_unit(word) is not None:
            return False  # ``kkW``: a capital inside is a unit's, not a word's
    return True


# A remark of circumstance after a value with its unit: "(at B)", "(after heating)", "(just
# before impact)", "(neglecting air resistance)", "(with no friction)". It says when or where
# the value holds, as the question does, and changes nothing the value claims.
_CIRCUMSTANCE_OPENERS = frozenset(
    "at after before during in on upon for with neglecting ignoring assuming just when once"
    " while".split()
)
_CIRCUMSTANCE_NOUNS = frozenset(
    "just any impact collision contact landing friction drag resistance losses slipping heating"
    " cooling mixing expansion compression".split()
)
# words that make the value another quantity's: each, total, both, the mean, per, another
_QUANTIFIERS = frozenset(
    """each total both combined together average mean rms peak amplitude every apiece
    individual individually respectively sum other another instead alone single per overall
    cumulative relative diameter radius first second""".split()
)
_NEGATED_CIRCUMSTANCE = frozenset("friction drag slipping losses loss air".split())
# a question that leaves out a circumstance a remark may bring back
_EXCLUDED = re.compile(
    r"neglect|ignor|frictionless|smooth|\bno\s+(?:air|friction|drag)"
    r"|without\s+(?:air|friction|drag)",
    re.IGNORECASE,
)


# the written-out extremes models abbreviate ("Max height: 11.5 m")
_ABBREVIATED = {"maximum": "max", "maximal": "max", "minimum": "min", "minimal": "min"}


def word_stem(word: str) -> str:
    """A lowercase word without its inflection ("heights" and "height" alike), for matching
    a remark's or a label's words against the question's. An extreme and its abbreviation
    alike: "Max height" names the maximum height."""
    word = _ABBREVIATED.get(word, word)
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


# words of no content before a quantity's noun: "the emf", "an efficiency"
_ARTICLES = frozenset({"the", "a", "an", "its", "their"})
# a run of letters: a word of a label or of the asking part (``_WORD`` above counts two letters
# at least, for remarks)
LETTER_RUN = re.compile(r"[A-Za-z]+")


# words of value that also name a quantity, where the question asks with them: "the maximum
# height" (red team r24c: "\\text{maximum height} = 11.5 m" was an unasked label)
_EXTREMA = frozenset("max min maximum minimum maximal minimal".split())


def asked_place(label: str, question: str) -> int | None:
    """Where the asking part of ``question`` writes the words of ``label`` in a row
    (inflection and articles aside), or None: "current" in "Find the emf and the current";
    a word of value ("twice") is no name of a quantity."""
    words = [w.casefold() for w in LETTER_RUN.findall(label) if w.casefold() not in _ARTICLES]
    if not words or any(w in VALUE_WORDS and w not in _EXTREMA for w in words):
        return None  # an extreme names the quantity where the asking part writes it too
    asked = [
        (m.start(), word_stem(m.group().casefold()))
        for m in LETTER_RUN.finditer(asking_part(question))
        if m.group().casefold() not in _ARTICLES
    ]
    stems = [word_stem(w) for w in words]
    for i in range(len(asked) - len(stems) + 1):
        if [stem for _, stem in asked[i : i + len(stems)]] == stems:
            return asked[i][0]
    return None


def circumstance_remark(text: str) -> bool:
    """Whether ``text`` (a remark after a value that has its own unit) says only when or
    where the value holds: it opens with a preposition of circumstance, and every other word
    describes, is a word of the question's prose, is one of a few circumstance nouns, or is
    a capital letter the question writes (a state or point: "(at B)"). Never with a value
    word (``(at twice the speed)``; ``no`` only before friction, drag, losses), a quantifier
    (``(each)``, ``(in total)``, ``(per mole)``), a unit or a counted thing."""
    from studybench.verify.units import counts_things, parse_unit

    question = asked_question(folded=False)
    content = text.strip().strip("()").strip()
    if not question or not re.fullmatch(r"[A-Za-z\s,'-]+", content):
        return False
    words = re.findall(r"[A-Za-z]+", content)
    if not words or words[0].casefold() not in _CIRCUMSTANCE_OPENERS:
        return False
    lowered = [word.casefold() for word in words]
    if "with" in lowered and "no" not in lowered and _EXCLUDED.search(question):
        return False  # "(with friction)" where the question neglects it
    prose = MATH_SPAN.sub(" ", question).casefold()
    stems = {word_stem(w) for w in re.findall(r"[a-z]{4,}", prose)}
    for i, word in enumerate(words):
        lower = word.casefold()
        if lower in VALUE_WORDS or word_stem(lower) in VALUE_WORDS:
            following = words[i + 1].casefold() if i + 1 < len(words) else ""
            if lower == "no" and following in _NEGATED_CIRCUMSTANCE:
                continue
            return False
        if lower in _QUANTIFIERS:
            return False
        if len(word) == 1 and word.isupper():
            if not re.search(rf"(?<![A-Za-z\\_{{]){word}(?![A-Za-z])", asking_part(question)):
                return False  # "(at A)" where the question asks about B (and gives T_A)
            continue
        if lower in _FUNCTION_WORDS or lower in _CIRCUMSTANCE_OPENERS or _describes(lower):
            continue
        if lower in _CIRCUMSTANCE_NOUNS:
            continue
        if counts_things(word) or len(word) < 4 or word[1:] != word[1:].lower():
            return False
        if parse_unit(word) is not None or word_stem(lower) not in stems:
            return False
    return True


def _unit_then_remark(
    content: str, strict: bool = True, allowed: frozenset[str] = frozenset()
) -> str | None:
    """The unit that opens a text group followed by a remark: ``km/s (to the right)`` ->
    ``km/s``, ``T, to the right`` -> ``T``; None when the group is not a unit and a remark.

    The remark goes, the unit never: dropping the whole group read ``3 km/s`` as 3 in the
    gold's unit."""
    from studybench.verify.units import parse_unit

    content = content.strip()
    cuts = [m.start() for m in re.finditer(r"[\s(,;:]", content)]
    for cut in reversed(cuts):  # the longest unit first
        unit, rest = content[:cut].strip(), content[cut:].strip(" ,;:")
        if (
            unit
            and rest
            and parse_unit(unit) is not None
            and is_remark(rest, strict, allowed, after_unit=True)
        ):
            return unit
    return None


def strip_remark(text: str, strict: bool = True, allowed: frozenset[str] = frozenset()) -> str:
    """Drop trailing natural-language remarks from a mathematical answer.

    ``\\frac{mg}{k}\\ \\text{(downward)}`` -> ``\\frac{mg}{k}``; ``3\\ \\text{km/s (to the
    right)}`` -> ``3\\ \\text{km/s}``. Only a remark that cannot change the value is dropped
    (:func:`is_remark`): ``\\text{ thousand}``, ``\\text{ per second}``, ``\\text{ or 7 s}``
    and a unit stay, and the answer is judged with them. Runs on the raw box content, before
    ``\\text`` is unwrapped.
    """
    stripped = text.rstrip()
    for _ in range(3):  # a remark after a remark: \text{ m}\ \text{(upward)}
        shorter = _strip_one_remark(stripped, strict, allowed)
        if shorter == stripped:
            break
        stripped = shorter
    return stripped if stripped != text.rstrip() else text


# The last token before a remark when it is a unit: ``\\mathrm{cm}``, ``\\text{ m/s}``, ``cm``
_LAST_TOKEN = re.compile(
    r"(?:\\(?:mathrm|text|textrm|rm|mbox)\s*\{(?P<group>[^{}]*)\}|(?<![\w\\])(?P<bare>[A-Za-zµ]\S*))"
    r"(?:\s|\\[ ,;:!]|~)*$"
)


def _ends_in_unit(head: str) -> bool:
    """Whether ``head`` (a value before a remark) ends in a unit: ``60\\,\\mathrm{cm}``, ``cm``."""
    from studybench.verify.units import parse_unit

    match = _LAST_TOKEN.search(head)
    if match is None:
        return False
    unit = (match.group("group") or match.group("bare") or "").strip()
    return bool(unit) and not unit[0].isdigit() and parse_unit(unit) is not None


# a stated precision after the value changes nothing: "(to 3 s.f.)", "\\text{(2 d.p.)}",
# "(\\text{rounded to three significant figures})"
# possessive (``*+``) where optional spaces meet: a run of spaces in a box (100 took 13 s)
_PRECISION_REMARK = re.compile(
    r"(?:\\[,;: ]|\s|~)*+\(?\s*+(?:\\(?:text|textrm|mbox|textnormal|textit)\s*+\{)?\s*+\(?\s*+"
    r"(?:(?:rounded|correct|accurate)\s+)?(?:to\s+)?(?:\d{1,2}|one|two|three|four|five|six)"
    r"(?:\\[,;: ]|\s|~)*+(?:\\(?:text|textrm|mbox|mathrm)\s*+\{)?\s*+"
    r"(?:s\.\s*f\.?|sf\b|sig\.?\s*figs?\.?|significant\s+(?:figures|digits)|d\.\s*p\.?|dp\b"
    r"|decimal\s+places?)\s*+\)?\s*+\}?\s*+\)?\s*+$",
    re.IGNORECASE,
)
_REMARK_SCOPE = 160  # a precision remark ends the box: it is looked for in its last characters


def _strip_one_remark(text: str, strict: bool = True, allowed: frozenset[str] = frozenset()) -> str:
    scope = max(0, len(text) - _REMARK_SCOPE)
    precision = _PRECISION_REMARK.search(text, scope)
    if precision is not None and text[: precision.start()].strip():
        return text[: precision.start()]
    for pattern in (_TEXT_GROUP, _PAREN_REMARK, _PAREN_TEXT):
        match = pattern.search(text)
        if match is None or not text[: match.start()].strip():
            continue
        content = match.group(1)
        words = _WORD.findall(content)
        if pattern is _PAREN_REMARK and not (len(words) > 1 or any(len(w) > 3 for w in words)):
            continue  # f(xy) is a product, (to the left) a remark
        if is_remark(content, strict, allowed, after_unit=_ends_in_unit(text[: match.start()])):
            return text[: match.start()].rstrip(" ,;:\\")
        if pattern is _TEXT_GROUP:
            unit = _unit_then_remark(content, strict, allowed)
            if unit is not None:
                head = text[: match.start(1)]
                return head + unit + "}"
    return text


# "and" / "or" written inside a unit's text group, between two values: ``8\ \text{V and }
# 2\ \text{A}``, ``0.382 \text{ m or } 0.218 \text{ m}``.
_CONNECTIVE_IN_TEXT = re.compile(
    r"\\(?P<command>text|textrm|mathrm|mbox)\s*\{(?P<head>[^{}]*?)\s+(?P<word>and|or)\s*\}"
)


# a box that opens with the quantity's name in words: "\\text{The period is } 2\\pi\\sqrt{m/k}",
# "\\text{Final temperature: } 57.5\\,^\\circ C"
_NAME_PHRASE = re.compile(
    r"^\s*\\(?:text|textrm|textbf|mathrm|mbox)\s*\{\s*(?:the\s+)?"
    r"(?P<name>[A-Za-z][A-Za-z' -]{1,60}?)\s*(?:\s(?:is|are|equals)|:)\s*\}\s*",
    re.IGNORECASE,
)


# a box that is one sentence in a text group stating one value: "\\text{The speed is 14.5 m/s}",
# "\\text{The equilibrium temperature is about 245 K.}", "\\text{Maximum height: 11.5 m}"
_SENTENCE_BOX = re.compile(
    r"^\s*\\(?:text|textrm|mbox)\s*\{\s*"
    r"(?P<lead>(?:the\s+)?[A-Za-z][A-Za-z' -]{1,60}?(?:\s+(?:is|are|equals)|:))"
    r"\s+(?:(?:about|approximately|roughly|around|nearly|close\s+to)\s+)?"
    r"(?P<value>[+-]?\d+(?:\.\d+)?(?:\s*(?:\\times|x|×)\s*10\s*\^\s*\{?\s*[+-]?\d+\s*\}?)?)"
    r"(?:\s+(?P<unit>[^{}\d]{1,20}?))?\s*\.?\s*\}\s*$",
    re.IGNORECASE,
)


def _sentence_as_phrase(box: str) -> str:
    """One sentence in a text group that states one value with its unit (``\\text{The speed
    is 14.5 m/s}``) as the name, the value and the unit apart (``\\text{The speed is } 14.5\\
    \\text{m/s}``), which :func:`phrase_as_label` then reads. Left as written where anything
    follows that is not a unit ("14.5 m/s less than before", "at most"), and where the
    sentence names a quantity the question's asking part does not ("The time is 14.5 m/s",
    "The speed lost is …" for "find its speed"; red team r23a): the judge's to read."""
    from studybench.verify.units import parse_unit

    match = _SENTENCE_BOX.match(box)
    if match is None:
        return box
    question = asked_question(folded=False)
    name = re.sub(
        r"(?:\s+(?:is|are|equals)|:)$", "", match.group("lead").strip(), flags=re.IGNORECASE
    )
    if not question or asked_place(name, question) is None:
        return box  # "The time is 14.5 m/s" for the speed: a claim about another quantity
    unit = match.group("unit")
    if unit and parse_unit(normalize_answer(unit.strip())) is None:
        return box
    tail = rf"\ \text{{{unit.strip()}}}" if unit else ""
    return rf"\text{{{match.group('lead')} }} {match.group('value')}{tail}"


def phrase_as_label(box: str) -> str:
    """A box that names its quantity in words before the value (``\\text{The period is }
    2\\pi\\sqrt{m/k}``) in the label form the rules read (``\\text{period} = 2\\pi\\sqrt{m/k}``),
    so the name is judged as a label is. Left as written where the rest states a relation of
    its own or more words, or the name has a word of value ("is twice", "is less than")."""
    box = _sentence_as_phrase(box)
    match = _NAME_PHRASE.match(box)
    if match is None:
        return box
    rest = box[match.end() :]
    if not rest or "=" in rest or rest.lstrip().startswith("\\text"):
        return box
    words = re.findall(r"[A-Za-z]+", match.group("name"))
    if not words or any(
        word.casefold() in VALUE_WORDS and not _asked_extreme(word, match.group("name"))
        for word in words
    ):
        return box
    return f"\\text{{{match.group('name').strip()}}} = {rest}"


def _asked_extreme(word: str, name: str) -> bool:
    """Whether ``word`` is an extreme ("maximum") of a name the question's asking part
    writes ("Maximum height: 11.5 m" where it asks for the maximum height): then it names
    the quantity; elsewhere "maximum" may be a bound on the value."""
    question = asked_question(folded=False)
    return (
        word.casefold() in _EXTREMA
        and question is not None
        and asked_place(name, question) is not None
    )


def split_unit_connectives(box: str) -> str:
    """``\\text{ V and }`` -> ``\\text{ V} \\text{ and }``: the connective ends the element,
    the unit stays with its value. Only where the rest of the group is a unit (or a unit and
    a remark), so a phrase (``\\text{pulled in or }``) is left alone."""
    from studybench.verify.units import parse_unit

    def split(match: re.Match[str]) -> str:
        head = match.group("head")
        unit = normalize_answer(head.strip())
        if not unit or (parse_unit(unit) is None and _unit_then_remark(head) is None):
            return match.group(0)
        return rf"\{match.group('command')}{{{head}}} \text{{ {match.group('word')} }}"

    return _CONNECTIVE_IN_TEXT.sub(split, box)


_ROW_END = r"\\\\(?:\s*\[[^\]]*\])?"  # \\ and its optional spacing, \\[2pt]
_ELEMENT_SEPARATORS = (
    re.compile(_ROW_END),  # rows of cases / aligned
    re.compile(r"\\q?quad(?![a-zA-Z])"),
    re.compile(r";"),
    re.compile(r"\\text\s*\{\s*(?:and|,)\s*\}|\s+and\s+"),
    # a list ending in "and": "a, b \text{ and } c", "a, b, and c"
    re.compile(r"(?:,\s*)?(?:\\text\s*\{\s*,?\s*and\s*\}|\band\s)\s*|,"),
)
# A separator that opens a text group, before the last element: ``-6.00\\text{ and
# inverted}``, ``-6.00\\text{, inverted}`` (a unit before "and" is split_unit_connectives')
_SEPARATOR_IN_TEXT = re.compile(r"\\text\s*\{\s*(,|;|and\s)\s*([^{}]*?)\s*\}")


def _separator_out_of_text(match: re.Match[str]) -> str:
    mark = match.group(1).strip()
    separator = r"\text{ and } " if mark == "and" else mark + " "
    return separator + (r"\text{" + match.group(2) + "}" if match.group(2) else "")


_ENVIRONMENT = re.compile(
    r"\\(?:begin|end)\s*\{\s*(?:cases|aligned|align|array|tabular|gathered|gather|split|[pbvV]?matrix)"
    r"\*?\s*\}(?:\s*\{(?:[^{}]|\{[^{}]*\})*\})?"  # an array's column spec: {ll}, {@{}cc@{}}
)
# the brace that opens a system of equations: \left\{ ... \right., and brackets around a table
_SYSTEM_BRACE = re.compile(r"\\left\s*(?:\\\{|[(\[])|\\right\s*(?:\.|[)\]])|\\[{}]")
_NESTED_ROW = re.compile(rf"{_ROW_END}|;")
# spacing commands at the ends of a piece cut from a list (``a\\ ,\\ b``)
SPACING_ENDS = re.compile(r"^(?:\\[,;:! ]|\s)+|(?:\\[,;:! ]|\s|\\(?=\s*$))+$")
_GROUP = re.compile(r"^\s*[(\[](?P<inner>.*)[)\]]\s*$", re.DOTALL)


def has_environment(text: str) -> bool:
    """Whether a box lays out rows (``\\begin{cases}``, ``aligned``, ``array``)."""
    return _ENVIRONMENT.search(text) is not None


def split_elements(text: str, count: int) -> tuple[str, ...] | None:
    """A single box holding ``count`` elements: ``a \\quad b``, ``\\begin{cases} a \\\\ b
    \\end{cases}``, ``a; b``, ``a and b``, ``a, b \\text{ and } c``, a table given as rows
    (``(1, 2), (3, 4)``, ``[[1, 2], [3, 4]]``, ``1, 2 \\\\ 3, 4``). None when no separator
    gives ``count`` parts."""
    body = _ENVIRONMENT.sub(" ", text)
    if has_environment(text):
        body = _SYSTEM_BRACE.sub(" ", body)
    table = _HLINE.sub(" ", body)  # rules drawn between rows are no rows (nor elements)
    cells = _table_cells(table, count)
    if cells is not None:  # a table's rows are no elements where its cells are
        return cells
    body = _SEPARATOR_IN_TEXT.sub(_separator_out_of_text, table.replace("&", " ")).strip()
    for separator in _ELEMENT_SEPARATORS:
        parts = [p.strip(" ,") for p in split_top(body, separator)]
        parts = [p for p in parts if p]
        if len(parts) == count:
            return tuple(parts)
    return _nested_cells(text, count)


def _nested_cells(text: str, count: int) -> tuple[str, ...] | None:
    """A table written as a list of rows, ``count`` cells in all, every row as long: the
    cells in row order, as for a table (``(1, 2), (3, 4)``; rows split at ``\\\\``, ``;`` or
    between bracketed groups)."""
    outer = _GROUP.match(text)
    candidates = [text]
    if outer is not None and _GROUP.match(outer.group("inner").split(",")[0] + ")"):
        candidates.append(outer.group("inner"))  # [[1, 2], [3, 4]]
    for candidate in candidates:
        rows = [r for r in split_top(candidate, _NESTED_ROW) if r.strip()]
        if len(rows) < 2:
            rows = [r for r in split_top(candidate, re.compile(",")) if r.strip()]
            if not all(_GROUP.match(SPACING_ENDS.sub("", r)) for r in rows):
                continue
        rows = [SPACING_ENDS.sub("", row) for row in rows]
        cells: list[list[str]] = []
        for row in rows:
            group = _GROUP.match(row)
            inner = group.group("inner") if group is not None else row
            cells.append([c.strip() for c in split_top(inner, re.compile(",")) if c.strip()])
        if len(rows) > 1 and len({len(r) for r in cells}) == 1 and sum(map(len, cells)) == count:
            return tuple(c for row in cells for c in row)
    return None


_HLINE = re.compile(r"\\(?:hline|toprule|midrule|bottomrule)(?![a-zA-Z])")
_CELL = re.compile(r"&")
_ROW = re.compile(_ROW_END)
_RELATION_START = re.compile(r"^(?:=|<|>|\\(?:approx|le|ge|leq|geq|neq|sim)(?![a-zA-Z]))")


def _table_cells(body: str, count: int) -> tuple[str, ...] | None:
    """The cells of a table (``a & b \\\\ c & d``, an ``array`` or ``tabular``) in row
    order, when there are ``count`` of them: a tuple given as a table is the same values as
    the list read row by row (a transposed table differs in its elements, so it is wrong).

    Only a table whose every row has the same number of cells counts, and no cell may start
    with a relation: ``x &= 1 \\\\ y &= 2`` is an aligned system (two rows), not four cells."""
    if "&" not in body:
        return None
    rows = [row for row in split_top(body, _ROW) if row.strip()]
    table = [[cell.strip(" ,") for cell in split_top(row, _CELL)] for row in rows]
    if len({len(row) for row in table}) != 1:
        return None
    if len(table) * len(table[0]) != count:
        table = _without_headings(table, count)
    cells = [cell for row in table for cell in row]
    if len(cells) != count or not all(cells) or any(_RELATION_START.match(c) for c in cells):
        return None
    return tuple(cells)


# a column's heading: a name, maybe with the column's unit in brackets (``E_n\ (\text{eV})``)
_HEADING = re.compile(
    r"^(?P<name>[^\d()]+?)(?:\s|\\[,;: ]|~)*(?:\(\s*(?:\\(?:text|mathrm)\s*\{)?"
    r"(?P<unit>[^\d(){}]+?)\}?\s*\))?\s*$"
)


def _without_headings(table: list[list[str]], count: int) -> list[list[str]]:
    """A table with a heading row of names (``T_B & T_C & T_D \\\\ \\hline 2T_0 & ...``) and an
    index column (``n``: 1, 2, 3) as its values alone, a unit in a heading given to its
    column's bare numbers. Headings in names the question writes must follow the question's
    order: a row of values under names in another order says they are other elements."""
    headings = [_HEADING.match(cell) for cell in table[0]]
    if len(table) < 2 or any(h is None or not is_label(h.group("name")) for h in headings):
        return table
    body = [list(row) for row in table[1:]]
    units = [h.group("unit") if h is not None else None for h in headings]
    if len(body[0]) > 1 and [row[0] for row in body] == [str(i + 1) for i in range(len(body))]:
        body, units, names = [row[1:] for row in body], units[1:], headings[1:]
    else:
        names = headings
    if len(body) * len(body[0]) != count or not _in_question_order(
        [h.group("name") for h in names if h]
    ):
        return table
    for row in body:
        for column, unit in enumerate(units):
            if unit and _BARE_CELL.match(row[column]):
                row[column] = f"{row[column]}\\,\\mathrm{{{unit.strip()}}}"
    return body


_BARE_CELL = re.compile(
    r"^\s*[+\-−]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s*\\times\s*10\^\{?-?\d+\}?)?\s*$"
)


def _in_question_order(names: list[str]) -> bool:
    """Whether the headings ``names`` that the question writes come in the question's order,
    compared as names (``T_{C}`` is ``T_C``). A heading that shares its letter with the
    question's names but is none of them (``T_A`` beside ``T_B, T_C``) names another element:
    no reading as headings."""

    def key(name: str) -> str:
        return re.sub(r"[{}\s]|\\(?:mathrm|text|rm)", "", name)

    written = [key(m.group(0)) for m in NAME.finditer(question_math(asked_question(False) or ""))]
    letters = {name.split("_")[0] for name in written if "_" in name}
    places = []
    for name in map(key, names):
        if name in written:
            places.append(written.index(name))
        elif (
            "_" in name
            and name.split("_")[0] in letters
            and not re.fullmatch(r"[^_]+_[nijk]", name)
        ):
            return False
    return places == sorted(places)


def split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """Split at matches of ``separator`` outside braces, brackets and parentheses."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        if depth == 0:
            match = separator.match(text, i)
            if match is not None and match.end() > i:
                parts.append(text[start:i])
                start = i = match.end()
                continue
        i += 2 if char == "\\" and i + 1 < len(text) and text[i + 1] == "\\" else 1
    parts.append(text[start:])
    return parts


# An operator or unit vector written with a hat, with its subscript and power: \hat{p},
# \hat S_x, \widehat{U}^{-1}. Products of them need not commute ([x, p] = i hbar, i x j = k).
_HATTED = re.compile(
    r"\\(?:hat|widehat)\s*(?:\{\s*(?P<braced>[^{}]*?)\s*\}|(?P<bare>\\[A-Za-z]+|[A-Za-z]))"
    r"(?P<sub>\s*_\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9]+))?"
    r"(?P<power>\s*\^\s*(?:\{[^{}]*\}|[+-]?\d))?"
)


def _top_level_pieces(text: str, cuts: str) -> list[tuple[str, int, int]]:
    """``text`` cut at each character of ``cuts`` outside brackets (not an exponent's,
    subscript's or ``1e-3``'s sign): (the cut before the piece, "" for the first; its start;
    its end). The additive terms of an expression or of both sides of an equation."""
    pieces: list[tuple[str, int, int]] = []
    depth, start, before = 0, 0, ""
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0 and char in cuts and (i == 0 or text[i - 1] not in "^_e"):
            pieces.append((before, start, i))
            before, start = char, i + 1
    pieces.append((before, start, len(text)))
    return pieces


def _hat_name(match: re.Match[str]) -> str:
    name = (match.group("braced") or match.group("bare") or "").replace(" ", "")
    sub = re.sub(r"[\s{}_]", "", match.group("sub") or "")
    power = re.sub(r"[\s{}^]", "", match.group("power") or "")
    return f"{name}_{sub}^{power}"


def multiplies_hats(piece: str, hats: list[re.Match[str]]) -> bool:
    """Whether two neighbouring hatted symbols of the additive term ``piece`` multiply each
    other (``\\hat x\\hat p``, ``\\hat x(\\hat p + 1)``, ``(\\hat x + 1)(\\hat p + 2)``)
    rather than add inside one bracket (``(4\\hat x + 3\\hat y)\\,\\mathrm N``, a vector).
    Between two hats, a sign at the lowest bracket level the text between them reaches adds
    them; a sign deeper down (``(\\hat x + 1)(\\hat p)``) is inside a factor. Read as one
    product, a vector's coefficients were summed into one number (``4 + 3`` and ``3 + 4``):
    ``(4\\hat x + 3\\hat y)`` equalled ``(3\\hat x + 4\\hat y)`` (red team r20b)."""
    for first, second in itertools.pairwise(hats):
        depth = lowest = 0
        sign_depths = set()
        for i in range(first.end(), second.start()):
            char = piece[i]
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                lowest = min(lowest, depth)
            elif char in "+-" and piece[i - 1] not in "^_e":
                sign_depths.add(depth)
        if lowest not in sign_depths:
            return True
    return False


def operator_terms(
    text: str, sign: int = 1, every: bool = False
) -> list[tuple[int, tuple[str, ...]]]:
    """The additive terms of ``text`` (top level) that multiply two or more hatted symbols,
    each as (sign, the hatted names in written order): ``\\hat p\\hat x - \\hat x\\hat p`` ->
    ``[(1, (p, x)), (-1, (x, p))]``. Terms with fewer hats say nothing about order; ``every``:
    they are listed too, by their sign only (an equation negated as a whole flips them)."""
    terms: list[tuple[int, tuple[str, ...]]] = []
    pieces = [
        (-sign if before == "-" else sign, text[begin:end])
        for before, begin, end in _top_level_pieces(text, "+-")
    ]
    for term_sign, piece in pieces:
        hats = list(_HATTED.finditer(piece))
        names = tuple(_hat_name(m) for m in hats)
        if len(names) >= 2 and multiplies_hats(piece, hats):
            terms.append((term_sign, names))
        elif every and piece.strip():
            terms.append((term_sign, ()))
    return terms


def operator_order_differs(pred: str, gold: str, equation: bool = False) -> bool:
    """Whether two answers that multiply hatted symbols (operators, unit vectors) multiply
    them in another order or with other signs: the parsers read every symbol as commuting, so
    ``\\hat p\\hat x - \\hat x\\hat p`` equalled ``\\hat x\\hat p - \\hat p\\hat x``. Terms are
    compared as (sign, hatted names in order); an equation's sides are moved to the left,
    and an equation may be negated as a whole. Only where a term holds two or more hats."""
    if "hat" not in pred and "hat" not in gold:
        return False

    def terms(text: str) -> list[tuple[int, tuple[str, ...]]]:
        sides = text.split("=")
        if not equation or len(sides) != 2:
            return operator_terms(text)
        return operator_terms(sides[0], 1, True) + operator_terms(sides[1], -1, True)

    ours, theirs = sorted(terms(pred)), sorted(terms(gold))
    if not any(names for _, names in ours + theirs):
        return False
    if ours == theirs:
        return False
    if equation:
        flipped = sorted((-s, names) for s, names in ours)
        return flipped != theirs
    return True


_EMPTY_GROUP = re.compile(r"\(\s*\)|\{\s*\}")
_PRODUCT_SIGN = re.compile(r"\\(?:times|cdot)(?![a-zA-Z])")


def name_operator_products(texts: tuple[str, ...]) -> tuple[str, ...]:
    """Each additive term's product of two or more hatted symbols replaced by one symbol
    per ordered product (``\\hat x\\hat p`` and ``\\hat p\\hat x`` become two symbols),
    shared by all ``texts``: read as commuting, a commutator ``\\hat x\\hat p - \\hat p\\hat x``
    was zero, so ``[x, p] = Q i\\hbar`` was proportional to ``[x, p] = i\\hbar``. Texts
    without such a term are returned as they are."""
    names: dict[tuple[str, ...], str] = {}

    def rename(text: str) -> str:
        out: list[str] = []
        position = 0
        for _, begin, end in _top_level_pieces(text, "+-="):
            piece = text[begin:end]
            hats = list(_HATTED.finditer(piece))
            if len(hats) >= 2 and multiplies_hats(piece, hats):
                key = tuple(_hat_name(m) for m in hats)
                symbol = names.setdefault(key, f"O_{{op{len(names) + 1}}}")
                rest = _PRODUCT_SIGN.sub(" ", _HATTED.sub(" ", piece))
                for _ in range(3):
                    rest = _EMPTY_GROUP.sub(" ", rest)
                piece = f" {rest.strip()} {symbol} "
            out.append(text[position:begin] + piece)
            position = end
        out.append(text[position:])
        return "".join(out)

    if not any("hat" in text for text in texts):
        return texts
    renamed = tuple(rename(text) for text in texts)
    return renamed if names else texts
