"""The test tiers (tests/tiers.py, tests/tiers.json) and the suite's timing tools
(perf/suite_durations.py, perf/suite_budget.py): the fast tier's guard refuses a
listening port in the pytest process, in a Python child and through the other tiers' tools,
and fails a fast session that opens one; the rules and the budget behave as their tables say."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.tiers import (
    FastTierError,
    TierRules,
    _prefix_of,
    _refusing_listen,
    guarded,
    nodeid_of,
    read_violations,
)

sys.path.insert(0, str(ROOT / "perf"))
import suite_budget
import suite_durations

CASES = json.loads(Path(__file__).with_name("tiers_cases.json").read_text())


def _listen() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()


def test_the_guard_refuses_and_records_a_listen_in_this_process(tmp_path: Path) -> None:
    violations = tmp_path / "v" / "violations.jsonl"
    violations.parent.mkdir()
    before = socket.socket.listen  # the real one, or a fast session's own guard
    with guarded(violations, ("bwrap",)), pytest.raises(FastTierError, match="mark the test"):
        _listen()
    (found,) = read_violations(violations)
    assert found["what"].startswith("listen() on ('127.0.0.1', ") and found["pid"] == os.getpid()
    assert socket.socket.listen is before  # restored on exit


def test_the_guard_reaches_python_children_and_the_other_tiers_tools(tmp_path: Path) -> None:
    violations = tmp_path / "v" / "violations.jsonl"
    violations.parent.mkdir()
    path = os.environ["PATH"]
    code = "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()"
    with guarded(violations, ("bwrap", "chromium")):
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        tool = subprocess.run(["bwrap", "--version"], capture_output=True, text=True)
    assert child.returncode == 1 and "the fast tier opens no listening port" in child.stderr
    assert tool.returncode == 127 and "the fast tier runs no bwrap" in tool.stderr
    found = read_violations(violations)
    assert [v["what"].split(" ")[0] for v in found] == ["listen()", "ran"]
    assert found[0]["pid"] != os.getpid() and found[1]["what"] == "ran bwrap"
    assert os.environ["PATH"] == path  # the session's PATH is restored


def _child_pytest(*args: str) -> subprocess.CompletedProcess[str]:
    """A pytest session of this project in a child process (as ``make`` runs one)."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args]
    return subprocess.run(
        command, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=300
    )


# serial, and on two xdist workers (the guard is on in each; the controller reads the file)
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "two-workers"])
def test_a_fast_session_that_opens_a_port_fails_naming_the_test(
    pytestconfig: pytest.Config, workers: list[str]
) -> None:
    if pytestconfig.getoption("--fast-tier"):  # this session is one: its guard is on
        assert socket.socket.listen is _refusing_listen  # (a real listen would fail it)
        return
    probe = "tests/probes/port_probe.py::test_probe_an_unmarked_test_that_opens_a_port"
    done = _child_pytest("--fast-tier", *workers, probe)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "fast tier guard: refused ports/tools" in output
    assert re.search(r"test_probe_an_unmarked_test_that_opens_a_port .*listen\(\)", output)


def test_the_timing_of_a_two_worker_session_holds_the_workers_fixture_setups(
    tmp_path: Path,
) -> None:
    timing = tmp_path / "timing.json"
    probes = ["tests/probes/timing_probe.py", "tests/probes/timing_probe_other.py"]
    done = _child_pytest("-n", "2", "--dist", "loadfile", f"--suite-timing={timing}", *probes)
    assert done.returncode == 0, done.stdout + done.stderr
    payload = json.loads(timing.read_text())
    grouped = [f"{probes[0]}::test_probe_grouped", f"{probes[1]}::test_probe_grouped_elsewhere"]
    grouped += [f"{probes[0]}::test_probe_grouped_case[{who}]" for who in ("user@host", "plain")]
    ungrouped = [
        f"{probes[0]}::test_probe_ungrouped",
        f"{probes[1]}::test_probe_ungrouped_elsewhere",
    ]
    assert sorted(payload["tests"]) == sorted(grouped + ungrouped)
    tests = payload["tests"]
    assert all(
        {"setup", "call", "teardown"} <= set(entry) and entry["outcome"] == "passed"
        for entry in tests.values()
    )
    assert len({tests[nodeid]["worker"] for nodeid in grouped}) == 1  # one group, one worker
    workers = {entry["worker"] for entry in tests.values()}
    assert workers == {"gw0", "gw1"}  # three units (the group, two files) on two workers
    slept = [f for f in payload["fixtures"] if f["name"] == "slept"]
    # set up once in each worker that ran a test needing it, with the time it cost there
    needing = {tests[n]["worker"] for n in [*grouped[:1], *grouped[2:], ungrouped[0]]}
    assert sorted(f["worker"] for f in slept) == sorted(needing)
    assert all(f["scope"] == "session" and f["inclusive_s"] >= 0.3 for f in slept)
    assert payload["wall_s"] >= 0.3 and payload["exitstatus"] == 0


@pytest.mark.parametrize("case", CASES["nodeid"], ids=lambda c: c["reported"])
def test_a_group_suffix_is_taken_off_the_reported_node_id(case: dict[str, str]) -> None:
    assert nodeid_of(case["reported"]) == case["nodeid"]


@pytest.mark.parametrize("case", CASES["prefix"], ids=lambda c: f"{c['prefix']}|{c['nodeid']}")
def test_a_prefix_covers_at_a_boundary(case: dict[str, Any]) -> None:
    assert _prefix_of(case["prefix"], case["nodeid"]) is case["covers"]


@pytest.mark.parametrize("case", CASES["bad_rules"], ids=lambda c: c["error"][:40])
def test_a_rule_with_an_unknown_or_no_marker_is_refused(
    case: dict[str, Any], tmp_path: Path
) -> None:
    raw = json.loads((ROOT / "tests" / "tiers.json").read_text())
    for section, entries in case["change"].items():
        raw[section] = {**raw[section], **entries}
    path = tmp_path / "tiers.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}: {case['error']}"):
        TierRules.load(path)


def test_the_project_rules_load() -> None:
    rules = TierRules.load()
    assert rules.fixtures["vllm_tiny"][0] == ("vllm", "server", "slow")
    assert "bwrap" in rules.tools
    # every vLLM test in one xdist group: one session server, never two vLLM servers at once
    assert rules.group_for({"vllm", "server", "slow"}) == "vllm"
    assert rules.group_for({"server"}) is None and rules.group_for(set()) is None


def _timing(tmp_path: Path, wall_s: float) -> Path:
    payload = {
        "wall_s": wall_s,
        "tests": {
            "tests/a/test_x.py::test_one": {"setup": 5.0, "call": 1.0, "teardown": 0.0},
            "tests/a/test_x.py::test_two": {"call": 2.0},
            "tests/b/test_y.py::test_three[p]": {"call": 4.0},
        },
        "fixtures": [
            {"name": "tiny_model", "scope": "session", "baseid": "tests", "inclusive_s": 5.0,
             "exclusive_s": 4.0},
            {"name": "tmp_path", "scope": "function", "baseid": "", "inclusive_s": 1.0,
             "exclusive_s": 1.0},
        ],
    }  # fmt: skip
    path = tmp_path / "timing.json"
    path.write_text(json.dumps(payload))
    return path


def test_durations_aggregate_by_file_folder_and_fixture(tmp_path: Path) -> None:
    times = suite_durations.load(_timing(tmp_path, 20.0))
    assert suite_durations.by_key(times, "file") == [
        ("tests/a/test_x.py", 8.0, 2),
        ("tests/b/test_y.py", 4.0, 1),
    ]
    assert suite_durations.by_key(times, "folder")[0] == ("tests/a", 8.0, 2)
    assert suite_durations.by_fixture(times)[0] == ("tiny_model (tests)", "session", 4.0, 5.0, 1)
    text = suite_durations.report(times, 2)
    assert "3 tests, 12 s summed over tests, 20 s wall" in text
    assert text.index("test_one") < text.index("test_three")


def test_durations_of_a_two_worker_session_sum_each_workers_busy_time(tmp_path: Path) -> None:
    path = _timing(tmp_path, 9.0)
    payload = json.loads(path.read_text())
    for nodeid, worker in zip(sorted(payload["tests"]), ["gw0", "gw1", "gw0"], strict=True):
        payload["tests"][nodeid]["worker"] = worker
    payload["fixtures"][0]["worker"] = "gw0"
    path.write_text(json.dumps(payload))
    times = suite_durations.load(path)
    # test_one 6 s + test_three 4 s on gw0; test_two 2 s on gw1 (sorted ids: one, two, three)
    assert suite_durations.by_worker(times) == [("gw0", 10.0, 2), ("gw1", 2.0, 1)]
    assert times.fixtures[0].worker == "gw0" and times.fixtures[1].worker == ""
    assert "| 10.0 | 2 | `gw0` |" in suite_durations.report(times, 2)
    assert suite_durations.by_worker(suite_durations.load(_timing(tmp_path, 9.0))) == []


def test_durations_text_is_read_and_a_file_without_it_refused(tmp_path: Path) -> None:
    text = tmp_path / "durations.txt"
    text.write_text(
        "== slowest durations ==\n5.00s setup    tests/a/test_x.py::test_one\n"
        "1.00s call     tests/a/test_x.py::test_one\n2.00s call     tests/a/test_x.py::test_two\n"
        "== 2 passed in 9.50s ==\n"
    )
    parsed = suite_durations.load(text)
    assert parsed.wall_s == 9.5 and parsed.total("tests/a/test_x.py::test_one") == 6.0
    bad = tmp_path / "bad.txt"
    bad.write_text("no durations here\n")
    missing = re.escape("bad.txt: no '<seconds>s <phase> <test>' lines")
    with pytest.raises(ValueError, match=missing):
        suite_durations.load(bad)


@pytest.mark.parametrize("case", CASES["budget"], ids=lambda c: f"{c['wall_s']}-{c['margin']}")
def test_the_budget_holds_to_its_margin(case: dict[str, Any], tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        f"[tool.studybench-suite]\nfull_budget_s = {case['budget']}\nmargin = {case['margin']}\n"
    )
    ok, text = suite_budget.check(_timing(tmp_path, case["wall_s"]), "full", 5, pyproject)
    assert ok is case["ok"]
    assert ("OVER BUDGET" in text) is not case["ok"]
    assert text.splitlines()[2].split()[-1] == "tests/a/test_x.py"  # slowest file first


def test_the_project_states_both_budgets() -> None:
    # [tool.studybench-suite]: issue 33's goal (15 minutes) plus headroom for CI machines
    assert suite_budget.budget_for("full") == (900.0, 0.2)
    assert suite_budget.budget_for("fast")[0] == 120.0
    with pytest.raises(ValueError, match=r"\[tool.studybench-suite\] has no 'nightly_budget_s'"):
        suite_budget.budget_for("nightly")
