"""Judging one SE-Bench completion: extract, check statically, run in the sandbox, compare.

Every verdict names one reason: ``ok``, ``no_code`` (no Python block, or generation
failed), ``ast_violation`` (a static rule, see :mod:`.astcheck`), ``runtime_error`` (the code
raised, crashed, ran out of memory or wrote too much), ``timeout`` (CPU or wall limit) or
``wrong_output`` (it ran, an output differs). The program's output is only ever parsed as
JSON on the host and compared as data.

The judge is the *parent* of the sandboxed candidate and trusts nothing the candidate can
touch: the expected outputs stay here, the sandbox's output is only the values the candidate
produced (checked for shape, never for a token the candidate could copy), and every text the
candidate controls (exception messages, stderr) is bounded, stripped of control characters
and scrubbed of secrets before it becomes a verdict's ``detail`` (which is uploaded).

Which function is called follows the reference by default (``call_rule: first_def``: the
first ``def`` in the answer, nested or not); ``stub`` calls the stub's function instead.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studybench.benchmarks.sebench.astcheck import PackageNames, check_code
from studybench.benchmarks.sebench.compare import outputs_equal
from studybench.benchmarks.sebench.extract import last_code_block
from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.sandbox import PACKAGE_INSIDE, run_python
from studybench.benchmarks.sebench.settings import SandboxLimits
from studybench.benchmarks.sebench.tasks import SETask
from studybench.secrets import scrub_secrets

JUDGE_VERSION = "sebench-judge-2"
CallRule = Literal["first_def", "stub"]
MAX_DETAIL = 300
_FIRST_DEF = re.compile(r"\bdef\s+([A-Za-z_]\w*)\s*\(")
_UNPRINTABLE = re.compile(r"[^\x20-\x7e\u00a0-\uffff]+")
Reason = Literal["ok", "no_code", "ast_violation", "runtime_error", "timeout", "wrong_output"]
FAILURE_REASONS: tuple[Reason, ...] = (
    "no_code",
    "ast_violation",
    "runtime_error",
    "timeout",
    "wrong_output",
)
HARNESS = (Path(__file__).with_name("harness.py")).read_text(encoding="utf-8")


class Verdict(BaseModel):
    task_id: str
    attempt: int = 0
    correct: bool
    reason: Reason
    detail: str = ""
    cases_passed: int = 0
    cases_total: int = 0
    completion_hash: str = ""
    judge_version: str = JUDGE_VERSION
    elapsed_ms: float = 0.0


class _CaseReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ok: bool
    value: Any = None
    printed: str = Field("", max_length=8000)
    error: str = Field("", max_length=8000)


class _Report(BaseModel):
    model_config = ConfigDict(extra="forbid")

    load_error: str | None = Field(None, max_length=8000)
    cases: list[_CaseReport]


def safe_detail(text: str, limit: int = MAX_DETAIL) -> str:
    """Text the candidate controls, fit for a verdict: secrets scrubbed, control characters
    and line breaks folded to one space, at most ``limit`` characters."""
    clean = _UNPRINTABLE.sub(" ", scrub_secrets(text[: 8 * limit]))
    clean = " ".join(clean.split())
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def called_function(code: str, task: SETask, rule: CallRule) -> str | None:
    """The function the harness calls: the answer's first ``def`` (the reference's rule) or
    the stub's function."""
    if rule == "stub":
        return task.function_name
    match = _FIRST_DEF.search(code)
    return match.group(1) if match else None


def _printed_equal(printed: str, expected: str) -> bool:
    """An expected output kept as printed text (an imported task whose output is no data):
    equal when the printed forms match, whitespace aside."""
    return "".join(printed.split()) == "".join(expected.split())


def completion_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def package_names(package: ObfuscatedPackage) -> PackageNames:
    top = {n for p, n in package.mapping.items() if not p.startswith("linalg.")}
    linalg = {n for p, n in package.mapping.items() if p.startswith("linalg.")}
    return PackageNames(
        name=package.name,
        linalg_module=package.linalg_module,
        array_class=package.array_class,
        top=frozenset(top),
        linalg=frozenset(linalg),
        constructors=frozenset(package.constructor_names()),
    )


class Judge:
    """Judges completions of tasks against one package, under fixed limits."""

    def __init__(
        self,
        package: ObfuscatedPackage,
        limits: SandboxLimits,
        rel_tolerance: float = 0.0,
        abs_tolerance: float = 1e-2,
        workers: int = 2,
        call_rule: CallRule = "first_def",
    ) -> None:
        self.package = package
        self.names = package_names(package)
        self.limits = limits
        self.rel = rel_tolerance
        self.abs = abs_tolerance
        self.workers = workers
        self.call_rule: CallRule = call_rule

    def _passes(self, got: _CaseReport, expected: Any) -> bool:
        if not got.ok:
            return False
        if isinstance(expected, str) and not isinstance(got.value, str):
            return _printed_equal(got.printed, expected)
        return outputs_equal(got.value, expected, self.rel, self.abs)

    def run_code(self, code: str, task: SETask) -> tuple[Reason, str, int]:
        """Run ``code`` on the task's test inputs in the sandbox (no static checks: tests use
        this to attack the sandbox directly); (reason, detail, passed)."""
        function = called_function(code, task, self.call_rule) or task.function_name
        job = {
            "package": self.package.name,
            "function": function,
            "cases": [
                {"args": c.args, "kwargs": c.kwargs, "arrays": list(c.arrays)}
                for c in task.test_cases
            ],
        }
        result = run_python(
            {"main.py": HARNESS, "candidate.py": code, "job.json": json.dumps(job)},
            self.limits,
            binds={self.package.import_root: PACKAGE_INSIDE},
        )
        if result.status == "timeout":
            return "timeout", f"exceeded {self.limits.cpu_s} s CPU or {self.limits.wall_s} s", 0
        if result.status != "ok":
            tail = result.stderr.strip().splitlines()[-1:] or [f"exit {result.returncode}"]
            return "runtime_error", safe_detail(f"{result.status}: {tail[0]}"), 0
        try:
            report = _Report.model_validate(json.loads(result.stdout))
        except (ValueError, RecursionError, ValidationError) as exc:
            kind = type(exc).__name__
            return "runtime_error", f"no valid report from the sandbox ({kind})", 0
        if len(report.cases) not in (0, len(task.test_cases)):
            return "runtime_error", "the sandbox reported another number of test cases", 0
        if report.load_error is not None:
            return "runtime_error", safe_detail(report.load_error), 0
        if not report.cases:
            return "runtime_error", "the sandbox reported no test case", 0
        errors = [c.error for c in report.cases if not c.ok]
        passed = sum(
            1
            for case, got in zip(task.test_cases, report.cases, strict=True)
            if self._passes(got, case.expected)
        )
        if errors:
            return "runtime_error", safe_detail(errors[0]), passed
        if passed < len(task.test_cases):
            return "wrong_output", f"{passed}/{len(task.test_cases)} test cases pass", passed
        return "ok", "", passed

    def judge(self, completion: str, task: SETask, attempt: int = 0, failed: str = "") -> Verdict:
        """The verdict on one completion; ``failed`` is a generation error (no completion)."""
        started = time.perf_counter()

        def verdict(reason: Reason, detail: str, passed: int = 0) -> Verdict:
            return Verdict(
                task_id=task.id,
                attempt=attempt,
                correct=reason == "ok",
                reason=reason,
                detail=detail,
                cases_passed=passed,
                cases_total=len(task.test_cases),
                completion_hash=completion_hash(completion),
                elapsed_ms=(time.perf_counter() - started) * 1000,
            )

        code = None if failed else last_code_block(completion)
        if code is None:
            return verdict(
                "no_code",
                safe_detail(f"generation failed: {failed}") if failed else "no Python code block",
            )
        function = called_function(code, task, self.call_rule)
        violations = check_code(code, self.names, function)
        if violations:
            return verdict("ast_violation", safe_detail("; ".join(str(v) for v in violations)))
        return verdict(*self.run_code(code, task))

    def judge_many(self, items: Sequence[tuple[str, SETask, int, str]]) -> list[Verdict]:
        """(completion, task, attempt, generation error) items, judged in parallel."""
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(lambda item: self.judge(*item), items))
