"""The test harness that runs *inside* the sandbox (standard library only).

Not imported by studybench: :mod:`.sandbox` copies this file into the job folder and runs
it under bubblewrap. It imports the obfuscated package, executes the candidate's code, calls
the stub's function on each test input and writes one JSON report to a file descriptor it
saved before the candidate ran; the candidate's own prints go to ``/dev/null``, so a program
cannot forge the report by printing. Expected outputs are never given to the sandbox: the
host compares.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

JOB = Path("/tmp/job")
PACKAGE_ROOT = "/tmp/pkg"
MAX_ERROR = 500


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:MAX_ERROR]


def _encode(value: Any) -> Any:
    """JSON-able data; complex numbers as ``{"complex": [re, im]}``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, complex):
        return {"complex": [value.real, value.imag]}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    raise TypeError(f"result of type {type(value).__name__} cannot be compared")


def main() -> int:
    job = json.loads((JOB / "job.json").read_text(encoding="utf-8"))
    report_fd = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = Path(os.devnull).open("w")  # noqa: SIM115 - lives as long as the process
    report: dict[str, Any] = {"nonce": job["nonce"], "load_error": None, "cases": []}
    sys.path.insert(0, PACKAGE_ROOT)
    export = importlib.import_module(f"{job['package']}._core").export
    namespace: dict[str, Any] = {"__name__": "candidate"}
    try:
        source = (JOB / "candidate.py").read_text(encoding="utf-8")
        exec(
            compile(source, "candidate.py", "exec"), namespace
        )  # sandboxed: the point of the harness
        function = namespace[job["function"]]
    except BaseException as exc:  # whatever the candidate raises is data
        report["load_error"] = _describe(exc)
    else:
        for case in job["cases"]:
            try:
                value = function(*case["args"], **case["kwargs"])
                report["cases"].append({"ok": True, "value": _encode(export(value))})
            except BaseException as exc:
                report["cases"].append({"ok": False, "error": _describe(exc)})
    data = json.dumps(report).encode()
    while data:
        data = data[os.write(report_fd, data) :]
    return 0


if __name__ == "__main__":
    sys.exit(main())
