"""SE-Bench judging throughput: sandboxed solutions per second and the sandbox's overhead.

Judges the sample's reference solutions (every one runs in bubblewrap) with 1 and N
parallel sandboxes, and times a bare sandbox start (``pass``) against a bare interpreter
start, so the cost of isolation is visible. Prints judgements/s, p50/p99 latency per
solution and the start-up overhead.

    .venv/bin/python perf/sebench_judge_throughput.py [--workers N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from studybench.benchmarks.sebench.functions import DEFAULT_FUNCTIONS
from studybench.benchmarks.sebench.judging import Judge
from studybench.benchmarks.sebench.package import PackageSpec, generate_package
from studybench.benchmarks.sebench.sandbox import run_python
from studybench.benchmarks.sebench.settings import SandboxLimits
from studybench.benchmarks.sebench.solutions import to_package
from studybench.benchmarks.sebench.tasks import load_tasks

TASKS = Path(__file__).resolve().parents[1] / "data" / "sample" / "sebench" / "tasks.json"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        package = generate_package(PackageSpec(functions=DEFAULT_FUNCTIONS), Path(tmp))
        tasks = load_tasks(TASKS, package.mapping)
        items = [
            (f"```python\n{to_package(t.solution, package)}\n```", t, 0, "") for t in tasks
        ] * args.repeat
        limits = SandboxLimits()
        starts = []
        caps = ""
        for _ in range(10):
            began = time.perf_counter()
            caps = run_python({"main.py": "pass"}, limits).caps
            starts.append(time.perf_counter() - began)
        print(f"job caps: {caps} ({len(package.mapping)} package functions)")
        bare = []
        for _ in range(10):
            began = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            bare.append(time.perf_counter() - began)
        print(f"sandbox start  p50 {1000 * statistics.median(starts):7.1f} ms   "
              f"bare interpreter p50 {1000 * statistics.median(bare):7.1f} ms")  # fmt: skip
        for workers in sorted({1, args.workers}):
            judge = Judge(package, limits, workers=workers)
            began = time.perf_counter()
            verdicts = judge.judge_many(items)
            wall = time.perf_counter() - began
            latencies = [v.elapsed_ms for v in verdicts]
            assert all(v.correct for v in verdicts), [v for v in verdicts if not v.correct]
            print(
                f"workers {workers:2d}: {len(items) / wall:6.1f} judgements/s   "
                f"p50 {statistics.median(latencies):6.1f} ms   "
                f"p99 {_percentile(latencies, 0.99):6.1f} ms   ({len(items)} in {wall:.1f} s)"
            )


if __name__ == "__main__":
    main()
