"""One evaluation of one model, in steps that Airflow tasks and CLI commands both run.

``plan`` (:mod:`.plan`) → ``generate`` (:mod:`.run`: the engine starts once and serves every
benchmark, part and seed) → ``judge`` per (benchmark, part, seed) → ``log`` to MLflow
(:mod:`.results`) → ``check`` against the previous evaluation and the baseline
(:mod:`.check`); :mod:`.compose` runs them in order. Each step reads and writes the target's
run folder (``<runs_dir>/<name>-<key>/``: ``target.json``, one folder per StudyBench split and
per other benchmark, ``result.json``), so every step is idempotent and a retried or re-run
step resumes from what is stored. This module gathers the steps under one name.
"""

from __future__ import annotations

from studybench.pipeline.check import CheckResult, Regression, check, regression_message
from studybench.pipeline.compose import Evaluation, evaluate, evaluate_model, judge_all
from studybench.pipeline.keys import evaluation_key
from studybench.pipeline.plan import (
    engine_kind,
    localise,
    plan_checkpoint,
    plan_nightly_model,
    plan_target,
)
from studybench.pipeline.results import benchmark_results, log_results, log_split_dirs
from studybench.pipeline.run import generate, judge, stop_leftover_engine
from studybench.pipeline.target import (
    CHECK_FILE,
    ENGINE_FILE,
    GENERATED_FILE,
    JUDGED_DIR,
    RESULT_FILE,
    STUDYBENCH,
    TARGET_FILE,
    CheckpointMeta,
    EngineKind,
    Target,
)

__all__ = [
    "CHECK_FILE",
    "ENGINE_FILE",
    "GENERATED_FILE",
    "JUDGED_DIR",
    "RESULT_FILE",
    "STUDYBENCH",
    "TARGET_FILE",
    "CheckResult",
    "CheckpointMeta",
    "EngineKind",
    "Evaluation",
    "Regression",
    "Target",
    "benchmark_results",
    "check",
    "engine_kind",
    "evaluate",
    "evaluate_model",
    "evaluation_key",
    "generate",
    "judge",
    "judge_all",
    "localise",
    "log_results",
    "log_split_dirs",
    "plan_checkpoint",
    "plan_nightly_model",
    "plan_target",
    "regression_message",
    "stop_leftover_engine",
]
