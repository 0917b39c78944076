"""Pid-file records of started servers: a teardown signals only the very process it
recorded (same host, same start time), never a reused id or another machine's group."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
from pathlib import Path

from studybench.pipeline import evaluate as ev
from studybench.processes import owner_record, recorded_process_state, start_ticks
from tests.pipeline.conftest import eval_settings


def test_a_record_names_one_process_on_one_host() -> None:
    child = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        record = owner_record(child.pid)
        assert record["host"] == socket.gethostname()
        assert record["start_ticks"] == start_ticks(child.pid) is not None
        assert recorded_process_state(record) == "ours"
        assert recorded_process_state({**record, "host": "gpu-node-7"}) == "other-host"
        assert recorded_process_state({**record, "start_ticks": -1}) == "gone"  # id reused
        assert recorded_process_state({"pid": child.pid}) == "ours"  # older records
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    assert recorded_process_state(record) == "gone"


def test_teardown_leaves_another_hosts_server_and_drops_stale_records(
    tiny_model: Path, tmp_path: Path
) -> None:
    settings = eval_settings(tmp_path, tracking={"enabled": False})
    target = ev.plan_target("t", str(tiny_model), "hf", settings, splits=["memorisation"])
    child = subprocess.Popen(["sleep", "30"], start_new_session=True)
    path = Path(target.run_root, ev.ENGINE_FILE)
    try:
        path.write_text(json.dumps({**owner_record(child.pid), "host": "gpu-node-7"}))
        assert ev.stop_leftover_engine(target) is False
        assert child.poll() is None and path.exists()  # not ours to stop, record kept

        path.write_text(json.dumps({**owner_record(child.pid), "start_ticks": -1}))
        assert ev.stop_leftover_engine(target) is False
        assert child.poll() is None and not path.exists()  # stale record dropped

        path.write_text(json.dumps(owner_record(child.pid)))
        assert ev.stop_leftover_engine(target, grace_s=5) is True
        assert child.wait(10) == -signal.SIGTERM
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
