"""No command ends in a traceback for a missing component: the installed ``studybench``
entry point, run in a subprocess as a user runs it, turns a vLLM environment that was never
built, a program that is not installed, a missing or wrong input path and a refused input into
one ``error:`` line and exit code 2 (cases in missing_component_cases.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench.config import load_settings
from studybench.engines.base import EngineError
from studybench.engines.vllm_server import VLLMServer, VLLMServerConfig
from tests.cli.entry import run
from tests.conftest import ROOT

CASES: list[dict[str, Any]] = json.loads(
    Path(__file__).with_name("missing_component_cases.json").read_text()
)


def _filled(text: str, tmp: Path, model: Path) -> str:
    return text.replace("{tmp}", str(tmp)).replace("{model}", str(model))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_expected_failure_is_one_line_and_exit_2(case: dict[str, Any], tmp_path: Path) -> None:
    model = tmp_path / "model"  # a model folder: the engine is started before it is read
    model.mkdir()
    (model / "config.json").write_text("{}")
    (tmp_path / "broken.json").write_text("{not json")
    done = run(
        *(_filled(a, tmp_path, model) for a in case["args"]),
        env={k: _filled(v, tmp_path, model) for k, v in case["env"].items()},
        cwd=ROOT,
    )
    assert done.returncode == 2, (case["why"], done.stdout[-1500:], done.stderr[-3000:])
    assert "Traceback" not in done.stderr + done.stdout, case["why"]
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stderr[-3000:]
    for expected in case["says"]:
        assert _filled(expected, tmp_path, model) in errors[0], (expected, errors[0])


def test_server_with_the_project_settings_names_make_vllm_env(tmp_path: Path) -> None:
    """The project's own engine setting (``.venv-vllm/bin/python``, relative to the checkout)
    in a checkout without that environment: the engine says how to build it."""
    engine = load_settings(ROOT / "params.yaml", environ={}).engine
    config = VLLMServerConfig.from_settings(engine, "m", max_model_len=64, root=tmp_path)
    assert config.command[0] == str(tmp_path / ".venv-vllm/bin/python")
    server = VLLMServer(config, tmp_path / "run")
    with pytest.raises(EngineError, match="make vllm-env") as raised:
        server.start()
    assert "\n" not in str(raised.value)
    assert server.process is None and not (tmp_path / "run").exists()
