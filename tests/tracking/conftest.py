"""A real ``mlflow server`` on loopback, and judged run folders to log."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from studybench.config import Settings, load_settings
from studybench.judge.pipeline import judge_run
from studybench.verify import Verifier
from tests.conftest import ROOT
from tests.judge.test_judge import make_run


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def mlflow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("mlflow_server")
    port = free_port()
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
    command = [
        str(Path(sys.executable).with_name("mlflow")),
        "server",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--backend-store-uri",
        f"sqlite:///{home / 'mlflow.db'}",
        "--artifacts-destination",
        str(home / "artifacts"),
        "--workers",
        "1",
    ]
    log = (home / "server.log").open("w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, (home / "server.log").read_text()[-2000:]
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            time.sleep(0.3)
    else:
        pytest.fail("mlflow server did not start: " + (home / "server.log").read_text()[-2000:])
    try:
        yield url
    finally:
        process.terminate()
        process.wait(20)
        log.close()


def settings_for(tmp_path: Path, uri: str = "", **tracking: object) -> Settings:
    base = load_settings(ROOT / "params.yaml", environ={})
    return base.model_copy(
        update={
            "tracking": base.tracking.model_copy(update={"uri": uri, **tracking}),
            "paths": base.paths.model_copy(update={"work_dir": tmp_path / "work"}),
            "judge": base.judge.model_copy(update={"llm_enabled": False}),
        }
    )


def judged_run(run_dir: Path, sample_dir: Path, model: str = "m") -> Path:
    make_run(run_dir, sample_dir)
    manifest = {
        "model": model,
        "split": "application",
        "engine": "hf",
        "protocol_hash": "abc123",
        "config": {"k": 1, "seeds": [0, 1], "sampling": {"temperature": 1.0, "top_p": 0.95}},
        "artefacts": {"kind": "default"},
    }
    (run_dir / "run.json").write_text(json.dumps(manifest))
    with Verifier(workers=1) as rules:
        judge_run(run_dir, rules, None)
    return run_dir
