"""``studybench config ...``: the effective settings."""

from __future__ import annotations

import json

import typer
import yaml

from studybench.cli.common import JsonOpt, ParamsOpt, out
from studybench.config import load_settings

config_app = typer.Typer(help="Show the effective settings.", no_args_is_help=True)


@config_app.command("show")
def config_show(params: ParamsOpt = None, as_json: JsonOpt = False) -> None:
    """Print the effective settings (params.yaml plus STUDYBENCH__* overrides)."""
    from studybench.benchmarks.studybench.protocol import protocol_hash

    settings = load_settings(params)
    dumped = settings.model_dump(mode="json")
    keyed = protocol_hash(settings)  # the hash stored StudyBench results are keyed by
    if as_json:
        out.print_json(json.dumps({**dumped, "protocol_hash": keyed}))
        return
    out.print(yaml.safe_dump(dumped, sort_keys=False), end="", markup=False, highlight=False)
    out.print(f"# protocol hash: {keyed}", markup=False)
