"""Scores: Par@k, Sub@k and pass@k over seeds (StudyBench), and learning-curve metrics for
sequential benchmarks. Pure functions over verdict records; no I/O beyond what callers pass."""
