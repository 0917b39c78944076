"""Start-up of the verifier's workers: started early, fed the costly comparisons first, and
kept free of imports a comparison never needs; none of it may change a verdict."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from studybench.verify import Verifier, VerifyItem, judge_inline
from studybench.verify.pool import ProcessPool
from studybench.verify.verifier import (
    SERIES_COST,
    WORK_PER_NEW_WORKER_MS,
    _expected_cost,
    _lanes,
    _threads_for,
)

MIXED = [
    (r"\boxed{2}", r"\boxed{\sum_{n=1}^{\infty} \frac{n}{2^n}}", "NV", "", True),
    (r"\boxed{3}", r"\boxed{3}", "NV", "", True),
    (r"\boxed{y = 2x}", r"\boxed{2x = y}", "EQ", "", True),
    (r"\boxed{\frac{m g}{k}}", r"\boxed{\frac{g m}{2k}}", "EX", "", False),
    (r"\boxed{A}", r"\boxed{B}", "MC", "", False),
    (r"\boxed{e^{x}}", r"\boxed{\sum_{k=0}^{\infty}\frac{x^{k}}{k!}}", "EX", "", True),
]


def _item(pred: str, gold: str, kind: str, sequence: str = "") -> VerifyItem:
    return VerifyItem(pred=pred, gold=gold, answer_type=kind, type_sequence=sequence)


def test_expected_cost_ranks_series_then_equations_then_expressions() -> None:
    series = _item(r"\boxed{2}", r"\boxed{\sum_{n=1}^{\infty} 2^{-n}}", "NV")
    equation = _item(r"\boxed{y = 2x}", r"\boxed{2x = y}", "EQ")
    expression = _item(r"\boxed{x}", r"\boxed{x}", "EX")
    in_tuple = _item(r"\boxed{1}, \boxed{y = x}", r"\boxed{1}, \boxed{y = x}", "TUP", "NV,EQ")
    plain = _item(r"\boxed{3}", r"\boxed{3}", "NV")
    infinity = _item(r"\boxed{[0, \infty)}", r"\boxed{[0, \infty)}", "IN")  # \infty is no \int
    assert _expected_cost(series) > _expected_cost(equation) > _expected_cost(expression)
    assert _expected_cost(in_tuple) == _expected_cost(equation)
    assert _expected_cost(expression) > _expected_cost(plain) == _expected_cost(infinity) == 1


def test_lanes_put_every_series_on_one_worker_and_balance_the_rest() -> None:
    costs = [SERIES_COST, SERIES_COST, 20.0, 20.0, 9.0, 9.0, 9.0, 1.0, 1.0]
    assert _lanes(costs, 2) == [0, 0, 1, 1, 1, 1, 1, 1, 1]
    assert _lanes([20.0, 20.0, 9.0, 9.0, 1.0], 2) == [0, 1, 0, 1, 0]
    assert _lanes(costs, 1) == [0] * len(costs)


def test_pool_map_with_lanes_runs_every_task_once_in_input_order() -> None:
    pool = ProcessPool(2, 10.0, lambda kind, task, seconds: kind)
    try:
        tasks = [(rf"\boxed{{{n}}}", rf"\boxed{{{n}}}", "NV") for n in range(12)]
        seen: list[object] = []
        lanes = [0] * 10 + [1] * 2  # lane 1 runs dry at once and takes lane 0's last tasks
        results = pool.map(tasks, seen.append, lanes)
        assert [r.extracted for r in results] == [(str(n),) for n in range(12)]
        assert len(seen) == 12 and all(r.correct for r in results)
        with pytest.raises(ValueError):
            pool.map(tasks, lanes=[0])
    finally:
        pool.close()


def test_verify_many_sends_costly_cases_first_and_answers_in_input_order() -> None:
    items = [
        {"pred": p, "gold": g, "answer_type": k, "type_sequence": s} for p, g, k, s, _ in MIXED
    ]
    seen: list[str] = []
    with Verifier(workers=2) as verifier:
        verdicts = verifier.verify_many(items * 3, on_result=lambda v: seen.append(v.reason))
    assert [v.correct for v in verdicts] == [e for *_, e in MIXED] * 3
    for (pred, gold, kind, sequence, _), verdict in zip(MIXED * 3, verdicts, strict=True):
        assert verdict.reason == judge_inline(pred, gold, kind, sequence).reason
    assert len(seen) == len(items) * 3


def test_started_workers_serve_the_first_comparisons() -> None:
    with Verifier(workers=2) as verifier:
        verifier.start(5)  # capped at the pool's size
        verifier.start()  # idempotent: both slots are taken
        assert verifier._pool._live == 2
        verdicts = verifier.verify_many(
            [{"pred": r"\boxed{1}", "gold": r"\boxed{1}", "answer_type": "NV"}] * 4
        )
        assert all(v.correct for v in verdicts)
        assert verifier._pool._live == 2 and verifier.restarts == 0
    with pytest.raises(RuntimeError):
        verifier.start()


def test_start_of_one_worker_leaves_the_other_slot_on_demand() -> None:
    with Verifier(workers=2) as verifier:
        verifier.start(1)
        assert verifier._pool._live == 1
        assert verifier.verify(r"\boxed{1}", r"\boxed{1}", "NV").correct


def test_a_closed_pool_stops_workers_still_starting() -> None:
    verifier = Verifier(workers=2)
    verifier.start()
    verifier.close()  # waits for the starting workers, then stops them
    assert verifier._pool._live == 0


_WORKER_IMPORTS = textwrap.dedent(
    r"""
    import json, sys
    from studybench.verify.worker import _skip_unneeded_imports
    _skip_unneeded_imports()
    from studybench.verify import judge_inline
    import sympy
    x = sympy.Symbol("x")
    simplified = str(sympy.simplify(sympy.sin(x) ** 2 + sympy.cos(x) ** 2))
    solved = [str(s) for s in sympy.solve(sympy.Eq(2 * x, 4), x)]
    series = judge_inline(r"\boxed{2}", r"\boxed{\sum_{n=1}^{\infty} \frac{n}{2^n}}", "NV")
    skipped = [name for name in ("numpy", "scipy") if sys.modules.get(name) is not None]
    placeholder = type(sys.modules["sympy.physics.units"]).__name__
    from sympy.physics.units import convert_to, kilometer, meter  # the real package, on demand
    real = str(convert_to(kilometer, meter))
    after = str(sympy.simplify(3 * kilometer / meter))
    print(json.dumps([simplified, solved, series.correct, series.reason, skipped,
                      placeholder, real, after, type(sys.modules["sympy.physics.units"]).__name__]))
    """
)


def test_worker_skips_numpy_scipy_and_sympy_units_until_asked() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _WORKER_IMPORTS], capture_output=True, text=True, check=True
    )
    simplified, solved, correct, reason, loaded, placeholder, real, after, final = json.loads(
        run.stdout
    )
    inline = judge_inline(r"\boxed{2}", r"\boxed{\sum_{n=1}^{\infty} \frac{n}{2^n}}", "NV")
    assert (simplified, solved) == ("1", ["2"])
    assert (correct, reason) == (inline.correct, inline.reason)  # same verdict as with numpy
    assert loaded == [] and placeholder == "_UnitsPlaceholder"
    # any other name of sympy.physics.units loads the real package, which then stays
    assert real == "1000*meter" and after == "3000"
    assert final == "module"


def test_a_caller_waits_for_a_started_worker_instead_of_starting_another() -> None:
    with Verifier(workers=2) as verifier:
        verifier.start(1)
        assert verifier.verify(r"\boxed{1}", r"\boxed{1}", "NV").correct
        assert verifier._pool._live == 1  # the one-case run of the CLI: one interpreter
        verdicts = verifier.verify_many(
            [{"pred": r"\boxed{1}", "gold": r"\boxed{1}", "answer_type": "NV"}] * 6
        )
        assert all(v.correct for v in verdicts)  # the second slot opens on demand


def test_a_lane_keeps_its_worker_while_another_thread_returns_its_own() -> None:
    pool = ProcessPool(2, 10.0, lambda kind, task, seconds: kind)
    try:
        first, second = pool._checkout(), pool._checkout()
        pool._idle.put(first)
        pool._idle.put(second)  # a plain stack would now hand ``second`` to first's thread
        assert pool._checkout(prefer=first) is first
        assert pool._checkout(prefer=first) is second  # first is busy: any idle one
        pool._idle.put(first)
        pool._idle.put(second)
    finally:
        pool.close()


def test_series_in_one_lane_are_judged_beside_plain_values() -> None:
    """Series in lane 0 beside plain values spread over both lanes: every verdict comes back,
    in order (which worker ran them is the lanes' job, tested above; their timing is a
    benchmark's, perf/verify_throughput.py, not a unit test's under a loaded machine)."""
    series = r"\boxed{\sum_{n=0}^{\infty}\frac{x^{n}}{n!}}"
    items = [{"pred": series, "gold": r"\boxed{e^{x}}", "answer_type": "EX"}] * 3
    items += [
        {"pred": rf"\boxed{{{n}}}", "gold": rf"\boxed{{{n}}}", "answer_type": "NV"}
        for n in range(40)
    ]
    with Verifier(workers=2) as verifier:
        verifier.start()
        verdicts = verifier.verify_many(items)
    assert all(v.correct for v in verdicts)
    assert [v.extracted for v in verdicts[3:]] == [(str(n),) for n in range(40)]


@pytest.mark.parametrize(
    ("costs", "workers", "started", "threads"),
    [
        ([], 4, 0, 1),  # nothing to do still names one worker
        ([1.0] * 30, 4, 0, 1),  # a judge unit: one worker, not four
        ([20.0] * 99, 4, 0, 1),  # 1.98 s of work: a second start would not pay
        ([20.0] * 100, 4, 0, 1),  # one share of WORK_PER_NEW_WORKER_MS: still one
        ([20.0] * 200, 4, 0, 2),  # two shares: two workers
        ([20.0] * 10_000, 4, 0, 4),  # never more than the pool holds
        ([1.0] * 3, 4, 3, 3),  # workers already started are all used
        ([1.0] * 3, 2, 4, 2),  # ... within the pool's size
    ],
)
def test_a_batch_starts_only_the_workers_its_work_repays(
    costs: list[float], workers: int, started: int, threads: int
) -> None:
    assert WORK_PER_NEW_WORKER_MS == 2000.0  # the rows above are written against it
    assert _threads_for(costs, workers, started) == threads


def test_a_small_batch_on_a_fresh_verifier_starts_one_worker_a_large_one_all() -> None:
    small = [_item(p, g, k, s) for p, g, k, s, _ in MIXED if "sum" not in g]
    large = [_item(r"\boxed{\sum_{n=1}^{3} n}", r"\boxed{6}", "NV")] * 60  # 60 x 81 ms
    with Verifier(workers=2) as verifier:
        verdicts = verifier.verify_many(small)
        assert [v.correct for v in verdicts] == [e for _, g, _, _, e in MIXED if "sum" not in g]
        assert verifier.workers_started == 1
        assert all(v.correct for v in verifier.verify_many(large))
        assert verifier.workers_started == 2
