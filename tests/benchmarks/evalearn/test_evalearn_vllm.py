"""EvaLearn against a real OpenAI-compatible server: vLLM's CPU build serving the tiny model
both as the evaluated model and as the rubric judge. Its replies are noise, so the judge's
replies are unparseable: they must be flagged and kept, never crash the run, never be
cached (the next run asks again)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from studybench.engines.vllm_server import VLLMServer
from studybench.judge.cache import ReplyCache
from tests.cli.entry import run
from tests.engines.test_vllm_server import server_config


@pytest.fixture(scope="module")
def server(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[VLLMServer]:
    with VLLMServer(server_config(tiny_model), tmp_path_factory.mktemp("vllm_evalearn")) as up:
        yield up


def test_noise_from_a_real_judge_is_flagged_not_fatal(server: VLLMServer, tmp_path: Path) -> None:
    env = {
        "STUDYBENCH__ENGINE__BASE_URL": server.base_url,
        "STUDYBENCH__JUDGE__BASE_URL": server.base_url,
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
    assert all(v["outcome"] in ("unparseable", "judge_error") and v["reply"] for v in noise)
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
