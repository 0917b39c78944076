"""The question a comparison answers, for the rules deep in the judgers that read it (a
constant's letter in :mod:`symbolic`, a temperature change in :mod:`numeric`). A context
variable, set once per comparison by :func:`asked_in`, so the judgers' signatures need not
carry it; in a module of its own, importing nothing, so that every layer may read it
without an import cycle."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_QUESTION: ContextVar[str | None] = ContextVar("studybench_verify_question", default=None)


@contextlib.contextmanager
def asked_in(question: str | None) -> Iterator[None]:
    """Compare, within the block, as answers to ``question``."""
    token = _QUESTION.set(question.casefold() if question else None)
    try:
        yield
    finally:
        _QUESTION.reset(token)


def asked_question() -> str | None:
    """The question of the enclosing :func:`asked_in` block, case-folded, or None."""
    return _QUESTION.get()
