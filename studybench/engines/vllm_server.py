"""Starting and always stopping an OpenAI-compatible vLLM server for one checkpoint.

The command is configurable (``engine.vllm_command``): ``vllm serve`` in the vLLM image on a
GPU worker, or ``.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server`` for the
CPU build here. Everything else is the same flags, so the GPU path differs only in the command
and in ``engine.vllm_extra_args``. The server's log goes to the run folder, its caches to
``engine.vllm_cache_dir`` (default ``<paths.cache_dir>/vllm``, shared by the runs; never the
home directory), and it is stopped on exit, on errors and on SIGTERM. A server that dies or
never becomes healthy fails the run with the tail of its log instead of hanging.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import FrameType, TracebackType

from pydantic import BaseModel, ConfigDict, Field

from studybench.config import EngineSettings
from studybench.engines.base import EngineError
from studybench.processes import owner_record
from studybench.secrets import is_secret_env, scrub_secrets


class VLLMServerConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    command: tuple[str, ...] = ("vllm", "serve")
    model: str
    served_model_name: str = "model"
    seed: int = 0
    max_model_len: int = 32768
    gpu_memory_utilization: float = 0.9
    tensor_parallel_size: int = 1
    data_parallel_size: int = 1
    trust_remote_code: bool = False
    extra_args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    # vLLM's, torch inductor's and triton's caches. Shared by the servers that name one folder:
    # vLLM keys what it caches by content, and its model-info cache alone spares each start a
    # model-inspection subprocess (about 12 s of CPU on the CPU build). None: the run folder's.
    cache_dir: Path | None = None
    host: str = "127.0.0.1"
    port: int = 0  # 0: a free port
    startup_timeout_s: float = 900.0

    @classmethod
    def from_settings(
        cls,
        engine: EngineSettings,
        model: str,
        *,
        max_model_len: int,
        served_model_name: str = "model",
        seed: int = 0,
        root: Path | None = None,
        **overrides: object,
    ) -> VLLMServerConfig:
        """The server of ``engine`` settings for ``model``. A relative command path (the CPU
        build's ``.venv-vllm/bin/python``) is resolved against ``root`` when given."""
        command = list(engine.vllm_command)
        if root is not None and "/" in command[0] and not Path(command[0]).is_absolute():
            command[0] = str(root / command[0])
        options: dict[str, object] = {
            "command": tuple(command),
            "model": model,
            "served_model_name": served_model_name,
            "seed": seed,
            "max_model_len": max_model_len,
            "gpu_memory_utilization": engine.gpu_memory_utilization,
            "tensor_parallel_size": engine.tensor_parallel_size,
            "data_parallel_size": engine.data_parallel_size,
            "trust_remote_code": engine.trust_remote_code,
            "extra_args": engine.vllm_extra_args,
            "env": engine.vllm_env,
            "cache_dir": engine.vllm_cache_dir,
            "startup_timeout_s": engine.startup_timeout_s,
            **overrides,
        }
        return cls.model_validate(options)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def log_tail(path: Path, lines: int = 30) -> str:
    """The end of a server log, scrubbed: it becomes an error text, and errors are stored."""
    try:
        return scrub_secrets("\n".join(path.read_text(errors="replace").splitlines()[-lines:]))
    except OSError:
        return "(no log)"


def missing_server(command: Sequence[str], why: str) -> str:
    """The one-line error of a vLLM server command that cannot run here."""
    return (
        f"the vLLM engine cannot start: {why} (engine.vllm_command: {' '.join(command)}). "
        "Run `make vllm-env` to build the CPU vLLM environment .venv-vllm, or set "
        "engine.vllm_command to a vLLM installed here (e.g. [vllm, serve] on a GPU worker), "
        "or choose another engine (--engine hf or openai)"
    )


# Secrets the server itself may need (gated downloads, its own API key); every other secret
# of the caller (judge, teacher, tracking, Airflow) stays out of the server's environment.
SERVER_SECRETS = frozenset({"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "VLLM_API_KEY"})


class VLLMServer:
    """Context manager: ``with VLLMServer(config, run_dir) as server: server.base_url``."""

    def __init__(
        self, config: VLLMServerConfig, run_dir: Path, *, pid_file: Path | None = None
    ) -> None:
        self.config = config
        self.run_dir = run_dir
        self.pid_file = pid_file  # written at once, so a killed caller's server can be found
        self.port = config.port or free_port(config.host)
        self.log_path = run_dir / "vllm.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._previous_sigterm: object = None

    @property
    def base_url(self) -> str:
        return f"http://{self.config.host}:{self.port}/v1"

    def command(self) -> list[str]:
        c = self.config
        args = [
            *c.command,
            *(["--model", c.model] if c.command[-1] != "serve" else [c.model]),
            "--served-model-name",
            c.served_model_name,
            "--host",
            c.host,
            "--port",
            str(self.port),
            "--seed",
            str(c.seed),
            "--max-model-len",
            str(c.max_model_len),
            "--gpu-memory-utilization",
            str(c.gpu_memory_utilization),
            "--tensor-parallel-size",
            str(c.tensor_parallel_size),
            "--data-parallel-size",
            str(c.data_parallel_size),
            "--enable-prefix-caching",
            "--generation-config",
            "vllm",
        ]
        if c.trust_remote_code:
            args.append("--trust-remote-code")
        return args + list(c.extra_args)

    def _environment(self) -> dict[str, str]:
        cache = self.config.cache_dir or self.run_dir / "cache"
        env = {
            name: value
            for name, value in os.environ.items()
            if name in SERVER_SECRETS or not is_secret_env(name)
        }
        env.update(
            {
                "VLLM_CACHE_ROOT": str(cache / "vllm"),
                "TORCHINDUCTOR_CACHE_DIR": str(cache / "torchinductor"),
                "TRITON_CACHE_DIR": str(cache / "triton"),
                "HF_HUB_OFFLINE": env.get("HF_HUB_OFFLINE", "1"),
                "VLLM_NO_USAGE_STATS": "1",
                "DO_NOT_TRACK": "1",
            }
        )
        env.update(self.config.env)
        return env

    def start(self) -> None:
        self.check_installed()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        try:
            self.process = subprocess.Popen(
                self.command(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self._environment(),
                start_new_session=True,  # its own process group: stop() kills the workers too
            )
        except OSError as exc:  # removed or not executable between the check and the start
            raise EngineError(missing_server(self.config.command, str(exc))) from None
        finally:
            log.close()
        if self.pid_file is not None:
            payload = {**owner_record(self.process.pid), "base_url": self.base_url}
            self.pid_file.write_text(json.dumps(payload) + "\n")
        self._install_sigterm_handler()
        try:
            self.wait_healthy()
        except BaseException:
            self.stop()
            raise

    def check_installed(self) -> None:
        """Fail with one line that says how to get vLLM when its command is not there (the
        CPU build's ``.venv-vllm`` is made by ``make vllm-env``, not by ``make setup``)."""
        program = self.config.command[0]
        if "/" in program:
            path = Path(program)
            if not path.is_file():
                raise EngineError(missing_server(self.config.command, f"{path} does not exist"))
            if not os.access(path, os.X_OK):
                raise EngineError(missing_server(self.config.command, f"{path} is not executable"))
        elif shutil.which(program) is None:
            raise EngineError(missing_server(self.config.command, f"{program!r} is not on PATH"))

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + self.config.startup_timeout_s
        url = f"http://{self.config.host}:{self.port}/health"
        while time.monotonic() < deadline:
            self.check_alive()
            with (
                contextlib.suppress(urllib.error.URLError, ConnectionError, TimeoutError),
                urllib.request.urlopen(url, timeout=2) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.5)
        raise EngineError(
            f"vLLM server not healthy after {self.config.startup_timeout_s:.0f} s; "
            f"log {self.log_path}:\n{log_tail(self.log_path)}"
        )

    def check_alive(self) -> None:
        """Raise with the log tail if the server process has exited."""
        if self.process is not None and self.process.poll() is not None:
            raise EngineError(
                f"vLLM server exited with code {self.process.returncode}; "
                f"log {self.log_path}:\n{log_tail(self.log_path)}"
            )

    def stop(self, grace_s: float = 20.0) -> None:
        process, self.process = self.process, None
        self._restore_sigterm_handler()
        if process is None or process.poll() is not None:
            if self.pid_file is not None:
                self.pid_file.unlink(missing_ok=True)
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(grace_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        if self.pid_file is not None:
            self.pid_file.unlink(missing_ok=True)

    def _install_sigterm_handler(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread may set handlers; the context manager still stops

        def on_sigterm(signum: int, frame: FrameType | None) -> None:
            self.stop()
            raise SystemExit(128 + signum)

        self._previous_sigterm = signal.signal(signal.SIGTERM, on_sigterm)

    def _restore_sigterm_handler(self) -> None:
        if self._previous_sigterm is not None and (
            threading.current_thread() is threading.main_thread()
        ):
            signal.signal(signal.SIGTERM, self._previous_sigterm)  # type: ignore[arg-type]
            self._previous_sigterm = None

    def __enter__(self) -> VLLMServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
