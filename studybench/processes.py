"""Stopping a process group and everything in it (vLLM servers, a local Airflow).

Servers are started in their own session (``start_new_session=True``), so their workers
share the leader's process group; stopping the group stops them all, whoever started it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path


def group_alive(pgid: int) -> bool:
    """Whether the process group has a member that still runs. Exited members not yet
    reaped (zombies) do not count, so a parent that has not waited for its child yet does
    not keep the group alive, while workers that outlive their leader do."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def stop_group(pgid: int, grace_s: float = 20.0) -> bool:
    """SIGTERM the group, wait up to ``grace_s`` for it to go, then SIGKILL what is left.
    False when no such group existed (or it is not ours to signal)."""
    try:
        os.killpg(pgid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return False
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and group_alive(pgid):
        time.sleep(0.2)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)  # members that outlived their leader, if any
    return True


def start_ticks(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (``/proc/<pid>/stat`` field 22),
    or None where it cannot be read. With the host name, it tells a recorded server from an
    unrelated process that later got the same id."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def owner_record(pid: int) -> dict[str, object]:
    """What identifies a process we started, for a pid file: id, host, start time."""
    import socket

    return {"pid": pid, "host": socket.gethostname(), "start_ticks": start_ticks(pid)}


def recorded_process_state(record: dict[str, object]) -> str:
    """Whether ``record`` (from :func:`owner_record`) still names that very process:
    ``"ours"``; ``"other-host"`` (started on another machine: not ours to signal, and the
    record is not stale there); ``"gone"`` (no such process, or another process now has the
    id). Records without host or start time (older files) are taken at their word."""
    import socket

    pid = record.get("pid")
    if not isinstance(pid, int):
        return "gone"
    host = record.get("host")
    if host and host != socket.gethostname():
        return "other-host"
    ticks = record.get("start_ticks")
    if isinstance(ticks, int) and start_ticks(pid) != ticks:
        return "gone"
    return "ours"
