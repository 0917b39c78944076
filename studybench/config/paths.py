"""Where files are: the benchmark's inputs, the release the data pipeline imports, the
textbook corpus, and where the platform writes. Relative paths resolve against the project
root (the working directory of the CLI, the DAGs and the DVC stages)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from studybench.config.fields import Section


class DataSettings(Section):
    """Where the benchmark's input files are. Relative paths resolve against the project root."""

    application_split: Path = Path("data/sample/application_problems.json")
    transfer_split: Path = Path("data/sample/transfer_problems.json")
    instructions_with_answer: Path = Path("data/sample/verifiable_instr.json")
    instructions_with_answer_multi: Path = Path("data/sample/verifiable_instr_multi_subs.json")
    instructions_without_answer: Path = Path("data/sample/unverifiable_instr.json")
    guidance: Path = Path("data/sample/guidance.json")
    books_root: Path = Path("data/sample/books")


class ReleaseSettings(Section):
    """The StudyBench release the data pipeline imports (``dvc repro``): a local checkout.

    File names are relative to ``root``; the defaults describe the committed sample, whose
    layout mirrors a release.
    """

    root: Path = Path("data/sample")
    application_split: str = "application_problems.json"
    transfer_split: str = "transfer_problems.json"
    instructions_with_answer: str = "verifiable_instr.json"
    instructions_with_answer_multi: str = "verifiable_instr_multi_subs.json"
    instructions_without_answer: str = "unverifiable_instr.json"
    guidance: str = "guidance.json"
    books: str = "books"
    out_dir: Path = Field(Path("data/release"), description="validated, normalised copies")


class CorpusSettings(Section):
    """Redaction, audit and fragmenting of the textbook corpus (DVC stages)."""

    out_dir: Path = Path("data/corpus")
    ngram: int = Field(13, ge=4)
    coverage: float = Field(0.6, gt=0.0, le=1.0)
    max_gap: int = Field(2, ge=0)
    near_window_tokens: int = Field(400, ge=0)
    audit_ngrams: tuple[int, ...] = Field((13,), min_length=1)
    audit_min_answer_tokens: int = Field(4, ge=1)
    audit_solution_min_tokens: int = Field(26, ge=1)
    fragment_max_words: int = Field(400, ge=20)


class PathSettings(Section):
    """Where the platform writes. Everything it produces lives under ``work_dir``."""

    work_dir: Path = Path("work")
    runs_dir: Path = Path("work/runs")
    cache_dir: Path = Path("work/cache")
