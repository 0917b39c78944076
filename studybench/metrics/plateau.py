"""The Compute Plateau: the compute after which a method's score stopped improving.

Self-evolution methods are compared by how far extra compute keeps paying off. Given the
score of every checkpoint (or prompt-method iteration) against the cumulative compute spent
to reach it, the plateau is the compute of the last point that beat every earlier point by
more than seed noise; any compute spent after it bought no improvement a rerun could tell
from chance.

"Beyond seed noise": a point improves on the best so far when its mean exceeds the best
mean by more than ``z`` times the combined seed standard deviation of the two points
(``sqrt(std_a² + std_b²)``, the same yardstick the regression check uses), and by at least
``min_delta``. With a single seed (std 0) only ``min_delta`` applies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field


class CurvePoint(BaseModel):
    """One evaluated checkpoint or iteration: cumulative compute and its score over seeds."""

    model_config = ConfigDict(frozen=True)

    compute: float = Field(ge=0.0)
    mean: float
    std: float = Field(0.0, ge=0.0)
    step: int | None = None


class Plateau(BaseModel):
    """Where the curve stopped improving (``plateaued`` once compute was spent after it)."""

    plateau_compute: float
    plateau_step: int | None
    plateau_score: float
    final_compute: float
    final_score: float
    points: int
    plateaued: bool
    budget_share: float = Field(description="plateau compute / final compute (1 if no compute)")
    wasted_compute: float = Field(description="compute spent after the plateau")


def find_plateau(
    points: Sequence[CurvePoint], *, z: float = 1.0, min_delta: float = 0.0
) -> Plateau:
    """The plateau of a score-against-compute curve (points in any order)."""
    if not points:
        raise ValueError("no points: evaluate at least one checkpoint first")
    curve = sorted(points, key=lambda p: (p.compute, p.step if p.step is not None else 0))
    best = curve[0]
    for point in curve[1:]:
        margin = max(min_delta, z * math.hypot(best.std, point.std))
        if point.mean > best.mean + margin:
            best = point
    final = curve[-1]
    share = best.compute / final.compute if final.compute > 0 else 1.0
    return Plateau(
        plateau_compute=best.compute,
        plateau_step=best.step,
        plateau_score=best.mean,
        final_compute=final.compute,
        final_score=final.mean,
        points=len(curve),
        plateaued=final.compute > best.compute,
        budget_share=share,
        wasted_compute=final.compute - best.compute,
    )
