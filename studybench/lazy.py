"""Lazy re-exports for a package's ``__init__`` (PEP 562 module ``__getattr__``).

Why: importing any submodule first runs its package's ``__init__``. The settings tree
imports the benchmarks' sections (``benchmarks/<name>/settings.py``); had
``benchmarks/__init__`` or ``benchmarks/<name>/__init__`` imported the benchmark code, which
imports the settings tree, loading the settings would be an import cycle. A lazy
``__init__`` imports a name's module on first use instead, so importing one submodule runs
that one only, and ``import studybench.config`` stays cheap.

A lazy ``__init__`` states its names once, as imports under ``if TYPE_CHECKING:`` (so mypy
sees the real types) listed in ``__all__`` (so mypy and ruff treat them as exports and ruff
refuses a name in one list and not the other); :func:`lazy_exports` reads that block to
learn which module defines each name. The same idea as ``lazy_loader.attach_stub``, which
reads a ``.pyi`` stub.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any


def lazy_exports(
    package: str, init_file: str
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose ``__init__`` is
    ``init_file``. A name is imported on first access and then stored on the package, so
    later accesses are plain attribute look-ups."""

    @cache
    def origins() -> dict[str, tuple[str, str]]:
        return type_checking_imports(Path(init_file), package)

    def module_getattr(name: str) -> Any:
        found = origins().get(name)
        if found is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = found
        value = getattr(importlib.import_module(module), attribute)
        setattr(sys.modules[package], name, value)
        return value

    def module_dir() -> list[str]:
        return sorted({*vars(sys.modules[package]), *origins()})

    return module_getattr, module_dir


def type_checking_imports(init_file: Path, package: str) -> dict[str, tuple[str, str]]:
    """Every name the top-level ``if TYPE_CHECKING:`` block of ``init_file`` imports:
    ``{bound name: (absolute module, attribute)}``."""
    tree = ast.parse(init_file.read_text(encoding="utf-8"), filename=str(init_file))
    found: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and is_type_checking(node.test)):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                raise TypeError(
                    f"{init_file}:{statement.lineno}: a lazy __init__'s TYPE_CHECKING block "
                    "holds only 'from module import name' statements"
                )
            module = importlib.util.resolve_name(
                "." * statement.level + (statement.module or ""), package
            )
            for alias in statement.names:
                found[alias.asname or alias.name] = (module, alias.name)
    return found


def is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )
