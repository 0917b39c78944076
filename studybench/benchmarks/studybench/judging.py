"""Judging one run folder with the settings' two stages (shared by the CLI and the DAGs)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from studybench.config import Settings
from studybench.judge.pipeline import JudgeSummary

if TYPE_CHECKING:
    from studybench.verify import Verifier


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
    settings judges (:func:`~studybench.verify.verifier.shared_verifier`)."""
    from studybench.judge.llm import JudgeCache, LLMJudge, judge_engine
    from studybench.judge.pipeline import judge_run
    from studybench.verify.verifier import shared_verifier

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
        verifier = shared_verifier(
            tolerance=js.tolerance, timeout_s=js.rule_timeout_s, strip_think=strip
        )
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
