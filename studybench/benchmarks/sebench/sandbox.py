"""Running untrusted code in a bubblewrap sandbox with hard limits.

Every run gets: a read-only view of the root file system, a private ``/tmp`` (tmpfs; the job
folder and the package are bound read-only below it), fresh namespaces for network, PIDs,
IPC, UTS, cgroups and users (``--unshare-all``: no network at all), no capabilities, a
cleared environment, and resource limits set by ``prlimit`` before bubblewrap starts, so they
hold for every process inside: CPU seconds, address space (memory), file size (which also
caps what the program can write to its report), no core files. A wall-clock timeout kills
the whole process group; ``--die-with-parent`` takes the sandbox down with it.

Only the process's stdout comes back, read from a file as bytes and capped; callers parse it
as JSON. There is no fallback to running code unsandboxed: without ``bwrap`` a
:class:`SandboxError` says how to install it (``make sandbox``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from studybench.errors import StudyBenchError

Status = Literal["ok", "error", "timeout", "memory", "output_limit"]


class SandboxError(StudyBenchError):
    """The sandbox itself cannot run (bubblewrap missing or refused)."""


class SandboxLimits(BaseModel):
    cpu_s: int = Field(5, ge=1, description="CPU seconds per process")
    wall_s: float = Field(15.0, gt=0, description="wall clock for the whole run")
    memory_mb: int = Field(1024, ge=64, description="address space per process")
    output_kb: int = Field(1024, ge=1, description="largest file (and report) it may write")


class SandboxResult(BaseModel):
    status: Status
    returncode: int | None
    stdout: bytes
    stderr: str
    wall_s: float


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise SandboxError(
            f"{name} not found: the SE-Bench sandbox needs bubblewrap and prlimit "
            "(Debian: `make sandbox`, i.e. apt-get install bubblewrap util-linux)"
        )
    return path


def sandbox_command(argv: list[str], binds: Mapping[Path, str], limits: SandboxLimits) -> list[str]:
    """The full command line: prlimit, then bwrap, then ``argv`` inside."""
    command = [
        _tool("prlimit"),
        f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}",  # SIGXCPU first, SIGKILL a second later
        f"--as={limits.memory_mb * 1024 * 1024}",
        f"--fsize={limits.output_kb * 1024}",
        "--core=0",
        "--",
        _tool("bwrap"),
        "--ro-bind", "/", "/",
        "--tmpfs", "/tmp",
        "--dev", "/dev",
        "--proc", "/proc",
        "--dir", "/tmp/work",
    ]  # fmt: skip
    for host, inside in binds.items():
        command += ["--ro-bind", str(host), inside]
    command += [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop", "ALL",
        "--clearenv",
        "--setenv", "PATH", "/usr/bin:/bin",
        "--setenv", "HOME", "/tmp/work",
        "--setenv", "OPENBLAS_NUM_THREADS", "1",
        "--setenv", "OMP_NUM_THREADS", "1",
        "--setenv", "MKL_NUM_THREADS", "1",
        "--chdir", "/tmp/work",
        "--",
        *argv,
    ]  # fmt: skip
    return command


def _status(returncode: int, timed_out: bool, stderr: str) -> Status:
    """Classify how the process ended. bwrap reports a child killed by signal N as 128+N."""
    if timed_out:
        return "timeout"
    signals = {returncode, -returncode, returncode - 128}
    if signal.SIGXCPU in signals or signal.SIGKILL in signals:
        return "timeout"
    if signal.SIGXFSZ in signals or "[Errno 27]" in stderr:  # Python ignores SIGXFSZ
        return "output_limit"
    if "MemoryError" in stderr or "Cannot allocate memory" in stderr:
        return "memory"
    return "ok" if returncode == 0 else "error"


def _interpreter_binds(interpreter: str) -> dict[Path, str]:
    """The interpreter's environment where the private ``/tmp`` would hide it (a checkout
    or virtual environment under ``/tmp``, as a CI clone may be), bound read-only at the
    same path so the same Python with the same packages runs inside."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(interpreter).absolute().parent.parent}
    return {
        root: str(root) for root in sorted(roots) if root.is_relative_to("/tmp") and root.exists()
    }


def run_python(
    files: Mapping[str, str],
    limits: SandboxLimits,
    *,
    main: str = "main.py",
    binds: Mapping[Path, str] | None = None,
    python: str | None = None,
) -> SandboxResult:
    """Write ``files`` into a fresh job folder (bound read-only at ``/tmp/job``) and run
    ``python /tmp/job/<main>`` in the sandbox."""
    interpreter = python or sys.executable
    with tempfile.TemporaryDirectory(prefix="sebench-job-") as tmp:
        job = Path(tmp) / "job"
        job.mkdir()
        for name, text in files.items():
            (job / name).write_text(text, encoding="utf-8")
        all_binds = {job: "/tmp/job", **_interpreter_binds(interpreter), **(binds or {})}
        argv = [interpreter, "-E", "-s", "-B", f"/tmp/job/{main}"]
        command = sandbox_command(argv, all_binds, limits)
        stdout_path, stderr_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        started = time.monotonic()
        with stdout_path.open("wb") as out, stderr_path.open("wb") as err:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True
            )
            timed_out = False
            try:
                process.wait(timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        wall = time.monotonic() - started
        cap = limits.output_kb * 1024
        stdout = stdout_path.read_bytes()[:cap]
        stderr = stderr_path.read_bytes()[-4000:].decode("utf-8", "replace")
    if process.returncode != 0 and "bwrap:" in stderr and "Traceback" not in stderr:
        raise SandboxError(f"bubblewrap refused to start the sandbox: {stderr.strip()[-500:]}")
    return SandboxResult(
        status=_status(process.returncode, timed_out, stderr),
        returncode=process.returncode,
        stdout=stdout,
        stderr=stderr,
        wall_s=wall,
    )
