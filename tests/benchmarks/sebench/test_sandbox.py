"""The bubblewrap sandbox, tested directly (no static checks in front of it): no network,
no writes outside its private temp dir, CPU, wall, memory and output limits."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import pytest

from studybench.benchmarks.sebench.sandbox import run_python
from studybench.benchmarks.sebench.settings import SandboxLimits

LIMITS = SandboxLimits(cpu_s=1, wall_s=4, memory_mb=512, output_kb=64)


def test_plain_code_runs_and_only_stdout_comes_back() -> None:
    result = run_python(
        {"main.py": "import sys\nprint('hello')\nprint('noise', file=sys.stderr)"}, LIMITS
    )
    assert result.status == "ok" and result.stdout == b"hello\n" and "noise" in result.stderr


def test_network_is_unreachable_even_on_loopback() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code = (
            "import socket\n"
            "for address in [('127.0.0.1', PORT), ('1.1.1.1', 80)]:\n"
            "    try:\n"
            "        socket.create_connection(address, timeout=2)\n"
            "        print('connected', address)\n"
            "    except OSError as exc:\n"
            "        print('refused', type(exc).__name__)\n"
        ).replace("PORT", str(port))
        result = run_python({"main.py": code}, LIMITS)
    assert result.status == "ok"
    assert b"connected" not in result.stdout and result.stdout.count(b"refused") == 2


def test_writes_outside_the_private_temp_dir_fail(tmp_path: Path) -> None:
    target = tmp_path / "escaped.txt"
    code = (
        f"import pathlib\n"
        f"pathlib.Path('/tmp/work/inside.txt').write_text('ok')\n"
        f"print(pathlib.Path('/tmp/work/inside.txt').read_text())\n"
        f"for path in [{str(target)!r}, '/etc/escaped', '/tmp/job/escaped']:\n"
        f"    try:\n"
        f"        pathlib.Path(path).write_text('x')\n"
        f"        print('wrote', path)\n"
        f"    except OSError as exc:\n"
        f"        print('denied', exc.errno)\n"
    )
    result = run_python({"main.py": code}, LIMITS)
    assert result.stdout.startswith(b"ok\n") and b"wrote" not in result.stdout
    assert result.stdout.count(b"denied") == 3
    assert not target.exists() and not Path("/etc/escaped").exists()


def test_host_temp_files_are_not_visible(tmp_path: Path) -> None:
    secret = Path("/tmp") / f"sebench-secret-{time.time_ns()}"
    secret.write_text("host data")
    try:
        result = run_python(
            {"main.py": f"import os\nprint(os.path.exists({str(secret)!r}))"}, LIMITS
        )
    finally:
        secret.unlink()
    assert result.stdout == b"False\n"


def test_infinite_loop_is_killed_by_the_cpu_limit() -> None:
    limits = LIMITS.model_copy(update={"wall_s": 60.0})  # the CPU limit must act, not the clock
    result = run_python({"main.py": "while True:\n    pass"}, limits)
    assert result.status == "timeout" and result.returncode == 128 + signal.SIGXCPU
    assert result.wall_s < limits.wall_s


def test_sleeping_forever_is_killed_by_the_wall_timeout() -> None:
    limits = LIMITS.model_copy(update={"wall_s": 1.5})
    code = "import os, time\nif os.fork() == 0:\n    time.sleep(600)\ntime.sleep(600)"
    started = time.monotonic()
    result = run_python({"main.py": code}, limits)
    assert result.status == "timeout" and time.monotonic() - started < 15


@pytest.mark.parametrize(
    "bomb", ["x = bytearray(4 * 1024**3)", "x = []\nwhile True:\n    x.append(' ' * 10**7)"]
)
def test_memory_bombs_hit_the_memory_limit(bomb: str) -> None:
    # generous time limits, so that only the memory limit can stop it on a loaded machine
    result = run_python({"main.py": bomb}, LIMITS.model_copy(update={"cpu_s": 10, "wall_s": 30}))
    assert result.status == "memory", result.stderr[-300:]


def test_output_is_capped() -> None:
    result = run_python({"main.py": "print('x' * 10**6)"}, LIMITS)
    assert result.status == "output_limit" and len(result.stdout) <= LIMITS.output_kb * 1024
