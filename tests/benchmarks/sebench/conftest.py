"""Fixtures of the SE-Bench tests: one generated package per session, the sample tasks."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from studybench.benchmarks.sebench.functions import DEFAULT_FUNCTIONS
from studybench.benchmarks.sebench.judging import Judge
from studybench.benchmarks.sebench.package import ObfuscatedPackage, PackageSpec, generate_package
from studybench.benchmarks.sebench.settings import SandboxLimits
from studybench.benchmarks.sebench.tasks import SETask, load_tasks
from tests.conftest import SAMPLE

SAMPLE_TASKS = SAMPLE / "sebench" / "tasks.json"


@pytest.fixture(scope="session")
def package(tmp_path_factory: pytest.TempPathFactory) -> ObfuscatedPackage:
    return generate_package(
        PackageSpec(functions=DEFAULT_FUNCTIONS), tmp_path_factory.mktemp("sebench")
    )


@pytest.fixture(scope="session")
def sample_tasks(package: ObfuscatedPackage) -> list[SETask]:
    return load_tasks(SAMPLE_TASKS, package.mapping)


@pytest.fixture(scope="session")
def judge(package: ObfuscatedPackage) -> Judge:
    return Judge(package, SandboxLimits(cpu_s=2, wall_s=8, memory_mb=768), workers=2)


@pytest.fixture
def zwc(package: ObfuscatedPackage) -> Iterator[ModuleType]:
    """The generated package imported in this process (and forgotten afterwards)."""
    sys.path.insert(0, str(package.import_root))
    try:
        yield importlib.import_module(package.name)
    finally:
        sys.path.remove(str(package.import_root))
        prefix = f"{package.name}."
        for name in [m for m in sys.modules if m == package.name or m.startswith(prefix)]:
            del sys.modules[name]


def fenced(code: str) -> str:
    return f"Here is my solution.\n\n```python\n{code}\n```\n"


def obf(package: ObfuscatedPackage, path: str) -> str:
    """The qualified new name of a NumPy path (``zwc.xxxx`` / ``zwc.rfx.xxxx``)."""
    return package.qualified(path)


__all__ = ["SAMPLE_TASKS", "fenced", "obf"]
