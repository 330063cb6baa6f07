"""A player's terminal at the table: ``rpgdice table join URL``, ``table``, ``table leave``.

While joined (``[table] url`` in config.toml), the rolling commands a seat may run are sent
to the table's server as ``POST /api/roll`` and printed as a local roll of the same results
prints them; ``--here`` rolls locally instead; every other command runs locally. A refused
line exits 2 with the table's message; a table that does not answer exits 2 naming its URL;
nothing is rolled locally in its place. Only the standard library speaks HTTP here."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer

from rpgdice.cli.common import Command, RulesetTyper
from rpgdice.core.errors import RulesError, visible

app = RulesetTyper(
    command_cls=Command,
    help="The table you roll at: join a seat's link, show it, leave it.\n\nWithout a "
    "subcommand: the table joined.",
    rich_markup_mode="markdown",
    invoke_without_command=True,
    no_args_is_help=False,
)

SECTION = "table"
LOCK = ".config.lock"
TIMEOUT = 10.0
HERE = "--here"
SEAT_HEADER = "X-Rpgdice-Seat"


def _split(url: str) -> tuple[str, str]:
    """A seat's link as its base (``http://HOST:PORT``) and its token."""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url.strip())
    token = (parse_qs(parts.query).get("seat") or [""])[0]
    if parts.scheme not in ("http", "https") or not parts.netloc or not token:
        raise RulesError("URL", f"{url[:80]!r} is no seat's link (http://HOST:PORT/?seat=TOKEN: "
                         "rpgdice seat link NAME at the GM's terminal)")
    return f"{parts.scheme}://{parts.netloc}", token


def joined() -> Optional[dict[str, str]]:
    """``[table]`` of config.toml (``url``, ``seat``), or None when not joined. Cheap when
    not joined: the file is only parsed when it names a table."""
    from rpgdice.table import files, paths

    where = paths.config_file()
    try:
        raw = where.read_bytes()
    except OSError:
        return None
    if b"[table]" not in raw:
        return None
    data = files.read_toml(where) or {}
    section = data.get(SECTION)
    if not isinstance(section, dict) or not isinstance(section.get("url"), str):
        return None
    return {"url": section["url"], "seat": str(section.get("seat") or "")}


def _request(base: str, token: str, path: str, body: Optional[dict[str, Any]] = None
             ) -> tuple[int, bytes, Any]:
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="GET" if body is None
                                     else "POST", headers={
                                         "Authorization": f"Bearer {token}",
                                         "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.read(1 << 22), answer.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(1 << 16), e.headers
    except (OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise RulesError("table", f"the table at {base} does not answer ({reason}); "
                         "rpgdice table leave to roll here, or --here for one roll") from None


@app.callback(invoke_without_command=True)
def table_cmd(ctx: typer.Context, as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object (null when not joined).")] = False) -> None:
    """The table joined: its URL (without the token) and your seat.

    Example: rpgdice table --json
    """
    if ctx.invoked_subcommand is not None:
        return
    found = joined()
    shown = None if found is None else {"url": _split(found["url"])[0] + "/",
                                        "seat": found["seat"] or None}
    if as_json:
        sys.stdout.write(json.dumps(shown, ensure_ascii=False) + "\n")
    elif shown is None:
        sys.stdout.write("not at a table: rolls are rolled here (rpgdice table join URL)\n")
    else:
        sys.stdout.write(f"at the table {shown['url']} as seat {visible(shown['seat'] or '?')}"
                         "\n")
    sys.stdout.flush()


@app.command("join")
def join_cmd(url: Annotated[str, typer.Argument(metavar="URL", show_default=False,
                                                help="Your seat's link.")]) -> None:
    """Roll at the table whose seat's link URL is: your rolls are rolled by the table
    (spent from your character's sheet there, on every page), --here rolls one here.

    Example: rpgdice table join 'http://192.168.1.20:8737/?seat=...'
    """
    import tomlkit

    from rpgdice.table import files, paths

    base, token = _split(url)
    status, _, headers = _request(base, token, "/api/rolls?after=0&limit=1")
    if status != 200:
        raise RulesError("URL", f"the table at {base} refused this link ({status}); ask the GM "
                         "for your seat's link")
    seat = headers.get(SEAT_HEADER) or ""
    where = paths.config_file()
    with files.locked(where.parent, LOCK):
        doc = files.read_document(where)
        section = tomlkit.table()
        section["url"] = url.strip()
        section["seat"] = seat
        doc[SECTION] = section
        files.write_document(where, doc)
    try:
        import os

        os.chmod(where, 0o600)  # it holds a seat's token now
    except OSError:
        pass
    sys.stdout.write(f"at the table {base}/ as seat {visible(seat or '?')}: your rolls go "
                     "there (--here rolls one here)\n")
    sys.stdout.flush()


@app.command("leave")
def leave_cmd() -> None:
    """Leave the table: rolls are rolled here again.

    Example: rpgdice table leave
    """
    from rpgdice.table import files, paths

    where = paths.config_file()
    if joined() is None:
        raise RulesError("table", "not at a table (rpgdice table join URL)")
    with files.locked(where.parent, LOCK):
        doc: Any = files.read_document(where)
        if SECTION in doc:
            del doc[SECTION]
        files.write_document(where, doc)
    sys.stdout.write("left the table: rolls are rolled here\n")
    sys.stdout.flush()


def remote(words: list[str], table: dict[str, str]) -> int:
    """Roll ``words`` at the table and print the answer as a local roll prints it."""
    import shlex

    base, token = _split(table["url"])
    as_json = "--json" in words
    status, body, _ = _request(base, token, "/api/roll", {"line": shlex.join(words)})
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        data = None
    if status != 200 or not isinstance(data, dict) or not isinstance(data.get("rolls"), list):
        reason = data.get("error") if isinstance(data, dict) else None
        raise RulesError("table", f"{reason or f'the table at {base} answered {status}'}")
    rolls = [r for r in data["rolls"] if isinstance(r, dict)]
    if as_json:
        sys.stdout.write("".join(json.dumps({k: v for k, v in r.items() if k not in ("id", "seat")},
                                            ensure_ascii=False) + "\n" for r in rolls))
        sys.stdout.flush()
        return 0
    from rpgdice import rulesets
    from rpgdice.render import stored

    shown = data.get("shown") if isinstance(data.get("shown"), dict) else None  # as the log
    first = rolls[0] if rolls else {}
    ruleset, command = str(first.get("ruleset")), str(first.get("command"))
    kinds = rulesets.get(ruleset).results.get(command, ()) if rulesets.known(ruleset) else ()
    records = None
    for kind in [None, *([k] for k in kinds)]:  # the kind of result the answer holds
        try:
            records = stored.records({"ruleset": ruleset, "command": command,
                                      "results": rolls, "shown": shown, "kinds": kind})
            break
        except Exception:
            continue
    if records is None:  # a result this rpgdice cannot show: its JSON
        sys.stdout.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rolls))
        sys.stdout.flush()
        return 0
    odds = None
    if shown is not None and shown.get("odds") is not None:  # --odds: the lines under each
        from rpgdice.cli.stored import odds as stored_odds

        try:
            odds = stored_odds({"shown": shown})
        except Exception:  # odds this rpgdice cannot compute: the results alone
            odds = None
    from rpgdice.cli.output import emit

    emit(records, as_json=False, odds=odds, total=len(records),
         compact=bool(shown is not None and shown.get("compact") is True))
    return 0
