"""Deployment hardening: no example or weak secret starts anything, every service holds only
the secrets it needs (workers: no database, Fernet key, JWT secret or passwords volume), and
the UIs are bound to this host by default."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.docker.deployment import DOCKER, compose_raw, env_example, interpolate_tree
from tests.docker.native import Loopback
from tests.docker.test_native_stack import filled_env

HERE = Path(__file__).parent
CASES = json.loads((HERE / "secret_cases.json").read_text())["cases"]
NEEDS: dict[str, list[str]] = json.loads((HERE / "secret_needs.json").read_text())["services"]
CHECKS = DOCKER / "check-secrets.sh"
SECRETS = [
    "POSTGRES_PASSWORD", "AIRFLOW_DB_PASSWORD", "MLFLOW_DB_PASSWORD", "REDIS_PASSWORD",
    "AIRFLOW_FERNET_KEY", "AIRFLOW_JWT_SECRET", "AIRFLOW_API_SECRET_KEY",
    "AIRFLOW_ADMIN_PASSWORD", "AIRFLOW_VIEWER_PASSWORD", "MLFLOW_ADMIN_PASSWORD",
    "MLFLOW_PIPELINE_PASSWORD", "MLFLOW_VIEWER_PASSWORD", "MLFLOW_FLASK_SECRET_KEY",
    "STUDYBENCH_JUDGE_API_KEY", "MLFLOW_S3_SECRET_ACCESS_KEY",
]  # fmt: skip


def bash(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", script],
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['value'][:20]!r}-{c['refused']}")
def test_secret_rule(case: dict[str, Any]) -> None:
    done = bash(f'source "{CHECKS}"; check_secrets "S:{case["min"]}"', {"S": case["value"]})
    if case["refused"] is None:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode == 1 and case["refused"] in done.stderr, done.stderr
        if case["value"]:
            assert case["value"] not in done.stdout + done.stderr  # never printed


def test_every_example_value_is_refused() -> None:
    """The example file as it is: every secret in it is refused, all reported at once."""
    values = env_example()
    done = bash(f'bash "{CHECKS}"', {**values, "STUDYBENCH_SECRETS_DIR": "/nonexistent"})
    assert done.returncode == 1
    for name in SECRETS[:-1]:
        assert f"refused: {name} " in done.stderr, name


def test_filled_values_pass() -> None:
    done = bash(f'bash "{CHECKS}"', {**filled_env(), "STUDYBENCH_SECRETS_DIR": "/nonexistent"})
    assert done.returncode == 0, done.stderr


def _one_example(service: str, name: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    values = filled_env()
    values[name] = env_example()[name]  # the operator forgot exactly this one
    loopback = Loopback(tmp_path, values)
    return subprocess.run(
        loopback.argv(service),
        env={**loopback.environment(service), "STUDYBENCH_CHECKS": str(CHECKS)},
        cwd=loopback.cwd(service) if loopback.cwd(service).exists() else tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("service", "name"),
    [
        ("secrets-check", "AIRFLOW_JWT_SECRET"),
        ("secrets-check", "REDIS_PASSWORD"),
        ("airflow-init", "AIRFLOW_FERNET_KEY"),
        ("airflow-init", "AIRFLOW_ADMIN_PASSWORD"),
        ("airflow-api-server", "AIRFLOW_JWT_SECRET"),
        ("airflow-api-server", "AIRFLOW_API_SECRET_KEY"),
        ("airflow-scheduler", "AIRFLOW_JWT_SECRET"),
        ("airflow-worker", "AIRFLOW_API_SECRET_KEY"),
        ("mlflow", "MLFLOW_FLASK_SECRET_KEY"),
        ("mlflow", "MLFLOW_ADMIN_PASSWORD"),
    ],
)
def test_each_start_script_refuses_an_example_secret(
    service: str, name: str, tmp_path: Path
) -> None:
    (tmp_path / "home").mkdir()
    done = _one_example(service, name, tmp_path)
    assert done.returncode != 0
    assert "refused:" in done.stderr and name.split("_")[-1] in done.stderr, done.stderr[-2000:]


def test_postgres_init_refuses_an_example_password(tmp_path: Path) -> None:
    values = filled_env()
    env = {
        "POSTGRES_USER": "postgres",
        "POSTGRES_PASSWORD": env_example()["POSTGRES_PASSWORD"],
        "AIRFLOW_DB_PASSWORD": values["AIRFLOW_DB_PASSWORD"],
        "MLFLOW_DB_PASSWORD": values["MLFLOW_DB_PASSWORD"],
        "STUDYBENCH_CHECKS": str(CHECKS),
    }
    done = bash(f'bash "{DOCKER / "postgres-init.sh"}"', env)
    assert done.returncode == 1 and "refused: POSTGRES_PASSWORD" in done.stderr


def _holdings(spec: dict[str, Any], values: dict[str, str]) -> set[str]:
    """The secrets a service holds: settings whose value contains a secret value, secret
    files, and the users' passwords volume."""
    held = set()
    secret_values = {name: values[name] for name in SECRETS if values.get(name)}
    for value in (spec.get("environment") or {}).values():
        for name, secret in secret_values.items():
            if secret and secret in str(value):
                held.add(name)
    held |= {f"secret:{entry['target']}" for entry in spec.get("secrets", [])}
    for volume in spec.get("volumes", []):
        if str(volume).split(":")[0] == "airflow-auth":
            held.add("volume:airflow-auth")
    return held


def test_each_service_holds_only_the_secrets_it_needs() -> None:
    values = filled_env()
    values["MLFLOW_S3_SECRET_ACCESS_KEY"] = "s3-secret-Zx8kQ2vL9mWp4RtY"
    services = interpolate_tree(compose_raw()["services"], values)
    assert set(services) == set(NEEDS), "every service needs an entry in secret_needs.json"
    for name, spec in services.items():
        extra = _holdings(spec, values) - set(NEEDS[name])
        assert not extra, f"{name} holds secrets it does not need: {sorted(extra)}"
    for worker in ("airflow-worker", "airflow-gpu-worker"):
        env = services[worker]["environment"]
        assert not any(k.startswith("AIRFLOW__DATABASE__") for k in env), worker
        assert "AIRFLOW__CORE__FERNET_KEY" not in env and "AIRFLOW__API_AUTH__JWT_SECRET" not in env


def test_the_uis_bind_this_host_by_default() -> None:
    values = {k: v for k, v in filled_env().items() if not k.endswith("_BIND")}
    services = interpolate_tree(compose_raw()["services"], values)
    published = {name: [str(p) for p in spec.get("ports", [])] for name, spec in services.items()}
    assert set(n for n, p in published.items() if p) == {"airflow-api-server", "mlflow"}
    for name, ports in published.items():
        for port in ports:
            assert port.startswith("127.0.0.1:"), f"{name}: {port}"
    assert env_example()["AIRFLOW_BIND"] == env_example()["MLFLOW_BIND"] == "127.0.0.1"
    caddy = (DOCKER / "Caddyfile.example").read_text()
    assert re.search(r"reverse_proxy 127\.0\.0\.1:8080", caddy)
    assert re.search(r"reverse_proxy 127\.0\.0\.1:5000", caddy)
