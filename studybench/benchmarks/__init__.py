"""The benchmarks the platform hosts, behind one small contract (:mod:`.base`) and a
registry by name (:mod:`.registry`). StudyBench is one of them; EvaLearn another."""

from studybench.benchmarks.base import Benchmark, BenchmarkPlan
from studybench.benchmarks.registry import get_benchmark, names, register

__all__ = ["Benchmark", "BenchmarkPlan", "get_benchmark", "names", "register"]
