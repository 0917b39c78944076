"""The documentation site: the generated reference is complete (every CLI command, every
settings field with its environment variable, in the Markdown and in the built HTML), the
site builds with ``mkdocs build --strict`` without one warning, every page is reachable from
the nav, and nothing a user reads points at the team's ``../shared`` notes.

Each check is also run on a broken copy (``breakage_cases.json``), so a check that could no
longer fail would fail here. No servers: one strict build of the real tree (a few seconds)
and one per build-breaking case, each into a temporary folder, never into ``build/site``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.docs import checks

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).with_name("breakage_cases.json")).read_text()
)["cases"]


def cases_of(*kinds: str) -> list[Any]:
    return [pytest.param(c, id=c["name"]) for c in CASES if c["kind"] in kinds]


@pytest.fixture(scope="module")
def hook() -> Any:
    return checks.load_hook()


@pytest.fixture(scope="module")
def command_paths(hook: Any) -> list[str]:
    paths: list[str] = hook.cli_command_paths()
    # The walk reaches nested groups: guards against a walker that stops at the top level.
    assert "studybench" in paths and "studybench data validate" in paths
    return paths


@pytest.fixture(scope="module")
def settings_fields(hook: Any) -> list[dict[str, str]]:
    fields: list[dict[str, str]] = list(hook.iter_settings_fields())
    keys = {f["key"] for f in fields}
    assert "protocol.seeds" in keys and any(k.startswith("nightly.models[].") for k in keys)
    return fields


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str]:
    """The real tree built strictly once into a temporary folder."""
    site = tmp_path_factory.mktemp("site")
    returncode, output = checks.mkdocs_build(checks.MKDOCS_YML, site)
    return site, returncode, output


def docs_copy(root: Path) -> Path:
    """A buildable copy of the site's sources (docs/, mkdocs.yml, the package for mkdocstrings)."""
    shutil.copytree(checks.DOCS, root / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(checks.MKDOCS_YML, root / "mkdocs.yml")
    (root / "studybench").symlink_to(checks.ROOT / "studybench", target_is_directory=True)
    return root


# --- the reference is complete


def test_every_command_has_a_section_in_the_cli_reference(
    hook: Any, command_paths: list[str]
) -> None:
    assert checks.missing_commands_markdown(command_paths, hook.cli_reference()) == []


def test_every_settings_field_and_variable_is_in_the_settings_reference(
    hook: Any, settings_fields: list[dict[str, str]]
) -> None:
    assert checks.missing_fields_markdown(settings_fields, hook.settings_reference()) == []


def test_every_top_level_field_can_be_set_from_the_environment(
    settings_fields: list[dict[str, str]],
) -> None:
    """Only fields inside lists (``nightly.models[]``) are file-only; all others name a variable."""
    for field in settings_fields:
        in_list = "[]" in field["key"]
        assert bool(field["env"]) != in_list, field
        if field["env"]:
            assert field["env"] == "STUDYBENCH__" + field["key"].upper().replace(".", "__")


def test_the_built_cli_page_has_every_command(
    built_site: tuple[Path, int, str], command_paths: list[str]
) -> None:
    site, _, _ = built_site
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert checks.missing_commands_html(command_paths, page) == []


def test_the_built_settings_page_has_every_field(
    built_site: tuple[Path, int, str], settings_fields: list[dict[str, str]]
) -> None:
    site, _, _ = built_site
    page = (site / "reference" / "settings" / "index.html").read_text(encoding="utf-8")
    assert checks.missing_fields_html(settings_fields, page) == []


def test_the_build_folder_if_present_is_complete(command_paths: list[str]) -> None:
    """``build/site`` (what ``make docs`` leaves) is checked too when it exists and is current."""
    page = checks.ROOT / "build" / "site" / "reference" / "cli" / "index.html"
    if not page.is_file():
        pytest.skip("no build/site: the temporary build above is checked instead")
    sources = [
        *checks.DOCS.rglob("*"),
        checks.MKDOCS_YML,
        *(checks.ROOT / "studybench" / "cli").rglob("*.py"),
    ]
    if max(p.stat().st_mtime for p in sources if p.is_file()) > page.stat().st_mtime:
        pytest.skip(
            "build/site is older than the sources: the temporary build above is checked instead"
        )
    assert checks.missing_commands_html(command_paths, page.read_text(encoding="utf-8")) == []


# --- the site builds and is navigable


def test_the_site_builds_strictly_without_a_warning(built_site: tuple[Path, int, str]) -> None:
    site, returncode, output = built_site
    assert checks.build_problems(returncode, output) == [], output[-4000:]
    assert (site / "index.html").is_file()


def test_every_page_is_in_the_nav() -> None:
    config = checks.load_config()
    assert checks.pages_outside_nav(checks.DOCS, config) == []
    assert checks.nav_entries_without_page(checks.DOCS, config) == []


def test_no_user_facing_file_points_at_the_team_notes() -> None:
    files = checks.user_facing_files()
    assert checks.ROOT / "README.md" in files and len(files) > 10
    assert checks.forbidden_mentions(files) == []


def test_every_repository_file_a_page_names_exists() -> None:
    """A renamed folder or a moved module that the docs still name fails here."""
    table = json.loads((Path(__file__).with_name("generated_paths.json")).read_text())["paths"]
    pages = sorted(checks.DOCS.rglob("*.md"))
    readme = checks.ROOT / "README.md"
    assert checks.missing_repo_files([*pages, readme], checks.ROOT, table) == []
    named = {name for page in pages for name in checks.named_repo_files(page.read_text())}
    assert sorted(set(table) - named) == [], "generated_paths.json lists paths no page names"
    assert len(named) > 30  # the scan finds paths at all


def test_the_readme_links_resolve() -> None:
    """The README sends a newcomer into the docs: every relative link it has must land."""
    readme = checks.ROOT / "README.md"
    assert checks.broken_relative_links(readme, checks.ROOT) == []


def test_a_broken_readme_link_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "README.md"
    page.write_text(
        "[a](docs/gone.md) [b](docs/index.md#x) [c](https://example.org/x.md) [d](#top)\n",
        encoding="utf-8",
    )
    assert checks.broken_relative_links(page, checks.ROOT) == ["docs/gone.md"]


def test_the_pictures_need_no_network(built_site: tuple[Path, int, str]) -> None:
    """The site works offline: no page loads a script or an image from another host."""
    site, _, _ = built_site
    pages = list(site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        assert checks.remote_resources(page.read_text(encoding="utf-8")) == [], page


# --- each check can fail


@pytest.mark.parametrize("case", cases_of("cli_markdown", "settings_markdown"))
def test_a_broken_reference_text_is_reported(
    case: dict[str, Any], hook: Any, command_paths: list[str], settings_fields: list[dict[str, str]]
) -> None:
    if case["kind"] == "cli_markdown":
        text = hook.cli_reference()
        assert case["old"] in text, case
        missing = checks.missing_commands_markdown(
            command_paths, text.replace(case["old"], case["new"])
        )
    else:
        text = hook.settings_reference()
        assert case["old"] in text, case
        missing = checks.missing_fields_markdown(
            settings_fields, text.replace(case["old"], case["new"])
        )
    assert case["expect"] in missing


@pytest.mark.parametrize("case", cases_of("cli_html", "settings_html"))
def test_a_broken_built_page_is_reported(
    case: dict[str, Any],
    built_site: tuple[Path, int, str],
    command_paths: list[str],
    settings_fields: list[dict[str, str]],
) -> None:
    site, _, _ = built_site
    name = "cli" if case["kind"] == "cli_html" else "settings"
    page = (site / "reference" / name / "index.html").read_text(encoding="utf-8")
    assert case["old"] in page, case
    broken = page.replace(case["old"], case["new"])
    if name == "cli":
        missing = checks.missing_commands_html(command_paths, broken)
    else:
        missing = checks.missing_fields_html(settings_fields, broken)
    assert case["expect"] in missing


@pytest.mark.parametrize("case", cases_of("nav", "forbidden"))
def test_an_orphan_page_or_a_team_notes_link_is_reported(
    case: dict[str, Any], tmp_path: Path
) -> None:
    root = docs_copy(tmp_path)
    shutil.copy(checks.ROOT / "README.md", root / "README.md")
    page = root / "docs" / case["file"]
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(case["text"], encoding="utf-8")
    if case["kind"] == "nav":
        assert case["expect"] in checks.pages_outside_nav(
            root / "docs", checks.load_config(root / "mkdocs.yml")
        )
    else:
        hits = checks.forbidden_mentions(checks.user_facing_files(root))
        assert any(hit.endswith(case["expect"]) for hit in hits), hits


@pytest.mark.parametrize("case", cases_of("build"))
def test_a_broken_link_fails_the_strict_build(case: dict[str, Any], tmp_path: Path) -> None:
    root = docs_copy(tmp_path / "src")
    page = root / "docs" / case["file"]
    page.parent.mkdir(parents=True, exist_ok=True)
    with page.open("a", encoding="utf-8") as out:
        out.write(case["append"])
    returncode, output = checks.mkdocs_build(root / "mkdocs.yml", tmp_path / "site")
    problems = checks.build_problems(returncode, output)
    assert returncode != 0 and any(case["expect"] in p for p in problems), output[-4000:]


@pytest.mark.parametrize("case", cases_of("remote"))
def test_a_page_loading_from_another_host_is_reported(case: dict[str, Any]) -> None:
    assert bool(checks.remote_resources(case["text"])) is case["expect"]


@pytest.mark.parametrize("case", cases_of("path"))
def test_a_page_naming_a_missing_file_is_reported(case: dict[str, Any], tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(case["text"], encoding="utf-8")
    assert checks.missing_repo_files([page], checks.ROOT) == case["expect"]
