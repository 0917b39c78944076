from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest

from studybench.config import (
    RENAMED_KEYS,
    RENAMED_VALUES,
    EndpointSettings,
    GuidanceTeacherSettings,
    JudgeSettings,
    ProtocolSettings,
    SamplingSettings,
    Settings,
    load_settings,
)
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


def test_the_one_protocol_hash_is_stable_and_sensitive() -> None:
    """There is one protocol hash, the one that keys stored results (issue: two existed)."""
    from studybench.benchmarks.studybench.protocol import protocol_hash

    base = protocol_hash(Settings())
    assert base == protocol_hash(Settings())
    assert base != protocol_hash(Settings(protocol=ProtocolSettings(k=4)))
    assert base != protocol_hash(Settings(protocol=ProtocolSettings(temperature=0.5)))
    assert not hasattr(ProtocolSettings(), "protocol_hash")


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


RENAMED = json.loads((Path(__file__).with_name("config_renamed_cases.json")).read_text())


@pytest.mark.parametrize("case", RENAMED["cases"], ids=lambda c: c["name"])
def test_renamed_keys_name_the_new_key(case: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(case.get("yaml", ""))
    with pytest.raises(ConfigError) as caught:
        load_settings(path, environ=case.get("env", {}), profile=case.get("profile"))
    assert case["expect"] in str(caught.value)
    if case["old"] and "env" not in case:
        assert str(path) in str(caught.value)


def test_every_rename_has_a_case_and_its_new_key_exists() -> None:
    covered = {c["old"] for c in RENAMED["cases"]}
    for old, new in RENAMED_KEYS.items():
        assert old in covered, old
        node: Any = Settings
        for part in new.split("."):
            node = node.model_fields[part].annotation
        assert node is not None, new
    for key, values in RENAMED_VALUES.items():
        for old_value, new_value in values.items():
            assert f"{key}={old_value}" in covered
            section, field = key.split(".")
            section_model: Any = Settings.model_fields[section].annotation
            assert new_value in get_args(section_model.model_fields[field].annotation)


def test_endpoint_sections_share_one_model() -> None:
    """Engine, judge, teacher, admission, the build's filter and the recipes' chat models are
    one endpoint shape; each keeps its own defaults (those of before the consolidation)."""
    s = load_settings(ROOT / "params.yaml", environ={})
    endpoints = [
        s.engine,
        s.judge,
        s.guidance.teacher,
        s.guidance.admit,
        s.build.filter,
        s.training.synth.generator,
        s.training.prompts.task,
    ]
    for endpoint in endpoints:
        assert isinstance(endpoint, EndpointSettings)
        assert set(EndpointSettings.model_fields) <= set(type(endpoint).model_fields)
    assert (s.engine.concurrency, s.engine.request_timeout_s) == (64, 1800.0)
    assert (s.judge.base_url, s.judge.api_key_env) == (
        "http://127.0.0.1:8001/v1",
        "STUDYBENCH_JUDGE_API_KEY",
    )
    assert (s.guidance.admit.concurrency, s.training.synth.generator.concurrency) == (64, 8)
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        JudgeSettings(concurrency=0)  # the constraint is the shared one
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        GuidanceTeacherSettings(max_retries=-1)


def test_protocol_is_the_sampling_model_and_its_hash_did_not_move() -> None:
    """Stored results are keyed by this hash: regrouping the settings must not change it."""
    assert issubclass(ProtocolSettings, SamplingSettings)
    from studybench.benchmarks.studybench.protocol import protocol_hash

    assert protocol_hash(Settings()) == "8f59016f982f63a1"
    assert protocol_hash(load_settings(ROOT / "params.yaml", environ={})) == "8f59016f982f63a1"


def test_training_recipes_are_the_settings_sections() -> None:
    from studybench.training.grpo import RLRecipe
    from studybench.training.sft import SFTRecipe

    s = load_settings(ROOT / "params.yaml", environ={})
    assert RLRecipe(**s.training.grpo.model_dump()) == RLRecipe()  # params = the defaults
    assert SFTRecipe(**s.training.sft.model_dump()) == SFTRecipe()
    assert (SFTRecipe().steps, SFTRecipe().learning_rate) == (500, 1e-5)
    demo = load_settings(ROOT / "params.yaml", environ={}, profile="demo").training.sft
    assert (demo.steps, demo.learning_rate, demo.save_steps) == (160, 5e-3, 40)


def test_benchmark_sections_are_declared_beside_their_code() -> None:
    """Each benchmark declares its settings section in its own package; the tree names that
    type (so mypy sees its fields), and the old import path keeps working."""
    import studybench.config as config
    from studybench.benchmarks.evalearn.settings import EvaLearnSettings
    from studybench.benchmarks.sebench.settings import SEBenchSettings

    assert Settings.model_fields["evalearn"].annotation is EvaLearnSettings
    assert Settings.model_fields["sebench"].annotation is SEBenchSettings
    assert (config.EvaLearnSettings, config.SEBenchSettings) == (EvaLearnSettings, SEBenchSettings)
