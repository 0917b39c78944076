"""The package stays light: importing it (or its CLI) pulls in no heavy framework."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ["torch", "transformers", "trl", "mlflow", "airflow", "dvc", "vllm", "datasets"]


def test_import_is_light() -> None:
    code = (
        "import json, sys, studybench, studybench.cli, studybench.data, studybench.config; "
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout) == []


def test_tool_environment_defaults() -> None:
    code = (
        "import os, json, studybench; print(json.dumps({k: os.environ.get(k) for k in "
        "['MLFLOW_DISABLE_TELEMETRY', 'DVC_NO_ANALYTICS', 'HF_HUB_OFFLINE', "
        "'HF_HUB_DISABLE_UPDATE_CHECK']}))"
    )
    env = {"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "0"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    values = json.loads(result.stdout)
    assert values == {
        "MLFLOW_DISABLE_TELEMETRY": "true",
        "DVC_NO_ANALYTICS": "1",
        "HF_HUB_OFFLINE": "0",  # an explicit choice is respected
        "HF_HUB_DISABLE_UPDATE_CHECK": "1",
    }
