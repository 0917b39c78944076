"""Attacks on the SE-Bench sandbox, one class per test, each planted for real: host
environment through ``/proc``, host files, host Unix sockets, resource exhaustion of the
whole job. Every test asserts that nothing leaks, the run ends with a status and the host
is unharmed."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studybench.benchmarks.sebench.sandbox import run_python
from studybench.benchmarks.sebench.settings import SandboxLimits
from tests.conftest import ROOT

LIMITS = SandboxLimits(cpu_s=2, wall_s=8, memory_mb=512, output_kb=256)
ALLOWED_VARIABLES = {"PATH", "HOME", "PWD", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                     "MKL_NUM_THREADS"}  # fmt: skip


def _run(code: str, limits: SandboxLimits = LIMITS) -> tuple[str, str]:
    result = run_python({"main.py": code}, limits)
    return result.stdout.decode(errors="replace"), result.status


def test_no_host_variable_in_any_environ_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    planted = f"sk-planted-{time.time_ns()}-abcdefghijklmnop"
    monkeypatch.setenv("SEBENCH_PLANTED_API_KEY", planted)
    code = (
        "import os\n"
        "pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "print('PIDS', len(pids))\n"
        "print('PID1', open('/proc/1/cmdline', 'rb').read().split(b'\\0')[0].decode())\n"
        "for pid in pids:\n"
        "    for item in open(f'/proc/{pid}/environ', 'rb').read().split(b'\\0'):\n"
        "        if item:\n"
        "            print('ENV', pid, item.decode(errors='replace'))\n"
        "for name, value in os.environ.items():\n"
        "    print('OWN', name, value)\n"
    )
    out, status = _run(code)
    assert status == "ok", out
    assert planted not in out and "SEBENCH_PLANTED_API_KEY" not in out
    names = {line.split()[2].split("=")[0] for line in out.splitlines() if line.startswith("ENV")}
    names |= {line.split()[1] for line in out.splitlines() if line.startswith("OWN")}
    assert names and names <= ALLOWED_VARIABLES, names
    # its own PID namespace: a handful of processes, PID 1 is the sandbox's, not the host's
    pids = int(next(line.split()[1] for line in out.splitlines() if line.startswith("PIDS")))
    assert pids <= 3 and str(os.getpid()) not in out.split("PID1")[0]
    assert "bwrap" in next(line for line in out.splitlines() if line.startswith("PID1"))


@pytest.fixture
def planted_files(tmp_path: Path) -> Iterator[list[Path]]:
    """A canary in the host's home and a fake secrets folder under /run (root only)."""
    stamp = time.time_ns()
    home_canary = Path.home() / f".sebench-canary-{stamp}"
    home_canary.write_text("host home data")
    run_secret = Path("/run") / f"sebench-secrets-{stamp}" / "token"
    planted = [home_canary]
    try:
        run_secret.parent.mkdir()
        run_secret.write_text("secret")
        planted.append(run_secret)
    except OSError:
        pass
    yield planted
    home_canary.unlink()
    if run_secret.exists():
        run_secret.unlink()
        run_secret.parent.rmdir()


def test_host_files_are_absent(planted_files: list[Path]) -> None:
    probes = [
        "/etc/passwd", "/etc/shadow", "/etc", "/run", "/var", "/home", "/usr/bin", "/bin/sh",
        str(ROOT), str(ROOT / "pyproject.toml"), str(ROOT / ".venv"), *map(str, planted_files),
    ]  # fmt: skip
    code = (
        "import os, sys\n"
        f"for path in {probes!r}:\n"
        "    print('EXISTS' if os.path.exists(path) else 'ABSENT', path)\n"
        f"print('HOME', sorted(os.listdir({str(Path.home())!r})) "
        f"if os.path.isdir({str(Path.home())!r}) else [])\n"
        "for module in ('studybench', 'mlflow', 'airflow', 'pydantic'):\n"
        "    try:\n"
        "        __import__(module)\n"
        "        print('IMPORTED', module)\n"
        "    except ImportError:\n"
        "        print('NOMODULE', module)\n"
        "sys.path.insert(0, '/opt/sebench/site')\n"
        "import numpy\n"
        "print('NUMPY', numpy.ones(2).sum())\n"
    )
    out, status = _run(code)
    assert status == "ok", out
    assert "EXISTS" not in out and out.count("ABSENT") == len(probes)
    assert "IMPORTED" not in out and out.count("NOMODULE") == 4
    assert "NUMPY 2.0" in out  # what the interpreter needs is there
    home = next(line for line in out.splitlines() if line.startswith("HOME"))
    assert all(p.name not in home for p in planted_files)


def _unix_listener(address: str | bytes) -> tuple[socket.socket, list[bytes]]:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(address)
    server.listen()
    server.settimeout(0.2)
    received: list[bytes] = []

    def serve() -> None:
        while server.fileno() != -1:
            try:
                conn, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                received.append(conn.recv(100) or b"(connected)")
                conn.sendall(b"pong")

    threading.Thread(target=serve, daemon=True).start()
    return server, received


def test_host_unix_sockets_are_unreachable(tmp_path: Path) -> None:
    stamp = time.time_ns()
    paths = [f"/var/tmp/sebench-{stamp}.sock", f"/tmp/sebench-{stamp}.sock"]
    abstract = f"\0sebench-{stamp}".encode()
    listeners = [_unix_listener(p) for p in paths] + [_unix_listener(abstract)]
    try:
        code = (
            "import socket\n"
            f"for address in {[*paths, abstract]!r}:\n"
            "    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
            "    try:\n"
            "        s.connect(address)\n"
            "        s.sendall(b'ping')\n"
            "        print('REACHED', address, s.recv(10))\n"
            "    except OSError as exc:\n"
            "        print('REFUSED', type(exc).__name__)\n"
        )
        out, status = _run(code)
        time.sleep(0.3)
    finally:
        for server, _ in listeners:
            server.close()
        for path in paths:
            Path(path).unlink(missing_ok=True)
    assert status == "ok", out
    assert "REACHED" not in out and out.count("REFUSED") == 3
    assert all(received == [] for _, received in listeners)


def _job_main() -> str:
    """A program name of this test's own (``main-<pid>-<ns>.py``), so the leftover scan below
    sees only this job's processes, not those of a sandboxed job that another pytest worker
    (``pytest -n``) or session runs at the same time."""
    return f"main-{os.getpid()}-{time.time_ns()}.py"


def _leftover_jobs(main: str) -> list[str]:
    """Host processes still running the sandboxed program ``/tmp/job/<main>``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if f"/tmp/job/{main}".encode() in cmdline:
                found.append(entry.name)
    return found


CAPS = SandboxLimits(
    cpu_s=2, wall_s=6, memory_mb=512, output_kb=1024, processes=16, total_memory_mb=384, tmp_mb=16
)


def test_fork_bomb_is_capped_and_cleaned_up() -> None:
    code = (
        "import os, time\n"
        "children = 0\n"
        "started = time.monotonic()\n"
        "while time.monotonic() - started < 3:\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(30)\n"
        "            os._exit(0)\n"
        "        children += 1\n"
        "    except OSError:\n"
        "        time.sleep(0.01)\n"
        "print('CHILDREN', children, flush=True)\n"
    )
    started = time.monotonic()
    main = _job_main()
    result = run_python({main: code}, CAPS, main=main)
    assert time.monotonic() - started < CAPS.wall_s + 10
    assert result.status in ("ok", "timeout", "error")
    if result.caps.startswith("cgroup"):
        out = result.stdout.decode()
        assert out.startswith("CHILDREN") and int(out.split()[1]) < CAPS.processes, out
        assert result.peak_processes is not None and result.peak_processes <= CAPS.processes
    deadline = time.monotonic() + 5
    while _leftover_jobs(main) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _leftover_jobs(main) == []


def test_memory_bomb_across_children_is_capped() -> None:
    """Six children of 200 MB each stay under the per-process limit (512 MB) but not under
    the job's total (384 MB)."""
    code = (
        "import os, time\n"
        "pids = []\n"
        "for _ in range(6):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        block = bytearray(200 * 1024 * 1024)\n"
        "        for i in range(0, len(block), 4096):\n"
        "            block[i] = 1\n"
        "        time.sleep(2)\n"
        "        os._exit(0)\n"
        "    pids.append(pid)\n"
        "killed = sum(os.waitpid(p, 0)[1] != 0 for p in pids)\n"
        "print('KILLED', killed)\n"
    )
    main = _job_main()
    result = run_python({main: code}, CAPS.model_copy(update={"wall_s": 20.0}), main=main)
    assert result.status in ("ok", "memory", "error", "timeout")
    if result.caps.startswith("cgroup"):
        assert result.peak_memory_mb is not None and result.peak_memory_mb <= CAPS.total_memory_mb
        out = result.stdout.decode()
        assert result.status == "memory" or (out.startswith("KILLED") and int(out.split()[1]) > 0)
    assert _leftover_jobs(main) == []


def test_private_tmp_is_size_capped() -> None:
    code = (
        "written = 0\n"
        "try:\n"
        "    for n in range(1000):\n"
        "        with open(f'/tmp/work/fill-{n}', 'wb') as handle:\n"
        "            handle.write(b'x' * 512 * 1024)\n"
        "        written += 512 * 1024\n"
        "except OSError as exc:\n"
        "    print('STOPPED', exc.errno)\n"
        "print('WRITTEN_MB', written / 2**20)\n"
    )
    out, status = _run(code, CAPS)
    assert status == "ok", out
    assert "STOPPED 28" in out  # ENOSPC: the tmpfs is full
    written = float(out.split("WRITTEN_MB")[1])
    assert written <= CAPS.tmp_mb


def test_sandbox_starts_again_after_the_attacks() -> None:
    """The host stays fine: a plain run right after still works."""
    out, status = _run("print(6 * 7)")
    assert (out, status) == ("42\n", "ok")


def test_without_cgroups_the_rlimit_fallback_still_runs() -> None:
    result = run_python(
        {"main.py": "print('fallback')"}, LIMITS.model_copy(update={"cgroups": "off"})
    )
    assert (result.stdout, result.status, result.caps) == (b"fallback\n", "ok", "rlimit")
