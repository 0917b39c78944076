"""Loaders: both file shapes, slots and their keys, instruction layers, guidance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybench.data import (
    AnswerType,
    DataValidationError,
    SlotKey,
    load_guidance,
    load_instruction_layer,
    load_parents,
    load_split,
)
from studybench.errors import DataError

SOLO = {
    "source": "SB_Mechanics",
    "source_kind": "textbook_problem",
    "domain": "Textbook Physics",
    "year": "",
    "source_problem_id": "P1.1",
    "title": "",
    "problem_type": "Classical Mechanics",
    "problem": "A 2 kg cart moves at 3 m/s. Find its kinetic energy.",
    "solution": "K = mv^2/2 = 9 J.",
    "answer": r"\boxed{9\,\mathrm{J}}",
    "answer_type": "NV",
    "type_sequence": "",
    "sub_problems": [],
}
MULTI = {
    "source": "SBO",
    "source_kind": "competition",
    "domain": "Olympiad Physics",
    "year": "2025",
    "source_problem_id": "T2",
    "title": "",
    "problem_type": "Electromagnetism",
    "problem": "A ring of radius R carries charge Q.",
    "solution": "",
    "answer": "",
    "answer_type": "",
    "type_sequence": "",
    "sub_problems": [
        {
            "problem_id": "a",
            "problem": "Field on the axis at distance z?",
            "solution": "...",
            "answer": r"\boxed{\frac{kQz}{(R^2+z^2)^{3/2}}}",
            "answer_type": "EX",
            "type_sequence": "",
            "knowledge_points": [{"type": "law_or_equation", "name": "Coulomb's law"}],
            "guidance": "Integrate over ring elements; only the axial part survives.",
        },
        {
            "problem_id": "b",
            "problem": "Where is the field largest, and is it zero at the centre?",
            "solution": "...",
            "answer": r"\boxed{z = \frac{R}{\sqrt{2}}}, \boxed{\text{True}}",
            "answer_type": "TUP",
            "type_sequence": "EQ,TF",
        },
    ],
}


@pytest.fixture
def split_file(tmp_path: Path) -> Path:
    path = tmp_path / "split.json"
    path.write_text(json.dumps({"data": [SOLO, MULTI]}))
    return path


@pytest.mark.parametrize("shape", ["data", "list"])
def test_both_shapes_load_the_same(tmp_path: Path, shape: str) -> None:
    path = tmp_path / f"{shape}.json"
    path.write_text(json.dumps({"data": [SOLO, MULTI]} if shape == "data" else [SOLO, MULTI]))
    parents = load_parents(path)
    assert [p.source_problem_id for p in parents] == ["P1.1", "T2"]


def test_slots_of_solo_and_multi_sub_parents(split_file: Path) -> None:
    loaded = load_split(split_file)
    slots = loaded.slots()
    assert [str(s.key) for s in slots] == [
        "SB_Mechanics/-/P1.1/P1.1",
        "SBO/2025/T2/a",
        "SBO/2025/T2/b",
    ]
    solo, first, second = slots
    assert solo.stem == "" and solo.question == SOLO["problem"]  # never asked twice
    assert first.stem == MULTI["problem"] and first.index == 0 and second.index == 1
    assert second.answer_type is AnswerType.TUP
    assert second.type_sequence == (AnswerType.EQ, AnswerType.TF)
    assert first.knowledge_points[0].name == "Coulomb's law"
    assert first.guidance.startswith("Integrate")
    assert second.key == SlotKey("SBO", "2025", "T2", "b")


def test_parent_fields_and_solo_flag(split_file: Path) -> None:
    solo, multi = load_parents(split_file)
    assert solo.is_solo and not multi.is_solo
    assert multi.answer_type is None
    assert solo.answer_type is AnswerType.NV


def test_records_are_immutable(split_file: Path) -> None:
    solo, _ = load_parents(split_file)
    with pytest.raises(ValueError, match="frozen"):
        solo.answer = "x"  # type: ignore[misc]


def test_unknown_fields_survive_a_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    path.write_text(json.dumps([{**SOLO, "difficulty": "hard"}]))
    (parent,) = load_parents(path)
    assert parent.model_dump()["difficulty"] == "hard"


def test_invalid_file_raises_with_every_error(tmp_path: Path) -> None:
    bad = [
        {**SOLO, "answer_type": "NUM"},
        {**SOLO, "source_problem_id": "P1.2", "answer": ""},
    ]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(DataValidationError) as info:
        load_split(path)
    message = str(info.value)
    assert "2 validation error(s)" in message
    assert "record 0 (source_problem_id=P1.1): field answer_type" in message
    assert "record 1 (source_problem_id=P1.2): field answer" in message
    assert isinstance(info.value, DataError)
    assert info.value.path == path


def test_warnings_do_not_stop_loading(tmp_path: Path) -> None:
    path = tmp_path / "quirk.json"
    record = {**SOLO, "answer_type": "TUP", "type_sequence": "NV,NV", "answer": r"\boxed{1, 2}"}
    path.write_text(json.dumps([record]))
    loaded = load_split(path)
    assert [w.code for w in loaded.warnings] == ["comma-list-box"]
    (slot,) = loaded.slots()
    assert slot.answer == r"\boxed{1}, \boxed{2}"


def test_competition_single_question_parent_is_one_slot(tmp_path: Path) -> None:
    """A single-question competition parent keeps its answer on the parent and repeats the
    question as one sub with the same id; the sub is what gets evaluated, exactly once."""
    record = {
        **SOLO,
        "source": "SBO",
        "source_kind": "competition",
        "year": "2024",
        "source_problem_id": "T1",
        "answer": r"\boxed{3}, \boxed{2}",
        "answer_type": "TUP",
        "type_sequence": "NV,NV",
        "sub_problems": [
            {
                "problem_id": "T1",
                "problem": SOLO["problem"],
                "answer": r"\boxed{3}, \boxed{2}",
                "answer_type": "TUP",
                "type_sequence": "NV,NV",
            }
        ],
    }
    path = tmp_path / "single.json"
    path.write_text(json.dumps([record]))
    (slot,) = load_split(path).slots()
    assert slot.key == SlotKey("SBO", "2024", "T1", "T1")


def test_instruction_layers(tmp_path: Path) -> None:
    single = {
        "messages": [{"role": "user", "content": "q"}],
        "answer": r"\boxed{1}",
        "answer_type": "NV",
        "type_sequence": "",
        "metadata": {"source": "SB_Mechanics"},
    }
    multi = {
        "messages": [
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": "x"},
            {"role": "user", "content": "b"},
        ],
        "answer": [r"\boxed{1}", r"\boxed{2}, \boxed{y}"],
        "answer_type": ["NV", "TUP"],
        "type_sequence": ["", "NV,EX"],
        "metadata": {},
    }
    path = tmp_path / "verifiable_instr.json"
    path.write_text(json.dumps([single, multi]))
    first, second = load_instruction_layer(path)
    assert first.user_turns == 1 and second.user_turns == 2
    assert first.answers() == [(r"\boxed{1}", "NV", "")]
    assert second.answers()[1] == (r"\boxed{2}, \boxed{y}", "TUP", "NV,EX")

    answerless = tmp_path / "unverifiable_instr.json"
    answerless.write_text(json.dumps([{"messages": single["messages"]}]))
    (record,) = load_instruction_layer(answerless, with_answers=False)
    assert record.answers() == []
    with pytest.raises(DataValidationError, match="empty-answer"):
        load_instruction_layer(answerless, with_answers=True)


def test_guidance_index(split_file: Path, tmp_path: Path) -> None:
    index = load_guidance(split_file)
    assert list(index) == [SlotKey("SBO", "2025", "T2", "a")]
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps([SOLO]))
    with pytest.raises(DataError, match="no sub-problem carries"):
        load_guidance(empty)
