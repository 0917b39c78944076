"""A reusable pool of verifier processes with a hard timeout per comparison.

Why processes and not signals: the verifier runs inside Airflow task threads and TRL reward
functions, where ``signal.alarm`` either fails (not the main thread) or cancels the host's own
alarm. Why not one fork per comparison (the reference harness): forking a multi-threaded
program is unsafe and costs milliseconds per pair. Here long-lived workers are started from a
``forkserver`` (a clean single-threaded parent that has already imported sympy), each
comparison is a message over a pipe, and a comparison that overruns its timeout gets its
worker killed and replaced; the caller receives a ``timeout`` verdict, never a hang.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

DEFAULT_MEMORY_LIMIT_MB = 4096
STARTUP_TIMEOUT_S = 120.0

Task = tuple[Any, ...]


def _worker_main(conn: Connection, memory_limit_mb: int | None) -> None:
    """Worker loop: warm the parser, then answer tasks until told to stop."""
    if memory_limit_mb:
        import resource

        limit = memory_limit_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from studybench.verify.verifier import judge_inline, warm_up

    warm_up()
    conn.send("ready")
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            conn.send(judge_inline(*task))
        except MemoryError:
            conn.send(("error", "memory"))
        except Exception as exc:  # a bug must not kill the pool: report it as a verdict
            conn.send(("error", f"{type(exc).__name__}: {exc}"[:300]))


def _context() -> Any:
    try:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["studybench.verify.rules", "studybench.verify.verifier"])
        return ctx
    except ValueError:  # platforms without forkserver
        return multiprocessing.get_context("spawn")


class _Worker:
    def __init__(self, ctx: Any, memory_limit_mb: int | None) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, memory_limit_mb), daemon=True, name="sb-verify"
        )
        self.process.start()
        child.close()
        if not self.conn.poll(STARTUP_TIMEOUT_S) or self.conn.recv() != "ready":
            self.kill()
            raise RuntimeError("verifier worker did not start")

    def call(self, task: Task, timeout_s: float) -> tuple[str, Any]:
        """("ok", result) | ("timeout", None) | ("dead", None)."""
        try:
            self.conn.send(task)
            if not self.conn.poll(timeout_s):
                return "timeout", None
            return "ok", self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            return "dead", None

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(None)
            self.process.join(2)
        if self.process.is_alive():
            self.kill()
        with contextlib.suppress(Exception):
            self.conn.close()


class ProcessPool:
    """Up to ``workers`` verifier processes, started on demand and reused.

    Thread-safe: any number of threads may call :meth:`run`; at most ``workers`` tasks run at
    once. ``on_failure(kind, task)`` builds the result for a timed-out or crashed task.
    """

    def __init__(
        self,
        workers: int,
        timeout_s: float,
        on_failure: Callable[[str, Task, float], Any],
        memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
    ) -> None:
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.workers = workers
        self.timeout_s = timeout_s
        self._on_failure = on_failure
        self._memory_limit_mb = memory_limit_mb
        self._ctx = _context()
        self._idle: queue.LifoQueue[_Worker] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._live = 0
        self._closed = False
        self.restarts = 0

    def _checkout(self) -> _Worker:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if self._closed:
                raise RuntimeError("verifier pool is closed")
            spawn = self._live < self.workers
            if spawn:
                self._live += 1
        if spawn:
            try:
                return _Worker(self._ctx, self._memory_limit_mb)
            except Exception:
                with self._lock:
                    self._live -= 1
                raise
        return self._idle.get()

    def _retire(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._live -= 1
            self.restarts += 1

    def run(self, task: Task) -> Any:
        worker = self._checkout()
        status, result = worker.call(task, self.timeout_s)
        if status == "ok":
            self._idle.put(worker)
            return result
        self._retire(worker)
        return self._on_failure(status, task, self.timeout_s)

    def map(
        self, tasks: Sequence[Task], on_result: Callable[[Any], None] | None = None
    ) -> list[Any]:
        """Run ``tasks`` concurrently on the pool; results in input order."""
        if not tasks:
            return []
        threads = min(self.workers, len(tasks))

        def work(task: Task) -> Any:
            result = self.run(task)
            if on_result is not None:
                on_result(result)
            return result

        if threads == 1:
            return [work(task) for task in tasks]
        with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sb-verify") as pool:
            return list(pool.map(work, tasks))

    def close(self) -> None:
        with self._lock:
            self._closed = True
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                break
            worker.stop()
            with self._lock:
                self._live -= 1


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
