"""``studybench generate --engine anthropic`` and ``--engine agent`` on the sample split, as a
user runs them: the installed entry point against a scripted Messages endpoint on loopback
(the agent through the real Claude Code CLI in its sandbox)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import yaml

from tests.cli.entry import run
from tests.conftest import ROOT
from tests.engines.fake_anthropic import Reply, fake_anthropic

SPLIT = ROOT / "data" / "sample" / "transfer_problems.json"


def params_for(tmp_path: Path, url: str, kind: str, **agent: object) -> Path:
    settings = yaml.safe_load((ROOT / "params.yaml").read_text())
    settings["engine"].update(
        {"kind": kind, "base_url": url, "api_key_env": "TEST_MESSAGES_KEY", "concurrency": 4}
    )
    settings["agent"].update({"concurrency": 2, **agent})
    settings["paths"] = {
        "work_dir": str(tmp_path / "work"),
        "runs_dir": str(tmp_path / "runs"),
        "cache_dir": str(tmp_path / "cache"),
    }
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(settings))
    return path


def stored_turns(run_dir: Path) -> list[tuple[str, str | None, str | None]]:
    with sqlite3.connect(run_dir / "generations.sqlite") as db:
        return list(db.execute("SELECT status, completion, error FROM turns"))


def parents_and_slots() -> tuple[int, int]:
    """Two parents of the sample and their sub-problem count (a parent without sub-problems
    is one slot), read from the release file itself."""
    parents = json.loads(SPLIT.read_text())[:2]
    return 2, sum(max(len(p["sub_problems"]), 1) for p in parents)


def test_generate_with_the_anthropic_engine(tmp_path: Path) -> None:
    with fake_anthropic(lambda body: Reply(text="\\boxed{1}")) as (url, received):
        params = params_for(tmp_path, url, "anthropic")
        out = tmp_path / "run"
        result = run(
            "generate", "--model", "claude-test", "--engine", "anthropic", "--split",
            SPLIT, "--out", out, "--k", "1", "--seeds", "0", "--end", "2", "--params", params,
            env={"TEST_MESSAGES_KEY": "sk-ant-cli-key"},
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
    _, slots = parents_and_slots()
    turns = stored_turns(out)
    assert len(turns) == slots and all(t[0] == "ok" and t[1] == "\\boxed{1}" for t in turns)
    assert len(received) == slots
    assert all("system" in r.body and r.body["messages"][0]["role"] == "user" for r in received)


def test_generate_with_the_agent_backend(tmp_path: Path) -> None:
    project = tmp_path / "method"
    project.mkdir()
    (project / "CLAUDE.md").write_text("AGENT-PLAYBOOK: box the answer.")
    with fake_anthropic(lambda body: Reply(text="\\boxed{2}")) as (url, received):
        params = params_for(tmp_path, url, "agent", project_dir=str(project))
        out = tmp_path / "run"
        result = run(
            "generate", "--model", "claude-test", "--engine", "agent", "--split", SPLIT,
            "--out", out, "--k", "1", "--seeds", "0", "--end", "1", "--params", params,
            env={"TEST_MESSAGES_KEY": "sk-ant-cli-key"},
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
    turns = stored_turns(out)
    assert turns and all(t[0] == "ok" and t[1] == "\\boxed{2}" for t in turns)
    assert "AGENT-PLAYBOOK" in json.dumps([r.body for r in received])
    ledger = (out / "agent_usage.jsonl").read_text().splitlines()
    assert len(ledger) == len(turns)  # one agent run per sub-problem


def test_the_agent_refuses_chat_conditioning_clearly(tmp_path: Path) -> None:
    gepa = tmp_path / "gepa.txt"
    gepa.write_text("You are an evolved prompt.")
    params = params_for(tmp_path, "http://127.0.0.1:9", "agent")
    result = run(
        "generate", "--model", "m", "--engine", "agent", "--split", SPLIT, "--out",
        tmp_path / "run", "--gepa", gepa, "--params", params,
    )  # fmt: skip
    assert result.returncode != 0
    assert "agent backend does not apply gepa" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unknown_engine_names_the_vocabulary(tmp_path: Path) -> None:
    result = run("generate", "--model", "m", "--engine", "gpt", "--out", tmp_path / "r")
    assert result.returncode == 2
    assert "anthropic" in result.stderr and "agent" in result.stderr


def test_max_cost_stops_new_agent_runs_and_says_so(tmp_path: Path) -> None:
    """The command driver reports 1 USD per run. With --max-cost 1.5 the second run is still
    scheduled (1.0 spent < 1.5), the third is refused (2.0 spent), and generate says why."""
    answer = 'echo \'{"result": "\\\\boxed{3}", "total_cost_usd": 1.0}\''
    params = params_for(
        tmp_path, "http://127.0.0.1:9", "agent", driver="command", command=["sh", "-c", answer]
    )
    out = tmp_path / "run"
    result = run(
        "generate", "--model", "m", "--engine", "agent", "--split", SPLIT, "--out", out,
        "--k", "1", "--seeds", "0", "--end", "1", "--concurrency", "1", "--max-cost", "1.5",
        "--params", params,
    )  # fmt: skip
    turns = stored_turns(out)
    ok = [t for t in turns if t[0] == "ok"]
    assert len(ok) == 2  # 0.0 and 1.0 spent before the first two runs; 2.0 >= 1.5 after
    assert result.returncode != 0
    assert "agent cost limit reached" in result.stdout + result.stderr
