"""A planted engine key and judge key, echoed by both endpoints (401 bodies, a proxy that
quotes the Authorization header in a 200 reply), go through generate -> judge -> track into
a real MLflow store; no file produced (stores, exports, MLflow database and artefacts,
.gz artefacts decompressed) and no log line contains either key."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import logging
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studybench.benchmarks.studybench.prompts import PROMPTS
from studybench.config import load_settings
from studybench.data import load_parents
from studybench.engines.base import SamplingParams
from studybench.engines.openai_compat import OpenAICompatEngine
from studybench.judge.cache import ReplyCache
from studybench.judge.llm import LLMJudge
from studybench.judge.pipeline import judge_run
from studybench.rollout.artefacts import MethodArtefacts
from studybench.rollout.runner import Rollout, RolloutConfig
from studybench.verify import Verifier
from tests.conftest import ROOT
from tests.engines.fake_openai import Raw, fake_openai

ENGINE_KEY = "sk-planted-engine-9Kq2Lm7Xw4Zr8Tb3"
JUDGE_KEY = "jdg-planted-judge-5Vn1Hc6Pd2Ys0Qe7"
KEYS = (ENGINE_KEY, JUDGE_KEY)


def _bucket(body: dict[str, Any]) -> int:
    text = json.dumps(body["messages"], sort_keys=True)
    return hashlib.sha256(text.encode()).digest()[0] % 3


def engine_script(body: dict[str, Any]) -> Raw | tuple[int, str, float]:
    if _bucket(body) == 0:  # the provider rejects the key and quotes it
        return Raw(401, json.dumps({"error": {"message": f"Incorrect API key: {ENGINE_KEY}"}}))
    return (200, "The speed is \\boxed{42\\,\\mathrm{m/s}}", 0.0)


def judge_script(body: dict[str, Any]) -> Raw | tuple[int, str, float]:
    bucket = _bucket(body)
    if bucket == 0:
        return Raw(401, json.dumps({"error": {"message": f"Invalid key {JUDGE_KEY}"}}))
    if bucket == 1:  # a misconfigured proxy that echoes the request headers into the reply
        return (200, f"VERDICT: FALSE\nJUSTIFICATION: n/a. Authorization: Bearer {JUDGE_KEY}", 0)
    return (200, "VERDICT: FALSE\nJUSTIFICATION: a different value.", 0.0)


def every_text(root: Path) -> list[tuple[Path, bytes]]:
    found = []
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        found.append((path, data))
        if path.suffix == ".gz":
            found.append((path, gzip.decompress(data)))
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                found.extend((path, archive.read(n)) for n in archive.namelist())
    return found


def test_planted_keys_never_reach_a_file_or_a_log(
    sample_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    monkeypatch.setenv("STUDYBENCH_ENGINE_API_KEY", ENGINE_KEY)
    monkeypatch.setenv("STUDYBENCH_JUDGE_API_KEY", JUDGE_KEY)
    monkeypatch.chdir(tmp_path)  # nothing may land in the working directory either
    caplog.set_level(logging.DEBUG)
    store = tmp_path / "mlflow.db"
    settings = load_settings(
        ROOT / "params.yaml",
        environ={
            "STUDYBENCH__TRACKING__URI": f"sqlite:///{store}",
            "STUDYBENCH__PATHS__WORK_DIR": str(tmp_path / "work"),
        },
    )
    run_dir = tmp_path / "runs" / "application"
    parents = list(load_parents(sample_dir / "application_problems.json"))[:4]
    sampling = SamplingParams(max_tokens=64)
    config = RolloutConfig(model="m", prompts=PROMPTS, k=2, seeds=(0,), sampling=sampling)
    rollout = Rollout(parents, config, MethodArtefacts(system_prompt="Solve."), run_dir,
                      split="application")  # fmt: skip

    with fake_openai(engine_script) as (engine_url, _), fake_openai(judge_script) as (judge_url, _):

        async def generate() -> Any:
            engine = OpenAICompatEngine(
                engine_url, "m", api_key=ENGINE_KEY, max_retries=0, backoff_base_s=0.01
            )
            try:
                return await rollout.run(engine)
            finally:
                await engine.aclose()

        try:
            summary = asyncio.run(generate())
            rollout.export_reference(run_dir / "generations.json")
        finally:
            rollout.close()
        assert 0 < summary.errors < summary.generated  # both paths were taken
        judge = LLMJudge(
            OpenAICompatEngine(judge_url, "judge", api_key=JUDGE_KEY, max_retries=0),
            "judge",
            cache=ReplyCache(tmp_path / "work" / "cache" / "judge_cache.sqlite"),
        )
        with Verifier(workers=1) as rules:
            judged = judge_run(run_dir, rules, judge)
        assert judged.flagged > 0 and judged.llm_calls > 0

    from studybench.pipeline.results import log_split_dirs

    run_id = log_split_dirs([run_dir], settings)
    assert run_id
    produced = every_text(tmp_path)
    assert any(p.suffix == ".gz" for p, _ in produced), "the .jsonl.gz artefacts were written"
    artefacts = tmp_path / "artifacts"  # beside the SQLite store (tracking.artefact_root)
    assert any(artefacts in p.parents for p, _ in produced), "MLflow artefacts were written"
    assert not (tmp_path / "mlruns").exists(), "artefacts must not land in the working directory"
    for path, data in produced:
        for key in KEYS:
            assert key.encode() not in data, f"{key[:12]}... found in {path}"
    for key in KEYS:
        assert key not in caplog.text
    errors = json.loads((run_dir / "generations.json").read_text())
    assert "[REDACTED]" in json.dumps(errors)  # the error text is kept, the key is not
