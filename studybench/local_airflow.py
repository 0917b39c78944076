"""A local Airflow for one machine (``make airflow``, ``make demo``, the integration test),
and a small client of its REST API (``studybench trigger``).

``airflow standalone`` runs the scheduler, dag-processor, triggerer and API server with
SQLite and the LocalExecutor. Everything it needs is set through ``AIRFLOW__*`` variables
here, so the project's ``dags/`` and ``plugins/`` are used in place and nothing outside
``work/airflow`` is written. The API port and the execution API URL are set together (task
processes call back to the API server), and the log servers get free ports, never Airflow's
defaults 8793/8794, so two local instances never collide. The simple auth manager generates
the admin password once; standalone prints it and :func:`admin_password` reads it back.

This module starts Airflow as a subprocess; it never imports Airflow.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from studybench.engines.vllm_server import free_port
from studybench.errors import StudyBenchError
from studybench.processes import stop_group

PASSWORD_FILE = "simple_auth_manager_passwords.json.generated"
CHECKPOINT_DAG = "studybench_checkpoint_eval"
GPU_POOL = "gpu"
# How often a start polls for what it waits on (the API's health, the generated password, the
# first parse of the checkpoint DAG): each is a local read or one loopback request, so a
# short interval costs nothing and a start returns within half a second of being ready
# (2 s polls added up to ~2 s per wait, three waits per start).
POLL_S = 0.5


class AirflowError(StudyBenchError):
    """The local Airflow did not start, or its API refused a request."""


def airflow_env(
    repo: Path,
    home: Path,
    *,
    port: int = 8080,
    log_ports: tuple[int, int] = (8795, 8796),
    parallelism: int = 4,
    params: Path | None = None,
    profile: str = "",
    username: str = "admin",
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of a local Airflow over this project."""
    env = dict(os.environ if base is None else base)
    url = f"http://127.0.0.1:{port}"
    env.update(
        {
            "AIRFLOW_HOME": str(home),
            "AIRFLOW__CORE__DAGS_FOLDER": str(repo / "dags"),
            "AIRFLOW__CORE__PLUGINS_FOLDER": str(repo / "plugins"),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "AIRFLOW__CORE__EXECUTOR": "LocalExecutor",
            "AIRFLOW__CORE__PARALLELISM": str(parallelism),
            # paused until someone turns them on: the checkpoint DAG is unpaused by
            # `studybench airflow` / the demo; nightly and data stay paused until you choose
            "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "True",
            "AIRFLOW__CORE__AUTH_MANAGER": (
                "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
            ),
            "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": f"{username}:admin",
            "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"{url}/execution/",
            "AIRFLOW__API__HOST": "127.0.0.1",
            "AIRFLOW__API__PORT": str(port),
            "AIRFLOW__API__BASE_URL": url,
            "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(log_ports[0]),
            "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(log_ports[1]),
            "AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL": "30",
            "AIRFLOW__SCHEDULER__ENABLE_HEALTH_CHECK": "False",
            "STUDYBENCH_REPO": str(repo),
            "MLFLOW_DISABLE_TELEMETRY": "true",
            "DVC_NO_ANALYTICS": "1",
            "HF_HUB_OFFLINE": "1",
        }
    )
    # The checkpoint DAG is created active (the DAG file reads this; the others follow
    # DAGS_ARE_PAUSED_AT_CREATION above), so Airflow registers its watcher on the first parse.
    # Created paused and unpaused later, nothing was watched until the file's next re-parse:
    # up to 30 s per start, which a 5 s re-parse interval hid at the cost of a dag-processor
    # parsing the DAG folder all day (a third of a core on two cores, measured).
    env["STUDYBENCH_WATCH_AT_CREATION"] = "1"
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = venv_bin + os.pathsep + env.get("PATH", "")
    if params is not None:
        env["STUDYBENCH_PARAMS"] = str(params.resolve())
    if profile:
        env["STUDYBENCH_PROFILE"] = profile
    return env


def _airflow() -> str:
    candidate = Path(sys.executable).with_name("airflow")
    return str(candidate) if candidate.exists() else (shutil.which("airflow") or "airflow")


def start_standalone(env: Mapping[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``airflow standalone`` in its own process group, output to ``log_path``."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    Path(env["AIRFLOW_HOME"]).mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [_airflow(), "standalone"],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=dict(env),
            cwd=env.get("STUDYBENCH_REPO"),
            start_new_session=True,
        )


def stop(process: subprocess.Popen[bytes], grace_s: float = 30.0) -> None:
    """Stop standalone and every process it started (its process group), waiting until all
    of them are gone (scheduler, triggerer and API server shut down gracefully first)."""
    stop_group(process.pid, grace_s)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


def admin_password(home: Path, timeout_s: float = 0.0, username: str = "admin") -> str:
    """The generated password of ``username`` (the simple auth manager's admin)."""
    path = home / PASSWORD_FILE
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return str(json.loads(path.read_text())[username])
        except (OSError, ValueError, KeyError):
            if time.monotonic() >= deadline:
                raise AirflowError(f"{path}: no admin password (has Airflow started?)") from None
            time.sleep(POLL_S)


class AirflowAPI:
    """The few REST calls the platform needs (Airflow 3 API v2, simple auth manager)."""

    def __init__(self, url: str, username: str, password: str, timeout_s: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.username = username
        self.password = password
        self.timeout_s = timeout_s
        self._token: str | None = None

    def _request(self, method: str, path: str, body: Any = None, auth: bool = True) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if auth:
            request.add_header("Authorization", f"Bearer {self.token()}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")[:500]
            raise AirflowError(f"{method} {self.url}{path}: HTTP {exc.code}: {detail}") from None
        except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
            raise AirflowError(f"{method} {self.url}{path}: cannot reach Airflow: {exc}") from None
        return json.loads(text) if text else None

    def token(self) -> str:
        if self._token is None:
            reply = self._request(
                "POST",
                "/auth/token",
                {"username": self.username, "password": self.password},
                auth=False,
            )
            self._token = str(reply["access_token"])
        return self._token

    def healthy(self) -> bool:
        try:
            reply = self._request("GET", "/api/v2/monitor/health", auth=False)
        except AirflowError:
            return False
        return bool(reply) and reply.get("metadatabase", {}).get("status") == "healthy"

    def set_pool(self, name: str, slots: int, description: str = "") -> None:
        """Create or resize a pool (the ``gpu`` pool bounds concurrent engines). Through the
        API: ``airflow pools set`` started another interpreter that imported Airflow, about
        8 s of CPU on each start of the local Airflow."""
        quoted = urllib.parse.quote(name, safe="")
        body = {"name": name, "slots": slots, "description": description, "include_deferred": False}
        try:
            self._request("PATCH", f"/api/v2/pools/{quoted}", body)
        except AirflowError as exc:
            if "HTTP 404" not in str(exc):
                raise
            self._request("POST", "/api/v2/pools", body)

    def trigger(self, dag_id: str, conf: dict[str, Any]) -> dict[str, Any]:
        reply = self._request(
            "POST", f"/api/v2/dags/{dag_id}/dagRuns", {"logical_date": None, "conf": conf}
        )
        return dict(reply)

    def unpause(self, dag_id: str) -> None:
        self._request("PATCH", f"/api/v2/dags/{dag_id}", {"is_paused": False})

    def wait_for_dag(self, dag_id: str, timeout_s: float = 180.0) -> None:
        """Wait until the dag-processor has parsed ``dag_id``."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                self._request("GET", f"/api/v2/dags/{dag_id}")
                return
            except AirflowError as exc:
                if "HTTP 404" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(POLL_S)

    def dag_runs(self, dag_id: str) -> list[dict[str, Any]]:
        reply = self._request("GET", f"/api/v2/dags/{dag_id}/dagRuns?limit=100")
        return list(reply.get("dag_runs", []))

    def task_instances(self, dag_id: str, run_id: str) -> list[dict[str, Any]]:
        quoted = urllib.parse.quote(run_id, safe="")
        reply = self._request("GET", f"/api/v2/dags/{dag_id}/dagRuns/{quoted}/taskInstances")
        return list(reply.get("task_instances", []))


def port_free(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        # as servers bind: a port whose last connections are in TIME_WAIT is free
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class LocalAirflow:
    """A started local Airflow: its API client (logged in), environment and log."""

    def __init__(
        self, process: subprocess.Popen[bytes], api: AirflowAPI, env: dict[str, str], log: Path
    ) -> None:
        self.process = process
        self.api = api
        self.env = env
        self.log = log


@contextlib.contextmanager
def running(
    repo: Path,
    settings: Any,
    *,
    port: int,
    params: Path | None = None,
    profile: str = "",
    log_ports: tuple[int, int] | None = None,
    timeout_s: float = 300.0,
) -> Iterator[LocalAirflow]:
    """Start standalone over ``repo`` with the ``airflow`` settings, wait until its API is
    healthy, create the ``gpu`` pool, turn the checkpoint DAG on; stop everything on exit."""
    home = Path(settings.airflow.home).resolve()
    if not port_free(port):
        raise AirflowError(
            f"port {port} on 127.0.0.1 is taken (another Airflow?); stop it or choose another "
            "port (airflow.port in params.yaml, or --port)"
        )
    username = settings.airflow.username
    env = airflow_env(
        repo,
        home,
        port=port,
        log_ports=log_ports or (free_port(), free_port()),
        parallelism=settings.airflow.parallelism,
        params=params,
        profile=profile,
        username=username,
    )
    log = home / "standalone.log"
    process = start_standalone(env, log)
    try:
        api = AirflowAPI(f"http://127.0.0.1:{port}", username, "")
        wait_healthy(api, process, log, timeout_s)
        api.password = admin_password(home, timeout_s=60, username=username)
        api.set_pool(GPU_POOL, settings.airflow.gpu_slots, "concurrent vLLM engines")
        api.wait_for_dag(CHECKPOINT_DAG)
        api.unpause(CHECKPOINT_DAG)  # its watcher starts once the DAG is active
        yield LocalAirflow(process, api, env, log)
    finally:
        stop(process)


def wait_healthy(
    api: AirflowAPI, process: subprocess.Popen[bytes], log: Path, timeout_s: float
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
            raise AirflowError(f"airflow standalone exited ({process.returncode}); {log}:\n{tail}")
        if api.healthy():
            return
        time.sleep(POLL_S)
    raise AirflowError(f"Airflow API at {api.url} not healthy after {timeout_s:.0f} s; see {log}")


def api_for(settings: Any) -> AirflowAPI:
    """A client of the configured Airflow, logged in with the password from
    ``airflow.password_env`` or, when unset, the one standalone generated."""
    password = os.environ.get(settings.airflow.password_env, "")
    if not password:
        password = admin_password(
            Path(settings.airflow.home).resolve(), username=settings.airflow.username
        )
    return AirflowAPI(settings.airflow.url, settings.airflow.username, password)


def trigger_checkpoint(checkpoint: str, settings: Any) -> tuple[str, dict[str, Any]]:
    """Ask Airflow to evaluate one checkpoint now; refuses (DataError) a checkpoint that is
    not complete, before any call to Airflow. Returns the location sent and the DAG run."""
    from studybench.checkpoints import inspect_checkpoint
    from studybench.errors import DataError

    location = checkpoint if "://" in checkpoint else str(Path(checkpoint).resolve())
    info = inspect_checkpoint(
        location, allow_pickle=settings.checkpoints.allow_pickle, assume_settled=True
    )
    if not info.ready:
        raise DataError(f"not triggering: {info.describe()}")
    return location, api_for(settings).trigger(CHECKPOINT_DAG, {"checkpoint": location})


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def wait_until_exit(airflow: LocalAirflow) -> int:
    """Block until standalone exits (its exit code); SIGTERM and SIGHUP raise
    KeyboardInterrupt like Ctrl-C, so the caller's ``running`` block stops everything."""
    import signal

    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _interrupt)
    while airflow.process.poll() is None:
        time.sleep(1.0)
    return int(airflow.process.returncode)
