"""Faults during generation: malformed replies and echoed keys are stored as scrubbed
errors (never a traceback), and a run where too many turns failed is an error naming why."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from studybench.data import load_parents
from studybench.data.records import ParentProblem
from studybench.engines.base import SamplingParams
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.runner import (
    Rollout,
    RolloutConfig,
    RolloutSummary,
    TooManyFailedTurnsError,
    check_failed_turns,
)
from tests.engines.fake_openai import Raw, fake_openai
from tests.rollout.texts import TEXTS

ARTEFACTS = MethodArtefacts(system_prompt="You solve physics problems.")
KEY = "sk-planted-engine-Hh7Gg6Ff5Ee4Dd3"


@pytest.fixture(scope="module")
def parents(sample_dir: Path) -> list[ParentProblem]:
    return list(load_parents(sample_dir / "transfer_problems.json"))[:2]


def _run(parents: list[ParentProblem], run_dir: Path, url: str) -> RolloutSummary:
    config = RolloutConfig(
        model="m", prompts=TEXTS, k=1, seeds=(0,), sampling=SamplingParams(max_tokens=8)
    )
    rollout = Rollout(parents, config, ARTEFACTS, run_dir)

    async def go() -> RolloutSummary:
        engine = OpenAICompatEngine(
            url, "m", api_key=KEY, max_retries=1, backoff_base_s=0.01, backoff_cap_s=0.02
        )
        try:
            return await rollout.run(engine)
        finally:
            await engine.aclose()

    try:
        return asyncio.run(go())
    finally:
        rollout.close()


def _errors(run_dir: Path) -> list[str]:
    with sqlite3.connect(run_dir / "generations.sqlite") as db:
        return [r[0] for r in db.execute("SELECT error FROM turns WHERE status = 'error'")]


def test_every_turn_failing_is_an_error_naming_the_cause(
    parents: list[ParentProblem], tmp_path: Path
) -> None:
    echo = Raw(401, json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}"}}))
    with fake_openai(lambda body: echo) as (url, _):
        summary = _run(parents, tmp_path, url)
    assert summary.errors == summary.generated > 0
    stored = _errors(tmp_path)
    assert stored and all(KEY not in e and "AuthenticationError" in e for e in stored)
    assert KEY.encode() not in (tmp_path / "generations.sqlite").read_bytes()
    with pytest.raises(TooManyFailedTurnsError, match=r"AuthenticationError x\d+") as info:
        check_failed_turns(summary, 0.1, what="transfer")
    assert "100%" in str(info.value) and "transfer" in str(info.value)


def test_malformed_replies_are_stored_like_a_500(
    parents: list[ParentProblem], tmp_path: Path
) -> None:
    replies = iter([Raw(200, "<html>gateway</html>", content_type="text/html")] * 100)

    def script(body: dict[str, Any]) -> Raw | tuple[int, str, float]:
        if body["messages"][-1]["content"].count("\n") % 2 == 0:
            return next(replies)
        return (200, "\\boxed{1}", 0.0)

    with fake_openai(script) as (url, _):
        summary = _run(parents, tmp_path, url)
    assert summary.errors > 0
    assert all("MalformedReplyError" in e for e in _errors(tmp_path))


@pytest.mark.parametrize(
    ("errors", "generated", "limit", "fails"),
    [
        (0, 10, 0.0, False),
        (1, 10, 0.1, False),
        (2, 10, 0.1, True),
        (5, 5, 1.0, False),
        (1, 0, 0.0, False),
        (3, 4, 0.5, True),
    ],
)
def test_failure_share_rule(errors: int, generated: int, limit: float, fails: bool) -> None:
    summary = RolloutSummary(
        run_key="m@x",
        chains=1,
        turns=generated,
        generated=generated,
        reused=0,
        errors=errors,
        completion_tokens=0,
        wall_s=0.0,
        error_kinds={"APIStatusError": errors},
    )
    if fails:
        with pytest.raises(TooManyFailedTurnsError):
            check_failed_turns(summary, limit)
    else:
        check_failed_turns(summary, limit)


def test_generate_command_exits_non_zero_naming_the_cause(sample_dir: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    echo = Raw(401, json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}"}}))
    with fake_openai(lambda body: echo) as (url, _):
        env = {
            **os.environ,
            "STUDYBENCH__ENGINE__BASE_URL": url,
            "STUDYBENCH__ENGINE__MAX_RETRIES": "0",
            "STUDYBENCH_ENGINE_API_KEY": KEY,
        }
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "studybench.cli",
                "generate",
                "--model",
                "m",
                "--engine",
                "openai",
                "--split",
                str(sample_dir / "transfer_problems.json"),
                "--end",
                "2",
                "--out",
                str(tmp_path / "run"),
                "--seeds",
                "0",
                "--k",
                "1",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert "turn(s) failed" in output and "AuthenticationError" in output, output
    assert KEY not in output and "Traceback" not in output
    assert _errors(tmp_path / "run")  # the failed turns are stored for the next run
