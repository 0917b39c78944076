"""StudyBench's named splits and how each becomes a data file (release-format knowledge the
benchmark needs above ``data/``), and how much of a split a guidance file covers.

``application`` and ``transfer`` are files of the release; ``memorisation`` is built from the
answered instruction layers (:mod:`.memorisation`); any other name must be a split file.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import Settings
from studybench.errors import ConfigError

log = logging.getLogger(__name__)
NAMED_SPLITS = ("application", "transfer", "memorisation")


def split_file(name: str, settings: Settings) -> Path:
    """The file of a named split (``memorisation`` is built from the instruction layers)."""
    if name == "application":
        return settings.data.application_split
    if name == "transfer":
        return settings.data.transfer_split
    if name == "memorisation":
        from studybench.benchmarks.studybench.memorisation import write_split

        layers = [
            settings.data.instructions_with_answer,
            settings.data.instructions_with_answer_multi,
        ]
        out = settings.paths.work_dir / "splits" / "memorisation.json"
        return write_split([p for p in layers if p.exists()], out)
    path = Path(name)
    if not path.is_file():
        raise ConfigError(
            f"split {name!r}: not application, transfer, memorisation or an existing file"
        )
    return path


def split_label(name: str) -> str:
    """The split's name in run folders, reports and metric keys: THE split-name
    normalisation (a named split as is, a split file by its stem, surrounding space and a
    trailing slash ignored), so one split never gets two names."""
    name = name.strip().rstrip("/")
    return name if name in NAMED_SPLITS else Path(name).stem


class GuidanceCoverage(BaseModel):
    """How many of a split's sub-problems a guidance file has guidance for."""

    split: str
    slots: int
    guided: int

    @property
    def share(self) -> float:
        return self.guided / self.slots if self.slots else 0.0

    def describe(self) -> str:
        return (
            f"{self.split}: guidance for {self.guided} of {self.slots} sub-problem(s) "
            f"({100 * self.share:.0f}%)"
        )


def guidance_coverage(
    split: str, slot_keys: Iterable[str], guidance: Iterable[str]
) -> GuidanceCoverage:
    """Coverage of ``split`` (its slots' ``str(SlotKey)``) by the keys of a guidance index."""
    keys = list(dict.fromkeys(slot_keys))
    index = set(guidance)
    return GuidanceCoverage(split=split, slots=len(keys), guided=sum(k in index for k in keys))


def checked_coverage(
    split: str, parents: Iterable[Any], guidance: dict[str, str], source: str
) -> GuidanceCoverage:
    """The coverage of ``split``'s parents by a guidance index: none is a
    :class:`ConfigError` (guidance of another split must never give an unguided run
    recorded as guided), part is logged as a warning; the caller records it."""
    keys = [str(s.key) for p in parents for s in p.slots()]
    cover = guidance_coverage(split, keys, guidance)
    if cover.guided == 0:
        raise ConfigError(
            f"guidance {source}: no guidance for any sub-problem of split {split!r} "
            f"({cover.slots} sub-problem(s)); it is guidance for another split"
        )
    if cover.guided < cover.slots:
        log.warning("guidance %s: %s", source, cover.describe())
    return cover
