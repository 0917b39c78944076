"""The vLLM server's environment: the caller's secrets stay out, its own settings go in."""

from __future__ import annotations

from pathlib import Path

import pytest

from studybench.engines.vllm_server import VLLMServer, VLLMServerConfig, log_tail


def test_server_gets_no_judge_or_tracking_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDYBENCH_JUDGE_API_KEY", "judge-secret-value-123")
    monkeypatch.setenv("MLFLOW_TRACKING_PASSWORD", "tracking-secret-456789")
    monkeypatch.setenv("HF_TOKEN", "hf-token-for-gated-downloads")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    config = VLLMServerConfig(model="m", env={"VLLM_CPU_KVCACHE_SPACE": "1"})
    env = VLLMServer(config, tmp_path)._environment()
    assert "STUDYBENCH_JUDGE_API_KEY" not in env and "MLFLOW_TRACKING_PASSWORD" not in env
    assert env["HF_TOKEN"] == "hf-token-for-gated-downloads"
    assert env["OMP_NUM_THREADS"] == "2" and env["VLLM_CPU_KVCACHE_SPACE"] == "1"


def test_log_tail_is_scrubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUDYBENCH_ENGINE_API_KEY", "engine-secret-value-987")
    log = tmp_path / "vllm.log"
    log.write_text("starting\nargs: --api-key engine-secret-value-987\nready\n")
    tail = log_tail(log)
    assert "engine-secret-value-987" not in tail and "ready" in tail
