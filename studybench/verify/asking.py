"""Where a question asks for its answer: its asking sentences and the part that asks.

Below :mod:`studybench.verify.question` and :mod:`studybench.verify.relations`, which both
read them (a remark's point, "(at B)", must be one the asking part names)."""

from __future__ import annotations

import re
from functools import lru_cache

# Questions are read up to this many characters (a longer one is hostile or broken)
MAX_QUESTION_CHARS = 20_000
SENTENCE_END = re.compile(r"[.?!](?=\s|$)")
_PARAGRAPH = re.compile(r"\n\s*\n")
# Where a question asks for its answer: a sentence with a question mark or an asking verb.
# Narrower than _ASKING: "It starts in state $A$" states data, "state the answer" is rare in
# a question's asking sentence and common in its setup.
ASKS = re.compile(
    r"\?|\b(?:find|what|which|how|calculate|compute|determine|estimate|evaluate|obtain"
    r"|derive|express|give|show|write)\b",
    re.IGNORECASE,
)


def _sentences(text: str) -> list[str]:
    pieces, start = [], 0
    for end in SENTENCE_END.finditer(text):
        pieces.append(text[start : end.end()])
        start = end.end()
    pieces.append(text[start:])
    return [p for p in pieces if p.strip()]


@lru_cache(maxsize=1024)
def asking_sentences(question: str) -> tuple[str, ...]:
    """The sentences of ``question`` that ask for the answer (a question mark, an asking verb
    such as "find", "what", "which", "determine")."""
    return tuple(s for s in _sentences(question[:MAX_QUESTION_CHARS]) if ASKS.search(s))


@lru_cache(maxsize=1024)
def asking_part(question: str) -> str:
    """The part of ``question`` that asks: of a question in paragraphs (a setup, then the
    part asked), the paragraphs holding an asking sentence (``During step $B\\to C$ the
    temperature changes continuously. What range of temperatures ...?``); of one paragraph,
    its asking sentences."""
    paragraphs = [p for p in _PARAGRAPH.split(question[:MAX_QUESTION_CHARS]) if p.strip()]
    if len(paragraphs) > 1:
        return "\n\n".join(p for p in paragraphs if asking_sentences(p))
    return " ".join(s.strip() for s in asking_sentences(question))
