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

import math
import re
from collections.abc import Callable
from typing import Any

from studybench.verify.angle_reference import question_references
from studybench.verify.asked import asked_question
from studybench.verify.chains import (
    Compare,
    chain,
    gold_chain,
    in_one_quantity,
    judge_chain,
    same_label,
    transformed_quantity,
    value_sides,
    wrong_label,
)
from studybench.verify.given import contradicts_givens
from studybench.verify.normalize import (
    NAME,
    expand_siunitx,
    last_side,
    normalize_answer,
    question_math,
)
from studybench.verify.number_words import number_in_words
from studybench.verify.parsing import (
    Quantity,
    UnparseableError,
    has_decimal,
    parse_quantity,
    split_values,
    written_precision,
)
from studybench.verify.question import (
    asks_temperature_change,
    counted_in_question,
    data_angle_unit,
    single_asked_name,
)
from studybench.verify.relations import bound_direction, bound_name, bound_value, is_label
from studybench.verify.unit_arithmetic import quantity_arithmetic
from studybench.verify.units import (
    PROSE_WORDS,
    convert,
    counted_things,
    has_offset,
    is_angle,
    is_dimensionless,
    parse_unit,
    same_dimension,
    temperature_step,
    to_base_dimensionless,
    unit_readings,
)

_PLUS_MINUS = (r"\pm", r"\mp", "±", "∓")
# what makes a bare number an angle in radians: pi written in it, or an inverse trigonometric
# function around it ("\\arcsin(0.483)", "\\sin^{-1}(0.483)": 0.504, not 0.504 degrees)
_RADIANS = re.compile(
    r"\\pi(?![a-zA-Z])"
    r"|^\s*(?:\\left)?\s*(?:\\(?:arc(?:sin|cos|tan)|operatorname\s*\{\s*arc(?:sin|cos|tan)\s*\})"
    r"(?![a-zA-Z])|\\(?:sin|cos|tan)\s*\^\s*\{?\s*-\s*1\s*\}?)"
)

Outcome = Any  # studybench.verify.rules.outcome.Outcome (kept import-free to avoid a cycle)
MatchAll = Callable[[list[str], list[str], Callable[[str, str], Any]], Any]


def close(pred: float, gold: float, tolerance: float) -> bool:
    """Relative closeness. A zero gold is matched by zero only: a stated non-zero quantity
    (``1.6\\times10^{-19}\\,C``) is not zero, however small in the gold's unit; an infinite
    one by itself only (``abs(p - inf) <= tol * inf`` held for every prediction)."""
    if gold == 0.0 or math.isinf(gold):
        return pred == gold  # an infinite gold (5000 dB in pint) is matched by itself only
    return abs(pred - gold) <= tolerance * abs(gold) * (1 + 1e-9)


def _readings(quantity: Quantity) -> tuple[Any, ...]:
    """The units a quantity's unit text may mean: the usual reading, then the others."""
    if quantity.unit is None:
        return ()
    others = unit_readings(quantity.unit_text) if quantity.unit_text else ()
    return (quantity.unit, *(u for u in others if u != quantity.unit))


def _gold_readings(gold: Quantity, requested: tuple[Any, ...]) -> tuple[Any, ...]:
    """The gold's unit in one reading: an ambiguous symbol (``A``: ampere or ångström) takes
    the reading of the dimension the question asks for, else its usual one. Reading the gold
    both ways accepted ``1.5\\,\\AA`` for a current of ``1.5\\,A``."""
    readings = _readings(gold)
    for reading in readings:
        if any(same_dimension(reading, unit) for unit in requested):
            return (reading,)
    return readings[:1]


def _convert_any(pred: Quantity, targets: tuple[Any, ...]) -> tuple[float, Any] | None:
    """The prediction in the first target unit one of its readings converts to."""
    for target in targets:
        for unit in _readings(pred):
            converted = convert(pred.value, unit, target)
            if converted is not None:
                return converted, target
    return None


def _scale_reading(pred: Quantity, requested: tuple[Any, ...], gold: float) -> float | None:
    """A dimensionless unit (``%``, ``ppm``, ``turn``, ``^\\circ``) against a unitless gold,
    read one way: in the scale the question names (``percentage``: the gold is in percent),
    else applied (``3\\,ppm`` is 3e-6, ``30^\\circ`` is 0.52 rad). Reading it both ways
    accepted one box for two golds a factor apart."""
    scales = tuple(unit for unit in requested if is_dimensionless(unit))
    if not scales and is_angle(pred.unit):
        angle = _data_angle(asked_question(folded=False), gold)  # the gold is in the data's
        scales = (angle,) if angle is not None else ()
    if scales:
        hit = _convert_any(pred, scales)
        if hit is not None:
            return hit[0]
    return to_base_dimensionless(pred.value, pred.unit)


def _data_angle(question: str | None, gold: float) -> Any | None:
    """The unit a bare angle gold is in (:func:`~studybench.verify.question.data_angle_unit`),
    where the asked angle is one measured from a line (the asking part names one, or its
    kind has one by convention: "the angle of refraction") and the gold is larger than a
    right angle in radians, or it is too large for radians at all; a rotation, a phase
    constant or a bare "angle" given beside data in degrees may still be in radians (red
    teams r25a, r26a)."""
    unit = data_angle_unit(question)
    if unit is None or question is None:
        return unit
    if abs(gold) > 3 * math.pi or (question_references(question) and abs(gold) > math.pi / 2):
        return unit  # a gold of 0.443 is no angle in degrees measured from a line (r26a)
    return None


# a question asking for a share that may be given as a fraction, and one asking for percent
_FRACTION_ASKED = re.compile(
    r"\b(?:fraction(?:al)?|efficiency|proportion|portion|ratio|relative\s+(?:uncertainty|error|change))\b",
    re.IGNORECASE,
)
_PERCENT_ASKED = re.compile(r"%|\bper\s*cent|\bpercentage\b", re.IGNORECASE)


def _fraction_asked() -> bool:
    """Whether the question asks a fraction (in any sentence: "… the fraction lost. Give
    it to two figures.") and its asking part asks no percentage (data may be in percent)."""
    from studybench.verify.asking import asking_part

    question = asked_question(folded=False) or ""
    asked = asking_part(question) if question else ""
    return bool(_FRACTION_ASKED.search(question)) and not _PERCENT_ASKED.search(asked)


def quantity_candidates(
    pred: Quantity, gold: Quantity, requested: tuple[Any, ...] = (), radians: bool = False
) -> tuple[list[float], list[float], str]:
    """Comparable (pred values, gold values) and the reason a match would have.

    ``requested``: the units the question asks for (dimensional ones convert a unitless gold,
    dimensionless ones name the scale of one); ``radians``: the bare prediction is a multiple
    of π, an angle in radians, so a gold in degrees is compared in radians."""
    dimensional = tuple(unit for unit in requested if not is_dimensionless(unit))
    if gold.unit is not None and pred.unit is not None:
        for gold_unit in _gold_readings(gold, dimensional):
            hit = _convert_any(pred, (gold_unit,))
            if hit is not None:
                return [hit[0]], [gold.value], "unit_converted"
        return [], [], "unit_mismatch"
    if gold.unit is not None:  # bare number: read in the gold's unit (one reading)
        if radians and is_dimensionless(gold.unit):
            plain = to_base_dimensionless(gold.value, gold.unit)
            return [pred.value], [plain if plain is not None else gold.value], "numeric"
        if str(gold.unit) == "percent" and _fraction_asked():
            # "What fraction …?", "What is its efficiency?" with a gold in percent: 0.4 is
            # the fraction 40 % is (red team r35b, r35c); a bare 40 is still read in percent
            return [pred.value, pred.value * 100], [gold.value], "numeric"
        return [pred.value], [gold.value], "numeric"
    if pred.unit is not None:  # the gold carries no unit
        if is_dimensionless(pred.unit):
            value = _scale_reading(pred, requested, gold.value)
            return ([value] if value is not None else []), [gold.value], "numeric"
        hit = _convert_any(pred, dimensional)
        if hit is not None:
            return [hit[0]], [gold.value], "unit_requested"
        return [], [], "unit_mismatch" if dimensional else "unit_unrequested"
    return [pred.value], [gold.value], "numeric"


def _plus_minus(text: str) -> tuple[bool, str]:
    stripped = text.strip()
    for sign in _PLUS_MINUS:
        if stripped.startswith(sign):
            return True, stripped[len(sign) :].strip()
    return False, stripped


def _zero_of_a_scale(pred: str, pred_q: Quantity, gold_q: Quantity) -> tuple[bool, str]:
    """A value in another unit against a zero where one of the units is a scale with an
    offset (0 °C against 273 K, 273.15 K, 32 °F; 0 K against -273.15 °C): right where it is
    that point to the digits it writes. No tolerance relative to zero exists, so the point
    is read in the prediction's unit and held to half a unit of its last digit."""
    point = convert(0.0, gold_q.unit, pred_q.unit)
    if point is None:
        return False, "unit_mismatch"
    if close(point, pred_q.value, written_precision(pred)):  # to the prediction's digits
        return True, "unit_converted"
    return False, "wrong_value"


def _as_steps(quantity: Quantity) -> Quantity:
    """``quantity`` with a temperature scale read as a step of it (:func:`temperature_step`)."""
    step = temperature_step(quantity.unit)
    return quantity if step is quantity.unit else Quantity(quantity.value, step)


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
        compound = compound_quantity(pred) or _arithmetic_quantity(pred) or _worded(pred)
        if compound is None:
            return False, f"unparseable:{exc.reason}"
        pred_q = compound
    said = counted_things(pred_q.unit)
    if said and not counted_things(gold_q.unit):
        asked = counted_in_question(asked_question(folded=False))
        if asked and not said & asked:
            return False, "counted_other_thing"  # "4 antinodes" for "How many nodes ...?"
    if asks_temperature_change(asked_question()):  # a change: 25 °C is 25 K, not 298 K
        pred_q, gold_q = _as_steps(pred_q), _as_steps(gold_q)
        requested = tuple(map(temperature_step, requested))
    offset = has_offset(gold_q.unit) or has_offset(pred_q.unit)
    if gold_q.value == 0.0 and offset and pred_q.unit not in (None, gold_q.unit):
        return _zero_of_a_scale(pred, pred_q, gold_q)
    if pred_q.value == 0.0 and gold_q.value == 0.0 and not offset:
        return True, "zero"  # zero is zero in every unit, but 0 °C is no 0 K nor 0 °F
    radians = _RADIANS.search(pred) is not None
    preds, golds, reason = quantity_candidates(pred_q, gold_q, requested, radians)
    if not preds:
        return False, reason
    if _EXACT_GOLD.search(gold) and not has_decimal(gold):
        # a closed form with a decimal in it (e^{-0.4}, \\sqrt{0.45} for 2/3) writes no
        # rounding of the gold: it must be the gold's value, not one within its digits
        closed = _CLOSED_FORM.search(pred) is not None and has_decimal(pred)
        tolerance = min(tolerance, _CLOSED_FORM_TOLERANCE if closed else written_precision(pred))
    if any(close(p, g, tolerance) for p in preds for g in golds):
        return True, reason
    return False, "wrong_value"


# A gold written exactly (a fraction, a root, pi, no decimals) is no rounded measurement: a
# prediction agrees with it to the digits it writes, not to the 1 % tolerance, so
# \\frac{101}{200} and 0.5049 are not 1/2, while 0.50 and 50 % are.
_EXACT_GOLD = re.compile(
    r"\\(?:[dt]?frac|sqrt|pi|ln|log|exp|sin|cos|tan|sec|csc|cot|sinh|cosh|tanh|arcsin|arccos"
    r"|arctan)(?![a-zA-Z])|\d\s*/\s*\d|(?<![A-Za-z\\])e\s*\^"
)
_CLOSED_FORM_TOLERANCE = 1e-9  # float arithmetic: \\frac{1}{1.5} is 2/3
# a closed form as a prediction writes one: as an exact gold does, or a power with a decimal
# in its exponent (0.49^{0.5})
_CLOSED_FORM = re.compile(rf"{_EXACT_GOLD.pattern}|\^\s*\{{?\s*\(?\s*[-+−]?\d*\.\d")
# A quantity in several units of one dimension: ``1 h 32 min``, ``1 m 50 cm``, ``2 h 5 min 30 s``
_COMPOUND_PART = re.compile(r"\s*(?<![\d.])(\d++(?:\.\d++)?)\s*([A-Za-z]++)\s*")
MAX_COMPOUND_PARTS = 4
MAX_COMPOUND_CHARS = 80


def _worded(text: str) -> Quantity | None:
    """``two point five metres per second`` as the quantity its words spell
    (:mod:`studybench.verify.number_words`)."""
    digits = number_in_words(text)
    if digits is None:
        return None
    try:
        return parse_quantity(digits)
    except UnparseableError:
        return None


def _arithmetic_quantity(text: str) -> Quantity | None:
    """``(6.63\\times10^{-34} J s)(3.00\\times10^{8} m/s)/(5.00\\times10^{-7} m)`` as the one
    quantity it works out to (:mod:`studybench.verify.unit_arithmetic`)."""
    found = quantity_arithmetic(text)
    return None if found is None else Quantity(found[0], found[1])


def compound_quantity(text: str) -> Quantity | None:
    """``1 h 32 min`` as one quantity (5520 s): every part a plain number with a unit of the
    same dimension, the units in decreasing size (as clocks and rulers are read); None
    otherwise (``2 m 3 s`` is no quantity, ``32 min 1 h`` no reading of a time)."""

    if len(text) > MAX_COMPOUND_CHARS:
        return None
    parts = _COMPOUND_PART.findall(text)
    written = "".join(f"{number}{unit}" for number, unit in parts)
    if not 2 <= len(parts) <= MAX_COMPOUND_PARTS or written != re.sub(r"\s+", "", text):
        return None
    units = [parse_unit(unit) for _, unit in parts]
    first = units[0]
    if first is None or any(unit is None for unit in units):
        return None
    total, previous = 0.0, None
    for (number, _), unit in zip(parts, units, strict=True):
        size = convert(1.0, unit, first)
        if size is None or (previous is not None and size >= previous):
            return None
        total += float(number) * size
        previous = size
    return Quantity(total, first, parts[0][1])


# The same quantity restated after the value, in another unit or form: ``5540 s (\approx 92
# min)``, ``0.5 (50 %)``, ``245 K (\approx -28 ^{\circ} C)``, ``\frac12 (i.e., 50 %)``.
_RESTATED = re.compile(
    r"^(?P<main>.*?[^\s+\-*/^_=(\\])\s+\(\s*"
    r"(?:(?:=|\\approx|\\simeq|\\sim|~|\\equiv)\s*|(?:i\.?\s*e\.?|that\s+is|or|about|approx\.?"
    r"|approximately|roughly|about|equivalently)\s*,?\s*(?:=\s*)?)?"
    r"(?P<inner>[^()=]+?)\s*\)\s*$",
    re.DOTALL,
)


# a function named last, its argument to come: "\\arcsin", "\\sin^{-1}", "\\ln",
# "\\operatorname{arcsin}"
_FUNCTION_END = re.compile(
    r"\\(?:(?:arc)?(?:sin|cos|tan|cot|sec|csc)h?|ln|log|lg|exp|operatorname\s*\{[^{}]*\})"
    r"(?:\s*\^\s*\{?\s*-?\s*1\s*\}?)?\s*$"
)


def restated_as_side(pred: str) -> str:
    """A value restated in parentheses as one more side of the chain: ``5540 s (= 92 min)``
    -> ``5540 s = 92 min``. The restatement is a claim like any side, so it must equal the
    gold too (``0.5 (60 %)`` is wrong); it is never multiplied in (``0.5 (50 %)`` was read as
    0.25). Only a parenthetical that reads as a number with an optional unit counts."""
    match = _RESTATED.match(pred)
    if match is None or _FUNCTION_END.search(match.group("main")):
        return pred  # "\\arcsin (0.483)": a function's argument, no value restated
    inner = match.group("inner").strip()
    try:
        parse_quantity(inner)
    except (UnparseableError, RecursionError):
        return pred
    return f"{match.group('main').strip()} = {inner}"


# Two written numbers side by side with no operator: ``2.0(3.5)`` (the concise notation of
# an uncertainty), ``12\\,50`` (digits not grouped in threes). Read as a product, either
# equals the product's value.
_JUXTAPOSED = re.compile(
    r"^\s*[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)\s*(?:\(\s*[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)\s*\)"
    r"|\s(?:\d+(?:\.\d*)?|\.\d+))(?![\d.])"
)


_SIDE_BY_SIDE = re.compile(r"\d(?:\s*\(\s*[+-]?\s*|\s)[\d.]")


# A gold labelled as a maximum or minimum (B_{\max}, v_{\rm min}, h_{max}): the bound it is
_EXTREME_LABEL = re.compile(
    r"_\s*\{?\s*(?:\\(?:mathrm|rm|text|textrm)\s*\{?\s*)?\\?(max|min)(?![A-Za-z])"
)


def label_bound(gold: str) -> str | None:
    """``"upper"`` for a gold labelled a maximum, ``"lower"`` for a minimum, else None: a bound
    written as the answer must point that way (an attack found ``v \\le 4`` accepted for
    ``v_{\\min} = 4``)."""
    head = gold.split("=", 1)[0] if "=" in gold else ""
    kinds = {m.group(1) for m in _EXTREME_LABEL.finditer(head)}
    if len(kinds) != 1:
        return None
    return "upper" if kinds == {"max"} else "lower"


def _juxtaposed_value(pred: str) -> bool:
    """Whether the value the box states is two numbers side by side (:data:`_JUXTAPOSED`):
    refused where it is the only value, not a step of a chain that states the value too
    (``F = 2.0(3.5) = 7.0\\,N``)."""

    if _SIDE_BY_SIDE.search(pred) is None:
        return False  # no two numbers side by side anywhere: the chain need not be split
    parts = chain(pred)
    if len(parts) > 1 and is_label(parts[0]):
        parts = parts[1:]
    return len(parts) == 1 and _JUXTAPOSED.match(parts[0]) is not None


_PERCENT_SIDE = re.compile(r"%\s*$")


def _without_scaled_fraction(pred: str, tolerance: float) -> str:
    """A chain that writes a fraction and then the same in per cent (``\\frac14 = 25\\%``,
    ``0.25 = 25\\%``) without the fraction: the two sides say one thing, and the per-cent side
    is compared with the gold. A fraction that is not the per cent written (``0.3 = 25\\%``)
    stays, to be compared and refused."""
    parts = chain(pred)
    if len(parts) < 2:
        return pred
    percents = [p for p in parts if _PERCENT_SIDE.search(p)]
    if len(percents) != 1:
        return pred
    try:
        scaled = parse_quantity(_PERCENT_SIDE.sub("", percents[0]))
    except UnparseableError:
        return pred
    if scaled.unit is not None:
        return pred
    fraction = repr(scaled.value / 100)
    kept = [
        part
        for part in parts
        if part is percents[0]
        or not _PLAIN_FRACTION.match(part)
        or not nv_single(part, fraction, tolerance)[0]
    ]
    return " = ".join(kept) if len(kept) < len(parts) else pred


# a bare number or a fraction of two: a side that can be the per cent's fraction
_PLAIN_FRACTION = re.compile(
    r"^\s*(?:\d+(?:\.\d*)?|\.\d+|\\frac\s*\{\s*\d+\s*\}\s*\{\s*\d+\s*\}|\\frac\s*\d\s*\d)\s*$"
)


def judge_nv_text(
    pred: str,
    gold: str,
    tolerance: float,
    requested: tuple[Any, ...],
    match_all: MatchAll,
    ok: Callable[[str], Outcome],
    no: Callable[[str], Outcome],
    expression: Compare | None = None,
    asked: str | None = None,
) -> Outcome:
    """NV on normalised text; ``match_all`` is the one-to-one matcher of value lists;
    ``asked``: the extreme the question asks for (:func:`~studybench.verify.question.asked_bound`).

    A gold listing several values (``1 s, 3 s``) is one form like any other: every side of a
    predicted chain must list them (``t = 7 s, 9 s = 1 s, 3 s`` is wrong), not just the last.
    A value restated in parentheses is one more side (:func:`restated_as_side`)."""
    pred = _without_scaled_fraction(restated_as_side(pred), tolerance)
    if _juxtaposed_value(pred):
        return no("unparseable:juxtaposed_numbers")
    if len(split_values(last_side(gold))) > 1:

        def listed(side: str, form: str) -> tuple[bool, str]:
            pred_parts, gold_parts = split_values(side), split_values(form)
            if len(pred_parts) != len(gold_parts):
                return False, "wrong_count"

            def single(p: str, g: str) -> Outcome:
                correct, reason = nv_single(p, g, tolerance, requested)
                return ok(reason) if correct else no(reason)

            outcome = match_all(pred_parts, gold_parts, single)
            return outcome.correct, outcome.reason

        correct, reason = judge_chain(pred, gold, listed)
        return ok(reason) if correct else no(reason)

    implied = label_bound(gold) or asked

    def compare(side: str, form: str) -> tuple[bool, str]:
        directions = bound_direction(side), bound_direction(form)
        if None not in directions and directions[0] != directions[1]:
            return False, "wrong_bound"  # B > 0.866 T for B < 0.866 T: the other range
        if directions[1] is None and directions[0] not in (None, implied):
            # a bound is no value: v \le 14.5 m/s for 14.5 m/s; it states the value only
            # where the gold or the question asks for an extreme pointing its way (v \ge 4
            # m/s for v_{\min} = 4 m/s, or for "the minimum speed")
            return False, "wrong_bound"
        named, gold_named = bound_name(side), bound_name(form)
        if named is not None and gold_named is not None and wrong_label(named, gold_named):
            return False, "wrong_label"  # \\dot v \\ge 11.2 km/s for v \\ge 11.2 km/s
        correct, reason = nv_single(bound_value(side), bound_value(form), tolerance, requested)
        apart = unit_set_apart(side)
        if reason.startswith("unparseable") and apart != side:
            retry = nv_single(bound_value(apart), bound_value(form), tolerance, requested)
            if not retry[1].startswith("unparseable"):
                correct, reason = retry
        if not correct and reason.startswith("gold_unparseable") and expression is not None:
            return expression(side, form)  # a symbolic form of the gold: T = 2\pi\sqrt{l/g}
        if not correct and contradicts_givens(side, form, asked_question(folded=False) or ""):
            return False, "wrong_value"  # h = kx^2/(mg) = 0.816 m, where k, x, m, g are given
        return correct, reason

    parts = chain(pred)
    label = gold_chain(gold).label
    first = parts[0]
    if (
        len(parts) > 1
        and transformed_quantity(first)
        and not in_one_quantity(parts)
        and not _states_quantity(first)  # "5540 s = 92 min": a number and its unit
        and not same_label(first, label)
    ):
        return no("chain_link_0:transformed_quantity")  # v^2 = 14.5: the square's value
    correct, reason = judge_chain(pred, gold, compare, _uncheckable, single_asked_name())
    return ok(reason) if correct else no(reason)


# A side that states a quantity: a number, then a space and a unit or a command
# (``3.0 m/s``, ``2.5\times10^{3} kg``), or a decimal comma (``3{,}0``).
_STATED = re.compile(
    r"^\s*[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s*\\times\s*10\s*\^\s*\{?[+-]?\d+\}?)?\s+[A-Za-z\\^%]"
    r"|\d\s*(?:\{,\}|,)\s*\d"
)


# A written number followed by a unit anywhere in a side: ``(7.0 m/s)``, ``\\frac{9.00 J}{1}``,
# ``\\sqrt{2 \\cdot 9.8 m/s^2 \\cdot 5 m}``: the side states a quantity.
_NUMBER_THEN_WORD = re.compile(
    r"(?<![\w.])\d+(?:\.\d*)?(?:\s*\\times\s*10\s*\^\s*\{?[+-]?\d+\}?)?\s+(?P<unit>[A-Za-z\\][A-Za-z]*)"
)
_UNIT_MISMATCH = ("unit_mismatch", "unit_unrequested")
# an exponent or a subscript: ^3, ^{-2}, _{12}, _1
_SCRIPT = re.compile(r"[\^_]\s*(?:\{[^{}]*\}|\\?[A-Za-z0-9])")
# a number with a degree sign or a percent: (-57.5 ^{\circ} C), 30^\circ, 12 %
_NUMBER_THEN_MARK = re.compile(r"\d\s*(?:\^\s*\{?\s*\\circ|°|\\?%)")


# a number, then names only: "2.30\\,\\tau", "2.30\\,RC" (a multiple of a time constant)
_NUMBER_THEN_NAMES = re.compile(
    r"^\s*[+\-]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s|\\[,;: ]|~)+(?P<names>.+?)\s*$"
)
_NAME_TOKEN = re.compile(r"\\[A-Za-z]+|[A-Za-z](?:_\s*(?:\{[^{}]*\}|\w))?")


def _multiple_of_names(side: str) -> bool:
    """Whether ``side`` is a number times names, not a number and a unit: the names are
    Greek letters no unit reads (``2.30\\,\\tau``) or two or more names the question's math
    writes (``2.30\\,RC``: R and C, not roentgen times coulomb). Red team r19b, F6."""
    match = _NUMBER_THEN_NAMES.match(side)
    if match is None:
        return False
    names = match.group("names")
    tokens = _NAME_TOKEN.findall(names)
    if not tokens or re.sub(r"\s|\\[,;: ]", "", _NAME_TOKEN.sub("", names)):
        return False  # something besides names
    if all(t.startswith("\\") and parse_unit(t) is None for t in tokens):
        return True
    question = asked_question(folded=False) or ""
    written = {n.group(0).replace(" ", "") for n in NAME.finditer(question_math(question))}
    return len(tokens) >= 2 and all(t.replace(" ", "") in written for t in tokens)


def _states_quantity(side: str) -> bool:
    if _multiple_of_names(side):
        return False
    if _STATED.search(side) or _NUMBER_THEN_MARK.search(side):
        return True
    # an exponent or subscript is no stated number: r^3/GM is not "3 GM" (giga-molar)
    bare = _SCRIPT.sub(" ", side)
    spaced = re.sub(r"\\(?:cdot|times)(?![a-zA-Z])|[*{}()\[\]]", " ", bare)
    return any(
        parse_unit(m.group("unit")) is not None and not _coefficient(m, spaced)
        for m in _NUMBER_THEN_WORD.finditer(spaced)
    )


def _coefficient(match: re.Match[str], text: str) -> bool:
    """A one-digit whole number before a one-letter word that another factor follows is a
    coefficient of a product of symbols, not a quantity: ``\\sqrt{2 g h}`` (not 2
    gram-hours), ``\\frac{1}{2} m v^2`` (not 2 metres); ``q(2 \\cdot N)`` is 2 newtons."""
    number = match.group(0)[: match.start("unit") - match.start()]
    return (
        len(match.group("unit")) == 1
        and _ONE_DIGIT.fullmatch(number) is not None
        and _FACTOR_NEXT.match(text, match.end()) is not None
    )


_ONE_DIGIT = re.compile(r"\d\s+")
_FACTOR_NEXT = re.compile(r"\s*(?:[A-Za-z]|\\(?!cdot|times)[A-Za-z])")


# A number with its unit written against it: ``7.0\\frac{m}{s}``, ``7.0ms^{-1}``,
# ``4.5\\times10^{8}\\frac{m}{s}`` (after a power of ten's closing brace)
_FRAC_UNIT = re.compile(
    r"(\d\s*\}?)\s*(?:\\[,;: ]|~|\\cdot|\\times)?\s*\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"
)
# A number and its unit written as one fraction: ``\\frac{21.8m}{s}``, ``\\frac{9.8\\,m}{s^2}``
_FRAC_NUMBER_UNIT = re.compile(
    r"\\frac\s*\{\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\\[,;: ]|~)?\s*([A-Za-z][^{}]*)\}\s*\{([^{}]*)\}"
)
# A quotient of two quantities: ``\\frac{1240\\,eV\\,nm}{250\\,nm}``
_FRAC_QUANTITIES = re.compile(
    r"\\frac\s*\{\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\\[,;: ]|~)?\s*([A-Za-z][^{}]*)\}"
    r"\s*\{\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:\\[,;: ]|~)?\s*([A-Za-z][^{}]*)\}"
)
_DECIMAL_THEN_LETTER = re.compile(r"(\d\.\d*)(?=[A-Za-z\\])")


def unit_set_apart(side: str) -> str:
    """``7.0\\frac{m}{s}`` -> ``7.0 m/s``, ``7.0ms^{-1}`` -> ``7.0 ms^{-1}``, ``\\frac{21.8m}{s}``
    -> ``21.8 m/s``, ``\\frac{1240 eV nm}{250 nm}`` -> ``\\frac{1240}{250} eV nm/(nm)``."""
    side = _FRAC_QUANTITIES.sub(r"\\frac{\1}{\3} \2/(\4)", side)
    side = _FRAC_NUMBER_UNIT.sub(r"\1 \2/\3", side)
    return _DECIMAL_THEN_LETTER.sub(r"\1 ", _FRAC_UNIT.sub(r"\1 \2/\3", side))


def _in_gold_dimension(side: str, form: str) -> bool:
    """Whether ``side``, read as a number with its unit set apart (``7.0\\frac{m}{s}``:
    ``7.0 m/s``; ``7.0ms^{-1}``: ``7.0 ms^{-1}``), measures what the gold does: then it states
    the asked quantity, whatever symbols its unit letters also spell, and is compared."""
    try:
        pred, gold = parse_quantity(unit_set_apart(side)), parse_quantity(form)
    except (UnparseableError, RecursionError):
        return False
    return any(same_dimension(p, g) for p in _readings(pred) for g in _readings(gold))


# what may stand between a box and the unit written after it: math ends, spacing
_AFTER_LEAD = re.compile(  # also emphasis and "{\\rm" round the unit
    r"^(?:\s|\$|\\\)|\\\]|\\[,;: !]|~|\\q?quad(?![a-zA-Z])|[*_{]|\\rm(?![a-zA-Z]))*"
)
_PART_LABEL = re.compile(r"^\s*(?:[a-hA-H]|[ivxIVX]{1,4}|\d+)\s*$")  # "(b)", "(ii)", "(2)"
# a unit in brackets on the box's line: "\\boxed{14.5} (km/h)", "[km/h]", "(in keV)"; the
# bracket holds nothing else, so "(b) The time …" is a part's label, not barns
# the words that name the unit of the values in prose: "(all distances in millimetres)",
# ", both in millimetres", " — both values in mm"
_UNIT_WORDS = (
    r"(?:(?:all|both|each)\s+)?(?:(?:the\s+)?(?:values?|distances?|lengths?|times?|answers?"
    r"|results?)\s+)?(?:(?:are|given|expressed|measured)\s+)?in[ \t]+"
)
# the end of a display the box stands in ("\\boxed{5.0}\n\\] (in watts)"): a unit written after it
# on the next line is the box's as one after inline math is
_DISPLAY_END = r"(?:\s*\\\][ \t]*\n?)?"
_BRACKETED_UNIT = re.compile(
    rf"^{_DISPLAY_END}[ \t]*(?:\$|\\[,;: !]|~)*[ \t]*\n?[ \t]*[(\[][ \t]*(?:{_UNIT_WORDS})?"
    r"(?P<unit>[^()\[\]\n]{1,24})[)\]]"
)
_UNIT_PHRASE = re.compile(
    rf"^{_DISPLAY_END}[ \t]*(?:\$|\\[,;: !]|~)*[ \t]*[,;:—–-]?[ \t]*{_UNIT_WORDS}"
    r"(?P<unit>[^\s,.;()\[\]$]{1,16})"
)
# a power of ten written after a bare number's box belongs to the number
_POWER_AFTER = re.compile(
    r"(?:\\times|\\cdot|×|·|x)\s*10\s*(?:\^\s*(?:\{\s*(?P<brace>[+\-−]?\d+)\s*\}"
    r"|(?P<digit>[+\-−]?\d))|(?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+))"
    r"|[eE](?P<e>[+\-−]?\d+)(?![\w.])"
    r"|(?P<word>thousand|million|billion)\b"
)
_POWER_WORDS = {"thousand": "3", "million": "6", "billion": "9"}
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_HAS_POWER = re.compile(r"\\times|\\cdot|×|[eE][+\-−]?\d|\^")
# the unit's pieces: a wrapped group (\mathrm{m\,s^{-1}}) or a word, each with an optional
# power, joined by spacing, a product sign or a slash
_UNIT_PIECE = re.compile(
    r"(?:\\(?:mathrm|text|textrm|mbox|rm|operatorname|mathsf|textsf|si|unit|mathit|textit)\s*"
    r"\{(?P<group>(?:[^{}]|\{[^{}]{0,8}\}){1,40})\}"
    r"|(?P<micro>\\mu\s*(?:\\mathrm\s*\{[A-Za-z]{1,4}\}|[A-Za-z]{1,4}))"
    r"|(?P<degree>\^\s*\{?\s*\\circ\s*\}?\s*(?:\\mathrm\s*\{[CFK]\}|[CFK])?)"
    r"|(?P<word>\\%|[A-Za-zµμΩ°%Å][\w·.\-]*))(?P<power>\s*\^\s*(?:\{[^{}]{1,6}\}|-?\d))?"
)
_UNIT_JOIN = re.compile(  # on the same line: the next line's first word is no unit
    r"(?:[ \t]|\\[,;: ]|~|\\cdot(?![a-zA-Z])|·)*(?P<slash>/)?(?:[ \t]|\\[,;: ]|~)*"
)
# English words that pint also reads as units ("in" inch, "a" year, "at" atmosphere)
_BARE_NUMBER = re.compile(
    r"^\s*[+\-−]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:\s*(?:\\times|\\cdot|×|·)\s*10\s*\^\s*\{?\s*[+\-−]?"
    r"\d+\s*\}?|[eE][+\-−]?\d+)?\s*$"
)


def _piece_text(piece: re.Match[str]) -> str:
    """A unit piece as pint reads it: ``\\mu\\mathrm{s}`` is µs, ``^\\circ\\mathrm{F}`` °F."""
    if piece.group("micro"):
        return "µ" + re.sub(r"\\mu|\\mathrm|[\s{}]", "", piece.group("micro"))
    if piece.group("degree"):
        return "°" + re.sub(r"[\^\s{}]|\\circ|\\mathrm", "", piece.group("degree"))
    return str(piece.group("group") or piece.group("word"))


def _after_box(after: str) -> str:
    """The text after a box from where a unit written there would start: past spacing, a
    display's close and emphasis; a unit in brackets on the box's line ("(km/h)") alone;
    siunitx's ``\\unit{\\milli\\second}`` as the unit it typesets."""
    after = expand_siunitx(after)
    bracketed = _BRACKETED_UNIT.match(after)
    if bracketed is not None and not _PART_LABEL.match(bracketed.group("unit")):
        after = bracketed.group("unit") + "\n"  # the unit, and nothing after it
    elif (phrase := _UNIT_PHRASE.match(after)) is not None:
        after = phrase.group("unit") + "\n"
    after = _POWER_IN_MATH.sub(r"\1", after)  # "s$^{-1}$": the power of the unit before it
    return _AFTER_LEAD.sub("", after, count=1)


# a unit's power written in math of its own after the unit's letters (red team r30b)
_POWER_IN_MATH = re.compile(r"(?<=[A-Za-z])\$\s*(\^\s*(?:\{\s*[-+−]?\d+\s*\}|[-+−]?\d))\s*\$")


def with_unit_after(box: str, after: str) -> str:
    """A bare number with the unit written right after its box: ``\\boxed{0.300}\\,\\mathrm{m}``
    reads as 0.300 m. The prompt asks for units outside the box, so the unit there is part
    of the answer: read in the gold's unit instead, ``\\boxed{2.66} kV`` passed for 2.66 V and
    ``\\boxed{0.300} m`` failed for 30.0 cm. A labelled number (``\\boxed{v_2 = -30.0}\\,mm``)
    takes it too; other boxes are left as they are."""

    if not _BARE_NUMBER.match(last_side(normalize_answer(box))):  # "v_2 = -30.0" too
        return box
    rest = _after_box(after)
    power = _POWER_AFTER.match(rest)
    if power is not None and not _HAS_POWER.search(box):  # "\\boxed{5.54}\\times10^{3}\\,s"
        written = power.group("sup")
        word = power.group("word")
        exponent = (
            _POWER_WORDS[word.casefold()]
            if word
            else next(p for p in (*power.group("brace", "digit", "e"), written) if p is not None)
        )
        exponent = exponent.translate(_SUPERSCRIPT)
        box = f"{box}\\times10^{{{exponent.replace('−', '-')}}}"
        rest = _AFTER_LEAD.sub("", rest[power.end() :], count=1)
    unit = _unit_written(rest)
    return box if unit is None else f"{box}\\,{unit}"


# Alternatives listed in one box, each a bare number, maybe labelled: "30.0 \\text{ or } 60.0",
# "t = 1.0,\\ 3.0", "x = 0.382 \\text{ or } x = 0.218"
_LIST_NUMBER = r"[+\-−]?\s*(?:\d+(?:\.\d*)?|\.\d+)"
_LIST_LABEL = r"(?:\\?[A-Za-z]+(?:_\s*(?:\{[^{}]*\}|\w))?\s*=\s*)?"
_LIST_JOIN = (
    r"\s*(?:,|;|\\text\s*\{\s*(?:or|and)\s*\}|\b(?:or|and)\b|\\[,;:! ]|~|\\q?quad"
    r"|\\(?:lor|vee)(?![A-Za-z])|∨|\\&|&)+\s*"
)
# as a set too: "\{30.0,\ 60.0\}"
_LISTED_NUMBERS = re.compile(
    rf"^\s*(?:\\left)?(?:\\\{{)?\s*{_LIST_LABEL}{_LIST_NUMBER}(?:{_LIST_JOIN}{_LIST_LABEL}{_LIST_NUMBER})+"
    r"\s*(?:\\right)?(?:\\\})?\s*$"
)
_LISTED_NUMBER = re.compile(rf"(?:(?<=\\\{{)|(?<![\w.{{^]))({_LIST_NUMBER})(?![\w.])")


def alternatives_with_unit_after(box: str, after: str) -> str:
    """Alternatives listed in one box of bare numbers, with the unit written right after it:
    ``\\boxed{30.0 \\text{ or } 60.0}\\ \\mathrm{mm}`` is 30.0 mm or 60.0 mm, not two
    numbers read in the gold's unit (the unit outside the box is part of the answer, as for
    one number: :func:`with_unit_after`). A tuple's elements are several quantities, so this
    is for alternatives of one only."""
    if not _LISTED_NUMBERS.match(box):
        return with_unit_after(box, after)
    unit = _unit_written(_after_box(after))
    return box if unit is None else _LISTED_NUMBER.sub(lambda m: f"{m.group(1)}\\,{unit}", box)


# a bracketed list of bare numbers with one unit after it: "(-13.6, -3.40, -1.51)\,\text{eV}"
_BRACKETED_LIST = re.compile(
    rf"^\s*(?:\\left\s*)?[(\[]\s*(?P<list>{_LIST_NUMBER}(?:\s*,\s*{_LIST_NUMBER})+)\s*"
    r"(?:\\right\s*)?[)\]](?P<rest>[^\d=]+)$"
)


def list_with_unit_inside(box: str) -> str:
    """A tuple of bare numbers in brackets with one unit after the bracket, each number with
    that unit: ``(-13.6, -3.40, -1.51)\\,\\text{eV}`` is -13.6 eV, -3.40 eV, -1.51 eV (read
    apart, the unit stuck to the bracket and no element was a number). Other boxes are left
    as they are."""
    match = _BRACKETED_LIST.match(box)
    if match is None:
        return box
    rest = _AFTER_LEAD.sub("", match.group("rest"), count=1)
    unit = _unit_written(rest)
    if unit is None or normalize_answer(rest).replace(" ", "") != unit.replace(" ", ""):
        return box
    numbers = (n.strip() for n in match.group("list").split(","))
    return ", ".join(f"{number}\\,{unit}" for number in numbers)


def _unit_written(rest: str) -> str | None:
    """The unit that ``rest`` (the text after a box, its lead removed) opens with, as the
    verifier writes it, or None: up to four pieces ("kg m s^{-2}", "\\text{kg}\\cdot\\text{m/s}",
    "\\mathrm{m}^2"), the longest run of them that pint reads."""
    found = unit_opening(rest)
    return None if found is None else found[0]


_PREPOSITION_IN = re.compile(
    r"\s+(?:the|total|all|a|an|each|one|its|this|that|which|what|both|either|magnitude|direction"
    r"|[-−+]\s*[xyz]\b|negative|positive)\b",
    re.IGNORECASE,
)


def unit_opening(rest: str) -> tuple[str, int] | None:
    """:func:`_unit_written`'s unit and where it ends in ``rest``, or None: what follows a
    unit written after a box is read as a remark on the value (``closing_remarks``)."""
    pieces: list[str] = []
    ends: list[int] = []
    pos = 0
    while len(pieces) < 4:  # "kg m s^{-2}", "\\text{kg}\\cdot\\text{m/s}", "\\mathrm{m}^2"
        join = _UNIT_JOIN.match(rest, pos) if pieces else None
        piece = _UNIT_PIECE.match(rest, join.end() if join else pos)
        if piece is None:
            break
        text = _piece_text(piece) + (piece.group("power") or "")
        if pieces and text == "in" and _PREPOSITION_IN.match(rest, piece.end()):
            break  # "m/s² in the −x direction", "kJ in total": a preposition, not inches
        if pieces and join is not None and join.group("slash"):
            text = "/" + text
        pieces.append(text.rstrip("."))
        pos = piece.end()
        ends.append(pos - 1 if text.endswith(".") else pos)
        if text.endswith("."):
            break  # "J. A 2 kW kettle …": a full stop ends the unit
    for n in range(len(pieces), 0, -1):
        word = "".join(p if p.startswith("/") else " " + p for p in pieces[:n])
        unit = normalize_answer(word).rstrip(".")
        if unit and unit.casefold() not in PROSE_WORDS and parse_unit(unit) is not None:
            return unit, ends[n - 1]
    return None


# an interval whose ends are bare numbers: "(30, 45)", "[0, 20)", "d \\in (30, 45)"
_ENDPOINT = r"\s*[+\-−]?\s*\d+(?:\.\d*)?\s*"
_BELOW = r"(?:<|≤|\\le(?:q|qslant)?(?![a-zA-Z]))"
_BARE_INTERVAL = re.compile(
    rf"^(?:[^()\[\]{{}},=<>]{{1,24}}\\in\s*)?[(\[]{_ENDPOINT},{_ENDPOINT}[)\]]\s*$"
    rf"|^{_ENDPOINT}{_BELOW}\s*[A-Za-z](?:_\{{?\w+\}}?)?\s*{_BELOW}{_ENDPOINT}$"  # "0 < u < 20"
)


# A unit written on an interval's variable, as a table's column head writes it: "30 <
# d/\\mathrm{cm} < 45", "d\\,[\\mathrm{cm}] \\in (30, 45)", "d\\ (\\text{cm})", "\\theta/{}^\\circ
# \\in [20.4, 69.6]": the bare bounds are in that unit.
_VARIABLE_UNIT = re.compile(
    r"(?P<name>\\?[A-Za-z]+(?:\s*_\s*(?:\{[^{}]*\}|\w))?)\s*(?:"
    r"/\s*(?P<slash>\\(?:mathrm|text|rm)\s*\{[^{}]{1,12}\}|(?:\{\s*\})?\s*\^\s*\{?\s*\\circ\s*\}?)"
    r"|(?:\\[,;: !]|\s|~)*(?:\[\s*(?P<bracket>[^\[\]\d,]{1,16}?)\s*\]"
    r"|\(\s*(?P<paren>\\(?:mathrm|text|rm)\s*\{[^{}]{1,12}\}|\^\s*\{?\s*\\circ\s*\}?)\s*\)))"
)
_BOUND_NUMBER = re.compile(rf"(?<![\w.^{{}}])({_LIST_NUMBER})(?![\w.])")  # a bare bound
_DEGREE = re.compile(
    r"^(?:\{\s*\})?\s*\^\s*\{?\s*\\circ\s*\}?$|^\\(?:mathrm|text|rm)\s*\{\s*deg\s*\}$"
)


def interval_unit_on_variable(box: str) -> str:
    """An interval whose variable carries the unit (``_VARIABLE_UNIT``) with that unit on
    each bare bound instead: ``30 < d/\\mathrm{cm} < 45`` is ``30\\,\\mathrm{cm} < d <
    45\\,\\mathrm{cm}``, which the interval rule converts; other boxes are left as they are."""
    found = list(_VARIABLE_UNIT.finditer(box))  # each match carries a unit
    if len(found) != 1:
        return box
    match = found[0]
    rest = box[match.end() :]
    sep = " " if rest.startswith("\\") else ""  # "\\theta \\in", not "\\theta\\in"
    plain = box[: match.start()] + match.group("name") + sep + rest
    if not _BARE_INTERVAL.match(normalize_answer(plain)):
        return box
    unit = (match.group("slash") or match.group("bracket") or match.group("paren")).strip()
    written = "^\\circ" if _DEGREE.match(unit) else f"\\,{unit}"
    head = plain[: match.start()]
    name_end = match.start() + len(match.group("name"))
    return (
        _BOUND_NUMBER.sub(lambda m: m.group(1) + written, head)
        + plain[match.start() : name_end]
        + _BOUND_NUMBER.sub(lambda m: m.group(1) + written, plain[name_end:])
    )


def interval_with_unit_after(box: str, after: str) -> str:
    """An interval with bare-number ends and the unit written right after its box:
    ``\\boxed{(30, 45)}\\,\\mathrm{mm}`` is (30 mm, 45 mm), not (30, 45) in the gold's unit;
    the interval rule converts it. Other boxes are left as they are."""
    if not _BARE_INTERVAL.match(normalize_answer(box)):
        return box
    unit = _unit_written(_after_box(after))
    return box if unit is None else f"{box}\\,{unit}"


# a unit the prose names right before a box: "Speed in km/h: \\boxed{14.5}", "v [km/h] =
# \\boxed{14.5}", "Temperature (in K): \\boxed{57.5}"
_UNIT_BEFORE = re.compile(
    r"\bin\s+(?P<lead>[^\s:=,;()\[\]$*]{1,12})\s+(?:is|are|equals|comes\s+to)\s*\$?\s*$"
    r"|(?:^|[.!?\n]\s*)(?:(?:[Ee]xpressed|[Gg]iven|[Ww]ritten|[Mm]easured|[Cc]onverted|[Qq]uoted)\s+"
    r"(?:in|to)|[Ii]n)\s+(?P<opening>[^\s:=,;()\[\]$*]{1,12})\s*,?\s+(?:the\s+)?[a-z]+"
    r"(?:\s+[a-z]+)?\s+(?:is|are|equals|=)\s*\$?\s*$"
    r"|,\s*(?P<comma>[^\s:=,;()\[\]$*]{1,12})\s*:\s*\$?\s*$"
    r"|\b(?i:expressed|given|written|measured|converted|quoted)\s+(?:in|to)\s+"
    r"(?P<stated>[^\s:=,;()\[\]$*]{1,12})\s*[,:]\s*\$?\s*$"
    r"|(?:\b[Ii]n\s+(?P<word>[^\s:=,;()\[\]$*]{1,12})|\[(?P<bracket>[^\[\]\n]{1,12})\]"
    r"|\((?:in\s+)?(?P<paren>[^()\n]{1,12})\))\s*(?:\*\*|\$)?\s*[:=]\s*(?:\*\*)?\s*(?:\$|\\\(|\\\[)?\s*"
    r"(?:[A-Za-z](?:_\{?\w+\}?)?\s*=\s*)?$"  # "In centimetres: h = \\boxed{0.816}"
)


def with_unit_before(box: str, before: str) -> str:
    """A bare number with the unit the prose names right before its box, when none is
    written after it (:func:`with_unit_after` runs first): "Speed in km/h: \\boxed{14.5}"
    reads as 14.5 km/h, not as 14.5 in the gold's unit."""
    if not _BARE_NUMBER.match(last_side(normalize_answer(box))):
        return box
    named = _UNIT_BEFORE.search(before[-_UNIT_BEFORE_CHARS:])
    if named is None:
        return box
    written = named.group("lead", "opening", "comma", "stated", "word", "bracket", "paren")
    unit = normalize_answer(next(u for u in written if u))
    if unit.casefold() in PROSE_WORDS or _PART_LABEL.match(unit) or parse_unit(unit) is None:
        return box  # "Part (b): \\boxed{…}" names a part, not barns
    return f"{box}\\,{unit}"


_UNIT_BEFORE_CHARS = 60


def with_unit_stated(box: str, before: str, golds: tuple[str, ...]) -> str:
    """A bare number with the unit the working gave the same number right before its box,
    where the gold has a unit: "$$F = 9600\\ \\text{N}$$ **Final Answer** \\boxed{9600}" is
    9600 N, not 9600 in the gold's unit (red team r30b: rejected against 9.6 kN). Against a
    bare gold the bare number is compared as it is ("v = 20 m/s … \\boxed{20}" for 20)."""
    if not golds or any(_BARE_NUMBER.match(last_side(normalize_answer(g))) for g in golds):
        return box
    number = last_side(normalize_answer(box)).strip()
    if not re.fullmatch(r"[+\-−]?\d+(?:\.\d+)?", number):
        return box
    stated = list(re.finditer(rf"(?<![\d.]){re.escape(number.lstrip('+'))}(?![\d.])", before))
    for match in reversed(stated):
        rest = _AFTER_LEAD.sub("", before[match.end() :], count=1)
        unit = _unit_written(rest)
        if unit is not None:
            return f"{box}\\,{unit}"
    return box


# a number as written: its digits after the point, and a power of ten
_WRITTEN_NUMBER = re.compile(
    r"^\s*[+-]?\s*(?P<whole>\d+)(?:\.(?P<decimals>\d+))?\s*(?:(?:\\times|\\cdot|x)\s*10\s*\^\s*\{?\s*"
    r"(?P<power>[+-]?\d+)\s*\}?)?"
    r"(?!\s*(?:[/*+^]|-\s*\d|\d))"  # "1/4" is a fraction, no 1 rounded
)


def rounds_to(offered: str, value: str, loose_zeros: bool = False, converted: bool = False) -> bool:
    """Whether ``offered`` is ``value`` rounded to the digits ``offered`` writes, in the same
    unit: "0.15" for 0.154, "15 m/s" for 14.5 m/s, "1.5 \\times 10^{3} J" for 1520 J. A
    rounded restatement of a right answer ("or, to two figures, 0.15") is no second guess.
    With ``loose_zeros`` the zeros that end a whole number are rounding too ("about 240 K"
    for 245 K: two figures), as where the writer says the value is approximate; with
    ``converted`` ``value`` is first expressed in ``offered``'s unit ("about 32 mph" for
    14.5 m/s, "15%" for 0.154)."""
    written = _WRITTEN_NUMBER.match(offered)
    if written is None:
        return False
    try:
        rounded, exact = parse_quantity(offered), parse_quantity(value)
    except (UnparseableError, RecursionError):
        return False
    exact_value = exact.value
    if rounded.unit is not None and rounded.unit != exact.unit:
        moved = _in_unit(exact, rounded.unit) if converted else None
        if moved is None:
            return False
        exact_value = moved
    if rounded.value == 0 and exact_value != 0:
        return False  # a rounding keeps a significant figure: "or maybe 0" is no 0.154
    decimals = len(written.group("decimals") or "")
    if loose_zeros and not decimals:
        whole = re.sub(r"\D", "", written.group("whole"))
        decimals = -(len(whole) - len(whole.rstrip("0"))) if whole.strip("0") else 0
    half_step = 0.5 * 10.0 ** (int(written.group("power") or 0) - decimals)
    return abs(rounded.value - exact_value) <= half_step * (1 + 1e-9)


def _in_unit(quantity: Any, unit: Any) -> float | None:
    """A parsed quantity's value in ``unit`` (a bare number is a pure number), or None."""
    from studybench.verify.units import convert, registry

    source = quantity.unit if quantity.unit is not None else registry().dimensionless
    return convert(quantity.value, source, unit)


def unit_place(offer: str, elements: tuple[str, ...]) -> int | None:
    """Which of several asked values (normalized ``elements``) a value offered beside them
    (normalized ``offer``) can only be about: the one element whose unit measures what the
    offer's unit measures ("900 mJ" beside 0.750 m and 0.900 J is about the energy). None when
    the offer carries no unit, or no element or several share its dimension: then the offer
    cannot be placed, and an offer that cannot be placed is a hedge. A share (``40 %``)
    beside one element without a unit is about that element."""

    def unit(text: str) -> Any | None:
        try:
            return parse_quantity(last_side(text)).unit
        except (UnparseableError, RecursionError):
            return None

    offered = unit(offer)
    if offered is None:
        return None
    units = [unit(element) for element in elements]
    places = [
        index
        for index, measured in enumerate(units)
        if measured is not None and same_dimension(offered, measured)
    ]
    if not places and offered.dimensionless:
        # "i.e. 40 %" beside (0.40, 800 J): a share is about the one element without a unit
        places = [index for index, measured in enumerate(units) if measured is None]
    return places[0] if len(places) == 1 else None


_PROSE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{4,}|\\(?:text|mbox|textrm)\b")


def symbolic_only(pred: str, gold: str, tolerance: float) -> bool:
    """Whether ``pred`` (one normalized box) states no value a numeric gold can check: every
    side that is no label is an expression in symbols (``v = \\sqrt{2gh}`` beside 6.26 m/s).
    A box offered beside the numeric one ("\\boxed{v = \\sqrt{2gh}} or, numerically,
    \\boxed{6.26\\,m/s}") is then the formula, not a second guess."""
    if _PROSE.search(pred):
        return False  # words ("600 (negative)", "1/2 per second") are a remark, not a formula
    gold_c = gold_chain(gold)
    form = gold_c.forms[-1]
    sides = value_sides(pred, gold_c.label)
    return bool(sides) and all(
        _uncheckable(side, form, nv_single(side, form, tolerance)[1]) for _, side in sides
    )


def _uncheckable(side: str, form: str, reason: str) -> bool:
    """A symbolic step inside a numeric chain (``v = \\sqrt{2gh} = 4.4\\,m/s``, ``F = 2mg =
    19.6\\,N``): no number to check, so it is skipped. Only a side that reads as an expression
    in symbols is one: a side that states a quantity anywhere (``3{,}0\\,m/s``, ``(7.0\\,m/s)``,
    ``\\sqrt{2\\cdot 9.8\\,m/s^2 \\cdot 5\\,m}``), that reads as nothing, or that only names a
    quantity (``v_{\\min} = v_{\\max} = ...``: a claim about another quantity) makes the chain
    wrong, as a wrong value would. ``2mg`` read as 2 milligrams (another dimension than the
    gold's) is a product of symbols too; a side in the gold's dimension is always compared."""
    from studybench.verify.parsing import parse_expressions

    symbolic = reason.startswith("unparseable")
    if not (symbolic or reason in _UNIT_MISMATCH) or _states_quantity(side) or is_label(side):
        return False
    if _in_gold_dimension(side, form):
        return False
    try:
        (parsed,) = parse_expressions(side)
    except (UnparseableError, RecursionError):
        return False
    names = getattr(parsed, "free_symbols", None) or set()
    return bool(names) if symbolic else len(names) >= 2
