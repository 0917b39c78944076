"""``InstrumentTrigger``: an event trigger (for an ``AssetWatcher``) that emits one event
naming the installed verifier and judge (``{"instrument": {"verifier_version", ...}}``)
each time they change, e.g. after a deploy bumped the verifier. The asset's state store
remembers every instrument announced, so a triggerer restart announces nothing twice. The
settings are re-read on every poll (a judge model changed in params.yaml counts too).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from airflow.triggers.base import TriggerEvent

from studybench_airflow.trigger import CheckpointTrigger

log = logging.getLogger(__name__)

ANNOUNCED_PREFIX = "instrument:"


class InstrumentTrigger(CheckpointTrigger):
    """The settings' location and the state store as :class:`CheckpointTrigger`'s."""

    def serialize(self) -> tuple[str, dict[str, Any]]:
        _name, kwargs = super().serialize()
        return ("studybench_airflow.instrument.InstrumentTrigger", kwargs)

    def _installed(self) -> tuple[dict[str, str], float]:
        from studybench.rescore import installed

        settings = self._settings()
        return installed(settings).model_dump(), settings.checkpoints.poll_interval_s

    async def run(self) -> AsyncIterator[TriggerEvent]:
        store = self._store()
        while True:
            try:
                instrument, interval = await asyncio.to_thread(self._installed)
            except Exception as exc:  # bad params: keep watching
                log.error("reading the installed instrument failed: %s", exc)
                await asyncio.sleep(10.0)
                continue
            key = ANNOUNCED_PREFIX + json.dumps(instrument, sort_keys=True)
            if not await store.aget(key):
                log.info("installed instrument: %s", instrument)
                yield TriggerEvent({"instrument": instrument})
                await store.aset(key, True)  # after the hand-over: a crash re-announces
            if self.once:
                return
            await asyncio.sleep(interval)
