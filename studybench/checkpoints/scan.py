"""Finding checkpoint folders under watched roots, and reporting each ready one once.

A root may be a checkpoint itself, a training run's ``output_dir`` (``checkpoint-N/``
folders) or a folder of runs (``run/checkpoint-N/``): folders are searched ``depth`` levels
down. A folder is a candidate when it is named ``checkpoint-N`` or holds a ``config.json``,
weights or a ready marker; hidden and temporary folders are skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from studybench.checkpoints.inspect import (
    CONFIG,
    READY_MARKER,
    SAFETENSORS,
    SAFETENSORS_INDEX,
    STEP_FOLDER,
    TEMP_NAME,
    CheckpointInfo,
    CheckpointState,
    _fs,
    inspect_checkpoint,
)

log = logging.getLogger(__name__)
MARKS = {CONFIG, READY_MARKER, SAFETENSORS, SAFETENSORS_INDEX, "pytorch_model.bin"}


def _join(root_uri: str, fs_root: str, path: str) -> str:
    """``path`` (as the filesystem names it) in the URI form of ``root_uri``."""
    if "://" not in root_uri:
        return path
    protocol = root_uri.split("://", 1)[0]
    return f"{protocol}://{path.lstrip('/')}" if protocol != "file" else f"file://{path}"


def candidate_folders(root: str, depth: int = 2) -> list[str]:
    """Checkpoint-like folders under ``root`` (itself included), sorted by path."""
    fs, top = _fs(root)
    if not fs.exists(top):
        return []
    found: list[str] = []
    frontier = [top]
    for level in range(depth + 1):
        following: list[str] = []
        for folder in frontier:
            try:
                entries = fs.ls(folder, detail=True)
            except OSError:
                continue
            names = {e["name"].rstrip("/").rsplit("/", 1)[-1] for e in entries}
            name = folder.rstrip("/").rsplit("/", 1)[-1]
            if STEP_FOLDER.match(name):
                found.append(folder)
                continue
            if names & MARKS:
                found.append(folder)  # a model folder; a run folder with a final model may
                # still hold checkpoint-N folders below it: keep searching
            if level < depth:
                following.extend(
                    e["name"].rstrip("/")
                    for e in entries
                    if e.get("type") == "directory"
                    and not TEMP_NAME.search(e["name"].rstrip("/").rsplit("/", 1)[-1])
                )
        frontier = following
    return sorted(_join(root, top, f) for f in found)


def _order(info: CheckpointInfo) -> tuple[str, int, str]:
    return (info.training_run or "", info.step if info.step is not None else -1, info.uri)


def scan_roots(
    roots: Iterable[str],
    *,
    depth: int = 2,
    quiet_period_s: float = 60.0,
    allow_pickle: bool = False,
    now: float | None = None,
) -> list[CheckpointInfo]:
    """Inspect every candidate folder under ``roots``, ordered by run and step."""
    infos = [
        inspect_checkpoint(
            folder, quiet_period_s=quiet_period_s, allow_pickle=allow_pickle, now=now
        )
        for root in roots
        for folder in candidate_folders(root, depth)
    ]
    return sorted(infos, key=_order)


def latest_ready(root: str, **options: object) -> CheckpointInfo | None:
    """The ready checkpoint with the highest step under ``root`` (nightly ``root:`` models)."""
    ready = [i for i in scan_roots([root], **options) if i.ready]  # type: ignore[arg-type]
    if not ready:
        return None
    return max(ready, key=lambda i: (i.step if i.step is not None else -1, i.newest_mtime))


class PollResult(BaseModel):
    """One scan under the policy: ``ready`` to evaluate now; ``existing`` ready but left
    alone (present at a root's first scan with ``evaluate_existing`` off); ``invalid`` newly
    invalid (or for a new reason); ``pending`` not complete yet; ``new_roots`` seen for the
    first time in this scan."""

    ready: list[CheckpointInfo] = Field(default_factory=list)
    existing: list[CheckpointInfo] = Field(default_factory=list)
    invalid: list[CheckpointInfo] = Field(default_factory=list)
    pending: list[CheckpointInfo] = Field(default_factory=list)
    new_roots: list[str] = Field(default_factory=list)


def under(uri: str, root: str) -> bool:
    """Whether ``uri`` is ``root`` or inside it."""
    return uri == root or uri.startswith(root.rstrip("/") + "/")


class Watcher:
    """THE watching policy (the checkpoint DAG's trigger applies it too): each ready
    checkpoint is reported once, by identity (a copy of a reported checkpoint, or the same
    folder seen again after a restart, is not reported again); each invalid folder is
    reported once per reason; what a root already holds the first time it is scanned is
    reported only with ``evaluate_existing``.

    ``seen`` (identities already reported) and ``initialised`` (roots scanned before) are
    the caller's persistent state, so a restart does not re-fire; a caller with its own store
    (the Airflow trigger) adds what it holds to them before :meth:`review`."""

    def __init__(
        self,
        roots: Sequence[str],
        *,
        depth: int = 2,
        quiet_period_s: float = 60.0,
        allow_pickle: bool = False,
        seen: Iterable[str] = (),
        evaluate_existing: bool = True,
        initialised: Iterable[str] = (),
    ) -> None:
        self.roots = list(roots)
        self.depth = depth
        self.quiet_period_s = quiet_period_s
        self.allow_pickle = allow_pickle
        self.seen: set[str] = set(seen)
        self.evaluate_existing = evaluate_existing
        self.initialised: set[str] = set(initialised)
        self._invalid: dict[str, str] = {}

    def poll(self, now: float | None = None) -> PollResult:
        """Scan the roots and apply the policy."""
        infos = scan_roots(
            self.roots,
            depth=self.depth,
            quiet_period_s=self.quiet_period_s,
            allow_pickle=self.allow_pickle,
            now=now,
        )
        return self.review(infos, self.roots)

    def review(self, infos: Iterable[CheckpointInfo], roots: Sequence[str]) -> PollResult:
        """The policy over one scan of ``roots`` (marks what it reports as seen)."""
        result = PollResult(new_roots=[r for r in roots if r not in self.initialised])
        for info in infos:
            if info.state is CheckpointState.READY and info.identity is not None:
                self._invalid.pop(info.uri, None)
                if info.identity in self.seen:
                    continue
                self.seen.add(info.identity)
                first = any(under(info.uri, root) for root in result.new_roots)
                if first and not self.evaluate_existing:
                    log.info("present at first start, not evaluated: %s", info.describe())
                    result.existing.append(info)
                else:
                    result.ready.append(info)
            elif info.state is CheckpointState.INVALID:
                if self._invalid.get(info.uri) != info.reason:
                    self._invalid[info.uri] = info.reason
                    log.warning("not evaluating %s", info.describe())
                    result.invalid.append(info)
            else:
                result.pending.append(info)
        self.initialised.update(result.new_roots)
        return result
