"""Checking a reply that vLLM's structured output constrained, read back as text.

vLLM's grammar bounds the free text of a format (a rationale, a justification) by the
characters it let through, but the tiny model's byte-level tokens can stop in the middle of a
UTF-8 character: read back, those bytes are U+FFFD replacement characters, so the free text
can look longer than its bound. What the constraint guarantees, and the stage's parser needs,
is the structure: the fixed lines in their order, the allowed values, one line of free text.
"""

from __future__ import annotations

import re


def conforms(regex: str, reply: str) -> bool:
    """``reply`` has the structure of the format ``regex`` (the lengths of its free text
    aside: each bounded repetition ``{0,N}`` of the format reads as ``*``)."""
    return re.fullmatch(re.sub(r"\{0,\d+\}", "*", regex), reply) is not None
