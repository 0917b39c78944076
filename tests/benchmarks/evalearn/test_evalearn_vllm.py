"""EvaLearn against a real OpenAI-compatible server: vLLM's CPU build serving the tiny model
both as the evaluated model and as the rubric judge. Its replies are noise, so the judge's
replies are unparseable: they must be flagged and kept, never crash the run, never be
cached (the next run asks again). With structured output on (``judge.structured_output``)
the same babble is forced into the rubric's reply lines: every LLM verdict is scored (0 or
1), none is flagged, and each is cached. The server is the session's one (tests/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from studybench.benchmarks.evalearn.judge import rubric_format
from studybench.judge.cache import ReplyCache
from tests.cli.entry import run
from tests.engines.formats import conforms


def test_noise_from_a_real_judge_is_flagged_not_fatal(vllm_tiny: str, tmp_path: Path) -> None:
    env = {
        "STUDYBENCH__ENGINE__BASE_URL": vllm_tiny,
        "STUDYBENCH__JUDGE__BASE_URL": vllm_tiny,
        "STUDYBENCH__JUDGE__MODEL": "tiny",
        "STUDYBENCH__JUDGE__MAX_RETRIES": "1",
        "STUDYBENCH__EVALEARN__MAX_NEW_TOKENS": "8",
        "STUDYBENCH__EVALEARN__JUDGE_MAX_TOKENS": "12",
        "STUDYBENCH__TRACKING__ENABLED": "false",
        "STUDYBENCH__PATHS__CACHE_DIR": str(tmp_path / "cache"),
    }
    out = tmp_path / "run"
    args = ["eval", "--benchmark", "evalearn", "--engine", "openai", "--model", "tiny",
            "--out", str(out), "--seeds", "0", "--parts", "zero_shot,feedback"]  # fmt: skip
    first = run(*args, env=env)
    text = first.stdout + first.stderr
    assert first.returncode == 0, text[-3000:]
    verdicts = [json.loads(line) for line in (out / "feedback" / "verdicts-seed0.jsonl").open()]
    assert len(verdicts) == 35
    noise = [v for v in verdicts if v["stage"] == "llm"]
    assert noise and all(v["flagged"] and not v["correct"] for v in noise)
    assert all(v["outcome"] in ("unparseable", "judge_error") for v in noise)
    # a failed call keeps its error as the reply; the tiny model may also end a reply at once
    assert all(v["reply"] for v in noise if v["outcome"] == "judge_error")
    zero = [json.loads(line) for line in (out / "zero_shot" / "verdicts-seed0.jsonl").open()]
    flagged = sum(v["flagged"] for v in [*verdicts, *zero])
    assert f"judged 2 (part, seed) unit(s); {flagged} verdict(s) flagged" in text

    again = run(*args, env=env)
    assert again.returncode == 0
    assert "reused 35" in again.stdout + again.stderr
    cache = tmp_path / "cache" / "evalearn_judge_cache.sqlite"
    assert cache.exists()  # opened, but flagged replies were never written to it
    stored = ReplyCache(cache)
    assert len(stored) == len([v for v in verdicts if v["stage"] == "llm" and not v["flagged"]])
    stored.close()


def test_structured_rubric_scores_are_parsed_and_cached(vllm_tiny: str, tmp_path: Path) -> None:
    budget = 96
    env = {
        "STUDYBENCH__ENGINE__BASE_URL": vllm_tiny,
        "STUDYBENCH__JUDGE__BASE_URL": vllm_tiny,
        "STUDYBENCH__JUDGE__MODEL": "tiny",
        "STUDYBENCH__JUDGE__STRUCTURED_OUTPUT": "true",
        "STUDYBENCH__EVALEARN__MAX_NEW_TOKENS": "8",
        "STUDYBENCH__EVALEARN__JUDGE_MAX_TOKENS": str(budget),
        "STUDYBENCH__TRACKING__ENABLED": "false",
        "STUDYBENCH__PATHS__CACHE_DIR": str(tmp_path / "cache"),
    }
    out = tmp_path / "run"
    args = ["eval", "--benchmark", "evalearn", "--engine", "openai", "--model", "tiny",
            "--out", str(out), "--seeds", "0", "--parts", "feedback"]  # fmt: skip
    first = run(*args, env=env)
    assert first.returncode == 0, (first.stdout + first.stderr)[-3000:]
    verdicts = [json.loads(line) for line in (out / "feedback" / "verdicts-seed0.jsonl").open()]
    scored = [v for v in verdicts if v["stage"] == "llm"]
    assert len(verdicts) == 35 and scored
    form = rubric_format(budget)
    for v in scored:
        assert v["outcome"] in ("correct", "incorrect") and not v["flagged"]
        assert v["correct"] is (v["outcome"] == "correct")
        assert conforms(form.regex, v["reply"])
        assert v["feedback"] == v["reply"]  # what the feedback paradigm shows next
    stored = ReplyCache(tmp_path / "cache" / "evalearn_judge_cache.sqlite")
    assert len(stored) == len(scored)  # every scored reply is cached (one prompt each)
    stored.close()
