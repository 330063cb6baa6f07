"""A player's terminal at the table: ``rpgdice table join URL``, ``table``, ``table leave``.

While joined (``[table] url`` in config.toml), the rolling commands a seat may run are sent
to the table's server as ``POST /api/roll`` and printed as a local roll of the same results
prints them; ``--here`` rolls locally instead; every other command runs locally. A refused
line exits 2 with the table's message; a table that does not answer exits 2 naming its URL;
nothing is rolled locally in its place. Only the standard library speaks HTTP here
(http.client: no redirect is followed, the whole request has one deadline and the answer a
size bound); an answer that does not rebuild into its roll is refused, nothing printed."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

from rpgdice.cli.groups import showing_group
from rpgdice.core.data import JSONObject
from rpgdice.core.errors import RulesError, cut, shown, visible

if TYPE_CHECKING:
    from http.client import HTTPMessage

    from rpgdice.core.envelope import Rolled

app = showing_group(
    "The table you roll at: join a seat's link, show it, leave it.\n\nWithout a "
    "subcommand: the table joined.",
)

SECTION = "table"
LOCK = ".config.lock"
DEADLINE = 15.0
"""Seconds a whole request to the table may take: connecting, sending, the answer's
headers and body (a table answering a byte at a time is cut off here)."""
MAX_ANSWER = 1 << 20
"""Bytes of an answer read at most: a longer answer is no table's."""
MAX_SEAT = 40
"""Characters of the seat's name (``X-Rpgdice-Seat``) kept, as ``seat add`` allows."""
MAX_MESSAGE = 300
"""Characters of a table's refusal shown."""
HERE = "--here"
SEAT_HEADER = "X-Rpgdice-Seat"


def _without_password(text: str) -> str:
    """``text`` with any ``user:password@`` of a URL in it left out."""
    import re

    return re.sub(r"//[^/?#@]*@", "//", text)


def _split(url: str) -> tuple[str, str]:
    """A seat's link as its base (``http://HOST:PORT``) and its token."""
    from urllib.parse import parse_qs, urlsplit

    not_a_link = RulesError("URL", f"{shown(_without_password(url.strip()), 80)} is no seat's "
                            "link (http://HOST:PORT/?seat=TOKEN: rpgdice seat link NAME at the "
                            "GM's terminal)")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 -- a port that is no number is a ValueError here
        token = (parse_qs(parts.query).get("seat") or [""])[0]
    except ValueError:
        raise not_a_link from None
    if parts.scheme not in ("http", "https") or not parts.hostname or not token:
        raise not_a_link
    if "@" in parts.netloc:
        raise RulesError("URL", f"{shown(_without_password(url.strip()), 80)}: a seat's link "
                         "carries no user name or password; ask the GM for your seat's link")
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


def _silent(base: str, why: str) -> RulesError:
    return RulesError("table", f"the table at {base} does not answer ({cut(why, 120)}); "
                      "rpgdice table leave to roll here, or --here for one roll")


Answered = tuple[int, bytes, "HTTPMessage"]
"""A table's answer: its status, its body, its headers."""

def _bad_answer(base: str, why: str) -> RulesError:
    return RulesError("table", f"the table at {base} gave an answer that is no rpgdice table's "
                      f"({cut(why, 120)}); nothing was printed")


def _exchange(base: str, token: str, path: str, data: Optional[bytes],
              held: JSONObject) -> Answered:
    """One request, no redirect followed, its answer read up to :data:`MAX_ANSWER`."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname or "", parts.port, timeout=DEADLINE)
    held["connection"] = connection
    connection.request("GET" if data is None else "POST", path, body=data, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    answer = connection.getresponse()
    held["answer"] = answer
    length = answer.getheader("Content-Length")
    if length is not None and length.strip().isdigit() and int(length) > MAX_ANSWER:
        raise _bad_answer(base, f"an answer of {int(length)} bytes")
    chunks, size = [], 0
    while True:
        chunk = answer.read1(1 << 16)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_ANSWER:
            raise _bad_answer(base, f"an answer over {MAX_ANSWER} bytes")
        chunks.append(chunk)
    connection.close()
    return answer.status, b"".join(chunks), answer.headers


def _request(base: str, token: str, path: str, body: Optional[JSONObject] = None
             ) -> Answered:
    """The table's answer (status, body, headers) to one request, the whole of it within
    :data:`DEADLINE` seconds (a table that stops answering exits 2 naming its URL); a
    redirect is never followed (the seat's token goes to its table alone)."""
    import http.client
    import threading

    data = None if body is None else json.dumps(body).encode()
    held: JSONObject = {}
    outcome: list[Answered | BaseException] = []

    def work() -> None:
        try:
            outcome.append(_exchange(base, token, path, data, held))
        except BaseException as e:  # handed to the caller below
            outcome.append(e)

    worker = threading.Thread(target=work, name="rpgdice-table", daemon=True)
    worker.start()
    worker.join(DEADLINE)
    if worker.is_alive() or not outcome:
        _hang_up(held)
        raise _silent(base, f"no whole answer within {DEADLINE:g} s")
    got = outcome[0]
    if isinstance(got, RulesError):
        raise got
    if isinstance(got, (OSError, ValueError, http.client.HTTPException)):
        raise _silent(base, str(getattr(got, "reason", None) or got or type(got).__name__))
    if isinstance(got, BaseException):
        raise _silent(base, type(got).__name__)
    status, answer, headers = got
    if 300 <= status < 400:
        where = headers.get("Location") or "?"
        raise RulesError("table", f"the table at {base} answered with a redirect to "
                         f"{shown(_without_password(where), 120)}; join that URL if it is "
                         "your table's (rpgdice table join URL)")
    return status, answer, headers


def _hang_up(held: JSONObject) -> None:
    """Close a request still under way: its blocked read returns at once."""
    import socket

    sock = getattr(held.get("connection"), "sock", None)
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
            sock.close()
    except OSError:
        pass


def _no_constant(word: str) -> NoReturn:
    raise ValueError(f"{word} is no number")


_UNREAD = object()


def _json(body: bytes) -> Any:
    """The answer's JSON (NaN and Infinity refused, nesting bounded by Python's own
    recursion limit), or ``_UNREAD``."""
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _UNREAD


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
    status, body, headers = _request(base, token, "/api/rolls?after=0&limit=1")
    if status in (401, 403):
        raise RulesError("URL", f"the table at {base} refused this link ({status}); ask the GM "
                         "for your seat's link")
    if status != 200:
        raise _bad_answer(base, f"it answered {status}")
    found = _json(body)  # the table's rolls: a list of at most one entry (limit=1)
    if not isinstance(found, list) or len(found) > 1 or not all(isinstance(e, dict)
                                                                for e in found):
        raise _bad_answer(base, "not the list of rolls /api/rolls answers")
    seat = visible((headers.get(SEAT_HEADER) or "").strip())[:MAX_SEAT]
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
        doc = files.read_document(where)
        if SECTION in doc:
            del doc[SECTION]
        files.write_document(where, doc)
    sys.stdout.write("left the table: rolls are rolled here\n")
    sys.stdout.flush()


BLIND = "rolled blind: the GM sees it"
"""What a joined terminal prints of a ``--blind`` roll (the table answers no results)."""


def remote(words: list[str], table: dict[str, str]) -> int:
    """Roll ``words`` at the table and print the answer as a local roll prints it. An
    answer that does not rebuild into the results it names (as ``log show`` rebuilds a
    logged roll) is refused: exit 2 naming the URL, nothing printed."""
    import shlex

    as_json = "--json" in words
    base, data = _asked(table, "/api/roll", {"line": shlex.join(words)})
    until = data.get("until") if isinstance(data, dict) and data.get("held") else None
    if isinstance(until, int) and not isinstance(until, bool):  # held back with a secret roll
        said = f"held until the GM reveals #{until}"
        sys.stdout.write((json.dumps({"held": said, "until": until}) if as_json else said) + "\n")
        return 0
    if not isinstance(data, dict) or not isinstance(data.get("rolls"), list):
        raise _bad_answer(base, "no list of rolls")
    rolls = data["rolls"]
    if not rolls or not all(isinstance(r, dict) for r in rolls):
        raise _bad_answer(base, "no rolls" if not rolls else "a roll that is no object")
    if all(r.get("blind") is True and "results" not in r and "outcome" not in r for r in rolls):
        sys.stdout.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rolls)
                         if as_json else f"{BLIND}\n")  # the GM's alone: nothing to show
        sys.stdout.flush()
        return 0
    shown_ = data.get("shown") if isinstance(data.get("shown"), dict) else None  # as the log
    records = _rebuilt(base, rolls, shown_)
    if as_json:
        sys.stdout.write("".join(json.dumps({k: v for k, v in r.items() if k not in ("id", "seat")},
                                            ensure_ascii=False) + "\n" for r in rolls))
        sys.stdout.flush()
        return 0
    odds = None
    if shown_ is not None and shown_.get("odds") is not None:  # --odds: the lines under each
        from rpgdice.cli.stored import odds as stored_odds

        try:
            odds = stored_odds({"shown": shown_})
        except Exception:  # odds this rpgdice cannot compute: the results alone
            odds = None
    from rpgdice.cli.output import emit

    emit(records, as_json=False, odds=odds, total=len(records),
         compact=bool(shown_ is not None and shown_.get("compact") is True))
    return 0


def _rebuilt(base: str, rolls: list[JSONObject], shown_: Optional[JSONObject]) -> list[Rolled]:
    """The answer's rolls as the records their view prints, rebuilt as ``log show``
    rebuilds a logged roll; a :func:`_bad_answer` when they do not rebuild."""
    from rpgdice import rulesets
    from rpgdice.core.rebuild import BadData
    from rpgdice.render import stored

    first = rolls[0]
    ruleset, command = first.get("ruleset"), first.get("command")
    if not isinstance(ruleset, str) or not isinstance(command, str) or not rulesets.known(ruleset):
        raise _bad_answer(base, "a roll of no ruleset this rpgdice knows")
    if any(r.get("ruleset") != ruleset for r in rolls):
        raise _bad_answer(base, "rolls of different rulesets")
    record = rulesets.get(ruleset).command(command)
    kinds = tuple(c.__name__ for c in record.results) if record is not None else ()
    why = "results of a kind this rpgdice does not know"
    best: Optional[tuple[int, list[Rolled]]] = None
    for kind in [*([k] for k in kinds), None]:  # the kind of result the answer holds
        try:
            made = stored.records({"ruleset": ruleset, "command": command,
                                   "results": rolls, "shown": shown_, "kinds": kind})
        except BadData as e:
            why = str(e)
            continue
        except Exception as e:  # whatever does not rebuild is bad data
            why = type(e).__name__
            continue
        fit = _fit(rolls, made)
        if best is None or fit > best[0]:
            best = (fit, made)
    if best is None:
        raise _bad_answer(base, why)
    return best[1]


def _fit(rolls: list[JSONObject], made: list[Rolled]) -> int:
    """How many of the answer's keys the rebuilt records hold: of two kinds a command
    makes (``roll``'s notation and its wider grammar's, with a label), the one the table
    rolled keeps the most (the other would drop its label and misread its expression)."""
    from dataclasses import fields

    held: Any = [m.result for m in made]  # dataclasses, each
    return sum(len(set(r) & {f.name for f in fields(result)}) for r, result in zip(rolls, held))


# The seat's characters and its last roll, as the table has them ------------------------------

WINDOW = 100
"""Entries of the table's log asked for at once while looking back for the seat's last roll
(a window of long rolls stays far under :data:`MAX_ANSWER`)."""
MAX_LOOKED = 10_000
"""The table's newest entries looked through for the seat's last roll, at most."""


def base_of(table: dict[str, str]) -> str:
    """The joined table's base URL (``http://HOST:PORT``), without the seat's token."""
    return _split(table["url"])[0]


def _get(table: dict[str, str], path: str) -> tuple[str, Any]:
    """The table's JSON answer to ``GET path`` (its base URL beside it); a refusal exits 2
    with the table's message."""
    return _asked(table, path)


def _asked(table: dict[str, str], path: str, posted: Optional[JSONObject] = None,
           ) -> tuple[str, Any]:
    """The table's JSON answer to ``path`` (``posted``: a POST of it), its base URL beside
    it; a refusal exits 2 with the table's message."""
    base, token = _split(table["url"])
    status, body, _ = _request(base, token, path, posted)
    data = _json(body)
    if status != 200:
        reason = data.get("error") if isinstance(data, dict) else None
        if isinstance(reason, str) and reason.strip():
            raise RulesError("table", cut(" ".join(reason.split()), MAX_MESSAGE))
        raise RulesError("table", f"the table at {base} answered {status}")
    return base, data


def seat_characters(table: dict[str, str]) -> list[dict[str, Any]]:
    """The seat's characters as the table has them (``GET /api/panel``): each its
    ``name``, ``ruleset`` and ``sheet``."""
    base, data = _get(table, "/api/panel")
    found = data.get("characters") if isinstance(data, dict) else None
    if not isinstance(found, list) or not all(
            isinstance(c, dict) and isinstance(c.get("name"), str)
            and isinstance(c.get("ruleset"), str) for c in found):
        raise _bad_answer(base, "no list of characters")
    return found


def table_sheet(table: dict[str, str], name: str) -> Any:
    """The seat's character ``name`` as the table's sheet (a :class:`Sheet` whose path
    names the table), or None when it is none of the seat's."""
    from pathlib import Path

    from rpgdice import rulesets
    from rpgdice.core.names import fold
    from rpgdice.table.sheets import Sheet

    found = next((c for c in seat_characters(table) if fold(c["name"]) == fold(name)), None)
    if found is None:
        return None
    base = _split(table["url"])[0]
    sheet = found.get("sheet")
    traits = sheet.get("traits") if isinstance(sheet, dict) else None
    ruleset = found["ruleset"]
    if (not isinstance(traits, list) or not rulesets.known(ruleset)
            or rulesets.get(ruleset).sheet is None
            or not all(isinstance(t, dict) and isinstance(t.get("name"), str)
                       and isinstance(t.get("value"), (int, str))
                       and not isinstance(t.get("value"), bool) for t in traits)):
        raise _bad_answer(base, f"no sheet of {shown(found['name'])} this rpgdice can show")
    where = Path(f"at the table {base.split('://', 1)[1]}")
    return Sheet(found["name"], ruleset, {t["name"]: t["value"] for t in traits}, where)


def _entries(table: dict[str, str], after: int, limit: int) -> list[dict[str, Any]]:
    """The table's log entries after ``after`` (``GET /api/rolls``), at most ``limit``."""
    base, data = _get(table, f"/api/rolls?after={after}&limit={limit}")
    if not isinstance(data, list) or len(data) > limit or not all(
            isinstance(e, dict) and isinstance(e.get("id"), int) for e in data):
        raise _bad_answer(base, "not the list of rolls /api/rolls answers")
    return data


def _newest(table: dict[str, str]) -> int:
    """The newest entry's ID in the table's log (0: none), found by halving: the log's
    entries are asked for after an ID, never before one."""
    if not _entries(table, 0, 1):
        return 0
    low, high = 0, 1  # an entry after low; then none after high
    while _entries(table, high, 1):
        low, high = high, high * 2
        if high > 1 << 62:
            raise _bad_answer(_split(table["url"])[0], "a log without end")
    while high - low > 1:
        middle = (low + high) // 2
        if _entries(table, middle, 1):
            low = middle
        else:
            high = middle
    return high


def _repeated(entry: JSONObject) -> bool:
    """Whether ``again`` repeats ``entry``: a roll, not a change of the encounter, not a
    command its ruleset never repeats (Seyruun's re-roll after the fact)."""
    from rpgdice import rulesets
    from rpgdice.core import changes

    if changes.is_change(entry):
        return False
    ruleset, command = entry.get("ruleset"), entry.get("command")
    if isinstance(ruleset, str) and isinstance(command, str) and rulesets.known(ruleset):
        record = rulesets.get(ruleset).command(command)
        return record is None or record.repeated
    return True


def last_roll(table: dict[str, str]) -> list[str]:
    """The words of the seat's last roll at the table, rolled from whichever device (the
    table's log knows it): its ``argv`` without ``--seed`` and ``--dice``, its character
    named. A usage error when the table's newest :data:`MAX_LOOKED` entries hold none."""
    from rpgdice.cli.replay import strip, with_character

    seat = table.get("seat") or None
    top = _newest(table)
    looked = 0
    while top > 0 and looked < MAX_LOOKED:
        start = max(0, top - WINDOW)
        window = [e for e in _entries(table, start, WINDOW) if start < e["id"] <= top]
        for entry in reversed(window):
            if entry.get("seat") != seat or not _repeated(entry):
                continue
            argv = entry.get("argv")
            if not isinstance(argv, list) or not argv or not all(isinstance(w, str) for w in argv):
                raise RulesError("again", f"your last roll at the table (#{entry['id']}) is "
                                 "secret, and the table shows no secret roll's line; nothing "
                                 "was rolled")
            character = entry.get("character")
            return with_character(strip(argv), character if isinstance(character, str) else None)
        looked += WINDOW
        top = start
    who = f"seat {visible(seat)}" if seat else "you"
    raise RulesError("again", f"the table's log holds no roll of {who} to repeat"
                     + (f" (its newest {MAX_LOOKED} entries looked through)"
                        if looked >= MAX_LOOKED else ""))
