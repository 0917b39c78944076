"""Reference-harness dumps without seed fields: consecutive blocks of k attempts are runs.

The reference harness numbers attempts over seeds in blocks of k (``attempt_id = seed index *
k + attempt``) and its dumps may omit the seed. Read as one run, 3 blocks of k=2 become one
run of k=6 (Par@6); the paper's rule scores each block as an independent run (Par@2 per
block, mean ± std over blocks). This turns such rows back into per-block seeds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TypeVar

from studybench.errors import DataError
from studybench.metrics.passk import VerdictRow

Row = TypeVar("Row", bound=VerdictRow)


def blocks_as_seeds(rows: Iterable[Row], k: int, *, source: str = "verdicts") -> list[Row]:
    """Rows of one seed with attempts ``0..n*k-1`` as ``n`` seeds (``0..n-1``) of ``k``
    attempts each (attempt ``a`` becomes seed ``a // k``, attempt ``a % k``).

    Raises:
        DataError: the rows carry more than one seed (they are not a seedless dump), or a
            parent's attempt count is not a multiple of ``k`` (a block would be incomplete).
    """
    if k < 1:
        raise DataError(f"{source}: --k must be at least 1, got {k}")
    rows = list(rows)
    seeds = sorted({row.seed for row in rows})
    if len(seeds) > 1:
        raise DataError(
            f"{source}: the attempts already carry seeds {seeds}; blocks of --k apply only "
            "to a dump without seed fields"
        )
    attempts: dict[str, set[int]] = defaultdict(set)
    for row in rows:
        attempts[row.parent].add(row.attempt)
    for parent, seen in sorted(attempts.items()):
        count = max(seen) + 1
        if count % k:
            raise DataError(
                f"{source}: parent {parent!r} has {count} attempts, not a whole number of "
                f"blocks of k={k}"
            )
    return [
        row.model_copy(update={"seed": row.attempt // k, "attempt": row.attempt % k})
        for row in rows
    ]
