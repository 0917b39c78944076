"""The question a comparison answers, for the rules deep in the judgers that read it (a
constant's letter in :mod:`symbolic`, a temperature change in :mod:`numeric`). A context
variable, set once per comparison by :func:`asked_in`, so the judgers' signatures need not
carry it; in a module of its own, importing nothing, so that every layer may read it
without an import cycle."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from functools import lru_cache

_QUESTION: ContextVar[str | None] = ContextVar("studybench_verify_question", default=None)


@contextlib.contextmanager
def asked_in(question: str | None) -> Iterator[None]:
    """Compare, within the block, as answers to ``question``."""
    token = _QUESTION.set(question or None)
    try:
        yield
    finally:
        _QUESTION.reset(token)


def asked_question(folded: bool = True) -> str | None:
    """The question of the enclosing :func:`asked_in` block, case-folded (or as written: the
    units of its data, N/m and n/m, differ), or None."""
    question = _QUESTION.get()
    return _casefolded(question) if folded and question else question


@lru_cache(maxsize=64)
def _casefolded(question: str) -> str:
    return question.casefold()
