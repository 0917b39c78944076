"""``studybench train ...``: the reference self-evolution recipes, one command per method.

Each training command writes marked checkpoints (ready marker with compute record) under
``training.out_root/<run>``, a watched checkpoints root, so the checkpoint DAG evaluates
every checkpoint as it appears and MLflow's ``lineage/<run>`` run collects score against
compute; ``studybench train plateau`` then reports the Compute Plateau. The prompt methods
(``gepa``, ``ace``) write the artefacts the runner's ``--gepa`` / ``--ace`` options read,
with their LLM budgets beside them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from studybench.cli.common import ParamsOpt, err, out
from studybench.config import RLTrainingSettings, load_settings

train_app = typer.Typer(
    help="Reference self-evolution recipes (GRPO, TTRL, SFT on synthesised data, GEPA, ACE) "
    "and the Compute Plateau.",
    no_args_is_help=True,
)
ModelOpt = Annotated[Path, typer.Option("--model", help="Base model folder (HF layout).")]
RunOpt = Annotated[
    str | None, typer.Option("--run", help="Run name: folder under training.out_root, lineage.")
]
StepsOpt = Annotated[int | None, typer.Option("--steps", help="Override the recipe's steps.")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Output file.")]


def _rl_recipe(section: RLTrainingSettings, run: str, steps: int | None) -> Any:
    from studybench.training.grpo import RLRecipe

    values = section.model_dump()
    if steps is not None:
        values["steps"] = steps
    return RLRecipe(**values, training_run=run)


def _print_checkpoints(folders: list[Path]) -> None:
    for folder in folders:
        marker = json.loads((folder / "studybench-ready.json").read_text())
        compute = marker.get("compute", {})
        out.print(
            f"{folder}  step {marker.get('step')}  gpu_hours {compute.get('gpu_hours')}  "
            f"flops {compute.get('total_flos', 0):.3g}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def _train_rl(method: str, model: Path, run: str | None, steps: int | None, params: Any) -> None:
    """GRPO and TTRL differ only in their items and their reward: one body for both."""
    from studybench.training.from_settings import answered_items, unanswered_items, verifier_for
    from studybench.training.grpo import train_rl
    from studybench.training.rewards import MajorityVoteReward, VerifierReward

    settings = load_settings(params)
    name = run or f"{method}-{model.name}"
    folder = settings.training.out_root / name
    with verifier_for(settings) as verifier:
        if method == "grpo":
            items = answered_items(settings, folder)
            recipe = settings.training.grpo
            reward: Any = VerifierReward(verifier)
        else:
            items = unanswered_items(settings)
            recipe = settings.training.ttrl
            reward = MajorityVoteReward(verifier, min_votes=settings.training.ttrl.min_votes)
        folders = train_rl(model, folder, items, _rl_recipe(recipe, name, steps), reward)
    _print_checkpoints(folders)


@train_app.command("grpo")
def grpo_command(
    model: ModelOpt,
    run: RunOpt = None,
    steps: StepsOpt = None,
    params: ParamsOpt = None,
) -> None:
    """GRPO on Instructions-with-Answer; the rule verifier is the only reward."""
    _train_rl("grpo", model, run, steps, params)


@train_app.command("ttrl")
def ttrl_command(
    model: ModelOpt,
    run: RunOpt = None,
    steps: StepsOpt = None,
    params: ParamsOpt = None,
) -> None:
    """Test-time RL on Instructions-without-Answer: majority-vote pseudo-labels, verified."""
    _train_rl("ttrl", model, run, steps, params)


@train_app.command("synth")
def synth_command(params: ParamsOpt = None) -> None:
    """Synthesise SFT pairs from corpus fragments (resumable, cached; a DVC stage)."""
    from rich.progress import Progress

    from studybench.training.synth import synthesise

    settings = load_settings(params)
    with Progress(console=err, transient=True) as bar:
        task = bar.add_task("synthesising", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = synthesise(settings.training.synth, progress=progress)
    out.print(
        f"{result.pairs} pairs from {result.fragments} fragments ({result.rejected} rejected, "
        f"{result.new_calls} new calls); budget {result.budget.llm_calls} calls, "
        f"{result.budget.tokens} tokens -> {settings.training.synth.out}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


@train_app.command("sft")
def sft_command(
    model: ModelOpt,
    run: RunOpt = None,
    steps: StepsOpt = None,
    pairs: Annotated[
        Path | None, typer.Option(help="Synthesised pairs (default: training.synth.out).")
    ] = None,
    params: ParamsOpt = None,
) -> None:
    """SFT (TRL SFTTrainer) on the synthesised pairs, in the benchmark's prompt format."""
    from studybench.training.sft import SFTRecipe, train_sft
    from studybench.training.synth import read_pairs, sft_chats

    settings = load_settings(params)
    name = run or f"sft-{model.name}"
    chats = sft_chats(
        read_pairs(pairs or settings.training.synth.out),
        settings.protocol.system_prompt,
        settings.protocol.language,
    )
    values = settings.training.sft.model_dump()
    if steps is not None:
        values["steps"] = steps
    folders = train_sft(
        model,
        settings.training.out_root / name,
        chats,
        SFTRecipe(**values, training_run=name, save_initial=True),
    )
    _print_checkpoints(folders)


@train_app.command("gepa")
def gepa_command(out_path: OutOpt = None, params: ParamsOpt = None) -> None:
    """Evolve the system prompt with GEPA; writes the JSONL history `--gepa` reads."""
    from studybench.training.from_settings import answered_items, prompt_chats, verifier_for
    from studybench.training.gepa_prompt import run_gepa

    settings = load_settings(params)
    history = out_path or settings.training.artefacts_dir / "gepa_history.jsonl"
    task, reflector = prompt_chats(settings)
    with verifier_for(settings) as verifier:
        result = run_gepa(
            answered_items(settings, history.parent),
            settings.protocol.system_prompt,
            history,
            task=task,
            reflector=reflector,
            verifier=verifier,
            max_metric_calls=settings.training.prompts.max_metric_calls,
            minibatch_size=settings.training.prompts.minibatch_size,
            seed=settings.training.prompts.seed,
        )
    out.print(result.model_dump_json(indent=1), markup=False, highlight=False, soft_wrap=True)


@train_app.command("ace")
def ace_command(out_path: OutOpt = None, params: ParamsOpt = None) -> None:
    """Build an ACE playbook; writes the text file `--ace` reads."""
    from rich.progress import Progress

    from studybench.training.ace import build_playbook
    from studybench.training.from_settings import answered_items, prompt_chats, verifier_for

    settings = load_settings(params)
    playbook = out_path or settings.training.artefacts_dir / "ace_playbook.txt"

    task, reflector = prompt_chats(settings)
    with verifier_for(settings) as verifier, Progress(console=err, transient=True) as bar:
        step = bar.add_task("ACE", total=None)
        result = build_playbook(
            answered_items(settings, playbook.parent),
            settings.protocol.system_prompt,
            playbook,
            task=task,
            reflector=reflector,
            verifier=verifier,
            epochs=settings.training.prompts.epochs,
            max_bullets=settings.training.prompts.max_bullets,
            progress=lambda done, total: bar.update(step, completed=done, total=total),
        )
    out.print(result.model_dump_json(indent=1), markup=False, highlight=False, soft_wrap=True)


@train_app.command("plateau")
def plateau_command(
    training_run: Annotated[
        str | None, typer.Option(help="Training run whose lineage run holds the curve.")
    ] = None,
    metric: Annotated[
        str, typer.Option(help="Score key on the lineage run (a ..._mean metric).")
    ] = "application/par_at_8_mean",
    compute_key: Annotated[
        str, typer.Option(help="gpu_hours, train_flops or auto (GPU-hours when spent).")
    ] = "auto",
    history: Annotated[
        Path | None,
        typer.Option(help="Instead: a GEPA history (score against rollouts, dev set)."),
    ] = None,
    z: Annotated[float, typer.Option(help="Seed stds an improvement must exceed.")] = 1.0,
    min_delta: Annotated[float, typer.Option(help="Smallest improvement that counts.")] = 0.0,
    params: ParamsOpt = None,
) -> None:
    """The compute at which the score stopped improving beyond seed noise."""
    from studybench.errors import StudyBenchError
    from studybench.metrics.plateau import find_plateau

    if history is not None:
        from studybench.training.gepa_prompt import history_curve

        plateau = find_plateau(history_curve(history), z=z, min_delta=min_delta)
    elif training_run:
        from studybench.tracking.compute_curve import log_plateau

        plateau = log_plateau(
            load_settings(params),
            training_run,
            metric,
            compute_key=compute_key,
            z=z,
            min_delta=min_delta,
        )
    else:
        raise StudyBenchError("give --training-run (an evaluated training run) or --history")
    out.print(plateau.model_dump_json(indent=1), markup=False, highlight=False, soft_wrap=True)
