"""Secret scrubbing: every planted secret is removed, ordinary benchmark text survives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from studybench import secrets
from studybench.config import Settings
from studybench.secrets import REDACTED, scrub_secrets, scrub_tree, secret_env_names

CASES: dict[str, Any] = json.loads(
    (Path(__file__).parent / "secrets_cases.json").read_text(encoding="utf-8")
)


@pytest.fixture(autouse=True)
def _planted_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in CASES["env"].items():
        monkeypatch.setenv(name, value)
    secrets.register_secret_env(*CASES["registered_env"])


@pytest.mark.parametrize("case", CASES["positives"], ids=lambda c: c["name"])
def test_secret_is_removed(case: dict[str, str]) -> None:
    out = scrub_secrets(case["text"])
    assert case["secret"] not in out
    assert REDACTED in out


@pytest.mark.parametrize("case", CASES["negatives"], ids=lambda c: c["name"])
def test_ordinary_text_survives(case: dict[str, str]) -> None:
    assert scrub_secrets(case["text"]) == case["text"]


def test_scrubbing_is_idempotent() -> None:
    for case in CASES["positives"]:
        once = scrub_secrets(case["text"])
        assert scrub_secrets(once) == once


def test_settings_name_every_key_variable() -> None:
    names = secret_env_names(Settings())
    assert {"STUDYBENCH_JUDGE_API_KEY", "STUDYBENCH_ENGINE_API_KEY"} <= names
    assert "STUDYBENCH_TEACHER_API_KEY" in names
    assert "STUDYBENCH_AIRFLOW_PASSWORD" in names


def test_a_renamed_key_variable_is_scrubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = {"judge": {"api_key_env": "MY_LAB_JUDGE"}, "engine": {"vllm_env": {"A": "b"}}}
    assert secrets.register_settings(settings) == {"MY_LAB_JUDGE"}
    monkeypatch.setenv("MY_LAB_JUDGE", "lab-judge-value-000111")
    assert "lab-judge-value-000111" not in scrub_secrets("echo lab-judge-value-000111")


def test_value_registered_in_memory() -> None:
    secrets.register_secret_value("in-memory-only-key-42")
    assert scrub_secrets("got in-memory-only-key-42") == f"got {REDACTED}"


def test_tree_scrubbing_keeps_structure() -> None:
    key = CASES["env"]["STUDYBENCH_JUDGE_API_KEY"]
    tree = {"error": {"message": f"bad key {key}", "code": 401}, "list": [key, 3]}
    out = scrub_tree(tree)
    assert out == {"error": {"message": f"bad key {REDACTED}", "code": 401}, "list": [REDACTED, 3]}


def test_every_log_record_is_scrubbed(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    import studybench  # noqa: F401  (installs the record factory)

    key = CASES["env"]["STUDYBENCH_JUDGE_API_KEY"]
    caplog.set_level(logging.INFO)
    logging.getLogger("httpx").warning("401 for %s", f"Authorization: Bearer {key}")
    try:
        raise RuntimeError(f"provider said: bad key {key}")
    except RuntimeError:
        logging.getLogger("studybench.anything").exception("judge call failed")
    assert key not in caplog.text
    assert "401 for" in caplog.text and "judge call failed" in caplog.text
