"""Per-parent tables: the unit every interval, paired comparison and power figure works on.

Why parents: on a benchmark of ~90-100 parents the noise that dominates a score is *which
problems* a model happens to solve, and the sub-problems, seeds and attempts of one parent are
not independent of each other. So a parent is one cluster: it carries all of its slots, seeds
and attempts, and every resampling below draws whole parents (Miller 2024, "Adding Error Bars
to Evals").

Both headline scores are a ratio of per-parent sums, so one shape serves them:

* ``par_at_k``: numerator ``par[p, s]`` (1 when some attempt of seed ``s`` solved every slot of
  parent ``p``), denominator 1 per parent.
* ``sub_at_k``: numerator ``sub[p, s]`` (slots of ``p`` that some attempt of ``s`` answered
  correctly), denominator the parent's slot count.

The score averaged over seeds is ``sum_p mean_s num[p, s] / sum_p den[p]``, which equals the
mean over seeds of the per-seed scores of :func:`studybench.metrics.passk.score`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from studybench.errors import DataError
from studybench.metrics.items import ItemRow
from studybench.metrics.passk import VerdictRow

Metric = Literal["par_at_k", "sub_at_k"]
METRICS: tuple[Metric, ...] = ("par_at_k", "sub_at_k")
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class ClusterTable:
    """One (benchmark, split) as per-parent arrays (rows: parents, columns: seeds)."""

    benchmark: str
    split: str
    k: int
    parents: tuple[str, ...]
    slots: tuple[tuple[str, ...], ...]
    seeds: tuple[int, ...]
    par: FloatArray  # parents x seeds, 0/1
    sub: FloatArray  # parents x seeds, slots hit
    truncated: FloatArray  # parents x seeds, truncated turns among the first k attempts
    turns: FloatArray  # parents x seeds, judged turns among the first k attempts
    # Every chain (attempt) kept, for the pooled estimates of studybench.metrics.pooled:
    # hits[p, s, j, m] is slot m of the j-th of the first k attempts of seed s (False where
    # the verdict is missing or the slot does not exist); present[p, s, j] says that attempt
    # exists. None for tables built without chains (the pooled unit is then unavailable).
    hits: BoolArray | None = None  # parents x seeds x k x max slots
    present: BoolArray | None = None  # parents x seeds x k

    @property
    def size(self) -> FloatArray:
        """Slots per parent (the ``sub_at_k`` denominator)."""
        return np.array([len(s) for s in self.slots], dtype=np.float64)

    def arrays(self, metric: Metric) -> tuple[FloatArray, FloatArray]:
        """(numerator parents x seeds, denominator per parent) of ``metric``."""
        if metric == "par_at_k":
            return self.par, np.ones(len(self.parents))
        if metric == "sub_at_k":
            return self.sub, self.size
        raise ValueError(f"unknown metric {metric!r}; expected one of {METRICS}")

    def per_parent(self, metric: Metric) -> tuple[FloatArray, FloatArray]:
        """(numerator averaged over seeds, denominator) per parent."""
        num, den = self.arrays(metric)
        return num.mean(axis=1), den

    def value(self, metric: Metric) -> float:
        num, den = self.per_parent(metric)
        return float(num.sum() / den.sum()) if den.sum() else 0.0

    def per_seed(self, metric: Metric) -> FloatArray:
        num, den = self.arrays(metric)
        return num.sum(axis=0) / den.sum() if den.sum() else np.zeros(len(self.seeds))

    @property
    def single_slot(self) -> bool:
        """Every parent has one slot: Par@k and Sub@k are the same number."""
        return all(len(s) == 1 for s in self.slots)


def _key(row: VerdictRow) -> tuple[str, str]:
    if isinstance(row, ItemRow):
        return row.benchmark, row.split
    return "studybench", ""


def cluster_tables(
    rows: Iterable[VerdictRow],
    *,
    k: int | None = None,
    slots_of: Mapping[str, Sequence[str]] | None = None,
) -> dict[tuple[str, str], ClusterTable]:
    """Per-parent tables of every (benchmark, split) in ``rows``.

    Args:
        rows: item rows (plain verdict rows count as benchmark ``studybench``, split ``""``).
        k: attempts per seed that count (attempts ``0..k-1``); default: the largest attempt
            count of any (parent, seed) of that split.
        slots_of: every parent's slots, so a slot without any verdict counts as wrong;
            default: the slots seen in the rows.
    """
    grouped: dict[tuple[str, str], list[VerdictRow]] = defaultdict(list)
    for row in rows:
        grouped[_key(row)].append(row)
    return {key: _table(key, group, k, slots_of) for key, group in sorted(grouped.items())}


def _table(
    key: tuple[str, str],
    rows: list[VerdictRow],
    k: int | None,
    slots_of: Mapping[str, Sequence[str]] | None,
) -> ClusterTable:
    attempts: dict[tuple[str, int], set[int]] = defaultdict(set)
    seen: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        attempts[(row.parent, row.seed)].add(row.attempt)
        seen[row.parent].add(row.slot)
    if k is None:
        k = max((len(a) for a in attempts.values()), default=0)
    if k < 1:
        raise DataError(f"{key[0]}/{key[1] or '-'}: k must be at least 1, got {k}")
    table = {p: tuple(s) for p, s in slots_of.items()} if slots_of else {}
    for parent, seen_slots in seen.items():
        if parent not in table:
            table[parent] = tuple(sorted(seen_slots))
    parents = tuple(sorted(table))
    seeds = tuple(sorted({row.seed for row in rows}))
    p_index = {p: i for i, p in enumerate(parents)}
    s_index = {s: j for j, s in enumerate(seeds)}
    # correct[(p, s, a)][slot]; first k attempts only, in attempt order
    order: dict[tuple[str, int], list[int]] = {ps: sorted(a)[:k] for ps, a in attempts.items()}
    kept = {(ps, a) for ps, chosen in order.items() for a in chosen}
    hits: dict[tuple[str, int, int], dict[str, bool]] = defaultdict(dict)
    truncated = np.zeros((len(parents), len(seeds)))
    turns = np.zeros((len(parents), len(seeds)))
    width = max((len(table[p]) for p in parents), default=0) or 1
    chains = np.zeros((len(parents), len(seeds), k, width), dtype=bool)
    present = np.zeros((len(parents), len(seeds), k), dtype=bool)
    position = {(ps, a): j for ps, chosen in order.items() for j, a in enumerate(chosen)}
    slot_index = {p: {s: m for m, s in enumerate(table[p])} for p in parents}
    for (parent, seed), chosen in order.items():
        present[p_index[parent], s_index[seed], : len(chosen)] = True
    for row in rows:
        if ((row.parent, row.seed), row.attempt) not in kept:
            continue
        if row.slot not in table[row.parent]:
            raise DataError(
                f"{key[0]}/{key[1] or '-'}: parent {row.parent!r}: slot {row.slot!r} is not "
                f"one of its slots {list(table[row.parent])}"
            )
        hits[(row.parent, row.seed, row.attempt)][row.slot] = row.correct
        i, j = p_index[row.parent], s_index[row.seed]
        chains[i, j, position[((row.parent, row.seed), row.attempt)]][
            slot_index[row.parent][row.slot]
        ] = row.correct
        turns[i, j] += 1
        truncated[i, j] += bool(getattr(row, "truncated", False))
    par = np.zeros((len(parents), len(seeds)))
    sub = np.zeros((len(parents), len(seeds)))
    for parent in parents:
        slots = table[parent]
        for seed in seeds:
            chosen = order.get((parent, seed), [])
            verdicts = [hits.get((parent, seed, a), {}) for a in chosen]
            i, j = p_index[parent], s_index[seed]
            par[i, j] = float(
                bool(slots) and any(all(v.get(s, False) for s in slots) for v in verdicts)
            )
            sub[i, j] = float(sum(any(v.get(s, False) for v in verdicts) for s in slots))
    return ClusterTable(
        benchmark=key[0],
        split=key[1],
        k=k,
        parents=parents,
        slots=tuple(table[p] for p in parents),
        seeds=seeds,
        par=par,
        sub=sub,
        truncated=truncated,
        turns=turns,
        hits=chains,
        present=present,
    )
