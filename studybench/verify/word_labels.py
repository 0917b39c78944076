"""Tuple elements labelled in words: ``\\text{emf: } 8.00\\,V``, ``\\text{work} = 800\\,J``.

A word label is a claim about the element's value, as a symbol label is: "work = 0.40,
efficiency = 800 J" says the work is 0.40, whatever order the gold lists its values in. Only
words the question asks about count as labels: each label is found in the asking part of the
question, and the elements are read in the order the question asks them. A label the asking
part does not write is left to the other rules (the judge reads it).
"""

from __future__ import annotations

import re

from studybench.verify.normalize import split_top_level
from studybench.verify.relations import LETTER_RUN, asked_place

# a text group of words, then a value: after the box's start or an element separator
_LEAD_WORDS = re.compile(
    r"(?P<before>^|[,;]|\\text\s*\{\s*and\s*\})(?P<space>\s*(?:\\[,;:! ]\s*)*)"
    r"\\(?:text|textrm|mathrm|mbox)\s*\{\s*(?P<words>[A-Za-z][A-Za-z' -]{0,40}?)\s*:?\s*\}"
    r"(?=\s*(?:\\[,;:! ]\s*)*(?:[-+]?\d|\.\d|\\frac))"
)
# "respectively" closing a list of values: it adds no claim
_RESPECTIVELY = re.compile(
    r"(?:,\s*|\\[,;:! ]\s*)*\\text\s*\{\s*[,(]?\s*respectively\s*[).]?\s*\}\s*\.?\s*$"
    r"|(?:,\s*)?\\text\s*\{\s*(?P<unit>[^{}]*?)\s*,?\s*\(?respectively\)?\.?\s*\}\s*$",
    re.IGNORECASE,
)


def words_as_labels(box: str, question: str | None) -> str:
    """``\\text{emf: } 8.00\\,V,\\ \\text{current } 2.00\\,A`` as ``\\text{emf} = 8.00\\,V,\\
    \\text{current} = 2.00\\,A``: a text group before a value is its label where the question
    asks for the quantity it names; other words before a value are left as written."""
    if not question or "\\" not in box:
        return box

    def labelled(match: re.Match[str]) -> str:
        words = match.group("words")
        if asked_place(words, question) is None:
            return match.group(0)
        return f"{match.group('before')}{match.group('space')}\\text{{{words.strip()}}} ="

    return _LEAD_WORDS.sub(labelled, box)


def without_respectively(box: str) -> str:
    """A list of values closed by "respectively" (``8.00\\,V, 2.00\\,A, \\text{respectively}``)
    without the word, and a unit written in the same text group kept."""

    def dropped(match: re.Match[str]) -> str:
        unit = match.group("unit")
        return rf"\text{{{unit}}}" if unit else ""

    return _RESPECTIVELY.sub(dropped, box)


_WORD_NAME = re.compile(r"[A-Za-z][A-Za-z' -]*")


def word_label(element: str) -> str | None:
    """The words an element names itself by (``work`` of ``work = 800 J``), or None."""
    sides = split_top_level(element, "=")
    if len(sides) < 2 or not _WORD_NAME.fullmatch(sides[0].strip()):
        return None
    return sides[0].strip()


def in_asked_order(names: list[str], question: str | None) -> list[int] | None:
    """The order in which the question asks the quantities ``names`` names in words (indices
    into ``names``), or None where a name is not all words or the asking part does not write
    each at a place of its own."""
    if not question or any(not _WORD_NAME.fullmatch(n) for n in names):
        return None
    if not any(len(w) > 2 for n in names for w in LETTER_RUN.findall(n)):
        return None
    places = [asked_place(name, question) for name in names]
    if any(place is None for place in places) or len(set(places)) != len(places):
        return None
    return sorted(range(len(names)), key=lambda i: places[i])  # type: ignore[arg-type, return-value]


# a tuple of names set equal to a tuple of values, a shared unit after it: "(v_1, v_2) =
# (-1.0, 2.0)\ m/s", "(T,\ v_{\max}) = (1.26\ s,\ 0.50\ m/s)"
_NAMES_EQUAL_VALUES = re.compile(
    r"^\s*(?:\\left\s*)?\(\s*(?P<names>[^()=]+?)\s*(?:\\right\s*)?\)\s*=\s*"
    r"(?:\\left\s*)?\(\s*(?P<values>.+?)\s*(?:\\right\s*)?\)"
    r"(?P<unit>(?:\s|\\[,;: ]|~)*"
    r"(?:\\(?:mathrm|text|textrm|rm)\s*\{[^{}]*\}|[A-Za-zµΩ°%][\w/^{}-]*))?"
    r"\s*$",
    re.DOTALL,
)
# one name: a letter or a command, a subscript, primes (``v_1'``, ``v_{\max}``, ``\theta``)
_ONE_NAME = re.compile(
    r"(?:\\[A-Za-z]+\s*|[A-Za-z])(?:\s*_\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\?\w+))?\s*(?:'+|\^\s*\{?\\prime\}?)?"
)
_SEPARATOR_SPACE = re.compile(r"^(?:\s|\\[,;: ]|~)+|(?:\s|\\[,;: ]|~)+$")


def names_set_equal(box: str) -> str:
    """``(v_1, v_2) = (-1.0, 2.0)\\ m/s`` as ``v_1 = -1.0\\ m/s, v_2 = 2.0\\ m/s``: each name
    labels the value in its place (red team r24b), the unit after the values each one's; as
    written where the sides are no names, or hold different counts."""
    match = _NAMES_EQUAL_VALUES.match(box)
    if match is None:
        return box
    names = [_SEPARATOR_SPACE.sub("", n) for n in split_top_level(match.group("names"), ",")]
    values = [_SEPARATOR_SPACE.sub("", v) for v in split_top_level(match.group("values"), ",")]
    if len(names) < 2 or len(names) != len(values):
        return box
    if not all(_ONE_NAME.fullmatch(name) for name in names) or not all(values):
        return box
    unit = match.group("unit") or ""
    return ", ".join(f"{name} = {value}{unit}" for name, value in zip(names, values, strict=True))
