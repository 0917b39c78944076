"""Message construction of the conversational protocol, and method artefacts.

The builder is benchmark-neutral, so these tests give it texts of no benchmark
(``tests/rollout/texts.py``): a builder that fell back on any benchmark's words would fail
them. StudyBench's exact texts are checked against a hand-written golden in
tests/benchmarks/studybench/test_prompt_oracle.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybench.data import load_parents
from studybench.data.records import ParentProblem
from studybench.errors import ConfigError, DataError
from studybench.rollout.artefacts import MethodArtefacts, gepa_system_prompt, load_artefacts
from studybench.rollout.conversation import build_messages, strip_thinking
from tests.rollout.texts import TEXTS

SYSTEM = "You are a helpful assistant that solves physics problems."
PLAIN = MethodArtefacts(system_prompt=SYSTEM)
INSTRUCTION, PLACEHOLDER = TEXTS.instruction, TEXTS.placeholder


@pytest.fixture(scope="module")
def multi(sample_dir: Path) -> ParentProblem:
    parents = load_parents(sample_dir / "transfer_problems.json")
    return next(p for p in parents if len(p.sub_problems) >= 3)


@pytest.fixture(scope="module")
def solo(sample_dir: Path) -> ParentProblem:
    return next(p for p in load_parents(sample_dir / "application_problems.json") if p.is_solo)


def test_first_turn_is_instruction_stem_and_first_sub(multi: ParentProblem) -> None:
    slots = multi.slots()
    messages = build_messages(slots, 0, [], PLAIN, TEXTS)
    assert [m.role for m in messages] == ["system", "user"]
    assert messages[0].content == SYSTEM
    assert messages[1].content == "\n\n".join(
        [INSTRUCTION["EN"], multi.problem.strip(), slots[0].question.strip()]
    )


def test_later_turns_carry_own_answers_without_thinking(multi: ParentProblem) -> None:
    slots = multi.slots()
    answers = ["<think>scratch work</think>\nFirst answer \\boxed{1}", "Second \\boxed{2}"]
    messages = build_messages(slots, 2, answers, PLAIN, TEXTS)
    assert [m.role for m in messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert messages[2].content == "First answer \\boxed{1}"
    assert messages[4].content == "Second \\boxed{2}"
    assert messages[3].content == slots[1].question.strip()  # no instruction, no stem again
    assert messages[5].content == slots[2].question.strip()
    joined = "\n".join(m.content for m in messages)
    for slot in slots:  # no gold or solution text ever enters the prompt
        assert slot.solution not in joined or not slot.solution
        if slot.answer not in slot.question:
            assert slot.answer not in joined


@pytest.mark.parametrize("failed", ["", "<think>never finished", "   ", "<think>a</think>  "])
def test_empty_previous_answer_becomes_the_placeholder(multi: ParentProblem, failed: str) -> None:
    messages = build_messages(multi.slots(), 1, [failed], PLAIN, TEXTS)
    assert messages[2].content == PLACEHOLDER["EN"]


def test_solo_parent_is_asked_once_without_stem(solo: ParentProblem) -> None:
    (slot,) = solo.slots()
    messages = build_messages((slot,), 0, [], PLAIN, TEXTS)
    assert messages[1].content == f"{INSTRUCTION['EN']}\n\n{solo.problem.strip()}"
    assert messages[1].content.count(solo.problem.strip()) == 1


def test_chinese_texts(multi: ParentProblem) -> None:
    messages = build_messages(multi.slots(), 1, [""], PLAIN, TEXTS, "ZH")
    assert messages[1].content.startswith(INSTRUCTION["ZH"])
    assert messages[2].content == PLACEHOLDER["ZH"]


def test_strip_thinking() -> None:
    assert strip_thinking("<think>x</think>answer") == "answer"
    assert strip_thinking("reasoning</think>answer") == "answer"
    assert strip_thinking("<THINK>open forever") == ""


def test_text_before_an_unterminated_think_is_no_answer() -> None:
    # the one thinking rule: an unterminated <think> means no answer at all, not the text
    # before it (the previous turn then becomes the placeholder)
    assert strip_thinking("\\boxed{1} <think>unfinished") == ""


def test_a_blank_stem_adds_no_empty_paragraph(multi: ParentProblem) -> None:
    slots = [s.model_copy(update={"stem": "   "}) for s in multi.slots()]
    content = build_messages(slots, 0, [], PLAIN, TEXTS)[1].content
    assert content == "\n\n".join([INSTRUCTION["EN"], slots[0].question.strip()])


def test_guidance_is_appended_also_when_replayed(sample_dir: Path, multi: ParentProblem) -> None:
    artefacts = load_artefacts(SYSTEM, guidance=sample_dir / "guidance.json")
    slots = multi.slots()
    messages = build_messages(slots, 1, ["ok"], artefacts, TEXTS)
    for user in (messages[1], messages[3]):
        assert f"{TEXTS.guidance_header}\n{TEXTS.guidance_preamble['EN']}\n\n" in user.content
    assert artefacts.guidance_for(slots[1].key) in messages[3].content


def test_ace_playbook_extends_the_system_message(tmp_path: Path) -> None:
    playbook = tmp_path / "playbook.txt"
    playbook.write_text("[b1] helpful=3 harmful=0 :: check units\n")
    artefacts = load_artefacts(SYSTEM, ace_instruction=TEXTS.ace_instruction, ace=playbook)
    assert artefacts.kind == "ace"
    assert artefacts.system_prompt.startswith(SYSTEM + "\n\n" + TEXTS.ace_instruction)
    assert "## PLAYBOOK\n[b1] helpful=3 harmful=0 :: check units\n## END PLAYBOOK" in (
        artefacts.system_prompt
    )


def test_an_ace_playbook_without_instruction_follows_the_system_message(tmp_path: Path) -> None:
    playbook = tmp_path / "playbook.txt"
    playbook.write_text("[b1] helpful=0 harmful=0 :: draw a diagram\n")
    system = load_artefacts(SYSTEM, ace=playbook).system_prompt
    assert system == (
        f"{SYSTEM}\n\n## PLAYBOOK\n[b1] helpful=0 harmful=0 :: draw a diagram\n## END PLAYBOOK"
    )


def test_evoskill_replaces_the_system_message(tmp_path: Path) -> None:
    skills = tmp_path / "skills.txt"
    skills.write_text("  Use dimensional analysis first.  \n")
    assert (
        load_artefacts(SYSTEM, evoskill=skills).system_prompt == "Use dimensional analysis first."
    )


def test_gepa_history_selection(tmp_path: Path) -> None:
    history = tmp_path / "gepa.jsonl"
    rows = [
        {"system_prompt": f"prompt {i}", "iteration": i, "rollouts": 100 * i, "score": i / 10}
        for i in range(1, 5)
    ]
    history.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert gepa_system_prompt(history) == "prompt 4"
    assert gepa_system_prompt(history, iteration=2) == "prompt 2"
    assert gepa_system_prompt(history, rollouts=350) == "prompt 3"
    with pytest.raises(DataError, match="no row with iteration <= 0"):
        gepa_system_prompt(history, iteration=0)
    plain = tmp_path / "prompt.txt"
    plain.write_text("Be careful.\n")
    assert gepa_system_prompt(plain) == "Be careful."
    obj = tmp_path / "prompt.json"
    obj.write_text(json.dumps({"system_prompt": "From JSON"}))
    assert gepa_system_prompt(obj) == "From JSON"


def test_system_artefacts_are_mutually_exclusive(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("x")
    b.write_text("y")
    with pytest.raises(ConfigError, match="mutually exclusive; got ace, evoskill"):
        load_artefacts(SYSTEM, ace=a, evoskill=b)


def test_guidance_combines_with_a_system_artefact(sample_dir: Path, tmp_path: Path) -> None:
    skills = tmp_path / "skills.txt"
    skills.write_text("skills")
    artefacts = load_artefacts(SYSTEM, evoskill=skills, guidance=sample_dir / "guidance.json")
    assert artefacts.kind == "evoskill" and artefacts.guidance


def test_fingerprint_changes_with_any_artefact(tmp_path: Path) -> None:
    base = MethodArtefacts(system_prompt=SYSTEM)
    assert base.fingerprint() == MethodArtefacts(system_prompt=SYSTEM).fingerprint()
    assert base.fingerprint() != MethodArtefacts(system_prompt=SYSTEM + ".").fingerprint()
    guided = MethodArtefacts(system_prompt=SYSTEM, guidance={"k": "g"})
    assert base.fingerprint() != guided.fingerprint()
