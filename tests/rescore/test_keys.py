"""The two layers of the evaluation key: the generation key ignores the instrument (the run
folder and the stored generations are found again), the evaluation key changes with each
of its fields."""

from __future__ import annotations

from studybench.pipeline.keys import evaluation_key, generation_key, judged_key
from studybench.tracking.rescore import Instrument

BASE = Instrument(verifier_version="1.3.0", judge_version="1.0.0", judge_model="")
DATA = {"data.application_problems.json": "sha256:0123"}


def test_the_instrument_changes_the_evaluation_key_only() -> None:
    generation = generation_key("subject", {}, DATA, "night-1")
    keys = {
        judged_key(generation, BASE.model_copy(update=change))
        for change in (
            {},
            {"verifier_version": "1.4.0"},
            {"judge_version": "1.1.0"},
            {"judge_model": "judge"},
        )
    }
    assert len(keys) == 4 and generation not in keys
    assert evaluation_key("subject", {}, DATA, "night-1", instrument=BASE) == judged_key(
        generation, BASE
    )
    assert generation_key("subject", {}, DATA, "night-2") != generation
    assert generation_key("subject", {}, DATA, "night-1") == generation
