"""Settings a DAG file reads at parse time (``studybench_airflow.parse_time.setting``) resolve
as :class:`studybench.config.Settings` resolves them: environment override, then the active
profile, then the file, then the default. Each case is checked against the real settings
loader too, so the two readers cannot drift apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from studybench.config import load_settings

PARAMS = {
    "rescore": {"concurrency": 3},
    "nightly": {"schedule": "0 3 * * *"},
    "profiles": {"fast": {"rescore": {"concurrency": 5}}, "empty": {}},
}

# (what, params written, profile, environment, section, field, default, expected)
CASES: list[tuple[str, Any, str, dict[str, str], str, str, Any, Any]] = [
    ("file value", PARAMS, "", {}, "rescore", "concurrency", 2, 3),
    ("profile wins over the file", PARAMS, "fast", {}, "rescore", "concurrency", 2, 5),
    ("a profile without the key: the file", PARAMS, "empty", {}, "rescore", "concurrency", 2, 3),
    ("environment wins over the profile", PARAMS, "fast",
     {"STUDYBENCH__RESCORE__CONCURRENCY": "7"}, "rescore", "concurrency", 2, 7),
    ("string setting from the file", PARAMS, "", {}, "nightly", "schedule", "0 2 * * *",
     "0 3 * * *"),
    ("absent section: the default", {"nightly": {}}, "", {}, "rescore", "concurrency", 2, 2),
    ("empty file: the default", None, "", {}, "rescore", "concurrency", 2, 2),
]  # fmt: skip


@pytest.mark.parametrize(
    ("params", "profile", "env", "section", "field", "default", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_setting_resolves_like_the_settings_loader(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    params: Any,
    profile: str,
    env: dict[str, str],
    section: str,
    field: str,
    default: Any,
    expected: Any,
) -> None:
    from studybench_airflow import parse_time

    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params) if params else "")
    monkeypatch.setattr(parse_time, "REPO", str(tmp_path))
    monkeypatch.delenv("STUDYBENCH_PARAMS", raising=False)
    for name in ("STUDYBENCH__RESCORE__CONCURRENCY", "STUDYBENCH__NIGHTLY__SCHEDULE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STUDYBENCH_PROFILE", profile)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert parse_time.setting(section, field, default) == expected

    monkeypatch.chdir(tmp_path)
    real = getattr(getattr(load_settings(tmp_path / "params.yaml"), section), field)
    if params is None or section not in params:  # the loader's own default is the product's
        return
    assert real == expected


def test_an_unreadable_file_or_value_gives_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studybench_airflow import parse_time

    monkeypatch.setattr(parse_time, "REPO", str(tmp_path))
    monkeypatch.setenv("STUDYBENCH_PARAMS", str(tmp_path / "missing.yaml"))
    assert parse_time.setting("rescore", "concurrency", 2) == 2
    (tmp_path / "bad.yaml").write_text("rescore: {concurrency: many}\n")
    monkeypatch.setenv("STUDYBENCH_PARAMS", str(tmp_path / "bad.yaml"))
    assert parse_time.setting("rescore", "concurrency", 2) == 2
    monkeypatch.setenv("STUDYBENCH__RESCORE__CONCURRENCY", "x")
    assert parse_time.setting("rescore", "concurrency", 2) == 2
