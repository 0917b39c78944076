"""The report's figures: learning curves (score against training step) and the Compute
Plateau (score against training compute, the plateau marked), each with its confidence band
(the run's 95% CI clustered by parent; ± seed std where a run logged no CI).

Written as PNG (embedded in the HTML page) and SVG (for the paper). SVG output is made
reproducible: a fixed ``svg.hashsalt`` (element ids) and no date in the metadata, so the
same store draws the same bytes. Figures are drawn on ``matplotlib.figure.Figure`` objects,
not pyplot, so no global state is shared with other plots of the process.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from studybench.paper.records import Curve

HASH_SALT = "studybench-paper"


def _render(figure: object) -> tuple[bytes, bytes]:
    import matplotlib

    png, svg = io.BytesIO(), io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": HASH_SALT, "svg.fonttype": "path"}):
        figure.savefig(png, format="png", dpi=110, metadata={"Software": None})  # type: ignore[attr-defined]
        figure.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})  # type: ignore[attr-defined]
    return png.getvalue(), svg.getvalue()


def _label(curve: Curve) -> str:
    split, _, metric = curve.metric.partition("/")
    name = metric.replace("_at_", "@").replace("par", "Par").replace("sub", "Sub")
    return f"{curve.training_run}: {split} {name}"


def _splits(curves: Sequence[Curve]) -> list[str]:
    return sorted({c.metric.partition("/")[0] for c in curves})


def learning_curves(curves: Sequence[Curve]) -> tuple[bytes, bytes]:
    """One panel per split: every training run's Par@k and Sub@k against step."""
    from matplotlib.figure import Figure

    splits = _splits(curves) or [""]
    figure = Figure(figsize=(5.2 * len(splits), 3.4), layout="constrained")
    axes = figure.subplots(1, len(splits), squeeze=False)[0]
    for ax, split in zip(axes, splits, strict=True):
        drawn = [c for c in curves if c.metric.partition("/")[0] == split and c.points]
        for curve in drawn:
            steps = [p.step for p in curve.points]
            line = ax.plot(
                steps, [100 * p.mean for p in curve.points], marker="o", label=_label(curve)
            )
            ax.fill_between(
                steps,
                [100 * p.low for p in curve.points],
                [100 * p.high for p in curve.points],
                alpha=0.2,
                color=line[0].get_color(),
                linewidth=0,
            )
        if not drawn:
            ax.text(
                0.5, 0.5, "no checkpoint of a training run", ha="center", transform=ax.transAxes
            )
        bands = sorted({p.band for c in drawn for p in c.points})
        ax.set_title(
            f"{split or 'learning curves'}" + (f" (band: {', '.join(bands)})" if bands else ""),
            fontsize=9,
        )
        ax.set_xlabel("training step")
        ax.set_ylabel("score (%)")
        ax.set_ylim(-2, 102)
        if drawn:
            ax.legend(fontsize=7)
    return _render(figure)


def compute_plateau(curves: Sequence[Curve]) -> tuple[bytes, bytes]:
    """Score against cumulative training compute, one panel per split, with the plateau (the
    last point that beat every earlier one beyond seed noise) as a dashed line."""
    from matplotlib.figure import Figure

    splits = _splits(curves) or [""]
    figure = Figure(figsize=(5.2 * len(splits), 3.4), layout="constrained")
    axes = figure.subplots(1, len(splits), squeeze=False)[0]
    for ax, split in zip(axes, splits, strict=True):
        drawn = [
            c for c in curves
            if c.metric.partition("/")[0] == split and c.metric.split("/")[-1].startswith("par")
            and c.points and all(p.compute is not None for p in c.points)
        ]  # fmt: skip
        keys = sorted({c.compute_key for c in drawn})
        for curve in drawn:
            xs = [float(p.compute) for p in curve.points]  # type: ignore[arg-type]
            line = ax.plot(
                xs, [100 * p.mean for p in curve.points], marker="o", label=_label(curve)
            )
            ax.fill_between(
                xs,
                [100 * p.low for p in curve.points],
                [100 * p.high for p in curve.points],
                alpha=0.2,
                color=line[0].get_color(),
                linewidth=0,
            )
            if curve.plateau_compute is not None:
                ax.axvline(
                    curve.plateau_compute, linestyle="--", color=line[0].get_color(), linewidth=1
                )
        if not drawn:
            notes = sorted({c.note for c in curves if c.metric.startswith(split) and c.note})
            ax.text(
                0.5, 0.5, "\n".join(notes) or "no compute recorded", ha="center", va="center",
                transform=ax.transAxes, fontsize=7, wrap=True,
            )  # fmt: skip
        ax.set_title(
            f"{split or 'compute plateau'}: score against compute (dashed: plateau)", fontsize=9
        )
        ax.set_xlabel(" / ".join(keys) or "training compute")
        ax.set_ylabel("Par@k (%)")
        ax.set_ylim(-2, 102)
        if drawn:
            ax.legend(fontsize=7)
    return _render(figure)
