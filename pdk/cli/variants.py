"""``pdk variants``: list the rule profiles, explain one, or validate a user's YAML."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from pdk.cli.common import JsonOpt, LangOpt, fail, lang_or_fail, out_console, profile_or_fail
from pdk.cli.prose import Prose
from pdk.cli.table import NARROW
from pdk.engine.profile import ProfileError
from pdk.text.catalog import tr
from pdk.variants.registry import available_profiles, load_profile, profile_path
from pdk.view.rules_in_words import explain, sections

variants_app = typer.Typer(
    name="variants",
    help="List the rule profiles, explain one (show), or validate your own (check).",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


@variants_app.callback()
def list_variants(
    ctx: typer.Context,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List every shipped profile with a one-line description."""
    if ctx.invoked_subcommand is not None:
        return
    language = lang_or_fail(lang)
    try:
        profiles = sorted(available_profiles(), key=lambda p: (p.name != "classic16", p.name))
    except ProfileError as exc:
        fail(exc.message(language))
    if as_json:
        rows = [
            {
                "name": p.name,
                "aliases": list(p.aliases),
                "title": p.title.model_dump(),
                "description": p.description.model_dump(),
            }
            for p in profiles
        ]
        print(json.dumps(rows, ensure_ascii=False))
        return
    console = out_console()
    if console.width < NARROW:
        # A phone-sized terminal: a table's description column would be a few characters
        # wide; each profile gets its name line and its description below instead.
        lines: list[RenderableType] = [Text(tr("variants_title", language), style="bold")]
        for p in profiles:
            head = Text(p.name, style="bold cyan")
            if p.aliases:
                head.append(" (" + ", ".join(p.aliases) + ")", style="dim")
            lines += [head, Padding(Prose(p.description.said.text(language)), (0, 0, 0, 2))]
        console.print(Group(*lines))
    else:
        table = Table(title=tr("variants_title", language), title_justify="left")
        table.add_column(tr("variants_col_name", language), no_wrap=True)
        table.add_column(tr("variants_col_aliases", language))
        table.add_column(tr("variants_col_desc", language))
        for p in profiles:
            table.add_row(p.name, ", ".join(p.aliases), Prose(p.description.said.text(language)))
        console.print(table)
    console.print(Group(Prose(tr("variants_more", language))))


@variants_app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="A profile name or alias, or a path to a .yaml file.")],
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    as_yaml: Annotated[
        bool,
        typer.Option("--yaml", help="Print the profile file itself, comments included (to copy and edit)."),
    ] = False,
) -> None:
    """Explain a profile's rules in plain words (generated from its knobs)."""
    language = lang_or_fail(lang)
    profile = profile_or_fail(name, language)
    if as_yaml:
        try:
            print(profile_path(name).read_text(encoding="utf-8"), end="")
        except ProfileError as exc:
            fail(exc.message(language))
        except OSError as exc:
            fail(tr("variants_cannot_read", language, path=exc.filename or name, detail=exc.strerror or exc))
        return
    if as_json:
        out = {
            "name": profile.name,
            "lang": language,
            "sections": [{"title": t, "rules": lines} for t, lines in sections(profile, language)],
            "profile": profile.model_dump(mode="json"),
        }
        print(json.dumps(out, ensure_ascii=False))
        return
    # Each rule wraps under its own text (Prose hangs a bullet), at the terminal's width,
    # breaking between Chinese characters.
    out_console().print(Group(Prose(explain(profile, language))))


@variants_app.command("check")
def check_file(
    path: Annotated[Path, typer.Argument(help="Your profile, a .yaml file.")],
    lang: LangOpt = None,
) -> None:
    """Validate a profile file: every bad field is named (exit 2 if any)."""
    language = lang_or_fail(lang)
    if path.suffix not in {".yaml", ".yml"}:
        fail(tr("variants_not_yaml", language, path=path))
    try:
        profile = load_profile(path)
    except ProfileError as exc:
        fail(exc.message(language))
    title = profile.title.said.text(language)
    out_console().print(tr("variants_ok", language, path=path, name=profile.name, title=title), markup=False)
