"""The deterministic half of the leakage gate: does a guidance text give the answer away?

Rules (each hit names the rule, the sentence and what matched):

* ``boxed``: any ``\\boxed``.
* ``final_statement``: "the answer is", "final answer", or a conclusion marker (therefore,
  hence, thus, which gives, we obtain, ...) followed by an equation in the same sentence.
* ``answer_value``: a number within the relative tolerance of a numeric gold value, in any
  notation: ``2500``, ``2,500``, ``2.5\\times10^{3}``, ``2.5e3``, ``\\frac{5}{2}``, number
  words ("two thousand five hundred", via ``text2num``), and a mantissa whose power of ten
  follows in the next sentence ("about 2.5. Then multiply by 10^3"). Numbers the problem
  itself states, exponents and indices (``R^2``, ``v_1``) and golds 0 and 1 (too common to
  mean anything) do not count.
* ``answer_expression``: the gold expression inside the guidance, ignoring spacing, case and
  ``\\left``/``\\right`` (so inside a longer formula too); and each side of every formula in
  the guidance compared symbolically with the gold by the rule verifier (reordered or
  rewritten forms).

The rules over-approximate on purpose: a flagged draft is regenerated, and only as a last
resort sanitised (:func:`sanitize` drops whole flagged sentences, never truncates one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from studybench.data.answer_types import AnswerType
from studybench.data.boxes import scan_boxes
from studybench.guidance.textnorm import compact, sentences
from studybench.verify.normalize import last_side, normalize_answer
from studybench.verify.parsing import UnparseableError, parse_quantity

SYMBOLIC_TYPES = {AnswerType.EX, AnswerType.EQ}
NUMERIC_TYPES = {AnswerType.NV, AnswerType.EX, AnswerType.IN}
MIN_EXPRESSION_CHARS = 4

_BOXED = re.compile(r"\\boxed\b")
_ANSWER_PHRASE = re.compile(
    r"\b(?:the\s+(?:final\s+)?answer\s+(?:is|equals|reads)|final\s+answer|"
    r"the\s+(?:final\s+)?result\s+(?:is|equals|reads))\b",
    re.IGNORECASE,
)
_CONCLUSION = re.compile(
    r"\b(?:therefore|hence|thus|which\s+gives|this\s+gives|giving|yields?|"
    r"(?:we|you|one)\s+(?:get|gets|obtain|obtains|find|finds|arrive\s+at))\b",
    re.IGNORECASE,
)
_EQUATION = re.compile(r"(?<![<>!=\\])=(?!=)")  # not <=, >=, !=, ==
_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)

_NUM = r"[-+]?(?:\d{1,3}(?:(?:,|\{,\}|\\,)\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
_NUMBER = re.compile(rf"(?<![\w^_.])(?<!\^\{{)(?<!_\{{)(?<!\^\s)(?P<num>{_NUM})")
_FRACTION = re.compile(r"\\frac\s*\{\s*(\d+(?:\.\d+)?)\s*\}\s*\{\s*(\d+(?:\.\d+)?)\s*\}")
_POWER_TAIL = re.compile(
    r"(?P<gap>[^0-9]{0,40}?)"
    r"(?:\\times|\\cdot|×|\btimes\b|\bx\b|\bmultipl\w*(?:\s+\w+){0,2})\s*\$?\s*"
    r"10\s*\^\s*\{?\s*(?P<exp>[-+]?\d+)\s*\}?",
    re.IGNORECASE,
)


class LeakHit(BaseModel):
    rule: str
    sentence: int
    match: str

    def describe(self) -> str:
        return f"{self.rule} (sentence {self.sentence + 1}: {self.match[:60]!r})"


class Gold(BaseModel):
    """What a guidance text must not reveal: the gold's boxes, typed."""

    boxes: list[str]
    types: list[AnswerType]

    @classmethod
    def of(
        cls, answer: str, answer_type: AnswerType, type_sequence: Sequence[AnswerType] = ()
    ) -> Gold:
        boxes = list(scan_boxes(answer).contents) or [answer]
        if answer_type in (AnswerType.TUP, AnswerType.ALT) and type_sequence:
            types = list(type_sequence)[: len(boxes)]
            types += [types[-1]] * (len(boxes) - len(types))
        else:
            types = [answer_type] * len(boxes)
        return cls(boxes=boxes, types=types)


def _plain_numbers(text: str) -> list[float]:
    """Every number written in ``text``, in any notation (see the module docstring)."""
    from text_to_num import alpha2digit

    text = text.replace("−", "-")
    values: list[float] = []
    for match in _FRACTION.finditer(text):
        denominator = float(match.group(2))
        if denominator:
            values.append(float(match.group(1)) / denominator)
    text = _FRACTION.sub(" ", text)
    converted = alpha2digit(text, "en")
    for source in {text, converted}:
        for match in _NUMBER.finditer(source):
            raw = re.sub(r",|\{,\}|\\,", "", match.group("num"))
            try:
                value = float(raw)
            except ValueError:
                continue
            values.append(value)
            tail = _POWER_TAIL.match(source, match.end())
            if tail is not None and "\n\n" not in tail.group("gap"):
                exponent = int(tail.group("exp"))
                if abs(exponent) <= 300:
                    values.append(value * 10.0**exponent)
    return values


def _close(a: float, b: float, tolerance: float) -> bool:
    if b == 0:
        return abs(a) <= 1e-9
    return abs(a - b) <= tolerance * abs(b)


def _gold_values(gold: Gold) -> list[float]:
    values: list[float] = []
    for box, kind in zip(gold.boxes, gold.types, strict=True):
        if kind not in NUMERIC_TYPES:
            continue
        try:
            value = parse_quantity(last_side(normalize_answer(box))).value
        except (UnparseableError, ValueError, TypeError, OverflowError):
            continue
        if isinstance(value, float | int) and value not in (0.0, 1.0, -1.0):
            values.append(float(value))
    return values


def _gold_expressions(gold: Gold) -> list[tuple[str, AnswerType]]:
    out: list[tuple[str, AnswerType]] = []
    for box, kind in zip(gold.boxes, gold.types, strict=True):
        if kind in SYMBOLIC_TYPES:
            normal = normalize_answer(box)
            out.append((normal if kind is AnswerType.EQ else last_side(normal), kind))
    return out


def _math_sides(sentence: str) -> list[str]:
    sides: list[str] = []
    for match in _MATH.finditer(sentence):
        formula = next(g for g in match.groups() if g is not None)
        parts = [p.strip() for p in formula.split("=")]
        sides += [p for p in parts if p and len(p) <= 200]
        if len(parts) > 1 and len(formula) <= 300:
            sides.append(formula.strip())
    return sides


def check(
    guidance: str,
    gold: Gold,
    problem_text: str,
    *,
    tolerance: float = 1e-2,
    symbolic: bool = True,
) -> list[LeakHit]:
    """Every rule hit in ``guidance`` for ``gold``; ``problem_text`` holds the numbers the
    problem states (they may be repeated)."""
    hits: list[LeakHit] = []
    given = _plain_numbers(problem_text)
    golds = _gold_values(gold)
    expressions = _gold_expressions(gold)
    compact_expressions = [
        (compact(expr), expr)
        for expr, _ in expressions
        if len(compact(expr)) >= MIN_EXPRESSION_CHARS
    ]
    parts = sentences(guidance)
    for index, sentence in enumerate(parts):
        if _BOXED.search(sentence):
            hits.append(LeakHit(rule="boxed", sentence=index, match=sentence))
        phrase = _ANSWER_PHRASE.search(sentence)
        conclusion = _CONCLUSION.search(sentence)
        if phrase or (conclusion and _EQUATION.search(sentence, conclusion.end())):
            hits.append(LeakHit(rule="final_statement", sentence=index, match=sentence))
        # a mantissa here may take its power of ten from the next sentence
        window = sentence + (" " + parts[index + 1] if index + 1 < len(parts) else "")
        numbers = _plain_numbers(window)
        own = _plain_numbers(sentence)
        for value in golds:
            leaked = [n for n in numbers if _close(n, value, tolerance)]
            if leaked and not any(_close(g, value, tolerance) for g in given):
                in_own = any(_close(n, value, tolerance) for n in own)
                if in_own or not any(
                    _close(n, value, tolerance) for n in _next_numbers(parts, index)
                ):
                    hits.append(LeakHit(rule="answer_value", sentence=index, match=sentence))
                    break
        here = compact(sentence)
        for needle, expr in compact_expressions:
            if needle in here:
                hits.append(LeakHit(rule="answer_expression", sentence=index, match=expr))
                break
    if symbolic and expressions:
        hits += _symbolic_hits(parts, expressions, hits, tolerance)
    return hits


def _next_numbers(parts: Sequence[str], index: int) -> list[float]:
    return _plain_numbers(parts[index + 1]) if index + 1 < len(parts) else []


def _symbolic_hits(
    parts: Sequence[str],
    expressions: Sequence[tuple[str, AnswerType]],
    hits: Sequence[LeakHit],
    tolerance: float,
) -> list[LeakHit]:
    """Formula sides equivalent to a gold expression (the rule verifier decides)."""
    from studybench.verify.verifier import default_verifier

    flagged = {(h.rule, h.sentence) for h in hits}
    items: list[dict[str, object]] = []
    where: list[tuple[int, str]] = []
    for index, sentence in enumerate(parts):
        if ("answer_expression", index) in flagged:
            continue
        for side in _math_sides(sentence):
            for expr, kind in expressions:
                if (kind is AnswerType.EQ) != ("=" in side):
                    continue
                items.append(
                    {
                        "pred": f"\\boxed{{{side}}}",
                        "gold": f"\\boxed{{{expr}}}",
                        "answer_type": kind.value,
                        "tolerance": tolerance,
                    }
                )
                where.append((index, side))
    if not items:
        return []
    # the process-wide verifier: bounded time per comparison, one pool for every check
    verdicts = default_verifier().verify_many(items)
    out: list[LeakHit] = []
    seen: set[int] = set()
    for (index, side), verdict in zip(where, verdicts, strict=True):
        if verdict.correct and index not in seen:
            seen.add(index)
            out.append(LeakHit(rule="answer_expression", sentence=index, match=side))
    return out


def sanitize(guidance: str, hits: Sequence[LeakHit]) -> str:
    """The guidance without its flagged sentences (whole sentences only, never a cut one)."""
    flagged = {h.sentence for h in hits}
    kept = [s for i, s in enumerate(sentences(guidance)) if i not in flagged]
    return " ".join(kept).strip()
