"""GEPA and ACE against a scripted OpenAI-compatible server: the artefacts they write are
accepted by the runner's ``--gepa`` / ``--ace`` loading, and carry their LLM budgets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studybench.config import LLMEndpointSettings, load_settings
from studybench.rollout.artefacts import gepa_system_prompt, load_artefacts
from studybench.training.ace import Playbook, apply_reflection, build_playbook
from studybench.training.gepa_prompt import run_gepa
from studybench.training.items import TrainItem, answered_items
from studybench.training.llm import MeteredChat
from studybench.verify.verifier import Verifier
from tests.conftest import ROOT
from tests.engines.fake_openai import fake_openai

SETTINGS = load_settings(ROOT / "params.yaml", environ={})
SEED = SETTINGS.protocol.system_prompt
MAGIC = "ALWAYS BOX"  # the task model answers right only when its system prompt says this


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> list[TrainItem]:
    layers = [
        ROOT / SETTINGS.data.instructions_with_answer,
        ROOT / SETTINGS.data.instructions_with_answer_multi,
    ]
    return answered_items(layers, tmp_path_factory.mktemp("items") / "split.json", SEED)


@pytest.fixture(scope="module")
def verifier() -> Iterator[Verifier]:
    with Verifier(workers=2) as shared:
        yield shared


def scripted(items: list[TrainItem], reflection: str) -> Any:
    gold = {item.prompt[-1]["content"]: item.answer for item in items}

    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        if body["model"] == "reflector":
            return 200, reflection, 0.0
        system, question = body["messages"][0]["content"], body["messages"][-1]["content"]
        if MAGIC in system:
            return 200, f"Reasoning.\nFinal Answer: {gold[question]}", 0.0
        return 200, "The answer is unclear.", 0.0

    return script


def chats(url: str) -> tuple[MeteredChat, MeteredChat]:
    return (
        MeteredChat(LLMEndpointSettings(base_url=url, model="task"), "task model"),
        MeteredChat(LLMEndpointSettings(base_url=url, model="reflector"), "reflector"),
    )


def test_gepa_writes_a_history_the_runner_selects_from(
    items: list[TrainItem], verifier: Verifier, tmp_path: Path
) -> None:
    improved = f"You solve physics problems. {MAGIC} the final answer."
    history = tmp_path / "gepa.jsonl"
    with fake_openai(scripted(items, f"```\n{improved}\n```")) as (url, received):
        task, reflector = chats(url)
        result = run_gepa(
            items,
            SEED,
            history,
            task=task,
            reflector=reflector,
            verifier=verifier,
            max_metric_calls=60,
            minibatch_size=3,
        )
    rows = [json.loads(line) for line in history.read_text().splitlines()]
    assert rows[0]["iteration"] == 0 and rows[0]["system_prompt"] == SEED
    assert rows[0]["score"] == 0.0 and rows[0]["rollouts"] == len(items)
    assert rows[-1]["system_prompt"] == improved and rows[-1]["score"] == 1.0
    assert {"iteration", "rollouts", "score", "best_idx", "time_iso"} <= set(rows[-1])
    assert [r["rollouts"] for r in rows] == sorted(r["rollouts"] for r in rows)
    assert (result.seed_score, result.best_score) == (0.0, 1.0)
    task_calls = sum(1 for body in received if body["model"] == "task")
    assert rows[-1]["task_llm_calls"] == task_calls and rows[-1]["reflector_llm_calls"] >= 1
    assert result.llm_calls == len(received) and result.tokens == 10 * len(received)
    compute = json.loads((tmp_path / "gepa.jsonl.compute.json").read_text())
    assert compute["method"] == "gepa" and compute["task"]["llm_calls"] == task_calls
    # what the runner's --gepa / --gepa-rollouts options select
    assert load_artefacts(SEED, gepa=history).system_prompt == improved
    assert gepa_system_prompt(history, rollouts=len(items)) == SEED
    assert gepa_system_prompt(history, iteration=0) == SEED


def test_ace_builds_a_playbook_the_runner_loads(
    items: list[TrainItem], verifier: Verifier, tmp_path: Path
) -> None:
    reflection = (
        "HELPFUL [stra-00001]\n"
        f"ADD strategies :: {MAGIC} the final answer on the last line.\n"
        "ADD pitfalls :: Never put units inside the box.\n"
        "ADD pitfalls :: A third insight is over the limit of two."
    )
    playbook = tmp_path / "ace_playbook.txt"
    with fake_openai(scripted(items, reflection)) as (url, received):
        task, reflector = chats(url)
        result = build_playbook(
            items,
            SEED,
            playbook,
            task=task,
            reflector=reflector,
            verifier=verifier,
            epochs=2,
            max_bullets=10,
        )
    text = playbook.read_text()
    assert text.splitlines() == [
        "### strategies",
        f"[stra-00001] helpful={2 * len(items) - 1} harmful=0 :: {MAGIC} the final answer on "
        "the last line.",
        "### pitfalls",
        "[pitf-00002] helpful=0 harmful=0 :: Never put units inside the box.",
    ]
    # the first answer had an empty playbook; every later one had the insight
    assert [e["accuracy"] for e in result.epochs] == [(len(items) - 1) / len(items), 1.0]
    assert result.llm_calls == len(received) == 4 * len(items)
    compute = json.loads((tmp_path / "ace_playbook.txt.compute.json").read_text())
    assert compute["method"] == "ace" and compute["reflector"]["llm_calls"] == 2 * len(items)
    system = load_artefacts(SEED, ace=playbook).system_prompt
    assert "## PLAYBOOK\n### strategies\n[stra-00001]" in system and "## END PLAYBOOK" in system
    assert Playbook.model_validate_json((tmp_path / "ace_playbook.txt.json").read_text())


def test_curator_dedupes_tags_and_prunes() -> None:
    book = Playbook()
    apply_reflection(book, "ADD formulas :: v = u + a t for constant acceleration", 3)
    apply_reflection(book, "ADD formulas :: v = u + a t for constant acceleration.", 3)
    assert len(book.bullets) == 1  # a near-duplicate is not added
    apply_reflection(book, "ADD nonsense :: not a section\nHARMFUL [form-00001]", 3)
    assert len(book.bullets) == 1 and book.bullets[0].harmful == 1
    apply_reflection(book, "ADD strategies :: draw a diagram\nADD pitfalls :: check units", 3)
    apply_reflection(book, "HELPFUL [stra-00002]\nADD answer_format :: one box per answer", 3)
    assert [b.id for b in book.bullets] == ["stra-00002", "pitf-00003", "answ-00004"]
