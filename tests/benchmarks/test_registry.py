"""The benchmark registry: built-ins by name (imported on first use), plug-ins through the
``studybench.benchmarks`` entry-point group, clear errors."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks import registry
from studybench.benchmarks.base import Benchmark, BenchmarkPlan
from studybench.config import Settings
from studybench.errors import ConfigError
from tests.conftest import ROOT


class Toy(Benchmark):
    """A complete, trivial benchmark: one part, a constant metric."""

    name = "toy"
    title = "toy"

    def default_parts(self, settings: Settings) -> tuple[str, ...]:
        return ("only",)

    def plan(self, parts: Any, model: str, settings: Settings, root: Path) -> BenchmarkPlan:
        return BenchmarkPlan(
            benchmark=self.name,
            parts=tuple(parts),
            seeds=(0,),
            protocol_hash="p",
            root=str(root),
            model=model,
        )

    async def generate(self, plan: Any, engine: Any, settings: Any, on_progress: Any = None) -> Any:
        return {}

    def judge(self, plan: Any, part: str, seed: int, settings: Any) -> dict[str, Any]:
        return {}

    def metrics(self, plan: Any, settings: Any) -> dict[str, float]:
        return {"toy/only/acc_mean": 1.0}

    def expected_metrics(self, plan: Any) -> list[str]:
        return ["toy/only/acc_mean"]


def test_builtins_are_found_by_name_and_unknown_names_list_the_known() -> None:
    assert registry.get_benchmark("studybench").name == "studybench"
    assert registry.get_benchmark("evalearn").name == "evalearn"
    assert {"studybench", "evalearn"} <= set(registry.names())
    with pytest.raises(ConfigError, match="unknown benchmark 'nope'; known: studybench"):
        registry.get_benchmark("nope")


def test_a_plug_in_registers_through_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    point = EntryPoint(name="toy", value=f"{__name__}:Toy", group=registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [point])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    bench = registry.get_benchmark("toy")
    assert isinstance(bench, Toy) and "toy" in registry.names()


def test_a_broken_plug_in_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    point = EntryPoint(name="bad", value="no_such_module:X", group=registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [point])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    with pytest.raises(ConfigError, match="benchmark plug-in 'bad'"):
        registry.get_benchmark("bad")


def test_names_must_be_simple_and_unique() -> None:
    class Nameless(Toy):
        name = "has space"

    with pytest.raises(ValueError, match="simple `name`"):
        registry.register(Nameless)

    class Impostor(Toy):
        name = "studybench"

    with pytest.raises(ValueError, match="registered twice"):
        registry.register(Impostor)


def test_importing_studybench_does_not_import_the_benchmarks() -> None:
    probe = (
        "import sys, studybench, studybench.benchmarks as b; "
        "print(sorted(m for m in sys.modules if m.startswith('studybench.benchmarks.')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "evalearn" not in done.stdout and "sebench" not in done.stdout
