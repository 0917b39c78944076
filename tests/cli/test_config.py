"""``studybench config show`` as a user runs it."""

from __future__ import annotations

import json

from tests.cli.entry import run
from tests.conftest import ROOT


def test_config_show_and_bad_override() -> None:
    root = ROOT
    shown = run("config", "show", "--json", "--params", root / "params.yaml")
    assert shown.returncode == 0
    assert json.loads(shown.stdout)["protocol"]["k"] == 8
    bad = run(
        "config", "show", "--params", root / "params.yaml", env={"STUDYBENCH__PROTOCOL__X": "1"}
    )
    assert bad.returncode == 2
    assert "STUDYBENCH__PROTOCOL__X: unknown key 'protocol.x'" in bad.stderr
    assert "Traceback" not in bad.stderr
