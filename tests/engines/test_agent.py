"""The agent backend: flattening, seeding, drivers, tries, confinement and cost.

The Claude Code runs go through the REAL CLI (the one bundled with claude-agent-sdk) inside
bubblewrap, talking to a scripted Messages endpoint on loopback (``ANTHROPIC_BASE_URL``),
so what is checked is what the agent actually sees and sends: the seeded project files, the
flattened query, its final message, and (through its own Bash tool) its environment, its
processes and its filesystem.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from studybench.config import AgentSettings
from studybench.engines.agent import (
    LEDGER,
    PREVIOUS_ANSWER,
    AgentEngine,
    flatten,
    refuse_conditioning,
    seed_workdir,
)
from studybench.engines.agent_sandbox import forwarded_env
from studybench.engines.base import Completion, EngineError, Message, SamplingParams
from studybench.errors import ConfigError
from tests.engines.fake_anthropic import Reply, fake_anthropic, run_folder, tool_results

HOST_SECRET = "sk-host-judge-" + "Z" * 32
PROJECT_ROOT = Path(__file__).resolve().parents[2]

CONVERSATION = [
    Message(role="system", content="Solve physics problems."),
    Message(role="user", content="Stem. Part (a): find v."),
    Message(role="assistant", content="v = \\boxed{3 m/s}"),
    Message(role="user", content="Part (b): find a."),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A method's project folder: a playbook, settings, a skill, and a file not to ship."""
    root = tmp_path / "method"
    (root / ".claude").mkdir(parents=True)
    (root / ".claude" / "settings.json").write_text("{}")
    (root / "CLAUDE.md").write_text("PLAYBOOK-MARKER: always box the final answer.")
    (root / "skills" / "units").mkdir(parents=True)
    (root / "skills" / "units" / "SKILL.md").write_text("convert units first")
    (root / "notes-not-shipped.txt").write_text("private")
    return root


@pytest.fixture
def host_secret(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("STUDYBENCH_JUDGE_API_KEY", HOST_SECRET)
    monkeypatch.setenv("CLAUDE_CODE_OAUTH_TOKEN", HOST_SECRET)
    return HOST_SECRET


def complete(engine: AgentEngine, messages: list[Message] = CONVERSATION) -> list[Completion]:
    return asyncio.run(engine.complete(messages, SamplingParams()))


# -- pure parts ---------------------------------------------------------------------------
FLATTEN_CASES = [
    (
        [Message(role="user", content="Q")],
        ("", "Q"),
    ),
    (
        CONVERSATION,
        (
            "Solve physics problems.",
            f"Stem. Part (a): find v.\n\n{PREVIOUS_ANSWER}\nv = \\boxed{{3 m/s}}\n\n"
            "Part (b): find a.",
        ),
    ),
    (
        [
            Message(role="user", content="a"),
            Message(role="assistant", content="1"),
            Message(role="user", content="b"),
            Message(role="assistant", content="2"),
            Message(role="user", content="c"),
        ],
        ("", f"a\n\n{PREVIOUS_ANSWER}\n1\n\nb\n\n{PREVIOUS_ANSWER}\n2\n\nc"),
    ),
]


@pytest.mark.parametrize(("messages", "expected"), FLATTEN_CASES)
def test_flatten_marks_earlier_answers(messages: list[Message], expected: tuple[str, str]) -> None:
    assert flatten(messages) == expected


def test_flatten_needs_a_final_user_turn() -> None:
    with pytest.raises(EngineError):
        flatten([Message(role="user", content="q"), Message(role="assistant", content="a")])


@pytest.mark.parametrize("methods", [["gepa"], ["ACE"], ["evoskill"], ["guidance", "gepa"]])
def test_conditioning_methods_are_refused_on_the_agent(methods: list[str]) -> None:
    with pytest.raises(ConfigError, match="agent backend does not apply"):
        refuse_conditioning(methods)


def test_guidance_is_allowed_on_the_agent() -> None:
    assert refuse_conditioning(["guidance"]) is None
    assert refuse_conditioning([]) is None


def test_seeding_copies_only_the_method_files(project: Path, tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    dest.mkdir()
    shipped = seed_workdir(str(project), AgentSettings().seed_files, dest)
    assert shipped == [".claude", "CLAUDE.md", "skills"]  # no .mcp.json in this method
    assert (dest / "skills" / "units" / "SKILL.md").read_text() == "convert units first"
    assert not (dest / "notes-not-shipped.txt").exists()
    with pytest.raises(ConfigError, match="not a folder"):
        seed_workdir(str(tmp_path / "missing"), ("CLAUDE.md",), dest)


def test_forwarded_env_keeps_credentials_out() -> None:
    host = {
        "ANTHROPIC_API_KEY": "agent-key",
        "STUDYBENCH_JUDGE_API_KEY": HOST_SECRET,
        "CLAUDE_CODE_ENTRYPOINT": "sdk-py",
        "CLAUDE_CODE_OAUTH_TOKEN": HOST_SECRET,
        "AWS_SECRET_ACCESS_KEY": HOST_SECRET,
        "PATH": "/host/bin",
    }
    assert forwarded_env(host, ["ANTHROPIC_API_KEY"]) == {
        "ANTHROPIC_API_KEY": "agent-key",
        "CLAUDE_CODE_ENTRYPOINT": "sdk-py",
    }


# -- the real Claude Code CLI ---------------------------------------------------------------
def test_claude_code_run_sees_the_seeded_method_and_the_flattened_query(
    project: Path, tmp_path: Path
) -> None:
    with fake_anthropic(lambda body: Reply(text="a = \\boxed{9.8 m/s^2}")) as (url, received):
        engine = AgentEngine(
            AgentSettings(project_dir=str(project)),
            model="claude-test",
            base_url=url,
            api_key="sk-ant-agent-0000",
            run_dir=tmp_path / "run",
        )
        out = complete(engine)
    assert out[0].text == "a = \\boxed{9.8 m/s^2}"
    assert out[0].finish_reason == "stop"
    sent = json.dumps([r.body for r in received])
    assert "PLAYBOOK-MARKER" in sent  # CLAUDE.md of the seeded folder reached the model
    assert "Solve physics problems." in sent  # the system prompt, appended
    query = f"Stem. Part (a): find v.\\n\\n{PREVIOUS_ANSWER}\\nv = \\\\boxed{{3 m/s}}"
    assert query in sent
    assert received[0].headers.get("x-api-key") == "sk-ant-agent-0000"
    ledger = [json.loads(line) for line in (tmp_path / "run" / LEDGER).read_text().splitlines()]
    assert len(ledger) == 1 and ledger[0]["ok"] and ledger[0]["cost_usd"] > 0
    assert ledger[0]["seeded"] == [".claude", "CLAUDE.md", "skills"]
    summary = engine.usage_summary()
    assert summary["agent_runs"] == 1 and summary["agent_input_tokens"] == 11


def test_a_failed_run_is_tried_again(project: Path, tmp_path: Path) -> None:
    runs: list[str] = []

    def script(body: dict) -> Reply:  # type: ignore[type-arg]
        run = run_folder(body)
        if run not in runs:
            runs.append(run)
        if run == runs[0]:  # every request of the first run is refused
            return Reply(400, "simulated invalid request")
        return Reply(text="\\boxed{1}")

    with fake_anthropic(script) as (url, _):
        engine = AgentEngine(
            AgentSettings(project_dir=str(project)),
            model="claude-test",
            base_url=url,
            api_key="k",
            run_dir=tmp_path,
        )
        out = complete(engine)
    assert out[0].text == "\\boxed{1}"
    ledger = [json.loads(line) for line in (tmp_path / LEDGER).read_text().splitlines()]
    assert [row["ok"] for row in ledger] == [False, True] and engine.retries == 1


def test_two_failed_tries_fail_the_turn(tmp_path: Path) -> None:
    with fake_anthropic(lambda body: Reply(400, "simulated invalid request")) as (url, _):
        engine = AgentEngine(
            AgentSettings(), model="claude-test", base_url=url, api_key="k", run_dir=tmp_path
        )
        with pytest.raises(EngineError, match="after 2 tries"):
            complete(engine)


def test_the_agent_sees_no_host_secret_file_or_process(
    project: Path, tmp_path: Path, host_secret: str
) -> None:
    probe = (
        "echo UID=$(id -u); env; echo ---; cat /proc/1/environ | tr '\\0' '\\n'; echo ---; "
        f"ls /proc | grep -c '^[0-9]'; ls -a / /root {PROJECT_ROOT} /home /run 2>&1; "
        "cat /etc/shadow 2>&1 | head -1"
    )
    seen: list[str] = []

    def script(body: dict) -> Reply:  # type: ignore[type-arg]
        results = tool_results(body)
        if results:
            seen.extend(results)
            return Reply(text="\\boxed{done}")
        return Reply(tool_use={"name": "Bash", "input": {"command": probe}})

    with fake_anthropic(script) as (url, _):
        engine = AgentEngine(
            AgentSettings(project_dir=str(project)),
            model="claude-test",
            base_url=url,
            api_key="sk-ant-agent-0000",
            run_dir=tmp_path,
        )
        out = complete(engine)
    assert out[0].text == "\\boxed{done}"
    output = "\n".join(seen)
    assert "UID=1000" in output  # not root, even though the host runs as root
    assert host_secret not in output
    assert "STUDYBENCH_JUDGE_API_KEY" not in output
    assert "CLAUDE_CODE_OAUTH_TOKEN" not in output
    for absent in (PROJECT_ROOT, "/root", "/run", "/home"):
        assert f"cannot access '{absent}': No such file or directory" in output
    assert "pyproject.toml" not in output
    # A single-digit count of processes: the agent's own PID namespace, not the host's.
    counts = [line for line in output.splitlines() if line.strip().isdigit()]
    assert counts and int(counts[0]) < 20


# -- the pluggable command driver ------------------------------------------------------------
def command_settings(**extra: object) -> AgentSettings:
    return AgentSettings(driver="command", **extra)  # type: ignore[arg-type]


def test_any_agent_cli_by_configuration(tmp_path: Path, host_secret: str) -> None:
    script = (
        'printf \'{"result": "%s \\\\\\\\boxed{7}", "total_cost_usd": 0.25, '
        '"usage": {"input_tokens": 3, "output_tokens": 2}}\' "$(wc -c < "$1")"'
    )
    settings = command_settings(command=("sh", "-c", script, "agent", "{prompt_file}"))
    engine = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    out = complete(engine)
    query_chars = len(flatten(CONVERSATION)[1].encode())
    assert out[0].text == f"{query_chars} \\boxed{{7}}"
    assert (out[0].prompt_tokens, out[0].completion_tokens) == (3, 2)
    assert engine.usage_summary()["agent_cost_usd"] == 0.25


def test_command_driver_is_confined_too(tmp_path: Path, host_secret: str) -> None:
    settings = command_settings(
        command=("sh", "-c", "env; id -u; ls / ; ls /root 2>&1; true"), output="text"
    )
    engine = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    text = complete(engine)[0].text
    assert host_secret not in text and "STUDYBENCH_JUDGE_API_KEY" not in text
    assert "\n1000\n" in f"\n{text}\n"
    assert "No such file or directory" in text


def test_cost_limit_stops_new_runs_and_survives_a_resume(tmp_path: Path) -> None:
    script = 'echo \'{"result": "\\\\boxed{1}", "total_cost_usd": 0.5}\''
    settings = command_settings(command=("sh", "-c", script), max_cost_usd=0.8)
    engine = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    complete(engine)
    complete(engine)  # 0.5 spent < 0.8: still scheduled
    with pytest.raises(EngineError, match="cost limit reached"):
        complete(engine)
    resumed = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    with pytest.raises(EngineError, match=r"\$1\.0000 spent"):
        complete(resumed)
    assert resumed.usage_summary()["agent_runs"] == 2


def test_a_command_that_prints_no_answer_fails_after_its_tries(tmp_path: Path) -> None:
    settings = command_settings(command=("sh", "-c", "echo not-json"))
    engine = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    with pytest.raises(EngineError, match="printed no JSON"):
        complete(engine)
    assert engine.usage_summary()["agent_failed_runs"] == 2


def test_unknown_placeholder_is_a_config_error(tmp_path: Path) -> None:
    settings = command_settings(command=("sh", "{nope}"))
    engine = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    with pytest.raises(ConfigError, match="unknown placeholder"):
        complete(engine)


def test_run_folders_are_removed(tmp_path: Path) -> None:
    settings = command_settings(command=("sh", "-c", "pwd"), output="text")
    engine = AgentEngine(settings, model="m", base_url=None, api_key=None, run_dir=tmp_path)
    workdir = Path(complete(engine)[0].text.strip())
    assert workdir.name == "work" and not workdir.parent.exists()
    assert os.environ.get("STUDYBENCH_SANDBOX_FORWARD") is None


def test_the_factory_opens_the_agent_engine_from_settings(tmp_path: Path) -> None:
    from studybench.config import Settings
    from studybench.engines.factory import open_engine

    settings = Settings.model_validate(
        {
            "engine": {"kind": "agent"},
            "agent": {"driver": "command", "command": ["sh", "-c", "echo x"], "output": "text"},
        }
    )
    with open_engine("agent", "claude-x", settings, tmp_path) as engine:
        assert isinstance(engine, AgentEngine)
        assert complete(engine)[0].text == "x"
    assert (tmp_path / LEDGER).is_file()  # the ledger lives in the run folder
