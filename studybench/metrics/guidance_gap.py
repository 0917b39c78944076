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

from studybench.errors import StudyBenchError

# the one formula, shared with the paper's metrics module
from studybench.metrics.passk import guidance_gap_closed as gap_closed

__all__ = [
    "GapRefusedError",
    "GapRun",
    "GuidanceGap",
    "LevelGap",
    "check_references",
    "gap_closed",
    "guidance_gap",
    "level",
]


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


class GapRefusedError(StudyBenchError):
    """The three runs of a Guidance Gap are not the comparison it is defined on."""


class GapRun(BaseModel):
    """What a run of a Guidance Gap must agree on: who it ran, whether guidance was injected,
    the protocol apart from method artefacts (prompts, sampling, k, seeds) and the problems
    asked (``data``), each as a fingerprint."""

    role: str  # method | base | guided
    where: str  # the run folder or run id, for the error
    model: str
    guided: bool
    protocol: str
    data: str


def check_references(method: GapRun, base: GapRun, guided: GapRun) -> None:
    """Refuse a gap whose references are not (unguided base, guided base) of one model, or
    whose three runs differ in protocol or problems: a swapped or mixed pair would give a
    plausible, wrong number."""
    problems = []
    if base.guided:
        problems.append(f"the base run {base.where} used guidance (it must be unguided)")
    if not guided.guided:
        problems.append(f"the guided run {guided.where} did not use guidance")
    if base.model != guided.model:
        problems.append(
            f"the base and guided runs are of different models ({base.model!r} in "
            f"{base.where}, {guided.model!r} in {guided.where})"
        )
    runs = (method, base, guided)
    for field, what in (("protocol", "protocol (prompts, sampling, k, seeds)"),
                        ("data", "problems (data version)")):  # fmt: skip
        if len({getattr(r, field) for r in runs}) > 1:
            shown = ", ".join(f"{r.role} {r.where}: {getattr(r, field)}" for r in runs)
            problems.append(f"the runs differ in {what}: {shown}")
    if problems:
        raise GapRefusedError("guidance gap refused: " + "; ".join(problems))
