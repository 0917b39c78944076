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
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import AgentSettings
from studybench.engines.agent_sandbox import FORWARD_VARIABLE, write_wrapper
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


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def fill_placeholders(template: str, values: dict[str, str]) -> str:
    """Substitute ``{name}`` placeholders of an argv template; other braces (a JSON
    argument, a shell brace group) stay as they are. An unknown ``{name}`` is an error
    rather than a literal, since it is almost always a typo in params.yaml."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            known = ", ".join("{" + key + "}" for key in sorted(values))
            raise ConfigError(f"agent.command has an unknown placeholder {{{name}}} ({known})")
        return values[name]

    return _PLACEHOLDER.sub(one, template)


class RunResult(BaseModel):
    """What one agent run produced."""

    text: str = ""
    ok: bool = False
    error: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    turns: int = 0
    stop_reason: str | None = None


@dataclass
class RunSpace:
    """The folders of one run: the agent's working folder and home, and a host-side
    control folder (wrapper, passwd) the agent cannot see."""

    root: Path
    workdir: Path = field(init=False)
    home: Path = field(init=False)
    control: Path = field(init=False)

    def __post_init__(self) -> None:
        self.workdir = self.root / "work"
        self.home = self.root / "home"
        self.control = self.root / "control"
        for folder in (self.workdir, self.home, self.control):
            folder.mkdir(parents=True)


def claude_cli_path(settings: AgentSettings) -> Path:
    """The Claude Code CLI: ``agent.cli_path``, else the one bundled with the SDK, else PATH."""
    if settings.cli_path:
        return Path(settings.cli_path)
    with contextlib.suppress(ImportError):
        import claude_agent_sdk

        bundled = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
        if bundled.is_file():
            return bundled
    found = shutil.which("claude")
    if not found:
        raise ConfigError("no Claude Code CLI: install claude-agent-sdk or set agent.cli_path")
    return Path(found)


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

    async def _run_sdk(self, space: RunSpace, system: str, query: str) -> RunResult:
        from claude_agent_sdk import (
            AssistantMessage,
            ClaudeAgentOptions,
            ResultMessage,
            TextBlock,
        )
        from claude_agent_sdk import (
            query as agent_query,
        )

        cli = claude_cli_path(self.settings)
        env = self._inside_env()
        cli_path: Path = cli
        if self.settings.sandbox:
            cli_path = write_wrapper(
                space.control / "agent-cli",
                workdir=space.workdir,
                home=space.home,
                control=space.control,
                program=[str(cli)],
                ro_binds=[Path(b) for b in self.settings.ro_binds],
            )
        env[FORWARD_VARIABLE] = ",".join(sorted(env))
        stderr: list[str] = []
        options = ClaudeAgentOptions(
            cwd=str(space.workdir),
            cli_path=str(cli_path),
            env={**env, "HOME": str(space.home), "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1"},
            model=self.model,
            tools=list(self.settings.tools),
            allowed_tools=list(self.settings.tools),
            permission_mode=self.settings.permission_mode,
            max_turns=self.settings.max_turns,
            setting_sources=["project"],
            system_prompt={"type": "preset", "preset": "claude_code", "append": system}
            if system
            else None,
            stderr=lambda line: stderr.append(line) if len(stderr) < 50 else None,
        )
        result = RunResult()
        last_text = ""
        try:
            async for message in agent_query(prompt=query, options=options):
                if isinstance(message, AssistantMessage):
                    texts = [b.text for b in message.content if isinstance(b, TextBlock)]
                    if texts:
                        last_text = "".join(texts)
                elif isinstance(message, ResultMessage):
                    usage = message.usage or {}
                    result.input_tokens = (
                        int(usage.get("input_tokens", 0))
                        + int(usage.get("cache_read_input_tokens", 0) or 0)
                        + int(usage.get("cache_creation_input_tokens", 0) or 0)
                    )
                    result.output_tokens = int(usage.get("output_tokens", 0))
                    result.cost_usd = float(message.total_cost_usd or 0.0)
                    result.turns = message.num_turns
                    result.stop_reason = message.stop_reason
                    result.text = message.result if message.result is not None else last_text
                    result.ok = not message.is_error and bool(result.text.strip())
                    if message.is_error:
                        result.error = f"agent ended with {message.subtype}"
        except Exception as exc:
            detail = " | ".join(stderr[-5:])
            result.error = f"{type(exc).__name__}: {exc} {detail}".strip()
            result.ok = False
        if result.ok is False and not result.error:
            result.error = "the agent gave no final answer"
        return result

    async def _run_command(self, space: RunSpace, system: str, query: str) -> RunResult:
        prompt_file = space.workdir / ".studybench-query.txt"
        prompt_file.write_text(query, encoding="utf-8")
        system_file = space.workdir / ".studybench-system.txt"
        system_file.write_text(system, encoding="utf-8")
        values = {
            "prompt": query,
            "prompt_file": str(prompt_file),
            "system_file": str(system_file),
            "cwd": str(space.workdir),
            "model": self.model,
        }
        program = [fill_placeholders(part, values) for part in self.settings.command]
        if not program:
            raise ConfigError("agent.driver 'command' needs agent.command (an argv template)")
        env = self._inside_env()
        executable = shutil.which(program[0]) or program[0]
        if self.settings.sandbox:
            wrapper = write_wrapper(
                space.control / "agent-cli",
                workdir=space.workdir,
                home=space.home,
                control=space.control,
                program=[executable, *program[1:]],
                ro_binds=[Path(b) for b in self.settings.ro_binds],
            )
            argv = [str(wrapper)]
        else:
            argv = [executable, *program[1:]]
        env[FORWARD_VARIABLE] = ",".join(sorted(env))
        process_env = {"PATH": os.environ.get("PATH", ""), **env, "HOME": str(space.home)}
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=space.workdir,
            env=process_env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        try:
            out, err = await asyncio.wait_for(
                process.communicate(), timeout=self.settings.timeout_s
            )
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            await process.wait()
            return RunResult(error=f"agent command timed out after {self.settings.timeout_s} s")
        text = out.decode("utf-8", errors="replace")
        if process.returncode != 0:
            tail = err.decode("utf-8", errors="replace")[-500:]
            return RunResult(error=f"agent command exited {process.returncode}: {tail}")
        if self.settings.output == "text":
            return RunResult(text=text.strip(), ok=bool(text.strip()))
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return RunResult(error="agent command printed no JSON object")
        if not isinstance(data, dict):
            return RunResult(error="agent command printed JSON that is not an object")
        answer = data.get(self.settings.result_field)
        raw_usage = data.get("usage")
        usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
        cost = data.get(self.settings.cost_field, 0.0)
        return RunResult(
            text=answer if isinstance(answer, str) else "",
            ok=isinstance(answer, str) and bool(answer.strip()),
            error="" if isinstance(answer, str) else f"no {self.settings.result_field!r} field",
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            cost_usd=float(cost) if isinstance(cost, int | float) else 0.0,
        )

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
                    if self.settings.driver == "claude-sdk":
                        result = await self._run_sdk(space, system, query)
                    else:
                        result = await self._run_command(space, system, query)
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
