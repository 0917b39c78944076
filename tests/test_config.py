from __future__ import annotations

from pathlib import Path

import pytest

from studybench.config import ProtocolSettings, Settings, load_settings
from studybench.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def test_committed_params_match_the_paper_protocol() -> None:
    settings = load_settings(ROOT / "params.yaml", environ={})
    protocol = settings.protocol
    assert (protocol.k, protocol.seeds) == (8, (0, 1, 2))
    assert (protocol.temperature, protocol.top_p, protocol.top_k) == (1.0, 0.95, 20)
    assert protocol.max_tokens == 32768
    assert protocol.thinking and protocol.strip_think_before_judging
    for path in settings.data.model_dump().values():
        assert (ROOT / path).exists(), path


def test_params_file_spells_out_every_default() -> None:
    """params.yaml documents the whole tree: every field appears there explicitly."""
    import yaml

    raw = yaml.safe_load((ROOT / "params.yaml").read_text())
    for section, model in Settings.model_fields.items():
        assert model.annotation is not None
        assert set(raw[section]) == set(model.annotation.model_fields), section  # type: ignore[union-attr]


def test_missing_default_file_gives_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_settings(environ={}) == Settings()


def test_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.yaml", environ={})


def test_environment_overrides(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("protocol:\n  k: 8\njudge:\n  model: a\n")
    env = {
        "STUDYBENCH__PROTOCOL__K": "4",
        "STUDYBENCH__PROTOCOL__SEEDS": "[7]",
        "STUDYBENCH__JUDGE__MODEL": "b",
        "STUDYBENCH_PARAMS": "ignored here: an explicit path wins",
        "OTHER": "1",
    }
    settings = load_settings(path, environ=env)
    assert settings.protocol.k == 4
    assert settings.protocol.seeds == (7,)
    assert settings.judge.model == "b"


def test_unknown_key_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("protocol:\n  kk: 8\n")
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    assert f"{path}: unknown key 'protocol.kk'" in str(info.value)


def test_unknown_section_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("protocl:\n  k: 8\n")
    with pytest.raises(ConfigError, match=r"unknown key 'protocl'"):
        load_settings(path, environ={})


def test_unknown_env_key_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(ROOT / "params.yaml", environ={"STUDYBENCH__JUDGE__MODLE": "x"})
    assert "environment variable STUDYBENCH__JUDGE__MODLE: unknown key 'judge.modle'" in str(
        info.value
    )


def test_bad_value_names_origin_and_key(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("protocol:\n  top_p: 2.0\n")
    with pytest.raises(ConfigError, match=r"params.yaml: 'protocol.top_p': Input should be less"):
        load_settings(path, environ={})
    with pytest.raises(ConfigError, match=r"STUDYBENCH__PROTOCOL__K: 'protocol.k'"):
        load_settings(ROOT / "params.yaml", environ={"STUDYBENCH__PROTOCOL__K": "zero"})


def test_invalid_yaml_and_non_mapping(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("protocol: [unclosed\n")
    with pytest.raises(ConfigError, match="invalid YAML"):
        load_settings(path, environ={})
    path.write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="top level must be a mapping"):
        load_settings(path, environ={})


def test_env_override_into_a_value_is_an_error() -> None:
    with pytest.raises(ConfigError, match="is a value, not a section"):
        load_settings(ROOT / "params.yaml", environ={"STUDYBENCH__PROTOCOL__K__X": "1"})


def test_duplicate_seeds_rejected() -> None:
    with pytest.raises(ValueError, match="distinct"):
        ProtocolSettings(seeds=(0, 0))


def test_protocol_hash_is_stable_and_sensitive() -> None:
    base = ProtocolSettings()
    assert base.protocol_hash() == ProtocolSettings().protocol_hash()
    assert base.protocol_hash() != ProtocolSettings(k=4).protocol_hash()
    assert len(base.protocol_hash()) == 12


def test_settings_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(ValueError, match="frozen"):
        settings.protocol.k = 3  # type: ignore[misc]


def test_profile_overlays_the_file_and_env_still_wins(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(
        "protocol: {k: 8, seeds: [0, 1, 2]}\n"
        "profiles:\n  quick: {protocol: {k: 2}, paths: {work_dir: /tmp/q}}\n"
    )
    assert load_settings(path, environ={}).protocol.k == 8
    quick = load_settings(path, environ={"STUDYBENCH_PROFILE": "quick"})
    assert (quick.protocol.k, quick.protocol.seeds, str(quick.paths.work_dir)) == (
        2,
        (0, 1, 2),
        "/tmp/q",
    )
    env = {"STUDYBENCH_PROFILE": "quick", "STUDYBENCH__PROTOCOL__K": "4"}
    assert load_settings(path, environ=env).protocol.k == 4
    with pytest.raises(ConfigError, match=r"no profile 'slow' under 'profiles' \(known: quick\)"):
        load_settings(path, environ={}, profile="slow")


def test_profile_errors_name_the_profile(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("profiles:\n  bad: {protocol: {kk: 2}}\n")
    with pytest.raises(ConfigError, match=r"profile bad\): unknown key 'protocol.kk'"):
        load_settings(path, environ={}, profile="bad")


def test_demo_profile_of_the_project_is_valid() -> None:
    demo = load_settings(ROOT / "params.yaml", environ={}, profile="demo")
    assert demo.protocol.k == 2 and demo.judge.llm_enabled is False
    assert "memorisation" in demo.checkpoints.splits
    assert str(demo.paths.work_dir) == "work/demo"


def test_nightly_models_need_exactly_one_location(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text("nightly:\n  models:\n    - {name: a, path: /x, base_url: http://h/v1}\n")
    with pytest.raises(
        ConfigError, match=r"nightly\.models\.0.*exactly one of path, root, base_url"
    ):
        load_settings(path, environ={})
    path.write_text("nightly:\n  models:\n    - {name: a, base_url: http://h/v1}\n")
    with pytest.raises(ConfigError, match="base_url needs model"):
        load_settings(path, environ={})
