"""The Guidance Gap: how much of the Naive Guidance gain a method reaches.

StudyBench measures every self-evolution method against two references on the same split:
the base model without guidance (what the method starts from) and the base model with the
textbook-grounded guidance injected (the "Naive Guidance" ceiling: the same knowledge, handed
over directly). The fraction of the gap closed is ``(method - base) / (guided - base)``, at
parent level (Par@k) and slot level (Sub@k); it is undefined when guidance gains nothing
(a method can exceed 1 or fall below 0). Pure: numbers in, numbers out.
"""

from __future__ import annotations

from pydantic import BaseModel

# the one formula, shared with the paper's metrics module
from studybench.metrics.passk import guidance_gap_closed as gap_closed


class LevelGap(BaseModel):
    method: float
    base: float
    guided: float
    closed: float | None  # None: guidance gains nothing at this level


class GuidanceGap(BaseModel):
    split: str
    k: int
    parent: LevelGap
    slot: LevelGap
    base_ref: str = ""
    guided_ref: str = ""

    def metrics(self) -> dict[str, float]:
        """MLflow metric keys: ``<split>/guidance_gap_{par,sub}_at_<k>`` (only the defined
        ones) and the two reference values they were computed from."""
        out: dict[str, float] = {}
        for level, gap in (("par", self.parent), ("sub", self.slot)):
            prefix = f"{self.split}/guidance_gap_{level}_at_{self.k}"
            if gap.closed is not None:
                out[prefix] = gap.closed
            out[f"{prefix}_base"] = gap.base
            out[f"{prefix}_guided"] = gap.guided
        return out

    def lines(self) -> list[str]:
        def pct(value: float | None) -> str:
            return "undefined (guidance gains nothing)" if value is None else f"{100 * value:.1f}%"

        return [
            f"Guidance Gap on {self.split} (k={self.k}): "
            f"Par {pct(self.parent.closed)} closed "
            f"(base {100 * self.parent.base:.1f}, method {100 * self.parent.method:.1f}, "
            f"guided {100 * self.parent.guided:.1f}); "
            f"Sub {pct(self.slot.closed)} closed "
            f"(base {100 * self.slot.base:.1f}, method {100 * self.slot.method:.1f}, "
            f"guided {100 * self.slot.guided:.1f})",
            f"references: base {self.base_ref or '-'}, guided {self.guided_ref or '-'}",
        ]


def level(method: float, base: float, guided: float) -> LevelGap:
    return LevelGap(
        method=method, base=base, guided=guided, closed=gap_closed(method, base, guided)
    )


def guidance_gap(
    split: str,
    k: int,
    *,
    method: tuple[float, float],
    base: tuple[float, float],
    guided: tuple[float, float],
    base_ref: str = "",
    guided_ref: str = "",
) -> GuidanceGap:
    """The gap from (Par, Sub) means of the method, the base and the guided base."""
    return GuidanceGap(
        split=split,
        k=k,
        parent=level(method[0], base[0], guided[0]),
        slot=level(method[1], base[1], guided[1]),
        base_ref=base_ref,
        guided_ref=guided_ref,
    )
