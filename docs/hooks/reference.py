"""MkDocs hook: the CLI and settings reference pages are generated from the code at build time.

Why a hook and not committed Markdown: a reference written by hand (or generated once and
committed) drifts the day a command or a field is renamed. Here ``reference/cli.md`` and
``reference/settings.md`` hold one placeholder line each; the hook replaces it with text
walked from the typer app (every group, command, argument and option) and from the pydantic
settings tree (every field, its type, default, description and ``STUDYBENCH__…`` variable).
``mkdocs build --strict`` in ``make test`` therefore fails when the code and the docs part.

The functions are plain (no MkDocs objects) so ``tests/docs`` can check completeness.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from pathlib import PurePath
from typing import Any

CLI_PLACEHOLDER = "<!-- studybench:cli-reference -->"
SETTINGS_PLACEHOLDER = "<!-- studybench:settings-reference -->"
ENV_PREFIX = "STUDYBENCH__"


# --------------------------------------------------------------------------- the CLI


def _cell(text: str) -> str:
    """One Markdown table cell: no pipes or newlines break the row."""
    return " ".join(text.split()).replace("|", "\\|")


def _is_group(command: Any) -> bool:
    """Typer 0.29 vendors click (``typer._click``): groups are known by their behaviour."""
    return hasattr(command, "list_commands")


def _context(command: Any) -> Any:
    """A click context of the command's own click (typer's vendored one or click itself)."""
    context_class = getattr(command, "context_class", None)
    if context_class is None:  # pragma: no cover - every click command has one
        raise TypeError(f"{command!r} is not a click command")
    return context_class(command)


def iter_commands(
    command: Any, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command of a click tree, groups first, depth first, in the app's order."""
    yield path, command
    if _is_group(command):
        ctx = _context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not getattr(sub, "hidden", False):
                yield from iter_commands(sub, (*path, name))


def cli_command_paths() -> list[str]:
    """``studybench a b`` for every command and group the app exposes."""
    import typer

    from studybench.cli import app

    root = typer.main.get_command(app)
    return [" ".join(("studybench", *path)) for path, _ in iter_commands(root)]


def _param_type(param: Any) -> str:
    """The value type of a parameter: typer's annotation when present, else click's type."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return _type_name(descriptor.annotation)
    kind = getattr(param, "type", None)
    return str(getattr(kind, "name", kind or "text"))


def _param_row(param: Any) -> str:
    is_argument = param.param_type_name == "argument"
    if is_argument:
        name = f"`{param.name.upper()}`"
        kind = _param_type(param) + " argument" + ("" if param.required else " (optional)")
    else:
        name = ", ".join(f"`{opt}`" for opt in (*param.opts, *param.secondary_opts))
        kind = "flag" if getattr(param, "is_flag", False) else _param_type(param)
    default = param.default
    shown = "" if default is None or callable(default) or default == () else f"`{default!r}`"
    if getattr(param, "required", False) and not is_argument:
        shown = "required"
    elif isinstance(default, PurePath):
        shown = f"`{default}`"
    help_text = getattr(param, "help", None) or ""
    return f"| {name} | {_cell(kind)} | {_cell(shown)} | {_cell(help_text)} |"


def cli_reference() -> str:
    """The Markdown of the CLI reference: one section per command, a table of its parameters."""
    import typer

    from studybench.cli import app

    root = typer.main.get_command(app)
    out: list[str] = []
    for path, command in iter_commands(root):
        title = " ".join(("studybench", *path))
        level = "#" * min(2 + max(len(path) - 1, 0), 4)
        out.append(f"{level} `{title}`")
        out.append("")
        text = (command.help or "").strip()
        if text:
            out.append(text.split("\n\n")[0].strip())
            out.append("")
        if _is_group(command):
            names = command.list_commands(_context(command))
            out.append("Commands: " + ", ".join(f"`{n}`" for n in names) + ".")
            out.append("")
            continue
        params = [p for p in command.params if p.name not in {"help"}]
        if params:
            out.append("| parameter | kind | default | help |")
            out.append("|---|---|---|---|")
            out.extend(_param_row(p) for p in params)
            out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- settings


def _type_name(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if annotation is type(None):
        return "None"
    if origin is typing.Literal:
        return " | ".join(repr(a) for a in typing.get_args(annotation))
    if origin is typing.Annotated:
        return _type_name(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(annotation))
    if origin is not None:
        args = ", ".join(
            "..." if a is Ellipsis else _type_name(a) for a in typing.get_args(annotation)
        )
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    return getattr(annotation, "__name__", str(annotation))


def _model_of(annotation: Any) -> tuple[type[Any] | None, bool]:
    """The pydantic model a field holds, and whether it is a sequence of them."""
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if (
        origin in (tuple, list)
        and args
        and isinstance(args[0], type)
        and issubclass(args[0], BaseModel)
    ):
        return args[0], True
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            model, many = _model_of(arg)
            if model is not None:
                return model, many
    return None, False


def iter_settings_fields(
    model: type[Any] | None = None, prefix: tuple[str, ...] = ()
) -> Iterator[dict[str, str]]:
    """Every leaf field of the settings tree with its key, type, default and description.

    A field that holds a section recurses; a list of sections (``nightly.models``) is
    documented as ``models[]`` with the fields of one entry.
    """
    from pydantic_core import PydanticUndefined

    if model is None:
        from studybench.config.settings import Settings

        model = Settings
    for name, field in model.model_fields.items():
        sub, many = _model_of(field.annotation)
        key = (*prefix, name + ("[]" if many else ""))
        if sub is not None:
            yield from iter_settings_fields(sub, key)
            continue
        default = field.default
        if default is PydanticUndefined and field.default_factory is not None:
            # a mutable default (a dict, a list): the value the factory gives is the default;
            # a factory of the other fields' values has none of its own
            factory: Any = field.default_factory
            shown = "(computed)" if field.default_factory_takes_validated_data else repr(factory())
        elif default is PydanticUndefined:
            shown = "required"
        elif isinstance(default, PurePath):
            shown = str(default)
        else:
            shown = repr(default)
        env = (
            ""
            if many or any(k.endswith("[]") for k in key)
            else ENV_PREFIX + "__".join(k.upper() for k in key)
        )
        yield {
            "key": ".".join(key),
            "type": _type_name(field.annotation),
            "default": shown,
            "description": field.description or "",
            "env": env,
            "section": ".".join(key[:-1]) or "(root)",
        }


def settings_reference() -> str:
    """The Markdown of the settings reference: one table per section."""
    out: list[str] = []
    section = None
    for row in iter_settings_fields():
        if row["section"] != section:
            section = row["section"]
            out += [
                "",
                f"## `{section}`",
                "",
                "| key | type | default | environment variable | description |",
            ]
            out.append("|---|---|---|---|---|")
        env = f"`{row['env']}`" if row["env"] else "(in params.yaml)"
        cells = (f"`{row['key']}`", _cell(row["type"]), f"`{_cell(row['default'])}`", env)
        out.append("| " + " | ".join((*cells, _cell(row["description"]))) + " |")
    return "\n".join(out).strip() + "\n"


# --------------------------------------------------------------------------- the hook


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the placeholders with the generated reference."""
    if CLI_PLACEHOLDER in markdown:
        markdown = markdown.replace(CLI_PLACEHOLDER, cli_reference())
    if SETTINGS_PLACEHOLDER in markdown:
        markdown = markdown.replace(SETTINGS_PLACEHOLDER, settings_reference())
    return markdown
