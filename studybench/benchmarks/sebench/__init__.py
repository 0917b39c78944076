"""SE-Bench (arXiv 2602.04811): knowledge internalisation, measured with NumPy behind an
obfuscated package whose documentation a model can be trained on, then asked to code with it
without the documentation (closed book) or with it (open book, the ceiling).

Importing :mod:`.benchmark` registers the benchmark ``sebench`` (the registry does it on
first look-up); NumPy and the sandbox are used only inside the steps. Modules:
:mod:`.functions` and :mod:`.names` (the published function lists and the reference's seeded
names), :mod:`.package` (the generated package, mapping and API docs), :mod:`.tasks` (the
task format), :mod:`.release` (the released files, imported), :mod:`.prompts` (conditions),
:mod:`.extract`, :mod:`.astcheck` (the allowlist), :mod:`.sandbox` and :mod:`.cgroups`
(isolation and job caps), :mod:`.harness` (runs inside), :mod:`.compare` and :mod:`.judging`
(judging), :mod:`.training_data` (Open/Closed training sets), :mod:`.benchmark` (the
registered class and its metrics) and :mod:`.settings` (the ``sebench:`` section of
params.yaml). The commands are in :mod:`studybench.cli.sebench`.

This ``__init__`` is lazy (:mod:`studybench.lazy`): the settings tree imports
:mod:`.settings`, which must not run the benchmark code (it imports the settings tree).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybench.lazy import lazy_exports

__all__ = [
    "SEBench",
    "SEBenchCondition",
    "SEBenchSettings",
]

if TYPE_CHECKING:
    from studybench.benchmarks.sebench.benchmark import SEBench
    from studybench.benchmarks.sebench.settings import SEBenchCondition, SEBenchSettings
else:
    __getattr__, __dir__ = lazy_exports(__name__, __file__)
