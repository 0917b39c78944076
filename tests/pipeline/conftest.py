"""Settings for evaluations of the tiny model in-process (the transformers engine)."""

from __future__ import annotations

from pathlib import Path

from studybench.config import Settings, load_settings
from tests.conftest import ROOT


def eval_settings(
    tmp_path: Path,
    uri: str = "",
    *,
    splits: tuple[str, ...] = ("memorisation",),
    **sections: dict[str, object],
) -> Settings:
    """The project's params with a small protocol, the in-process engine, the rule judge,
    and everything written under ``tmp_path``."""
    base = load_settings(ROOT / "params.yaml", environ={})
    work = tmp_path / "work"
    data = {name: ROOT / getattr(base.data, name) for name in type(base.data).model_fields}
    updates = {
        "protocol": base.protocol.model_copy(
            update={"k": 1, "seeds": (0, 1, 2), "max_new_tokens": 40}
        ),
        "judge": base.judge.model_copy(update={"llm_enabled": False}),
        "engine": base.engine.model_copy(update={"kind": "hf"}),
        "data": base.data.model_copy(update=data),
        "checkpoints": base.checkpoints.model_copy(update={"splits": splits}),
        "tracking": base.tracking.model_copy(update={"uri": uri, "experiment": tmp_path.name}),
        "paths": base.paths.model_copy(
            update={"work_dir": work, "runs_dir": work / "runs", "cache_dir": work / "cache"}
        ),
    }
    for name, values in sections.items():
        current = updates.get(name, getattr(base, name))
        updates[name] = current.model_copy(update=values)  # type: ignore[attr-defined]
    return base.model_copy(update=updates)
