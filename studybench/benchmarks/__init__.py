"""The benchmarks the platform hosts, behind one small contract (:mod:`.base`) and a
registry by name (:mod:`.registry`): StudyBench, EvaLearn and SE-Bench, one package each.

This ``__init__`` is lazy (:mod:`studybench.lazy`): the settings tree imports the
benchmarks' settings sections (``evalearn/settings.py``, ``sebench/settings.py``), and
importing those must not run :mod:`.base` or :mod:`.registry`, which import the settings tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybench.lazy import lazy_exports

__all__ = [
    "Benchmark",
    "BenchmarkPlan",
    "get_benchmark",
    "names",
    "register",
]

if TYPE_CHECKING:
    from studybench.benchmarks.base import Benchmark, BenchmarkPlan
    from studybench.benchmarks.registry import get_benchmark, names, register
else:
    __getattr__, __dir__ = lazy_exports(__name__, __file__)
