"""SE-Bench (arXiv 2602.04811): knowledge internalisation, measured with NumPy behind an
obfuscated package whose documentation a model can be trained on, then asked to code with it
without the documentation (closed book) or with it (open book, the ceiling).

Importing this package registers the benchmark ``sebench``; NumPy and the sandbox are used
only inside the steps. Modules: :mod:`.functions` and :mod:`.names` (the published function
lists and the reference's seeded names), :mod:`.package` (the generated package, mapping and
API docs), :mod:`.tasks` (the task format), :mod:`.release` (the released files, imported),
:mod:`.prompts` (conditions), :mod:`.extract`, :mod:`.astcheck` (the allowlist),
:mod:`.sandbox` and :mod:`.cgroups` (isolation and job caps), :mod:`.harness` (runs inside),
:mod:`.compare` and :mod:`.judging` (judging), :mod:`.training_data` (Open/Closed training
sets), :mod:`.benchmark` (the registered class and its metrics). The commands are in
:mod:`studybench.cli.sebench`.
"""

from studybench.benchmarks.sebench.benchmark import SEBench

__all__ = ["SEBench"]
