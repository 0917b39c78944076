"""Readiness invariants, checked with hypothesis over the files of real checkpoint folders
(``tests/checkpoints/fake.py``): truncating or zeroing any weight, index or tokenizer file
makes a ready folder not ready, whether the damage arrived before the marker (a bad copy),
after it (a rewrite in progress) or in a folder named explicitly (``assume_settled``); and a
marker-only folder whose files are newer than its marker settles after the quiet period
instead of staying pending forever."""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studybench.checkpoints import READY_MARKER, CheckpointState, inspect_checkpoint
from tests.checkpoints.fake import write_checkpoint

FAST = settings(max_examples=40, deadline=None)
QUIET = 60.0
DAMAGEABLE = {
    "safetensors": ["model.safetensors", "tokenizer.json", "tokenizer_config.json"],
    "sharded": [
        "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors",
        "model.safetensors.index.json",
        "tokenizer.json",
        "tokenizer_config.json",
    ],
}
_folders = itertools.count()


def _fresh(root: Path, weights: str, *, trainer_state: bool = True) -> Path:
    """A new folder per example: the inspector caches by (path, size, mtime)."""
    folder = root / f"checkpoint-{next(_folders)}"
    write_checkpoint(folder, weights=weights, trainer_state=trainer_state, age_s=3 * QUIET)
    return folder


def _damage(path: Path, how: str, keep: float) -> None:
    data = path.read_bytes()
    if how == "zero":
        path.write_bytes(b"\0" * len(data))
    else:
        path.write_bytes(data[: int(keep * (len(data) - 1))])  # at least one byte short


def _set_mtime(path: Path, when: float) -> None:
    os.utime(path, (when, when))


def _restore_mtime(path: Path, ns: int) -> None:
    """Exactly the old time (a float loses nanoseconds, so the file would look changed)."""
    os.utime(path, ns=(ns, ns))


cases = st.sampled_from(sorted(DAMAGEABLE)).flatmap(
    lambda weights: st.tuples(
        st.just(weights),
        st.sampled_from(DAMAGEABLE[weights]),
        st.sampled_from(["zero", "truncate"]),
        st.floats(0.0, 1.0),
        st.sampled_from(["before_marker", "after_marker", "assume_settled"]),
    )
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("checkpoints")


@FAST
@given(cases)
def test_a_damaged_file_makes_a_ready_folder_not_ready(
    root: Path, case: tuple[str, str, str, float, str]
) -> None:
    weights, name, how, keep, when = case
    folder = _fresh(root, weights)
    if when == "after_marker":  # the watcher saw it ready, then the file is rewritten
        before = inspect_checkpoint(str(folder), quiet_period_s=QUIET)
        assert before.state is CheckpointState.READY, before.describe()
    else:  # its undamaged twin is ready (this folder is first inspected damaged)
        twin = inspect_checkpoint(str(_fresh(root, weights)), quiet_period_s=QUIET)
        assert twin.state is CheckpointState.READY, twin.describe()

    target = folder / name
    old = target.stat().st_mtime_ns
    _damage(target, how, keep)
    if when == "before_marker":  # the copy arrived damaged, times preserved
        _restore_mtime(target, old)
    after = inspect_checkpoint(
        str(folder), quiet_period_s=QUIET, assume_settled=when == "assume_settled"
    )
    assert after.state is not CheckpointState.READY, (case, after.describe())
    if when != "after_marker":
        assert after.state is CheckpointState.INVALID, (case, after.describe())
        assert after.reason


@pytest.mark.parametrize("name", ["model.safetensors", "tokenizer.json"])
def test_damage_with_the_time_kept_is_seen_after_an_earlier_inspection(
    root: Path, name: str
) -> None:
    """A file rewritten in place with its size and exact mtime kept (``cp -p`` of a bad copy)
    after the inspector cached it: the cache must not answer for the new content."""
    folder = _fresh(root, "safetensors")
    assert inspect_checkpoint(str(folder), quiet_period_s=QUIET).ready
    target = folder / name
    old = target.stat().st_mtime_ns
    _damage(target, "zero", 0.0)
    _restore_mtime(target, old)
    after = inspect_checkpoint(str(folder), quiet_period_s=QUIET)
    assert after.state is CheckpointState.INVALID, after.describe()


@FAST
@given(
    st.sampled_from(sorted(DAMAGEABLE)),
    st.sampled_from(["config.json", "model.safetensors", "tokenizer.json"]),
    st.floats(1.0, QUIET - 1.0),
)
def test_a_marker_only_folder_with_a_newer_file_settles_after_the_quiet_period(
    root: Path, weights: str, name: str, since: float
) -> None:
    folder = _fresh(root, weights, trainer_state=False)
    if not (folder / name).exists():
        name = "config.json"
    touched = time.time()
    _set_mtime(folder / name, touched)  # newer than the marker, content unchanged
    waiting = inspect_checkpoint(str(folder), quiet_period_s=QUIET, now=touched + since)
    assert waiting.state is CheckpointState.PENDING, waiting.describe()
    settled = inspect_checkpoint(str(folder), quiet_period_s=QUIET, now=touched + QUIET + since)
    assert settled.state is CheckpointState.READY, settled.describe()
    assert settled.identity == waiting.identity or waiting.identity is None


@FAST
@given(st.sampled_from(sorted(DAMAGEABLE)), st.integers(0, 2**16))
def test_identity_follows_the_weights_not_the_times(root: Path, weights: str, seed: int) -> None:
    a = root / f"id-{next(_folders)}"
    b = root / f"id-{next(_folders)}"
    write_checkpoint(a, weights=weights, seed=seed, age_s=3 * QUIET)
    write_checkpoint(b, weights=weights, seed=seed + 1, age_s=5 * QUIET)
    first, again = inspect_checkpoint(str(a)), inspect_checkpoint(str(a))
    other = inspect_checkpoint(str(b))
    assert first.ready and other.ready
    assert first.identity == again.identity
    assert first.identity != other.identity


def test_the_marker_is_what_the_properties_rely_on(root: Path) -> None:
    folder = _fresh(root, "safetensors", trainer_state=False)
    assert (folder / READY_MARKER).exists()
    assert inspect_checkpoint(str(folder), quiet_period_s=QUIET).ready
