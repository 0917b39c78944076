"""A filter run killed with SIGKILL keeps its finished generations: the rerun asks the model
only for the turns that were not stored, and its result equals an uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml

from studybench.build.pools import parent_id
from studybench.data.loaders import load_parents
from tests.build.conftest import scripted_model
from tests.conftest import ROOT, SAMPLE

BIN = Path(sys.executable).parent
TURNS = 31 * 8  # sample textbook pool: 31 slots, k=8


def test_killed_filter_resumes(tmp_path: Path) -> None:
    textbook = load_parents(SAMPLE / "application_problems.json")
    competition = load_parents(SAMPLE / "transfer_problems.json")
    plan = {parent_id(textbook[0]): "always", parent_id(textbook[1]): "once"}
    with scripted_model([*textbook, *competition], plan, 8, (0,)) as (url, asked):
        params = yaml.safe_load((ROOT / "params.yaml").read_text())
        params["build"].update(
            textbook_pool=str(SAMPLE / "application_problems.json"),
            competition_pool=str(SAMPLE / "transfer_problems.json"),
            out_dir=str(tmp_path / "out"),
        )
        params["build"]["filter"].update(engine="openai", model="filter", base_url=url,
                                         concurrency=2)  # fmt: skip
        params["judge"]["llm_enabled"] = False
        params["paths"] = {
            "work_dir": str(tmp_path / "work"),
            "runs_dir": str(tmp_path / "work/runs"),
            "cache_dir": str(tmp_path / "work/cache"),
        }
        path = tmp_path / "params.yaml"
        path.write_text(yaml.safe_dump(params, sort_keys=False))
        command = [str(BIN / "studybench"), "build"]
        env = {**os.environ, "STUDYBENCH_PARAMS": str(path)}
        subprocess.run([*command, "pools"], env=env, check=True, capture_output=True)
        process = subprocess.Popen(
            [*command, "filter", "--pool", "textbook"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while len(asked) < TURNS // 3 and time.monotonic() < deadline:
            assert process.poll() is None, "the filter run ended before it could be killed"
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(30)
        before = len(asked)
        assert TURNS // 3 <= before < TURNS
        done = subprocess.run(
            [*command, "filter", "--pool", "textbook"], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        rerun = len(asked) - before
        assert rerun <= TURNS - before + 2  # only what was not stored (+ the 2 in flight)
        assert rerun < TURNS
    result = json.loads((tmp_path / "out/filter/textbook.json").read_text())
    solved = {o["parent"]: o["solved_attempts"] for o in result["outcomes"]}
    assert solved[parent_id(textbook[0])] == 8 and solved[parent_id(textbook[1])] == 1
    assert sum(1 for n in solved.values() if n == 0) == len(textbook) - 2
