"""NV: a number with an optional unit (the rules live in :mod:`studybench.verify.numeric`;
this module binds them to the judgers' :class:`Outcome` and to the EX judger, which decides a
side written as an expression)."""

from __future__ import annotations

from typing import Any

from studybench.verify.numeric import judge_nv_text, nv_single
from studybench.verify.question import asked_bound
from studybench.verify.rules.expression import judge_ex_form
from studybench.verify.rules.matching import match_all
from studybench.verify.rules.outcome import Outcome, accept, reject


def judge_nv(
    pred: str,
    gold: str,
    tolerance: float,
    requested: tuple[Any, ...] = (),
    question: str | None = None,
) -> Outcome:
    """A number with an optional unit; ``requested``: the units the question asks for;
    ``question``: its text, which says whether a bound may state the value ("the minimum
    speed")."""

    def expression(side: str, form: str) -> tuple[bool, str]:
        outcome = judge_ex_form(side, form, tolerance)
        return outcome.correct, outcome.reason

    outcome: Outcome = judge_nv_text(
        pred,
        gold,
        tolerance,
        requested,
        match_all,
        accept,
        reject,
        expression,
        asked_bound(question),
    )
    return outcome


def judge_nv_form(
    pred: str, gold: str, tolerance: float, requested: tuple[Any, ...] = ()
) -> Outcome:
    correct, reason = nv_single(pred, gold, tolerance, requested)
    return Outcome(correct, reason)
