"""Where a result came from: code version, data versions, checkpoint identity."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Iterable
from pathlib import Path

import studybench
from studybench.data.versions import data_versions


def git_commit(repo: Path = Path()) -> str:
    """The project's commit (with ``-dirty`` when the work tree has changes), or ``unknown``."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("-dirty" if dirty else "")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def data_version_tags(paths: Iterable[Path], repo: Path = Path()) -> dict[str, str]:
    """``data.<name>`` -> DVC hash from dvc.lock, else the file's sha256."""
    paths = [Path(p) for p in paths if p]
    tracked = data_versions(paths, repo_root=repo)
    tags: dict[str, str] = {}
    for path in paths:
        key = f"data.{path.name}"
        version = tracked.get(path.as_posix())
        if version is not None:
            tags[key] = f"dvc:{version.md5}"
        elif path.is_file():
            tags[key] = f"sha256:{file_sha256(path)[:16]}"
    return tags


def checkpoint_hash(path: Path) -> str | None:
    """The checkpoint's content identity (:mod:`studybench.checkpoints.inspect`: config, weight
    headers and sampled weight data, so two training steps differ). A folder that is not a
    complete checkpoint falls back to its config and weight file names and sizes."""
    if not path.is_dir():
        return None
    from studybench.checkpoints.inspect import inspect_checkpoint

    info = inspect_checkpoint(str(path), allow_pickle=True, assume_settled=True)
    if info.identity is not None:
        return info.identity
    digest = hashlib.sha256()
    config = path / "config.json"
    if config.exists():
        digest.update(config.read_bytes())
    for weights in sorted(path.glob("*.safetensors")) + sorted(path.glob("*.bin")):
        digest.update(f"{weights.name}:{weights.stat().st_size}".encode())
    return digest.hexdigest()[:16]


def checkpoint_step(path: Path) -> int | None:
    """The global step from ``trainer_state.json``, else from a ``checkpoint-N`` folder name."""
    state = path / "trainer_state.json"
    if state.exists():
        try:
            step = json.loads(state.read_text()).get("global_step")
            if isinstance(step, int):
                return step
        except json.JSONDecodeError:
            pass
    name = path.name
    if name.startswith("checkpoint-") and name[len("checkpoint-") :].isdigit():
        return int(name[len("checkpoint-") :])
    return None


def studybench_version() -> str:
    return studybench.__version__
