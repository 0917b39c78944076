"""What every command group of the ``studybench`` CLI shares: the two consoles, the print
helpers and the options that mean the same thing in every command.

Results go to stdout (``out``) so the commands compose in pipelines; progress and notes go
to stderr (``err``). ``say`` prints a plain line on stdout and ``note`` on stderr, never
interpreting rich markup, because the text often holds file names and model output.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

if TYPE_CHECKING:
    from studybench.config import MethodArtefactSpec

out = Console()
err = Console(stderr=True)

ParamsOpt = Annotated[
    Path | None,
    typer.Option("--params", help="Settings file (default: $STUDYBENCH_PARAMS or params.yaml)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]


def say(text: str) -> None:
    """One plain line on stdout (a result)."""
    out.print(text, markup=False, highlight=False, soft_wrap=True)


def note(text: str) -> None:
    """One plain line on stderr (progress, a warning, what was written where)."""
    err.print(text, markup=False, highlight=False, soft_wrap=True)


def group(help_text: str, *, no_args_is_help: bool = True) -> typer.Typer:
    """A command group with the house settings."""
    return typer.Typer(help=help_text, no_args_is_help=no_args_is_help)


def parse_seeds(text: str | None, default: tuple[int, ...]) -> tuple[int, ...]:
    """``--seeds 0,1,2`` as a tuple; the protocol's seeds when not given."""
    if text is None:
        return default
    try:
        seeds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise typer.BadParameter(
            f"seeds must be integers separated by commas, got {text!r}"
        ) from None
    if not seeds:
        raise typer.BadParameter("give at least one seed")
    return seeds


GuidanceOpt = Annotated[Path | None, typer.Option(help="Guidance JSON to inject.")]
AceOpt = Annotated[Path | None, typer.Option(help="ACE playbook.")]
GepaOpt = Annotated[Path | None, typer.Option(help="GEPA prompt history (JSONL) or text.")]
GepaIterationOpt = Annotated[int | None, typer.Option(help="GEPA row: iteration <= N.")]
GepaRolloutsOpt = Annotated[int | None, typer.Option(help="GEPA row: rollouts <= N.")]
EvoskillOpt = Annotated[Path | None, typer.Option(help="EvoSkill skills file.")]


def artefact_spec(
    guidance: Path | None = None,
    ace: Path | None = None,
    gepa: Path | None = None,
    gepa_iteration: int | None = None,
    gepa_rollouts: int | None = None,
    evoskill: Path | None = None,
) -> MethodArtefactSpec:
    """The method artefacts the options above name (``generate`` and ``eval`` share them),
    as the composition takes them; files are checked when the target is planned."""
    from studybench.config import MethodArtefactSpec

    return MethodArtefactSpec(
        guidance=str(guidance or ""),
        ace=str(ace or ""),
        gepa=str(gepa or ""),
        gepa_iteration=gepa_iteration,
        gepa_rollouts=gepa_rollouts,
        evoskill=str(evoskill or ""),
    )
