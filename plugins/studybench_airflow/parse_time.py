"""What a DAG file needs at parse time, without importing studybench.

The dag-processor parses every DAG file every few seconds; importing studybench (pydantic
settings, sympy, MLflow) there would make each parse take seconds. So the few settings that
shape a DAG (its schedule, a mapped task's concurrency) are read here from params.yaml with
the same precedence as :class:`studybench.config.Settings`: the environment override
``STUDYBENCH__<SECTION>__<FIELD>``, then the active profile (``STUDYBENCH_PROFILE``), then
the file's top level, then the default. A file that cannot be read gives the default: a
broken params.yaml fails the tasks (which load the real settings) with a clear error, not
the parse of every DAG.

Also here: the asset a DAG is scheduled on, watched by one of the plugin's triggers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml
from airflow.sdk import Asset, AssetWatcher

REPO = os.environ.get("STUDYBENCH_REPO", str(Path(__file__).resolve().parents[2]))


def setting(section: str, field: str, default: Any) -> Any:
    """``<section>.<field>`` as the settings would resolve it (see the module doc), converted
    to the default's type; the default when absent, unreadable or not convertible."""
    kind = type(default)
    override = os.environ.get(f"STUDYBENCH__{section.upper()}__{field.upper()}")
    if override:
        try:
            return kind(override)
        except (TypeError, ValueError):
            return default
    params = Path(os.environ.get("STUDYBENCH_PARAMS") or "params.yaml")
    try:
        loaded = yaml.safe_load((Path(REPO) / params).read_text()) or {}
        profile = (loaded.get("profiles") or {}).get(os.environ.get("STUDYBENCH_PROFILE", ""))
        for source in (profile or {}, loaded):
            value = (source.get(section) or {}).get(field)
            if value not in (None, ""):
                return kind(value)
    except (OSError, yaml.YAMLError, AttributeError, TypeError, ValueError):
        pass
    return default


# Set by ``studybench airflow`` (studybench.local_airflow): the checkpoint DAG is created
# active, so its watcher is registered by the first parse of the file.
WATCH_AT_CREATION_ENV = "STUDYBENCH_WATCH_AT_CREATION"


def paused_at_creation() -> bool | None:
    """``is_paused_upon_creation`` of a DAG whose watcher ``studybench airflow`` turns on: False
    under it, so the DAG is active from its first parse and Airflow registers the watcher then
    (a DAG created paused and unpaused later waits for the next re-parse of its file, up to
    ``min_file_process_interval``, 30 s by default, before anything is watched). Elsewhere
    None: Airflow's ``dags_are_paused_at_creation`` decides, as for any DAG."""
    return False if os.environ.get(WATCH_AT_CREATION_ENV) == "1" else None


def watched_asset(uri: str, name: str, watcher: str, trigger: type) -> Asset:
    """The asset ``name`` watched (by the watcher ``watcher``) by ``trigger``, a
    :class:`CheckpointTrigger` or a subclass, told where the settings are as the tasks are."""
    return Asset(
        uri=uri,
        name=name,
        watchers=[
            AssetWatcher(
                name=watcher,
                trigger=trigger(
                    repo=REPO,
                    params=os.environ.get("STUDYBENCH_PARAMS", ""),
                    profile=os.environ.get("STUDYBENCH_PROFILE", ""),
                    asset=name,
                ),
            )
        ],
    )
