"""The whole build on the sample pools with a scripted filter model whose plan reaches every
branch: solved textbook parents stay in training, failed ones are capped per subject, a
subject that would empty takes its 1-of-8 parent, solved competition parents are discarded,
failed ones are admitted, dropped unsolved or dropped for lack of guidance. The splits
validate with `studybench data validate`, the corpus audit passes, the report logs to MLflow,
and a second run asks the model nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studybench.build import stages
from studybench.build.funnel import build_funnel, funnel_png, funnel_tables
from studybench.build.pools import parent_id
from studybench.data.loaders import load_parents
from tests.build.conftest import build_settings, scripted_model
from tests.conftest import SAMPLE

TEXTBOOK = load_parents(SAMPLE / "application_problems.json")
COMPETITION = load_parents(SAMPLE / "transfer_problems.json")


def ids(problem_type: str) -> list[str]:
    return [parent_id(p) for p in TEXTBOOK if p.problem_type == problem_type]


def test_every_branch_of_the_build(tmp_path: Path) -> None:
    mechanics, em = ids("Classical Mechanics"), ids("Electromagnetism")
    thermo, optics, astro = ids("Thermodynamics"), ids("Optics"), ids("Astrophysics")
    assert (len(mechanics), len(em), len(thermo), len(optics), len(astro)) == (8, 4, 2, 2, 1)
    competition = [parent_id(p) for p in COMPETITION]
    plan = {
        mechanics[0]: "always", mechanics[1]: "always",  # solved -> training
        optics[0]: "always",
        thermo[0]: "once",  # solved once, subject has a 0-of-8 parent: training
        astro[0]: "once",  # the subject would empty: admitted by the 1-of-8 rule
        competition[0]: "always", competition[1]: "always",  # solved: discarded
    }  # fmt: skip
    admit_plan = {c: "always" for c in competition[2:5]}
    # one failed competition parent has no guidance: dropped for that reason
    guidance = [p for p in load_parents(SAMPLE / "guidance.json") if parent_id(p) != competition[9]]
    guidance_file = tmp_path / "guidance.json"
    guidance_file.write_text(
        json.dumps({"data": [p.model_dump(mode="json", by_alias=True) for p in guidance]})
    )
    k, seeds = 8, (0,)
    with (
        scripted_model([*TEXTBOOK, *COMPETITION], plan, k, seeds) as (filter_url, asked),
        scripted_model(COMPETITION, admit_plan, 2, seeds) as (admit_url, admit_asked),
    ):
        settings = build_settings(
            tmp_path,
            filter={"engine": "openai", "model": "filter", "base_url": filter_url, "k": k},
            admit={"engine": "openai", "model": "admitter", "base_url": admit_url, "k": 2},
            guidance=guidance_file,
            per_type_cap=3,
            seed=11,
        )
        stages.step_pools(settings)
        textbook = stages.step_filter(settings, "textbook")
        competition_result = stages.step_filter(settings, "competition")
        selection = stages.step_application(settings)
        admission = stages.step_transfer(settings)
        training = stages.step_training(settings)
        calls = (len(asked), len(admit_asked))
        # a second run with the same inputs and model asks nothing
        stages.step_filter(settings, "textbook")
        stages.step_filter(settings, "competition")
        stages.step_transfer(settings)
        assert (len(asked), len(admit_asked)) == calls

    assert calls[0] == 8 * (31 + 40)  # every slot of both pools, k=8
    solved = {o.parent: o.solved_attempts for o in textbook.outcomes}
    assert solved[mechanics[0]] == 8 and solved[thermo[0]] == 1 and solved[astro[0]] == 1
    assert sum(1 for o in textbook.outcomes if o.failed) == 12
    assert sum(1 for o in competition_result.outcomes if o.failed) == 8

    # Application: cap 3 per subject, the 1-of-8 rule only where the subject would empty
    mix = {line.problem_type: line.selected for line in selection.subjects}
    assert mix == {
        "Classical Mechanics": 3, "Electromagnetism": 3, "Thermodynamics": 1, "Optics": 1,
        "Astrophysics": 1,
    }  # fmt: skip
    assert selection.one_of_k == astro
    assert thermo[0] in selection.solved and thermo[1] in selection.selected
    assert len(selection.returned) == 4 and len(selection.solved) == 4
    assert set(selection.selected) | set(selection.returned) | set(selection.solved) == set(
        parent_id(p) for p in TEXTBOOK
    )
    application = load_parents(settings.build.out_dir / "application.json")
    assert [parent_id(p) for p in application] == selection.selected

    # Transfer: admitted / dropped unsolved / dropped without guidance
    assert admission.admitted == competition[2:5]
    assert admission.dropped_no_guidance == [competition[9]]
    assert admission.dropped_unsolved == competition[5:9]
    transfer = load_parents(settings.build.out_dir / "transfer.json")
    assert [parent_id(p) for p in transfer] == competition[2:5]

    # training material: the corpus audited clean, layers without the Application parents
    assert training.audit_hits == 0 and training.redacted_spans > 0
    out = settings.build.out_dir / "training"
    single = json.loads((out / "verifiable_instr.json").read_text())
    multi = json.loads((out / "verifiable_instr_multi_subs.json").read_text())
    in_training = {
        (r["metadata"]["source"], r["metadata"]["source_problem_id"]) for r in single + multi
    }
    assert len(in_training) == 8 and not in_training & {
        (p.source, p.source_problem_id) for p in application
    }
    assert training.instructions_without_answer == 5

    bin_dir = Path(sys.executable).parent
    validate = subprocess.run(
        [str(bin_dir / "studybench"), "data", "validate",
         str(settings.build.out_dir / "application.json"),
         str(settings.build.out_dir / "transfer.json"),
         str(out / "verifiable_instr.json"), str(out / "verifiable_instr_multi_subs.json"),
         str(out / "unverifiable_instr.json")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert validate.returncode == 0, validate.stdout + validate.stderr
    audit = subprocess.run(
        [str(bin_dir / "studybench"), "corpus", "audit",
         "--eval", str(settings.build.out_dir / "application.json"),
         "--books", str(out / "corpus")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert audit.returncode == 0, audit.stdout + audit.stderr

    # the report: funnel per sub-discipline and source, PNG, MLflow with the model's identity
    funnel = build_funnel(settings)
    assert funnel.totals == {
        "textbook": {"pool": 17, "failed": 12, "kept": 9, "final": 9},
        "competition": {"pool": 10, "failed": 8, "kept": 3, "final": 3},
    }
    astro_row = next(r for r in funnel.rows if r.by == "problem_type" and r.group == "Astrophysics")
    assert (astro_row.pool_count, astro_row.failed, astro_row.kept) == (1, 0, 1)
    by_source = {r.group: r.final for r in funnel.rows if r.by == "source" and r.pool == "textbook"}
    assert sum(by_source.values()) == 9 and set(by_source) == {p.source for p in TEXTBOOK}
    assert len(funnel_tables(funnel)) == 5
    png = funnel_png(funnel, tmp_path / "funnel.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    from mlflow.tracking import MlflowClient

    from studybench.tracking.build_log import log_build
    from studybench.tracking.mlflow_log import tracking_uri

    run_id = log_build(settings, funnel, [png])
    assert log_build(settings, funnel, [png]) == run_id  # the same build is one run
    run = MlflowClient(tracking_uri(settings)).get_run(run_id)
    assert run.data.params["filter_model"] == "filter"
    assert run.data.params["filter_k"] == "8"
    assert run.data.metrics["build/textbook/final"] == 9.0
