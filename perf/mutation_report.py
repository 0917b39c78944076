"""Mutation testing of the modules where a silent bug corrupts results (issue 26).

For each module of ``[tool.mutmut] only_mutate`` (or the ones named with ``--module``), mutmut
runs in a scratch copy under ``build/mutation/<module>/`` (never in the working tree: other
processes import the package from there), with only the tests that
``[tool.studybench-mutation.tests]`` lists for that module. The report (markdown) gives, per
module, the mutants, how many the tests killed (a timeout counts as killed: the mutant made
the code hang), the survivors with their diffs, and the kill rate.

    nice -n 19 .venv/bin/python perf/mutation_report.py --out build/mutation/report.md
    .venv/bin/python perf/mutation_report.py --module studybench/metrics/passk.py

A module whose run exceeds ``--budget-s`` is reported with the mutants checked so far.
Known equivalent mutants are listed in ``perf/mutation_equivalent.json`` (name and
one-line reason) and left out of the rate's denominator.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / "build" / "mutation"
EQUIVALENT = Path(__file__).with_name("mutation_equivalent.json")
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
RESULT_LINE = re.compile(r"^\s*(\S+): (.+?)\s*$")
COPIED = ["studybench", "tests", "data/sample", "params.yaml", "conftest.py"]


def _config() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]  # type: ignore[no-any-return]


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def _prepare(module: str, tests: list[str], base: dict[str, object]) -> Path:
    work = SCRATCH / module.replace("/", "_").removesuffix(".py")
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source,
                work / name,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis"),
            )
        elif source.exists():
            shutil.copy2(source, work / name)
    mutmut = dict(base)
    args = list(mutmut.get("pytest_add_cli_args", []))  # type: ignore[call-overload]
    (work / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        f'source_paths = ["studybench/"]\n'
        f"only_mutate = {_toml_list([module])}\n"
        f"also_copy = {_toml_list(list(mutmut.get('also_copy', [])))}\n"  # type: ignore[call-overload]
        f"pytest_add_cli_args = {_toml_list(args)}\n"
        f"pytest_add_cli_args_test_selection = {_toml_list(tests)}\n"
        "\n[tool.pytest.ini_options]\n"
        'addopts = "-ra --strict-markers"\n'
        "timeout = 300\n"
        f"markers = {_toml_list(_pytest_markers())}\n"
    )
    return work


def _pytest_markers() -> list[str]:
    """The project's declared markers (the test tiers): the scratch copy runs the same
    conftest, which refuses to start when a tier marker is undeclared."""
    ini: dict[str, object] = _config()["pytest"]["ini_options"]  # type: ignore[index]
    return list(ini.get("markers", []))  # type: ignore[call-overload]


def _results(work: Path) -> dict[str, str]:
    done = subprocess.run(
        [str(ROOT / ".venv/bin/mutmut"), "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    found = {}
    for line in done.stdout.splitlines():
        match = RESULT_LINE.match(line)
        if match and "__mutmut_" in match.group(1):
            found[match.group(1)] = match.group(2)
    return found


def _show(work: Path, name: str) -> str:
    done = subprocess.run(
        [str(ROOT / ".venv/bin/mutmut"), "show", name],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    diff = [ln for ln in done.stdout.splitlines() if ln[:1] in "+-" and ln[:3] not in "+++---"]
    return "\n".join(diff[:12])


def _patterns(module: str, functions: list[str]) -> list[str]:
    """mutmut's names of the mutants of ``functions`` (top-level) in ``module``."""
    dotted = module.removesuffix(".py").replace("/", ".")
    return [f"{dotted}.x_{function}__mutmut_*" for function in functions]


def run_module(
    module: str,
    tests: list[str],
    base: dict[str, object],
    budget_s: float,
    children: int,
    functions: list[str] | None = None,
) -> dict[str, object]:
    """One module's run; with ``functions``, only their mutants (the functions a change
    touched: the rest of the module keeps its last run's figures)."""
    work = _prepare(module, tests, base)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    start = time.monotonic()
    try:
        subprocess.run(
            [
                "nice",
                "-n",
                "19",
                str(ROOT / ".venv/bin/mutmut"),
                "run",
                "--max-children",
                str(children),
                *_patterns(module, functions or []),
            ],
            cwd=work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=budget_s,
            check=False,
        )
        complete = True
    except subprocess.TimeoutExpired:
        complete = False
    elapsed = time.monotonic() - start
    statuses = _results(work)
    if functions:
        wanted = tuple(pattern.removesuffix("*") for pattern in _patterns(module, functions))
        statuses = {name: status for name, status in statuses.items() if name.startswith(wanted)}
    equivalent = json.loads(EQUIVALENT.read_text()) if EQUIVALENT.exists() else {}
    counts = Counter(statuses.values())
    killed = sum(n for s, n in counts.items() if s in KILLED)
    survivors = sorted(n for n, s in statuses.items() if s == "survived")
    equiv = [n for n in survivors if n in equivalent]
    real = [n for n in survivors if n not in equivalent]
    checked = killed + len(survivors) + counts.get("no tests", 0) + counts.get("suspicious", 0)
    denominator = checked - len(equiv)
    return {
        "module": module,
        "functions": functions or [],
        "tests": tests,
        "complete": complete,
        "elapsed_s": round(elapsed, 1),
        "mutants": len(statuses),
        "statuses": dict(counts),
        "killed": killed,
        "equivalent": {n: equivalent[n] for n in equiv},
        "survivors": {n: _show(work, n) for n in real},
        "kill_rate": round(killed / denominator, 4) if denominator else None,
    }


def markdown(results: list[dict[str, object]]) -> str:
    lines = [
        "# Mutation report",
        "",
        "| module | mutants | killed | survived (real) | equivalent | other | kill rate |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        statuses: dict[str, int] = r["statuses"]  # type: ignore[assignment]
        other = {s: n for s, n in statuses.items() if s not in KILLED | {"survived"}}
        rate = r["kill_rate"]
        lines.append(
            f"| {r['module']}{_scope(r)}{'' if r['complete'] else ' (budget hit)'} | "
            f"{r['mutants']} | "
            f"{r['killed']} | {len(r['survivors'])} | {len(r['equivalent'])} | "  # type: ignore[arg-type]
            f"{', '.join(f'{s} {n}' for s, n in sorted(other.items())) or '-'} | "
            f"{'-' if rate is None else f'{rate:.1%}'} |"
        )
    for r in results:
        survivors: dict[str, str] = r["survivors"]  # type: ignore[assignment]
        equivalent: dict[str, str] = r["equivalent"]  # type: ignore[assignment]
        if not survivors and not equivalent:
            continue
        lines += ["", f"## {r['module']}", ""]
        for name, diff in survivors.items():
            lines += [f"- survived `{name}`", "", "```diff", diff, "```"]
        for name, why in equivalent.items():
            lines.append(f"- equivalent `{name}`: {why}")
    return "\n".join(lines) + "\n"


def _scope(result: dict[str, object]) -> str:
    functions = result.get("functions") or []
    return f" ({', '.join(functions)} only)" if functions else ""  # type: ignore[arg-type]


def rescore(result: dict[str, object], equivalent: dict[str, str]) -> dict[str, object]:
    """``result`` with the survivors now listed in ``equivalent`` moved out of the rate's
    denominator (after classifying survivors, without running the mutants again)."""
    survivors: dict[str, str] = dict(result["survivors"])  # type: ignore[call-overload]
    listed: dict[str, str] = dict(result["equivalent"])  # type: ignore[call-overload]
    for name in [n for n in survivors if n in equivalent]:
        del survivors[name]
        listed[name] = equivalent[name]
    killed: int = result["killed"]  # type: ignore[assignment]
    checked = (
        killed
        + len(survivors)
        + sum(
            n
            for s, n in result["statuses"].items()  # type: ignore[attr-defined]
            if s in {"no tests", "suspicious"}
        )
    )
    return dict(
        result,
        survivors=survivors,
        equivalent=listed,
        kill_rate=round(killed / checked, 4) if checked else None,
    )


def _order(module: str, base: dict[str, object]) -> int:
    """Position in only_mutate, so a merged report keeps the configured order."""
    listed: list[str] = list(base["only_mutate"])  # type: ignore[call-overload]
    return listed.index(module) if module in listed else len(listed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", help="a path of only_mutate (repeatable)")
    parser.add_argument("--out", type=Path, default=SCRATCH / "report.md")
    parser.add_argument("--budget-s", type=float, default=1800.0, help="per module")
    parser.add_argument("--children", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    parser.add_argument(
        "--function",
        action="append",
        help="only this top-level function's mutants (repeatable; with one --module)",
    )
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="run nothing: re-apply mutation_equivalent.json to the report's results",
    )
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the other modules' results already in the report (run one module at a time)",
    )
    args = parser.parse_args(argv)
    tool = _config()
    base: dict[str, object] = tool["mutmut"]  # type: ignore[assignment]
    tests_of: dict[str, list[str]] = tool["studybench-mutation"]["tests"]  # type: ignore[index]
    modules = args.module or list(base["only_mutate"])  # type: ignore[call-overload]
    if args.function and len(modules) != 1:
        parser.error("--function needs exactly one --module")
    results = []
    if args.rescore:
        equivalent = json.loads(EQUIVALENT.read_text()) if EQUIVALENT.exists() else {}
        stored = json.loads(args.out.with_suffix(".json").read_text())
        results = [rescore(r, equivalent) for r in stored]
        args.out.write_text(markdown(results))
        args.out.with_suffix(".json").write_text(json.dumps(results, indent=1))
        print(f"report: {args.out}")
        return 0
    for module in modules:
        if module not in tests_of:
            parser.error(f"{module}: no tests listed in [tool.studybench-mutation.tests]")
        print(f"mutating {module} ...", flush=True)
        result = run_module(
            module, tests_of[module], base, args.budget_s, args.children, args.function
        )
        rate = result["kill_rate"]
        print(
            f"  {result['mutants']} mutants, {result['killed']} killed, "
            f"{len(result['survivors'])} survived, kill rate "  # type: ignore[arg-type]
            f"{'-' if rate is None else f'{rate:.1%}'} ({result['elapsed_s']} s)",
            flush=True,
        )
        results.append(result)
    previous = args.out.with_suffix(".json")
    if args.merge and previous.exists():
        ran = {r["module"] for r in results}
        kept = [r for r in json.loads(previous.read_text()) if r["module"] not in ran]
        results = sorted(kept + results, key=lambda r: _order(str(r["module"]), base))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(markdown(results))
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=1))
    print(f"report: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
