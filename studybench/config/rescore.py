"""How stored generations are re-scored when the verifier or the judge changes
(``rescore:`` in params.yaml; ``studybench rescore`` and the ``studybench_rescore`` DAG)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from studybench.config.fields import Section


class RescoreSettings(Section):
    """``order``: ``lineage`` re-scores training runs whole, one after the other (each
    learning curve switches to the new instrument at once), ``oldest`` by the start time of
    each lineage's oldest run. ``concurrency``: lineages re-scored at once by the DAG.
    ``examples``: flip examples kept per (direction, answer type) in the flip report."""

    order: Literal["lineage", "oldest"] = "lineage"
    concurrency: int = Field(2, ge=1, le=64)
    examples: int = Field(3, ge=0, le=50)
