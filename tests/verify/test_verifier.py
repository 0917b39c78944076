"""The verifier through its real process pool: timeouts, crashes, threads, order."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from studybench.verify import VERIFIER_VERSION, Verifier, judge_inline, reward, verify

PAIRS = [
    (r"Final Answer: \boxed{150\,\mathrm{cm}}", r"\boxed{1.5\,\mathrm{m}}", "NV", "", True),
    (r"\boxed{1.5\,\mathrm{cm}}", r"\boxed{1.5\,\mathrm{m}}", "NV", "", False),
    (r"\boxed{\frac{mg}{k}}", r"\boxed{mg/k}", "EX", "", True),
    (r"\boxed{R}", r"\boxed{h}", "EX", "", False),
    (r"\boxed{3x=3y}", r"\boxed{2x=2y}", "EQ", "", True),
    (r"\boxed{a}, \boxed{b}", r"\boxed{b}, \boxed{a}", "TUP", "EX,EX", False),
]


@pytest.fixture(scope="module")
def verifier() -> Iterator[Verifier]:
    with Verifier(workers=2, timeout_s=10.0) as v:
        yield v


def test_pool_agrees_with_inline(verifier: Verifier) -> None:
    for pred, gold, kind, seq, expected in PAIRS:
        pooled = verifier.verify(pred, gold, kind, seq)
        inline = judge_inline(pred, gold, kind, seq)
        assert pooled.correct is inline.correct is expected, (pred, gold, pooled.reason)
        assert pooled.reason == inline.reason
        assert pooled.verifier_version == VERIFIER_VERSION


def test_verify_many_keeps_order_and_reports_each(verifier: Verifier) -> None:
    items = [
        {"pred": p, "gold": g, "answer_type": k, "type_sequence": s, "id": i}
        for i, (p, g, k, s, _) in enumerate(PAIRS * 5)
    ]
    seen = []
    verdicts = verifier.verify_many(items, on_result=seen.append)
    assert [v.correct for v in verdicts] == [e for *_, e in PAIRS * 5]
    assert len(seen) == len(items)


def test_threads_share_the_pool(verifier: Verifier) -> None:
    results: list[bool] = []
    lock = threading.Lock()

    def work() -> None:
        for pred, gold, kind, seq, expected in PAIRS:
            ok = verifier.verify(pred, gold, kind, seq).correct is expected
            with lock:
                results.append(ok)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * (6 * len(PAIRS))


def test_timeout_is_a_verdict_and_the_pool_recovers() -> None:
    with Verifier(workers=1, timeout_s=0.0005) as v:
        # A fresh expression (unique symbols, so no cache) takes milliseconds to compare.
        verdict = v.verify(
            r"\boxed{\frac{(a_{91}+b_{91})^{2}}{\sin(c_{91})}}",
            r"\boxed{\frac{a_{91}^{2}+2a_{91}b_{91}+b_{91}^{2}}{\sin(c_{91})}}",
            "EX",
        )
        assert (verdict.correct, verdict.reason) == (False, "timeout")
        assert v.restarts == 1
        v._pool.timeout_s = 10.0
        assert v.verify(r"\boxed{2}", r"\boxed{2}", "NV").correct


def test_dead_worker_is_replaced() -> None:
    with Verifier(workers=1, timeout_s=10.0) as v:
        assert v.verify(r"\boxed{2}", r"\boxed{2}", "NV").correct
        worker = v._pool._idle.get_nowait()
        worker.process.kill()
        worker.process.wait()
        v._pool._idle.put(worker)
        assert v.verify(r"\boxed{2}", r"\boxed{2}", "NV").reason == "crashed"
        assert v.verify(r"\boxed{2}", r"\boxed{2}", "NV").correct


@pytest.mark.parametrize(
    "pred",
    [
        r"\boxed{10^{10^{10}}}",
        r"\boxed{" + "9" * 50_000 + "}",
        r"\boxed{" + "{" * 500 + "x" + "}" * 500 + "}",
        r"\boxed{3",
        r"\boxed{}",
        r"<think>\boxed{3}",
        r"\boxed{(x+1)^{400} - (x+1)^{399}(x+1) + \sin^{2}x + \cos^{2}x}",
    ],
)
def test_pathological_inputs_are_bounded(verifier: Verifier, pred: str) -> None:
    start = time.perf_counter()
    verdict = verifier.verify(pred, r"\boxed{3}", "EX")
    assert not verdict.correct
    assert time.perf_counter() - start < 10.5


def test_module_level_api() -> None:
    assert verify(r"\boxed{\text{True}}", r"\boxed{Yes}", "TF").correct
    assert reward(r"\boxed{B}", r"\boxed{(b)}", "MC") == 1.0
    assert reward(r"\boxed{C}", r"\boxed{(b)}", "MC") == 0.0


def test_bad_types_are_verdicts() -> None:
    assert judge_inline(r"\boxed{1}", r"\boxed{1}", "NUM").reason == "unknown_answer_type"
    assert judge_inline(r"\boxed{1}", r"\boxed{1}", "TUP", "NV,XX").reason == "bad_type_sequence"
    verdict = judge_inline(r"\boxed{(1,2)}", r"\boxed{(1,2)} or \boxed{(2,1)}", "ALT", "TUP,TUP")
    assert not verdict.correct  # TUP inside ALT cannot be compared by the rules


def test_shared_verifier_is_one_per_process_and_settings() -> None:
    from studybench.verify.verifier import default_verifier, shared_verifier

    plain = shared_verifier(tolerance=0.02, timeout_s=3.0)
    assert shared_verifier(tolerance=0.02, timeout_s=3.0) is plain
    assert shared_verifier(tolerance=0.01, timeout_s=3.0) is not plain
    assert default_verifier() is default_verifier()
    assert plain.workers_started == 0  # started on first use only
    child = os.fork()
    if child == 0:  # a forked child must not share its parent's worker pipes
        os._exit(0 if shared_verifier(tolerance=0.02, timeout_s=3.0) is not plain else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
