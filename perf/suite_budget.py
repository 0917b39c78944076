"""The test suite's time budget (issue 33): fail when a pytest session's wall time exceeds its
budget by more than the margin that ``[tool.studybench-suite]`` in pyproject.toml states, and
print the slowest files either way (so the figure in the README comes from here).

    .venv/bin/python perf/suite_budget.py build/suite-timing.json --tier full
    .venv/bin/python perf/suite_budget.py build/suite-timing-fast.json --tier fast

The timing file is the JSON that ``pytest --suite-timing=PATH`` writes (tests/tiers.py).
Exit 0 within budget, 1 over it, 2 for a missing or unreadable file or budget.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from suite_durations import by_key, load

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def budget_for(tier: str, pyproject: Path = PYPROJECT) -> tuple[float, float]:
    """(budget seconds, margin as a fraction) of ``tier`` from ``[tool.studybench-suite]``."""
    table = tomllib.loads(pyproject.read_text()).get("tool", {}).get("studybench-suite", {})
    try:
        return float(table[f"{tier}_budget_s"]), float(table["margin"])
    except KeyError as missing:
        raise ValueError(f"{pyproject}: [tool.studybench-suite] has no {missing}") from None


def check(timing: Path, tier: str, top: int, pyproject: Path = PYPROJECT) -> tuple[bool, str]:
    times = load(timing)
    if times.wall_s is None:
        raise ValueError(f"{timing}: no wall time")
    budget, margin = budget_for(tier, pyproject)
    limit = budget * (1 + margin)
    ok = times.wall_s <= limit
    lines = [
        f"suite budget ({tier}): {times.wall_s:.0f} s wall for {len(times.phases)} tests; "
        f"budget {budget:.0f} s + {margin:.0%} = {limit:.0f} s: {'ok' if ok else 'OVER BUDGET'}",
        f"slowest {top} files:",
    ]
    lines += [f"  {s:7.1f} s  {n:4d} tests  {name}" for name, s, n in by_key(times, "file")[:top]]
    return ok, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("timing", type=Path, help="the JSON of pytest --suite-timing=PATH")
    parser.add_argument("--tier", default="full", help="the budget's name: full or fast")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    try:
        ok, text = check(args.timing, args.tier, args.top)
    except (OSError, ValueError) as error:
        print(f"suite_budget: {error}", file=sys.stderr)
        return 2
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
