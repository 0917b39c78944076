"""A pre-imported parent for the DAG runner processes (tests/dags/dag_runner.py).

Why: every DAG test runs its DAGs in a fresh interpreter with its own Airflow home, and each
such interpreter spent about 5 s of CPU importing torch, transformers, MLflow, sympy and
matplotlib before doing any work (about 20 of them per suite, on two cores). The zygote
imports those libraries once per pytest process; each run is a ``fork()`` of it that sets
the run's environment, working folder and standard streams, then runs ``dag_runner.py`` as
``__main__``, as ``python dag_runner.py ...`` would, and ends the way an interpreter ends
(non-daemon threads joined, ``atexit`` handlers, exit status 1 after a traceback).

What keeps a run the same as in a fresh interpreter:

* Only third-party libraries that read no per-run setting at import are preloaded; Airflow
  (which reads ``AIRFLOW_HOME`` and its config at import) and studybench (the code under
  test) are imported by the run itself, after its environment is set.
* The zygote starts with the environment of its first caller; a run is sent to it only when
  its environment differs from that one in :data:`PER_RUN` variables alone, which none of
  the preloaded libraries reads (``Zygote.serves``); any other run gets a fresh interpreter.
* The zygote forks from its one Python thread, while idle: the native threads the imports
  leave (OpenBLAS servers, pyarrow's jemalloc) wait on a condition then, and both libraries
  re-create their threads in a child (``pthread_atfork``).
* A run's stdout and stderr are files of its own, read back as ``subprocess.run(...,
  capture_output=True, text=True)`` would; its stdin is ``/dev/null``; an uncaught exception
  prints the traceback from ``dag_runner.py`` down, as a fresh interpreter does.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, BinaryIO

# imported once by the zygote: what a DAG process imports that reads no per-run setting
PRELOAD = (
    "numpy",
    "pandas",
    "scipy",
    "sympy",
    "pint",
    "latex2sympy2_extended",
    "torch",
    "transformers",
    "transformers.modeling_utils",
    "transformers.generation",
    "transformers.models.qwen3.modeling_qwen3",  # the tiny test model (tests/conftest.py)
    "mlflow",
    "mlflow.tracking",
    "mlflow.store.tracking.sqlalchemy_store",
    "matplotlib.pyplot",
    "sqlalchemy",
    "fastapi",
    "cadwyn",
)
# environment variables a run may set differently from the zygote's own environment:
# Airflow's and studybench's settings, the tests' own secrets and pytest's name of the
# running test, none of them read by a preloaded library
PER_RUN = ("AIRFLOW_", "STUDYBENCH_", "TEST_", "PYTEST_CURRENT_TEST")


class Zygote:
    """The client side: one zygote process, started on first use, serving one run at a time."""

    def __init__(self, script: Path, env: dict[str, str]) -> None:
        self.script = script
        self.env = dict(env)
        self._lock = threading.Lock()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (the zygote's; close() ends it)
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=self.env,
            cwd=script.parent,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._requests = self.process.stdin
        self._replies = self.process.stdout
        self._ready = False

    def serves(self, env: dict[str, str]) -> bool:
        """Whether a run with ``env`` may be forked from this zygote (see the module's doc)."""
        keys = set(env) | set(self.env)
        changed = [k for k in keys if env.get(k) != self.env.get(k)]
        return all(k.startswith(PER_RUN) for k in changed)

    def _reply(self, timeout: float | None) -> dict[str, Any] | None:
        """The zygote's next reply line; None after ``timeout`` seconds without one."""
        if timeout is not None:
            ready, _, _ = select.select([self._replies], [], [], max(0.0, timeout))
            if not ready:
                return None
        line = self._replies.readline()
        if not line:
            self._log.seek(0)
            log = self._log.read().decode(errors="replace")[-5000:]
            raise RuntimeError(f"the DAG runner zygote exited ({self.process.wait()}):\n{log}")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def run(
        self, args: list[str], cwd: Path, env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """``subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
        timeout=timeout)`` for ``args`` = [python, this zygote's script, *arguments]."""
        assert args[1] == str(self.script) and self.serves(env)
        with self._lock, tempfile.TemporaryDirectory(prefix="dag-run-") as folder:
            if not self._ready:  # the preload: as long as the first run's own imports
                self._ready = self._reply(None) == {"ready": True}
            out, err = Path(folder, "stdout"), Path(folder, "stderr")
            request = {"argv": args[1:], "cwd": str(cwd), "env": env}
            request |= {"stdout": str(out), "stderr": str(err)}
            self._requests.write(json.dumps(request).encode() + b"\n")
            self._requests.flush()
            started = self._reply(None)
            assert started is not None
            done = self._reply(timeout)
            if done is None:  # as subprocess.run does: kill, collect, raise
                os.kill(started["pid"], 9)
                self._reply(None)
                raise subprocess.TimeoutExpired(args, timeout, out.read_text(), err.read_text())
            return subprocess.CompletedProcess(
                args, done["returncode"], out.read_text(), err.read_text()
            )

    def close(self) -> None:
        """End the zygote (it exits when its requests end)."""
        self._requests.close()
        self.process.wait(30)
        self._log.close()


def _run_child(request: dict[str, Any], requests: BinaryIO, replies: int) -> None:
    """In the forked child: become ``python <argv>`` with the request's environment, folder
    and standard streams, and run the script as ``__main__``."""
    import runpy

    requests.close()
    os.close(replies)
    stdin = os.open(os.devnull, os.O_RDONLY)
    stdout = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    stderr = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    script = request["argv"][0]
    sys.argv = list(request["argv"])
    sys.path[0] = str(Path(script).resolve().parent)
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as exc:  # the traceback a fresh interpreter prints: the script's
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
        sys.excepthook(type(exc), exc, tb or exc.__traceback__)
        sys.exit(1)


def serve() -> None:
    """The zygote: preload, then fork one child per request line on stdin; reply with the
    child's pid, then its exit status (``returncode`` as ``subprocess`` gives it)."""
    import gc
    import importlib

    requests, replies = os.fdopen(os.dup(0), "rb"), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # whatever the imports print goes to the zygote's log, not the protocol
    for name in PRELOAD:
        importlib.import_module(name)
    assert "airflow" not in sys.modules and "studybench" not in sys.modules
    assert threading.active_count() == 1, threading.enumerate()
    # the preloaded objects live as long as a run: its garbage collections need not scan
    # them (each full collection did, and wrote to every page of them, copying it)
    gc.collect()
    gc.freeze()

    def reply(message: dict[str, Any]) -> None:
        os.write(replies, json.dumps(message).encode() + b"\n")

    reply({"ready": True})
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _run_child(request, requests, replies)
            return  # the child ends as an interpreter ends
        reply({"pid": pid})
        _, status = os.waitpid(pid, 0)
        reply({"returncode": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    serve()
