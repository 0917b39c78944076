"""Judging SE-Bench completions: the sample's reference solutions pass, their NumPy
originals fail, every failure type is classified, outputs are compared as data."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from studybench.benchmarks.sebench.compare import outputs_equal
from studybench.benchmarks.sebench.extract import last_code_block
from studybench.benchmarks.sebench.judging import Judge
from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.solutions import to_package
from studybench.benchmarks.sebench.tasks import SETask

from .conftest import fenced, obf


def test_sample_has_single_and_multi_function_tasks(sample_tasks: list[SETask]) -> None:
    splits = [t.split for t in sample_tasks]
    assert len(sample_tasks) >= 20 and splits.count("single") >= 5 and splits.count("multi") >= 5


def test_sample_reference_solutions_pass(
    judge: Judge, package: ObfuscatedPackage, sample_tasks: list[SETask]
) -> None:
    items = [(fenced(to_package(t.solution, package)), t, 0, "") for t in sample_tasks]
    verdicts = judge.judge_many(items)
    failed = [(v.task_id, v.reason, v.detail) for v in verdicts if not v.correct]
    assert failed == []
    assert all(v.cases_passed == v.cases_total > 0 for v in verdicts)


def test_sample_expected_outputs_are_numpys_results(
    judge: Judge, sample_tasks: list[SETask]
) -> None:
    """The NumPy originals, run in the sandbox without the static checks, reproduce every
    expected output: the sample's answers are NumPy's, not hand-typed."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda t: judge.run_code(t.solution, t), sample_tasks))
    assert [(t.id, r[0]) for t, r in zip(sample_tasks, results, strict=True) if r[0] != "ok"] == []


def test_sample_numpy_solutions_fail(judge: Judge, sample_tasks: list[SETask]) -> None:
    verdicts = judge.judge_many([(fenced(t.solution), t, 0, "") for t in sample_tasks])
    assert {v.reason for v in verdicts} == {"ast_violation"}
    assert all("numpy-import" in v.detail for v in verdicts)


def _task(sample_tasks: list[SETask], task_id: str) -> SETask:
    return next(t for t in sample_tasks if t.id == task_id)


def test_failure_reasons(
    judge: Judge, package: ObfuscatedPackage, sample_tasks: list[SETask]
) -> None:
    task = _task(sample_tasks, "row-means")  # def row_means(matrix)
    mean, array = obf(package, "mean"), obf(package, "array")
    head = "import zwc\n\ndef row_means(matrix):\n"
    cases = {
        "no_code": "I would average each row.",
        "ast_violation": fenced(head + f"    return {array}(matrix).mean(axis=1)"),
        "runtime_error": fenced(head + f"    return {mean}(matrix, axis=5)"),
        "timeout": fenced(head + f"    while True:\n        {mean}([1])\n    return 0"),
        "wrong_output": fenced(head + f"    return {mean}({array}(matrix), axis=0)"),
        "ok": fenced(
            "import zwc\n\ndef row_means(matrix):\n"
            "    def helper(rows):\n        return rows\n"
            f"    return {mean}({array}(helper(matrix), dtype=float), axis=1)"
        ),
    }
    for expected, completion in cases.items():
        verdict = judge.judge(completion, task)
        assert verdict.reason == expected, (expected, verdict.detail)
        assert verdict.correct == (expected == "ok")
    failed = judge.judge("", task, failed="HTTP 500 after 6 retries")
    assert failed.reason == "no_code" and "HTTP 500" in failed.detail


def test_output_is_never_evaluated_on_the_host(
    judge: Judge, package: ObfuscatedPackage, sample_tasks: list[SETask], tmp_path: Path
) -> None:
    """The reference ``eval``-ed printed output; here a printed or returned program text is
    data: it neither runs on the host nor matches the expected value."""
    task = _task(sample_tasks, "vector-length")  # expected 5.0, 3.0, 0.0
    marker = tmp_path / "evaluated"
    payload = f"__import__('pathlib').Path({str(marker)!r}).touch() or 5.0"
    code = (
        "import zwc\n\ndef length(vector):\n"
        f"    print({{'nonce': 'x', 'cases': [{{'ok': True, 'value': 5.0}}]}})\n"
        f"    {obf(package, 'sum')}([1])\n"
        f"    return {payload!r}\n"
    )
    verdict = judge.judge(fenced(code), task)
    assert verdict.reason == "wrong_output" and verdict.cases_passed == 0
    assert not marker.exists()


def test_last_python_block_wins_and_thinking_is_ignored() -> None:
    text = (
        "<think>```python\nthought()\n```</think>\n```python\nfirst()\n```\n"
        "```text\nnot code\n```\n```py\nsecond()\n```\nDone."
    )
    assert last_code_block(text) == "second()\n"
    assert last_code_block("no fences here") is None
    assert last_code_block("```python\n   \n```") is None


def test_the_first_def_is_called_as_in_the_reference(
    judge: Judge, package: ObfuscatedPackage, sample_tasks: list[SETask]
) -> None:
    """A helper defined before the target function is what the reference calls (and so
    fails); ``call_rule: stub`` calls the stub's function instead."""
    task = _task(sample_tasks, "row-means")
    mean, array = obf(package, "mean"), obf(package, "array")
    code = fenced(
        f"import zwc\n\ndef helper(m):\n    return {array}(m, dtype=float)\n\n"
        f"def row_means(matrix):\n    return {mean}(helper(matrix), axis=1)"
    )
    assert judge.judge(code, task).reason == "ast_violation"  # helper() calls only the constructor
    by_stub = Judge(package, judge.limits, call_rule="stub")
    assert by_stub.judge(code, task).reason == "ok"


@pytest.mark.parametrize(
    ("actual", "expected", "equal"),
    [
        (1.0000001, 1.0, True),
        (1.009, 1.0, True),  # the reference's absolute tolerance, 1e-2
        (1.011, 1.0, False),
        (float("inf"), float("inf"), True),
        (float("-inf"), float("inf"), False),
        (float("inf"), 1e308, False),
        (10**400, 10**400, True),
        (10**400, 1.0, False),
        ([1, 2.0], [1.0, 2], True),
        ([1, 2], [1, 2, 3], False),
        ([[1, 2]], [1, 2], False),
        (float("nan"), float("nan"), True),
        (True, 1, False),
        (1, True, False),
        ("[1, 2]", [1, 2], False),
        ({"complex": [1.0, 2.0]}, {"complex": [1.0, 2.005]}, True),
        (3.0, {"complex": [3.0, 0.0]}, True),
        (None, None, True),
        ({"a": [1]}, {"a": [1.0]}, True),
    ],
)
def test_outputs_equal(actual: object, expected: object, equal: bool) -> None:
    assert outputs_equal(actual, expected) is equal
