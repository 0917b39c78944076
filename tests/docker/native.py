"""Run a compose service's own command natively, on loopback, with its own environment.

Each service's command comes from the compose file (or its image's ENTRYPOINT), its
environment from the compose file over its Dockerfile's ENV, interpolated with an ``.env``.
Then only what must differ outside a container is translated:

* container paths become folders of the test: files the image COPYs map to the repository
  (so a path nobody copies fails the run), volumes to folders under the test's root;
* service host names (``redis:6379``, ``http://mlflow:5000``, ``localhost:<port>`` inside a
  container) become ``127.0.0.1:<free port>``;
* PostgreSQL URIs become SQLite files (no database server here; Airflow and MLflow run their
  own migrations on either), the only substitution of a component.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import free_port
from tests.docker.deployment import (
    COMPOSE,
    Dockerfile,
    compose_raw,
    dockerfile_of,
    interpolate_tree,
)

VENV_BIN = Path(sys.executable).parent
_CONTAINER_PATH = re.compile(
    r"(?<![\w.:/-])(/(?:opt|shared|mlflow|run)(?:/[^\s,\]'\";]*)?)(?![\w.-])"
)
# in-container ports of the services' own servers, for their healthchecks on `localhost`
_OWN_PORT = {"airflow-api-server": 8080, "airflow-scheduler": 8974, "mlflow": 5000}
_DATABASES = {
    "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": "sqlite:///{root}/airflow.db",
    "MLFLOW_BACKEND_STORE_URI": "sqlite:///{root}/mlflow.db",
    "MLFLOW_AUTH_DATABASE_URI": "sqlite:///{root}/mlflow-auth.db",
}


class UnmappedPathError(AssertionError):
    """A container path that no COPY, volume or image default provides."""


@dataclass
class Loopback:
    """The loopback twin of the compose stack: ports, folders and ``.env`` values."""

    root: Path
    values: dict[str, str]
    ports: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("redis", "api", "mlflow", "scheduler_health"):
            self.ports.setdefault(name, free_port())
        self.compose = compose_raw()
        self.services: dict[str, Any] = interpolate_tree(self.compose["services"], self.values)

    # ------------------------------------------------------------ translation

    def hosts(self, service: str) -> list[tuple[str, str]]:
        pairs = [
            ("redis:6379", f"127.0.0.1:{self.ports['redis']}"),
            ("airflow-api-server:8080", f"127.0.0.1:{self.ports['api']}"),
            ("mlflow:5000", f"127.0.0.1:{self.ports['mlflow']}"),
        ]
        own = {
            "airflow-api-server": self.ports["api"],
            "airflow-scheduler": self.ports["scheduler_health"],
            "mlflow": self.ports["mlflow"],
        }
        if service in own:
            pairs.append((f"localhost:{_OWN_PORT[service]}", f"127.0.0.1:{own[service]}"))
        return pairs

    def path_map(self, service: str) -> list[tuple[str, Path]]:
        spec = self.services[service]
        dockerfile = dockerfile_of(spec)
        mapping: dict[str, Path] = {}
        if dockerfile is not None:
            mapping.update(dockerfile.container_to_repo())
        for volume in spec.get("volumes", []):
            source, target = str(volume).split(":")[:2]
            if source.startswith("."):
                mapping[target] = (COMPOSE.parent / source).resolve()
            else:
                mapping[target] = self.root / "volumes" / source
        mapping.setdefault("/opt/airflow", self.root / "airflow-home" / service)
        mapping["/run/secrets"] = self.root / "secrets" / service
        return sorted(mapping.items(), key=lambda item: -len(item[0]))

    def native_path(self, service: str, path: str) -> str:
        for prefix, native in self.path_map(service):
            if path == prefix or path.startswith(prefix + "/"):
                return str(native) + path[len(prefix) :]
        raise UnmappedPathError(f"{service}: {path} is not in its image (COPY) nor a volume")

    def translate(self, service: str, text: str) -> str:
        for container, native in self.hosts(service):
            text = text.replace(container, native)
        return _CONTAINER_PATH.sub(lambda m: self.native_path(service, m.group(1)), text)

    # ------------------------------------------------------------ a service natively

    def dockerfile(self, service: str) -> Dockerfile | None:
        return dockerfile_of(self.services[service])

    def environment(self, service: str) -> dict[str, str]:
        spec = self.services[service]
        dockerfile = self.dockerfile(service)
        env: dict[str, str] = {}
        if dockerfile is not None:
            env.update({k: v for k, v in dockerfile.env.items() if k != "PATH"})
        env.update({k: "" if v is None else str(v) for k, v in spec["environment"].items()})
        for key, template in _DATABASES.items():
            if key in env:
                assert env[key].startswith(("postgresql", "db+postgresql")), (service, key)
                env[key] = template.format(root=self.root)
        leftover = [k for k, v in env.items() if "postgres" in v and "://" in v]
        assert not leftover, f"{service}: PostgreSQL settings without a loopback twin: {leftover}"
        env = {key: self.translate(service, value) for key, value in env.items()}
        env.update(self._native_only(service, env))
        return env

    def _native_only(self, service: str, env: Mapping[str, str]) -> dict[str, str]:
        logs = self.root / "airflow-logs" / service
        extra = {
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(self.root / "home"),
            "LANG": "C.UTF-8",
            # containers have host names of their own; two workers here need distinct ones
            "HOSTNAME": socket.gethostname() + (f"-{service}" if "worker" in service else ""),
            # Airflow records a job's host with getfqdn; a container's equals $HOSTNAME
            "AIRFLOW__CORE__HOSTNAME_CALLABLE": "socket.gethostname",
            "AIRFLOW__LOGGING__BASE_LOG_FOLDER": str(logs),
            "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(free_port()),
            "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(free_port()),
            "AIRFLOW__API__HOST": "127.0.0.1",
            "AIRFLOW__API__PORT": str(self.ports["api"]),
            "AIRFLOW__SCHEDULER__SCHEDULER_HEALTH_CHECK_SERVER_HOST": "127.0.0.1",
            "AIRFLOW__SCHEDULER__SCHEDULER_HEALTH_CHECK_SERVER_PORT": str(
                self.ports["scheduler_health"]
            ),
            "MLFLOW_HOST": "127.0.0.1",
            # keep /proc/<pid>/environ readable (setproctitle overwrites it to make room for
            # process titles), so the test can see which process holds which secret
            "SPT_NOENV": "1",
            "STUDYBENCH_SECRETS_DIR": self.native_path(service, "/run/secrets"),
        }
        if "AIRFLOW_HOME" not in env:
            extra["AIRFLOW_HOME"] = self.native_path(service, "/opt/airflow")
        if "MLFLOW_PORT" in env:
            extra["MLFLOW_PORT"] = str(self.ports["mlflow"])
        return extra

    def argv(self, service: str) -> list[str]:
        """The service's process, as its image's entrypoint would start it."""
        spec = self.services[service]
        dockerfile = self.dockerfile(service)
        command = [str(c) for c in spec.get("command", [])]
        entrypoint = [str(c) for c in spec.get("entrypoint", [])]
        if not entrypoint and dockerfile is not None:
            entrypoint = list(dockerfile.entrypoint)
        if entrypoint:
            argv = entrypoint + command
        elif dockerfile is not None and dockerfile.base.startswith("apache/airflow:"):
            # the official image runs `bash`/`python` commands as they are, others as airflow's
            argv = command if command[0] in ("bash", "python") else ["airflow", *command]
        else:
            raise AssertionError(f"{service}: no command")
        return [self._program(a) for a in (self.translate(service, a) for a in argv)]

    @staticmethod
    def _program(word: str) -> str:
        if word in ("python", "python3"):
            return sys.executable
        if word in ("airflow", "celery", "mlflow") and (VENV_BIN / word).exists():
            return str(VENV_BIN / word)
        return word

    def cwd(self, service: str) -> Path:
        dockerfile = self.dockerfile(service)
        if dockerfile is not None and dockerfile.workdir:
            try:
                return Path(self.native_path(service, dockerfile.workdir))
            except UnmappedPathError:  # an empty folder of the image (a home directory)
                pass
        return self.root / "home"

    def prepare(self, service: str) -> None:
        """Folders of the service's volumes and its secret files, as compose provides them."""
        for _prefix, native in self.path_map(service):
            if str(native).startswith(str(self.root)):
                native.mkdir(parents=True, exist_ok=True)
        (self.root / "home").mkdir(exist_ok=True)
        secrets_dir = Path(self.native_path(service, "/run/secrets"))
        definitions = self.compose.get("secrets", {})
        for entry in self.services[service].get("secrets", []):
            source = definitions[entry["source"]]
            value = self.values[source["environment"]]
            path = secrets_dir / entry.get("target", entry["source"])
            path.write_text(value)
            path.chmod(0o600)

    def start(self, service: str, log_dir: Path) -> subprocess.Popen[bytes]:
        """Start the service in its own process group (stop it with ``stop_group``)."""
        self.prepare(service)
        log_dir.mkdir(parents=True, exist_ok=True)
        with (log_dir / f"{service}.log").open("ab") as log:
            return subprocess.Popen(
                self.argv(service),
                env=self.environment(service),
                cwd=self.cwd(service),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def run(self, service: str, timeout_s: float = 300.0) -> subprocess.CompletedProcess[str]:
        """Run a one-shot service (an init) to completion."""
        self.prepare(service)
        return subprocess.run(
            self.argv(service),
            env=self.environment(service),
            cwd=self.cwd(service),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )

    def healthcheck(
        self, service: str, timeout_s: float = 120.0
    ) -> subprocess.CompletedProcess[str]:
        """Run the service's compose healthcheck command against its native twin."""
        test = [str(t) for t in self.services[service]["healthcheck"]["test"]]
        kind, rest = test[0], test[1:]
        if kind == "CMD-SHELL":
            argv = [shutil.which("bash") or "bash", "-c", self.translate(service, rest[0])]
        else:
            assert kind == "CMD", f"{service}: healthcheck test {test}"
            argv = [self._program(self.translate(service, a)) for a in rest]
            if argv[0] == "redis-cli":  # its port is a flag, not a host name to translate
                argv[1:1] = ["-p", str(self.ports["redis"])]
        return subprocess.run(
            argv,
            env=self.environment(service),
            cwd=self.cwd(service),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
