"""Finding the final answer(s) in a model output.

Extraction is strict: only ``\\boxed{...}`` groups outside thinking count. Nothing is guessed
from "the answer is" phrases; an output without a box has no answer, and the LLM judge (which
sees the whole text) decides what to make of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from studybench.data.answer_types import AnswerType
from studybench.data.boxes import scan_boxes, split_top_level_commas
from studybench.verify.enclosure import untrusted_boxes
from studybench.verify.normalize import THOUSANDS, collapse_whitespace
from studybench.verify.relations import SPACING_ENDS, has_environment, is_label, split_elements
from studybench.verify.visibility import (
    bounds,
    cases,
    chain_sides,
    denials,
    hedged,
    offered_in_prose,
    offers_in_prose,
    operands,
    unstrike_relations,
    without_hidden,
)

MAX_INPUT_CHARS = 64 * 1024
_CELL_BAR = re.compile(r"(?:^|\n)[ \t]*\||(?<=\s)\|(?=\s)")  # "| a | b |", "a | b"
AFTER_CHARS = 60  # text read after a box for the unit of a bare number
_TAIL_CHARS = 600  # text read after the last box for a value stated again
_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
_SIZING = re.compile(r"\\(?:left|right|bigl|bigr|Bigl|Bigr)(?![a-zA-Z])")
_LEADING_AND = re.compile(r"^(?:\\text\s*\{\s*and\s*\}|\\text\s*\{\s*and\s+|and\s+)")


@dataclass(frozen=True, slots=True)
class Extraction:
    """The candidate answer strings of one output, and why there are none when empty."""

    answers: tuple[str, ...]
    problem: str | None = None  # "no_box", "think_unterminated", "unbalanced_box", ...
    # for each pair of neighbouring boxes, whether a hedge word ("or", "maybe") joins them
    hedges: tuple[bool, ...] = ()
    # the unboxed value the prose beside the last box offers as well ("or maybe 29 m/s")
    offered: str | None = None
    # every value offered beside the last box, before or after it (each must be right)
    offers: tuple[str, ...] = ()
    # for each pair of neighbouring boxes, whether a table's cell bar lies between them: two
    # boxes in one table offer two values for one asked value (a TUP's rows do not hedge)
    tabled: tuple[bool, ...] = ()
    # for each pair of neighbouring boxes, whether each is labelled as one case ("Case 1:",
    # "If it is rough:"): a tuple's cases, or two values offered for one asked value
    cased: tuple[bool, ...] = ()
    # for each box, the bound the prose around it makes of it ("at most \\boxed{…}": "upper",
    # "v \\ge \\boxed{…}": "lower", "\\ll": "" for no value), or None
    bounds: tuple[str | None, ...] = ()
    # for each box, whether an operation written right around it makes the answer a function
    # of it (``v = 2\\boxed{…}``, ``-\\boxed{…}``, ``\\boxed{…}^2``)
    operands: tuple[bool, ...] = ()
    # for each box, the text right after it (up to the next box): the unit a bare number
    # carries when the prompt asks for units outside the box ("\boxed{0.300}\,\mathrm{m}")
    after: tuple[str, ...] = ()
    # for each box, the text right before it (from the previous box): a unit named there
    # ("Speed in km/h: \boxed{14.5}")
    before: tuple[str, ...] = ()
    # the sides of the chain the last box closes ("$x = \\frac{d}{3} = \\boxed{…}$" gives
    # ``x`` and ``\\frac{d}{3}``): a chain claims each equals the box
    sides: tuple[str, ...] = ()
    # the text after the last box as a reader reads it, fenced code's lines included: where a
    # value stated again after the answer is read ("```\nFinal answer: h = 1.63 m\n```")
    tail: str = ""


def strip_think(text: str) -> tuple[str, bool]:
    """Remove thinking; return (visible text, whether an unterminated ``<think>`` was cut).

    Closed blocks are removed (a block ends at the first ``</think>`` after its opening tag;
    an inner ``<think>`` is part of the block). A stray ``</think>`` without an opening tag
    (chat templates that open the block in the prompt) means everything before it was
    thinking. Whatever follows an unterminated ``<think>`` is thinking that never finished:
    it never counts.

    One left-to-right pass over the tags, so the cost is linear in the text: TTRL's majority
    vote and the rollout history call this on raw model output without a time bound.
    """
    pieces: list[str] = []
    pos = 0
    inside = False
    for tag in _THINK_TAG.finditer(text):
        closing = tag.group(1) == "/"
        if inside:
            if closing:
                inside = False
                pieces.append(" ")
                pos = tag.end()
            continue
        if closing:  # stray close: everything kept so far was thinking
            pieces.clear()
            pos = tag.end()
            continue
        pieces.append(text[pos : tag.start()])
        inside = True
    if inside:
        return "".join(pieces), True
    pieces.append(text[pos:])
    return "".join(pieces), False


def visible_text(text: str, *, strip_thinking: bool = True) -> tuple[str, bool]:
    """The part of an output that may hold the final answer, capped to the last 64 KB, its
    whitespace runs collapsed (:func:`~studybench.verify.normalize.collapse_whitespace`)."""
    unterminated = False
    if strip_thinking:
        text, unterminated = strip_think(text)
    if len(text) > MAX_INPUT_CHARS:
        text = text[-MAX_INPUT_CHARS:]
    return collapse_whitespace(text), unterminated


_FBOX = re.compile(r"\\(?:fbox|framebox)(?=\s*\{)")
_INNER_BOX = re.compile(r"\\(?:boxed|fbox|framebox)\s*\{")


def _unbox(content: str) -> str:
    """A box inside a box is the same answer: ``\\boxed{\\boxed{14.5}}`` is ``14.5``, and
    ``\\boxed{x = \\boxed{3}}`` is ``x = {3}``."""
    content = content.strip()
    while True:
        inner = scan_boxes(content).contents
        whole = _INNER_BOX.match(content)
        if whole is None or len(inner) != 1 or not content.endswith("}"):
            break
        if content[whole.end() : -1].strip() != inner[0].strip():
            break
        content = inner[0].strip()
    return _INNER_BOX.sub("{", content)


def boxed_answers(
    text: str, *, strip_thinking: bool = True, question: str | None = None
) -> Extraction:
    """Every non-empty box a reader sees and the output stands behind, in order (``\\fbox``
    is a box too); see :mod:`studybench.verify.visibility` for what is hidden or disowned.

    ``hedges`` says which neighbouring boxes a hedge word joins (``\\boxed{a} or
    \\boxed{b}``): such boxes are claims about one answer (``judge_inline`` wants each of them
    right). Boxes side by side without one keep the protocol's rule: the last box (the last
    ``k``) wins. ``question`` says which effects a box given for comparison keeps that the
    question leaves out (:func:`~studybench.verify.visibility.denials`)."""
    visible, unterminated = visible_text(text, strip_thinking=strip_thinking)
    # hidden text and code spans leave spaces behind: runs as short as the visible text's
    shown = collapse_whitespace(
        _FBOX.sub(r"\\boxed", without_hidden(untrusted_boxes(unstrike_relations(visible))))
    )
    scan = scan_boxes(shown)
    found = [
        (box, start, end)
        for content, (start, end) in zip(scan.contents, scan.spans, strict=True)
        if (box := _unbox(content) if content.strip() else "")
    ]
    denied = denials(shown, [(start, end) for _, start, end in found], question)
    kept = [box for box, flag in zip(found, denied, strict=True) if not flag]
    if kept:
        boxes = tuple(box for box, _, _ in kept)
        gaps = pairwise(kept)
        last_start, last_end = kept[-1][1], kept[-1][2]
        before = shown[kept[-2][2] if len(kept) > 1 else 0 : last_start]
        return Extraction(
            boxes,
            hedges=tuple(hedged(shown[a[2] : b[1]], shown[: a[1]]) for a, b in gaps),
            tabled=tuple(bool(_CELL_BAR.search(shown[a[2] : b[1]])) for a, b in pairwise(kept)),
            cased=tuple(cases(shown[a[2] : b[1]], shown[: a[1]]) for a, b in pairwise(kept)),
            bounds=tuple(bounds(shown, [(start, end) for _, start, end in kept])),
            operands=tuple(operands(shown, [(start, end) for _, start, end in kept])),
            offered=offered_in_prose(before, shown[last_end:]),
            offers=offers_in_prose(before, shown[last_end:]),
            sides=chain_sides(shown[:last_start]),
            tail=_tail(visible, shown, scan.spans, scan.spans.index((last_start, last_end))),
            after=tuple(
                shown[end : min(end + AFTER_CHARS, following)]
                for (_, _, end), following in zip(
                    kept, [start for _, start, _ in kept[1:]] + [len(shown)], strict=True
                )
            ),
            before=tuple(
                shown[max(start - AFTER_CHARS, previous) : start]
                for (_, start, _), previous in zip(
                    kept, [0] + [end for _, _, end in kept[:-1]], strict=True
                )
            ),
        )
    if unterminated:
        return Extraction((), "think_unterminated")
    if any(denied):
        return Extraction((), "disowned_box")
    if scan.unbalanced:
        return Extraction((), "unbalanced_box")
    hidden = any(c.strip() for c in scan_boxes(_FBOX.sub(r"\\boxed", visible)).contents)
    return Extraction((), "hidden_box" if hidden else "no_box")


def _tail(visible: str, shown: str, spans: tuple[tuple[int, int], ...], index: int) -> str:
    """The text after box ``index`` (of ``spans`` in ``shown``; see ``Extraction.tail``):
    read again with fenced code kept where there is some and the same boxes are found."""
    if "```" in visible:
        coded = collapse_whitespace(
            _FBOX.sub(
                r"\\boxed",
                without_hidden(untrusted_boxes(unstrike_relations(visible)), code=True),
            )
        )
        coded_spans = scan_boxes(coded).spans
        if len(coded_spans) == len(spans):
            shown, spans = coded, coded_spans
    end = spans[index][1]
    return shown[end : end + _TAIL_CHARS]


def gold_answers(gold: str) -> tuple[str, ...]:
    """The gold's boxes; a gold without any box is one answer as a whole (release quirk).
    Its whitespace is collapsed as a prediction's is: a run of spaces in a gold's box is as
    slow to read as one in a prediction's."""
    gold = collapse_whitespace(gold)
    boxes = tuple(c.strip() for c in scan_boxes(gold).contents if c.strip())
    return boxes or ((gold.strip(),) if gold.strip() else ())


def _splits_angle_brackets(parts: list[str]) -> bool:
    """Whether a comma split cut ``\\langle a, b \\rangle`` into ``\\langle a`` ... ``b
    \\rangle`` (the comma split does not count angle brackets); bras ``\\langle a|`` and kets
    ``|a\\rangle`` as elements are not cuts."""
    first, last = (_SIZING.sub("", p).strip() for p in (parts[0], parts[-1]))
    return (
        first.startswith(r"\langle")
        and r"\rangle" not in first
        and last.endswith(r"\rangle")
        and r"\langle" not in last
    )


def _unparenthesise(text: str) -> str:
    """``(a, b)`` / ``[a, b]`` / ``\\langle a, b \\rangle`` -> ``a, b``; else unchanged."""
    text = _SIZING.sub("", text).strip()
    if text.startswith(r"\langle") and text.endswith(r"\rangle"):
        return text[len(r"\langle") : -len(r"\rangle")]
    if len(text) >= 2 and text[0] + text[-1] in ("()", "[]"):
        return text[1:-1]
    return text


def _clean_element(part: str) -> str:
    """An element cut from a list: without the spacing around its comma (``a\\ ,\\ b``) and
    the "and" of the last one (``a, b, \\text{and } c``)."""
    part = SPACING_ENDS.sub("", part)
    without = _LEADING_AND.sub("", part)
    if (
        without != part
        and part.startswith(r"\text")
        and "}" not in part[: len(part) - len(without)]
    ):
        without = without.replace("}", "", 1)  # \text{and c}: the group's brace went with "and"
    return SPACING_ENDS.sub("", without)


def _named_tuple(box: str, count: int) -> tuple[str, ...] | None:
    """``(T_B, T_C) = (2T_0, 4T_0)``: each element named (``T_B = 2T_0``); ``\\mathbf v = (a,
    b)``: one name for the whole tuple, the elements as listed."""
    sides = [s for s in split_top_level_commas(box)]  # a comma at the top level: no named tuple
    if len(sides) != 1 or "=" not in box:
        return None
    from studybench.verify.normalize import split_top_level

    halves = split_top_level(box, "=")
    if len(halves) != 2:
        return None
    left, right = (h.strip() for h in halves)
    values = split_top_level_commas(_unparenthesise(right))
    if _unparenthesise(right) == _SIZING.sub("", right).strip() or len(values) != count:
        return None
    names = split_top_level_commas(_unparenthesise(left))
    if len(names) == count and _unparenthesise(left) != left.strip():
        if all(is_label(n) for n in names):
            return tuple(f"{n.strip()} = {v.strip()}" for n, v in zip(names, values, strict=True))
        return None
    if is_label(_SIZING.sub("", left)) or is_label(left.replace(r"\mathbf", r"\vec")):
        return tuple(v.strip() for v in values)
    return None


# a phrase in parentheses after the last value: ``m = -6 \text{ (inverted)}``,
# ``-6\ (\text{inverted})``
_TRAILING_PHRASE = re.compile(
    r"^(?P<head>.*?\S)\s*(?:\\text\s*\{\s*\((?P<a>[^{}()]*)\)\s*\}"
    r"|\(\s*\\text\s*\{(?P<b>[^{}()]*)\}\s*\)|\\text\s*\{\s*\(\s*(?P<c>[^{}()]*)\}\s*\)"
    r"|\((?P<d>[A-Za-z][A-Za-z\s-]*)\))\s*$",
    re.DOTALL,
)


def _trailing_phrase(box: str, count: int) -> tuple[str, ...] | None:
    """A tuple whose last element is a phrase (QL), written as a parenthetical after the
    others: ``m = -6 \\text{ (inverted)}`` is (``m = -6``, ``inverted``)."""
    match = _TRAILING_PHRASE.match(box)
    if match is None:
        return None
    phrase = next(g for g in match.group("a", "b", "c", "d") if g is not None).strip()
    head = SPACING_ENDS.sub("", match.group("head") + " ")
    if not phrase or not head:
        return None
    if count == 2:
        return (head, phrase)
    rest = select_answers((head,), AnswerType.TUP, count - 1)
    return (*rest, phrase) if len(rest) == count - 1 else None


def select_answers(
    boxes: tuple[str, ...],
    answer_type: AnswerType,
    gold_count: int,
    sequence: tuple[AnswerType, ...] = (),
) -> tuple[str, ...]:
    """The predicted boxes that are compared with the gold, by answer type.

    * Atomic types: the last ``gold_count`` boxes (the last one for a single gold).
    * TUP: a last box holding a top-level comma list of exactly ``n`` elements is split
      (models box the whole tuple on the final line after boxing intermediate results);
      otherwise the last ``n`` boxes. A parenthesised ``(a, b)`` is read as the tuple only
      when fewer than ``n`` boxes exist, since an element may itself be a point, or when
      every element is a number, an option or a truth value; so is a box whose elements
      are separated by ``\\quad``, ``;``, "and" or the rows of ``\\begin{cases}``.
      When the last element is a phrase (``sequence`` ends with QL), one box may give it in
      parentheses after the others (``m = -6 \\text{ (inverted)}``).
    * ALT: the last boxes, at most as many as the gold has alternatives, each a candidate.
      Capping the candidates keeps "box every guess" from earning a reward.
    """
    if not boxes:
        return ()
    count = max(gold_count, 1)
    if answer_type is AnswerType.TUP and count > 1 and has_environment(boxes[-1]):
        # rows of cases / aligned: the rows are the elements, commas end a row
        elements = split_elements(boxes[-1], count)
        if elements is not None:
            return elements
    if answer_type is AnswerType.TUP and count > 1:
        named = _named_tuple(boxes[-1], count)
        if named is not None:
            return named
    if answer_type is AnswerType.TUP and count > 1 and not THOUSANDS.fullmatch(boxes[-1]):
        # The final line may box the whole tuple even after boxing intermediate results.
        candidates = [boxes[-1]]
        if len(boxes) < count or _plain_elements(sequence, count):
            # "(a, b)" is a tuple when nothing else is boxed, or when no element can itself
            # be a point or an interval (numbers, options, truth values)
            candidates.append(_unparenthesise(boxes[-1]))
        for candidate in candidates:
            parts = [_clean_element(p) for p in split_top_level_commas(candidate)]
            if len(parts) == count and all(parts) and not _splits_angle_brackets(parts):
                return tuple(parts)
        if len(boxes) < count:  # "a \quad b", cases rows, "a; b": one box, n elements
            elements = split_elements(boxes[-1], count)
            if elements is not None:
                return elements
            if len(sequence) == count and sequence[-1] is AnswerType.QL:
                elements = _trailing_phrase(boxes[-1], count)
                if elements is not None:
                    return elements
    return boxes[-count:]


_PLAIN_ELEMENTS = frozenset({AnswerType.NV, AnswerType.MC, AnswerType.TF})


def _plain_elements(sequence: tuple[AnswerType, ...], count: int) -> bool:
    """Whether every element of the asked tuple is a number, an option or a truth value, so a
    parenthesised box of ``count`` of them can only be the whole tuple."""
    return len(sequence) == count and all(kind in _PLAIN_ELEMENTS for kind in sequence)
