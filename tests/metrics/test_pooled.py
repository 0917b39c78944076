"""Per-parent pooled estimates (metrics/pooled.py) against brute force, and the unequal-data
rule from its case table.

The oracle of the estimator is its definition: the share of the ``C(n, k)`` ways of choosing k
of a parent's n chains that contain a solving chain, enumerated with itertools (an off-by-one
in ``C(n, k)`` or in the chain count cannot agree with it). The jackknife is checked by
deleting each chain and recomputing from scratch.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.metrics.clustered import cluster_tables
from studybench.metrics.comparison import compare_items
from studybench.metrics.items import ItemRow
from studybench.metrics.passk import VerdictRow
from studybench.metrics.pooled import align, chain_estimates

CASES = json.loads(Path(__file__).with_name("unequal_data_cases.json").read_text())["cases"]


def _share_of_subsets(solved: list[bool], k: int) -> float:
    subsets = list(itertools.combinations(range(len(solved)), k))
    return sum(any(solved[i] for i in s) for s in subsets) / len(subsets)


def _brute(hits: np.ndarray, size: int, k: int) -> tuple[float, float]:
    """(Par numerator, Sub numerator) of one parent's chains x slots by enumeration."""
    chains = [list(row[:size]) for row in hits]
    par = _share_of_subsets([bool(size) and all(c) for c in chains], k)
    sub = sum(_share_of_subsets([c[m] for c in chains], k) for m in range(size))
    return par, sub


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=4),  # k
    st.integers(min_value=1, max_value=3),  # seeds
    st.integers(min_value=1, max_value=3),  # slots
    st.integers(min_value=0, max_value=2**31 - 1),
)
def test_pooled_estimates_equal_the_share_of_all_k_subsets(
    k: int, seeds: int, slots: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    n = k * seeds
    hits = rng.random((3, n, slots)) < rng.random((3, 1, slots))
    size = np.array([slots, max(1, slots - 1), 1], dtype=float)
    for p in range(3):
        hits[p, :, int(size[p]) :] = False
    par, par_var, sub, sub_var = chain_estimates(hits, size, k)
    for p in range(3):
        want_par, want_sub = _brute(hits[p], int(size[p]), k)
        assert par[p] == pytest.approx(want_par)
        assert sub[p] == pytest.approx(want_sub)
        if n - 1 < k:
            assert math.isnan(par_var[p]) and math.isnan(sub_var[p])
            continue
        # delete-one-chain jackknife, recomputed by enumeration
        left = [_brute(np.delete(hits[p], i, axis=0), int(size[p]), k) for i in range(n)]
        for column, got in ((0, par_var[p]), (1, sub_var[p])):
            values = np.array([v[column] for v in left])
            want = (n - 1) / n * float(((values - values.mean()) ** 2).sum())
            assert got == pytest.approx(want, abs=1e-12)


def test_one_chain_in_k_plus_one_by_hand() -> None:
    # n = 3 chains, k = 2, one solving: 1 - C(2, 2) / C(3, 2) = 2/3 (C(3, 3) would give 0,
    # C(2, 1)/C(3, 1) 1/3); deleting the solving chain gives 0, either other chain 1:
    # mean 2/3, jackknife variance (2/3) * ((2/3)^2 + 2 (1/3)^2) = 4/9
    hits = np.array([[[True], [False], [False]]])
    par, par_var, sub, sub_var = chain_estimates(hits, np.array([1.0]), 2)
    assert par[0] == pytest.approx(2 / 3) and sub[0] == pytest.approx(2 / 3)
    assert par_var[0] == pytest.approx(4 / 9) and sub_var[0] == pytest.approx(4 / 9)


def test_a_parent_needs_every_slot_in_one_chain() -> None:
    # chain 0 answers slot a, chain 1 slot b: Sub counts both, Par none (no chain solves all)
    hits = np.array([[[True, False], [False, True]]])
    par, _, sub, _ = chain_estimates(hits, np.array([2.0]), 1)
    assert par[0] == 0.0 and sub[0] == pytest.approx(1.0)


def _design(case: dict[str, Any], side: str) -> list[ItemRow]:
    seeds = case.get(f"{side}_seeds", [0, 1, 2])
    removed = {tuple(r[1:]) for r in case["remove"] if r[0] == side}
    rows = []
    for i, (parent, slots) in enumerate([("p0", "ab"), ("p1", "ab"), ("p2", "ab"), ("p3", "a")]):
        for seed in seeds:
            for attempt in range(2):
                if (parent, seed, attempt, None) in removed:
                    continue
                for j, slot in enumerate(slots):
                    if (parent, seed, attempt, slot) in removed:
                        continue
                    correct = (i + seed + attempt + j) % 3 != 0
                    rows.append(
                        ItemRow(
                            split="application",
                            parent=parent,
                            slot=slot,
                            seed=seed,
                            attempt=attempt,
                            correct=correct,
                        )
                    )
    return rows


SLOTS = {"p0": ["a", "b"], "p1": ["a", "b"], "p2": ["a", "b"], "p3": ["a"]}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_unequal_data_rule(case: dict[str, Any]) -> None:
    base, cand = _design(case, "baseline"), _design(case, "candidate")
    tables_b = cluster_tables(base, k=2, slots_of=SLOTS)
    tables_c = cluster_tables(cand, k=2, slots_of=SLOTS)
    key = ("studybench", "application")
    pair = align(tables_b[key], tables_c[key])
    expect = case["expect"]
    assert list(pair.parents) == expect["kept"]
    assert list(pair.dropped) == expect["dropped"]
    assert list(pair.seeds) == expect["seeds"]
    assert pair.chains == 2 * len(expect["seeds"])
    result = compare_items(base, cand, k=2, slots_of=SLOTS)
    assert list(pair.warnings) == expect["warnings"]
    assert result.warnings == expect["warnings"]
    assert pair.unit == "pooled"
    for m in result.metrics:
        assert m.parents == len(expect["kept"]) and m.dropped == len(expect["dropped"])


def _per_seed(rows: list[ItemRow], parent: str, seed: int) -> tuple[float, float]:
    """(Par, Sub numerator) of one parent in one seed by hand: solved when one of its k = 2
    attempts answers every slot; Sub counts the slots that one attempt answers. A verdict
    missing inside an attempt is wrong."""
    slots = SLOTS[parent]
    right = {
        (r.attempt, r.slot) for r in rows if (r.parent, r.seed) == (parent, seed) and r.correct
    }
    par = float(any(all((a, m) in right for m in slots) for a in range(2)))
    sub = float(sum(any((a, m) in right for a in range(2)) for m in slots))
    return par, sub


@pytest.mark.parametrize("chains", [True, False], ids=["asked", "table-without-chains"])
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_seed_mean_unit_by_hand(case: dict[str, Any], chains: bool) -> None:
    """The rule before pooling (per-seed means over the seeds the test uses), asked for, or
    the fallback of a table that has no per-attempt chains (with its warning)."""
    base, cand = _design(case, "baseline"), _design(case, "candidate")
    key = ("studybench", "application")
    table_b = cluster_tables(base, k=2, slots_of=SLOTS)[key]
    table_c = cluster_tables(cand, k=2, slots_of=SLOTS)[key]
    if chains:
        pair = align(table_b, table_c, unit="seed-mean")
        fallback = []
    else:
        pair = align(table_b, dataclasses.replace(table_c, hits=None))
        fallback = [
            "studybench/application: no per-attempt chains in the table: per-seed means are tested"
        ]
    expect = case["expect"]
    # the rule's order: seeds first, then the fallback, then parents and verdicts
    seed_rule = [w for w in expect["warnings"] if "seed" in w]
    others = [w for w in expect["warnings"] if "seed" not in w]
    assert list(pair.warnings) == seed_rule + fallback + others
    assert pair.unit == "seed-mean"
    assert list(pair.parents) == expect["kept"] and list(pair.seeds) == expect["seeds"]
    assert pair.chains == len(expect["seeds"])
    seeds_b = case.get("baseline_seeds", [0, 1, 2])
    seeds_c = case.get("candidate_seeds", [0, 1, 2])
    used = len(expect["seeds"])
    if set(seeds_b) & set(seeds_c):
        seeds_b = seeds_c = expect["seeds"]
    for index, metric in enumerate(("par_at_k", "sub_at_k")):
        got = pair.metrics[metric]
        for i, parent in enumerate(expect["kept"]):
            for side, rows, seeds, value, var in (
                ("b", base, seeds_b[:used], got.baseline, got.baseline_var),
                ("c", cand, seeds_c[:used], got.candidate, got.candidate_var),
            ):
                values = [_per_seed(rows, parent, s)[index] for s in seeds]
                assert value[i] == pytest.approx(float(np.mean(values))), (side, parent)
                assert var[i] == pytest.approx(float(np.var(values, ddof=1)) / used), (side, parent)
            den = 1.0 if metric == "par_at_k" else float(len(SLOTS[parent]))
            assert got.den[i] == den


def test_the_paper_figures_keep_every_parent_and_seed() -> None:
    # a dropped parent leaves the test, never the reported mean ± std over seeds
    case = next(c for c in CASES if c["expect"]["dropped"])
    base = _design(case, "baseline")
    result = compare_items(base, _design(case, "candidate"), k=2, slots_of=SLOTS)
    table = cluster_tables(base, k=2, slots_of=SLOTS)[("studybench", "application")]
    par = next(m for m in result.metrics if m.metric == "par_at_k")
    assert par.baseline == pytest.approx(table.value("par_at_k"))
    assert par.baseline_std == pytest.approx(float(np.std(table.per_seed("par_at_k"), ddof=1)))


def test_the_candidate_minus_the_baseline() -> None:
    # a flipped sign would report a gain as a loss
    def rows(correct: bool) -> list[ItemRow]:
        return [
            ItemRow(split="s", parent=f"p{i}", slot="0", seed=s, attempt=a, correct=correct)
            for i in range(6)
            for s in range(2)
            for a in range(2)
        ]

    result = compare_items(rows(False), rows(True), k=1)
    (par,) = result.metrics
    assert par.diff == pytest.approx(1.0) and par.decision == "improved"
    (back,) = compare_items(rows(True), rows(False), k=1).metrics
    assert back.diff == pytest.approx(-1.0) and back.decision == "regressed"


def _chains(rows: list[ItemRow], parent: str, seeds: list[int]) -> np.ndarray:
    """One parent's chains (seed by seed, attempt by attempt) x its slots, by hand: a verdict
    missing inside an attempt is a wrong answer."""
    right = {(r.seed, r.attempt, r.slot) for r in rows if r.parent == parent and r.correct}
    return np.array([[(s, a, m) in right for m in SLOTS[parent]] for s in seeds for a in range(2)])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_pooled_unit_is_the_share_of_k_subsets_of_the_kept_chains(
    case: dict[str, Any],
) -> None:
    base, cand = _design(case, "baseline"), _design(case, "candidate")
    key = ("studybench", "application")
    pair = align(
        cluster_tables(base, k=2, slots_of=SLOTS)[key],
        cluster_tables(cand, k=2, slots_of=SLOTS)[key],
    )
    expect = case["expect"]
    used = len(expect["seeds"])
    seeds_b = case.get("baseline_seeds", [0, 1, 2])
    seeds_c = case.get("candidate_seeds", [0, 1, 2])
    if set(seeds_b) & set(seeds_c):
        seeds_b = seeds_c = expect["seeds"]
    par, sub = pair.metrics["par_at_k"], pair.metrics["sub_at_k"]
    for i, parent in enumerate(expect["kept"]):
        size = len(SLOTS[parent])
        for rows, seeds, got_par, got_sub in (
            (base, seeds_b[:used], par.baseline, sub.baseline),
            (cand, seeds_c[:used], par.candidate, sub.candidate),
        ):
            want_par, want_sub = _brute(_chains(rows, parent, seeds), size, 2)
            assert got_par[i] == pytest.approx(want_par) and got_sub[i] == pytest.approx(want_sub)
        assert (par.den[i], sub.den[i]) == (1.0, size)


def test_a_table_without_attempt_records_keeps_every_parent() -> None:
    # present is None (no attempt records): nothing can be dropped, and the other side's
    # missing verdicts are still reported
    case = next(c for c in CASES if c["name"].startswith("a verdict missing"))
    key = ("studybench", "application")
    table_b = cluster_tables(_design(case, "baseline"), k=2, slots_of=SLOTS)[key]
    table_c = cluster_tables(_design(case, "candidate"), k=2, slots_of=SLOTS)[key]
    for baseline, candidate, warned in (
        (dataclasses.replace(table_b, present=None), table_c, True),
        (table_b, dataclasses.replace(table_c, present=None), False),
        (
            dataclasses.replace(table_b, present=None),
            dataclasses.replace(table_c, present=None),
            False,
        ),
    ):
        pair = align(baseline, candidate)
        assert list(pair.parents) == ["p0", "p1", "p2", "p3"] and pair.dropped == ()
        assert list(pair.warnings) == (case["expect"]["warnings"] if warned else [])


def test_one_seed_has_no_seed_variance() -> None:
    case = {"baseline_seeds": [0], "candidate_seeds": [0], "remove": []}
    key = ("studybench", "application")
    pair = align(
        cluster_tables(_design(case, "baseline"), k=2, slots_of=SLOTS)[key],
        cluster_tables(_design(case, "candidate"), k=2, slots_of=SLOTS)[key],
        unit="seed-mean",
    )
    for metric in pair.metrics.values():
        assert metric.baseline_var.dtype == np.float64
        assert np.isnan(metric.baseline_var).all() and np.isnan(metric.candidate_var).all()
        assert metric.baseline.shape == (4,)


def test_a_split_less_table_and_long_lists_of_parents_in_warnings() -> None:
    rows = [
        VerdictRow(parent=f"q{i}", slot="0", seed=s, attempt=a, correct=True)
        for i in range(7)
        for s in range(2)
        for a in range(2)
    ]
    short = [r for r in rows if not (r.seed == 1 and r.attempt == 1)]
    (table_b,) = cluster_tables(rows, k=2).values()
    (table_c,) = cluster_tables(short, k=2).values()
    pair = align(table_b, table_c)
    assert pair.warnings == (
        "studybench/-: 7 parent(s) miss an attempt on one side, dropped from both sides of the "
        "test: 'q0', 'q1', 'q2', 'q3', 'q4' and 2 more",
    )


def test_a_parent_without_slots_is_never_solved() -> None:
    par, _, sub, _ = chain_estimates(np.zeros((1, 2, 1), dtype=bool), np.array([0.0]), 1)
    assert (par[0], sub[0]) == (0.0, 0.0)


def test_five_parents_are_named_without_more() -> None:
    from studybench.metrics.pooled import NAMED, _named

    assert NAMED == 5
    assert _named([f"q{i}" for i in range(5)]) == "'q0', 'q1', 'q2', 'q3', 'q4'"
    assert _named(["q0"]) == "'q0'"
