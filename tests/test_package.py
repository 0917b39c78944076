"""The package stays light: importing it (or its CLI) pulls in no heavy framework."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from studybench.lazy import type_checking_imports

PARAMS = Path(__file__).resolve().parents[1] / "params.yaml"
HEAVY = ["torch", "transformers", "trl", "mlflow", "airflow", "dvc", "vllm", "datasets"]


def test_import_is_light() -> None:
    code = (
        "import json, sys, studybench, studybench.cli, studybench.data, studybench.config; "
        f"studybench.config.load_settings({str(PARAMS)!r}, environ={{}}); "
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout) == []


def test_tool_environment_defaults() -> None:
    code = (
        "import os, json, studybench; print(json.dumps({k: os.environ.get(k) for k in "
        "['MLFLOW_DISABLE_TELEMETRY', 'DVC_NO_ANALYTICS', 'HF_HUB_OFFLINE', "
        "'HF_HUB_DISABLE_UPDATE_CHECK']}))"
    )
    env = {"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "0"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    values = json.loads(result.stdout)
    assert values == {
        "MLFLOW_DISABLE_TELEMETRY": "true",
        "DVC_NO_ANALYTICS": "1",
        "HF_HUB_OFFLINE": "0",  # an explicit choice is respected
        "HF_HUB_DISABLE_UPDATE_CHECK": "1",
    }


# The lazy package __init__s (studybench.lazy): each states its names once, under
# TYPE_CHECKING, and loads a name's module on first use. Found by their call of lazy_exports;
# the settings tree needs the four of the test below to be lazy.
PACKAGE = Path(__file__).resolve().parents[1] / "studybench"
LAZY_PACKAGES = sorted(
    ".".join(path.parent.relative_to(PACKAGE.parent).parts)
    for path in PACKAGE.rglob("__init__.py")
    if "lazy_exports(__name__, __file__)" in path.read_text(encoding="utf-8")
)


def test_the_packages_around_the_settings_sections_are_lazy() -> None:
    assert {
        "studybench.config",
        "studybench.benchmarks",
        "studybench.benchmarks.evalearn",
        "studybench.benchmarks.sebench",
    } <= set(LAZY_PACKAGES)


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_lazy_package_exports_what_it_declares(package: str) -> None:
    """``__all__`` is the TYPE_CHECKING block (what mypy sees), and each of its names
    resolves at run time to the object its module defines."""
    module = importlib.import_module(package)
    declared = type_checking_imports(Path(str(module.__file__)), package)
    assert sorted(declared) == sorted(module.__all__)
    for name, (origin, attribute) in declared.items():
        assert getattr(module, name) is getattr(importlib.import_module(origin), attribute)
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = module.nope


# Modules that must import cleanly as the *first* studybench import of a process: a cycle
# between the settings tree and the benchmarks' sections fails only in that order.
FIRST_IMPORTS = [
    "studybench.config.fields",
    "studybench.benchmarks.evalearn.settings",
    "studybench.benchmarks.sebench.settings",
    "studybench.config.settings",
    "studybench.benchmarks.base",
    "studybench.benchmarks.registry",
    "studybench.benchmarks.evalearn.benchmark",
    "studybench.benchmarks.sebench.benchmark",
]


@pytest.mark.parametrize("module", FIRST_IMPORTS)
def test_module_imports_first_in_a_fresh_process(module: str) -> None:
    """Imported first in a fresh interpreter (no other studybench module loaded before it),
    the module loads without an import cycle."""
    loaded = _run(f"import sys, {module}; print({module}.__name__ in sys.modules)")
    assert loaded.strip() == "True"


def test_loading_settings_runs_no_benchmark_code() -> None:
    """The benchmarks' sections load with the tree, their benchmarks do not: the settings
    modules import only pydantic and studybench.config.fields."""
    code = (
        "import json, sys; from studybench.config import load_settings; "
        f"load_settings({str(PARAMS)!r}, environ={{}}); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('studybench.'))))"
    )
    loaded = json.loads(_run(code))
    benchmarks = [m for m in loaded if m.startswith("studybench.benchmarks")]
    assert benchmarks == [
        "studybench.benchmarks",
        "studybench.benchmarks.evalearn",
        "studybench.benchmarks.evalearn.settings",
        "studybench.benchmarks.sebench",
        "studybench.benchmarks.sebench.settings",
    ]
    others = [m for m in loaded if not m.startswith(("studybench.config", "studybench.benchmarks"))]
    assert others == ["studybench.errors", "studybench.lazy", "studybench.secrets"]


def test_every_builtin_benchmark_registers_from_a_fresh_process() -> None:
    """The registry imports the module holding each ``@register``ed class (the packages'
    ``__init__``s are lazy and register nothing)."""
    code = (
        "from studybench.benchmarks import get_benchmark; "
        "from studybench.benchmarks.registry import BUILTIN; "
        "print(','.join(get_benchmark(n).name for n in BUILTIN))"
    )
    assert _run(code).strip() == "studybench,evalearn,sebench"


def test_the_lazy_table_is_read_from_the_type_checking_block(tmp_path: Path) -> None:
    """Relative and absolute imports, aliases; anything but an import there is refused (the
    block is the table of the package's names, so it must be nothing else)."""
    init = tmp_path / "__init__.py"
    init.write_text(
        "from typing import TYPE_CHECKING\n"
        "import typing\n"
        "if TYPE_CHECKING:\n"
        "    from .settings import Settings\n"
        "    from ..errors import ConfigError as Error\n"
        "if typing.TYPE_CHECKING:\n"
        "    from studybench.fileio import write_atomic\n"
        "else:\n"
        "    from os import sep\n"
    )
    assert type_checking_imports(init, "studybench.config") == {
        "Settings": ("studybench.config.settings", "Settings"),
        "Error": ("studybench.errors", "ConfigError"),
        "write_atomic": ("studybench.fileio", "write_atomic"),
    }
    init.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    X = 1\n")
    with pytest.raises(TypeError, match=r"__init__.py:3: .* only 'from module import name'"):
        type_checking_imports(init, "studybench.config")
