"""Benchmarks by name: the built-in ones, and plug-ins of other packages.

A benchmark class registers itself with the :func:`register` decorator when its module is
imported. Built-in modules are imported only when their benchmark is asked for, so
``import studybench`` stays cheap; other packages plug in through the entry-point group
``studybench.benchmarks`` (``name = "package.module:Class"``), loaded on first lookup.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import TypeVar

from studybench.benchmarks.base import Benchmark
from studybench.errors import ConfigError

ENTRY_POINT_GROUP = "studybench.benchmarks"

# name -> module that registers it (imported on first use)
BUILTIN: dict[str, str] = {
    "studybench": "studybench.benchmarks.studybench",
    "evalearn": "studybench.benchmarks.evalearn.benchmark",
    "sebench": "studybench.benchmarks.sebench.benchmark",
}

_REGISTRY: dict[str, type[Benchmark]] = {}
_entry_points_loaded = False

B = TypeVar("B", bound=type[Benchmark])


def register(cls: B) -> B:
    """Class decorator: make ``cls`` available as ``cls.name``."""
    name = getattr(cls, "name", "")
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"{cls.__qualname__}: a benchmark needs a simple `name`, got {name!r}")
    known = _REGISTRY.get(name)
    if known is not None and known is not cls and known.__qualname__ != cls.__qualname__:
        raise ValueError(f"benchmark {name!r} is registered twice ({known} and {cls})")
    _REGISTRY[name] = cls
    return cls


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in _REGISTRY or point.name in BUILTIN:
            continue
        try:
            loaded = point.load()
        except Exception as exc:  # a broken plug-in must not hide the others
            raise ConfigError(
                f"benchmark plug-in {point.name!r} ({point.value}) cannot be loaded: {exc}"
            ) from exc
        if isinstance(loaded, type) and issubclass(loaded, Benchmark):
            register(loaded)


def names() -> list[str]:
    """Every benchmark that can be asked for, built-in first."""
    _load_entry_points()
    return list(dict.fromkeys([*BUILTIN, *_REGISTRY]))


def get_benchmark(name: str) -> Benchmark:
    """An instance of the benchmark called ``name``; :class:`ConfigError` listing the known
    names otherwise."""
    if name not in _REGISTRY and name in BUILTIN:
        importlib.import_module(BUILTIN[name])
    if name not in _REGISTRY:
        _load_entry_points()
    cls = _REGISTRY.get(name)
    if cls is None:
        raise ConfigError(f"unknown benchmark {name!r}; known: {', '.join(names())}")
    return cls()
