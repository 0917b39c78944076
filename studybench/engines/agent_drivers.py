"""The agent drivers: how one agent run is started and its answer read.

``claude-sdk`` drives the Claude Code CLI through ``claude-agent-sdk``; ``command`` runs any
agent CLI from an argv template. Both run the agent inside the sandbox of
:mod:`studybench.engines.agent_sandbox` and return a :class:`RunResult`; the engine
(:mod:`studybench.engines.agent`) owns tries, the ledger and the cost limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from studybench.config import AgentSettings
from studybench.engines.agent_sandbox import FORWARD_VARIABLE, write_wrapper
from studybench.errors import ConfigError

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


async def run_claude_sdk(
    settings: AgentSettings,
    model: str,
    env: dict[str, str],
    space: RunSpace,
    system: str,
    query: str,
) -> RunResult:
    """One Claude Code run through claude-agent-sdk, the CLI wrapped in the sandbox."""
    from claude_agent_sdk import (
        AssistantMessage,
        ClaudeAgentOptions,
        ResultMessage,
        TextBlock,
    )
    from claude_agent_sdk import (
        query as agent_query,
    )

    cli = claude_cli_path(settings)
    cli_path: Path = cli
    if settings.sandbox:
        cli_path = write_wrapper(
            space.control / "agent-cli",
            workdir=space.workdir,
            home=space.home,
            control=space.control,
            program=[str(cli)],
            ro_binds=[Path(b) for b in settings.ro_binds],
        )
    env[FORWARD_VARIABLE] = ",".join(sorted(env))
    stderr: list[str] = []
    options = ClaudeAgentOptions(
        cwd=str(space.workdir),
        cli_path=str(cli_path),
        env={**env, "HOME": str(space.home), "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1"},
        model=model,
        tools=list(settings.tools),
        allowed_tools=list(settings.tools),
        permission_mode=settings.permission_mode,
        max_turns=settings.max_turns,
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


async def run_command(
    settings: AgentSettings,
    model: str,
    env: dict[str, str],
    space: RunSpace,
    system: str,
    query: str,
) -> RunResult:
    """One run of any agent CLI from the ``agent.command`` argv template, in the sandbox;
    the answer (and optionally usage and cost) is read from its stdout."""
    prompt_file = space.workdir / ".studybench-query.txt"
    prompt_file.write_text(query, encoding="utf-8")
    system_file = space.workdir / ".studybench-system.txt"
    system_file.write_text(system, encoding="utf-8")
    values = {
        "prompt": query,
        "prompt_file": str(prompt_file),
        "system_file": str(system_file),
        "cwd": str(space.workdir),
        "model": model,
    }
    program = [fill_placeholders(part, values) for part in settings.command]
    if not program:
        raise ConfigError("agent.driver 'command' needs agent.command (an argv template)")
    executable = shutil.which(program[0]) or program[0]
    if settings.sandbox:
        wrapper = write_wrapper(
            space.control / "agent-cli",
            workdir=space.workdir,
            home=space.home,
            control=space.control,
            program=[executable, *program[1:]],
            ro_binds=[Path(b) for b in settings.ro_binds],
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
        out, err = await asyncio.wait_for(process.communicate(), timeout=settings.timeout_s)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 9)
        await process.wait()
        return RunResult(error=f"agent command timed out after {settings.timeout_s} s")
    text = out.decode("utf-8", errors="replace")
    if process.returncode != 0:
        tail = err.decode("utf-8", errors="replace")[-500:]
        return RunResult(error=f"agent command exited {process.returncode}: {tail}")
    if settings.output == "text":
        return RunResult(text=text.strip(), ok=bool(text.strip()))
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return RunResult(error="agent command printed no JSON object")
    if not isinstance(data, dict):
        return RunResult(error="agent command printed JSON that is not an object")
    answer = data.get(settings.result_field)
    raw_usage = data.get("usage")
    usage: dict[str, Any] = raw_usage if isinstance(raw_usage, dict) else {}
    cost = data.get(settings.cost_field, 0.0)
    return RunResult(
        text=answer if isinstance(answer, str) else "",
        ok=isinstance(answer, str) and bool(answer.strip()),
        error="" if isinstance(answer, str) else f"no {settings.result_field!r} field",
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        cost_usd=float(cost) if isinstance(cost, int | float) else 0.0,
    )
