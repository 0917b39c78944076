"""The Compute Plateau detector on constructed curves."""

from __future__ import annotations

import pytest

from studybench.metrics.plateau import CurvePoint, find_plateau


def curve(*points: tuple[float, float, float]) -> list[CurvePoint]:
    return [CurvePoint(compute=c, mean=m, std=s, step=i) for i, (c, m, s) in enumerate(points)]


@pytest.mark.parametrize(
    ("points", "expected_compute", "plateaued"),
    [
        # rises, then only noise-sized gains: plateau at compute 2
        (
            curve((0, 0.1, 0.02), (1, 0.3, 0.02), (2, 0.5, 0.02), (3, 0.52, 0.02), (4, 0.51, 0.02)),
            2,
            True,
        ),
        # a late real gain moves the plateau
        (curve((0, 0.1, 0.01), (1, 0.2, 0.01), (2, 0.21, 0.01), (3, 0.4, 0.01)), 3, False),
        # noisy seeds: a 0.05 gain inside 1 combined std (0.071) is not an improvement
        (curve((0, 0.30, 0.05), (5, 0.35, 0.05), (10, 0.34, 0.05)), 0, True),
        # a drop never counts as the plateau point
        (curve((0, 0.4, 0.0), (1, 0.6, 0.0), (2, 0.2, 0.0)), 1, True),
        # single seed (std 0): any gain counts
        (curve((0, 0.1, 0.0), (1, 0.11, 0.0)), 1, False),
    ],
)
def test_plateau_is_the_last_improvement_beyond_noise(
    points: list[CurvePoint], expected_compute: float, plateaued: bool
) -> None:
    plateau = find_plateau(points)
    assert plateau.plateau_compute == expected_compute
    assert plateau.plateaued is plateaued
    assert plateau.wasted_compute == plateau.final_compute - expected_compute


def test_points_in_any_order_and_min_delta() -> None:
    points = curve((4, 0.5, 0.0), (0, 0.1, 0.0), (2, 0.45, 0.0), (1, 0.3, 0.0))
    assert find_plateau(points).plateau_compute == 4
    assert find_plateau(points, min_delta=0.1).plateau_compute == 2  # 0.05 gain is too small
    share = find_plateau(points, min_delta=0.1).budget_share
    assert share == pytest.approx(0.5)


def test_an_empty_curve_is_an_error() -> None:
    with pytest.raises(ValueError, match="no points"):
        find_plateau([])
