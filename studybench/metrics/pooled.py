"""Per-parent pooled estimates: the unit of the paired comparison.

Par@k of one seed is one coin flip per parent (did one of its k attempts solve it), so three
seeds give three coin flips. The unbiased pass@k estimator over every attempt of a parent, all
``n = k x seeds`` chains pooled with ``c`` of them solving, ``1 - C(n-c, k) / C(n, k)``
(:func:`studybench.metrics.passk.unbiased_pass_at_k`, the same one the report shows),
estimates the same Par@k with a lower variance: it averages over every way of choosing k of
the n chains. Sub@k is the same estimator per slot (``c`` = chains answering that slot), summed
over the parent's slots: slots stay clustered in their parent.

Each estimate also carries its sampling variance with the items held fixed (a delete-one-chain
jackknife of the estimator): what "this benchmark" intervals are made of.

Unequal data, one stated rule (:func:`align`), every case named in a warning:

* a verdict missing inside an attempt that exists counts as wrong, as in the paper's figures;
* a seed that only one side has is left out of the test (both sides pool the seeds they share);
* a parent with a missing attempt (a seed that failed for it, fewer than k attempts) on either
  side is dropped from both sides, so every parent compares the same number of chains and the
  two estimates of a parent stay exchangeable under "no change";
* a different k is refused before this (:func:`studybench.metrics.paired.check_comparable`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from studybench.metrics.clustered import METRICS, BoolArray, ClusterTable, FloatArray, Metric
from studybench.metrics.passk import unbiased_pass_at_k

Unit = Literal["pooled", "seed-mean"]
NAMED = 5  # parents named in one warning


@lru_cache(maxsize=64)
def _estimates(n: int, k: int) -> FloatArray:
    """``unbiased_pass_at_k(n, c, k)`` for every ``c`` in ``0..n`` (a lookup table)."""
    return np.array([unbiased_pass_at_k(n, c, k) for c in range(n + 1)], dtype=np.float64)


def pass_at_k_of_counts(counts: npt.NDArray[np.integer], n: int, k: int) -> FloatArray:
    """The unbiased estimator of every count in ``counts`` (``n`` chains each)."""
    return np.asarray(_estimates(n, k)[counts], dtype=np.float64)


@dataclass(frozen=True)
class PooledMetric:
    """One metric of one (benchmark, split) per kept parent, both sides."""

    baseline: FloatArray  # per-parent numerators (Par: 0..1; Sub: expected slots hit)
    candidate: FloatArray
    den: FloatArray  # per-parent denominators (Par: 1; Sub: slots)
    baseline_var: FloatArray  # sampling variance of each numerator, items fixed
    candidate_var: FloatArray


@dataclass(frozen=True)
class AlignedPair:
    """Both sides of one (benchmark, split) reduced to the parents and seeds the test uses."""

    parents: tuple[str, ...]
    dropped: tuple[str, ...]
    seeds: tuple[int, ...]
    unit: Unit
    chains: int  # per parent and side: k x seeds (pooled) or seeds (seed-mean)
    metrics: dict[str, PooledMetric]
    warnings: tuple[str, ...]


def _named(parents: list[str]) -> str:
    shown = ", ".join(repr(p) for p in parents[:NAMED])
    more = f" and {len(parents) - NAMED} more" if len(parents) > NAMED else ""
    return shown + more


def chain_estimates(
    hits: BoolArray, size: FloatArray, k: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(Par numerator, its jackknife variance, Sub numerator, its jackknife variance) per parent
    from ``hits`` (parents x n chains x max slots) and the slot count of each parent.

    The jackknife deletes one chain at a time (``n - 1`` chains must still hold ``k``; with
    fewer the variance is NaN: one seed of k attempts cannot say how much a parent varies)."""
    parents, n, width = hits.shape
    mask = np.arange(width)[None, :] < size[:, None]  # real slots
    solved = (hits | ~mask[:, None, :]).all(axis=2) & (size > 0)[:, None]  # parents x n
    c_par = solved.sum(axis=1)
    c_slot = (hits & mask[:, None, :]).sum(axis=1)  # parents x slots
    par = pass_at_k_of_counts(c_par, n, k)
    sub = (pass_at_k_of_counts(c_slot, n, k) * mask).sum(axis=1)
    if n - 1 < k:
        nan = np.full(parents, math.nan)
        return par, nan, sub, nan
    table = _estimates(n - 1, k)
    par_jack = table[c_par[:, None] - solved]  # parents x n
    slot_left = c_slot[:, None, :] - (hits & mask[:, None, :])  # parents x n x slots
    sub_jack = (table[slot_left] * mask[:, None, :]).sum(axis=2)

    def jackknife(values: FloatArray) -> FloatArray:
        centred = values - values.mean(axis=1, keepdims=True)
        return np.asarray((n - 1) / n * (centred**2).sum(axis=1), dtype=np.float64)

    return par, jackknife(par_jack), sub, jackknife(sub_jack)


def _seed_mean(
    table: ClusterTable, metric: Metric, keep: BoolArray, seeds: list[int]
) -> tuple[FloatArray, FloatArray]:
    """(mean over seeds, its variance over seeds / seeds) of the kept parents' numerators."""
    num = table.arrays(metric)[0][keep][:, seeds]
    s = len(seeds)
    var = num.var(axis=1, ddof=1) / s if s > 1 else np.full(len(num), math.nan)
    return (num.mean(axis=1) if s else np.zeros(len(num))), var


def align(
    baseline: ClusterTable,
    candidate: ClusterTable,
    unit: Unit = "pooled",
    *,
    names: tuple[str, str] = ("baseline", "candidate"),
) -> AlignedPair:
    """The per-parent units of a comparable pair under the unequal-data rule (module doc).

    ``unit="seed-mean"`` is the rule before pooling (the per-seed Par@k averaged over seeds),
    kept for the power figures; tables without chains fall back to it with a warning."""
    where = f"{baseline.benchmark}/{baseline.split or '-'}"
    warnings: list[str] = []
    common = sorted(set(baseline.seeds) & set(candidate.seeds))
    if common:
        jb = [baseline.seeds.index(s) for s in common]
        jc = [candidate.seeds.index(s) for s in common]
        for name, table in zip(names, (baseline, candidate), strict=True):
            alone = sorted(set(table.seeds) - set(common))
            if alone:
                warnings.append(
                    f"{where}: seed(s) {alone} only in {name}: left out of the test "
                    f"(both sides pool seeds {common})"
                )
    else:  # no seed in common: the first seeds of each side, as many as the shorter has
        shared = min(len(baseline.seeds), len(candidate.seeds))
        jb, jc = list(range(shared)), list(range(shared))
        if baseline.seeds or candidate.seeds:
            warnings.append(
                f"{where}: no seed in common ({names[0]}: {list(baseline.seeds)}, {names[1]}: "
                f"{list(candidate.seeds)}): the test pools the first {shared} of each side"
            )
        common = list(baseline.seeds[:shared])
    if unit == "pooled" and (baseline.hits is None or candidate.hits is None):
        warnings.append(f"{where}: no per-attempt chains in the table: per-seed means are tested")
        unit = "seed-mean"
    parents = len(baseline.parents)
    complete: BoolArray = np.full(parents, bool(jb))
    if jb and baseline.present is not None and candidate.present is not None:
        complete = np.asarray(
            baseline.present[:, jb, :].all(axis=(1, 2))
            & candidate.present[:, jc, :].all(axis=(1, 2)),
            dtype=bool,
        )
    dropped = [p for p, ok in zip(baseline.parents, complete, strict=True) if not ok]
    if dropped:
        warnings.append(
            f"{where}: {len(dropped)} parent(s) miss an attempt on one side, dropped from both "
            f"sides of the test: {_named(dropped)}"
        )
    size = baseline.size
    for name, table, js in zip(names, (baseline, candidate), (jb, jc), strict=True):
        if table.present is None:
            continue
        expected = table.present[:, js, :].sum(axis=(1, 2)) * size
        judged = table.turns[:, js].sum(axis=1) if js else np.zeros(parents)
        short = [
            p
            for p, e, j, ok in zip(table.parents, expected, judged, complete, strict=True)
            if ok and j < e
        ]
        if short:
            missing = int((expected - judged)[complete].clip(min=0).sum())
            warnings.append(
                f"{where}: {missing} verdict(s) missing in {name}, counted as wrong: "
                f"{_named(short)}"
            )
    metrics: dict[str, PooledMetric] = {}
    keep = complete
    if unit == "pooled":
        assert baseline.hits is not None and candidate.hits is not None
        k = baseline.k
        sides = []
        for table, js in ((baseline, jb), (candidate, jc)):
            hits = table.hits
            assert hits is not None
            chains = hits[keep][:, js].reshape(int(keep.sum()), len(js) * k, hits.shape[3])
            sides.append(chain_estimates(chains, size[keep], k))
        (bp, bpv, bs, bsv), (cp, cpv, cs, csv) = sides
        metrics["par_at_k"] = PooledMetric(bp, cp, np.ones(int(keep.sum())), bpv, cpv)
        metrics["sub_at_k"] = PooledMetric(bs, cs, size[keep], bsv, csv)
    else:
        for metric in METRICS:
            b, bv = _seed_mean(baseline, metric, keep, jb)
            c, cv = _seed_mean(candidate, metric, keep, jc)
            _, den = baseline.arrays(metric)
            metrics[metric] = PooledMetric(b, c, den[keep], bv, cv)
    return AlignedPair(
        parents=tuple(p for p, ok in zip(baseline.parents, keep, strict=True) if ok),
        dropped=tuple(dropped),
        seeds=tuple(common),
        unit=unit,
        chains=len(jb) * baseline.k if unit == "pooled" else len(jb),
        metrics=metrics,
        warnings=tuple(warnings),
    )
