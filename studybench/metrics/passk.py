"""Par@k and Sub@k per seed, mean ± std over seeds, and the unbiased pass@k estimator
(format doc, section 6).

* An attempt solves a parent when the parent has at least one slot and every slot of that
  attempt is correct. A missing verdict counts as wrong.
* Par@k of a seed: the fraction of parents that some attempt of that seed solves.
* Sub@k of a seed: the fraction of slots that some attempt of that seed answers correctly.
* Over seeds: the mean, the sample standard deviation (ddof=1, the paper's error bar; 0 for a
  single seed) and the population standard deviation (ddof=0).
* pass@k (unbiased): per item (parent or slot) with n pooled attempts of which c are correct,
  1 - C(n-c, k) / C(n, k), averaged over items, with its standard error (sample std / sqrt N).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, Field


class VerdictRow(BaseModel):
    """One (slot, seed, attempt) outcome: the input of every StudyBench score."""

    parent: str
    slot: str
    seed: int
    attempt: int
    correct: bool


class SeedScore(BaseModel):
    seed: int
    par: float
    sub: float
    attempts: int


class PassAtK(BaseModel):
    k: int
    seeds: list[int]
    parents: int
    slots: int
    per_seed: list[SeedScore]
    par_mean: float
    par_std: float
    par_pstd: float
    sub_mean: float
    sub_std: float
    sub_pstd: float
    par_unbiased: float | None = None
    par_unbiased_se: float | None = None
    sub_unbiased: float | None = None
    sub_unbiased_se: float | None = None
    breakdowns: dict[str, dict[str, dict[str, float]]] = Field(default_factory=dict)


def headline(split: str, scores: PassAtK) -> dict[str, float]:
    """The headline metric keys of one judged split (``<split>/par_at_<k>_mean`` ...), the
    same in MLflow, regression checks and the benchmark registry."""
    k = scores.k
    return {
        f"{split}/par_at_{k}_mean": scores.par_mean,
        f"{split}/par_at_{k}_std": scores.par_std,
        f"{split}/sub_at_{k}_mean": scores.sub_mean,
        f"{split}/sub_at_{k}_std": scores.sub_std,
    }


def _std(values: Sequence[float], ddof: int) -> float:
    if len(values) <= ddof:
        return 0.0
    return statistics.stdev(values) if ddof == 1 else statistics.pstdev(values)


def unbiased_pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k): the chance that k of n samples contain a correct one."""
    if n < k:
        raise ValueError(f"pass@{k} needs at least {k} samples, got {n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values) if values else 0.0
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, se


def score(
    rows: Iterable[VerdictRow],
    slots_of: Mapping[str, Sequence[str]] | None = None,
    *,
    k: int | None = None,
    groups: Mapping[str, Mapping[str, str]] | None = None,
) -> PassAtK:
    """Scores of a verdict table.

    Args:
        rows: one row per (slot, seed, attempt) that has a verdict.
        slots_of: every parent's slots. Default: the slots seen in ``rows`` (then a slot that
            has no verdict at all cannot be counted as wrong).
        k: attempts per seed; default: the largest attempt count of any (parent, seed).
        groups: breakdowns, ``{name: {parent: label}}`` (e.g. source, problem type); a
            ``slot:``-prefixed name maps slots instead (e.g. answer type).
    """
    rows = list(rows)
    correct: dict[tuple[str, int, int], dict[str, bool]] = defaultdict(dict)
    seen_slots: dict[str, set[str]] = defaultdict(set)
    attempts_of: dict[tuple[str, int], set[int]] = defaultdict(set)
    for row in rows:
        correct[(row.parent, row.seed, row.attempt)][row.slot] = row.correct
        seen_slots[row.parent].add(row.slot)
        attempts_of[(row.parent, row.seed)].add(row.attempt)
    slot_table = {
        p: list(s) for p, s in (slots_of or {p: sorted(s) for p, s in seen_slots.items()}).items()
    }
    seeds = sorted({row.seed for row in rows})
    if k is None:
        k = max((len(a) for a in attempts_of.values()), default=0)
    parents = sorted(slot_table)

    def solved(parent: str, seed: int, attempt: int) -> bool:
        slots = slot_table[parent]
        verdicts = correct.get((parent, seed, attempt), {})
        return bool(slots) and all(verdicts.get(s, False) for s in slots)

    def slot_hit(parent: str, slot: str, seed: int, attempt: int) -> bool:
        return correct.get((parent, seed, attempt), {}).get(slot, False)

    per_seed: list[SeedScore] = []
    for seed in seeds:
        attempts = sorted({a for p in parents for a in attempts_of.get((p, seed), set())})
        par_hits = [any(solved(p, seed, a) for a in attempts) for p in parents]
        sub_hits = [
            any(slot_hit(p, s, seed, a) for a in attempts) for p in parents for s in slot_table[p]
        ]
        per_seed.append(
            SeedScore(
                seed=seed,
                par=sum(par_hits) / len(par_hits) if par_hits else 0.0,
                sub=sum(sub_hits) / len(sub_hits) if sub_hits else 0.0,
                attempts=len(attempts),
            )
        )
    par = [s.par for s in per_seed]
    sub = [s.sub for s in per_seed]
    result = PassAtK(
        k=k,
        seeds=seeds,
        parents=len(parents),
        slots=sum(len(s) for s in slot_table.values()),
        per_seed=per_seed,
        par_mean=statistics.fmean(par) if par else 0.0,
        par_std=_std(par, 1),
        par_pstd=_std(par, 0),
        sub_mean=statistics.fmean(sub) if sub else 0.0,
        sub_std=_std(sub, 1),
        sub_pstd=_std(sub, 0),
    )

    pooled = [
        (seed, a)
        for seed in seeds
        for a in sorted({a for p in parents for a in attempts_of.get((p, seed), set())})
    ]
    if k and len(pooled) >= k:
        n = len(pooled)
        par_items = [
            unbiased_pass_at_k(n, sum(solved(p, s, a) for s, a in pooled), k) for p in parents
        ]
        sub_items = [
            unbiased_pass_at_k(n, sum(slot_hit(p, slot, s, a) for s, a in pooled), k)
            for p in parents
            for slot in slot_table[p]
        ]
        result.par_unbiased, result.par_unbiased_se = _mean_se(par_items)
        result.sub_unbiased, result.sub_unbiased_se = _mean_se(sub_items)

    def attempts_in(parent: str, seed: int) -> list[int]:
        return sorted(attempts_of.get((parent, seed), set()))

    def par_rate(parent: str) -> float:
        return statistics.fmean(
            [any(solved(parent, seed, a) for a in attempts_in(parent, seed)) for seed in seeds]
            or [0.0]
        )

    def sub_rate(parent: str, slot: str) -> float:
        return statistics.fmean(
            [
                any(slot_hit(parent, slot, seed, a) for a in attempts_in(parent, seed))
                for seed in seeds
            ]
            or [0.0]
        )

    for name, mapping in (groups or {}).items():
        by_label: dict[str, dict[str, float]] = {}
        for label in sorted(set(mapping.values())):
            if name.startswith("slot:"):
                members = [
                    (p, s)
                    for p in parents
                    for s in slot_table[p]
                    if mapping.get(f"{p}|{s}") == label
                ]
                rates = [sub_rate(p, s) for p, s in members]
                by_label[label] = {
                    "sub": statistics.fmean(rates) if rates else 0.0,
                    "n": len(members),
                }
            else:
                members_p = [p for p in parents if mapping.get(p) == label]
                rates = [par_rate(p) for p in members_p]
                subs = [sub_rate(p, s) for p in members_p for s in slot_table[p]]
                by_label[label] = {
                    "par": statistics.fmean(rates) if rates else 0.0,
                    "sub": statistics.fmean(subs) if subs else 0.0,
                    "n": len(members_p),
                }
        result.breakdowns[name] = by_label
    return result


def guidance_gap_closed(method: float, base: float, guided: float) -> float | None:
    """(method - base) / (guided - base): the share of the Naive Guidance gain a method
    reaches; undefined when guidance gains nothing."""
    if math.isclose(guided, base):
        return None
    return (method - base) / (guided - base)
