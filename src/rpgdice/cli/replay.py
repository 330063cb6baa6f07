"""A logged roll as a value again: :func:`entry_spec` is the
:class:`~rpgdice.roll.spec.RollSpec` the log stored with the entry, and :func:`capture`
executes it printing, paying and logging nothing (rpgdice.roll.execute.replay).

``log show --replay`` (replay and check), ``log show`` of an entry longer than the log
keeps (the rest), ``log stats`` and ``again`` (the roll with fresh dice) rebuild the roll
from the stored spec and never from the words it was typed with: the stored ``argv`` is
for display only, so an entry whose argv was edited by hand still replays what was
rolled. Only an entry of an older rpgdice, which stored no spec, is read from its argv —
parsed into a spec by the command line without running anything, and only when it is a
roll of a known kind (:func:`rpgdice.cli.stored.is_roll`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Optional

from rpgdice.core.data import Loaded
from rpgdice.core.errors import RulesError
from rpgdice.roll.execute import Capture
from rpgdice.roll.spec import BadSpec, RollSpec

VALUED = ("--seed", "--dice")
"""Options that take a value and name the dice (dropped for fresh dice)."""
FLAGS = ("--json", "--log", "--no-log")
"""Options about output and logging, not about the roll."""


def strip(argv: Iterable[str], valued: tuple[str, ...] = VALUED,
          flags: tuple[str, ...] = ()) -> list[str]:
    """``argv`` without the options ``valued`` (and their values, ``--seed 5`` or
    ``--seed=5``) and the flags ``flags``. Everything after ``--`` is kept."""
    out: list[str] = []
    args = iter(argv)
    for a in args:
        if a == "--":
            out.append(a)
            out.extend(args)
            break
        if a in valued:
            next(args, None)
            continue
        if a.split("=", 1)[0] in valued and "=" in a:
            continue
        if a in flags:
            continue
        out.append(a)
    return out


def with_character(argv: list[str], character: Optional[str]) -> list[str]:
    """A character's roll made through ``RPGDICE_AS`` names it on replay, where its
    command takes ``--as`` (``seyruun reroll`` does not: the entry it re-rolls says whose
    roll it was)."""
    from rpgdice import rulesets

    record = rulesets.get(argv[0]).command(argv[1]) if len(argv) >= 2 and rulesets.known(
        argv[0]) else None
    if record is None or not record.takes_as:
        return argv
    if character and not any(a == "--as" or a.startswith("--as=") for a in argv):
        return [*argv, "--as", character]
    return argv


class NotARoll(RulesError):
    """A logged entry that holds no roll this rpgdice can make again (forged, foreign)."""


def not_a_roll(entry: Loaded) -> NotARoll:
    return NotARoll("ID", f"entry {entry['id']} is no roll of a kind this rpgdice knows "
                    f"('{' '.join(entry['argv'][:2])}')")


def entry_spec(entry: Loaded) -> RollSpec:
    """The roll value of a logged entry: the spec the log stored; for an entry of an older
    rpgdice (none stored), its words parsed — a roll of a known kind only. A
    :class:`NotARoll` when the entry holds no roll this rpgdice can make again; the words
    of an older entry that no longer parse (a sheet gone) raise their usage error."""
    from rpgdice.cli import stored
    from rpgdice.roll.execute import builder

    data = entry.get("roll")
    if data is not None:
        try:
            spec = RollSpec.from_data(data)
            builder(spec.ruleset, spec.command)  # a roll this rpgdice makes, or an error
        except (BadSpec, RulesError):
            raise not_a_roll(entry) from None
        return spec.replace(argv=tuple(entry["argv"]))
    if not stored.is_roll(entry["argv"]):
        raise not_a_roll(entry)
    argv = with_character(strip(entry["argv"], flags=FLAGS), entry.get("character"))
    if argv[:2] == ["encounter", "start"]:  # its roll: the initiative of its combatants
        argv = ["seyruun", "initiative", *argv[2:]]
    return parse(argv).replace(argv=tuple(entry["argv"]))


def parse(argv: list[str]) -> RollSpec:
    """``rpgdice ARGV`` parsed into its roll value, nothing run; a usage error (Click's,
    or a RulesError) when it makes none."""
    from rpgdice.cli import root
    from rpgdice.cli.output import PROG
    from rpgdice.cli.runs import Run

    group = root()
    run = Run(list(argv), parse_only=True)
    with group.make_context(PROG, list(argv), obj=run) as ctx:
        group.invoke(ctx)
    if run.parsed is None:
        raise RulesError("command", f"'{' '.join(argv[:2])}' is no roll")
    return run.parsed[0]


def budgets(entry: Loaded) -> list[int | None]:
    """What each stored result of a character's roll spent (``willpower_spent``), the
    budget a roll paid as it went replays with."""
    if not entry.get("character"):
        return []
    return [r.get("willpower_spent") if isinstance(r, dict) else None
            for r in entry.get("results") or []]


def replay_spec(entry: Loaded) -> RollSpec:
    """The entry's roll with its own dice (its faces, else its seed), shown and kept
    nowhere: what ``log show --replay`` rolls."""
    from rpgdice import rulesets

    spec = entry_spec(entry)
    record = rulesets.get(spec.ruleset).command(spec.command)
    named = record.entry_arg if record is not None else None
    if named is not None and entry.get("results") and isinstance(entry["results"][0], dict):
        # A roll acting on a logged one (`seyruun reroll`) without its ID meant the last
        # one then: name the entry its result says it acted on.
        param, key = named
        target = entry["results"][0].get(key)
        if isinstance(target, int) and spec.arg(param) is None:
            spec = spec.with_args(**{param: target})
    faces = entry.get("faces")
    return spec.replace(dice=None if faces is None else tuple(faces),
                        seed=None if faces is not None else entry.get("seed"),
                        log=False, json=False, short=False, secret=False, compare=())


def capture(entry: Loaded, *, roll: bool, head: int = Capture.HEAD) -> Capture:
    """Execute the entry's roll again, printing, paying and logging nothing: what it
    rolls (with ``roll``; the first ``head`` results at once, the rest as they are read)
    and the exact odds spec of its roll."""
    from rpgdice.roll.execute import replay

    return replay(replay_spec(entry), roll=roll, budgets=budgets(entry), head=head)
