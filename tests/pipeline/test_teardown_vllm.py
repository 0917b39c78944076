"""A pipeline run with ``engine.kind: vllm`` whose generating process dies: the managed vLLM
server (the real CPU build) is recorded in ``engine.json`` the moment it starts, outlives the
killed process in its own process group, and the teardown step stops that group and removes
the record. (The run to completion, where the engine context itself stops the server, is the
DAG test in tests/dags/test_dag_vllm.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from studybench.config import load_settings
from studybench.pipeline import evaluate as ev
from studybench.pipeline import orchestration
from studybench.processes import group_alive
from tests.conftest import ROOT
from tests.dags.test_dag_vllm import vllm_params

CHILD = """
import sys
from pathlib import Path
from studybench.config import load_settings
from studybench.pipeline import evaluate as ev
settings = load_settings(Path(sys.argv[1]), environ={})
ev.evaluate(ev.Target.load(sys.argv[2]), settings, log=False)
"""


def test_teardown_stops_the_server_of_a_killed_pipeline_run(
    trained_checkpoints: Path, tmp_path: Path
) -> None:
    params = vllm_params(tmp_path)
    settings = load_settings(params, environ={})
    checkpoint = trained_checkpoints / "checkpoint-0"
    target = ev.plan_checkpoint(str(checkpoint), settings)
    record = Path(target.run_root) / ev.ENGINE_FILE
    log = (tmp_path / "child.log").open("w")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(params), target.run_root],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    pid = 0
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not record.exists():
            assert child.poll() is None, (tmp_path / "child.log").read_text()[-3000:]
            time.sleep(0.1)
        time.sleep(0.2)  # the record is written in one call; let it land
        written = json.loads(record.read_text())
        pid = int(written["pid"])
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert (
            str(checkpoint).encode() in command and b"vllm.entrypoints.openai.api_server" in command
        )
        assert os.getpgid(pid) == pid  # its own process group: the teardown's unit

        child.send_signal(signal.SIGKILL)  # the generating process dies mid-start
        child.wait(30)
        assert group_alive(pid) and record.exists()  # left behind: what teardown is for

        assert orchestration.stop_engine(target.run_root) is True
        assert not group_alive(pid) and not record.exists()
        assert orchestration.stop_engine(target.run_root) is False  # nothing left: a no-op
    finally:
        if child.poll() is None:
            child.kill()
        if pid and group_alive(pid):
            os.killpg(pid, signal.SIGKILL)
        log.close()
