"""Agent backend: every sub-problem is an independent agent run (Claude Code by default).

Self-evolution methods increasingly live in agent harnesses (skills, a ``CLAUDE.md``
playbook, MCP tools), so the platform evaluates the agent as it ships, behind the ordinary
:class:`~studybench.engines.base.Engine` protocol: the protocol, store, judge, tracking and
DAGs do not know an agent answered.

One ``complete`` call is one agent run per sample:

1. a fresh temporary working folder is seeded with the method's files (``.claude/``,
   ``CLAUDE.md``, ``.mcp.json``, a ``skills/`` folder: ``agent.seed_files``) copied from
   ``agent.project_dir``;
2. the conversation so far is flattened into one query: the user turns in order, the
   model's earlier answers marked as its previous answers (the agent has no chat history of
   its own); the system prompt is appended to the agent's own;
3. the agent runs confined (:mod:`studybench.engines.agent_sandbox`) with the configured
   tools and permission mode; its final message is the completion;
4. a failed run (process error, error result, empty answer) is tried again, up to
   ``agent.tries`` (two, as the reference does); then the turn fails like any engine error.

Drivers make the agent command pluggable: ``claude-sdk`` drives the Claude Code CLI through
``claude-agent-sdk``; ``command`` runs any agent CLI from an argv template and reads its
answer (and optionally usage and cost) from stdout. Adding an agent is configuration.

Agent runs are expensive, so each run's tokens, cost and wall time go to a ledger
(``agent_usage.jsonl`` in the run folder, appended as runs finish, kept across resumes); the
engine's :meth:`AgentEngine.usage_summary` feeds tracking, and ``agent.max_cost_usd`` stops
scheduling new runs once the ledger's spend reaches it (finished runs are kept; raising the
limit and re-running resumes).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studybench.config import AgentSettings
from studybench.engines.agent_drivers import RunSpace, run_claude_sdk, run_command
from studybench.engines.anthropic_messages import messages_base_url
from studybench.engines.base import Completion, EngineError, Message, SamplingParams
from studybench.engines.retry import MAX_ERROR_CHARS
from studybench.errors import ConfigError
from studybench.secrets import register_secret_value, scrub_secrets

PREVIOUS_ANSWER = "[Your previous answer]"
"""The marker of the model's own earlier turns in a flattened query (reference parity)."""
LEDGER = "agent_usage.jsonl"
CONDITIONING_METHODS = ("ace", "gepa", "evoskill")
"""Methods that condition a chat model's system message; an agent is conditioned by its
project folder instead, so these are refused on the agent backend (guidance still applies:
it travels in the user turns)."""


def refuse_conditioning(methods: Sequence[str]) -> None:
    """Raise a clear error when a chat-model conditioning method is asked of an agent."""
    asked = [m for m in methods if m.lower() in CONDITIONING_METHODS]
    if asked:
        raise ConfigError(
            f"the agent backend does not apply {', '.join(asked)}: these condition a chat "
            "model's system prompt. Ship the method in the agent's project folder instead "
            "(agent.project_dir: CLAUDE.md, .claude/, skills/), or evaluate it with a chat "
            "engine (openai, vllm, anthropic). Guidance is supported on every engine."
        )


def flatten(messages: Sequence[Message]) -> tuple[str, str]:
    """(system prompt, query) of a conversation: user turns as they are, assistant turns
    behind :data:`PREVIOUS_ANSWER`, blank lines between turns."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    parts: list[str] = []
    for message in messages:
        if message.role == "user":
            parts.append(message.content)
        elif message.role == "assistant":
            parts.append(f"{PREVIOUS_ANSWER}\n{message.content}")
    if not parts or messages[-1].role != "user":
        raise EngineError("an agent query must end with a user turn")
    return system, "\n\n".join(parts)


def seed_workdir(project_dir: str, names: Sequence[str], dest: Path) -> list[str]:
    """Copy the method's files into ``dest``; returns the names copied. A missing project
    folder is a configuration error; a missing entry of ``names`` is simply not shipped."""
    if not project_dir:
        return []
    source = Path(project_dir)
    if not source.is_dir():
        raise ConfigError(f"agent.project_dir {project_dir!r} is not a folder")
    copied = []
    for name in names:
        entry = source / name
        if entry.is_dir():
            shutil.copytree(entry, dest / name, symlinks=False)
        elif entry.is_file():
            shutil.copy2(entry, dest / name)
        else:
            continue
        copied.append(name)
    return copied


class AgentEngine:
    """Engine protocol over agent runs."""

    name = "agent"

    def __init__(
        self,
        settings: AgentSettings,
        *,
        model: str,
        base_url: str | None,
        api_key: str | None,
        run_dir: Path,
        max_new_tokens: int | None = None,
    ) -> None:
        if api_key:
            register_secret_value(api_key)
        self.settings = settings
        self.model = model
        self.base_url = base_url
        self._api_key = api_key
        self.max_new_tokens = max_new_tokens
        self.run_dir = run_dir
        self.ledger = run_dir / LEDGER
        self.retries = 0
        self._limit = asyncio.Semaphore(settings.concurrency)
        self._spent = self._ledger_spend()

    # -- cost accounting -------------------------------------------------------------------
    def _ledger_rows(self) -> list[dict[str, Any]]:
        if not self.ledger.is_file():
            return []
        rows = []
        for line in self.ledger.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(json.JSONDecodeError):
                rows.append(json.loads(line))
        return rows

    def _ledger_spend(self) -> float:
        return sum(float(r.get("cost_usd", 0.0)) for r in self._ledger_rows())

    def _record(self, row: dict[str, Any]) -> None:
        self.ledger.parent.mkdir(parents=True, exist_ok=True)
        with self.ledger.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row, sort_keys=True) + "\n")

    def usage_summary(self) -> dict[str, float]:
        """Totals of the ledger, for MLflow (``engine/agent_*``)."""
        rows = self._ledger_rows()
        walls = [float(r["wall_s"]) for r in rows if "wall_s" in r]
        return {
            "agent_runs": float(len(rows)),
            "agent_failed_runs": float(sum(1 for r in rows if not r.get("ok"))),
            "agent_cost_usd": sum(float(r.get("cost_usd", 0.0)) for r in rows),
            "agent_input_tokens": float(sum(int(r.get("input_tokens", 0)) for r in rows)),
            "agent_output_tokens": float(sum(int(r.get("output_tokens", 0)) for r in rows)),
            "agent_wall_s_total": sum(walls),
            "agent_wall_s_median": statistics.median(walls) if walls else 0.0,
            "agent_wall_s_max": max(walls, default=0.0),
        }

    def _check_budget(self) -> None:
        limit = self.settings.max_cost_usd
        if limit is not None and self._spent >= limit:
            raise EngineError(
                f"agent cost limit reached: ${self._spent:.4f} spent of "
                f"agent.max_cost_usd=${limit:.4f}; no new agent runs are scheduled "
                "(finished runs are kept: raise the limit and re-run to continue)"
            )

    # -- one run ---------------------------------------------------------------------------
    def _inside_env(self) -> dict[str, str]:
        env = {
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
        }
        if self.base_url:
            env["ANTHROPIC_BASE_URL"] = messages_base_url(self.base_url) or self.base_url
        if self._api_key:
            env["ANTHROPIC_API_KEY"] = self._api_key
        if self.max_new_tokens:
            env["CLAUDE_CODE_MAX_OUTPUT_TOKENS"] = str(self.max_new_tokens)
        for name in self.settings.env_passthrough:
            if name in os.environ:
                env[name] = os.environ[name]
        return env

    async def _one(self, messages: Sequence[Message]) -> Completion:
        system, query = flatten(messages)
        key = hashlib.sha256(json.dumps([system, query]).encode()).hexdigest()[:16]
        errors: list[str] = []
        for attempt in range(1, self.settings.tries + 1):
            self._check_budget()
            async with self._limit:
                started = time.monotonic()
                root = Path(tempfile.mkdtemp(prefix="studybench-agent-"))
                try:
                    space = RunSpace(root)
                    shipped = seed_workdir(
                        self.settings.project_dir, self.settings.seed_files, space.workdir
                    )
                    run = run_claude_sdk if self.settings.driver == "claude-sdk" else run_command
                    result = await run(
                        self.settings, self.model, self._inside_env(), space, system, query
                    )
                finally:
                    shutil.rmtree(root, ignore_errors=True)
                wall = time.monotonic() - started
            self._spent += result.cost_usd
            self._record(
                {
                    "query": key,
                    "try": attempt,
                    "ok": result.ok,
                    "wall_s": round(wall, 3),
                    "input_tokens": result.input_tokens,
                    "output_tokens": result.output_tokens,
                    "cost_usd": result.cost_usd,
                    "turns": result.turns,
                    "seeded": shipped,
                    "error": scrub_secrets(result.error)[:MAX_ERROR_CHARS],
                    "time": time.time(),
                }
            )
            if result.ok:
                finish = "length" if result.stop_reason == "max_tokens" else "stop"
                return Completion(
                    text=result.text,
                    finish_reason=finish,
                    prompt_tokens=result.input_tokens,
                    completion_tokens=result.output_tokens,
                )
            errors.append(scrub_secrets(result.error)[:MAX_ERROR_CHARS])
            if attempt < self.settings.tries:
                self.retries += 1
        raise EngineError(
            f"agent run failed after {self.settings.tries} tries: " + " / ".join(errors)
        )

    async def complete(
        self, messages: Sequence[Message], sampling: SamplingParams
    ) -> list[Completion]:
        return list(await asyncio.gather(*(self._one(messages) for _ in range(sampling.n))))

    async def aclose(self) -> None:
        return None
