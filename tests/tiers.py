"""Test tiers and suite timing, as hooks that tests/conftest.py re-exports.

Tiers. Every test that needs something beyond the main ``.venv`` in the pytest process gets
markers automatically, from rules in ``tests/tiers.json`` (why: marking hundreds of tests by
hand drifts; a rule keyed on what a test *uses* does not):

- ``fixtures``: a test that requests the fixture (directly or through another fixture), e.g.
  ``vllm_tiny`` -> ``vllm``, ``server``, ``slow``; ``where`` limits a rule to the fixture
  defined under that folder (``judge`` of the SE-Bench tests is the sandboxed one);
- ``params``: a test whose parametrised fixture takes that value (``store=server``: the
  case that asks for the MLflow server through ``request.getfixturevalue``);
- ``uses``: a test module holding (as a global) an object defined in one of these modules,
  e.g. the loopback fakes of ``tests/engines`` -> ``server``, or a helper function from
  another module whose code uses one (a conftest's ``student_server`` wrapping the fake);
- ``paths``: a test whose node id starts with the prefix (a folder, a file or a test);
- ``slow``: node id prefixes measured at seconds each (perf/suite_durations.py).

``--fast-tier`` deselects every test with a tier marker and *guards* the rest: a listening
socket (in the pytest process, or in any Python child through ``tests/fast_guard``'s
sitecustomize) and the external tools of the other tiers (bwrap, chromium, redis-server...)
are refused and recorded, and a recorded attempt fails the session, naming the test. So a
test that opens a port or needs an install cannot slip into the fast tier unmarked.

Timing. ``--suite-timing=PATH`` writes the session's wall time, each test's phases and each
fixture's set-up time (exclusive of the fixtures it requests) as JSON, which
perf/suite_durations.py aggregates and perf/suite_budget.py checks.

Workers (pytest-xdist; ``make test`` runs ``-n $(PYTEST_WORKERS) --dist loadfile``). The
``groups`` rules give tests an ``xdist_group`` mark by tier marker (every ``vllm`` test in one
group). Under ``--dist loadfile`` this plugin's scheduler sends one unit per group and one per
file otherwise, longest first by the last timing file: the vLLM tests share one worker, so the
session's vLLM server starts once and no two compete for two cores and the memory; a file's
module fixtures (a migrated Airflow home, a started stack) are set up once; the slowest files
do not end the session on one worker. (xdist's own ``loadgroup`` cannot be used: it renames
a grouped test's node id through ``Node._nodeid``, which pytest 9 no longer reads, so its
groups are silently ignored.) Fixtures are set up in the workers:
each worker attaches the set-ups it timed to the next test report (``user_properties``), so
the controller's timing file holds them, with the worker that paid. The fast tier's guard
is on in every worker and all of them record into the controller's one violations file,
which the controller reads once the workers are done.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import socket
import stat
import tempfile
import time
import types
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
RULES_FILE = HERE / "tiers.json"
GUARD_DIR = HERE / "fast_guard"
TIERS = ("slow", "server", "airflow", "vllm", "browser", "sandbox")
# what a guarded process writes to refuse a port or a tool (one JSON line per attempt)
VIOLATIONS_ENV = "STUDYBENCH_FAST_TIER_VIOLATIONS"
# the key under which a worker's report carries the fixture set-ups it timed
FIXTURES_PROPERTY = "studybench-fixture-setups"
# the workerinput key of the folder where each worker writes its tests' xdist groups
GROUPS_INPUT = "studybench_groups"


class FastTierError(OSError):
    """Raised by the fast-tier guard; an OSError, so servers fail the way a taken port does."""


# ---------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class TierRules:
    fixtures: dict[str, tuple[tuple[str, ...], str]]  # name -> (markers, where)
    params: dict[str, tuple[str, ...]]  # "fixture=param" -> markers
    uses: dict[str, tuple[str, ...]]  # "module" or "module:qualname" -> markers
    paths: dict[str, tuple[str, ...]]  # node id prefix -> markers
    slow: tuple[str, ...]  # node id prefixes
    tools: tuple[str, ...]  # external programs refused in the fast tier
    groups: dict[str, str] = field(default_factory=dict)  # tier marker -> xdist group

    @classmethod
    def load(cls, path: Path = RULES_FILE) -> TierRules:
        raw = json.loads(path.read_text())
        rules = cls(
            fixtures={
                name: (tuple(rule["markers"]), rule.get("where", ""))
                for name, rule in raw["fixtures"].items()
            },
            params={key: tuple(markers) for key, markers in raw.get("params", {}).items()},
            uses={module: tuple(markers) for module, markers in raw["uses"].items()},
            paths={prefix: tuple(markers) for prefix, markers in raw["paths"].items()},
            slow=tuple(raw["slow"]),
            tools=tuple(raw["tools"]),
            groups=dict(raw.get("groups", {})),
        )
        for marker, group in rules.groups.items():
            if marker not in TIERS or not group:
                raise ValueError(f"{path}: groups.{marker}: {group!r} (keys are tiers: {TIERS})")
        for where, markers in [
            *((f"fixtures.{n}", m) for n, (m, _) in rules.fixtures.items()),
            *((f"params.{n}", m) for n, m in rules.params.items()),
            *((f"uses.{n}", m) for n, m in rules.uses.items()),
            *((f"paths.{n}", m) for n, m in rules.paths.items()),
        ]:
            unknown = sorted(set(markers) - set(TIERS))
            if unknown or not markers:
                raise ValueError(f"{path}: {where}: markers {list(markers)} (tiers: {TIERS})")
        return rules

    def markers_for(self, item: pytest.Item) -> set[str]:
        found: set[str] = set()
        nodeid = item.nodeid
        for prefix, markers in self.paths.items():
            if _prefix_of(prefix, nodeid):
                found.update(markers)
        if any(_prefix_of(prefix, nodeid) for prefix in self.slow):
            found.add("slow")
        callspec = getattr(item, "callspec", None)
        if callspec is not None:
            for key, markers in self.params.items():
                name, _, value = key.partition("=")
                if str(callspec.params.get(name, object())) == value:
                    found.update(markers)
        info = getattr(item, "_fixtureinfo", None)
        if info is not None:
            for name in info.names_closure:
                rule = self.fixtures.get(name)
                if rule is None:
                    continue
                markers, where = rule
                if where and not any(
                    d.baseid.startswith(where) for d in info.name2fixturedefs.get(name, ())
                ):
                    continue
                found.update(markers)
        module = getattr(item, "module", None)
        if module is not None:
            found.update(self._module_markers(module))
        return found

    def group_for(self, markers: set[str]) -> str | None:
        """The xdist group of a test with these tier markers (the first rule that applies,
        in the order of ``groups``), or None."""
        for marker, group in self.groups.items():
            if marker in markers:
                return group
        return None

    def _module_markers(self, module: Any) -> set[str]:
        cached: set[str] | None = getattr(module, "__studybench_tiers__", None)
        if cached is not None:
            return cached
        found: set[str] = set()
        for value in vars(module).values():
            found.update(self._object_markers(value))
            # a helper defined elsewhere (a conftest's context manager) that uses a fake
            function = inspect.unwrap(value) if inspect.isfunction(value) else None
            if function is not None and function.__module__ != module.__name__:
                for name in _names_used(function.__code__):
                    found.update(self._object_markers(function.__globals__.get(name)))
        module.__studybench_tiers__ = found
        return found

    def _object_markers(self, value: object) -> set[str]:
        if value is None:
            return set()
        if _is_module(value):
            defined, name = getattr(value, "__name__", ""), ""
        else:
            defined = getattr(value, "__module__", "") or ""
            name = getattr(value, "__qualname__", "") or ""
        found: set[str] = set()
        for source, markers in self.uses.items():
            where, _, wanted = source.partition(":")
            if (defined == where or defined.startswith(where + ".")) and (
                not wanted or wanted == name
            ):
                found.update(markers)
        return found


def _names_used(code: types.CodeType) -> set[str]:
    """The global names a function's code (and the code nested in it) refers to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names_used(const)
    return names


def _is_module(value: object) -> bool:
    return type(value).__name__ == "module"


def _prefix_of(prefix: str, nodeid: str) -> bool:
    """``tests/x`` covers ``tests/x/...`` and ``tests/x.py::...``-style ids only at a
    boundary; a test prefix covers its parametrised cases."""
    if not nodeid.startswith(prefix):
        return False
    rest = nodeid[len(prefix) :]
    return not rest or prefix.endswith(("/", ".py")) or rest[0] in "/[:."


# ---------------------------------------------------------------------------- the guard


def record_violation(what: str) -> None:
    """Append one refused attempt to the session's violations file (from any process)."""
    target = os.environ.get(VIOLATIONS_ENV)
    if target:
        line = {"what": what, "pid": os.getpid(), "test": os.environ.get("PYTEST_CURRENT_TEST")}
        with Path(target).open("a") as out:
            out.write(json.dumps(line) + "\n")


def _refusing_listen(self: socket.socket, *args: Any) -> None:
    what = f"listen() on {self.getsockname()!r}"
    record_violation(what)
    raise FastTierError(f"the fast tier opens no listening port ({what}): mark the test `server`")


@contextmanager
def guarded(violations: Path, tools: tuple[str, ...]) -> Iterator[None]:
    """Refuse listening sockets here and in Python children, and the given tools on PATH."""
    shims = violations.parent / "fast-tier-shims"
    shims.mkdir(parents=True, exist_ok=True)
    for tool in tools:
        shim = shims / tool
        shim.write_text(
            "#!/bin/sh\n"
            f'printf \'{{"what": "ran {tool}", "pid": %s, "test": "%s"}}\\n\' "$$" '
            f'"$PYTEST_CURRENT_TEST" >> "${VIOLATIONS_ENV}"\n'
            f'echo "the fast tier runs no {tool}: mark the test" >&2\nexit 127\n'
        )
        shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    saved = {name: os.environ.get(name) for name in (VIOLATIONS_ENV, "PYTHONPATH", "PATH")}
    os.environ[VIOLATIONS_ENV] = str(violations)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(GUARD_DIR), saved["PYTHONPATH"]]))
    os.environ["PATH"] = os.pathsep.join(filter(None, [str(shims), saved["PATH"]]))
    original = socket.socket.listen
    socket.socket.listen = _refusing_listen  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        socket.socket.listen = original  # type: ignore[method-assign]
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def read_violations(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------------------- timing


@dataclass
class SuiteTiming:
    started: float = field(default_factory=time.time)
    tests: dict[str, dict[str, Any]] = field(default_factory=dict)
    fixtures: list[dict[str, Any]] = field(default_factory=list)
    _stack: list[float] = field(default_factory=list)  # child time of the open set-ups

    _pending: list[dict[str, Any]] = field(default_factory=list)  # a worker's, not yet sent

    def report(self, report: pytest.TestReport) -> None:
        entry = self.tests.setdefault(nodeid_of(report.nodeid), {"outcome": "passed"})
        entry[report.when] = round(report.duration, 4)
        if report.failed or (report.skipped and report.when != "teardown"):
            entry["outcome"] = report.outcome
        worker = worker_of(report)
        if worker:
            entry["worker"] = worker
        for key, value in report.user_properties:
            if key == FIXTURES_PROPERTY and isinstance(value, list):  # timed in a worker
                self.fixtures.extend({**setup, "worker": worker} for setup in value)

    def fixture(self, name: str, scope: str, baseid: str, inclusive: float, child: float) -> None:
        self.fixtures.append(
            {
                "name": name,
                "scope": scope,
                "baseid": baseid,
                "inclusive_s": round(inclusive, 4),
                "exclusive_s": round(max(inclusive - child, 0.0), 4),
            }
        )

    def write(self, path: Path, exitstatus: int) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "wall_s": round(time.time() - self.started, 2),
            "exitstatus": int(exitstatus),
            "tests": self.tests,
            "fixtures": self.fixtures,
        }
        path.write_text(json.dumps(payload, indent=1))


def nodeid_of(nodeid: str) -> str:
    """A test's own node id: ``--dist loadgroup`` appends ``@<group>`` to a grouped test's
    id in the workers (a parametrised id may itself hold an ``@``, inside its brackets)."""
    head, at, group = nodeid.rpartition("@")
    return head if at and "]" not in group and "::" not in group and "/" not in group else nodeid


def worker_of(report: pytest.TestReport) -> str:
    """The xdist worker (``gw0``...) that ran a report's test, "" in a serial session."""
    node = getattr(report, "node", None)
    gateway = getattr(node, "gateway", None)
    return str(getattr(gateway, "id", "") or "")


def is_worker(config: pytest.Config) -> bool:
    """True in an xdist worker (which runs tests; the controller only gathers reports)."""
    return hasattr(config, "workerinput")


def previous_durations(path: Path) -> dict[str, float]:
    """Each test's seconds (set-up + call + teardown) in an earlier timing file at ``path``,
    or nothing when there is none (the scheduler then keeps xdist's order)."""
    try:
        tests = json.loads(path.read_text())["tests"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {
        nodeid: sum(float(entry.get(p, 0.0)) for p in ("setup", "call", "teardown"))
        for nodeid, entry in tests.items()
    }


def group_of(item: pytest.Item) -> str | None:
    """A test's xdist group (its closest ``xdist_group`` mark), as xdist names it."""
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return None
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def group_file_scheduling(
    config: pytest.Config, log: Any, groups_dir: Path, durations: dict[str, float]
) -> Any:
    """An xdist scheduler whose units are an ``xdist_group`` (all its tests on one worker) or
    else a file, handed out longest first by ``durations`` (the longest-processing-time rule:
    on two workers the session ends close to half the summed time, not with one worker
    running the slowest file alone)."""
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class GroupFileScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(config, log)
            self._groups: dict[str, str] | None = None
            self._ordered = False

        def _group(self, nodeid: str) -> str | None:
            if self._groups is None:  # first asked once every worker has collected
                self._groups = {}
                for path in sorted(groups_dir.glob("*.json")):
                    self._groups.update(json.loads(path.read_text()))
            return self._groups.get(nodeid_of(nodeid))

        def _split_scope(self, nodeid: str) -> str:
            group = self._group(nodeid)
            return f"group:{group}" if group else nodeid.split("::", 1)[0]

        def _assign_work_unit(self, node: Any) -> None:
            if not self._ordered:  # the queue is complete before its first unit goes out
                self._ordered = True
                units = sorted(
                    self.workqueue.items(),
                    key=lambda unit: -sum(durations.get(nodeid_of(n), 0.0) for n in unit[1]),
                )
                self.workqueue.clear()
                self.workqueue.update(units)
            super()._assign_work_unit(node)

    return GroupFileScheduling()


# ---------------------------------------------------------------------------- hooks

_RULES = pytest.StashKey[TierRules]()
_TIMING = pytest.StashKey[SuiteTiming]()
_VIOLATIONS = pytest.StashKey[Path]()
_GUARD = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("studybench tiers")
    group.addoption(
        "--fast-tier",
        action="store_true",
        help="run only the tests with no tier marker, refusing ports and the other tiers' tools",
    )
    group.addoption(
        "--suite-timing",
        metavar="PATH",
        default="",
        help="write wall time, test phases and fixture set-up times as JSON to PATH",
    )


def pytest_configure(config: pytest.Config) -> None:
    declared = {line.split(":", 1)[0].strip() for line in config.getini("markers")}
    missing = sorted(set(TIERS) - declared)
    if missing:
        raise pytest.UsageError(f"tier markers {missing} are not declared in pyproject.toml")
    config.stash[_RULES] = TierRules.load()
    if config.getoption("--suite-timing"):
        config.stash[_TIMING] = SuiteTiming()
    config.pluginmanager.register(TierPlugin(config.stash.get(_TIMING, None)), "studybench-tiers")
    if config.getoption("--fast-tier"):
        inherited = os.environ.get(VIOLATIONS_ENV)
        tools: tuple[str, ...]
        if is_worker(config) and inherited:
            # an xdist worker: the controller's file (the environment it started us with),
            # its tool shims already first on PATH; this process's listen() is refused too
            violations, tools = Path(inherited), ()
        else:
            # one violations file per session, outside the tests' tmp folders
            violations = Path(tempfile.mkdtemp(prefix="studybench-fast-tier-")) / "violations.jsonl"
            config.stash[_VIOLATIONS] = violations
            tools = config.stash[_RULES].tools
        guard = guarded(violations, tools)
        guard.__enter__()
        config.stash[_GUARD] = guard


class TierPlugin:
    """The session-wide hooks, registered as a plugin: a conftest's own hooks would not see
    the set-up of session fixtures (pytest calls those from the session's node)."""

    def __init__(self, timing: SuiteTiming | None) -> None:
        self.timing = timing
        self.groups_dir: Path | None = None  # the controller's, once a worker is configured

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        guard = config.stash.get(_GUARD, None)
        if guard is not None:
            guard.__exit__(None, None, None)
        violations = config.stash.get(_VIOLATIONS, None)  # the owner's (not a worker's)
        if violations is not None:
            shutil.rmtree(violations.parent, ignore_errors=True)
        if self.groups_dir is not None:
            shutil.rmtree(self.groups_dir, ignore_errors=True)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """Tell each xdist worker where to write its tests' groups for the scheduler."""
        if self.groups_dir is None:
            self.groups_dir = Path(tempfile.mkdtemp(prefix="studybench-xdist-groups-"))
        node.workerinput[GROUPS_INPUT] = str(self.groups_dir)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        """``--dist loadfile``: a unit per xdist group or file, longest first (see
        ``group_file_scheduling``); other modes are xdist's own."""
        if config.getvalue("dist") != "loadfile" or self.groups_dir is None:
            return None
        timing = config.getoption("--suite-timing")
        durations = previous_durations(Path(timing)) if timing else {}
        return group_file_scheduling(config, log, self.groups_dir, durations)

    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        rules = config.stash[_RULES]
        fast = config.getoption("--fast-tier")
        xdist = config.pluginmanager.hasplugin("xdist")  # its xdist_group mark is declared
        keep: list[pytest.Item] = []
        dropped: list[pytest.Item] = []
        for item in items:
            for marker in sorted(rules.markers_for(item)):
                item.add_marker(marker)
            tiers = {t for t in TIERS if item.get_closest_marker(t)}
            group = rules.group_for(tiers) if xdist else None
            if group is not None and item.get_closest_marker("xdist_group") is None:
                item.add_marker(pytest.mark.xdist_group(group))
            tiered = bool(tiers)
            (dropped if fast and tiered else keep).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep
        workerinput: dict[str, Any] = getattr(config, "workerinput", {})
        groups_dir = workerinput.get(GROUPS_INPUT)
        if groups_dir:  # an xdist worker: the controller's scheduler reads these
            groups = {item.nodeid: g for item in keep if (g := group_of(item)) is not None}
            target = Path(groups_dir) / f"{workerinput['workerid']}.json"
            partial = target.with_suffix(".partial")
            partial.write_text(json.dumps(groups))
            partial.rename(target)

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(
        self, fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
    ) -> Generator[None, Any, Any]:
        timing = request.config.stash.get(_TIMING, None)
        if timing is None:
            return (yield)
        timing._stack.append(0.0)
        started = time.perf_counter()
        try:
            return (yield)
        finally:
            inclusive = time.perf_counter() - started
            child = timing._stack.pop()
            if timing._stack:
                timing._stack[-1] += inclusive
            timing.fixture(
                fixturedef.argname, fixturedef.scope, fixturedef.baseid, inclusive, child
            )
            if is_worker(request.config):
                timing._pending.append(timing.fixtures[-1])

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        timing = item.config.stash.get(_TIMING, None)
        if timing is not None and timing._pending and is_worker(item.config):
            # the set-ups this worker timed since its last report travel with this one
            report.user_properties.append((FIXTURES_PROPERTY, timing._pending))
            timing._pending = []
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.timing is not None:
            self.timing.report(report)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        config = session.config
        if is_worker(config):
            return  # the controller reads the violations and writes the timing file
        violations = config.stash.get(_VIOLATIONS, None)
        if violations is not None:
            found = read_violations(violations)
            if found:
                lines = [f"  {v.get('test') or '?'}: {v['what']} (pid {v['pid']})" for v in found]
                reporter = config.pluginmanager.get_plugin("terminalreporter")
                text = "fast tier guard: refused ports/tools (mark these tests):\n" + "\n".join(
                    lines
                )
                if reporter is not None:
                    reporter.write_line(text, red=True)
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
        timing = config.stash.get(_TIMING, None)
        if timing is not None:
            timing.write(Path(config.getoption("--suite-timing")), int(session.exitstatus))
