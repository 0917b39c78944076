"""Running untrusted code in a bubblewrap sandbox with hard limits.

What a run can see and do (each point is tested in ``tests/benchmarks/sebench``):

* **Files**: nothing of the host but what the interpreter needs, read-only: the Python
  binary, its standard library (its ``site-packages`` hidden under an empty tmpfs), the
  shared libraries the interpreter and NumPy link against, NumPy itself (at
  ``/opt/sebench/site``), the generated package (``/opt/sebench/pkg``) and the job folder
  (``/tmp/job``). No ``/etc``, no ``/home``, no ``/run``, no ``/var``, no project tree, no
  host socket file. ``/tmp`` is a private tmpfs capped at ``tmp_mb``; the root is read-only.
* **Environment and processes**: bubblewrap is started with an *empty* environment (so its
  own PID 1 in the new PID namespace, and every ``/proc/*/environ`` inside, holds no host
  variable); the program gets only ``HOME``, ``PATH`` and thread settings. Fresh network,
  PID, IPC, UTS, cgroup and user namespaces (``--unshare-all``: no network, not even
  loopback; no abstract Unix socket of the host), no capabilities, a new session.
* **Limits**: per process, by ``prlimit`` before bubblewrap starts: CPU seconds, address
  space, file size (which also caps the report), no core files. Per job, by a control group
  (:mod:`.cgroups`) where the host allows one: processes and threads (``processes``) and the
  memory of all of them together (``total_memory_mb``, tmpfs pages included). Where it does
  not (``cgroups: auto`` on a host without a writable hierarchy), the process cap falls back
  to ``RLIMIT_NPROC`` (not enforced for root: the kernel exempts it) and total memory is only
  bounded by processes × per-process memory; ``cgroups: required`` refuses to run instead.
  A wall-clock timeout kills the whole group; ``--die-with-parent`` takes the sandbox down
  with the judge.

Only the process's stdout comes back, read from a file as bytes and capped; the caller parses
it as data. There is no fallback to running code unsandboxed: without ``bwrap`` a
:class:`SandboxError` says how to install it (``make sandbox``).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

import studybench.benchmarks.sebench.cgroups as cgroups
from studybench.benchmarks.sebench.settings import SandboxLimits
from studybench.errors import StudyBenchError

SITE_INSIDE = "/opt/sebench/site"
PACKAGE_INSIDE = "/opt/sebench/pkg"
JOB_INSIDE = "/tmp/job"
WORK_INSIDE = "/tmp/work"

Status = Literal["ok", "error", "timeout", "memory", "output_limit"]


class SandboxError(StudyBenchError):
    """The sandbox itself cannot run (bubblewrap missing or refused)."""


class SandboxResult(BaseModel):
    status: Status
    returncode: int | None
    stdout: bytes
    stderr: str
    wall_s: float
    caps: str = Field("", description="how the job's totals were capped: cgroup v1/v2, rlimit")
    peak_processes: int | None = Field(None, description="most tasks at once (cgroup only)")
    peak_memory_mb: float | None = Field(None, description="most memory at once (cgroup only)")


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise SandboxError(
            f"{name} not found: the SE-Bench sandbox needs bubblewrap and prlimit "
            "(Debian: `make sandbox`, i.e. apt-get install bubblewrap util-linux)"
        )
    return path


def _resolvable(path: Path) -> tuple[list[str], Path]:
    """bwrap ``--symlink`` arguments recreating every symbolic link on the way to ``path``
    (``/lib64`` → ``usr/lib64``, then the loader's own link), and the real file it reaches,
    so that a host path resolves inside exactly as outside."""
    args: list[str] = []
    for _ in range(40):  # a link chain longer than the kernel's limit does not resolve anyway
        parts = path.parts
        for i in range(2, len(parts) + 1):
            current = Path(*parts[:i])
            if current.is_symlink():
                target = str(current.readlink())
                args += ["--symlink", target, str(current)]
                path = Path(os.path.normpath(current.parent / target)).joinpath(*parts[i:])
                break
        else:
            return args, path
    return args, path


def _linked_libraries(files: list[str]) -> set[str]:
    """The shared libraries ``files`` load (by ``ldd``; empty when ldd is missing)."""
    ldd = shutil.which("ldd")
    if ldd is None or not files:
        return set()
    found: set[str] = set()
    for start in range(0, len(files), 64):
        done = subprocess.run(
            [ldd, *files[start : start + 64]], capture_output=True, text=True, check=False
        )
        found |= set(re.findall(r"(/\S+) \(0x", done.stdout))
    return found


def interpreter_path() -> str:
    """The real Python binary of this environment (not a virtualenv's symlink)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidate = Path(sys.base_prefix) / "bin" / version
    return str(candidate if candidate.is_file() else Path(sys.executable).resolve())


@functools.cache
def runtime_binds(interpreter: str) -> tuple[str, ...]:
    """The bwrap arguments that make ``interpreter`` and NumPy run inside, and nothing more."""
    real = Path(interpreter).resolve()
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        raise SandboxError("numpy is not installed: the SE-Bench package wraps it")
    numpy_dir = Path(next(iter(spec.submodule_search_locations))).resolve()
    numpy_libs = numpy_dir.parent / "numpy.libs"
    links, _ = _resolvable(Path(interpreter))
    args: list[str] = ["--ro-bind", str(real), str(real)]
    args += ["--ro-bind", str(stdlib), str(stdlib)]
    for site in (stdlib / "site-packages", stdlib / "dist-packages"):
        if site.is_dir():
            args += ["--tmpfs", str(site)]
    libpython = {str(p.resolve()) for p in (Path(sys.base_prefix) / "lib").glob("libpython*")}
    for lib in sorted(libpython):  # the files only: their folder also holds site-packages
        args += ["--ro-bind", lib, lib]
    shared = [str(real), *(str(p) for p in numpy_dir.rglob("*.so"))]
    folders: set[str] = set()
    for lib in sorted(_linked_libraries(shared)):
        chain, target = _resolvable(Path(lib))
        links += chain
        real_lib = str(target.resolve())
        if real_lib not in libpython and not real_lib.startswith(str(numpy_libs)):
            folders.add(str(Path(real_lib).parent))
    if not folders:  # no ldd: the usual library folders
        folders = {d for d in ("/lib", "/lib64", "/usr/lib", "/usr/lib64") if Path(d).is_dir()}
    for folder in sorted(folders):
        args += ["--ro-bind", folder, folder]
    made: set[str] = set()
    for i in range(0, len(links), 3):  # each link once, unless a bound folder has it already
        where = links[i + 2]
        if where not in made and not any(Path(where).is_relative_to(f) for f in folders):
            made.add(where)
            args += links[i : i + 3]
    args += ["--ro-bind", str(numpy_dir), f"{SITE_INSIDE}/numpy"]
    if numpy_libs.is_dir():
        args += ["--ro-bind", str(numpy_libs), f"{SITE_INSIDE}/numpy.libs"]
    return tuple(args)


def sandbox_command(
    argv: list[str],
    binds: Mapping[Path, str],
    limits: SandboxLimits,
    interpreter: str,
    nproc: int | None = None,
) -> list[str]:
    """The full command line: prlimit, then bwrap, then ``argv`` inside."""
    command = [
        _tool("prlimit"),
        f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}",  # SIGXCPU first, SIGKILL a second later
        f"--as={limits.memory_mb * 1024 * 1024}",
        f"--fsize={limits.output_kb * 1024}",
        "--core=0",
    ]
    if nproc is not None:
        command.append(f"--nproc={nproc}")
    command += [
        "--",
        _tool("bwrap"),
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop", "ALL",
        "--clearenv",
        "--setenv", "PATH", "/nonexistent",
        "--setenv", "HOME", WORK_INSIDE,
        "--setenv", "OPENBLAS_NUM_THREADS", "1",
        "--setenv", "OMP_NUM_THREADS", "1",
        "--setenv", "MKL_NUM_THREADS", "1",
        "--dev", "/dev",
        "--proc", "/proc",
        "--size", str(limits.tmp_mb * 1024 * 1024), "--tmpfs", "/tmp",
        "--dir", WORK_INSIDE,
        *runtime_binds(interpreter),
    ]  # fmt: skip
    for host, inside in binds.items():
        command += ["--ro-bind", str(host), inside]
    command += ["--remount-ro", "/", "--chdir", WORK_INSIDE, "--", *argv]
    return command


def _status(returncode: int, timed_out: bool, stderr: str) -> Status:
    """Classify how the process ended. bwrap reports a child killed by signal N as 128+N."""
    if timed_out:
        return "timeout"
    signals = {returncode, -returncode, returncode - 128}
    if signal.SIGXCPU in signals:
        return "timeout"
    if signal.SIGXFSZ in signals or "[Errno 27]" in stderr:  # Python ignores SIGXFSZ
        return "output_limit"
    if "MemoryError" in stderr or "Cannot allocate memory" in stderr:
        return "memory"
    if signal.SIGKILL in signals:
        return "timeout"
    return "ok" if returncode == 0 else "error"


def _own_processes() -> int:
    """How many processes this user has now (``RLIMIT_NPROC`` counts them all)."""
    uid = os.getuid()
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                count += entry.stat().st_uid == uid
    return count


@contextlib.contextmanager
def _job_caps(limits: SandboxLimits) -> Iterator[tuple[cgroups.JobGroup | None, str]]:
    """The job's control group (or ``None``) and a word on how totals are capped."""
    why = "off" if limits.cgroups == "off" else cgroups.probe()
    if why:
        if limits.cgroups == "required":
            raise SandboxError(f"sebench.cgroups is 'required' but no job group here: {why}")
        yield None, "rlimit"
        return
    with cgroups.job_group(limits.processes, limits.total_memory_mb * 1024 * 1024) as group:
        yield group, f"cgroup v{group.version}"


def run_python(
    files: Mapping[str, str],
    limits: SandboxLimits,
    *,
    main: str = "main.py",
    binds: Mapping[Path, str] | None = None,
    python: str | None = None,
) -> SandboxResult:
    """Write ``files`` into a fresh job folder (bound read-only at ``/tmp/job``) and run
    ``python -I -S /tmp/job/<main>`` in the sandbox."""
    interpreter = python or interpreter_path()
    with tempfile.TemporaryDirectory(prefix="sebench-job-") as tmp, _job_caps(limits) as caps:
        group, how = caps
        job = Path(tmp) / "job"
        job.mkdir()
        for name, text in files.items():
            (job / name).write_text(text, encoding="utf-8")
        argv = [interpreter, "-I", "-S", "-B", f"{JOB_INSIDE}/{main}"]
        nproc = (
            None if group is not None or os.getuid() == 0 else _own_processes() + limits.processes
        )
        command = sandbox_command(
            argv, {job: JOB_INSIDE, **(binds or {})}, limits, interpreter, nproc
        )
        if group is not None:  # the first process joins the group, then becomes prlimit
            joins = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift'
            procs = [str(p) for p in group.procs_files]
            command = [
                _tool("sh"), "-c", f'{joins}; exec "$0" -i "$@"', _tool("env"), *procs, "--",
                *command,
            ]  # fmt: skip
        stdout_path, stderr_path = Path(tmp) / "stdout", Path(tmp) / "stderr"
        started = time.monotonic()
        with stdout_path.open("wb") as out, stderr_path.open("wb") as err:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                start_new_session=True,
                env={},  # bwrap and its PID 1 inside carry no host variable
            )
            timed_out = False
            try:
                process.wait(timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        wall = time.monotonic() - started
        oom = group is not None and group.oom_killed()
        peak_processes = group.peak_processes() if group is not None else None
        peak_memory = group.peak_memory() if group is not None else None
        cap = limits.output_kb * 1024
        with stdout_path.open("rb") as handle:
            stdout = handle.read(cap)
        stderr = stderr_path.read_bytes()[-4000:].decode("utf-8", "replace")
    if process.returncode == 125 and group is not None and not stderr.strip():
        raise SandboxError("could not put the sandbox into its control group")
    if process.returncode != 0 and "bwrap:" in stderr and "Traceback" not in stderr:
        raise SandboxError(f"bubblewrap refused to start the sandbox: {stderr.strip()[-500:]}")
    status = "memory" if oom and not timed_out else _status(process.returncode, timed_out, stderr)
    return SandboxResult(
        status=status,
        returncode=process.returncode,
        stdout=stdout,
        stderr=stderr,
        wall_s=wall,
        caps=how,
        peak_processes=peak_processes,
        peak_memory_mb=None if peak_memory is None else peak_memory / 2**20,
    )
