"""Settings files that must not load silently: a doubled key, a missing named file."""

from __future__ import annotations

from pathlib import Path

import pytest

from studybench.config import load_settings
from studybench.errors import ConfigError

DUPLICATES = [
    ("protocol:\n  seeds: [0, 1, 2]\n  k: 4\n  seeds: [0]\n", "'seeds'", 4),
    ("protocol:\n  k: 4\nprotocol:\n  k: 8\n", "'protocol'", 3),
    ("profiles:\n  fast:\n    protocol: {k: 1, k: 2}\n", "'k'", 3),
]


@pytest.mark.parametrize(("text", "key", "line"), DUPLICATES)
def test_duplicate_key_names_file_and_key(tmp_path: Path, text: str, key: str, line: int) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    message = str(info.value)
    assert message.startswith(str(path)) and key in message and f"line {line}" in message


def test_same_key_in_different_mappings_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("protocol:\n  k: 4\njudge:\n  concurrency: 4\nengine:\n  concurrency: 2\n")
    assert load_settings(path, environ={}).protocol.k == 4


def test_params_env_naming_a_missing_file_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nowhere.yaml"
    monkeypatch.setenv("STUDYBENCH_PARAMS", str(missing))
    with pytest.raises(ConfigError, match=r"nowhere.yaml: settings file not found.*PARAMS"):
        load_settings()


def test_no_params_anywhere_still_gives_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STUDYBENCH_PARAMS", raising=False)
    monkeypatch.chdir(tmp_path)
    assert load_settings(environ={}).protocol.k >= 1
