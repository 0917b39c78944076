"""Learning-curve metrics for sequential benchmarks, exactly as EvaLearn's reference defines them.

Input: sequences of outcomes in the order the model met the problems, each with its task
type and (for O_learned) the ids of its problems. An outcome is 1 (correct), 0 (wrong) or
``None``: a position absent from the results (a judge failure, a lost answer). As in the
reference, a missing position counts as 0, and so does every position up to ``M`` (the
problems per sequence) that a short sequence lacks; positions above ``M`` are ignored.

The reference mixes two averaging schemes, and so do we, on purpose (they are the numbers a
lab puts next to the paper's):

* pooled (every cell weighs the same): ``acc`` and ``post_warmup_acc``;
* type-balanced (the mean within each task type, then the plain mean over types): the
  accuracy ``curve``, its least-squares ``slope`` (accuracy fraction per position),
  ``first_correct`` (M+1 for a sequence never correct), ``longest_streak`` and
  ``learned_offset`` (O_learned, over the types that have data).

O_learned measures learning net of prior knowledge: Z is the set of problem ids solved in
*any* zero-shot result (by id: a problem sits in about two sequences); in each sequence, f is
the first position whose problem is not in Z (no such position: the sequence is skipped),
p the first position at or after f that is correct (M+1 when none), and the offset p - f + 1
(1 = right at the first problem it could not already solve).
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

Outcome = int | None  # 1 correct, 0 wrong, None missing (counts as 0)

DEFAULT_WARMUP = 3


@dataclass(frozen=True)
class SequenceOutcome:
    """One sequence's outcomes in solving order; ``problem_ids`` (same order) for O_learned."""

    type: str
    outcomes: tuple[Outcome, ...]
    problem_ids: tuple[str, ...] = field(default=())


class SequentialMetrics(BaseModel):
    acc: float
    slope: float
    first_correct: float
    longest_streak: float
    post_warmup_acc: float
    warmup: int
    problems: int
    sequences: int
    curve: list[float]
    learned_offset: float | None  # None: no zero-shot results were given
    per_type: dict[str, dict[str, float]]


def parse_outcomes(data: Any) -> dict[str, list[list[Outcome]]]:
    """``{task type: [[0, 1, null, ...], ...]}`` checked completely: a clear ``ValueError``
    naming the type, the sequence and the position of the first bad value (``null`` is a
    missing position; booleans, fractions and other numbers are not outcomes)."""
    if not isinstance(data, dict):
        raise ValueError("expected an object of task type -> list of outcome vectors")
    out: dict[str, list[list[Outcome]]] = {}
    for name, sequences in data.items():
        if not isinstance(sequences, list):
            raise ValueError(
                f"task type {name!r}: expected a list of outcome vectors, "
                f"got {type(sequences).__name__}"
            )
        vectors: list[list[Outcome]] = []
        for index, vector in enumerate(sequences):
            if not isinstance(vector, list):
                raise ValueError(
                    f"task type {name!r}, sequence {index}: expected a list of outcomes "
                    f"(0, 1 or null), got {type(vector).__name__}"
                )
            for position, value in enumerate(vector, start=1):
                if value is not None and (type(value) is not int or value not in (0, 1)):
                    shown = repr(value)[:40]
                    raise ValueError(
                        f"task type {name!r}, sequence {index}, position {position}: "
                        f"outcomes must be 0, 1 or null (missing), got {shown}"
                    )
            vectors.append(list(vector))
        out[str(name)] = vectors
    return out


def parse_sequences(data: Any) -> list[SequenceOutcome]:
    """``{task type: [sequence, ...]}`` where a sequence is an outcome vector or, for
    O_learned, ``{"outcomes": [0, 1, null, ...], "problem_ids": ["q1", "q2", ...]}`` (one id
    per position), checked completely: a clear ``ValueError`` naming the type, the sequence
    and the field or position of the first bad value."""
    if not isinstance(data, dict):
        raise ValueError("expected an object of task type -> list of outcome sequences")
    vectors: dict[str, Any] = {}
    ids: dict[tuple[str, int], tuple[str, ...]] = {}
    for name, sequences in data.items():
        if not isinstance(sequences, list):
            parse_outcomes({name: sequences})  # raises here, naming the type and what it got
        vectors[name] = []
        for index, entry in enumerate(sequences):
            if isinstance(entry, dict):
                where = f"task type {name!r}, sequence {index}"
                unknown = sorted(set(entry) - {"outcomes", "problem_ids"})
                if unknown or "outcomes" not in entry:
                    raise ValueError(
                        f"{where}: expected the fields outcomes and problem_ids, got "
                        + ", ".join(sorted(map(str, entry)))
                    )
                given = entry.get("problem_ids", [])
                if not isinstance(given, list) or not all(
                    isinstance(q, str | int) and not isinstance(q, bool) and str(q) for q in given
                ):
                    raise ValueError(f"{where}: problem_ids must be a list of ids (text or int)")
                if (
                    "problem_ids" in entry
                    and isinstance(entry["outcomes"], list)
                    and len(given) != len(entry["outcomes"])
                ):
                    raise ValueError(
                        f"{where}: {len(given)} problem_ids for "
                        f"{len(entry['outcomes'])} outcomes (one id per position)"
                    )
                ids[(str(name), index)] = tuple(str(q) for q in given)
                entry = entry["outcomes"]
            vectors[name].append(entry)
    parsed = parse_outcomes(vectors)
    return [
        SequenceOutcome(type=name, outcomes=tuple(v), problem_ids=ids.get((name, i), ()))
        for name, vs in parsed.items()
        for i, v in enumerate(vs)
    ]


def from_mapping(outcomes: Mapping[str, Sequence[Sequence[Outcome]]]) -> list[SequenceOutcome]:
    return [
        SequenceOutcome(type=name, outcomes=tuple(vector))
        for name, vectors in outcomes.items()
        for vector in vectors
    ]


def padded(outcomes: Sequence[Outcome], problems: int) -> list[int]:
    """The 0/1 vector of positions 1..M: missing and absent positions are 0."""
    values = [1 if v else 0 for v in outcomes[:problems]]
    return values + [0] * (problems - len(values))


def slope(values: Sequence[float]) -> float:
    """Ordinary least-squares slope (with intercept) of ``values`` against 1..M."""
    if len(values) < 2:
        return 0.0
    return statistics.linear_regression(range(1, len(values) + 1), values).slope


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


def post_warmup_acc(vectors: Sequence[Sequence[int]], warmup: int, problems: int) -> float:
    """Pooled accuracy on positions K+1..M; 0.0 when K >= M (the reference's guard)."""
    if warmup >= problems or not vectors:
        return 0.0
    return sum(sum(v[warmup:]) for v in vectors) / (len(vectors) * (problems - warmup))


def learned_offset(sequence: SequenceOutcome, solved: Collection[str], problems: int) -> int | None:
    """O_learned of one sequence: p - f + 1 (see the module docstring); None when every
    problem of the sequence was solved zero-shot (the sequence is skipped)."""
    if len(sequence.problem_ids) < min(len(sequence.outcomes), problems):
        raise ValueError(
            f"O_learned needs a problem id for every position; a {sequence.type!r} sequence "
            f"has {len(sequence.problem_ids)} ids for {len(sequence.outcomes)} outcomes"
        )
    ids = sequence.problem_ids[:problems]
    first = next((i for i, q in enumerate(ids, start=1) if q not in solved), None)
    if first is None:
        return None
    values = padded(sequence.outcomes, problems)
    hit = next((i for i in range(first, problems + 1) if values[i - 1]), problems + 1)
    return hit - first + 1


def solved_ids(sequences: Iterable[SequenceOutcome]) -> set[str]:
    """Z: the problem ids correct in any of ``sequences`` (a zero-shot run)."""
    return {
        q
        for s in sequences
        for q, v in zip(s.problem_ids, s.outcomes, strict=False)
        if v  # None and 0 are not solved
    }


def _curve(vectors: Sequence[Sequence[int]], problems: int) -> list[float]:
    return [statistics.fmean(v[i] for v in vectors) for i in range(problems)]


def sequential_metrics(
    outcomes: Mapping[str, Sequence[Sequence[Outcome]]] | Iterable[SequenceOutcome],
    *,
    warmup: int = DEFAULT_WARMUP,
    problems: int | None = None,
    zero_shot_solved: Collection[str] | None = None,
) -> SequentialMetrics:
    """Every EvaLearn metric, overall and per type.

    ``outcomes`` is ``{task type: [outcome vector, ...]}`` or a list of
    :class:`SequenceOutcome`; ``problems`` is M (default: the longest vector); ``warmup`` is
    K (0 means none: the reference silently turns 0 into 3, we honour it);
    ``zero_shot_solved`` is Z (see :func:`solved_ids`): given, O_learned is computed."""
    given = from_mapping(outcomes) if isinstance(outcomes, Mapping) else list(outcomes)
    sequences = [s for s in given if s.outcomes]
    if not sequences:
        raise ValueError("no outcome sequences")
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, got {warmup}")
    for s in sequences:
        bad = [v for v in s.outcomes if v not in (0, 1, None) or isinstance(v, bool)]
        if bad:
            raise ValueError(
                f"task type {s.type!r}: outcomes must be 0, 1 or None (missing), got {bad[0]!r}"
            )
    m = problems if problems is not None else max(len(s.outcomes) for s in sequences)
    if m < 1:
        raise ValueError(f"problems per sequence must be >= 1, got {m}")
    by_type: dict[str, list[SequenceOutcome]] = {}
    for s in sequences:
        by_type.setdefault(s.type, []).append(s)

    per_type: dict[str, dict[str, float]] = {}
    curves: list[list[float]] = []
    offsets_of: dict[str, float] = {}
    for name, members in by_type.items():
        vectors = [padded(s.outcomes, m) for s in members]
        curve = _curve(vectors, m)
        curves.append(curve)
        row: dict[str, float] = {
            "sequences": len(members),
            "acc": sum(map(sum, vectors)) / (len(vectors) * m),
            "slope": slope(curve),
            "first_correct": statistics.fmean(first_correct(v) for v in vectors),
            "longest_streak": statistics.fmean(longest_streak(v) for v in vectors),
            "post_warmup_acc": post_warmup_acc(vectors, warmup, m),
        }
        if zero_shot_solved is not None:
            found = [
                o for s in members if (o := learned_offset(s, zero_shot_solved, m)) is not None
            ]
            row["learned_offset"] = statistics.fmean(found) if found else 0.0
            row["learned_sequences"] = len(found)
            if found:
                offsets_of[name] = row["learned_offset"]
        per_type[name] = row

    all_vectors = [padded(s.outcomes, m) for s in sequences]
    curve = [statistics.fmean(c[i] for c in curves) for i in range(m)]
    learned: float | None = None
    if zero_shot_solved is not None:
        learned = statistics.fmean(offsets_of.values()) if offsets_of else 0.0
    return SequentialMetrics(
        acc=sum(map(sum, all_vectors)) / (len(all_vectors) * m),
        slope=slope(curve),
        first_correct=statistics.fmean(r["first_correct"] for r in per_type.values()),
        longest_streak=statistics.fmean(r["longest_streak"] for r in per_type.values()),
        post_warmup_acc=post_warmup_acc(all_vectors, warmup, m),
        warmup=warmup,
        problems=m,
        sequences=len(sequences),
        curve=curve,
        learned_offset=learned,
        per_type=dict(sorted(per_type.items())),
    )
