"""Total caps per sandbox job with Linux control groups: processes and memory of the whole job.

Per-process rlimits cannot bound a job that forks (400 children of 1 GB each are within every
per-process limit). A control group can: ``pids.max`` caps the number of tasks (processes and
threads) of the job, and the memory limit caps what all of them hold together (page cache and
the private ``/tmp`` tmpfs included); the kernel's OOM killer acts inside the group only.

Both cgroup hierarchies are supported, because hosts differ: the unified v2 hierarchy
(``/sys/fs/cgroup`` of type cgroup2 with the ``pids`` and ``memory`` controllers) and the v1
``pids`` and ``memory`` hierarchies. A job's group is created below the cgroup this process
is in, which needs write access there (root, or a delegated subtree). :func:`probe` says
whether it works here; where it does not, :mod:`.sandbox` falls back to rlimits and says so.
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


def _own_paths() -> dict[str, str]:
    """``{controller or '' (v2): path}`` from ``/proc/self/cgroup``."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                out[name] = path
    return out


def _is_cgroup2(path: Path) -> bool:
    return (path / "cgroup.controllers").is_file() and not (path / "tasks").exists()


@dataclass
class JobGroup:
    """The control group(s) of one job: where to put the first process, how to end it."""

    dirs: list[Path]
    version: int
    procs_files: list[Path] = field(default_factory=list)

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the job for the memory cap."""
        for directory in self.dirs:
            for name in ("memory.events", "memory.oom_control"):
                with contextlib.suppress(OSError, ValueError):
                    for line in (directory / name).read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill" and int(value) > 0:
                            return True
        return False

    def pids_exhausted(self) -> bool:
        """Whether a fork of the job was refused by the process cap."""
        for directory in self.dirs:
            with contextlib.suppress(OSError, ValueError):
                for line in (directory / "pids.events").read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "max" and int(value) > 0:
                        return True
        return False

    def _read_int(self, *names: str) -> int | None:
        for directory in self.dirs:
            for name in names:
                with contextlib.suppress(OSError, ValueError):
                    return int((directory / name).read_text().split()[0])
        return None

    def peak_processes(self) -> int | None:
        """The most tasks the job had at once, where the kernel reports it."""
        return self._read_int("pids.peak")

    def peak_memory(self) -> int | None:
        """The most memory (bytes) the job held at once, where the kernel reports it."""
        return self._read_int("memory.peak", "memory.max_usage_in_bytes")

    def kill_all(self) -> None:
        """SIGKILL every process left in the job's groups (cgroup.kill on v2)."""
        for directory in self.dirs:
            kill = directory / "cgroup.kill"
            if kill.is_file():
                with contextlib.suppress(OSError):
                    kill.write_text("1")
                continue
            for _ in range(50):
                try:
                    pids = [int(p) for p in (directory / "cgroup.procs").read_text().split()]
                except OSError:
                    break
                if not pids:
                    break
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.02)

    def remove(self) -> None:
        self.kill_all()
        for directory in self.dirs:
            for _ in range(100):
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # still busy while the last processes exit
                    time.sleep(0.02)


def _make(parent: Path, limits: dict[str, str]) -> Path:
    directory = parent / f"sebench-{os.getpid()}-{secrets.token_hex(4)}"
    directory.mkdir()
    try:
        for name, value in limits.items():
            (directory / name).write_text(value)
    except OSError:
        directory.rmdir()
        raise
    return directory


def _v2_parent() -> Path | None:
    if not _is_cgroup2(ROOT):
        return None
    own = ROOT / _own_paths().get("", "/").lstrip("/")
    for parent in (own, own.parent):
        controllers = set((parent / "cgroup.controllers").read_text().split())
        if {"pids", "memory"} <= controllers:
            enabled = set((parent / "cgroup.subtree_control").read_text().split())
            if not {"pids", "memory"} <= enabled:
                with contextlib.suppress(OSError):
                    (parent / "cgroup.subtree_control").write_text("+pids +memory")
            return parent
    return None


def create(processes: int, memory_bytes: int) -> JobGroup:
    """A new group capping the job at ``processes`` tasks and ``memory_bytes``; ``OSError``
    when this host does not let this process create one."""
    parent = _v2_parent()
    if parent is not None:
        directory = _make(
            parent,
            {"pids.max": str(processes), "memory.max": str(memory_bytes), "memory.swap.max": "0"}
            if (parent / "memory.swap.max").exists()
            else {"pids.max": str(processes), "memory.max": str(memory_bytes)},
        )
        return JobGroup([directory], 2, [directory / "cgroup.procs"])
    own = _own_paths()
    pids_parent = ROOT / "pids" / own.get("pids", "/").lstrip("/")
    memory_parent = ROOT / "memory" / own.get("memory", "/").lstrip("/")
    if not (pids_parent / "pids.max").exists() and not (ROOT / "pids" / "tasks").exists():
        raise OSError("no cgroup v2 with pids+memory and no cgroup v1 pids hierarchy")
    pids = _make(pids_parent, {"pids.max": str(processes)})
    try:
        memory_limits = {"memory.limit_in_bytes": str(memory_bytes)}
        if (memory_parent / "memory.memsw.limit_in_bytes").exists():
            memory_limits["memory.memsw.limit_in_bytes"] = str(memory_bytes)
        memory = _make(memory_parent, memory_limits)
    except OSError:
        pids.rmdir()
        raise
    return JobGroup([pids, memory], 1, [pids / "cgroup.procs", memory / "cgroup.procs"])


@contextlib.contextmanager
def job_group(processes: int, memory_bytes: int) -> Iterator[JobGroup]:
    group = create(processes, memory_bytes)
    try:
        yield group
    finally:
        group.remove()


@functools.cache
def probe() -> str:
    """``""`` when job groups work here, else why not (cached for the process)."""
    try:
        create(8, 64 * 1024 * 1024).remove()
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""
