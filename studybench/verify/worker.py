"""Entry point of one verifier worker process (started by :mod:`studybench.verify.pool`).

``python -m studybench.verify.worker TASK_FD RESULT_FD MEMORY_LIMIT_MB``: reads task tuples
from one pipe and writes verdicts to the other until it reads ``None`` or the pipe closes.
"""

from __future__ import annotations

import contextlib
import os
import sys
from multiprocessing.connection import Connection


def _limit_memory(megabytes: int) -> None:
    """Cap the address space so a runaway parse fails with MemoryError instead of swapping."""
    if megabytes <= 0:
        return
    import resource

    limit = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def serve(tasks: Connection, results: Connection) -> None:
    from studybench.verify.verifier import judge_inline, warm_up

    warm_up()
    results.send("ready")
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            results.send(judge_inline(*task))
        except MemoryError:
            results.send(("error", "memory"))
        except Exception as exc:  # a bug must not kill the pool: report it as a verdict
            results.send(("error", f"{type(exc).__name__}: {exc}"[:300]))


def main(argv: list[str]) -> None:
    task_fd, result_fd, memory_limit_mb = (int(arg) for arg in argv[1:4])
    _limit_memory(memory_limit_mb)
    serve(Connection(task_fd, writable=False), Connection(result_fd, readable=False))
    # Every verdict has been written to the pipe; the interpreter's own teardown (freeing
    # sympy's caches and modules, ~0.25 s) would only delay the host's close().
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
