"""Typed errors shared by every layer.

Each error says *where* the problem is (file, record, field) so that an operator can fix the
input without reading a traceback.
"""

from __future__ import annotations


class StudyBenchError(Exception):
    """Base class of every error studybench raises on purpose."""


class ConfigError(StudyBenchError):
    """params.yaml or an environment override is invalid."""


class DataError(StudyBenchError):
    """An input data file cannot be read or is invalid."""
