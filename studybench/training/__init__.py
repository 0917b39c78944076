"""Producer-side helpers and reference training recipes (they write checkpoints).

transformers and TRL are imported only when a name from here is used (a lazy ``__init__``,
:mod:`studybench.lazy`), so ``import studybench.training`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybench.lazy import lazy_exports

__all__ = ["ReadyMarkerCallback", "write_ready_marker"]

if TYPE_CHECKING:
    from studybench.training.ready_marker import ReadyMarkerCallback, write_ready_marker
else:
    __getattr__, __dir__ = lazy_exports(__name__, __file__)
