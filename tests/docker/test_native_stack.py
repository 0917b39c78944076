"""The compose stack's own commands, started natively on loopback (there is no Docker engine
here): Redis with its password, the MLflow server behind basic auth and its user setup, the
Airflow init (migrate, users, gpu pool), then api-server, scheduler, dag-processor,
triggerer and both Celery workers (CPU and GPU), all with the environment compose gives
them. Then the
compose healthchecks of every service are run against them, auth is tried, and the judge
key is found in the workers' environment and nowhere else. About 100 s on two cores.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from base64 import b64encode
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet

from studybench.local_airflow import CHECKPOINT_DAG, AirflowAPI, AirflowError
from studybench.processes import stop_group
from tests.docker.deployment import env_example
from tests.docker.native import Loopback

AIRFLOW_SERVICES = (
    "airflow-api-server",
    "airflow-scheduler",
    "airflow-dag-processor",
    "airflow-triggerer",
    "airflow-worker",
    "airflow-gpu-worker",
)
CELERY_APP = "airflow.providers.celery.executors.celery_executor.app"


def filled_env() -> dict[str, str]:
    """``.env.example`` with every example secret replaced, as an operator would."""
    values = env_example()
    for key, value in values.items():
        if value.startswith("change-me"):
            values[key] = f"{key.lower()}-{secrets.token_urlsafe(12)}"
    values["AIRFLOW_FERNET_KEY"] = Fernet.generate_key().decode()
    return values


def wait_for(check: Any, what: str, timeout_s: float, processes: dict[str, Any]) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        for name, process in processes.items():
            assert process.poll() is None, f"{name} exited with {process.returncode}"
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {timeout_s:.0f} s")
        time.sleep(1.0)


def http(
    url: str, *, user: str = "", password: str = "", method: str = "GET", host: str = ""
) -> int:
    request = urllib.request.Request(url, method=method)
    if host:
        request.add_header("Host", host)
    if user:
        token = b64encode(f"{user}:{password}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


class Stack:
    def __init__(self, loopback: Loopback, logs: Path, processes: dict[str, Any]) -> None:
        self.loopback = loopback
        self.logs = logs
        self.processes = processes

    def log(self, service: str) -> str:
        path = self.logs / f"{service}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("stack")
    loopback = Loopback(root, filled_env())
    logs = root / "logs"
    processes: dict[str, subprocess.Popen[bytes]] = {}
    assert shutil.which("redis-server"), "redis-server is missing: `make redis` installs it"
    try:
        redis = loopback.services["redis"]
        native_flags = f" --port {loopback.ports['redis']} --bind 127.0.0.1 --dir {root}"
        argv = [*redis["command"][:-1], redis["command"][-1] + native_flags]
        logs.mkdir()
        with (logs / "redis.log").open("ab") as log:
            processes["redis"] = subprocess.Popen(
                argv,
                env={**loopback.environment("redis")},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        processes["mlflow"] = loopback.start("mlflow", logs)
        init = loopback.run("airflow-init")
        assert init.returncode == 0, f"airflow-init:\n{init.stdout[-3000:]}\n{init.stderr[-3000:]}"
        for service in AIRFLOW_SERVICES:
            processes[service] = loopback.start(service, logs)
        users = loopback.run("mlflow-init")
        assert users.returncode == 0, f"mlflow-init:\n{users.stdout}\n{users.stderr[-3000:]}"
        yield Stack(loopback, logs, processes)
    finally:  # every service's process group, all at once (each may take its grace time)
        with ThreadPoolExecutor(max_workers=len(processes) or 1) as pool:
            list(pool.map(lambda p: stop_group(p.pid, grace_s=20), processes.values()))
        for process in processes.values():
            process.wait(10)


def test_airflow_components_healthy_and_authenticated(stack: Stack) -> None:
    lb, values = stack.loopback, stack.loopback.values
    url = f"http://127.0.0.1:{lb.ports['api']}"
    api = AirflowAPI(url, values["AIRFLOW_ADMIN_USERNAME"], values["AIRFLOW_ADMIN_PASSWORD"])

    def all_healthy() -> dict[str, Any] | None:
        try:
            reply = api._request("GET", "/api/v2/monitor/health", auth=False)
        except AirflowError:
            return None
        parts = ("metadatabase", "scheduler", "triggerer", "dag_processor")
        ok = all((reply.get(p) or {}).get("status") == "healthy" for p in parts)
        return reply if ok else None

    wait_for(
        all_healthy, "Airflow health (scheduler, triggerer, dag-processor)", 150, stack.processes
    )

    api.wait_for_dag(CHECKPOINT_DAG, timeout_s=120)  # the image's dags/ and plugins/ parse
    errors = api._request("GET", "/api/v2/importErrors")
    assert errors["total_entries"] == 0, errors

    assert http(f"{url}/api/v2/dags") == 401  # nobody gets in without a token
    with pytest.raises(AirflowError, match="HTTP 401"):
        AirflowAPI(url, values["AIRFLOW_ADMIN_USERNAME"], "admin").token()
    pool = api._request("GET", "/api/v2/pools/gpu")
    assert pool["slots"] == int(values["GPU_COUNT"])
    viewer = AirflowAPI(url, values["AIRFLOW_VIEWER_USERNAME"], values["AIRFLOW_VIEWER_PASSWORD"])
    assert viewer._request("GET", "/api/v2/pools/gpu")["name"] == "gpu"
    with pytest.raises(AirflowError, match="HTTP 403"):  # viewers cannot change anything
        viewer._request("PATCH", "/api/v2/pools/gpu", {"slots": 9})


def test_compose_healthchecks_pass_natively(stack: Stack) -> None:
    """Each service's own compose healthcheck command succeeds against its native twin."""
    for service in ("redis", "airflow-api-server", "airflow-scheduler", "mlflow"):
        result = stack.loopback.healthcheck(service)
        assert result.returncode == 0, f"{service}: {result.stdout}{result.stderr}"
        assert "PONG" in result.stdout or service != "redis", result.stdout
    anonymous = subprocess.run(
        ["redis-cli", "-p", str(stack.loopback.ports["redis"]), "ping"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert "NOAUTH" in anonymous.stdout + anonymous.stderr  # the broker wants its password
    for service in (
        "airflow-dag-processor",
        "airflow-triggerer",
        "airflow-worker",
        "airflow-gpu-worker",
    ):

        def passes(service: str = service) -> bool:
            return stack.loopback.healthcheck(service).returncode == 0

        wait_for(passes, f"{service} healthcheck", 90, stack.processes)


def test_gpu_worker_consumes_gpu_queue_with_judge_key(stack: Stack) -> None:
    lb = stack.loopback
    env = lb.environment("airflow-gpu-worker")
    celery = str(Path(lb.argv("airflow-api-server")[0]).with_name("celery"))
    expected = {
        f"celery@{lb.environment('airflow-gpu-worker')['HOSTNAME']}": {"gpu"},
        f"celery@{lb.environment('airflow-worker')['HOSTNAME']}": {"default"},
    }

    def queues() -> dict[str, set[str]] | None:
        done = subprocess.run(
            [celery, "--app", CELERY_APP, "inspect", "active_queues", "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if done.returncode != 0:
            return None
        replies = json.loads(done.stdout.strip().splitlines()[-1])
        found = {node: {q["name"] for q in reply} for node, reply in replies.items()}
        return found if set(found) == set(expected) else None

    assert wait_for(queues, "both workers answering", 90, stack.processes) == expected

    key = lb.values["STUDYBENCH_JUDGE_API_KEY"]
    for worker in ("airflow-worker", "airflow-gpu-worker"):  # from the secret file
        variables = Path(f"/proc/{stack.processes[worker].pid}/environ").read_bytes()
        assert f"STUDYBENCH_JUDGE_API_KEY={key}".encode() in variables.split(b"\0"), worker
    for service in ("airflow-api-server", "airflow-scheduler", "mlflow"):
        environ = Path(f"/proc/{stack.processes[service].pid}/environ").read_bytes()
        assert b"STUDYBENCH_REPO=" in environ or b"MLFLOW_PORT=" in environ, service
        assert key.encode() not in environ, f"the judge key reached {service}"
    for service in ("airflow-api-server", "airflow-scheduler", "airflow-gpu-worker"):
        assert key not in stack.log(service), f"the judge key reached the {service} log"


def test_mlflow_basic_auth(stack: Stack) -> None:
    lb, values = stack.loopback, stack.loopback.values
    api = f"http://127.0.0.1:{lb.ports['mlflow']}/api/2.0/mlflow"
    search = f"{api}/experiments/search?max_results=5"
    assert http(search) == 401
    assert http(search, user=values["MLFLOW_ADMIN_USERNAME"], password="password1234") == 401
    admin = (values["MLFLOW_ADMIN_USERNAME"], values["MLFLOW_ADMIN_PASSWORD"])
    assert http(search, user=admin[0], password=admin[1]) == 200
    rebound = http(search, user=admin[0], password=admin[1], host="attacker.example:5000")
    assert rebound in (400, 403)  # only the Host names of MLFLOW_SERVER_ALLOWED_HOSTS

    pipeline = (values["MLFLOW_PIPELINE_USERNAME"], values["MLFLOW_PIPELINE_PASSWORD"])
    viewer = (values["MLFLOW_VIEWER_USERNAME"], values["MLFLOW_VIEWER_PASSWORD"])

    def post(path: str, body: dict[str, Any], who: tuple[str, str]) -> tuple[int, Any]:
        request = urllib.request.Request(
            f"{api}/{path}", data=json.dumps(body).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        token = b64encode(f"{who[0]}:{who[1]}".encode()).decode()
        request.add_header("Authorization", f"Basic {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return int(reply.status), json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as exc:
            return int(exc.code), None

    status, created = post("experiments/create", {"name": "native-stack"}, pipeline)
    assert status == 200, status
    experiment = created["experiment_id"]
    status, _ = post("runs/create", {"experiment_id": experiment}, pipeline)
    assert status == 200
    get = f"{api}/experiments/get?experiment_id={experiment}"
    assert http(get, user=viewer[0], password=viewer[1]) == 200  # viewers read everything
    status, _ = post("runs/create", {"experiment_id": experiment}, viewer)
    assert status == 403  # and change nothing


def test_a_dag_run_executes_on_the_celery_workers(stack: Stack) -> None:
    """A run of the checkpoint DAG with nothing to evaluate goes scheduler -> Redis -> CPU
    worker -> execution API and succeeds: the executor, broker, shared JWT secret and the
    execution API URL of the compose environment work together."""
    lb, values = stack.loopback, stack.loopback.values
    url = f"http://127.0.0.1:{lb.ports['api']}"
    api = AirflowAPI(url, values["AIRFLOW_ADMIN_USERNAME"], values["AIRFLOW_ADMIN_PASSWORD"])
    api.wait_for_dag(CHECKPOINT_DAG, timeout_s=120)
    api.unpause(CHECKPOINT_DAG)
    run_id = api.trigger(CHECKPOINT_DAG, {})["dag_run_id"]

    def finished() -> dict[str, Any] | None:
        runs = {r["dag_run_id"]: r for r in api.dag_runs(CHECKPOINT_DAG)}
        run = runs.get(run_id)
        return run if run and run["state"] in ("success", "failed") else None

    run = wait_for(finished, "the DAG run", 150, stack.processes)
    tasks = {t["task_id"]: t for t in api.task_instances(CHECKPOINT_DAG, run_id)}
    assert run["state"] == "success", {k: v["state"] for k, v in tasks.items()}
    assert tasks["plan"]["state"] == "success"
    assert tasks["plan"]["queue"] == "default"
    assert tasks["verdict"]["state"] == "success"
