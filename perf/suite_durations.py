"""Where the test suite's time goes (issue 33): aggregate one pytest session's timings by
test, file, folder, tier marker and fixture set-up, as a markdown report.

Reads any of:

- the JSON that ``pytest --suite-timing=PATH`` writes (tests/tiers.py): phases per test and
  set-up seconds per fixture (exclusive of the fixtures it requests), plus the wall time;
- a junit XML (``pytest --junitxml=PATH``): seconds per test (phases summed);
- the text of ``pytest --durations=0``: ``12.34s call     tests/x.py::test_y`` lines.

    .venv/bin/python perf/suite_durations.py build/suite-timing.json --top 20
    .venv/bin/python perf/suite_durations.py /tmp/durations.txt --top 30 --out report.md

A test's set-up time holds the session fixtures it was the first to request (a vLLM start,
a model build, an Airflow migration), so the fixture table is the one that names a cost;
the by-file table says where a tier boundary pays most.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

DURATION_LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(setup|call|teardown)\s+(\S.*?)\s*$")
WALL_LINE = re.compile(r"\bin (\d+(?:\.\d+)?)s\b")


@dataclass
class FixtureCost:
    name: str
    scope: str
    baseid: str
    inclusive_s: float
    exclusive_s: float
    worker: str = ""  # the xdist worker that paid it ("" in a serial session)


@dataclass
class SuiteTimes:
    """Seconds per test and phase, fixture set-ups when known, the session's wall time."""

    phases: dict[str, dict[str, float]] = field(default_factory=dict)
    fixtures: list[FixtureCost] = field(default_factory=list)
    wall_s: float | None = None
    source: str = ""
    workers: dict[str, str] = field(default_factory=dict)  # test -> xdist worker, when known

    def total(self, nodeid: str) -> float:
        return sum(self.phases[nodeid].values())


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def folder_of(nodeid: str) -> str:
    return str(Path(file_of(nodeid)).parent)


def load(path: Path) -> SuiteTimes:
    """Read a timing JSON, a junit XML or ``--durations=0`` text (by content, not name)."""
    text = path.read_text(errors="replace")
    head = text.lstrip()[:200]
    if head.startswith("{"):
        return _from_timing(json.loads(text), path)
    if head.startswith("<?xml") or head.startswith("<testsuite"):
        return _from_junit(text, path)
    return _from_durations(text, path)


def _from_timing(raw: dict[str, object], path: Path) -> SuiteTimes:
    times = SuiteTimes(source=f"{path} (suite timing)")
    tests = raw.get("tests")
    if not isinstance(tests, dict):
        raise ValueError(f"{path}: no 'tests' object: not a --suite-timing file")
    for nodeid, entry in tests.items():
        times.phases[nodeid] = {
            phase: float(entry[phase]) for phase in ("setup", "call", "teardown") if phase in entry
        }
        if entry.get("worker"):
            times.workers[nodeid] = str(entry["worker"])
    for fixture in raw.get("fixtures", []):  # type: ignore[attr-defined]
        times.fixtures.append(FixtureCost(**fixture))
    wall = raw.get("wall_s")
    times.wall_s = float(wall) if isinstance(wall, int | float) else None
    return times


def _from_junit(text: str, path: Path) -> SuiteTimes:
    times = SuiteTimes(source=f"{path} (junit xml)")
    root = ET.fromstring(text)
    for suite in root.iter("testsuite"):
        if suite.get("time") and times.wall_s is None:
            times.wall_s = float(suite.get("time", "0"))
    for case in root.iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        parts = classname.split(".")
        # junit names the module by dots; the file is the longest prefix that exists
        module = [p for p in parts if p]
        split = next(
            (i for i in range(len(module), 0, -1) if Path(*module[:i]).with_suffix(".py").exists()),
            len(module),
        )
        nodeid = "/".join(module[:split]) + ".py::" + "::".join([*module[split:], name])
        times.phases[nodeid] = {"total": float(case.get("time", "0"))}
    return times


def _from_durations(text: str, path: Path) -> SuiteTimes:
    times = SuiteTimes(source=f"{path} (--durations text)")
    for line in text.splitlines():
        match = DURATION_LINE.match(line)
        if match:
            seconds, phase, nodeid = match.groups()
            times.phases.setdefault(nodeid, {})[phase] = float(seconds)
    summary = [m for line in text.splitlines()[-5:] for m in WALL_LINE.findall(line)]
    times.wall_s = float(summary[-1]) if summary else None
    if not times.phases:
        raise ValueError(f"{path}: no '<seconds>s <phase> <test>' lines (run with --durations=0)")
    return times


def by_key(times: SuiteTimes, key: str) -> list[tuple[str, float, int]]:
    """(group, seconds, tests) per file or folder, largest first."""
    groups: dict[str, list[float]] = defaultdict(list)
    pick = file_of if key == "file" else folder_of
    for nodeid in times.phases:
        groups[pick(nodeid)].append(times.total(nodeid))
    rows = [(name, sum(values), len(values)) for name, values in groups.items()]
    return sorted(rows, key=lambda row: -row[1])


def by_worker(times: SuiteTimes) -> list[tuple[str, float, int]]:
    """(worker, busy seconds, tests) of a ``pytest -n`` session, busiest first: the wall time
    is at least the busiest worker's, so a worker far above the others names a schedule (one
    unit too large, or handed out last) rather than a slow test."""
    groups: dict[str, list[float]] = defaultdict(list)
    for nodeid, worker in times.workers.items():
        groups[worker].append(times.total(nodeid))
    rows = [(name, sum(values), len(values)) for name, values in groups.items()]
    return sorted(rows, key=lambda row: -row[1])


def by_fixture(times: SuiteTimes) -> list[tuple[str, str, float, float, int]]:
    """(fixture, scope, exclusive s, inclusive s, set-ups) summed per fixture and place."""
    groups: dict[tuple[str, str], list[FixtureCost]] = defaultdict(list)
    for cost in times.fixtures:
        groups[(cost.name, cost.baseid)].append(cost)
    rows = [
        (
            f"{name} ({baseid or 'plugin'})",
            costs[0].scope,
            sum(c.exclusive_s for c in costs),
            sum(c.inclusive_s for c in costs),
            len(costs),
        )
        for (name, baseid), costs in groups.items()
    ]
    return sorted(rows, key=lambda row: -row[2])


def report(times: SuiteTimes, top: int) -> str:
    total = sum(times.total(n) for n in times.phases)
    lines = [
        f"# Test suite durations ({times.source})",
        "",
        f"{len(times.phases)} tests, {total:.0f} s summed over tests"
        + (f", {times.wall_s:.0f} s wall" if times.wall_s is not None else ""),
        "",
        f"## Top {top} tests (set-up + call + teardown)",
        "",
        "| s | setup | call | test |",
        "|---:|---:|---:|---|",
    ]
    ranked = sorted(times.phases, key=lambda n: -times.total(n))[:top]
    for nodeid in ranked:
        phases = times.phases[nodeid]
        lines.append(
            f"| {times.total(nodeid):.1f} | {phases.get('setup', 0.0):.1f} "
            f"| {phases.get('call', phases.get('total', 0.0)):.1f} | `{nodeid}` |"
        )
    for key in ("file", "folder"):
        lines += ["", f"## Top {top} by {key}", "", f"| s | tests | {key} |", "|---:|---:|---|"]
        for name, seconds, count in by_key(times, key)[:top]:
            lines.append(f"| {seconds:.1f} | {count} | `{name}` |")
    if times.workers:
        lines += ["", "## Per xdist worker", "", "| busy s | tests | worker |", "|---:|---:|---|"]
        for name, seconds, count in by_worker(times):
            lines.append(f"| {seconds:.1f} | {count} | `{name}` |")
    if times.fixtures:
        lines += [
            "",
            f"## Top {top} fixture set-ups (exclusive of the fixtures they request)",
            "",
            "| exclusive s | inclusive s | set-ups | scope | fixture |",
            "|---:|---:|---:|---|---|",
        ]
        for name, scope, exclusive, inclusive, count in by_fixture(times)[:top]:
            lines.append(f"| {exclusive:.1f} | {inclusive:.1f} | {count} | {scope} | `{name}` |")
    setups = sorted(
        ((n, p.get("setup", 0.0)) for n, p in times.phases.items()), key=lambda r: -r[1]
    )
    lines += ["", f"## Top {top} set-up phases (first user of a shared fixture)", ""]
    lines += [f"- {seconds:.1f} s `{nodeid}`" for nodeid, seconds in setups[:top] if seconds]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("timings", type=Path, help="--suite-timing JSON, junit XML or text")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--out", type=Path, help="write the markdown here (default: stdout)")
    args = parser.parse_args(argv)
    try:
        times = load(args.timings)
    except (OSError, ValueError, ET.ParseError) as error:
        print(f"suite_durations: {error}", file=sys.stderr)
        return 2
    text = report(times, args.top)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
