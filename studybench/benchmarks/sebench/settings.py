"""SE-Bench's settings section (``sebench:`` in params.yaml), declared beside its code.

The settings tree (:class:`studybench.config.Settings`) imports this module, so it imports
only pydantic and :mod:`studybench.config.fields` (a leaf): nothing of the benchmark (NumPy,
the sandbox) runs when the settings load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from studybench.config.fields import Section

SEBenchCondition = Literal["closed_book", "open_book"]


class SandboxLimits(BaseModel):
    """What one sandboxed job may use. SE-Bench's settings carry them as flat keys
    (``sebench.cpu_s`` ...); the sandbox takes them as this model."""

    cpu_s: int = Field(5, ge=1, description="CPU seconds per process")
    wall_s: float = Field(15.0, gt=0, description="wall clock for the whole run")
    memory_mb: int = Field(1024, ge=64, description="address space per process")
    output_kb: int = Field(1024, ge=1, description="largest file (and report) it may write")
    processes: int = Field(32, ge=4, description="processes and threads of the whole job")
    total_memory_mb: int = Field(1536, ge=64, description="memory of the whole job (cgroup)")
    tmp_mb: int = Field(64, ge=1, description="size of the private /tmp")
    cgroups: Literal["auto", "required", "off"] = Field(
        "auto", description="total caps by cgroup: where available, always, never"
    )


class SEBenchSettings(Section, SandboxLimits):
    """SE-Bench: NumPy behind an obfuscated package, tasks judged in a bubblewrap sandbox.

    Defaults are the reference's (README, SE-Bench parity table): the 278 published functions
    under the names of seed 42, temperature 0.6, 8,192 new tokens, absolute tolerance 1e-2,
    the answer's first ``def`` is called. ``functions`` empty means the published list
    (``studybench/benchmarks/sebench/functions.py``). Parts are ``<condition>-<split>``."""

    tasks: Path = Path("data/sample/sebench/tasks.json")
    package_name: str = Field("zwc", pattern=r"^[a-z][a-z0-9_]*$")
    linalg_module: str = Field("rfx", pattern=r"^[a-z][a-z0-9_]*$", description="numpy.linalg")
    name_seed: int = Field(42, description="seed of the obfuscated names (42: the release's)")
    functions: tuple[str, ...] = Field((), description="NumPy paths wrapped; empty: published")
    doc_max_chars: int = Field(4000, ge=200, description="generated documentation per function")
    api_docs: Path | None = Field(
        None, description="the release's api_doc.jsonl: its rewritten docs for the open book"
    )
    conditions: tuple[SEBenchCondition, ...] = Field(("closed_book", "open_book"), min_length=1)
    splits: tuple[str, ...] = Field(("single", "multi"), min_length=1)
    seeds: tuple[int, ...] = Field((0,), min_length=1)
    k: int = Field(1, ge=1, description="attempts per task and seed")
    temperature: float = Field(0.6, ge=0.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    max_new_tokens: int = Field(8192, ge=1)
    thinking: bool = False
    call_rule: Literal["first_def", "stub"] = Field(
        "first_def", description="function called: the answer's first def, or the stub's"
    )
    workers: int = Field(2, ge=1, description="sandboxes run at once")
    rel_tolerance: float = Field(0.0, ge=0.0)
    abs_tolerance: float = Field(1e-2, ge=0.0)
    training_only_correct: bool = Field(
        True, description="training data keeps only responses judged correct"
    )
