"""``studybench demo-model ...``: the tiny offline model for tests and the demo."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from studybench.cli.common import say

demo_model_app = typer.Typer(help="The tiny offline model for tests and the demo.")


@demo_model_app.command("build")
def demo_model_build(
    out_dir: Annotated[Path, typer.Argument(help="Folder to write the model to.")],
    seed: Annotated[int, typer.Option(help="Weight initialisation seed.")] = 0,
    sample: Annotated[Path, typer.Option(help="Sample data to train the tokenizer on.")] = Path(
        "data/sample"
    ),
) -> None:
    """Build a tiny Qwen3-architecture chat model offline (about 10 s)."""
    from studybench.engines.demo_model import build_demo_model

    build_demo_model(out_dir, sample, seed=seed)
    say(f"tiny model written to {out_dir}")
