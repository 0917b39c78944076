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
