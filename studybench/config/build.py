"""Benchmark construction (``studybench build``): pools, the capability filter and the
reachability admission (both guidance-admission shaped models), subsampling, PDFs."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from studybench.config.fields import Section
from studybench.config.guidance import GuidanceAdmitSettings


class BuildSettings(Section):
    """Benchmark construction (``studybench build``, ``data/build/dvc.yaml``): pools, the
    capability filter, Application subsampling, Transfer admission, training material, PDFs.

    ``filter`` is the mid-capability filter model, asked like an evaluation (the protocol's
    sampling, k attempts); ``admit`` is the model of the reachability admission (empty model:
    the filter model)."""

    textbook_pool: Path = Path("data/sample/application_problems.json")
    competition_pool: Path = Path("data/sample/transfer_problems.json")
    guidance: Path = Field(
        Path("data/sample/guidance.json"),
        description="guidance of the competition pool (the guidance pipeline's guidance.json)",
    )
    books: Path = Field(Path("data/sample/books"), description="<source>/<chapter>/ chapters")
    books_name: str = Field("full.md", description="chapter file the training step reads")
    instructions_without_answer: Path = Field(
        Path("data/sample/unverifiable_instr.json"), description="extracted, answerless layer"
    )
    out_dir: Path = Path("data/build/out")
    filter: GuidanceAdmitSettings = GuidanceAdmitSettings(engine="vllm", llm_judge=True)
    admit: GuidanceAdmitSettings = GuidanceAdmitSettings(engine="vllm", llm_judge=True)
    per_type_cap: int | None = Field(None, ge=1, description="Application parents per subject")
    target_mix: dict[str, float] = Field(
        default_factory=dict, description="problem_type -> weight; with target_size"
    )
    target_size: int | None = Field(None, ge=1, description="Application parents in all")
    seed: int = Field(0, description="subsampling seed")
    min_per_type: int = Field(
        1, ge=0, description="below this many 0-of-k parents a subject also takes 1-of-k ones"
    )
    pdf_root: Path = Field(Path("data/build/pdf/in"), description="<source>/<chapter>.pdf")
    pdf_out: Path = Field(Path("data/build/pdf/books"), description="converted chapters")
    pdf_converter: Literal["pymupdf4llm", "mineru"] = "pymupdf4llm"
    mineru_command: tuple[str, ...] = ("mineru",)
    header_min_share: float = Field(
        0.5, gt=0.0, le=1.0, description="a line on this share of pages is a running header"
    )
