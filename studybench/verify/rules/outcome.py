"""One verdict of a judger (:class:`Outcome`) and the reasons every judger shares.

A judger returns ``Outcome(correct, reason)``: the reason names the rule that decided
(``numeric``, ``symbolic``, ...) or why it failed (``wrong_value``, ``unparseable:...``), so
a stored verdict says *why*. This module imports nothing of the verifier so that every judger
module can build on it without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from studybench.verify.parsing import UnparseableError


@dataclass(frozen=True, slots=True)
class Outcome:
    correct: bool
    reason: str


def accept(reason: str) -> Outcome:
    return Outcome(True, reason)


def reject(reason: str) -> Outcome:
    return Outcome(False, reason)


def side_failure(exc: UnparseableError, gold_sides: set[int]) -> Outcome:
    prefix = "gold_unparseable" if exc.side in gold_sides else "unparseable"
    return reject(f"{prefix}:{exc.reason}")
