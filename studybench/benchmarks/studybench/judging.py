"""Judging one run folder with the settings' two stages (shared by the CLI and the DAGs)."""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from studybench.config import Settings
from studybench.judge.pipeline import JudgeSummary

if TYPE_CHECKING:
    from studybench.verify import Verifier

# (process id, tolerance, timeout per pair, strip think) -> the verifier of that process
_verifiers: dict[tuple[int, float, float, bool], Verifier] = {}
_verifiers_lock = threading.Lock()


def rules_verifier(tolerance: float, timeout_s: float, strip_think: bool) -> Verifier:
    """The process's rule verifier for these settings, started on first use and closed at exit.

    Why one per process and not one per :func:`judge_dir` call: a verifier starts its own
    worker interpreters (sympy, the LaTeX parser, pint: about 2 s of CPU each), and a process
    judges many (split, seed) units one after another (an evaluation's judge tasks under
    ``dag.test()``, the CLI's splits); a verifier per call started 12 workers to judge the six
    units of one checkpoint on two CPUs. Workers hold no state that a verdict depends on, so
    the verdicts are those of a fresh verifier. Keyed by process id as well: a forked child
    must not write to its parent's workers' pipes, so it starts its own."""
    from studybench.verify import Verifier

    key = (os.getpid(), tolerance, timeout_s, strip_think)
    with _verifiers_lock:
        verifier = _verifiers.get(key)
        if verifier is None:
            verifier = Verifier(tolerance=tolerance, timeout_s=timeout_s, strip_think=strip_think)
            _verifiers[key] = verifier
            atexit.register(_close_in_owner, key)
        return verifier


def _close_in_owner(key: tuple[int, float, float, bool]) -> None:
    """Stop the workers of :func:`rules_verifier` at exit, in the process that started them."""
    if os.getpid() == key[0]:
        with _verifiers_lock:
            verifier = _verifiers.pop(key, None)
        if verifier is not None:
            verifier.close()


def judge_dir(
    run_dir: Path,
    settings: Settings,
    *,
    rule_only: bool = False,
    rejudge_errors: bool = False,
    seeds: Collection[int] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    verifier: Verifier | None = None,
) -> JudgeSummary:
    """Rule verifier, then (when enabled) the LLM judge for what the rules rejected.
    ``verifier``: an open verifier to use instead of the installed one (a re-score with a
    verifier plug-in); the caller closes it. Without it the process's verifier for the
    settings judges (:func:`rules_verifier`)."""
    from studybench.judge.llm import JudgeCache, LLMJudge, judge_engine
    from studybench.judge.pipeline import judge_run

    js = settings.judge
    judge = None
    cache = None
    if js.llm_enabled and not rule_only:
        cache = JudgeCache(settings.paths.cache_dir / "judge_cache.sqlite")
        judge = LLMJudge(
            judge_engine(js),
            js.model,
            cache=cache,
            temperature=js.temperature,
            max_tokens=js.max_tokens,
        )
    strip = settings.protocol.strip_think_before_judging
    if verifier is None:
        verifier = rules_verifier(js.tolerance, js.rule_timeout_s, strip)
    try:
        return judge_run(
            run_dir,
            verifier,
            judge,
            rejudge_errors_only=rejudge_errors,
            on_progress=on_progress,
            seeds=seeds,
        )
    finally:
        if cache is not None:
            cache.close()
