"""Method artefacts that condition the model: ACE playbooks, GEPA system prompts, EvoSkill
skills (mutually exclusive: each replaces or extends the system message), and textbook
guidance (appended to user turns; combines with any of them). Format doc, sections 10-11.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from studybench.data.records import SlotKey
from studybench.errors import ConfigError, DataError


class MethodArtefacts(BaseModel):
    """What a self-evolution method contributes to the prompt, already resolved to text."""

    model_config = ConfigDict(frozen=True)

    system_prompt: str
    kind: str = "default"  # default | ace | gepa | evoskill
    source: str = ""  # path of the artefact, for the record
    guidance: dict[str, str] = {}  # str(SlotKey) -> guidance text
    guidance_source: str = ""

    def fingerprint(self) -> str:
        """Hash of everything that reaches the prompt (goes into the protocol hash)."""
        payload = json.dumps(
            {"system": self.system_prompt, "kind": self.kind, "guidance": self.guidance},
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def guidance_for(self, key: SlotKey) -> str:
        return self.guidance.get(str(key), "")


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot read {what}: {exc.strerror}") from None


def ace_system_prompt(default: str, playbook: str, instruction: str = "") -> str:
    """The system message extended by an ACE playbook, introduced by the benchmark's
    ``instruction`` on using it (none: the playbook follows the system message directly)."""
    intro = f"\n\n{instruction.strip()}" if instruction.strip() else ""
    return f"{default}{intro}\n\n## PLAYBOOK\n{playbook.strip()}\n## END PLAYBOOK"


def gepa_system_prompt(
    path: Path, *, iteration: int | None = None, rollouts: int | None = None
) -> str:
    """The prompt selected from a GEPA history (JSONL rows with ``system_prompt``,
    ``iteration``, ``rollouts``, ...), a JSON object, or plain text.

    Default: the last row. ``iteration`` / ``rollouts``: the last row whose field is <= N
    (the prompt GEPA had at that point of its budget).
    """
    text = _read(path, "GEPA prompt")
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            rows = []
            break
        if not isinstance(row, dict) or "system_prompt" not in row:
            raise DataError(f"{path}: line {number}: a GEPA row needs 'system_prompt'")
        rows.append(row)
    if not rows:
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and "system_prompt" in whole:
            return str(whole["system_prompt"])
        if iteration is not None or rollouts is not None:
            raise DataError(f"{path}: selecting an iteration needs a JSONL history")
        return text.strip()
    for field, limit in (("iteration", iteration), ("rollouts", rollouts)):
        if limit is not None:
            rows = [r for r in rows if isinstance(r.get(field), int) and r[field] <= limit]
            if not rows:
                raise DataError(f"{path}: no row with {field} <= {limit}")
    return str(rows[-1]["system_prompt"])


def load_artefacts(
    default_system_prompt: str,
    *,
    ace_instruction: str = "",
    ace: Path | None = None,
    gepa: Path | None = None,
    gepa_iteration: int | None = None,
    gepa_rollouts: int | None = None,
    evoskill: Path | None = None,
    guidance: Path | None = None,
) -> MethodArtefacts:
    """Resolve the artefact paths of a run; at most one of ACE, GEPA and EvoSkill.
    ``ace_instruction`` is the benchmark's text in front of an ACE playbook (its
    :class:`~studybench.rollout.prompts.PromptTexts`' ``ace_instruction``)."""
    chosen = [name for name, path in (("ace", ace), ("gepa", gepa), ("evoskill", evoskill)) if path]
    if len(chosen) > 1:
        raise ConfigError(
            f"ACE, GEPA and EvoSkill artefacts are mutually exclusive; got {', '.join(chosen)}"
        )
    system, kind, source = default_system_prompt, "default", ""
    if ace is not None:
        system, kind, source = (
            ace_system_prompt(default_system_prompt, _read(ace, "playbook"), ace_instruction),
            "ace",
            str(ace),
        )
    elif gepa is not None:
        system = gepa_system_prompt(gepa, iteration=gepa_iteration, rollouts=gepa_rollouts)
        kind, source = "gepa", str(gepa)
    elif evoskill is not None:
        system, kind, source = _read(evoskill, "EvoSkill skills").strip(), "evoskill", str(evoskill)
    guidance_index: dict[str, str] = {}
    if guidance is not None:
        from studybench.data.loaders import load_guidance

        guidance_index = {str(k): v for k, v in load_guidance(guidance).items()}
    return MethodArtefacts(
        system_prompt=system,
        kind=kind,
        source=source,
        guidance=guidance_index,
        guidance_source=str(guidance or ""),
    )
