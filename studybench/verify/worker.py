"""Entry point of one verifier worker process (started by :mod:`studybench.verify.pool`).

``python -m studybench.verify.worker TASK_FD RESULT_FD MEMORY_LIMIT_MB``: reads task tuples
from one pipe and writes verdicts to the other until it reads ``None`` or the pipe closes.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import types
from multiprocessing.connection import Connection
from typing import Any

# Imports a worker never needs, each a first-use cost that every worker paid again:
# numpy (0.1 s, imported by pint only if present; scalars are all the verifier converts) and,
# through lambdify's default modules (a numeric Sum's evalf), scipy.special (0.2-0.3 s).
_BLOCKED = ("numpy", "scipy")
_UNITS = "sympy.physics.units"


def _limit_memory(megabytes: int) -> None:
    """Cap the address space so a runaway parse fails with MemoryError instead of swapping."""
    if megabytes <= 0:
        return
    import resource

    limit = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


class _UnitsPlaceholder(types.ModuleType):
    """``sympy.physics.units`` until something other than the two class names is asked for.

    Every ``simplify`` and ``solve`` imports that package (0.15-0.25 s, the unit system
    tables) only to ask whether an expression holds a sympy ``Quantity``/``Unit``. The
    verifier's parsers never build one (units are pint's), so an expression can only hold an
    instance of a class of the real package after it was imported: until then these two
    never-instantiated classes answer the same. Any other name loads the real package in
    this module's place, and from then on ``Quantity`` is the real class.
    """

    def __init__(self) -> None:
        super().__init__(_UNITS, self.__doc__)
        from sympy.core.expr import AtomicExpr

        class Quantity(AtomicExpr):  # type: ignore[misc]  # never built: the real one is first
            pass

        self.Quantity = Quantity
        self.Unit = Quantity

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if sys.modules.get(_UNITS) is self:
            del sys.modules[_UNITS]
        return getattr(importlib.import_module(_UNITS), name)


def _skip_unneeded_imports() -> None:
    """Keep the imports a comparison never needs out of this worker (see the names above).

    A worker is a fresh interpreter of this module, so nothing else sees these entries; a
    blocked module is an ImportError, which pint and sympy treat as "not installed"."""
    for name in _BLOCKED:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
    if _UNITS not in sys.modules:
        sys.modules[_UNITS] = _UnitsPlaceholder()


def serve(tasks: Connection, results: Connection) -> None:
    from studybench.verify.verifier import judge_inline, warm_up

    warm_up()
    results.send("ready")
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            results.send(judge_inline(*task))
        except MemoryError:
            results.send(("error", "memory"))
        except Exception as exc:  # a bug must not kill the pool: report it as a verdict
            results.send(("error", f"{type(exc).__name__}: {exc}"[:300]))


def main(argv: list[str]) -> None:
    task_fd, result_fd, memory_limit_mb = (int(arg) for arg in argv[1:4])
    _limit_memory(memory_limit_mb)
    _skip_unneeded_imports()
    serve(Connection(task_fd, writable=False), Connection(result_fd, readable=False))
    # Every verdict has been written to the pipe; the interpreter's own teardown (freeing
    # sympy's caches and modules, ~0.25 s) would only delay the host's close().
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
