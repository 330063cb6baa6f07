"""A seat's roll at the table's server (CLI.md, "The players: seats at the table").

A line comes over HTTP as typed at ``rpgdice play``. It is split as a shell would, parsed
by the rolling command it names into its roll value (``root().parse_words``: never handed
to the top-level parser with whatever options it carries), checked against what a seat may
do, given its seat, and executed by :func:`rpgdice.roll.execute.execute` — spending from
the character's sheet and logging under the same locks as every process. Its ``--json``
output is captured for the answer: the server runs one roll at a time (:data:`LOCK`), and
one odds command at a time beside them (:data:`ODDS_LOCK`), in its worker threads;
``sys.stdout`` is routed per thread (:class:`Routed`), so nothing a roll prints reaches
another request or the server's own stdout.

:func:`roll_line` is handed to the server (rpgdice.serve.app) by ``rpgdice serve``: the
server itself never imports the command line."""

from __future__ import annotations

import io
import json
import shlex
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Protocol, TextIO

from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError

if TYPE_CHECKING:
    from rpgdice.roll.spec import RollSpec
    from rpgdice.table.seats import Seat
    from rpgdice.table.sheets import Sheet

LOCK = threading.Lock()
"""One roll at a time in this process (the files have their own locks between processes);
every line is read and checked under it."""
ODDS_LOCK = threading.Lock()
"""One odds command at a time, beside the rolls (odds alone read and write no file)."""
MAX_TIMES = 20
"""The most ``-n`` a seat may ask."""
FORBIDDEN = {"--dice": "--dice (the table rolls a seat's dice)",
             "--seed": "--seed (the table rolls a seat's dice)",
             "--no-log": "--no-log (a seat's rolls are logged)"}


class Secrets(Protocol):
    """What unrevealed secret rolls changed, as the server reads it (a
    :class:`rpgdice.serve.secrecy.Held`): by combatant (its name folded), the traits."""

    @property
    def diff(self) -> dict[str, dict[str, int]]: ...


class Commands(Protocol):
    """A Click command or group as a seat's line is looked up in it (``get_command``, given
    no context) and checked against it (its ``params``)."""

    def get_command(self, ctx: None, cmd_name: str) -> Commands | None: ...
    @property
    def params(self) -> Sequence[object]: ...


Found = tuple[Commands, Commands, str, list[str]]
"""A rolling command as a line names it: the command, its group, its name, its arguments."""
Prepared = tuple["RollSpec", "Sheet | None", Optional[Loaded]]
"""A line's roll value, the sheet its parsing read, and what a ruleset's parser found."""


@dataclass
class Answer:
    status: int
    body: Loaded
    cost: float = 0.0
    """Seconds of CPU its odds took (the server's rate counts them)."""


GONE = 499
"""The status of a line not computed because its client went away (nobody reads it)."""


class Routed:
    """``sys.stdout`` for a server: a thread that set :attr:`local.target` writes there,
    every other thread to the stream it stood for."""

    def __init__(self, real: TextIO) -> None:
        self.real = real
        self.local = threading.local()

    def _now(self) -> TextIO:
        target = getattr(self.local, "target", None)
        return self.real if target is None else target

    def write(self, text: str) -> int:
        return int(self._now().write(text))

    def flush(self) -> None:
        self._now().flush()

    def isatty(self) -> bool:
        return False if getattr(self.local, "target", None) is not None else bool(
            self.real.isatty())

    def __getattr__(self, name: str) -> object:
        return getattr(self._now(), name)


def routed(name: str = "stdout") -> Routed:
    """The process's ``sys.stdout`` (or ``sys.stderr``) made a :class:`Routed` (once)."""
    stream = getattr(sys, name)
    if not isinstance(stream, Routed):
        stream = Routed(stream)
        setattr(sys, name, stream)
    return stream


def refused(reason: str) -> Answer:
    return Answer(403, {"error": reason})


def odds_line(line: str) -> bool:
    """Whether ``line`` names an odds command (``odds ...``, ``RULESET odds ...``) or asks
    for odds (``--odds``): the server runs it in its odds threads, so that a long one leaves
    the rolls' free. Only where it runs: :func:`roll_line` checks every line whatever this
    says."""
    try:
        words = shlex.split(line)
    except ValueError:
        return False
    if words[:1] == ["rpgdice"]:
        words = words[1:]
    return _odds_words(words) or "--odds" in words


def _odds_words(words: list[str]) -> bool:
    """Whether the words name an odds command (computed on the state the table saw)."""
    return words[:1] == ["odds"] or words[1:2] == ["odds"]


def roll_line(line: str, seat: Seat | None, *, gm: bool = False,
              seen: Callable[[], Secrets] | None = None,
              gone: Optional[Callable[[], bool]] = None) -> Answer:
    """Roll ``line`` for ``seat`` (a :class:`rpgdice.table.seats.Seat`; None with ``gm``:
    the GM's token). ``seen()``: what unrevealed secret rolls changed (the server's
    :class:`rpgdice.serve.secrecy.Held`), which a seat's refusals do not name. Blocking:
    run it in a worker thread. Odds are computed under :data:`ODDS_LOCK` alone, never the
    rolls' :data:`LOCK` (a roll with ``--odds``: its odds first, then the roll with them
    known), and not at all once ``gone()`` says its client went away."""
    surrogate = _surrogate(line)
    if surrogate is not None:  # no character: it could be neither logged nor answered
        return Answer(400, {"error": f"COMMAND: the line holds a lone surrogate "
                            f"(U+{ord(surrogate):04X}), which is no character; send text"})
    from rpgdice.table import encounter, sheets

    held, sheet, fight = (sheets.HIDDEN.set(None), sheets.SEEN.set(None),
                          encounter.SEEN.set(None))
    try:
        return _line(line, seat, gm, None if seat is None else seen, gone)
    finally:
        sheets.HIDDEN.reset(held)
        sheets.SEEN.reset(sheet)
        encounter.SEEN.reset(fight)


SETTLING = 5.0
"""The most seconds a seat's roll waits for a secret roll being made (its entry not yet
logged: its changes not yet held back) before it is refused (503)."""


def _hide(seen: Callable[[], Secrets], odds: bool) -> Optional[Answer]:
    """What unrevealed secret rolls changed, set for the seat's roll (sheets.HIDDEN; for
    its odds, the sheets and the encounter as the table saw them), once no secret roll is
    being made; or the :class:`Answer` saying the table is busy."""
    from rpgdice.serve import secrecy
    from rpgdice.table import encounter, making, sheets

    if not making.settled(SETTLING):
        return Answer(503, {"error": "a secret roll is being made at the table; try again "
                            "in a moment"})
    held = seen()
    sheets.HIDDEN.set({who: frozenset(diff) for who, diff in held.diff.items()})
    if odds and held.diff and isinstance(held, secrecy.Held):  # computed on what it saw
        sheets.SEEN.set(lambda sheet: secrecy.seen_sheet(sheet, held))
        encounter.SEEN.set(lambda found: secrecy.seen_encounter(found, held))
    return None


def _line(line: str, seat: Seat | None, gm: bool, seen: Callable[[], Secrets] | None,
          gone: Optional[Callable[[], bool]]) -> Answer:
    try:
        words = shlex.split(line)
    except ValueError as e:
        return Answer(400, {"error": f"COMMAND: {e}"})
    if words[:1] == ["rpgdice"]:
        words = words[1:]
    if not words:
        return Answer(400, {"error": "COMMAND: the line is empty; send a roll such as "
                            "'roll 2d6'"})
    with LOCK:
        busy = _hide(seen, _odds_words(words)) if seen is not None else None
        if busy is not None:
            return busy
        prepared = _prepared(words, seat, gm)
        if isinstance(prepared, Answer):
            return prepared
        alone = _odds(prepared[0])
        if not alone and not prepared[0].odds:
            return _rolled(prepared, seen)
    with ODDS_LOCK:  # odds alone write nothing: rolls go on meanwhile
        if gone is not None and gone():
            return Answer(GONE, {"error": "the client went away"})
        started = time.thread_time()
        if alone:
            answer = _executed(*prepared)
            answer.cost = time.thread_time() - started
            return answer
        known = _known_odds(*prepared)
        cost = time.thread_time() - started
    from rpgdice.roll import odds

    with LOCK, odds.known(known):  # read again: a sheet changed meanwhile makes other odds
        busy = _hide(seen, False) if seen is not None else None
        prepared = busy if busy is not None else _prepared(words, seat, gm)
        answer = prepared if isinstance(prepared, Answer) else _rolled(prepared, seen)
    answer.cost = cost
    return answer


def _rolled(prepared: Prepared, seen: Callable[[], Secrets] | None) -> Answer:
    """A roll executed, or held back with the unrevealed secret roll it depends on."""
    until = _held_by(prepared, seen()) if seen is not None else None
    return _executed(*prepared) if until is None else _held(prepared, until)


def _known_odds(spec: RollSpec, sheet: Sheet | None, extras: Optional[Loaded]
                ) -> dict[str, object]:
    """The exact odds a roll with ``--odds`` shows (its own and each ``--compare``'s), by
    key, computed as the roll would (sharing one budget); what fails is left to the roll
    itself to compute and say."""
    from rpgdice.core.budget import share_odds_budget
    from rpgdice.roll.execute import execute
    from rpgdice.roll.odds import ExactOdds
    from rpgdice.roll.run import Capture

    found: dict[str, object] = {}
    route, route_err = routed(), routed("stderr")
    route.local.target, route_err.local.target = io.StringIO(), io.StringIO()
    share_odds_budget(1 + len(spec.compare))
    try:
        for n, alt in enumerate([spec, *(a for _, a in spec.compare)]):
            cap = Capture(roll=False)
            own = n == 0  # the alternatives are computed as the roll computes them
            execute(alt.replace(odds_alone=True, compare=()), capture=cap,
                    sheet=sheet if own else None, extras=extras if own else None)
            if isinstance(cap.spec, ExactOdds):
                found[cap.spec.key] = cap.odds
    except Exception:  # the roll computes (and says) it
        pass
    finally:
        route.local.target = route_err.local.target = None
    return found


def _surrogate(line: str) -> Optional[str]:
    """The first lone surrogate in ``line`` (JSON's ``\\ud800`` decodes to one), or None."""
    import re

    found = re.search("[\ud800-\udfff]", line)
    return found.group(0) if found else None


def _held_by(prepared: Prepared, held: Secrets) -> Optional[int]:
    """The unrevealed secret roll a seat's roll depends on (None: none): one that changed
    its target (``--vs``), or its character so that its pool differs from the one it
    would roll on the state the table saw (its traits, its wound...)."""
    from rpgdice.core.names import fold
    from rpgdice.serve import secrecy

    spec, sheet, _ = prepared
    if not held.diff or not isinstance(held, secrecy.Held):
        return None
    vs = spec.arg("vs") or (spec.target.name if spec.target is not None else None)
    if vs is not None and fold(str(vs)) in held.diff:
        return held.by.get(fold(str(vs)))
    if spec.character is None or fold(spec.character.name) not in held.diff:
        return None
    from rpgdice.roll.character import resolved
    from rpgdice.table import sheets

    try:
        true = sheet if sheet is not None else sheets.load(spec.character.name, "--as")
        seen = secrecy.seen_sheet(true, held)
        differs = resolved(spec, true)[0].data() != resolved(spec, seen)[0].data()
    except (RulesError, TypeError, ValueError):  # said by the roll itself
        return None
    return held.by.get(fold(spec.character.name)) if differs else None


def _held(prepared: Prepared, until: int) -> Answer:
    """A seat's roll that depends on what the unrevealed secret roll ``until`` changed:
    rolled and logged on the true state, secret, held back with it (revealed together);
    the seat is answered that much alone."""
    from rpgdice.table.log.recorder import HELD_UNTIL

    spec, sheet, extras = prepared
    mark = HELD_UNTIL.set(until)
    try:
        answer = _executed(spec.replace(secret=True), sheet, extras)
    finally:
        HELD_UNTIL.reset(mark)
    if answer.status != 200:
        return answer
    rolls = answer.body.get("rolls")
    first = rolls[0] if isinstance(rolls, list) and rolls and isinstance(rolls[0], dict) else {}
    ident = first.get("id") if isinstance(first.get("id"), int) else None
    hidden = {**_blind(ident, spec.replace(secret=True)), "held": until}  # CLI.md: a blind
    return Answer(200, {"rolls": [hidden], "id": ident, "until": until,  # roll's keys + held
                        "held": f"held until the GM reveals #{until}"})


def _odds(spec: RollSpec) -> bool:
    """Whether ``spec`` asks for odds alone (an odds command: it reads and writes no file),
    as its command's record says."""
    from rpgdice import rulesets

    if spec.odds_alone:
        return True
    record = rulesets.get(spec.ruleset).command(spec.command) if rulesets.known(
        spec.ruleset) else None
    return record is not None and record.kind == "odds"


def _prepared(words: list[str], seat: Seat | None, gm: bool) -> Prepared | Answer:
    """The line's roll value, its sheet and extras, checked; or the :class:`Answer`
    refusing it."""
    from rpgdice import cli, rulesets
    from rpgdice.cli.typer_private import UsageError
    from rpgdice.render import output

    top = cli.root()
    command = top._roll_command(words) or _odds_command(top, words)
    if command is None and _expression(top, words[0]):  # as play rolls a bare expression
        words = ["roll", *words]
        command = top._roll_command(words)
    if command is None:
        head = " ".join(words[:2]) if words[0] in rulesets.names() else words[0]
        return refused(f"'{head[:60]}' is not a roll: the table rolls rolls alone")
    ruleset = words[0] if words[0] in rulesets.names() else None
    record = rulesets.get(ruleset).command(command[2]) if ruleset is not None else None
    if record is not None and not record.seated:
        return refused(f"'{ruleset} {command[2]}' is not run at the table: a seat runs "
                       "only rolls, roll types and odds")
    if not gm:
        assert seat is not None  # only the GM rolls without a seat
        compared = _compared(words)
        if isinstance(compared, Answer):
            return compared
        for word in words + compared:
            name = word.split("=", 1)[0]
            if name in FORBIDDEN:
                return refused(f"a seat may not give {FORBIDDEN[name]}")
        if ruleset is not None and getattr(command[0], "rpgdice_kind", None) != "odds":
            problem = _not_its_ruleset(ruleset, seat)
            if problem is not None:
                return refused(problem)
        seated = _seated(words, command, seat, compared)
        if isinstance(seated, Answer):
            return seated
        words, command = seated, top._roll_command(seated) or _odds_command(top, seated)
    output.SPOKEN[:] = ["en", ""]
    try:
        spec, sheet, extras = top.parse_words(words, command)
    except RulesError as e:
        return Answer(400, {"error": output.one_line(output.spoken(str(e)), e.echo)})
    except UsageError as e:
        return Answer(400, {"error": output.one_line(output.spoken(cli._usage_message(e)))})
    if not gm:
        assert seat is not None
        problem = _check(spec, seat)
        if problem is not None:
            return refused(problem)
    spec = spec.replace(seat=None if seat is None else seat.name, log=True, json=True,
                        short=False)
    return spec, sheet, extras


def _odds_command(top: Commands, words: list[str]) -> Optional[Found]:
    """An odds command (``odds EXPR``, ``RULESET odds ...``) as ``_roll_command`` gives a
    roll's: its command, group, name and arguments; None for any other line."""
    from rpgdice import rulesets

    if any(w in ("--help", "-h", "--version") for w in words):
        return None
    group: Commands | None
    if words[:1] == ["odds"]:
        group, args = top, words[1:]
    elif len(words) > 1 and words[1] == "odds" and words[0] in rulesets.names():
        group, args = top.get_command(None, words[0]), words[2:]
    else:
        return None
    if group is None:
        return None
    cmd = group.get_command(None, "odds")
    if cmd is None or getattr(cmd, "rpgdice_kind", None) != "odds":
        return None
    return cmd, group, "odds", args


MAX_SEAT_COMPARE = 3
"""The most ``--compare`` a seat may give in one line (each is a whole odds computation)."""


def _expression(top: Commands, head: str) -> bool:
    """Whether a line whose first word is ``head`` is an ordinary dice expression alone, as
    ``rpgdice play`` rolls it (``2d6+3``: ``roll 2d6+3``)."""
    from rpgdice.cli.session import _EXPRESSION_LIKE

    return bool(_EXPRESSION_LIKE.match(head)) and top.get_command(None, head) is None


def _compared(words: list[str]) -> list[str] | Answer:
    """The words of the line's ``--compare`` alternatives, split as the command splits
    them, to be checked as the line's own (an :class:`Answer` refusing too many)."""
    given = _given("--compare", words)
    if len(given) > MAX_SEAT_COMPARE:
        return refused(f"a seat may give --compare {MAX_SEAT_COMPARE} times at most "
                       f"(given {len(given)})")
    out: list[str] = []
    for text in given:
        try:
            out += shlex.split(text)
        except ValueError as e:
            return Answer(400, {"error": f"--compare: {e}"})
    return out


def _rulesets_of(seat: Seat) -> set[str]:
    """The rulesets of the seat's characters (a sheet that cannot be read gives none)."""
    from rpgdice.table import sheets

    out = set()
    for name in seat.characters:
        try:
            out.add(sheets.load(name, "--as").ruleset)
        except RulesError:
            continue
    return out


def _not_its_ruleset(ruleset: str, seat: Seat) -> Optional[str]:
    """Why a seat may not roll ``ruleset``'s rolling commands (None: a character of it is
    the seat's)."""
    from rpgdice import rulesets

    mine = _rulesets_of(seat)
    if ruleset in mine:
        return None
    title = rulesets.get(ruleset).title
    return (f"seat {seat.name} rolls {title} rolls only as a {title} character of its own "
            f"(its characters: {', '.join(seat.characters) or 'none'}); its odds are open")


def _seated(words: list[str], command: Found, seat: Seat, compared: list[str]) -> list[str] | Answer:
    """The words with ``--as`` the seat's character for its ruleset's commands, unless
    one of the seat's is named (``--as`` and ``--vs`` checked in ``compared`` too)."""
    from rpgdice.core.names import fold
    from rpgdice.table import sheets

    mine = {fold(c) for c in seat.characters}
    for name in _given("--as", words + compared):
        if fold(name) not in mine:
            return refused(f"--as {name[:40]}: seat {seat.name} rolls as "
                           f"{', '.join(seat.characters) or 'no character'}")
    for name in _given("--vs", words + compared):
        problem = _outside_encounter(name)
        if problem is not None:
            return refused(problem)
    cmd = command[0]
    takes_as = any("--as" in getattr(p, "opts", ()) for p in cmd.params)
    if not takes_as or any(w == "--as" or w.startswith("--as=") for w in words):
        return words

    ruleset = words[0]
    own = []
    for name in seat.characters:
        try:
            if sheets.load(name, "--as").ruleset == ruleset:
                own.append(name)
        except RulesError:
            continue
    if len(own) > 1:
        return refused(f"seat {seat.name} rolls as {', '.join(own)}: name one with --as")
    return words + ["--as", own[0]] if own else words


def _given(option: str, words: list[str]) -> list[str]:
    """The values ``option`` is given in ``words`` (``--as NAME`` or ``--as=NAME``)."""
    out = []
    for i, word in enumerate(words):
        if word == option and i + 1 < len(words):
            out.append(words[i + 1])
        elif word.startswith(option + "="):
            out.append(word[len(option) + 1:])
    return out


def _outside_encounter(name: str) -> Optional[str]:
    """Why a seat may not attack ``name`` (None: a combatant of the current encounter)."""
    from rpgdice.core.names import fold
    from rpgdice.table import encounter

    found = encounter.load()
    if found is None:
        return "--vs: there is no encounter; a seat attacks only its combatants"
    if fold(name) not in {fold(s.name) for s in found.order}:
        return f"--vs {name[:40]}: a seat attacks only a combatant of the current encounter"
    if found.extra(name) is not None and _saved(name):  # the name means the character
        return (f"--vs {name[:40]}: {name[:40]} is a saved character outside the encounter "
                "(the encounter's is an extra of that name); a seat attacks only a "
                "combatant of the current encounter")
    return None


def _saved(name: str) -> bool:
    """Whether a saved character is called ``name``."""
    from rpgdice.table import sheets

    try:
        return sheets.path_of(name).is_file()
    except (OSError, RulesError):
        return False


def _check(spec: RollSpec, seat: Seat) -> Optional[str]:
    """What a seat may not do that its roll's value asks (None: nothing)."""
    from rpgdice.core.names import fold

    if spec.dice is not None or spec.seed is not None:
        return "a seat may not give --dice or --seed (the table rolls a seat's dice)"
    if spec.log is False:
        return "a seat may not give --no-log (a seat's rolls are logged)"
    if spec.times > MAX_TIMES:
        return f"a seat may roll -n {MAX_TIMES} at most"
    for _typed, alt in spec.compare:  # checked as the line's own options
        problem = _check(alt, seat)
        if problem is not None:
            return f"--compare: {problem}"
    if spec.character is not None and fold(spec.character.name) not in {
            fold(c) for c in seat.characters}:
        return (f"--as {spec.character.name}: seat {seat.name} rolls as "
                f"{', '.join(seat.characters) or 'no character'}")
    vs = spec.arg("vs")
    if vs is None and spec.target is not None:
        vs = spec.target.name
    if vs is not None and spec.arg("defender_willpower") and fold(str(vs)) not in {
            fold(c) for c in seat.characters}:  # the target's Willpower: its player's to spend
        return (f"--defender-willpower: {str(vs)[:40]} spends its own Willpower; seat "
                f"{seat.name} spends only its own characters' "
                f"({', '.join(seat.characters) or 'none'})")
    return _outside_encounter(str(vs)) if vs is not None else None


def _unwritable_log() -> Optional[str]:
    """Why the roll log cannot be written now (None: it can)."""
    import sqlite3

    from rpgdice.table import paths
    from rpgdice.table.log import Log, LogUnavailable, written_lately

    if paths.home_problem() is None and written_lately(paths.log_file()):
        return None  # the file the last roll went into, still writable: not opened again
    try:
        log = Log.open(write=True)
    except LogUnavailable as e:
        return str(e)
    except (sqlite3.Error, OSError, RulesError) as e:
        return f"the roll log cannot be written: {e}"
    if log is not None:
        log.close()
    return None


def _executed(spec: RollSpec, sheet: Sheet | None, extras: Optional[Loaded]) -> Answer:
    """Execute ``spec`` with its JSON output captured: the answer's rolls."""
    from rpgdice import rulesets
    from rpgdice.render import output
    from rpgdice.roll.execute import execute

    if not spec.odds_alone:
        problem = _unwritable_log()
        if problem is not None:  # said before anything is spent or rolled
            return Answer(503, {"error": problem})
    route, route_err = routed(), routed("stderr")
    out, err = io.StringIO(), io.StringIO()
    route.local.target, route_err.local.target = out, err
    try:
        if rulesets.known(spec.ruleset):
            output.SPOKEN[:] = [rulesets.get(spec.ruleset).language, spec.ruleset]
        try:
            entry = execute(spec, sheet=sheet, extras=extras)
        except RulesError as e:
            return Answer(400, {"error": output.one_line(output.spoken(str(e)), e.echo)})
    finally:
        route.local.target = route_err.local.target = None
        output.SPOKEN[:] = ["en", ""]
    if entry is None and not spec.odds_alone and "not logged" in err.getvalue():
        return Answer(503, {"error": err.getvalue().strip().splitlines()[-1]
                            .removeprefix("rpgdice: warning: ")})
    rolls = []
    for text in out.getvalue().split("\n"):  # one object a line: never split at a
        # U+2028, U+2029 or U+0085 inside a label (str.splitlines would)
        if text.strip():
            obj = json.loads(text)
            if isinstance(obj, dict):
                obj["id"], obj["seat"] = entry, spec.seat
            rolls.append(obj)
    if spec.blind and spec.seat is not None:  # the GM's alone: the seat learns it was rolled
        hidden = _blind(entry, spec)
        return Answer(200, {"rolls": [hidden for _ in rolls]})
    shown = _shown(entry)
    return Answer(200, {"rolls": rolls, **({"shown": shown} if shown else {})})


def _blind(entry: Optional[int], spec: RollSpec) -> Loaded:
    """A seat's blind (or held) roll as the seat is answered: what ``/api/rolls`` gives
    of a hidden roll (:data:`~rpgdice.table.log.entries.SECRET_KEYS`, from its log entry), never its
    results."""
    from rpgdice.table.log import Log
    from rpgdice.table.log.entries import SECRET_KEYS, on_the_table
    from rpgdice.table.log.store import now

    found = None
    try:
        log = Log.open(write=False) if entry is not None else None
        found = log.get(entry) if log is not None and entry is not None else None
        if log is not None:
            log.release()
    except Exception:  # the log unreadable now: said from the spec
        found = None
    if found is not None and found.get("secret"):
        return on_the_table(found)
    said = {"id": entry, "time": now(), "seat": spec.seat, "ruleset": spec.ruleset,
            "command": spec.command, "secret": True, "blind": bool(spec.blind),
            "character": spec.character.name if spec.character is not None else None}
    return {k: said[k] for k in SECRET_KEYS}


def _shown(entry: Optional[int]) -> Optional[Loaded]:
    """What the logged entry's view showed beside its results, as the log stored it: the
    character line of ``--as`` (the traits it named, what it paid) and an attack target's
    (``envelopes``), the spec of its exact odds (``odds``, with ``--odds``), and whether its
    repeats were shown in their short form (``compact``): a joined terminal (``rpgdice table
    join``) prints the roll as a local roll does. None when nothing was logged."""
    if entry is None:
        return None
    from rpgdice.table import paths
    from rpgdice.table.log import Log, added_here, shown_data

    found = None
    here = added_here(entry, paths.log_file())
    if here is not None and not (isinstance(here[1], int) and here[1] > 1):
        brief: Optional[tuple[Optional[Loaded], object]] = (shown_data(here[0]), here[1])
    else:  # the entry's shown and count read back; the whole entry only to replay repeats
        try:
            log = Log.open(write=False)
            if log is None:
                return None
            try:
                brief = log.shown_of(entry)
                count = brief[1] if brief is not None else None
                found = log.get(entry) if isinstance(count, int) and count > 1 else None
            finally:
                log.release()
        except Exception:  # the log unreadable now: the answer's rolls stand alone
            return None
    if brief is None:
        return None
    shown: Loaded = brief[0] if isinstance(brief[0], dict) else {}
    out = {key: shown[key] for key in ("envelopes", "odds") if shown.get(key)}
    try:
        from rpgdice.cli.replay import capture

        if found is not None and capture(found, roll=False).compact:
            out["compact"] = True
    except Exception:  # not a roll this rpgdice parses again: shown in full
        pass
    return out or None
