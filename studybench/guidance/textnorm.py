"""Text normalisation shared by retrieval, the quote check and the leakage rules.

Two forms: :func:`compact` (for "is this text inside that text" checks: case, whitespace,
dollar signs and LaTeX spacing commands do not matter, so a quote copied with other spacing
still matches) and :func:`words` (for BM25: LaTeX commands become their names, so
``\\omega`` matches "omega").
"""

from __future__ import annotations

import re
import unicodedata

_SPACING = re.compile(r"\\(?:[,;:! ]|quad|qquad|thinspace|medspace|thickspace|enspace)|~")
_SIZING = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?![a-zA-Z])")
_FRAC = re.compile(r"\\[dt]frac(?![a-zA-Z])")
_MATH_DELIMS = re.compile(r"\$+|\\\(|\\\)|\\\[|\\\]")
_WHITESPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "−": "-", "–": "-", "—": "-"})
_COMMAND = re.compile(r"\\([a-zA-Z]+)")
_NON_WORD = re.compile(r"[^0-9a-zA-Z]+")


def _base(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = _SPACING.sub(" ", text)
    text = _SIZING.sub("", text)
    text = _FRAC.sub(r"\\frac", text)
    return _MATH_DELIMS.sub(" ", text)


def compact(text: str) -> str:
    """Case-, whitespace- and LaTeX-spacing-insensitive form (for containment checks)."""
    return _WHITESPACE.sub("", _base(text)).casefold()


def words(text: str) -> str:
    """Plain lower-case words: LaTeX commands by name, punctuation and braces dropped."""
    text = _COMMAND.sub(r" \1 ", _base(text))
    return _WHITESPACE.sub(" ", _NON_WORD.sub(" ", text)).strip().casefold()


def quote_in_text(quote: str, text: str, min_chars: int = 8) -> bool:
    """Is ``quote`` (trimmed of surrounding quotation marks and ellipses) in ``text``?

    Deterministic and insensitive to whitespace, case and LaTeX spacing only: any other
    change (a paraphrase, a changed symbol) fails, which is the point of asking for a
    verbatim quote. Quotes shorter than ``min_chars`` after compaction prove nothing.
    """
    trimmed = quote.strip().strip("\"'").strip()
    trimmed = re.sub(r"^(?:\.\.\.|…)|(?:\.\.\.|…)$", "", trimmed).strip()
    needle = compact(trimmed)
    return len(needle) >= min_chars and needle in compact(text)


def sentences(text: str) -> list[str]:
    """Sentences of a guidance text; math spans are kept whole (a period inside ``$...$``
    is not a boundary)."""
    out: list[str] = []
    current: list[str] = []
    in_math = False
    i = 0
    while i < len(text):
        char = text[i]
        current.append(char)
        if char == "$":
            in_math = not in_math
        elif char in ".!?" and not in_math:
            nxt = text[i + 1] if i + 1 < len(text) else " "
            prev = text[i - 1] if i > 0 else " "
            if nxt.isspace() and not (char == "." and prev.isdigit() and nxt == ""):
                out.append("".join(current).strip())
                current = []
        i += 1
    rest = "".join(current).strip()
    if rest:
        out.append(rest)
    return [s for s in out if s]
