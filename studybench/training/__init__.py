"""Producer-side helpers and reference training recipes (they write checkpoints).

transformers and TRL are imported only when a name from here is used, so ``import
studybench.training`` stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReadyMarkerCallback", "write_ready_marker"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from studybench.training import ready_marker

        return getattr(ready_marker, name)
    raise AttributeError(f"module 'studybench.training' has no attribute {name!r}")
