"""The runner on real engines: reproducible seeds, errors and re-runs, resume after SIGKILL,
and the reference export."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from studybench.data import load_parents
from studybench.data.records import ParentProblem
from studybench.engines.base import Engine, SamplingParams
from studybench.engines.local_hf import LocalHFEngine
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.runner import Rollout, RolloutConfig, RolloutSummary
from tests.engines.fake_openai import fake_openai
from tests.rollout.texts import TEXTS

ARTEFACTS = MethodArtefacts(system_prompt="You solve physics problems.")


@pytest.fixture(scope="module")
def parents(sample_dir: Path) -> list[ParentProblem]:
    return list(load_parents(sample_dir / "transfer_problems.json"))[:3]


@pytest.fixture(scope="module")
def hf(tiny_model: Path) -> LocalHFEngine:
    return LocalHFEngine(tiny_model, max_new_tokens=8)


def config(**kwargs: Any) -> RolloutConfig:
    sampling = SamplingParams(temperature=1.0, top_p=0.95, top_k=20, max_tokens=8)
    return RolloutConfig(
        model="tiny", prompts=TEXTS, k=2, seeds=(0, 1), sampling=sampling, **kwargs
    )


def run(rollout: Rollout, engine: Engine) -> RolloutSummary:
    return asyncio.run(rollout.run(engine))


def completions(run_dir: Path) -> dict[tuple[str, int, int, int], str]:
    with sqlite3.connect(run_dir / "generations.sqlite") as db:
        rows = db.execute(
            "SELECT source, year, source_problem_id, problem_id, seed, attempt, turn, completion "
            "FROM turns"
        ).fetchall()
    return {("/".join(r[:4]), r[4], r[5], r[6]): r[7] for r in rows}


def test_seeds_are_reproducible_and_distinct(
    parents: list[ParentProblem], hf: LocalHFEngine, tmp_path: Path
) -> None:
    first = Rollout(parents, config(), ARTEFACTS, tmp_path / "a")
    second = Rollout(parents, config(concurrency=3), ARTEFACTS, tmp_path / "b")
    run(first, hf)
    run(second, hf)
    a, b = completions(tmp_path / "a"), completions(tmp_path / "b")
    assert a == b  # same seeds, different scheduling: identical samples
    by_seed: dict[int, list[str]] = {0: [], 1: []}
    for (_, seed, _, _), text in sorted(a.items()):
        by_seed[seed].append(text)
    assert by_seed[0] != by_seed[1]  # seeds are independent samples
    attempts = {(key, turn): text for (key, seed, attempt, turn), text in a.items() if seed == 0}
    assert len(set(attempts.values())) > 1


def test_finished_run_is_a_no_op_and_exports(
    parents: list[ParentProblem], hf: LocalHFEngine, tmp_path: Path
) -> None:
    rollout = Rollout(parents, config(), ARTEFACTS, tmp_path)
    first = run(rollout, hf)
    slots = sum(len(p.slots()) for p in parents)
    assert first.generated == slots * 4 and first.reused == 0
    again = run(rollout, hf)
    assert again.generated == 0 and again.reused == slots * 4
    exported = json.loads(rollout.export_reference(tmp_path / "gen.json").read_text())
    assert len(exported) == len(parents)
    attempts = exported[0]["attempts"]
    assert [a["attempt_id"] for a in attempts] == [0, 1, 2, 3]  # seed blocks of k
    assert [a["seed"] for a in attempts] == [0, 0, 1, 1]
    slot = attempts[0]["completions"][1]
    assert slot["prompt_messages"][-1]["role"] == "user"
    assert slot["raw_response"]["model"] == "tiny"
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["run_key"] == rollout.run_key and manifest["engine"] == "hf"


def test_failed_turns_continue_with_placeholder_and_rerun_regenerates_downstream(
    parents: list[ParentProblem], tmp_path: Path
) -> None:
    parent = next(p for p in parents if len(p.slots()) >= 3)
    failing = {"on": True}

    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        asked_second = body["messages"][-1]["content"] == parent.slots()[1].question.strip()
        if failing["on"] and asked_second:
            return 500, "down", 0
        return 200, f"answer to turn {(len(body['messages']) - 2) // 2}", 0

    with fake_openai(script) as (url, received):

        def engine() -> OpenAICompatEngine:
            return OpenAICompatEngine(url, "m", max_retries=0)

        rollout = Rollout([parent], config(), ARTEFACTS, tmp_path)
        summary = run(rollout, engine())
        chains = 4
        assert summary.errors == chains
        third_turn_prompts = [
            b
            for b in received
            if b["messages"][-1]["content"] == parent.slots()[2].question.strip()
        ]
        assert all(
            b["messages"][4]["content"] == TEXTS.placeholder["EN"] for b in third_turn_prompts
        )

        failing["on"] = False
        before = len(received)
        again = run(rollout, engine())
        assert again.errors == 0
        turns = len(parent.slots())
        # the failed turn and every later turn are regenerated, earlier ones reused
        assert again.generated == chains * (turns - 1) and again.reused == chains
        assert len(received) - before == chains * (turns - 1)
        resolved = rollout.resolved()
        for turns_of_chain in resolved.values():
            assert all(t is not None and t.status == "ok" for t in turns_of_chain)
            assert TEXTS.placeholder["EN"] not in json.dumps(turns_of_chain[2].messages)  # type: ignore[union-attr]


def test_resume_after_sigkill(tiny_model: Path, sample_dir: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    command = [
        str(Path(sys.executable).with_name("studybench")),
        "generate",
        "--model", str(tiny_model),
        "--engine", "hf",
        "--split", str(sample_dir / "transfer_problems.json"),
        "--out", str(run_dir),
        "--seeds", "0,1",
        "--k", "1",
        "--max-new-tokens", "24",
    ]  # fmt: skip
    env = {**os.environ, "COLUMNS": "200"}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    db = run_dir / "generations.sqlite"
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and process.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    (stored,) = conn.execute("SELECT COUNT(*) FROM turns").fetchone()
            except sqlite3.OperationalError:
                stored = 0
            if stored >= 20:
                break
        time.sleep(0.2)
    assert process.poll() is None, "the run finished before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    before = completions(run_dir)
    assert len(before) >= 20

    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    after = completions(run_dir)
    total_turns = 40 * 2  # 40 slots in the sample Transfer split, 2 seeds x 1 attempt
    with sqlite3.connect(db) as conn:
        (rows,) = conn.execute("SELECT COUNT(*) FROM turns").fetchone()
        (keys,) = conn.execute(
            "SELECT COUNT(*) FROM (SELECT DISTINCT source, year, source_problem_id, problem_id, "
            "seed, attempt, turn FROM turns)"
        ).fetchone()
    assert keys == total_turns  # nothing missing
    assert rows == total_turns  # nothing generated twice
    assert all(after[key] == text for key, text in before.items())  # stored work kept
    assert f"{len(before)} reused" in result.stdout.replace("\n", " ")
