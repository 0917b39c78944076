"""The paper's tables and figures, built from evaluation records (``studybench report paper``).

Pure builders: :mod:`.records` (what tracking reads out of MLflow), :mod:`.table` (rows,
honest cells, comparison footnotes, the Guidance Gap table), :mod:`.render` (Markdown,
LaTeX, HTML), :mod:`.figures` (learning curves and the Compute Plateau). Only
:mod:`.compose` reaches MLflow, through :mod:`studybench.tracking.paper`.
"""
