"""Judging one SE-Bench completion: extract, check statically, run in the sandbox, compare.

Every verdict names one reason: ``ok``, ``no_code`` (no Python block, or generation
failed), ``ast_violation`` (a static rule, see :mod:`.astcheck`), ``runtime_error`` (the code
raised, crashed, ran out of memory or wrote too much), ``timeout`` (CPU or wall limit) or
``wrong_output`` (it ran, an output differs). The program's output is only ever parsed as
JSON on the host and compared as data.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from studybench.benchmarks.sebench.astcheck import PackageNames, check_code
from studybench.benchmarks.sebench.compare import outputs_equal
from studybench.benchmarks.sebench.extract import last_code_block
from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.sandbox import SandboxLimits, run_python
from studybench.benchmarks.sebench.tasks import SETask

JUDGE_VERSION = "sebench-judge-1"
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
    ok: bool
    value: Any = None
    error: str = ""


class _Report(BaseModel):
    nonce: str
    load_error: str | None = None
    cases: list[_CaseReport]


def completion_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def package_names(package: ObfuscatedPackage) -> PackageNames:
    top = {n for p, n in package.mapping.items() if not p.startswith("linalg.")}
    linalg = {n for p, n in package.mapping.items() if p.startswith("linalg.")}
    return PackageNames(
        name=package.name,
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
        rel_tolerance: float = 1e-6,
        abs_tolerance: float = 1e-9,
        workers: int = 2,
    ) -> None:
        self.package = package
        self.names = package_names(package)
        self.limits = limits
        self.rel = rel_tolerance
        self.abs = abs_tolerance
        self.workers = workers

    def run_code(self, code: str, task: SETask) -> tuple[Reason, str, int]:
        """Run ``code`` on the task's test inputs in the sandbox; (reason, detail, passed)."""
        nonce = secrets.token_hex(8)
        job = {
            "nonce": nonce,
            "package": self.package.name,
            "function": task.function_name,
            "cases": [{"args": c.args, "kwargs": c.kwargs} for c in task.test_cases],
        }
        result = run_python(
            {"main.py": HARNESS, "candidate.py": code, "job.json": json.dumps(job)},
            self.limits,
            binds={self.package.import_root: "/tmp/pkg"},
        )
        if result.status == "timeout":
            return "timeout", f"exceeded {self.limits.cpu_s} s CPU or {self.limits.wall_s} s", 0
        if result.status != "ok":
            tail = result.stderr.strip().splitlines()[-1:] or [f"exit {result.returncode}"]
            return "runtime_error", f"{result.status}: {tail[0][:300]}", 0
        try:
            report = _Report.model_validate(json.loads(result.stdout))
        except (ValueError, ValidationError) as exc:
            return "runtime_error", f"no valid report from the sandbox: {str(exc)[:200]}", 0
        if report.nonce != nonce or len(report.cases) not in (0, len(task.test_cases)):
            return "runtime_error", "report does not belong to this run", 0
        if report.load_error is not None:
            return "runtime_error", report.load_error, 0
        errors = [c.error for c in report.cases if not c.ok]
        passed = sum(
            1
            for case, got in zip(task.test_cases, report.cases, strict=True)
            if got.ok and outputs_equal(got.value, case.expected, self.rel, self.abs)
        )
        if errors:
            return "runtime_error", errors[0], passed
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
                "no_code", f"generation failed: {failed}" if failed else "no Python code block"
            )
        violations = check_code(code, self.names, task.function_name)
        if violations:
            return verdict("ast_violation", "; ".join(str(v) for v in violations)[:500])
        return verdict(*self.run_code(code, task))

    def judge_many(self, items: Sequence[tuple[str, SETask, int, str]]) -> list[Verdict]:
        """(completion, task, attempt, generation error) items, judged in parallel."""
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            return list(pool.map(lambda item: self.judge(*item), items))
