"""Every gold the project holds, and the wrong answers made from each by perturbation.

Soundness is a property over data, not a list of examples (issue 32): each gold must accept
itself, and each perturbation of a gold must be rejected with a reason naming where it
differs. The golds come from the sample release under ``data/sample`` (StudyBench problems
and sub-problems, the SFT instruction layers, judge calibration, guidance), the verifier's
case tables and the test fixtures that carry an ``answer_type``. EvaLearn and SE-Bench are
judged by their own LLM judges, not by this verifier, and hold no typed golds.

The perturbations are built from the structure of the gold, never from its text as a string
to match: the gold's boxes (TUP elements, ALT alternatives), each box's chain sides (the
first side of a chain is the label of the asked quantity and is not perturbed), and inside a
side its leading number (NV) or the whole expression (EX, EQ right sides):

* ``sign``: the side negated; ``factor_1.5``, ``factor_2``: scaled; ``plus_1``: one added
  (to a number only below 50: above, +1 is within the 1% tolerance; likewise not to a
  symbolic side with decimals that holds a constant of 50 or more or a power of ten);
* ``exponent``: the first power's exponent raised by one (or the side squared);
* ``text_number``: a number inside a text answer (QL) changed;
* ``new_term``, ``new_factor``: a symbolic side (EX, EQ right sides) with a term or a factor
  in a free symbol the gold does not have (``ma`` -> ``ma + Q``, ``Q ma``);
* ``unit_swap``: a number's unit replaced by another unit of the same dimension, the number
  kept (``3\\,\\mathrm{m}`` -> ``3\\,\\mathrm{km}``, ``45^\\circ`` -> ``45\\,\\mathrm{rad}``);
* ``remark``: a remark that changes the value appended to a box (``\\text{ doubled}``,
  ``\\text{ per second}``, ``\\text{ or 7}``): only a remark that cannot change the value
  may be dropped;
* ``negated``: the relation of a labelled box negated (``x = 3`` -> ``x \\neq 3``), and for
  IN golds every inequality turned to its complement (``x < 3`` -> ``x \\ge 3``);
* IN golds: ``bound`` (the first finite bound doubled, or 0 made 1), ``bracket`` (every finite
  end opened or closed), ``variable`` (the bounded quantity squared: ``0 < x^{2} \\le 2``).

Each changed side is also **appended** to the gold's own box (``where`` ``appended``, the
new last side; the reason's position is not pinned, since a one-form gold's box then reads
as label = value): ``F = ma = ma + Q`` for ``F = ma``. The gold's sides are all there and
right, so only the rule that every side of a chain must hold rejects it (issue 32: a side
with a new symbol was skipped as a "derivation step").

Where one of them is provably equivalent to the gold (the negation of zero), the table
``perturbation_equivalent.json`` says so with the proof; the property test reads it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studybench.data.boxes import scan_boxes
from studybench.verify import judge_inline
from studybench.verify.chains import chain

ROOT = Path(__file__).resolve().parents[2]
GOLD_SOURCES = (ROOT / "data" / "sample", ROOT / "tests")
EQUIVALENT_TABLE = Path(__file__).with_name("perturbation_equivalent.json")
PERTURBED_TYPES = ("NV", "EX", "EQ", "TUP", "ALT", "QL", "IN")
_SKIP_FILES = {"validation_cases.json"}  # invalid records on purpose (the validator's cases)


@dataclass(frozen=True, slots=True)
class Gold:
    gold: str
    answer_type: str
    type_sequence: str
    source: str


@dataclass(frozen=True, slots=True)
class Perturbation:
    pred: str
    where: str  # "answer", "chain_link_2", "element_1", "alternative_0", "element_1:chain_link_1"
    kind: str  # sign, factor_1.5, factor_2, plus_1, exponent, text_number
    gold: Gold

    @property
    def key(self) -> str:
        return f"{self.gold.answer_type}|{self.gold.gold}|{self.where}|{self.kind}"


def _records(value: Any, source: str) -> Iterator[Gold]:
    if isinstance(value, dict):
        kind = value.get("answer_type")
        gold = value.get("gold", value.get("answer"))
        expect_gold_failure = str(value.get("reason", "")).startswith("gold_")
        if isinstance(kind, str) and kind and gold and not expect_gold_failure:
            sequence = value.get("type_sequence") or ""
            if isinstance(sequence, list):
                sequence = ",".join(sequence)
            for one in gold if isinstance(gold, list) else [gold]:
                if isinstance(one, str) and one.strip():
                    yield Gold(one, kind.upper(), str(sequence), source)
        for child in value.values():
            yield from _records(child, source)
    elif isinstance(value, list):
        for child in value:
            yield from _records(child, source)


def collect_golds() -> list[Gold]:
    """Every typed gold under data/sample and tests/, deduplicated, in a stable order."""
    seen: dict[tuple[str, str, str], Gold] = {}
    for root in GOLD_SOURCES:
        for path in sorted(root.rglob("*.json*")):
            if path.name in _SKIP_FILES or path.name == EQUIVALENT_TABLE.name:
                continue
            source = str(path.relative_to(ROOT))
            if path.suffix == ".json":
                documents = [json.loads(path.read_text(encoding="utf-8"))]
            elif path.suffix == ".jsonl":
                lines = path.read_text(encoding="utf-8").splitlines()
                documents = [json.loads(line) for line in lines if line.strip()]
            else:
                continue
            for document in documents:
                for gold in _records(document, source):
                    seen.setdefault((gold.gold, gold.answer_type, gold.type_sequence), gold)
    return list(seen.values())


# --------------------------------------------------------------------------- perturbing

_LEADING_NUMBER = re.compile(r"^\s*([+-]?)\s*(\d+(?:\.\d+)?)")
_POWER = re.compile(r"\^\s*(\{\s*([+-]?\d+)\s*\}|(\d))")
_ANY_NUMBER = re.compile(r"(?<![\w.^_])(\d+(?:\.\d+)?)(?![\w.])")


def _format(value: float) -> str:
    return f"{value:.6g}"


def _numeric(side: str, kind: str) -> str | None:
    """A numeric side with its leading number changed (units and powers of ten kept)."""
    match = _LEADING_NUMBER.match(side)
    if match is None:
        return None
    sign, number = match.group(1), float(match.group(2))
    rest = side[match.end() :]
    if kind == "sign":
        return ("" if sign == "-" else "-") + match.group(2) + rest
    if kind == "exponent":
        power = re.search(r"10\s*\^\s*\{?\s*([+-]?\d+)\s*\}?", rest)
        if power is None:
            return None
        raised = int(power.group(1)) + 1
        return (
            sign + match.group(2) + rest[: power.start()] + f"10^{{{raised}}}" + rest[power.end() :]
        )
    if not math.isfinite(number * 2):
        return None  # a number beyond floating point: no arithmetic on it
    if kind == "plus_1" and number >= 50:
        return None  # +1 is within the 1% tolerance of a number this large: no perturbation
    changed = {"factor_1.5": number * 1.5, "factor_2": number * 2, "plus_1": number + 1}[kind]
    return sign + _format(changed) + rest


def _expression(side: str, kind: str) -> str | None:
    """A symbolic side changed as a whole: negated, scaled, shifted, or an exponent raised."""
    if kind == "sign":
        return rf"-\left({side}\right)"
    if kind == "factor_1.5":
        return rf"\frac{{3}}{{2}}\left({side}\right)"
    if kind == "factor_2":
        return rf"2\left({side}\right)"
    if kind == "plus_1":
        if _tolerance_absorbs_one(side):
            return None
        return rf"\left({side}\right) + 1"
    power = _POWER.search(side)
    if power is None:
        return rf"\left({side}\right)^{{2}}"
    exponent = int(power.group(2) or power.group(3)) + 1
    return side[: power.start()] + f"^{{{exponent}}}" + side[power.end() :]


_DECIMAL = re.compile(r"\d\.\d")
_WRITTEN_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")


def _tolerance_absorbs_one(side: str) -> bool:
    """Whether one added to a symbolic side with decimals may fall within the 1% tolerance
    of one of its parts: a constant of 50 or more (``t + 273.15``, ``0.6(v + 340)^2``) or a
    term scaled by a power of ten (``1.097\\times10^{7}(\\ldots)``); as for a number of 50 or
    more, no such perturbation is made. Exact sides are compared exactly: +1 always counts."""
    if not _DECIMAL.search(side):
        return False
    large = any(float(n) >= 50 for n in _WRITTEN_NUMBER.findall(side))
    return large or bool(re.search(r"10\s*\^", side))


KINDS = ("sign", "factor_1.5", "factor_2", "plus_1", "exponent")
_TRAILING_UNIT = re.compile(r"(?:\\[,;: ]|~|\s)*\\(?:mathrm|text|rm)\s*\{(?P<unit>[^{}]*)\}\s*$")
_DEGREE_SIGN = re.compile(r"\^\s*\{?\s*\\circ\s*\}?\s*$")
# Remarks that change the value they follow, one per box (chosen by the gold's text).
REMARKS = (
    r"\text{ doubled}", r"\text{ squared}", r"\text{ times 3}", r"\text{ per second}",
    r"\text{ thousand}", r"\text{ or 7}", r"\text{ (negative)}", r"\text{ at least}",
)  # fmt: skip


def _unit_swapped(side: str) -> str | None:
    """A numeric side with its unit replaced by another of the same dimension, the number
    kept: a kilo- or milli- prefix on the unit (or the kilo dropped), degrees made radians."""
    from studybench.verify.normalize import normalize_answer
    from studybench.verify.units import parse_unit, same_dimension, si_factor

    degree = _DEGREE_SIGN.search(side)
    if degree is not None and _LEADING_NUMBER.match(side):
        return side[: degree.start()] + r"\,\mathrm{rad}"
    match = _TRAILING_UNIT.search(side)
    if match is None or not _LEADING_NUMBER.match(side):
        return None
    unit = match.group("unit").strip()
    original = parse_unit(normalize_answer(unit))
    if original is None or original.dimensionless or si_factor(original) is None:
        return None
    candidates = [unit[1:]] if unit.startswith("k") else []
    candidates += ["k" + unit, "m" + unit]
    for candidate in candidates:
        other = parse_unit(normalize_answer(candidate)) if candidate else None
        factor, base = (
            (si_factor(other), si_factor(original)) if other is not None else (None, None)
        )
        if other is None or not same_dimension(other, original) or not factor or not base:
            continue
        if abs(factor / base - 1) > 0.05:
            return side[: match.start("unit")] + candidate + side[match.end("unit") :]
    return None


SYMBOLIC_KINDS = ("new_term", "new_factor")
_FRESH = ("Q", "W", r"\xi", r"\varkappa")  # a symbol no gold side spells is the new one


def _fresh_symbol(side: str) -> str:
    """A symbol absent from ``side`` (as a letter or a command), so it is new to the gold."""
    for name in _FRESH:
        if not re.search(re.escape(name) + r"(?![A-Za-z])", side):
            return name
    raise ValueError(f"no fresh symbol for {side!r}")


def _new_symbol(side: str, kind: str) -> str:
    fresh = _fresh_symbol(side)
    if kind == "new_term":
        return rf"\left({side}\right) + {fresh}"
    return rf"{fresh}\left({side}\right)"


def _is_numeric(side: str) -> bool:
    return _LEADING_NUMBER.match(side) is not None and not re.search(
        r"[a-zA-Z]", _strip_units(side)
    )


def _strip_units(side: str) -> str:
    side = re.sub(r"\\(?:mathrm|text|rm|,|times|cdot)\s*(\{[^{}]*\})?", " ", side)
    return re.sub(r"10\s*\^\s*\{?[+-]?\d+\}?", " ", side)


def _side_variants(side: str, answer_type: str) -> Iterator[tuple[str, str]]:
    numeric = answer_type == "NV" or _is_numeric(side)
    for kind in KINDS:
        changed = _numeric(side, kind) if numeric else _expression(side, kind)
        if changed is not None and changed.strip() != side.strip():
            yield kind, changed
    swapped = _unit_swapped(side) if numeric else None
    if swapped is not None:
        yield "unit_swap", swapped
    if not numeric:
        for kind in SYMBOLIC_KINDS:
            yield kind, _new_symbol(side, kind)


def _box_variants(box: str, answer_type: str) -> Iterator[tuple[str, str, str]]:
    """(where, kind, changed box) for one box: the whole answer or each chain side."""
    if answer_type == "IN":
        yield from _interval_variants(box)
        return
    if answer_type in ("NV", "EX", "EQ"):
        remark = REMARKS[sum(map(ord, box)) % len(REMARKS)]
        yield "answer", "remark", rf"{box}\ {remark}"
        sides = chain(box)
        if len(sides) == 2 and not _LEADING_NUMBER.match(sides[0]) and "\\neq" not in box:
            yield "answer", "negated", rf"{sides[0]} \neq {sides[1]}"
    yield from _value_variants(box, answer_type)


def _value_variants(box: str, answer_type: str) -> Iterator[tuple[str, str, str]]:
    if answer_type == "QL":
        for match in _ANY_NUMBER.finditer(box):
            changed = box[: match.start()] + _format(float(match.group(1)) + 1) + box[match.end() :]
            yield "answer", "text_number", changed
        return
    if answer_type == "EQ":
        sides = chain(box)
        if len(sides) == 2:  # the right side of an equation changed, or a wrong link appended
            for kind, changed in _side_variants(sides[1], "EX"):
                yield "answer", kind, f"{sides[0]} = {changed}"
                yield "appended", kind, f"{sides[0]} = {sides[1]} = {changed}"
        return
    if answer_type not in ("NV", "EX"):
        return
    sides = _split_sides(box)
    labelled = len(sides) > 1 and not _is_numeric(sides[0])
    values = [i for i in range(len(sides)) if not (labelled and i == 0)]
    for position in values:
        where = f"chain_link_{position}" if len(values) > 1 else "answer"
        for kind, changed in _side_variants(sides[position], answer_type):
            yield where, kind, " = ".join([*sides[:position], changed, *sides[position + 1 :]])
            yield "appended", kind, " = ".join([*sides, changed])


_RELATIONS_IN = re.compile(r"\\(?:leq|geq|le|ge)(?![a-zA-Z])|<|>")
_COMPLEMENT = {r"\le": ">", r"\leq": ">", r"\ge": "<", r"\geq": "<", "<": r"\ge ", ">": r"\le "}
_FINITE_NUMBER = re.compile(r"(?<![\w.^_\\])(\d+(?:\.\d+)?)(?![\w.])")


def _interval_variants(box: str) -> Iterator[tuple[str, str, str]]:
    """IN: the relation complemented, the first finite bound changed, the finite ends'
    brackets turned, the bounded quantity squared."""
    from studybench.verify.normalize import normalize_answer
    from studybench.verify.rules.interval import parse_intervals

    relations = list(_RELATIONS_IN.finditer(box))
    if relations:
        out, pos = [], 0
        for match in relations:
            out += [box[pos : match.start()], _COMPLEMENT[match.group(0)]]
            pos = match.end()
        yield "answer", "negated", "".join(out) + box[pos:]
    number = _FINITE_NUMBER.search(box)
    if number is not None:
        value = float(number.group(1))
        changed = "1" if value == 0 else _format(value * 2)
        yield "answer", "bound", box[: number.start()] + changed + box[number.end() :]
    intervals = parse_intervals(normalize_answer(box)) or []
    if not relations and intervals and "\\in" not in box:
        turned = _turned_brackets(box)
        if turned is not None:
            yield "answer", "bracket", turned
    variable = next((i.variable for i in intervals if i.variable is not None), None)
    if variable is not None and variable in box:
        yield "answer", "variable", box.replace(variable, f"{{{variable}}}^{{2}}", 1)
    elif intervals and not relations and "\\in" not in box:
        yield "answer", "variable", rf"x^{{2}} \in {box}"


def _turned_brackets(box: str) -> str | None:
    """``[a, b)`` -> ``(a, b]`` at the finite ends (an infinite end is open either way)."""
    swap = {"[": "(", "(": "[", "]": ")", ")": "]"}
    chars = list(box)
    changed = False
    for match in re.finditer(r"[\[(]([^,\[\]()]*),([^,\[\]()]*)[\])]", box):
        low, high = match.group(1), match.group(2)
        if "infty" not in low and "\u221e" not in low:
            chars[match.start()] = swap[box[match.start()]]
            changed = True
        if "infty" not in high and "\u221e" not in high:
            chars[match.end() - 1] = swap[box[match.end() - 1]]
            changed = True
    return "".join(chars) if changed else None


def _split_sides(box: str) -> list[str]:
    return chain(box) if "=" in box else [box.strip()]


def perturbations(gold: Gold) -> Iterator[Perturbation]:
    """Every perturbation of one gold, each changing exactly one place."""
    boxes = [c.strip() for c in scan_boxes(gold.gold).contents if c.strip()]
    if not boxes or gold.answer_type not in PERTURBED_TYPES:
        return
    sequence = [t.strip().upper() for t in gold.type_sequence.split(",") if t.strip()]
    if gold.answer_type == "TUP":
        if len(sequence) != len(boxes):
            return  # one box holding the tuple: its elements are not perturbed one by one
        for index, (box, kind) in enumerate(zip(boxes, sequence, strict=True)):
            for where, how, changed in _box_variants(box, kind):
                pred = "".join(
                    "\\boxed{" + (changed if i == index else b) + "}" for i, b in enumerate(boxes)
                )
                place = f"element_{index}" + ("" if where == "answer" else f":{where}")
                yield Perturbation(pred, place, how, gold)
        return
    if gold.answer_type == "ALT":
        for index, box in enumerate(boxes):
            kind = sequence[index] if len(sequence) == len(boxes) else (sequence or ["EX"])[0]
            for where, how, changed in _box_variants(box, kind):
                place = f"alternative_{index}" + ("" if where == "answer" else f":{where}")
                yield Perturbation("\\boxed{" + changed + "}", place, how, gold)
        return
    if len(boxes) != 1:
        return
    for where, how, changed in _box_variants(boxes[0], gold.answer_type):
        yield Perturbation("\\boxed{" + changed + "}", where, how, gold)


def equivalent_table() -> dict[str, str]:
    """Perturbations proven equivalent to their gold: key -> proof."""
    rows = json.loads(EQUIVALENT_TABLE.read_text(encoding="utf-8"))["equivalent"]
    return {row["key"]: row["proof"] for row in rows}


def expected_location(perturbation: Perturbation) -> str | None:
    """The prefix the rejection reason must carry (the place that differs), if any."""
    parts = perturbation.where.split(":")
    if parts[0].startswith("alternative_"):
        return None  # ALT names the last alternative it tried, not the perturbed one
    required = [p for p in parts if p.startswith(("element_", "chain_link_"))]
    return ":".join(required) if required else None


def another_alternative(perturbation: Perturbation) -> bool:
    """A perturbed ALT alternative that equals another listed alternative is right."""
    gold = perturbation.gold
    boxes = [c for c in scan_boxes(gold.gold).contents if c.strip()]
    sequence = [t.strip() for t in gold.type_sequence.split(",") if t.strip()]
    index = int(perturbation.where.split(":")[0].removeprefix("alternative_"))
    for other, box in enumerate(boxes):
        kind = sequence[other] if len(sequence) == len(boxes) else (sequence or ["EX"])[0]
        if other != index and judge_inline(perturbation.pred, "\\boxed{" + box + "}", kind).correct:
            return True
    return False
