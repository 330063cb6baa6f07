"""Your table: ``rpgdice paths``, ``rpgdice char new|set|show|list|rm`` and
``rpgdice alias``. What they keep is plain TOML (rpgdice.table)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from rpgdice import rulesets
from rpgdice.cli import params
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError, shown, visible

if TYPE_CHECKING:
    from rich.console import Console

    from rpgdice.table.sheets import Relative

# Their commands are common.Command: usage lines show NAME, not Typer's {NAME}.
paths_app = RulesetTyper(add_completion=False, rich_markup_mode="markdown", command_cls=Command)
char_app = RulesetTyper(
    add_completion=False, no_args_is_help=True, rich_markup_mode="markdown",
    help="Character sheets: one TOML file per character, rolled with --as NAME.",
    command_cls=Command,
)
alias_app = RulesetTyper(add_completion=False, rich_markup_mode="markdown", command_cls=Command)

JsonOpt = Annotated[bool, typer.Option("--json", help="JSON: one object per line.")]
NameArg = Annotated[
    str,
    typer.Argument(parser=params.character, metavar="NAME", show_default=False,
                   help="The character's name (case, accents, spaces, hyphens and "
                   "underscores aside)."),
]


def _write_json(objects: Sequence[Mapping[str, object]]) -> None:
    sys.stdout.write("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects))
    sys.stdout.flush()


def _console() -> Console:
    from rpgdice.render.common import console

    return console()


# paths -------------------------------------------------------------------------


@paths_app.command("paths")
def paths_cmd(as_json: JsonOpt = False) -> None:
    """Print where rpgdice keeps your files: config.toml (aliases), characters/ (sheets)
    and the roll log.

    RPGDICE_HOME, when set, holds them all; otherwise the platform's places (on Linux
    $XDG_CONFIG_HOME/rpgdice and $XDG_STATE_HOME/rpgdice). Nothing is created until a
    command writes.
    """
    from rpgdice.table import paths

    places = {
        "config": str(paths.config_file()),
        "characters": str(paths.characters_dir()),
        "log": str(paths.log_file()),
        "home": str(paths.home()) if paths.home() is not None else None,
    }
    if as_json:
        _write_json([places])
        return
    width = max(len(k) for k in places)
    lines = [f"{k:<{width}}  {v}" for k, v in places.items() if v is not None]
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()


# char --------------------------------------------------------------------------


def _pairs(pairs: list[str] | None, removing: bool) -> JSONObject:
    """``TRAIT=VALUE`` arguments; VALUE ``-`` (with ``char set``) removes the trait."""
    from rpgdice.table import sheets

    out: JSONObject = {}
    for pair in pairs or []:
        trait, sep, value = pair.partition("=")
        if not sep:
            raise RulesError("TRAIT=VALUE", f"{shown(pair)} has no '='; accepts TRAIT=VALUE "
                             "such as dexterity=3")
        if trait.rstrip().endswith(("+", "-")):  # `willpower-=1`: a relative change
            if not removing:
                raise RulesError("TRAIT=VALUE", f"{shown(pair)}: a relative change (TRAIT+=N, "
                                 "TRAIT-=N) is for char set; a new sheet takes TRAIT=VALUE")
            sign = trait.rstrip()[-1]
            trait = sheets.check_trait_name(trait.rstrip()[:-1])
            out[trait] = _relative(pair, sign, value)
            continue
        trait = sheets.check_trait_name(trait)
        if value.strip() == "-":
            if not removing:
                raise RulesError("TRAIT=VALUE", f"{shown(pair)}: '-' removes a trait, with char set")
            out[trait] = None
        else:
            out[trait] = value
    return out


def _relative(pair: str, sign: str, value: str) -> Relative:
    """``TRAIT+=N`` / ``TRAIT-=N``: N a whole number from 0 to the most a trait holds."""
    import re

    from rpgdice.table import sheets

    text = value.strip()
    if not re.fullmatch(r"[0-9]{1,6}", text) or int(text) > sheets.MAX_VALUE:
        raise RulesError("TRAIT=VALUE", f"{shown(pair)}: {shown(value)} is not a whole number "
                         f"from 0 to {sheets.MAX_VALUE}; nothing was changed")
    n = int(text)
    return sheets.Relative(n if sign == "+" else -n, pair)


PairsArg = Annotated[
    Optional[list[str]],
    typer.Argument(metavar="TRAIT=VALUE...", show_default=False,
                   help="Traits: whole numbers (dexterity=3), and the reserved ones: Seyruun "
                   "willpower, wound=none|light|moderate|severe|crippled; Cypher might, speed, "
                   "intellect, might-edge, speed-edge, intellect-edge, effort, and "
                   "SKILL=trained|specialized|inability."),
]


NewNameArg = Annotated[
    str,
    typer.Argument(metavar="NAME", show_default=False,
                   help="The new character's name: letters, digits, spaces, - and _ (at most 40)."),
]


def _or_own(parse: Callable[[str], str]) -> Callable[[str], str]:
    """``parse``, or a user's ruleset file's name (a file added since the list was made;
    a broken one is named with its problem)."""

    def or_own(text: str) -> str:
        word = text.strip() if isinstance(text, str) else text
        if isinstance(word, str) and word not in rulesets.built_in(groups=True) and rulesets.known(word) \
                and rulesets.get(word).sheet is not None:
            return word
        return parse(text)

    or_own.__dict__.update(parse.__dict__)  # its choices, for help and completion
    return or_own


@char_app.command("new")
def char_new(
    name: NewNameArg,
    ruleset: Annotated[str, typer.Option(
        "--ruleset", parser=_or_own(params.choice(dict.fromkeys(rulesets.built_in(groups=True)), {
            r: f"a {rulesets.get(r).short} character" for r in rulesets.built_in(groups=True)},
            current=rulesets.group_names)),
        metavar="RULESET", help="The character's ruleset: "
        + ", ".join(rulesets.built_in(groups=True)) + ".",
        show_default=False)],
    pairs: PairsArg = None,
) -> None:
    """Create a character sheet (characters/NAME.toml).

    A new Seyruun sheet starts with Willpower at its maximum (composure + resolve) when
    both are given and willpower is not.

    Example: rpgdice char new Ysolde --ruleset seyruun dexterity=3 stealth=3 composure=3 resolve=2
    """
    from rpgdice.table import sheets

    given = _pairs(pairs, removing=False)
    sheet = sheets.new(name, ruleset, given)
    _say(f"created {visible(sheet.name)} ({sheet.ruleset}): {visible(sheet.path)}")
    _warn_near_misses(sheet.name, ruleset, given)


def _warn_near_misses(who: str, ruleset: str, given: JSONObject) -> None:
    """A trait named close to one the ruleset knows (``intelect`` for Cypher's
    ``intellect``) is kept as given, with a warning: it would otherwise read as a skill."""
    from difflib import get_close_matches

    from rpgdice.cli.output import warning
    from rpgdice.core.names import fold
    from rpgdice.table import sheets

    schema = sheets.schema(ruleset)
    known = sheets.reserved_names(ruleset) | {fold(a) for a in schema.attributes}
    for r in schema.resources:
        known |= {fold(r.name), fold(r.max_trait)}
    for name, value in given.items():
        if fold(name) in known or len(fold(name)) < 4:
            continue
        close = get_close_matches(fold(name), sorted(known), n=1, cutoff=0.8)
        if close:
            warning(f"'{visible(name)}' is kept as written; did you mean '{close[0]}'? "
                    f"(rpgdice char set {shown(who)} {close[0]}={value} {visible(name)}=-)")


@char_app.command("set")
def char_set(
    name: NameArg,
    pairs: Annotated[list[str], typer.Argument(
        metavar="TRAIT=VALUE...", show_default=False,
        help="Traits to set; VALUE '-' removes the trait; TRAIT+=N and TRAIT-=N change it "
        "by N (a resource within 0 and its maximum).")],
) -> None:
    """Set or remove traits of a character; the rest of the file (comments, your own
    keys) stays as it was.

    Example: rpgdice char set ysolde wound=light willpower-=1 stealth=-
    """
    from rpgdice.table import sheets

    sheet = sheets.change(name, _pairs(pairs, removing=True))
    _say(f"updated {visible(sheet.name)}: {visible(sheet.path)}")


HereOpt = Annotated[bool, typer.Option(
    "--here", help="While joined to a table: this machine's files, not the table's.")]


def _joined(here: bool) -> Optional[dict[str, str]]:
    """The table joined (rpgdice table join), unless ``--here``."""
    if here:
        return None
    from rpgdice.cli.joined import joined

    return joined()


@char_app.command("show")
def char_show(name: NameArg, as_json: JsonOpt = False, here: HereOpt = False) -> None:
    """Show a character sheet: attributes, skills, Willpower, wound, Pools and Edge.
    While joined to a table, one of your seat's characters is the table's sheet.

    Example: rpgdice char show ysolde
    """
    from rpgdice.table import sheets

    table = _joined(here)
    sheet = None
    if table is not None:
        from rpgdice.cli.joined import table_sheet

        sheet = table_sheet(table, name)
    if sheet is None:
        sheet = sheets.load(name)
    if as_json:
        _write_json([sheet.data()])
        return
    from rpgdice.render.sheet import sheet_view

    out = _console()
    out.print(sheet_view(sheet, out.width))


@char_app.command("list")
def char_list(as_json: JsonOpt = False, here: HereOpt = False) -> None:
    """List the characters: name, ruleset and file. A broken sheet is a warning line.
    While joined to a table: your seat's characters there.

    Example: rpgdice char list --json
    """
    from rpgdice.cli.output import warning
    from rpgdice.table import sheets

    table = _joined(here)
    if table is not None:
        return _seat_list(table, as_json)

    found = []
    for item in sheets.load_all():
        if isinstance(item, RulesError):
            warning(str(item))
        else:
            found.append(item)
    if as_json:
        _write_json([{"name": s.name, "ruleset": s.ruleset, "file": str(s.path)} for s in found])
        return
    if not found:
        _say(f"no characters yet in {sheets.folder()}; create one with rpgdice char new")
        return
    rows = [(visible(s.name), s.ruleset, visible(s.path)) for s in found]  # text from the files
    width = max(len(n) for n, _, _ in rows)
    rwidth = max(len(r) for _, r, _ in rows)
    sys.stdout.write("".join(f"{n:<{width}}  {r:<{rwidth}}  {p}\n" for n, r, p in rows))
    sys.stdout.flush()


def _seat_list(table: dict[str, str], as_json: bool) -> None:
    """``char list`` while joined: the seat's characters at the table (no file here)."""
    from rpgdice.cli.joined import base_of, seat_characters

    found = seat_characters(table)
    if as_json:
        _write_json([{"name": c["name"], "ruleset": c["ruleset"], "file": None} for c in found])
        return
    where = f"at the table {base_of(table)}/"
    if not found:
        _say(f"no characters of your seat {where}")
        return
    rows = [(visible(c["name"]), visible(c["ruleset"])) for c in found]
    width = max(len(n) for n, _ in rows)
    rwidth = max(len(r) for _, r in rows)
    sys.stdout.write("".join(f"{n:<{width}}  {r:<{rwidth}}  {where}\n" for n, r in rows))
    sys.stdout.flush()


@char_app.command("rm")
def char_rm(
    name: NameArg,
    yes: Annotated[bool, typer.Option("--yes", help="Really delete the sheet.")] = False,
) -> None:
    """Remove a character's sheet. Without --yes nothing is deleted (exit 2).

    Example: rpgdice char rm ysolde --yes
    """
    from rpgdice.table import sheets

    if not yes:  # a missing or broken sheet is reported first, as without --yes
        sheet = sheets.load(name)
        raise RulesError("--yes", f"needed to delete {sheet.name}'s sheet ({sheet.path}); "
                         f"nothing was deleted: add --yes")
    sheet = sheets.remove(name)
    _say(f"removed {visible(sheet.name)}: {visible(sheet.path)}")


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# alias -------------------------------------------------------------------------


@alias_app.command("alias")
def alias_cmd(
    name: Annotated[Optional[str], typer.Argument(
        metavar="[NAME]", show_default=False, help="The alias to set.")] = None,
    command: Annotated[Optional[str], typer.Argument(
        metavar="['COMMAND ARGS...']", show_default=False,
        help="What the alias runs: the words after 'rpgdice', quoted as one argument.")] = None,
    rm: Annotated[Optional[str], typer.Option(
        "--rm", metavar="NAME", parser=params.alias_name, help="Remove this alias.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Set, list or remove aliases (config.toml [alias], as git has them).

    rpgdice alias NAME 'COMMAND ARGS...' sets one; rpgdice NAME [MORE ARGS...] then runs
    rpgdice COMMAND ARGS... MORE ARGS.... Without NAME: the list. An alias may not take
    a command's name nor lead to another alias.

    Example: rpgdice alias sneak 'seyruun roll dexterity stealth --as ysolde'
    """
    from rpgdice.table import aliases

    if rm is not None:
        if name is not None or command is not None:
            raise RulesError("--rm", "takes no NAME or COMMAND besides the alias to remove")
        aliases.remove(rm)
        _say(f"removed alias {visible(rm)}")
        return
    if name is None:
        known = aliases.load()
        if as_json:
            _write_json([{"name": n, "command": c} for n, c in known.items()])
        else:
            _alias_list(known)
        return
    if command is None:
        known = aliases.load()
        if name not in known:
            raise RulesError("NAME", f"no alias {shown(name)}; to set it: rpgdice alias "
                             f"{name} 'COMMAND ARGS...'")
        if as_json:
            _write_json([{"name": name, "command": known[name]}])
        else:
            _say(f"{name}  {visible(known[name])}")
        return
    aliases.check_name(name)
    root = _root_commands()
    if name in root:
        raise RulesError("NAME", f"'{name}' is a command of rpgdice; an alias may not take "
                         "a command's name")
    words = aliases.split(name, command)
    known = aliases.load()
    if words[0] in known and words[0] not in root:
        raise RulesError("COMMAND", f"'{words[0]}' is an alias; an alias may not lead to "
                         "another alias")
    if words[0] not in root:
        raise RulesError("COMMAND", f"{shown(words[0])} is not a command of rpgdice; accepts "
                         f"{', '.join(root)}")
    aliases.define(name, command)
    _say(f"alias {name} = {visible(command)}")


def _alias_list(known: dict[str, str]) -> None:
    """``NAME  COMMAND`` a line, each command wrapped between its words to the terminal's
    width (COLUMNS; 80 when piped), under the commands' column."""
    import shutil
    import textwrap

    rows = {visible(n): visible(c) for n, c in known.items()}  # text from config.toml
    width = max((len(n) for n in rows), default=0)
    columns = max(shutil.get_terminal_size().columns, width + 12)
    out = []
    for n, c in rows.items():
        lines = textwrap.wrap(c, columns - width - 2, break_long_words=False,
                              break_on_hyphens=False) or [""]
        out.append(f"{n:<{width}}  {lines[0]}\n")
        out += [f"{'':<{width}}    {line}\n" for line in textwrap.wrap(
            " ".join(lines[1:]), columns - width - 4, break_long_words=False,
            break_on_hyphens=False)]
    sys.stdout.write("".join(out))
    sys.stdout.flush()


def _root_commands() -> list[str]:
    from rpgdice.cli import root

    return list(root().list_commands(None))
