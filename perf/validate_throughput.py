"""How fast release files validate and load.

Builds a synthetic split of N parents (default 2,000: about ten times the real Application
and Transfer sets together) by cycling the committed sample parents with fresh ids, then
times ``validate_file`` on it and prints records and slots per second.

    .venv/bin/python perf/validate_throughput.py [--parents N] [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from studybench.data import validate_file

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


def synthetic_split(parents: int) -> list[dict[str, object]]:
    pool = json.loads((SAMPLE / "application_problems.json").read_text())["data"]
    pool += json.loads((SAMPLE / "transfer_problems.json").read_text())
    records = []
    for i in range(parents):
        record = dict(pool[i % len(pool)])
        record["source_problem_id"] = f"{record['source_problem_id']}-{i}"
        records.append(record)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parents", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "split.json"
        path.write_text(json.dumps(synthetic_split(args.parents)))
        size_mb = path.stat().st_size / 1e6
        timings = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            loaded = validate_file(path)
            timings.append(time.perf_counter() - start)
        assert loaded.ok, loaded.errors[:3]
        slots = len(loaded.slots())

    best, median = min(timings), statistics.median(timings)
    print(f"file: {args.parents} parents, {slots} slots, {size_mb:.1f} MB")
    print(f"{'measure':<22}{'best':>12}{'median':>12}")
    print(f"{'seconds per file':<22}{best:>12.3f}{median:>12.3f}")
    print(f"{'parents per second':<22}{args.parents / best:>12,.0f}{args.parents / median:>12,.0f}")
    print(f"{'slots per second':<22}{slots / best:>12,.0f}{slots / median:>12,.0f}")


if __name__ == "__main__":
    main()
