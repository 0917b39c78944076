"""Verifier throughput and latency: the process pool against a one-fork-per-pair design.

Reads case files (JSONL with pred, gold, answer_type, type_sequence; default: the verifier's
test tables) and measures:

* ``pool x1`` and ``pool xN``: :class:`studybench.verify.Verifier` with one worker and with
  all CPUs (workers started and warmed before timing, as in a long evaluation);
* ``fork/pair``: the reference harness's design, a forked child process per comparison
  with a timeout, running the same rules.

It prints verdicts per second, p50/p99/max latency and the wall time of the whole case file,
``cold x2``: two workers started inside the timing (what one CLI run over a case file pays,
process starts included; the issue-32 target is 770 mixed cases in <= 6 s on two cores), and
cases/s and p99 per answer type (target p99 < 0.3 s for every type).

    .venv/bin/python perf/verify_throughput.py [FILES...] [--repeat R] [--fork-limit N]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import time
from pathlib import Path
from typing import Any

from studybench.verify import Verifier, judge_inline
from studybench.verify.pool import default_workers
from studybench.verify.verifier import warm_up

CASES = Path(__file__).resolve().parents[1] / "tests" / "verify" / "cases"


def load(paths: list[Path]) -> list[dict[str, Any]]:
    cases = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                cases.append(json.loads(line))
    return cases


def _child(conn: Any, case: dict[str, Any]) -> None:
    conn.send(
        judge_inline(case["pred"], case["gold"], case["answer_type"], case.get("type_sequence", ""))
    )


def fork_per_pair(cases: list[dict[str, Any]], timeout_s: float) -> tuple[float, list[float]]:
    """One forked process per comparison (parent already has the parser warm)."""
    ctx = multiprocessing.get_context("fork")
    latencies = []
    start = time.perf_counter()
    for case in cases:
        t0 = time.perf_counter()
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_child, args=(child, case))
        process.start()
        if parent.poll(timeout_s):
            parent.recv()
        process.kill()
        process.join()
        latencies.append((time.perf_counter() - t0) * 1000)
    return time.perf_counter() - start, latencies


def pooled(cases: list[dict[str, Any]], workers: int) -> tuple[float, list[float], int]:
    with Verifier(workers=workers) as verifier:
        # start and warm every worker, as a long-running evaluation would have them
        verifier.verify_many([cases[0]] * workers * 2)
        start = time.perf_counter()
        verdicts = verifier.verify_many(cases)
        wall = time.perf_counter() - start
    timeouts = sum(v.reason == "timeout" for v in verdicts)
    return wall, [v.elapsed_ms for v in verdicts], timeouts


def cold(cases: list[dict[str, Any]], workers: int) -> tuple[float, list[Any]]:
    """Workers started inside the timing: a whole run, process starts included."""
    start = time.perf_counter()
    with Verifier(workers=workers) as verifier:
        verdicts = verifier.verify_many(cases)
    return time.perf_counter() - start, verdicts


def per_type(cases: list[dict[str, Any]], verdicts: list[Any]) -> None:
    """Cases/s (from the time spent judging) and p99 latency per answer type."""
    by_type: dict[str, list[float]] = {}
    for case, verdict in zip(cases, verdicts, strict=True):
        by_type.setdefault(case["answer_type"], []).append(verdict.elapsed_ms)
    print(f"\n{'type':<6}{'cases':>7}{'cases/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in sorted(by_type):
        ordered = sorted(by_type[kind])
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        rate = len(ordered) / max(sum(ordered) / 1000, 1e-9)
        p50 = statistics.median(ordered)
        print(f"{kind:<6}{len(ordered):>7}{rate:>10.0f}{p50:>9.2f}{p99:>9.1f}{ordered[-1]:>9.1f}")


def row(name: str, n: int, wall: float, latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    rate = n / wall
    return f"{name:<12}{n:>7}{wall:>10.2f}{rate:>12.1f}{p50:>10.2f}{p99:>10.1f}{ordered[-1]:>10.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=1, help="repeat the case list R times")
    parser.add_argument(
        "--fork-limit", type=int, default=0, help="time fork/pair on the first N cases (0: all)"
    )
    parser.add_argument(
        "--sample", type=int, default=0, help="a seeded random sample of N cases (0: all)"
    )
    args = parser.parse_args()
    files = args.files or sorted(CASES.glob("*.jsonl"))
    cases = load(files) * args.repeat
    if args.sample:
        cases = random.Random(0).sample(cases, min(args.sample, len(cases)))
    cpus = default_workers()

    print(f"{len(cases)} cases from {len(files)} file(s); {cpus} CPU(s)")
    header = ("cases", "wall s", "verdicts/s", "p50 ms", "p99 ms", "max ms")
    widths = (7, 10, 12, 10, 10, 10)
    print(f"{'design':<12}" + "".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    one_wall, one_lat, one_to = pooled(cases, 1)
    print(row("pool x1", len(cases), one_wall, one_lat))
    many_wall, many_lat, many_to = pooled(cases, cpus)
    print(row(f"pool x{cpus}", len(cases), many_wall, many_lat))
    cold_wall, cold_verdicts = cold(cases, 2)
    print(row("cold x2", len(cases), cold_wall, [v.elapsed_ms for v in cold_verdicts]))

    warm_up()  # the forked children inherit a warm parser, as in the reference harness
    fork_cases = cases[: args.fork_limit] if args.fork_limit else cases
    fork_wall, fork_lat = fork_per_pair(fork_cases, timeout_s=5.0)
    print(row("fork/pair", len(fork_cases), fork_wall, fork_lat))

    per_case_fork = fork_wall / len(fork_cases)
    per_type(cases, cold_verdicts)
    print()
    print(f"timeouts: pool x1 {one_to}, pool x{cpus} {many_to}")
    print(
        f"speed-up over fork/pair (whole file): x1 {per_case_fork * len(cases) / one_wall:.1f}x, "
        f"x{cpus} {per_case_fork * len(cases) / many_wall:.1f}x"
    )


if __name__ == "__main__":
    main()
