"""Discovery of complete checkpoints in watched folders, and what was already reported.

Nothing here ever writes to, moves or deletes anything inside a watched root: training jobs
own those folders. Bookkeeping lives in the caller's state (the Airflow trigger's asset
state store, or a JSON file under the work directory for the CLI).
"""

from studybench.checkpoints.inspect import (
    READY_MARKER,
    CheckpointInfo,
    CheckpointState,
    inspect_checkpoint,
)
from studybench.checkpoints.scan import Watcher, candidate_folders, latest_ready, scan_roots

__all__ = [
    "READY_MARKER",
    "CheckpointInfo",
    "CheckpointState",
    "Watcher",
    "candidate_folders",
    "inspect_checkpoint",
    "latest_ready",
    "scan_roots",
]
