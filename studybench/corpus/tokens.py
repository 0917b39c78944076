"""Tokenisation shared by redaction and audit, with character spans kept.

Tokens are whitespace-separated words, lower-cased, with curly quotes straightened and
leading/trailing characters that are neither word characters, ``$`` nor ``\\`` stripped
(the reference redaction's normalisation, so a test field and its copy in a textbook meet
on the same tokens whatever the surrounding punctuation). Spans point into the original
text so that redaction replaces exactly the matched characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"\S+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_EDGE = re.compile(r"^[^\w$\\]+|[^\w$\\]+$")


@dataclass(frozen=True, slots=True)
class Tokens:
    """Normalised tokens of a text and the character span of each."""

    words: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.words)


def normalise_token(raw: str) -> str:
    return _EDGE.sub("", raw.translate(_QUOTES).lower())


_SPLIT_LEFT = re.compile(r"\d\.?$")
_SPLIT_RIGHT = re.compile(r"^\.?\d")


def _raw_words(text: str) -> list[tuple[str, int, int]]:
    """Whitespace words, with numbers that OCR split at the decimal point joined again
    (``2. 50`` and ``8 .00`` read as ``2.50`` and ``8.00``)."""
    raw: list[tuple[str, int, int]] = []
    for match in _WORD.finditer(text):
        word, start, end = match.group(), match.start(), match.end()
        if raw:
            prev, prev_start, _ = raw[-1]
            joined = (prev.endswith(".") and prev[:-1][-1:].isdigit() and word[:1].isdigit()) or (
                prev[-1:].isdigit() and word.startswith(".") and word[1:2].isdigit()
            )
            if joined and _SPLIT_LEFT.search(prev) and _SPLIT_RIGHT.match(word):
                raw[-1] = (prev + word, prev_start, end)
                continue
        raw.append((word, start, end))
    return raw


def tokenize(text: str) -> Tokens:
    words: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for raw, start, end in _raw_words(text):
        word = normalise_token(raw)
        if word:
            words.append(word)
            starts.append(start)
            ends.append(end)
    return Tokens(tuple(words), tuple(starts), tuple(ends))


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1
