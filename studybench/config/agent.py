"""The agent backend (``engine.kind: agent``): how one sub-problem becomes one confined
agent run."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from studybench.config.fields import Section


class AgentSettings(Section):
    """The agent backend (``engine.kind: agent``): every sub-problem is one agent run in a
    fresh folder seeded with the method's files, confined by bubblewrap. The endpoint, model
    and key variable are the ``engine`` section's (the agent's model API)."""

    driver: Literal["claude-sdk", "command"] = Field(
        "claude-sdk", description="claude-sdk: Claude Code via claude-agent-sdk; command: argv"
    )
    project_dir: str = Field("", description="the method's files: CLAUDE.md, .claude/, ...")
    seed_files: tuple[str, ...] = (".claude", "CLAUDE.md", ".mcp.json", "skills")
    tools: tuple[str, ...] = (
        "Bash",
        "Read",
        "Write",
        "Edit",
        "Glob",
        "Grep",
        "TodoWrite",
        "BashOutput",
    )
    permission_mode: Literal["default", "acceptEdits", "plan", "bypassPermissions"] = (
        "bypassPermissions"
    )
    max_turns: int = Field(50, ge=1, description="agent turns (tool calls) per run")
    tries: int = Field(2, ge=1, description="runs per sub-problem before the turn fails")
    timeout_s: float = Field(1800.0, gt=0.0, description="wall limit of one command run")
    concurrency: int = Field(4, ge=1, description="agent runs at once")
    max_cost_usd: float | None = Field(
        None, ge=0.0, description="stop scheduling new runs once the ledger spent this"
    )
    cli_path: str = Field("", description="Claude Code CLI; default: the SDK's bundled one")
    command: tuple[str, ...] = Field(
        (), description="driver command: argv with {prompt_file} {system_file} {cwd} {model}"
    )
    output: Literal["json", "text"] = "json"
    result_field: str = "result"
    cost_field: str = "total_cost_usd"
    sandbox: bool = Field(True, description="run inside bubblewrap (never off on a shared host)")
    ro_binds: tuple[str, ...] = Field((), description="extra read-only folders the agent needs")
    env_passthrough: tuple[str, ...] = Field(
        (), description="host variables an agent may see (never put secrets here)"
    )
