"""Learning-curve metrics for sequential benchmarks (EvaLearn-style).

Input: for each task type, a list of sequences, each a vector of 0/1 outcomes in the order
the model met the problems. Following EvaLearn, the per-position accuracy curve, its slope,
the position of the first correct answer and the longest run of correct answers are averaged
within each task type first and then across types (so large types do not dominate); overall
accuracy and post-warm-up accuracy are pooled over all sequences.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from pydantic import BaseModel


class SequentialMetrics(BaseModel):
    acc: float
    slope: float
    first_correct: float
    longest_streak: float
    post_warmup_acc: float | None
    warmup: int
    curve: list[float]
    per_type: dict[str, dict[str, float]]


def slope(values: Sequence[float]) -> float:
    """Least-squares slope of ``values`` against positions 1..M."""
    m = len(values)
    if m < 2:
        return 0.0
    xs = range(1, m + 1)
    x_mean = (m + 1) / 2
    y_mean = statistics.fmean(values)
    num = sum((x - x_mean) * (y - y_mean) for x, y in zip(xs, values, strict=True))
    den = sum((x - x_mean) ** 2 for x in xs)
    return num / den


def first_correct(outcomes: Sequence[int]) -> int:
    """1-based position of the first correct answer; M+1 when never correct."""
    for position, outcome in enumerate(outcomes, start=1):
        if outcome:
            return position
    return len(outcomes) + 1


def longest_streak(outcomes: Sequence[int]) -> int:
    best = current = 0
    for outcome in outcomes:
        current = current + 1 if outcome else 0
        best = max(best, current)
    return best


def _curve(sequences: Sequence[Sequence[int]]) -> list[float]:
    length = max(len(s) for s in sequences)
    curve = []
    for position in range(length):
        column = [s[position] for s in sequences if len(s) > position]
        curve.append(statistics.fmean(column))
    return curve


def sequential_metrics(
    outcomes: Mapping[str, Sequence[Sequence[int]]], *, warmup: int = 0
) -> SequentialMetrics:
    """Metrics of ``{task type: [outcome vector, ...]}``."""
    types = {t: [list(map(int, s)) for s in seqs if len(s)] for t, seqs in outcomes.items()}
    types = {t: seqs for t, seqs in types.items() if seqs}
    if not types:
        raise ValueError("no outcome sequences")
    for name, seqs in types.items():
        for seq in seqs:
            if any(v not in (0, 1) for v in seq):
                raise ValueError(f"task type {name!r}: outcomes must be 0 or 1, got {seq}")
    per_type: dict[str, dict[str, float]] = {}
    curves: list[list[float]] = []
    for name, seqs in sorted(types.items()):
        curve = _curve(seqs)
        curves.append(curve)
        per_type[name] = {
            "sequences": len(seqs),
            "acc": statistics.fmean(v for s in seqs for v in s),
            "slope": slope(curve),
            "first_correct": statistics.fmean(first_correct(s) for s in seqs),
            "longest_streak": statistics.fmean(longest_streak(s) for s in seqs),
        }
    length = max(len(c) for c in curves)
    mean_curve = [statistics.fmean(c[i] for c in curves if len(c) > i) for i in range(length)]
    pooled = [v for seqs in types.values() for s in seqs for v in s]
    after = [v for seqs in types.values() for s in seqs for v in s[warmup:]]
    return SequentialMetrics(
        acc=statistics.fmean(pooled),
        slope=statistics.fmean(per_type[t]["slope"] for t in per_type),
        first_correct=statistics.fmean(per_type[t]["first_correct"] for t in per_type),
        longest_streak=statistics.fmean(per_type[t]["longest_streak"] for t in per_type),
        post_warmup_acc=statistics.fmean(after) if after else None,
        warmup=warmup,
        curve=mean_curve,
        per_type=per_type,
    )


def learning_offset(reference: Sequence[int], outcomes: Sequence[int]) -> int | None:
    """How many positions after the reference run's first failure ``outcomes`` is first
    correct (EvaLearn's learning speed against a zero-shot run of the same sequence).

    ``p`` is the 1-based position of the first 0 in ``reference``; the offset is ``q - p``
    for the first correct position ``q > p`` of ``outcomes``, ``M + 1 - p`` when there is
    none. None when the reference never failed (nothing to learn from)."""
    if len(reference) != len(outcomes):
        raise ValueError(
            f"reference and outcomes differ in length ({len(reference)} vs {len(outcomes)})"
        )
    failed = next((i for i, v in enumerate(reference, start=1) if not v), None)
    if failed is None:
        return None
    later = next((i for i, v in enumerate(outcomes, start=1) if i > failed and v), None)
    return (later if later is not None else len(outcomes) + 1) - failed


def mean_learning_offset(
    reference: Mapping[str, Sequence[Sequence[int]]],
    outcomes: Mapping[str, Sequence[Sequence[int]]],
) -> tuple[float | None, dict[str, float]]:
    """Learning offset averaged per task type, then across types (as the other sequence
    metrics); sequences are paired by position in each type's list. Types whose reference
    never failed have no offset."""
    per_type: dict[str, float] = {}
    for name in sorted(outcomes):
        refs = reference.get(name, [])
        if len(refs) != len(outcomes[name]):
            raise ValueError(
                f"task type {name!r}: {len(refs)} reference sequences, {len(outcomes[name])} "
                "evaluated"
            )
        values = [
            v
            for ref, seq in zip(refs, outcomes[name], strict=True)
            if (v := learning_offset(ref, seq)) is not None
        ]
        if values:
            per_type[name] = statistics.fmean(values)
    overall = statistics.fmean(per_type.values()) if per_type else None
    return overall, per_type
