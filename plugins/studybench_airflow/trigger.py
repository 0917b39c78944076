"""``CheckpointTrigger``: an event trigger (for an ``AssetWatcher``) that polls the watched
checkpoint roots and emits one event per newly ready checkpoint.

The trigger is long-lived (``run`` never returns: a trigger that returns is re-created and
would re-fire) and remembers every reported checkpoint identity in the asset's state store,
which Airflow keeps in its metadata database, so a triggerer restart reports nothing twice.
Settings (roots, quiet period, poll interval) are re-read on every poll, so changing
``checkpoints.roots`` in params.yaml needs no restart. Scans run in a thread: the
triggerer's event loop is never blocked by the filesystem. Nothing in a watched root is ever
written, moved or deleted.

What counts as new is the package's policy (:class:`studybench.checkpoints.scan.Watcher`):
this plugin only feeds it the state store's memory and turns its verdicts into events.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from airflow.triggers.base import BaseEventTrigger, TriggerEvent

log = logging.getLogger(__name__)

SEEN_PREFIX = "ready:"
INITIALISED = "initialised"
EVENT_SPACING_S = 3.0  # events closer than this can merge into one DAG run or be delayed


class _MemoryStore:
    """Used only when the trigger runs outside a triggerer (no asset state store)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    async def aget(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    async def aset(self, key: str, value: Any) -> None:
        self.values[key] = value


class CheckpointTrigger(BaseEventTrigger):
    """Emit ``{"checkpoint": uri, "identity", "step", "training_run"}`` per ready checkpoint.

    ``params`` / ``profile`` / ``repo`` say where the settings are (as for the tasks);
    ``asset`` names the watched asset in the state store.
    """

    def __init__(
        self, repo: str, params: str = "", profile: str = "", asset: str = "", once: bool = False
    ) -> None:
        super().__init__()
        self.repo = repo
        self.params = params
        self.profile = profile
        self.asset = asset
        self.once = once  # tests: one poll, then stop

    def serialize(self) -> tuple[str, dict[str, Any]]:
        return (
            "studybench_airflow.trigger.CheckpointTrigger",
            {
                "repo": self.repo,
                "params": self.params,
                "profile": self.profile,
                "asset": self.asset,
                "once": self.once,
            },
        )

    def _store(self) -> Any:
        store = getattr(self, "asset_state_store", None)
        if store is None:
            if not hasattr(self, "_memory"):
                log.warning(
                    "no asset state store (not running in a triggerer?): reported checkpoints "
                    "are kept in memory only and re-fire after a restart"
                )
                self._memory = _MemoryStore()
            return self._memory
        if self.asset:
            from airflow.sdk import Asset

            return store[Asset.ref(name=self.asset)]
        return store

    def _settings(self) -> Any:
        from studybench.config import load_settings

        path = Path(self.repo) / (self.params or "params.yaml")  # an absolute params wins
        return load_settings(path, profile=self.profile or None)

    def _scan(self) -> tuple[Any, list[str], Any]:
        from studybench.checkpoints.scan import scan_roots

        settings = self._settings()
        cp = settings.checkpoints
        roots = [r if "://" in r else str((Path(self.repo) / r).resolve()) for r in cp.roots]
        infos = scan_roots(
            roots,
            depth=cp.depth,
            quiet_period_s=cp.quiet_period_s,
            allow_pickle=cp.allow_pickle,
        )
        return settings, roots, infos

    async def run(self) -> AsyncIterator[TriggerEvent]:
        from studybench.checkpoints.scan import Watcher

        store = self._store()
        watcher = Watcher([])  # the package's policy; the store makes its state persistent
        while True:
            try:
                settings, roots, infos = await asyncio.to_thread(self._scan)
            except Exception as exc:  # bad params or an unreachable root: keep watching
                log.error("checkpoint scan failed: %s", exc)
                await asyncio.sleep(10.0)
                continue
            watcher.evaluate_existing = settings.checkpoints.evaluate_existing
            for root in roots:  # roots scanned before (at an earlier start, too)
                if root not in watcher.initialised and await store.aget(INITIALISED + ":" + root):
                    watcher.initialised.add(root)
            candidates = {i.identity for i in infos if i.ready and i.identity is not None}
            for identity in sorted(candidates - watcher.seen):  # reported at an earlier start
                if await store.aget(SEEN_PREFIX + identity):
                    watcher.seen.add(identity)
            result = watcher.review(infos, roots)
            for info in result.ready:
                log.info("new checkpoint: %s", info.describe())
                yield TriggerEvent(
                    {
                        "checkpoint": info.uri,
                        "identity": info.identity,
                        "step": info.step,
                        "training_run": info.training_run,
                    }
                )
                # recorded after the event is handed over: a crash in between re-fires it
                # (harmless: planning skips what was already logged) instead of losing it
                await store.aset(SEEN_PREFIX + str(info.identity), info.uri)
                await asyncio.sleep(EVENT_SPACING_S)
            for info in result.existing:
                await store.aset(SEEN_PREFIX + str(info.identity), info.uri)
            for root in result.new_roots:
                await store.aset(INITIALISED + ":" + root, True)
            if self.once:
                return
            await asyncio.sleep(settings.checkpoints.poll_interval_s)
