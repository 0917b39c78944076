"""The command tree: every group answers ``--help``."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from studybench.cli import app
from tests.cli.entry import run


def _listed(output: str) -> list[str]:
    """The first column of the help's boxed tables: command names and option flags."""
    return re.findall(r"^│ (\S+)", output, re.MULTILINE)


def _commands(output: str) -> list[str]:
    """The names in the help's Commands table (none for a command)."""
    table = output.split("─ Commands ", 1)[1].split("╰", 1)[0] if "─ Commands " in output else ""
    return _listed(table)


@pytest.mark.parametrize(
    ("args", "listed"),
    [
        (["--help"], ["data", "corpus", "config", "--help"]),
        (["data", "--help"], ["validate", "import", "--help"]),
        (["data", "validate", "--help"], ["--kind", "--json", "--help"]),
    ],
)
def test_help(args: list[str], listed: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    usage = " ".join(["Usage: studybench", *args[:-1]])
    assert usage in done.stdout.splitlines()[1], done.stdout
    assert set(listed) <= set(_listed(done.stdout)), done.stdout


def _names(app: typer.Typer) -> list[str]:
    groups = [g.name or "" for g in app.registered_groups]
    commands = [c.name or "" for c in app.registered_commands]
    return groups + commands


def test_no_command_or_group_is_registered_twice() -> None:
    """Click keeps the last of two same-named groups silently; the tree must not rely on it."""
    names = _names(app)
    assert sorted(names) == sorted(set(names))
    for group in app.registered_groups:
        assert group.typer_instance is not None
        inner = _names(group.typer_instance)
        assert sorted(inner) == sorted(set(inner)), group.name


def _paths(command: Any, prefix: list[str]) -> list[list[str]]:
    found = [prefix]
    for name, sub in getattr(command, "commands", {}).items():
        found += _paths(sub, [*prefix, name])
    return found


def test_every_group_and_command_answers_help() -> None:
    runner = CliRunner()
    paths = _paths(typer.main.get_command(app), [])
    assert ["train", "sft"] in paths and ["sebench", "package"] in paths
    assert ["guidance", "gap"] in paths and ["task", "check"] in paths
    root = typer.main.get_command(app)
    for path in paths:
        done = runner.invoke(app, [*path, "--help"])
        assert done.exit_code == 0, (path, done.output)
        usage = next(line for line in done.output.splitlines() if "Usage:" in line)
        assert usage.split()[: 2 + len(path)] == ["Usage:", "studybench", *path], usage
        command = root
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        summary = (command.help or "").strip().split("\n\n")[0]
        assert summary, (path, "every command and group says what it does")
        assert " ".join(summary.split()) in " ".join(done.output.split()), (path, summary)
        sub = sorted(getattr(command, "commands", {}))
        assert sorted(_commands(done.output)) == sub, path


def test_python_m_runs_the_same_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "studybench.cli", "config", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Usage: " in done.stdout and " config [OPTIONS] COMMAND" in done.stdout
    assert "Show the effective settings." in done.stdout
    assert _commands(done.stdout) == ["show"]


def test_only_tracking_imports_mlflow() -> None:
    """The CLI reaches MLflow through studybench.tracking only (the import is lazy there)."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "studybench"
    offenders = []
    for path in package.rglob("*.py"):
        if path.relative_to(package).parts[0] == "tracking":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(name.split(".")[0] == "mlflow" for name in names):
                offenders.append(str(path.relative_to(package)))
    assert offenders == []
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, studybench.cli; print('mlflow' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert loaded.stdout.strip() == "False", loaded.stderr
