"""The nine StudyBench answer types and the ``type_sequence`` notation of TUP and ALT."""

from __future__ import annotations

from enum import StrEnum


class AnswerType(StrEnum):
    """How a gold answer is compared. The codes are the release's own."""

    NV = "NV"  # numeric value (possibly with a unit)
    EX = "EX"  # symbolic expression
    EQ = "EQ"  # equation
    IN = "IN"  # interval or union of intervals
    MC = "MC"  # multiple-choice letter(s)
    TF = "TF"  # true / false
    QL = "QL"  # short qualitative phrase
    TUP = "TUP"  # ordered tuple: one box per element, each typed by type_sequence
    ALT = "ALT"  # alternatives: any box matching any gold form is correct

    @property
    def is_composite(self) -> bool:
        """TUP and ALT are typed element-wise by a ``type_sequence``."""
        return self in COMPOSITE_TYPES

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


COMPOSITE_TYPES = frozenset({AnswerType.TUP, AnswerType.ALT})
ATOMIC_TYPES = frozenset(t for t in AnswerType if t not in COMPOSITE_TYPES)

_DESCRIPTIONS = {
    AnswerType.NV: "numeric value",
    AnswerType.EX: "expression",
    AnswerType.EQ: "equation",
    AnswerType.IN: "interval",
    AnswerType.MC: "multiple choice",
    AnswerType.TF: "true/false",
    AnswerType.QL: "qualitative phrase",
    AnswerType.TUP: "ordered tuple",
    AnswerType.ALT: "alternatives",
}


def split_type_sequence(text: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Split the release's comma-separated ``type_sequence`` (``"EX,EX,EQ"``) into tokens.

    Whitespace around tokens is dropped; a list (some tools write one) is accepted as is.
    Tokens are returned raw so that the validator can name an unknown one.
    """
    parts = text.split(",") if isinstance(text, str) else [str(part) for part in text]
    tokens = tuple(part.strip() for part in parts)
    return () if tokens in ((), ("",)) else tokens


def format_type_sequence(types: tuple[AnswerType, ...]) -> str:
    """The release's notation for a parsed sequence."""
    return ",".join(t.value for t in types)
