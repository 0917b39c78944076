"""A reusable pool of verifier processes with a hard timeout per comparison.

Why processes and not signals: the verifier runs inside Airflow task threads and TRL reward
functions, where ``signal.alarm`` either fails (not the main thread) or cancels the host's own
alarm. Why not one fork per comparison (the reference harness): forking a multi-threaded
program is unsafe and costs milliseconds per pair.

Workers are fresh interpreters (``python -m studybench.verify.worker``) talking over a pair of
pipes, started with ``subprocess`` rather than ``multiprocessing``: multiprocessing's spawn and
forkserver re-import the host's ``__main__`` (a notebook, a script without a main guard, an
Airflow task file), and fork copies the host's threads' locks. Each comparison is one message;
one that overruns its timeout gets its worker killed and replaced, and the caller receives a
``timeout`` verdict, never a hang.

The bound is the caller's: a timed-out worker is killed without waiting, and its replacement
is started (and warmed) on a background thread, so neither the reaping nor the start-up of a
new interpreter is charged to the comparison that timed out. A failure verdict reports the
time the comparison really took.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

DEFAULT_MEMORY_LIMIT_MB = 4096
STARTUP_TIMEOUT_S = 120.0

Task = tuple[Any, ...]


def _worker_env() -> dict[str, str]:
    """The host's environment, with this package importable even from a source checkout."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


class _Worker:
    def __init__(self, memory_limit_mb: int | None) -> None:
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        command = [
            sys.executable,
            "-m",
            "studybench.verify.worker",
            str(task_read),
            str(result_write),
            str(memory_limit_mb or 0),
        ]
        try:
            self.process = subprocess.Popen(
                command,
                pass_fds=(task_read, result_write),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                env=_worker_env(),
                close_fds=True,
            )
        finally:
            os.close(task_read)
            os.close(result_write)
        self.tasks = Connection(task_write, readable=False)
        self.results = Connection(result_read, writable=False)
        try:
            ready = self.results.poll(STARTUP_TIMEOUT_S) and self.results.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.kill()
            raise RuntimeError(f"verifier worker did not start: {' '.join(command)}")

    def call(self, task: Task, timeout_s: float) -> tuple[str, Any, float]:
        """("ok", result, s) | ("timeout", None, s) | ("dead", None, s); s = seconds taken."""
        start = time.perf_counter()
        try:
            self.tasks.send(task)
            if not self.results.poll(timeout_s):
                return "timeout", None, time.perf_counter() - start
            return "ok", self.results.recv(), time.perf_counter() - start
        except (EOFError, OSError):
            return "dead", None, time.perf_counter() - start

    def _close_pipes(self) -> None:
        for conn in (self.tasks, self.results):
            with contextlib.suppress(Exception):
                conn.close()

    def kill(self, wait: bool = True) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
            if wait:
                self.process.wait(5)
        self._close_pipes()

    def reap(self) -> None:
        """Collect the killed process (off the caller's time)."""
        with contextlib.suppress(Exception):
            self.process.wait(5)

    def ask_to_stop(self) -> None:
        """Tell the worker to exit (it finishes its interpreter's teardown on its own)."""
        with contextlib.suppress(Exception):
            self.tasks.send(None)

    def stop(self) -> None:
        self.ask_to_stop()
        with contextlib.suppress(Exception):
            self.process.wait(2)
        if self.process.poll() is None:
            self.kill()
        self._close_pipes()


_NO_WORKER: Any = object()  # put on the idle queue when a replacement failed to start


class _IdleWorkers:
    """The idle workers, last in first out, where a caller may ask for a particular one.

    Why not a ``LifoQueue``: a thread of :meth:`ProcessPool.map` asks for the worker it used
    last, so a lane's tasks stay on one worker even while another thread returns its own
    worker in between (with a plain stack the two then swap workers).
    """

    def __init__(self) -> None:
        self._items: list[_Worker] = []
        self._ready = threading.Condition()

    def put(self, worker: _Worker) -> None:
        with self._ready:
            self._items.append(worker)
            self._ready.notify()

    def get(self, prefer: _Worker | None = None, block: bool = True) -> _Worker:
        """``prefer`` if it is idle, else the last one returned; ``queue.Empty`` when none is
        idle and ``block`` is false."""
        with self._ready:
            while not self._items:
                if not block:
                    raise queue.Empty
                self._ready.wait()
            if prefer is not None and any(item is prefer for item in self._items):
                self._items.remove(prefer)
                return prefer
            return self._items.pop()

    def get_nowait(self, prefer: _Worker | None = None) -> _Worker:
        return self.get(prefer, block=False)


class ProcessPool:
    """Up to ``workers`` verifier processes, started on demand and reused.

    Thread-safe: any number of threads may call :meth:`run`; at most ``workers`` tasks run at
    once. ``on_failure(kind, task, seconds)`` builds the result for a timed-out or crashed
    task; ``seconds`` is how long the comparison ran before it was given up.
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
        self._idle = _IdleWorkers()
        self._lock = threading.Lock()
        self._live = 0
        self._starting = 0  # workers start() launched that have not reached the idle queue
        self._closed = False
        self._spawners: list[threading.Thread] = []
        self.restarts = 0

    @property
    def started(self) -> int:
        """Workers running or on their way (started by :meth:`start` or by earlier tasks)."""
        with self._lock:
            return self._live

    def _checkout(self, prefer: _Worker | None = None) -> _Worker:
        while True:
            worker = self._take(prefer)
            if worker is not _NO_WORKER:
                return worker

    def _take(self, prefer: _Worker | None) -> _Worker:
        try:
            return self._idle.get_nowait(prefer)
        except queue.Empty:
            pass
        with self._lock:
            if self._closed:
                raise RuntimeError("verifier pool is closed")
            # a worker start() launched is already on its way: wait for it rather than
            # start another interpreter that competes with it for the CPU
            spawn = self._live < self.workers and not self._starting
            if spawn:
                self._live += 1
        if spawn:
            try:
                return _Worker(self._memory_limit_mb)
            except Exception:
                with self._lock:
                    self._live -= 1
                raise
        return self._idle.get()

    def _retire(self, worker: _Worker) -> None:
        """Kill ``worker`` now; reap it and start its replacement in the background."""
        worker.kill(wait=False)
        with self._lock:
            self.restarts += 1
            closed = self._closed
        if closed:
            worker.reap()
            with self._lock:
                self._live -= 1
            return
        self._start_thread(self._replace, (worker,), "sb-verify-respawn")

    def start(self, count: int | None = None) -> None:
        """Start up to ``count`` more workers (default: all) on background threads, now.

        Why: a worker's interpreter start and warm-up (~1 s) then overlaps whatever the caller
        does before its first comparison (a CLI reading and checking its case file, settings
        loading), instead of starting when the first task arrives. Idempotent; the workers
        are the same fresh interpreters :meth:`run` would start.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("verifier pool is closed")
            wanted = self.workers if count is None else min(count, self.workers)
            spawn = max(0, wanted - self._live)
            self._live += spawn
            self._starting += spawn
        for _ in range(spawn):
            self._start_thread(self._spawn_started, (), "sb-verify-start")

    def _start_thread(self, target: Callable[..., None], args: tuple[Any, ...], name: str) -> None:
        """Run ``target`` on a daemon thread that :meth:`close` waits for."""
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        with self._lock:
            self._spawners = [t for t in self._spawners if t.is_alive()] + [thread]
        thread.start()

    def _spawn_started(self) -> None:
        try:
            self._spawn()
        finally:
            with self._lock:
                self._starting -= 1

    def _replace(self, dead: _Worker) -> None:
        dead.reap()
        self._spawn()

    def _spawn(self) -> None:
        """Start one worker for a slot already counted in ``_live``; hand it to the idle queue."""
        try:
            fresh = _Worker(self._memory_limit_mb)
        except Exception:
            with self._lock:
                self._live -= 1
            self._idle.put(_NO_WORKER)  # wake a caller waiting for this slot
            return
        with self._lock:
            closed = self._closed
        if closed:
            fresh.stop()
            with self._lock:
                self._live -= 1
            return
        self._idle.put(fresh)

    def run(self, task: Task) -> Any:
        return self._run_on(task, None)[0]

    def _run_on(self, task: Task, prefer: _Worker | None) -> tuple[Any, _Worker | None]:
        """Run ``task``, on ``prefer`` if it is idle; the result and the worker that ran it
        (None when that worker was retired)."""
        worker = self._checkout(prefer)
        status, result, seconds = worker.call(task, self.timeout_s)
        if status == "ok":
            self._idle.put(worker)
            return result, worker
        self._retire(worker)
        return self._on_failure(status, task, seconds), None

    def map(
        self,
        tasks: Sequence[Task],
        on_result: Callable[[Any], None] | None = None,
        lanes: Sequence[int] | None = None,
        *,
        threads: int | None = None,
    ) -> list[Any]:
        """Run ``tasks`` concurrently on the pool, on at most ``threads`` workers at once
        (default: all); results in input order.

        Without ``lanes`` every thread takes the next task in input order. ``lanes`` (one
        number per task, taken modulo the threads) gives each thread its own queue, in
        input order, and a thread whose queue is empty takes the last task of the longest
        other one. Why: a thread asks for the worker it used last (and gets it unless another
        caller holds it), so the tasks of one lane meet one worker, and a lane of tasks that
        share a first-use cost (sympy's series tables, ~0.3 s) pays it once.
        """
        if not tasks:
            return []
        threads = min(self.workers, len(tasks), threads or self.workers)
        queues = _lane_queues(len(tasks), lanes, threads)
        results: list[Any] = [None] * len(tasks)
        lock = threading.Lock()

        def work(lane: int) -> None:
            last: _Worker | None = None
            while (index := _next_task(queues, lane, lock)) is not None:
                result, last = self._run_on(tasks[index], last)
                results[index] = result
                if on_result is not None:
                    on_result(result)

        if threads == 1:
            work(0)
            return results
        with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sb-verify") as pool:
            for future in [pool.submit(work, lane) for lane in range(threads)]:
                future.result()
        return results

    def close(self) -> None:
        with self._lock:
            self._closed = True
            spawners = list(self._spawners)
        for thread in spawners:
            thread.join(STARTUP_TIMEOUT_S)
        idle = []
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                break
            if worker is not _NO_WORKER:
                idle.append(worker)
        for worker in idle:  # all exit at once: a teardown with sympy loaded takes ~0.1 s
            worker.ask_to_stop()
        for worker in idle:
            worker.stop()
            with self._lock:
                self._live -= 1


def _lane_queues(count: int, lanes: Sequence[int] | None, threads: int) -> list[deque[int]]:
    """Task indices per thread: one shared queue without ``lanes``, else one per thread."""
    if lanes is None:
        return [deque(range(count))]
    if len(lanes) != count:
        raise ValueError("one lane per task")
    queues: list[deque[int]] = [deque() for _ in range(threads)]
    for index, lane in enumerate(lanes):
        queues[lane % threads].append(index)
    return queues


def _next_task(queues: list[deque[int]], lane: int, lock: threading.Lock) -> int | None:
    """The next task of ``lane``'s queue, else the last of the longest queue, else None."""
    with lock:
        own = queues[lane % len(queues)]
        if own:
            return own.popleft()
        longest = max(queues, key=len)
        return longest.pop() if longest else None


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
