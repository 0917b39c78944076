"""The runner that executes a candidate *inside* the sandbox (standard library only).

Not imported by studybench: :mod:`.judging` copies this file into the job folder and runs it
under bubblewrap. It imports the obfuscated package, executes the candidate's code, calls the
chosen function on each test input and writes the values it got, as JSON, to a file
descriptor it saved before the candidate ran; the candidate's own prints go to
``/dev/null``.

Nothing here is trusted. The candidate runs in this same process and could replace any of
it (``json.dumps``, the saved descriptor, the whole report): the *parent* of the sandbox, the
judge on the host, builds the verdict. It receives only what this process printed, checks its
shape strictly, and compares it with the expected outputs, which never enter the sandbox. A
forged report can therefore only claim values, which is what returning them would do anyway.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

JOB = Path("/tmp/job")
SITE = "/opt/sebench/site"
PACKAGE_ROOT = "/opt/sebench/pkg"
MAX_ERROR = 500
MAX_PRINTED = 4000


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


def _decode(value: Any) -> Any:
    """A test input as Python data (the inverse of the complex encoding)."""
    if isinstance(value, dict):
        if set(value) == {"complex"} and isinstance(value["complex"], list):
            return complex(*value["complex"])
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def main() -> int:
    job = json.loads((JOB / "job.json").read_text(encoding="utf-8"))
    report_fd = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = Path(os.devnull).open("w")  # noqa: SIM115 - lives as long as the process
    report: dict[str, Any] = {"load_error": None, "cases": []}
    sys.path[:0] = [SITE, PACKAGE_ROOT]
    core = importlib.import_module(f"{job['package']}._core")
    namespace: dict[str, Any] = {"__name__": "candidate"}
    try:
        source = (JOB / "candidate.py").read_text(encoding="utf-8")
        exec(compile(source, "candidate.py", "exec"), namespace)  # sandboxed: the point here
        function = namespace[job["function"]]
    except BaseException as exc:  # whatever the candidate raises is data
        report["load_error"] = _describe(exc)
    else:
        for case in job["cases"]:
            try:
                args = [_decode(a) for a in case["args"]]
                kwargs = {k: _decode(v) for k, v in case["kwargs"].items()}
                for name in case.get("arrays", []):
                    kwargs[name] = core.to_array(kwargs[name])
                value = function(*args, **kwargs)
                printed = str(value)[:MAX_PRINTED]
                report["cases"].append(
                    {"ok": True, "value": _encode(core.export(value)), "printed": printed}
                )
            except BaseException as exc:
                report["cases"].append({"ok": False, "error": _describe(exc)})
    data = json.dumps(report).encode()
    while data:
        data = data[os.write(report_fd, data) :]
    return 0


if __name__ == "__main__":
    sys.exit(main())
