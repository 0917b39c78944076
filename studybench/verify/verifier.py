"""The verifier's public API: ``verify``, ``verify_many`` and ``reward``.

Stage one of the two-stage judge and the only reward signal RL training may use. Every
verdict records how it was reached (``reason``), what was compared (``extracted``,
``normalized_gold``) and by which rules (``verifier_version``), so stored verdicts can be
audited and re-scored when the rules change.

Bump :data:`VERIFIER_VERSION` whenever a rule changes: stored verdicts of an older version
are then re-computed instead of reused.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from studybench.data.answer_types import AnswerType, split_type_sequence
from studybench.verify.extract import boxed_answers, gold_answers, select_answers
from studybench.verify.pool import ProcessPool, Task, default_workers
from studybench.verify.rules import judge_answers, normalize_all

VERIFIER_VERSION = "1.0.0"
DEFAULT_TOLERANCE = 1e-2
DEFAULT_TIMEOUT_S = 5.0


class Verdict(BaseModel):
    """The rule stage's decision on one (prediction, gold) pair."""

    model_config = ConfigDict(frozen=True)

    correct: bool
    reason: str
    extracted: tuple[str, ...] = ()
    normalized_gold: tuple[str, ...] = ()
    elapsed_ms: float = 0.0
    verifier_version: str = VERIFIER_VERSION


class VerifyItem(BaseModel):
    """One comparison request (the line format of ``studybench verify --cases``)."""

    model_config = ConfigDict(extra="allow")

    pred: str
    gold: str
    answer_type: str
    type_sequence: str = ""
    tolerance: float | None = Field(None, gt=0)

    @field_validator("type_sequence", mode="before")
    @classmethod
    def _join_list(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ",".join(str(v) for v in value)
        return "" if value is None else value


def judge_inline(
    pred: str,
    gold: str,
    answer_type: str,
    type_sequence: str = "",
    tolerance: float = DEFAULT_TOLERANCE,
    strip_think: bool = True,
) -> Verdict:
    """Verify in the calling process, without a timeout. Workers call this; so may tests.

    Untrusted input belongs in :func:`verify`, which bounds the time.
    """
    start = time.perf_counter()

    def verdict(correct: bool, reason: str, **fields: Any) -> Verdict:
        elapsed = (time.perf_counter() - start) * 1000
        return Verdict(correct=correct, reason=reason, elapsed_ms=elapsed, **fields)

    try:
        kind = AnswerType(answer_type.strip().upper())
    except ValueError:
        return verdict(False, "unknown_answer_type")
    try:
        sequence = tuple(AnswerType(t.upper()) for t in split_type_sequence(type_sequence))
    except ValueError:
        return verdict(False, "bad_type_sequence")

    gold_boxes = gold_answers(gold)
    if kind is AnswerType.TUP and len(gold_boxes) == 1 and len(sequence) > 1:
        gold_boxes = select_answers(gold_boxes, kind, len(sequence))
    golds = normalize_all(gold_boxes)
    extraction = boxed_answers(pred, strip_thinking=strip_think)
    if not extraction.answers:
        return verdict(False, extraction.problem or "no_box", normalized_gold=golds)
    selected = normalize_all(select_answers(extraction.answers, kind, len(golds)))
    outcome = judge_answers(selected, golds, kind, sequence, tolerance)
    return verdict(outcome.correct, outcome.reason, extracted=selected, normalized_gold=golds)


def warm_up() -> None:
    """Load the unit registry and the LaTeX parser so the first real verdict is fast."""
    for pred, gold, kind in (
        (r"\boxed{1.5\,\mathrm{m/s}}", r"\boxed{150\,\mathrm{cm/s}}", "NV"),
        (r"\boxed{\frac{m g}{k}}", r"\boxed{\frac{g m}{k}}", "EX"),
        (r"\boxed{y = 2x}", r"\boxed{2x = y}", "EQ"),
        (r"\boxed{[0, \infty)}", r"\boxed{[0, \infty)}", "IN"),
        (r"\boxed{\sin\theta + \sqrt{x}}", r"\boxed{\sqrt{x} + \sin\theta}", "EX"),
    ):
        judge_inline(pred, gold, kind)


def _failure_verdict(kind: str, task: Task, timeout_s: float) -> Verdict:
    reason = "timeout" if kind == "timeout" else "crashed"
    elapsed = timeout_s * 1000 if kind == "timeout" else 0.0
    return Verdict(correct=False, reason=reason, elapsed_ms=elapsed)


class Verifier:
    """A verifier with its own worker processes; use as a context manager or ``close()``.

    Args:
        workers: processes (default: the CPUs this process may use).
        tolerance: relative tolerance of numeric answers (params ``judge.tolerance``).
        timeout_s: hard limit per comparison (params ``judge.rule_timeout_s``).
        strip_think: drop ``<think>`` blocks before extracting (params
            ``protocol.strip_think_before_judging``).
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        tolerance: float = DEFAULT_TOLERANCE,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        strip_think: bool = True,
        memory_limit_mb: int | None = 4096,
    ) -> None:
        self.tolerance = tolerance
        self.strip_think = strip_think
        self._pool = ProcessPool(
            workers or default_workers(), timeout_s, _failure_verdict, memory_limit_mb
        )

    @property
    def restarts(self) -> int:
        """Workers replaced after a timeout or crash."""
        return self._pool.restarts

    def _task(self, item: VerifyItem) -> Task:
        tolerance = item.tolerance if item.tolerance is not None else self.tolerance
        return (
            item.pred,
            item.gold,
            item.answer_type,
            item.type_sequence,
            tolerance,
            self.strip_think,
        )

    @staticmethod
    def _result(raw: Any) -> Verdict:
        if isinstance(raw, Verdict):
            return raw
        return Verdict(
            correct=False, reason=f"error:{raw[1]}" if isinstance(raw, tuple) else "error"
        )

    def verify(
        self,
        pred: str,
        gold: str,
        answer_type: str,
        type_sequence: str = "",
        *,
        tolerance: float | None = None,
    ) -> Verdict:
        item = VerifyItem(
            pred=pred,
            gold=gold,
            answer_type=answer_type,
            type_sequence=type_sequence,
            tolerance=tolerance,
        )
        return self._result(self._pool.run(self._task(item)))

    def verify_many(
        self,
        items: Iterable[VerifyItem | Mapping[str, Any]],
        *,
        on_result: Callable[[Verdict], None] | None = None,
    ) -> list[Verdict]:
        """Verify concurrently on all workers; verdicts come back in input order."""
        parsed = [i if isinstance(i, VerifyItem) else VerifyItem.model_validate(i) for i in items]
        callback = None if on_result is None else (lambda raw: on_result(self._result(raw)))
        raw = self._pool.map([self._task(item) for item in parsed], callback)
        return [self._result(r) for r in raw]

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_default: Verifier | None = None
_default_lock = threading.Lock()


def default_verifier() -> Verifier:
    """The process-wide verifier behind :func:`verify` and :func:`reward` (lazy)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Verifier(workers=min(4, default_workers()))
            atexit.register(_default.close)
        return _default


def verify(
    pred: str,
    gold: str,
    answer_type: str,
    type_sequence: str = "",
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> Verdict:
    """Is the final answer in ``pred`` equal to ``gold``? Bounded in time, safe in threads."""
    return default_verifier().verify(pred, gold, answer_type, type_sequence, tolerance=tolerance)


def verify_many(
    items: Iterable[VerifyItem | Mapping[str, Any]],
    *,
    workers: int | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    on_result: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    """Verify a batch on ``workers`` processes (default: all CPUs)."""
    with Verifier(workers=workers, tolerance=tolerance, timeout_s=timeout_s) as verifier:
        return verifier.verify_many(items, on_result=on_result)


def reward(pred: str, gold: str, answer_type: str, type_sequence: str = "") -> float:
    """1.0 for a verified-correct answer, else 0.0: the RL reward (never the LLM judge)."""
    return 1.0 if verify(pred, gold, answer_type, type_sequence).correct else 0.0
