"""Matching a list of predicted values to a list of gold values, one to one.

Shared by the judgers that compare lists (NV with several golds, IN with a union of
intervals) and by the dispatcher: it sits below all of them, so no judger imports the
dispatcher.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from studybench.verify.rules.outcome import Outcome, accept, reject


def assignment(preds: list[Any], golds: list[Any], match: Callable[[Any, Any], bool]) -> bool:
    """A one-to-one matching of predictions to golds (order-insensitive): a perfect matching
    of the bipartite graph of matching pairs. Within tolerance one prediction may match two
    golds; a first-fit pairing could then use up the gold another prediction needed and
    reject a right answer.

    Augmenting paths (Kuhn's algorithm) in plain Python: answer lists have a handful of
    values, and scipy's matching cost a 0.2-0.8 s import in every worker that met a list."""
    if len(preds) != len(golds):
        return False
    table = [[match(p, g) for g in golds] for p in preds]
    if not all(any(row) for row in table):  # a prediction that matches no gold
        return False
    owner: list[int | None] = [None] * len(golds)  # the prediction each gold is given to

    def place(pred: int, seen: set[int]) -> bool:
        for gold, fits in enumerate(table[pred]):
            if fits and gold not in seen:
                seen.add(gold)
                holder = owner[gold]
                if holder is None or place(holder, seen):
                    owner[gold] = pred
                    return True
        return False

    return all(place(pred, set()) for pred in range(len(preds)))


def match_all(preds: list[str], golds: list[str], match: Callable[[str, str], Outcome]) -> Outcome:
    failures: list[str] = []  # the reasons of the pairs that do not match

    def ok(p: str, g: str) -> bool:
        outcome = match(p, g)
        if not outcome.correct:
            failures.append(outcome.reason)
        return outcome.correct

    if assignment(preds, golds, ok):
        return accept("matched_all")
    return reject(failures[0] if failures else "wrong_value")
