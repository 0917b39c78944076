"""Which version of the data an evaluation used, and rebuilding it.

Every score must be traceable to the exact data it was computed on. DVC records the content
hash of every pipeline output in ``dvc.lock``; :func:`data_versions` maps the files an
evaluation read to those hashes (the tracking module logs them as MLflow tags), and
:func:`reproduce` runs the pipeline (``dvc repro``) and reports the hashes it produced.
DVC is driven as a command, not imported: it is a heavy import and its Python API is not a
stable interface.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from studybench.errors import DataError


class DataVersion(BaseModel):
    """The DVC output that holds a file, and that output's content hash."""

    path: str
    out: str
    stage: str
    md5: str


def lock_outputs(repo_root: Path) -> dict[str, DataVersion]:
    """Every output recorded in ``dvc.lock``, by output path."""
    lock = repo_root / "dvc.lock"
    if not lock.exists():
        return {}
    try:
        loaded: Any = yaml.safe_load(lock.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise DataError(f"{lock}: invalid YAML: {exc}") from None
    outputs: dict[str, DataVersion] = {}
    for stage, body in (loaded.get("stages") or {}).items():
        for out in (body or {}).get("outs") or []:
            path = str(out.get("path", ""))
            digest = out.get("md5") or out.get("hash") or ""
            outputs[path] = DataVersion(path=path, out=path, stage=stage, md5=str(digest))
    return outputs


def data_versions(paths: Iterable[Path | str], repo_root: Path = Path()) -> dict[str, DataVersion]:
    """For each path, the DVC output containing it (a file, or a tracked folder above it).

    Paths that no pipeline output contains are left out: they are versioned by git.
    """
    outputs = lock_outputs(repo_root)
    found: dict[str, DataVersion] = {}
    for raw in paths:
        path = Path(raw)
        if path.is_absolute():
            try:
                relative = path.resolve().relative_to(repo_root.resolve())
            except ValueError:
                continue  # outside the repository: no DVC output can hold it
        else:
            relative = path
        for candidate in (relative, *relative.parents):
            version = outputs.get(candidate.as_posix())
            if version is not None:
                found[relative.as_posix()] = version.model_copy(
                    update={"path": relative.as_posix()}
                )
                break
    return found


def reproduce(repo_root: Path = Path(), *, force: bool = False) -> dict[str, DataVersion]:
    """Run ``dvc repro`` in ``repo_root``; return the outputs' versions afterwards.

    The interpreter's own ``bin`` folder goes first on PATH so stages find the ``studybench``
    command of this installation.
    """
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))
    env.setdefault("DVC_NO_ANALYTICS", "1")
    dvc = str(Path(sys.executable).with_name("dvc"))
    command = [dvc if Path(dvc).exists() else "dvc", "repro", *(["--force"] if force else [])]
    result = subprocess.run(
        command, cwd=repo_root, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-25:])
        raise DataError(f"dvc repro failed in {repo_root} (exit {result.returncode}):\n{tail}")
    return lock_outputs(repo_root)
