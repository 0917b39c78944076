"""SFT on synthesised data: the synthesis against a scripted generator (format filter,
resumable cache, budget record), then a few real SFTTrainer steps on the pairs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from studybench.checkpoints import READY_MARKER, CheckpointState, inspect_checkpoint
from studybench.config import LLMEndpointSettings, SynthSettings
from studybench.corpus.fragments import build_fragments
from studybench.errors import DataError
from studybench.training.sft import SFTRecipe, train_sft
from studybench.training.synth import parse_reply, read_pairs, sft_chats, synthesise
from tests.conftest import SAMPLE
from tests.engines.fake_openai import fake_openai

GOOD = (
    "Question: A ball is dropped from rest from a height of 20 m. Taking g = 10 m/s^2, how "
    "long does it take to reach the ground?\nAnswer type: NV\nSolution: h = g t^2 / 2, so "
    "t = sqrt(2h/g) = 2 s.\nFinal Answer: \\boxed{2}"
)
REPLIES = [
    GOOD,
    "Here is a question about gases.",  # no format
    GOOD.replace("Answer type: NV", "Answer type: TUP"),  # not an atomic type
    GOOD.replace("\\boxed{2}", "\\boxed{2} \\boxed{3}"),  # two boxes
    GOOD.replace("how long", "\\boxed{2} how long"),  # the question gives it away
    GOOD.replace("Answer type: NV", "Answer type: EQ"),  # "2" is no equation
]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (REPLIES[1], "format"),
        (REPLIES[2], "not one of"),
        (REPLIES[3], "exactly one"),
        (REPLIES[4], "gives the answer away"),
        (REPLIES[5], "does not look like EQ"),
    ],
)
def test_format_filter_rejects_with_a_reason(reply: str, reason: str) -> None:
    pair, why = parse_reply(reply, {"fragment_id": "f", "book": "b"})
    assert pair is None and reason in why


@pytest.mark.parametrize(
    ("box", "stored"),
    [
        ("2", "\\boxed{2}"),
        ("\\frac{1}{2}\n m v^2", "\\boxed{\\frac{1}{2} m v^2}"),
        ("\n\\begin{pmatrix} 1 \\\\\n 2 \\end{pmatrix}\n", None),
    ],
)
def test_the_answer_is_stored_on_one_line(box: str, stored: str | None) -> None:
    """A line break in a box (an engine that lost the grammar, a teacher without one) is a
    space to LaTeX; the stored answer never spans lines."""
    kind = "NV" if box == "2" else "EX"
    reply = GOOD.replace("\\boxed{2}", f"\\boxed{{{box}}}").replace("NV", kind)
    pair, why = parse_reply(reply, {"fragment_id": "f", "book": "b"})
    assert pair is not None, why
    assert "\n" not in pair.answer and pair.answer.startswith("\\boxed{")
    if stored is not None:
        assert pair.answer == stored


def test_synthesis_is_cached_resumable_and_trains(tiny_model: Path, tmp_path: Path) -> None:
    fragments = build_fragments(
        SAMPLE / "books", tmp_path / "fragments.jsonl", input_name="full.md"
    )
    assert len(fragments) >= 6
    replies: dict[str, str] = {}

    def script(body: dict[str, Any]) -> tuple[int, str, float]:
        passage = body["messages"][0]["content"].rsplit("Passage:\n", 1)[1]
        key = passage[:60]
        if key not in replies:  # a fixed reply per fragment, cycling through the cases
            replies[key] = REPLIES[len(replies) % len(REPLIES)]
        return 200, replies[key], 0.0

    with fake_openai(script) as (url, received):
        settings = SynthSettings(
            fragments=tmp_path / "fragments.jsonl",
            out=tmp_path / "synth" / "pairs.jsonl",
            cache=tmp_path / "synth" / "cache.jsonl",
            generator=LLMEndpointSettings(
                base_url=url, model="gen", api_key_env="NO_SUCH_KEY", concurrency=2
            ),
            max_fragments=6,
            min_fragment_words=5,
        )
        # a killed run: the cache holds two replies and a half-written line
        first = synthesise(settings.model_copy(update={"max_fragments": 2}))
        assert first.new_calls == 2
        with settings.cache.open("a") as handle:
            handle.write('{"key": "cut-off')
        result = synthesise(settings)
        assert result.new_calls == 4 and len(received) == 6  # only what was missing
        assert (result.fragments, result.pairs, result.rejected) == (6, 1, 5)
        again = synthesise(settings)
        assert again.new_calls == 0 and len(received) == 6  # finished: no calls at all
    assert received[0]["model"] == "gen"
    assert "Final Answer: \\boxed{" in received[0]["messages"][0]["content"]
    compute = json.loads((tmp_path / "synth" / "pairs.jsonl.compute.json").read_text())
    assert compute["budget"] == {"llm_calls": 6, "prompt_tokens": 42, "completion_tokens": 18}
    assert compute["method"] == "sft-synthesis"

    pairs = read_pairs(settings.out)
    assert [p.answer for p in pairs] == ["\\boxed{2}"]
    chats = sft_chats(pairs, "You solve physics problems.")
    assert [m["role"] for m in chats[0]] == ["system", "user", "assistant"]
    assert chats[0][1]["content"].endswith("how long does it take to reach the ground?")
    assert re.search(r"Final Answer: \\boxed\{2\}$", chats[0][2]["content"])

    folders = train_sft(
        tiny_model,
        tmp_path / "sft-synth",
        chats,
        SFTRecipe(steps=2, save_steps=2, batch_size=1, training_run="sft-synth", save_initial=True),
    )
    assert [f.name for f in folders] == ["checkpoint-0", "checkpoint-2"]
    marker = json.loads((folders[-1] / READY_MARKER).read_text())
    assert marker["training_run"] == "sft-synth" and marker["compute"]["total_flos"] > 0
    assert inspect_checkpoint(str(folders[-1])).state is CheckpointState.READY


def test_bad_pair_files_name_the_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"fragment_id": "f", "book": "b", "question": "q", "solution": "s"}\n')
    with pytest.raises(DataError, match=r"pairs.jsonl: line 1: field 'answer'"):
        read_pairs(path)
    with pytest.raises(DataError, match="no fragments"):
        synthesise(SynthSettings(fragments=tmp_path / "missing.jsonl"))


def test_synthesis_runs_as_its_dvc_stage(tmp_path: Path) -> None:
    import shutil
    import sys

    import yaml

    from tests.conftest import ROOT, build_dvc_repo, run_checked

    repo = build_dvc_repo(tmp_path / "repo")
    (repo / "data" / "training").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "training" / "dvc.yaml", repo / "data" / "training")
    build_fragments(SAMPLE / "books", repo / "data/corpus/fragments.jsonl", input_name="full.md")
    dvc = str(Path(sys.executable).with_name("dvc"))
    with fake_openai(lambda body: (200, GOOD, 0.0)) as (url, received):
        params = yaml.safe_load((repo / "params.yaml").read_text())
        synth = params["training"]["synth"]
        synth["generator"]["base_url"] = url
        synth.update(max_fragments=3, min_fragment_words=5)
        (repo / "params.yaml").write_text(yaml.safe_dump(params))
        run_checked(dvc, "repro", "data/training/dvc.yaml", cwd=repo)
        assert len(received) == 3
        pairs = read_pairs(repo / "data/training/sft_synth.jsonl")
        assert len(pairs) == 3
        again = run_checked(dvc, "repro", "data/training/dvc.yaml", cwd=repo)
        assert len(received) == 3 and "didn't change" in again
        synth["max_fragments"] = 4  # one more fragment: only it is asked for
        (repo / "params.yaml").write_text(yaml.safe_dump(params))
        run_checked(dvc, "repro", "data/training/dvc.yaml", cwd=repo)
        assert len(received) == 4
    assert len(read_pairs(repo / "data/training/sft_synth.jsonl")) == 4
