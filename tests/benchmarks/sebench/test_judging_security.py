"""Attacks on the judge, planted for real: the reflection routes of the issue are refused by
the static allowlist; with the static checks skipped (``Judge.run_code``), a forged report, a
monkeypatched ``json.dumps`` and a search for the expected outputs still cannot turn a wrong
answer into a pass, because the judge (the sandbox's parent) compares on the host; and the
text a candidate controls reaches a verdict bounded, single-line and scrubbed."""

from __future__ import annotations

import pytest

from studybench.benchmarks.sebench.judging import MAX_DETAIL, Judge
from studybench.benchmarks.sebench.package import ObfuscatedPackage
from studybench.benchmarks.sebench.tasks import SETask

from .conftest import fenced, obf

MARKER = 987654.321


@pytest.fixture(scope="module")
def task() -> SETask:
    """One task whose expected output is a marker the candidate cannot know."""
    return SETask.model_validate(
        {
            "id": "secret-total",
            "query": "Return the total of the numbers.",
            "stub": "def total(values):",
            "test_cases": [
                {"kwargs": {"values": [1, 2]}, "expected": MARKER},
                {"kwargs": {"values": [3]}, "expected": MARKER + 1},
            ],
            "functions": ["array", "sum"],
        }
    )


def _code(package: ObfuscatedPackage, body: str, head: str = "") -> str:
    call = f"{obf(package, 'sum')}(values)"
    return f"import zwc\n{head}\ndef total(values):\n{body}\n    return {call}\n"


REFLECTION = {
    "attrgetter __globals__": (
        "import operator",
        "    g = operator.attrgetter('__globals__')(total)\n"
        "    np = g['__builtins__']['__import__']('numpy')",
    ),
    "itemgetter __builtins__": (
        "from operator import itemgetter",
        "    b = itemgetter('__builtins__')(total.__globals__)",
    ),
    "attrgetter _value on a package array": (
        "import operator",
        f"    raw = operator.attrgetter('_value')(zwc.{'{array}'}(values))",
    ),
}


@pytest.mark.parametrize("route", sorted(REFLECTION))
def test_reflection_routes_are_refused(
    judge: Judge, package: ObfuscatedPackage, task: SETask, route: str
) -> None:
    head, body = REFLECTION[route]
    body = body.replace("{array}", package.mapping["array"])
    verdict = judge.judge(fenced(_code(package, body, head)), task)
    assert verdict.reason == "ast_violation" and not verdict.correct, verdict.detail


def test_a_forged_report_on_every_descriptor_does_not_pass(
    judge: Judge, package: ObfuscatedPackage, task: SETask
) -> None:
    """The candidate writes a 'passing' report (with a nonce, as the old harness trusted) to
    every inherited descriptor and exits before the harness can write its own."""
    forged = (
        '{"nonce": "0123456789abcdef", "load_error": null, "cases": [{"ok": true}, {"ok": true}]}'
    )
    plain = '{"load_error": null, "cases": [{"ok": true, "value": 1}, {"ok": true, "value": 2}]}'
    for report in (forged, plain):
        code = (
            "import os\n"
            f"for fd in range(1, 20):\n"
            "    try:\n"
            f"        os.write(fd, {report!r}.encode())\n"
            "    except OSError:\n"
            "        pass\n"
            "os._exit(0)\n"
        )
        reason, _, passed = judge.run_code(code + _code(package, "    pass"), task)
        assert reason in ("runtime_error", "wrong_output") and passed == 0, reason


def test_monkeypatching_the_harness_does_not_pass(
    judge: Judge, package: ObfuscatedPackage, task: SETask
) -> None:
    fake = '{"load_error": null, "cases": [{"ok": true, "value": 0}, {"ok": true, "value": 0}]}'
    code = f"import json\njson.dumps = lambda *a, **k: {fake!r}\n" + _code(package, "    pass")
    reason, _, passed = judge.run_code(code, task)
    assert reason == "wrong_output" and passed == 0


def test_expected_outputs_never_enter_the_sandbox(
    judge: Judge, package: ObfuscatedPackage, task: SETask
) -> None:
    """The candidate searches every readable file for the expected value and returns it if
    found; it is not found, so the answer stays wrong."""
    code = (
        "import os\n"
        f"NEEDLE = str({int(MARKER * 1000)} / 1000).encode()  # not written out in this file\n"
        "FOUND = 0.0\n"
        "for top in ('/tmp', '/opt', '/proc/self', '/proc/1'):\n"
        "    for root, dirs, files in os.walk(top):\n"
        "        dirs[:] = [d for d in dirs if d not in ('task', 'fd', 'map_files', 'numpy')]\n"
        "        for name in files:\n"
        "            try:\n"
        "                with open(os.path.join(root, name), 'rb') as handle:\n"
        "                    if NEEDLE in handle.read(2_000_000):\n"
        "                        FOUND = float(NEEDLE)\n"
        "            except OSError:\n"
        "                pass\n"
        "import zwc\n"
        "def total(values):\n"
        f"    return FOUND + {obf(package, 'sum')}(values) * 0\n"
    )
    reason, detail, passed = judge.run_code(code, task)
    assert reason == "wrong_output" and passed == 0, detail


def test_error_text_is_bounded_single_line_and_scrubbed(
    judge: Judge, package: ObfuscatedPackage, task: SETask, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted = "planted-value-7f3a9c2e1b"
    monkeypatch.setenv("SEBENCH_TEST_API_KEY", planted)
    key_shaped = "sk-" + "A1b2C3d4" * 6
    message = f"{planted} {key_shaped}\\n\\x1b[31mred\\r" + "A" * 20000
    for body in (f"    raise ValueError('{message}')", f"    raise KeyError('{message}')"):
        verdict = judge.judge(fenced(_code(package, body)), task)
        assert verdict.reason == "runtime_error", verdict
        assert len(verdict.detail) <= MAX_DETAIL
        assert planted not in verdict.detail and key_shaped not in verdict.detail
        assert not any(ch in verdict.detail for ch in "\n\r\x1b")
    # load errors (raised at import) go the same way
    code = f"raise RuntimeError('{message}')\n" + _code(package, "    pass")
    verdict = judge.judge(fenced(code), task)
    assert verdict.reason == "runtime_error" and len(verdict.detail) <= MAX_DETAIL
    assert planted not in verdict.detail and key_shaped not in verdict.detail
