"""Time bounds: linear think stripping, and the per-comparison limit of the process pool."""

from __future__ import annotations

import time

from studybench.verify import Verifier, judge_inline, verify
from studybench.verify.extract import strip_think

SLOW_PAIR = (
    r"\boxed{\frac{(a_{7}+b_{7})^{2}}{\sin(c_{7})}}",
    r"\boxed{\frac{a_{7}^{2}+2a_{7}b_{7}+b_{7}^{2}}{\sin(c_{7})}}",
    "EX",
)


def test_strip_think_is_linear_in_the_number_of_tags() -> None:
    for text in (
        "<think>" * 20_000,
        "</think>" * 20_000,
        "<think>x</think>" * 20_000 + "\\boxed{1}",
        "<think>" * 20_000 + "</think>" * 20_000,
    ):
        start = time.perf_counter()
        strip_think(text)
        assert time.perf_counter() - start < 0.5


def test_strip_think_many_blocks_keeps_the_answer() -> None:
    visible, unterminated = strip_think("<think>a</think>b" * 1000 + " \\boxed{2}")
    assert not unterminated
    assert visible.endswith("\\boxed{2}") and "a" not in visible


def test_timeout_reports_the_time_it_took_and_respawn_is_not_charged() -> None:
    with Verifier(workers=1, timeout_s=30.0) as verifier:
        assert verifier.verify(r"\boxed{1}", r"\boxed{1}", "NV").correct  # worker started
        verifier._pool.timeout_s = 0.0005
        start = time.perf_counter()
        verdict = verifier.verify(*SLOW_PAIR)
        took = time.perf_counter() - start
        assert verdict.reason == "timeout"
        # measured, not the configured limit, and never more than the caller waited
        assert 0.0 < verdict.elapsed_ms <= took * 1000
        assert verdict.elapsed_ms != 0.5
        # the replacement worker starts in the background: the caller did not wait for it
        assert took < 0.5
        verifier._pool.timeout_s = 10.0
        assert verifier.verify(r"\boxed{2}", r"\boxed{2}", "NV").correct
        assert verifier.restarts == 1


def test_question_names_the_unit_of_a_unitless_gold() -> None:
    question = "How long does the passage last (in days)?"
    pred, gold = r"\boxed{4.9\times10^{6}\,\mathrm{s}}", r"\boxed{57}"
    assert judge_inline(pred, gold, "NV", question=question).correct
    assert not judge_inline(pred, gold, "NV").correct
    assert not judge_inline(r"\boxed{57\,\mathrm{kg}}", gold, "NV", question=question).correct
    assert verify(pred, gold, "NV", question=question).correct


def test_question_travels_through_verify_many() -> None:
    items = [
        {"pred": r"\boxed{13.6\,\mathrm{eV}}", "gold": r"\boxed{13.6}", "answer_type": "NV"},
        {
            "pred": r"\boxed{2.18\times10^{-18}\,\mathrm{J}}",
            "gold": r"\boxed{13.6}",
            "answer_type": "NV",
            "question": "Find the ionisation energy in eV.",
        },
    ]
    with Verifier(workers=1) as verifier:
        first, second = verifier.verify_many(items)
    assert (first.correct, first.reason) == (False, "unit_unrequested")
    assert (second.correct, second.reason) == (True, "unit_requested")
