"""A number written in words at the start of a numeric answer.

``\\text{two point five metres per second}``, ``\\text{three}``, ``\\text{minus two}``,
``\\text{one half}``: the numeric reader takes digits only, and refused them as
``not_a_number``. The words are read as the number they spell, and what follows as its unit,
judged as any other quantity. Only number words that make one number (``twenty-one``,
``three hundred and five``, ``two point five``); a word after them that is no unit leaves
the answer unread.
"""

from __future__ import annotations

import re

_UNITS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {
    w: 10 * (i + 2)
    for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_FRACTIONS = {
    "half": "0.5",
    "one half": "0.5",
    "a half": "0.5",
    "one third": "\\frac{1}{3}",
    "a third": "\\frac{1}{3}",
    "two thirds": "\\frac{2}{3}",
    "one quarter": "0.25",
    "a quarter": "0.25",
    "three quarters": "0.75",
}
_TOKEN = re.compile(r"[A-Za-z]+")
# each number word's value ("seven": 7, "forty": 40), for readers that find numbers in prose
NUMBER_WORD_VALUES = {**_UNITS, **_TENS}
# the words a number may open with, fractions and signs included
OPENING_WORDS = (*NUMBER_WORD_VALUES, *_FRACTIONS, "minus", "negative")
# places in words and in roman numerals, in order: "the third option", "Part (ii)"
ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
ROMAN_NUMERALS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


def _kind(word: str) -> str:
    if word in _UNITS:
        return "unit" if _UNITS[word] < 10 else "teen"
    if word in _TENS:
        return "tens"
    if word == "hundred":
        return "hundred"
    if word in _SCALES:
        return "scale"
    return "and" if word == "and" else ""


def _may_follow(kind: str, last: str, word: str, current: int) -> bool:
    """Whether a number word of ``kind`` may follow the last one as English writes one
    number: "twenty one", "three hundred and five", "two thousand ten"; never two units
    ("one two"), a tens after a unit or a teen ("nineteen eighty"), zero after anything."""
    if kind == "unit":
        if word == "zero":
            return not last
        return (
            not last
            or last in ("hundred", "scale", "and")
            or (last == "tens" and current % 10 == 0)
        )
    if kind in ("teen", "tens"):
        return (not last or last in ("hundred", "scale", "and")) and current % 100 == 0
    if kind == "hundred":
        return last in ("unit", "teen") and 0 < current < 100
    if kind == "scale":
        return bool(last) and last not in ("scale", "and") and current > 0
    return kind == "and" and last in ("hundred", "scale")


def number_in_words(text: str) -> str | None:
    """``text`` with the number its leading words spell written in digits (``two point five
    metres per second`` -> ``2.5 metres per second``), or None where it does not open with
    number words."""
    stripped = text.strip()
    lowered = stripped.casefold()
    for words, value in _FRACTIONS.items():
        if lowered == words or lowered.startswith(words + " "):
            return value + stripped[len(words) :]
    tokens = [(m.group().casefold(), m.start(), m.end()) for m in _TOKEN.finditer(stripped)]
    if not tokens or tokens[0][1] != 0:
        return None
    index, sign = 0, ""
    if tokens[0][0] in ("minus", "negative"):
        index, sign = 1, "-"
    total = current = 0
    last = ""  # the kind of the last word read: unit, teen, tens, hundred, scale
    end = read = 0  # where the number's words end; where the last word read ends
    while index < len(tokens):
        word, start, word_end = tokens[index]
        if last and stripped[read:start].strip() not in ("", "-"):
            break
        kind = _kind(word)
        if not _may_follow(kind, last, word, current):
            break
        if kind in ("unit", "teen"):
            current += _UNITS[word]
        elif kind == "tens":
            current += _TENS[word]
        elif kind == "hundred":
            current *= 100
        elif kind == "scale":
            total, current = total + current * _SCALES[word], 0
        if kind != "and":
            last, end = kind, word_end
        read = word_end
        index += 1
    if not last or last == "and":
        return None
    number = str(total + current)
    if index < len(tokens) and tokens[index][0] == "point":
        digits = ""
        index += 1
        while index < len(tokens) and tokens[index][0] in _UNITS and _UNITS[tokens[index][0]] < 10:
            digits += str(_UNITS[tokens[index][0]])
            end = tokens[index][2]
            index += 1
        if not digits:
            return None
        number += "." + digits
    return sign + number + stripped[end:]


# where a number written in words may start ("Wait, it's twelve metres")
_NUMBER_WORD = re.compile(
    r"\b(?=(?:"
    + "|".join(w.replace(" ", r"\s+") for w in sorted(OPENING_WORDS, key=len, reverse=True))
    + r")\b)",
    re.IGNORECASE,
)


# a word after a number that may be its unit: not a word of the sentence's grammar
_UNIT_NEXT = re.compile(
    r"\s+(?!(?:of|and|or|to|in|on|is|are|was|were|the|an?|more|less|times|than|cases?|ways?"
    r"|ones?|things?|parts?|steps?|sides?)\b)[A-Za-zµμΩ°]"
)


_PART_OF_NUMBER = re.compile(r"\b(?:and(?:\s+an?)?|point|[a-z]+-)\s*$", re.IGNORECASE)


_SMALL = "|".join(w for w, v in NUMBER_WORD_VALUES.items() if 1 <= v <= 19)
# a whole number and a part: "two and a half", "one and three quarters"
_PARTS = {
    "a half": 0.5,
    "one half": 0.5,
    "a quarter": 0.25,
    "one quarter": 0.25,
    "three quarters": 0.75,
    "three quarter": 0.75,
    "a third": 1 / 3,
    "one third": 1 / 3,
    "two thirds": 2 / 3,
}
_AND_A_PART = re.compile(
    rf"\b({_SMALL}|\d+)\s+and\s+(" + "|".join(p.replace(" ", r"[\s-]+") for p in _PARTS) + r")\b",
    re.IGNORECASE,
)
# half of one unit: "half a metre", "half an hour"
_HALF_A = re.compile(r"\bhalf\s+an?\s+(?=[a-zµ])", re.IGNORECASE)
# counts by the dozen and the couple: "half a dozen", "two dozen", "a dozen and a half", "a
# couple of"
_DOZEN = re.compile(
    rf"\b(?:(?P<half>half)\s+an?|(?P<count>an?|{_SMALL}|\d+))\s+dozen(?P<more>\s+and\s+a\s+half)?\b",
    re.IGNORECASE,
)
_COUPLE = re.compile(r"\ba\s+couple\s+of\b", re.IGNORECASE)


def _count(word: str) -> float:
    word = word.casefold()
    return 1 if word in ("a", "an") else float(word) if word.isdigit() else NUMBER_WORD_VALUES[word]


def _digits(value: float) -> str:
    return f"{value:.4g}"


def _counts_in_digits(sentence: str) -> str:
    """``sentence`` with the counts English writes in phrases in digits ("two and a quarter":
    2.25, "half a dozen": 6, "a couple of": 2)."""
    sentence = _AND_A_PART.sub(
        lambda m: _digits(
            _count(m.group(1)) + _PARTS[re.sub(r"[\s-]+", " ", m.group(2).casefold())]
        ),
        sentence,
    )
    sentence = _DOZEN.sub(
        lambda m: _digits(
            (6 if m.group("half") else 12 * _count(m.group("count")))
            * (1.5 if m.group("more") else 1)
        ),
        sentence,
    )
    return _HALF_A.sub("0.5 ", _COUPLE.sub("2", sentence))


def numbers_in_digits(sentence: str) -> str:
    """``sentence`` with each number written in words before a word (its unit, maybe) in
    digits: "twelve metres" is "12 metres", as a commitment to a value or a restatement of
    one reads it."""
    sentence = _counts_in_digits(sentence)
    parts, last = [], 0
    for match in _NUMBER_WORD.finditer(sentence):
        if match.start() < last or _PART_OF_NUMBER.search(sentence, 0, match.start()):
            continue  # "one and a half": the half is part of a number not read here
        written = number_in_words(sentence[match.start() :])
        if written is None:
            continue
        rest = len(sentence) - match.start() - len(written)  # the words' length less the digits'
        number = re.match(r"[-\d.\\{}a-z]+", written)
        if number is None or not _UNIT_NEXT.match(written[number.end() :]):
            continue  # no unit after it: "one of them", "the two cases"
        parts += [sentence[last : match.start()], written[: number.end()]]
        last = match.start() + number.end() + rest
    return "".join(parts) + sentence[last:]
