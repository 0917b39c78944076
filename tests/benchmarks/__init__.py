"""Tests of the benchmark registry and the registered benchmarks."""
