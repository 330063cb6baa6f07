"""``rpgdice seat add|list|link|rm``: the players' seats at the table (rpgdice.table.seats),
each a name, a secret token (its link) and the characters it rolls as."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError, visible

app = RulesetTyper(
    add_completion=False, no_args_is_help=True, rich_markup_mode="markdown",
    help="The players' seats: each a link that rolls at the table as its characters.",
    command_cls=Command,
)

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8737
SeatArg = Annotated[str, typer.Argument(metavar="NAME", show_default=False,
                                        help="The seat's name (the player's).")]


def configured() -> tuple[Optional[str], Optional[int]]:
    """``[serve] host`` and ``port`` of config.toml (None where unset)."""
    from rpgdice.table import files, paths

    where = paths.config_file()
    data = files.read_toml(where) or {}
    section = data.get("serve", {})
    if not isinstance(section, dict):
        raise files.broken(where, "[serve] is not a table")
    host, port = section.get("host"), section.get("port")
    if host is not None and not isinstance(host, str):
        raise files.broken(where, "[serve] host is not a text")
    if port is not None and (not isinstance(port, int) or isinstance(port, bool)
                             or not 0 <= port <= 65535):
        raise files.broken(where, "[serve] port is not a whole number from 0 to 65535")
    return host, port


def base_url(host: Optional[str] = None, port: Optional[int] = None) -> str:
    """``http://HOST:PORT`` a person opens: config.toml's, else 127.0.0.1:8737."""
    from rpgdice.serve.hosts import shown_host

    if host is None or port is None:
        h, p = configured()
        host = host if host is not None else h
        port = port if port is not None else p
    return f"http://{shown_host(host or DEFAULT_HOST)}:{port if port is not None else DEFAULT_PORT}"


def link(token: str, base: Optional[str] = None) -> str:
    return f"{base or base_url()}/?seat={token}"


def _checked_characters(names: list[str]) -> list[str]:
    from rpgdice.table import sheets

    out: list[str] = []
    for name in names:
        sheet = sheets.load(name, "--as")
        if sheet.name not in out:
            out.append(sheet.name)
    return out


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@app.command("add")
def seat_add(
    name: SeatArg,
    characters: Annotated[Optional[list[str]], typer.Option(
        "--as", parser=params.character, metavar="CHARACTER",
        help="A saved character the seat rolls as (again for more).")] = None,
) -> None:
    """Add a player's seat and print its link (open it on their phone, or rpgdice table
    join LINK at their terminal).

    Example: rpgdice seat add ana --as ysolde
    """
    from rpgdice.table import seats

    seats.check_name(name)
    seat = seats.add(name, _checked_characters(list(characters or [])))
    who = ", ".join(seat.characters) or "no character (ordinary dice)"
    _say(f"seat {visible(seat.name)} ({visible(who)}): {link(seat.token)}")


@app.command("list")
def seat_list(as_json: Annotated[bool, typer.Option("--json", help="JSON: a list.")] = False
              ) -> None:
    """List the seats: name, characters and link.

    Example: rpgdice seat list --json
    """
    from rpgdice.table import seats

    found = seats.load()
    base = base_url() if found else ""
    if as_json:
        rows: list[JSONObject] = [{"name": s.name, "characters": list(s.characters),
                            "link": link(s.token, base)} for s in found]
        sys.stdout.write(json.dumps(rows, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    if not found:
        _say("no seats yet; add one with rpgdice seat add NAME --as CHARACTER")
        return
    names = [visible(s.name) for s in found]
    who = [visible(", ".join(s.characters) or "-") for s in found]
    width, chars = max(map(len, names)), max(map(len, who))
    for s, name, characters in zip(found, names, who):
        _say(f"{name:<{width}}  {characters:<{chars}}  {link(s.token, base)}")


def gm_link(token: str, base: Optional[str] = None) -> str:
    """The GM's screen's link (``?gm=``)."""
    return f"{base or base_url()}/?gm={token}"


@app.command("link")
def seat_link(
    name: Annotated[Optional[str], typer.Argument(
        metavar="NAME", show_default=False,
        help="The seat's name (the player's); none with --gm.")] = None,
    new: Annotated[bool, typer.Option("--new", help="A new link; the old one stops at once "
                                      "(a running serve too).")] = False,
    gm: Annotated[bool, typer.Option("--gm", help="The GM's screen's link (?gm=): every "
                                     "roll whole, Reveal, the encounter's controls.")] = False,
) -> None:
    """Print a seat's link again (--new: make a new one); --gm: the GM's screen's.

    Example: rpgdice seat link ana --new
    """
    from rpgdice.table import seats

    if gm:
        if name is not None:
            raise RulesError("--gm", "the GM's screen is no seat's: give --gm or NAME, "
                             "not both")
        _say(gm_link(seats.gm_link_token(new)))
        return
    if name is None:
        raise RulesError("NAME", "which seat's link? (rpgdice seat list; --gm: the GM's "
                         "screen's)")
    seat = seats.renew(name) if new else seats.find(name)
    _say(link(seat.token))


@app.command("rm")
def seat_rm(
    name: SeatArg,
    yes: Annotated[bool, typer.Option("--yes", help="Really remove the seat.")] = False,
) -> None:
    """Remove a seat (its link stops at once). Without --yes nothing is removed (exit 2).

    Example: rpgdice seat rm ana --yes
    """
    from rpgdice.table import seats

    if not yes:
        seat = seats.find(name)
        raise RulesError("--yes", f"needed to remove seat {seat.name}; nothing was removed: "
                         "add --yes")
    seat = seats.remove(name)
    _say(f"removed seat {visible(seat.name)}")
