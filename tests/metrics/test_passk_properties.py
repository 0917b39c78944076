"""Properties of Par@k / Sub@k (format doc, section 6) that hold for every verdict table,
checked with hypothesis against a brute-force oracle written here from the definitions."""

from __future__ import annotations

import math
import random
import statistics
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.metrics.passk import PassAtK, VerdictRow, headline, score, unbiased_pass_at_k

FAST = settings(max_examples=60, deadline=None)


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, list[str]], list[VerdictRow]]:
    """A full verdict table: parents with 1-3 slots, 1-3 seeds, 1-4 attempts per seed."""
    parents = draw(st.integers(1, 5))
    slots_of = {f"p{i}": [f"s{j}" for j in range(draw(st.integers(1, 3)))] for i in range(parents)}
    seeds = draw(st.lists(st.integers(0, 99), min_size=1, max_size=3, unique=True))
    attempts = draw(st.integers(1, 4))
    rows = [
        VerdictRow(parent=p, slot=s, seed=seed, attempt=a, correct=draw(st.booleans()))
        for p, slots in slots_of.items()
        for s in slots
        for seed in seeds
        for a in range(attempts)
    ]
    return slots_of, rows


def _oracle(
    slots_of: dict[str, list[str]], rows: list[VerdictRow]
) -> dict[int, tuple[float, float]]:
    """Par and Sub per seed, straight from the definitions."""
    ok = {(r.parent, r.slot, r.seed, r.attempt): r.correct for r in rows}
    out = {}
    for seed in sorted({r.seed for r in rows}):
        attempts = sorted({r.attempt for r in rows if r.seed == seed})
        par = [
            any(all(ok.get((p, s, seed, a), False) for s in slots) for a in attempts)
            for p, slots in slots_of.items()
        ]
        sub = [
            any(ok.get((p, s, seed, a), False) for a in attempts)
            for p, slots in slots_of.items()
            for s in slots
        ]
        out[seed] = (sum(par) / len(par), sum(sub) / len(sub))
    return out


@FAST
@given(tables())
def test_scores_equal_the_definitions(table: tuple[dict[str, list[str]], list[VerdictRow]]) -> None:
    slots_of, rows = table
    result = score(rows, slots_of)
    oracle = _oracle(slots_of, rows)
    assert [s.seed for s in result.per_seed] == sorted(oracle)
    for seed_score in result.per_seed:
        assert math.isclose(seed_score.par, oracle[seed_score.seed][0])
        assert math.isclose(seed_score.sub, oracle[seed_score.seed][1])
    pars = [oracle[s][0] for s in sorted(oracle)]
    subs = [oracle[s][1] for s in sorted(oracle)]
    assert math.isclose(result.par_mean, statistics.fmean(pars))
    assert math.isclose(result.sub_mean, statistics.fmean(subs))
    assert math.isclose(result.par_std, statistics.stdev(pars) if len(pars) > 1 else 0.0)
    assert math.isclose(result.sub_pstd, statistics.pstdev(subs))
    assert result.parents == len(slots_of)
    assert result.slots == sum(map(len, slots_of.values()))


def _dump(result: PassAtK) -> dict[str, object]:
    return result.model_dump()


@FAST
@given(tables(), st.randoms(use_true_random=False))
def test_row_order_does_not_matter(
    table: tuple[dict[str, list[str]], list[VerdictRow]], rng: random.Random
) -> None:
    slots_of, rows = table
    shuffled = list(rows)
    rng.shuffle(shuffled)
    assert _dump(score(shuffled, slots_of)) == _dump(score(rows, slots_of))
    assert _dump(score(shuffled)) == _dump(score(rows))


@FAST
@given(tables())
def test_sub_is_at_least_the_slot_share_of_solved_parents(
    table: tuple[dict[str, list[str]], list[VerdictRow]],
) -> None:
    slots_of, rows = table
    result = score(rows, slots_of)
    ok = {(r.parent, r.slot, r.seed, r.attempt): r.correct for r in rows}
    total = sum(map(len, slots_of.values()))
    for seed_score in result.per_seed:
        attempts = {r.attempt for r in rows if r.seed == seed_score.seed}
        solved_slots = sum(
            len(slots)
            for p, slots in slots_of.items()
            if any(all(ok[(p, s, seed_score.seed, a)] for s in slots) for a in attempts)
        )
        assert seed_score.sub >= solved_slots / total - 1e-12
        assert (
            seed_score.sub
            >= seed_score.par * min(map(len, slots_of.values())) / max(map(len, slots_of.values()))
            - 1e-12
        )


@FAST
@given(tables())
def test_more_attempts_never_lower_a_score(
    table: tuple[dict[str, list[str]], list[VerdictRow]],
) -> None:
    slots_of, rows = table
    attempts = max(r.attempt for r in rows) + 1
    previous = None
    for j in range(1, attempts + 1):
        result = score([r for r in rows if r.attempt < j], slots_of)
        assert result.k == j
        if previous is not None:
            assert result.par_mean >= previous.par_mean - 1e-12
            assert result.sub_mean >= previous.sub_mean - 1e-12
        previous = result


@FAST
@given(tables())
def test_a_missing_verdict_counts_as_wrong(
    table: tuple[dict[str, list[str]], list[VerdictRow]],
) -> None:
    slots_of, rows = table
    dropped = [r for r in rows if r.slot != "s0"]  # every first slot loses its verdicts
    result = score(dropped, slots_of)
    assert all(s.par == 0.0 for s in result.per_seed)
    assert result.slots == sum(map(len, slots_of.values()))
    for seed_score in result.per_seed:
        assert math.isclose(seed_score.sub, _oracle(slots_of, dropped)[seed_score.seed][1])


@FAST
@given(st.lists(st.integers(1, 6), min_size=2, max_size=5))
def test_default_k_is_the_largest_attempt_count(counts: list[int]) -> None:
    rows = [
        VerdictRow(parent=f"p{i}", slot="0", seed=0, attempt=a, correct=False)
        for i, n in enumerate(counts)
        for a in range(n)
    ]
    assert score(rows).k == max(counts)
    assert score(list(reversed(rows))).k == max(counts)


@FAST
@given(st.integers(1, 12), st.data())
def test_unbiased_estimator_is_exact_and_monotone(n: int, data: st.DataObject) -> None:
    c = data.draw(st.integers(0, n))
    outcomes = [True] * c + [False] * (n - c)
    values = []
    for k in range(1, n + 1):
        exact = statistics.fmean(any(group) for group in combinations(outcomes, k))
        got = unbiased_pass_at_k(n, c, k)
        assert math.isclose(got, exact, abs_tol=1e-12), (n, c, k)
        values.append(got)
    assert values == sorted(values)
    if c < n:
        assert unbiased_pass_at_k(n, c + 1, 1) > unbiased_pass_at_k(n, c, 1)


@FAST
@given(tables())
def test_unbiased_par_at_one_is_the_mean_solve_rate(
    table: tuple[dict[str, list[str]], list[VerdictRow]],
) -> None:
    slots_of, rows = table
    result = score(rows, slots_of, k=1)
    ok = {(r.parent, r.slot, r.seed, r.attempt): r.correct for r in rows}
    pooled = sorted({(r.seed, r.attempt) for r in rows})
    rates = [
        statistics.fmean(all(ok[(p, s, *sa)] for s in slots) for sa in pooled)
        for p, slots in slots_of.items()
    ]
    assert result.par_unbiased is not None
    assert math.isclose(result.par_unbiased, statistics.fmean(rates))
    se = statistics.stdev(rates) / math.sqrt(len(rates)) if len(rates) > 1 else 0.0
    assert result.par_unbiased_se is not None
    assert math.isclose(result.par_unbiased_se, se, abs_tol=1e-12)


# Edge cases found by mutation testing (perf/mutation_report.py): each assertion below
# kills a mutant that the properties above let through.


def test_an_empty_table_scores_zero_with_no_estimate() -> None:
    result = score([])
    assert (result.k, result.per_seed, result.parents, result.slots) == (0, [], 0, 0)
    assert (result.par_mean, result.sub_mean, result.par_std, result.sub_std) == (0, 0, 0, 0)
    assert result.par_unbiased is None and result.sub_unbiased is None


def test_no_estimate_when_k_exceeds_the_pooled_attempts() -> None:
    rows = [VerdictRow(parent="p", slot="s", seed=0, attempt=a, correct=True) for a in range(2)]
    result = score(rows, k=5)
    assert result.k == 5
    assert result.par_unbiased is None and result.sub_unbiased is None
    assert result.par_mean == 1.0


def test_a_parent_without_slots_is_never_solved_and_has_no_slot_items() -> None:
    rows = [VerdictRow(parent="p", slot="s", seed=0, attempt=0, correct=True)]
    result = score(rows, {"p": []})
    assert result.per_seed[0].par == 0.0
    assert result.per_seed[0].sub == 0.0
    assert (result.slots, result.sub_unbiased, result.sub_unbiased_se) == (0, 0.0, 0.0)
    assert result.par_unbiased == 0.0


def test_breakdowns_of_parents_without_verdicts_in_a_seed() -> None:
    rows = [
        VerdictRow(parent="p0", slot="s", seed=0, attempt=0, correct=True),
        VerdictRow(parent="p1", slot="s", seed=1, attempt=0, correct=True),
    ]
    groups = {
        "source": {"p0": "A", "p1": "B", "ghost": "C"},
        "slot:type": {"p0|s": "NV", "ghost|s": "EX"},
    }
    result = score(rows, {"p0": ["s"], "p1": ["s"]}, groups=groups)
    assert result.breakdowns["source"] == {
        "A": {"par": 0.5, "sub": 0.5, "n": 1},
        "B": {"par": 0.5, "sub": 0.5, "n": 1},
        "C": {"par": 0.0, "sub": 0.0, "n": 0},
    }
    assert result.breakdowns["slot:type"] == {
        "EX": {"sub": 0.0, "n": 0},
        "NV": {"sub": 0.5, "n": 1},
    }


def test_breakdowns_without_any_verdict_are_zero() -> None:
    groups = {"source": {"p0": "A"}, "slot:type": {"p0|s": "NV"}}
    result = score([], {"p0": ["s"]}, groups=groups)
    assert result.breakdowns["source"] == {"A": {"par": 0.0, "sub": 0.0, "n": 1}}
    assert result.breakdowns["slot:type"] == {"NV": {"sub": 0.0, "n": 1}}


def test_headline_keys_carry_the_split_and_k() -> None:
    rows = [
        VerdictRow(parent="p", slot="s", seed=seed, attempt=a, correct=a == seed)
        for seed in (0, 1, 2)
        for a in range(2)
    ]
    result = score(rows)
    assert headline("transfer", result) == {
        "transfer/par_at_2_mean": result.par_mean,
        "transfer/par_at_2_std": result.par_std,
        "transfer/sub_at_2_mean": result.sub_mean,
        "transfer/sub_at_2_std": result.sub_std,
    }
    assert (result.par_mean, result.par_std) == (2 / 3, statistics.stdev([1.0, 1.0, 0.0]))
