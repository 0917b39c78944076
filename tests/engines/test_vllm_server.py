"""The real vLLM server (CPU build, .venv-vllm) on the tiny model: health, seeds, a full
sample split through the runner and through the CLI, and failure detection."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studybench.benchmarks.studybench.prompts import PROMPTS
from studybench.config import load_settings
from studybench.data import load_parents
from studybench.engines.base import EngineError, Message, SamplingParams
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.engines.vllm_server import VLLMServer, VLLMServerConfig
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.runner import Rollout, RolloutConfig
from tests.conftest import ROOT, shared_vllm_cache

VLLM_PYTHON = ROOT / ".venv-vllm" / "bin" / "python"


def server_config(model: Path, **kwargs: object) -> VLLMServerConfig:
    assert VLLM_PYTHON.exists(), "vLLM's CPU build is missing: run make vllm-env (make test does)"
    engine = load_settings(ROOT / "params.yaml", environ={}).engine
    options: dict[str, object] = {"startup_timeout_s": 300.0, **kwargs}
    return VLLMServerConfig.from_settings(
        engine, str(model), max_model_len=4096, served_model_name="tiny", root=ROOT, **options
    )


@pytest.fixture
def server(vllm_tiny_server: VLLMServer) -> VLLMServer:
    """The session's one server of the tiny model (tests/conftest.py, which checks that it
    is stopped at the end): the same configuration, ``server_config(tiny_model)``."""
    return vllm_tiny_server


def test_log_in_the_run_folder_caches_in_the_named_one(server: VLLMServer) -> None:
    assert server.log_path.exists() and server.log_path.parent == server.run_dir
    cache = server.config.cache_dir
    assert cache is not None and (cache / "vllm" / "modelinfos").is_dir()  # vLLM used it
    assert "--seed" in server.command() and "--enable-prefix-caching" in server.command()


def test_cache_folder_comes_from_settings_else_the_run_folder(tmp_path: Path) -> None:
    engine = load_settings(ROOT / "params.yaml", environ={}).engine
    assert engine.vllm_cache_dir is None  # the factory then names <paths.cache_dir>/vllm
    plain = VLLMServer(VLLMServerConfig.from_settings(engine, "m", max_model_len=64), tmp_path)
    assert plain._environment()["VLLM_CACHE_ROOT"] == str(tmp_path / "cache" / "vllm")
    shared = engine.model_copy(update={"vllm_cache_dir": tmp_path / "shared"})
    named = VLLMServer(VLLMServerConfig.from_settings(shared, "m", max_model_len=64), tmp_path)
    env = named._environment()
    assert env["VLLM_CACHE_ROOT"] == str(tmp_path / "shared" / "vllm")
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "shared" / "torchinductor")


def test_per_request_seeds_under_concurrency(server: VLLMServer) -> None:
    async def go() -> list[str]:
        engine = OpenAICompatEngine(server.base_url, "tiny")
        messages = [Message(role="user", content="Find the speed.")]
        sampling = SamplingParams(temperature=1.0, top_k=20, max_tokens=12)
        try:
            results = await asyncio.gather(
                *(
                    engine.complete(messages, sampling.model_copy(update={"seed": s % 4}))
                    for s in range(16)
                )
            )
        finally:
            await engine.aclose()
        return [r[0].text for r in results]

    texts = asyncio.run(go())
    for s in range(4):
        assert len({texts[i] for i in range(s, 16, 4)}) == 1  # same seed, same sample
    assert len(set(texts)) == 4


def test_full_sample_split_through_the_runner(
    server: VLLMServer, sample_dir: Path, tmp_path: Path
) -> None:
    parents = list(load_parents(sample_dir / "transfer_problems.json"))
    sampling = SamplingParams(temperature=1.0, top_p=0.95, top_k=20, max_tokens=16)
    config = RolloutConfig(model="tiny", prompts=PROMPTS, k=2, seeds=(0, 1), sampling=sampling)
    artefacts = MethodArtefacts(system_prompt="You solve physics problems.")

    def generate(run_dir: Path, concurrency: int) -> dict[str, str]:
        rollout = Rollout(parents, config.model_copy(update={"concurrency": concurrency}),
                          artefacts, run_dir)  # fmt: skip

        async def go() -> None:
            engine = OpenAICompatEngine(server.base_url, "tiny")
            try:
                summary = await rollout.run(engine)
            finally:
                await engine.aclose()
            assert summary.errors == 0 and summary.generated == 40 * 4

        asyncio.run(go())
        texts = {
            f"{key}/{turn}": (record.completion if record else "")
            for key, turns in rollout.resolved().items()
            for turn, record in enumerate(turns)
        }
        rollout.close()
        return texts

    wide = generate(tmp_path / "wide", 256)
    narrow = generate(tmp_path / "narrow", 4)
    assert wide == narrow  # identical samples whatever the schedule


def test_generate_cli_with_vllm(tiny_model: Path, sample_dir: Path, tmp_path: Path) -> None:
    params = tmp_path / "params.yaml"
    text = (ROOT / "params.yaml").read_text().replace(".venv-vllm/bin/python", str(VLLM_PYTHON))
    params.write_text(text)
    command = [
        str(Path(sys.executable).with_name("studybench")), "generate",
        "--model", str(tiny_model), "--engine", "vllm", "--split", "application",
        "--out", str(tmp_path / "run"), "--seeds", "0", "--k", "2", "--max-new-tokens", "16",
        "--params", str(params),
    ]  # fmt: skip
    env = {
        **os.environ,
        "COLUMNS": "200",
        "STUDYBENCH__PROTOCOL__MAX_TOKENS": "4096",
        "STUDYBENCH__DATA__APPLICATION_SPLIT": str(sample_dir / "application_problems.json"),
        "STUDYBENCH__ENGINE__VLLM_CACHE_DIR": str(shared_vllm_cache()),
    }
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "62 generated" in result.stdout  # 31 slots x 2 attempts
    exported = json.loads((tmp_path / "run" / "generations.json").read_text())
    assert len(exported) == 17
    assert (tmp_path / "run" / "vllm.log").exists()


def test_dead_server_fails_fast_with_its_log(tmp_path: Path) -> None:
    config = server_config(tmp_path / "no-such-model", startup_timeout_s=240.0)
    with (
        pytest.raises(EngineError, match="vLLM server exited with code") as info,
        VLLMServer(config, tmp_path),
    ):
        pass
    assert "log" in str(info.value)


def test_generate_cli_with_an_openai_compatible_endpoint(
    server: VLLMServer, sample_dir: Path, tmp_path: Path
) -> None:
    command = [
        str(Path(sys.executable).with_name("studybench")), "generate",
        "--model", "tiny", "--engine", "openai",
        "--split", str(sample_dir / "transfer_problems.json"), "--start", "0", "--end", "3",
        "--out", str(tmp_path / "run"), "--seeds", "0,1", "--k", "2", "--max-new-tokens", "8",
        "--params", str(ROOT / "params.yaml"),
    ]  # fmt: skip
    env = {**os.environ, "COLUMNS": "200", "STUDYBENCH__ENGINE__BASE_URL": server.base_url}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    parents = list(load_parents(sample_dir / "transfer_problems.json"))[:3]
    turns = sum(len(p.slots()) for p in parents) * 4
    assert f"{turns} generated" in result.stdout and "0 error(s)" in result.stdout
    manifest = json.loads((tmp_path / "run" / "run.json").read_text())
    assert manifest["engine"] == "openai" and manifest["parents"] == 3


def test_llm_judge_on_the_tiny_model_flags_noise(
    server: VLLMServer, sample_dir: Path, tmp_path: Path
) -> None:
    from studybench.judge.llm import JudgeCache, LLMJudge
    from studybench.judge.pipeline import iter_verdicts, judge_run
    from studybench.verify import Verifier
    from tests.judge.test_judge import make_run

    make_run(tmp_path / "run", sample_dir)

    def judge() -> LLMJudge:
        engine = OpenAICompatEngine(server.base_url, "tiny")
        return LLMJudge(engine, "tiny", cache=JudgeCache(tmp_path / "cache.sqlite"), max_tokens=24)

    with Verifier(workers=1) as rules:
        first = judge_run(tmp_path / "run", rules, judge())
        verdicts = list(iter_verdicts(tmp_path / "run"))
        judged = [v for v in verdicts if v.stage == "judge"]
        assert first.llm_calls == len(judged) == 4
        assert all(v.judge_verdict == "unparseable" and v.flagged for v in judged)
        assert all(v.judge_reply for v in judged)  # the raw reply is kept for audit
        second = judge_run(tmp_path / "run", rules, judge())
        assert second.reused == 2 and second.llm_calls == 4  # noise is never cached
