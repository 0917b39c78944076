"""The suite's depfile cache (``cached_with_sources`` in tests/conftest.py), which keeps the
tiny model's training run until a module the training loaded changes: a change to such a
module builds again, a change to any other file does not, and an entry is only ever used
while every file it recorded still has the content it was built from."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SOURCES_FILE, cached_with_sources


def test_a_recorded_source_rebuilds_and_an_unrecorded_one_does_not(tmp_path: Path) -> None:
    root, cache = tmp_path / "repo", tmp_path / "cache"
    (root / "pkg").mkdir(parents=True)
    used, unused = root / "pkg" / "used.py", root / "pkg" / "unused.py"
    used.write_text("A = 1\n")
    unused.write_text("B = 1\n")
    builds: list[Path] = []

    def build(path: Path) -> None:
        path.mkdir()
        (path / "made").write_text(used.read_text() if used.exists() else "gone")
        builds.append(path)

    def get(inputs: str = "inputs") -> Path:
        return cached_with_sources(
            "trained", inputs, build, sources=lambda: ["pkg/used.py"], root=root, cache=cache
        )

    first = get()
    assert (first / "made").read_text() == "A = 1\n"
    assert (first / SOURCES_FILE).is_file() and first.name.startswith("inputs-")
    assert get() == first and len(builds) == 1  # nothing changed: the same entry

    unused.write_text("B = 2\n")  # a module the build never loaded
    assert get() == first and len(builds) == 1

    used.write_text("A = 2\n")  # a module it loaded: built again, from the new content
    second = get()
    assert second != first and len(builds) == 2
    assert (second / "made").read_text() == "A = 2\n"

    used.write_text("A = 1\n")  # back: the first entry is valid again
    assert get() == first and len(builds) == 2

    used.unlink()  # gone: no entry recorded it gone, so a new build
    get()
    assert len(builds) == 3

    get("other inputs")  # other inputs: their own entries
    assert len(builds) == 4
