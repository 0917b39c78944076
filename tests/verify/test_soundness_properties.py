"""Soundness as properties over every gold the project holds (issue 32).

* **Self-consistency**: ``judge_inline(gold, gold)`` is correct for every gold under
  ``data/sample`` and ``tests/`` (see :mod:`tests.verify.perturbations`), and every accepted
  form in the case tables accepts itself as a gold.
* **Perturbations are rejected**: a flipped sign, a factor (x1.5, x2, +1) or a raised
  exponent in the whole answer, in each chain side, in each tuple element and in each
  alternative, a term or factor in a symbol the gold lacks, each also appended to the gold's
  own box as a new last side, and a changed number in a text answer, are all wrong, and the
  reason names the place that differs (``element_1:...``, ``chain_link_2:...``); so are a
  number's unit swapped for another of its dimension, a value-changing remark appended, the
  relation negated, and for IN golds a bound, a bracket or the bounded quantity changed.
  Provably equivalent
  perturbations are listed with their proof in ``perturbation_equivalent.json``.

In-process (``judge_inline``) so that mutation testing sees which code decided; about 5 s.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from studybench.data.boxes import scan_boxes
from studybench.verify import judge_inline
from tests.verify.perturbations import (
    Gold,
    another_alternative,
    collect_golds,
    equivalent_table,
    expected_location,
    perturbations,
)

GOLDS = collect_golds()
EQUIVALENT = equivalent_table()
CASES = Path(__file__).with_name("cases")


def _id(gold: Gold) -> str:
    return f"{gold.answer_type}:{gold.gold[:40]}"


def test_the_golds_cover_every_source_and_type() -> None:
    """The collection is not silently empty: the sample release and the tables are read."""
    sources = {g.source.split("/")[0] + "/" + g.source.split("/")[1] for g in GOLDS}
    assert {"data/sample", "tests/verify"} <= sources, sources
    types = {g.answer_type for g in GOLDS}
    assert {"NV", "EX", "EQ", "IN", "TUP", "ALT", "MC", "TF", "QL"} <= types
    assert len(GOLDS) > 400


@pytest.mark.parametrize("gold", GOLDS, ids=[_id(g) for g in GOLDS])
def test_every_gold_accepts_itself(gold: Gold) -> None:
    verdict = judge_inline(gold.gold, gold.gold, gold.answer_type, gold.type_sequence)
    assert verdict.correct, (gold.source, verdict.reason, verdict.normalized_gold)


def _accepted_forms() -> list[dict[str, Any]]:
    rows = []
    for path in sorted(CASES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                if case["expect"] and "question" not in case and "tolerance" not in case:
                    rows.append(case)
    return rows


def test_every_accepted_form_accepts_itself() -> None:
    """An accepted alternative form, taken as a gold, accepts itself (and so the form is one
    the verifier can read both ways)."""
    failures = []
    for case in _accepted_forms():
        boxes = [c for c in scan_boxes(case["pred"]).contents if c.strip()]
        if case["answer_type"] not in ("TUP", "ALT") and len(boxes) != 1:
            continue  # the prediction's last box is the answer; earlier ones are steps
        if case["answer_type"] in ("TUP", "ALT") and len(boxes) != len(
            [t for t in case.get("type_sequence", "").split(",") if t.strip()]
        ):
            continue  # as a gold, a composite needs one type per box
        if case["answer_type"] == "ALT" and re.search(r"\bor\b", boxes[-1]):
            continue  # the last box offers every alternative: earlier boxes are steps
        form = "".join("\\boxed{" + b + "}" for b in boxes)
        sequence = case.get("type_sequence", "")
        verdict = judge_inline(form, form, case["answer_type"], sequence)
        if not verdict.correct:
            failures.append((form, case["answer_type"], verdict.reason))
    assert not failures, failures


PERTURBED = [g for g in GOLDS if any(True for _ in perturbations(g))]


@pytest.mark.parametrize("gold", PERTURBED, ids=[_id(g) for g in PERTURBED])
def test_every_perturbation_of_a_gold_is_rejected_where_it_differs(gold: Gold) -> None:
    wrong = []
    for perturbation in perturbations(gold):
        if perturbation.key in EQUIVALENT:
            continue
        verdict = judge_inline(perturbation.pred, gold.gold, gold.answer_type, gold.type_sequence)
        if verdict.correct:
            if perturbation.where.startswith("alternative_") and another_alternative(perturbation):
                continue
            wrong.append((perturbation.where, perturbation.kind, perturbation.pred, verdict.reason))
            continue
        location = expected_location(perturbation)
        if location is not None and not verdict.reason.startswith(location):
            wrong.append((perturbation.where, perturbation.kind, perturbation.pred, verdict.reason))
    assert not wrong, (gold.source, wrong)


def test_every_listed_equivalence_still_arises() -> None:
    """A stale entry of the equivalence table would hide nothing, and mean nothing."""
    keys = {p.key for g in GOLDS for p in perturbations(g)}
    assert set(EQUIVALENT) <= keys, set(EQUIVALENT) - keys
    assert all(proof.strip() for proof in EQUIVALENT.values())


def _appended(perturbation: Any) -> bool:
    """Whether the perturbation is one of the gold's boxes, whole, with a side appended."""
    golds = [c.strip() for c in scan_boxes(perturbation.gold.gold).contents if c.strip()]
    preds = [c.strip() for c in scan_boxes(perturbation.pred).contents if c.strip()]
    return any(p.startswith(g + " = ") for p in preds for g in golds)


def test_the_perturbations_change_one_place_each() -> None:
    """Each class is generated, and from more than a handful of golds."""
    made = [p for g in GOLDS for p in perturbations(g)]
    kinds = {p.kind for p in made}
    assert kinds == {
        "sign", "factor_1.5", "factor_2", "plus_1", "exponent", "text_number",
        "new_term", "new_factor", "unit_swap", "remark", "negated", "bound", "bracket",
        "variable",
    }  # fmt: skip
    appended = [p for p in made if p.where.split(":")[-1] == "appended" and _appended(p)]
    assert len(appended) > 1000, "the gold's own box with a wrong side appended"
    places = {p.where.split("_")[0] for p in made}
    assert {"answer", "chain", "element", "alternative"} <= places, places
    assert len(made) > 1500


# A wrong answer presented so that the right one comes last (visibility.py): hidden from the
# reader, taken back, or hedged. Each gold meets a rotating share of them (about 4 s).
PRESENTATIONS = (
    ("comment", "{W} % {G}"),
    ("iffalse", "{W} \\iffalse {G} \\fi"),
    ("html_comment", "{W} <!-- {G} -->"),
    ("phantom", "{W} \\phantom{{G}}"),
    ("cancel", "{W} \\cancel{{G}}"),
    ("white", "{W} {\\color{white} {G}}"),
    ("verbatim", "{W} \\verb|{G}|"),
    ("struck", "{W} ~~{G}~~"),
    ("denied", "{W}; it is not {G}."),
    ("denied_after", "{W}. {G} is wrong."),
    ("hedged_or", "{W} \\text{ or } {G}"),
    ("hedged_maybe", "{W}, maybe {G}"),
)
_PER_GOLD = 4


@pytest.mark.parametrize("gold", PERTURBED, ids=[_id(g) for g in PERTURBED])
def test_no_presentation_puts_a_hidden_or_hedged_right_box_last(gold: Gold) -> None:
    """For a rejected perturbation ``W`` of each gold ``G``, ``W`` followed by ``G`` hidden,
    denied or hedged is rejected too: the last box a reader sees and the output stands behind
    is the wrong one, or a hedge between the two offers a wrong value."""
    wrong = next(
        p.pred
        for p in perturbations(gold)
        if p.key not in EQUIVALENT
        and "\n" not in gold.gold
        and not judge_inline(p.pred, gold.gold, gold.answer_type, gold.type_sequence).correct
    )
    start = PERTURBED.index(gold) * _PER_GOLD
    accepted = []
    for offset in range(_PER_GOLD):
        name, template = PRESENTATIONS[(start + offset) % len(PRESENTATIONS)]
        pred = template.replace("{W}", wrong).replace("{G}", gold.gold)
        verdict = judge_inline(pred, gold.gold, gold.answer_type, gold.type_sequence)
        if verdict.correct:
            accepted.append((name, pred, verdict.reason))
    assert not accepted, (gold.source, accepted)
