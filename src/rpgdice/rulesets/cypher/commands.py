"""`rpgdice cypher`: Cypher System tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from rpgdice.cli import params
from rpgdice.core.budget import Work
from rpgdice.core.command import REQUIRED, Command, Param
from rpgdice.core.errors import BadValue, RulesError
from rpgdice.roll.odds import exact_odds
from rpgdice.roll.plan import Effects, Plan
from rpgdice.rulesets import lazily
from rpgdice.rulesets.cypher import rules as cypher_rules
from rpgdice.rulesets.cypher.rules import DIFFICULTIES, MAX_ASSET, MAX_EFFORT, SKILLS

if TYPE_CHECKING:
    from rpgdice.roll.run import Turn


# The functions of its odds.py its exact odds are computed by, each imported (with icepool)
# at its first call.


@lazily
def cypher_odds() -> Any:
    from rpgdice.rulesets.cypher.odds import cypher_odds

    return cypher_odds


@lazily
def cypher_recovery_odds() -> Any:
    from rpgdice.rulesets.cypher.odds import cypher_recovery_odds

    return cypher_recovery_odds

DIFFICULTY = Param(
    "difficulty", "number", flags=("-d", "--difficulty"), default=REQUIRED, lo=0, hi=10,
    parse=params.level(DIFFICULTIES, 0, 10, lambda d: f"difficulty {d}, target {3 * d}"),
    metavar="LEVEL", help="Difficulty 0-10 or its name: " + ", ".join(DIFFICULTIES) + ".")
EASE = Param("ease", "number", flags=("--ease",), parse=params.integer(0, params.MAX_NUMBER),
             metavar="N", default=0, lo=0, hi=params.MAX_NUMBER, help="Steps the task is eased.")
HINDER = Param("hinder", "number", flags=("--hinder",), parse=params.integer(0, params.MAX_NUMBER),
               metavar="N", default=0, lo=0, hi=params.MAX_NUMBER,
               help="Steps the task is hindered.")
SKILL = Param("skill", "choice", flags=("--skill",), choices=tuple(SKILLS), completes="skills",
              parse=params.choice(SKILLS, {"trained": "eases 1 step", "specialized": "eases 2 steps",
                                           "inability": "hinders 1 step"}), metavar="LEVEL",
              help="trained eases 1 step, specialized 2; inability hinders 1.")
ASSET = Param("asset", "number", flags=("--asset",), parse=params.integer(0, MAX_ASSET),
              metavar="N", default=0, lo=0, hi=MAX_ASSET, help=f"Assets: 0 to {MAX_ASSET} steps.")
EFFORT = Param("effort", "number", flags=("--effort",), parse=params.integer(0, MAX_EFFORT),
               metavar="N", default=0, lo=0, hi=MAX_EFFORT,
               help=f"Levels of Effort: 0 to {MAX_EFFORT}, one step each.")
EDGE = Param("edge", "number", flags=("--edge",), parse=params.integer(0, params.MAX_NUMBER),
             metavar="N", default=0, lo=0, hi=params.MAX_NUMBER,
             help="Edge, taken off the Effort cost.")
BONUS = Param("bonus", "number", flags=("--bonus",), parse=params.integer(0, params.MAX_NUMBER),
              metavar="N", default=0, lo=0, hi=params.MAX_NUMBER,
              help="Flat bonus added to the d20.")
ATTACK = Param("attack", "flag", flags=("--attack",), default=False,
               help="An attack: 17 and 18 add damage, 19/20 may add more.")


def _target_named(name: str) -> tuple[Any, Any]:
    """The target ``--vs`` names (rulesets/cypher/target.py, loaded when one is named);
    the executor reads it (rpgdice.roll.target)."""
    from rpgdice.rulesets.cypher.target import target_named

    return target_named(name)


_vs_name = params.target("an extra of the encounter with health")

DAMAGE = Param("damage", "number", flags=("--damage",), parse=params.integer(0, params.MAX_NUMBER),
               metavar="N", lo=0, hi=params.MAX_NUMBER,
               help="With --attack and --vs: the damage a success deals, plus 17 +1, 18 +2, "
               "19 +3, 20 +4 (none when the attacker is impaired); the target's armor first.")
VS = Param("vs", "character", flags=("--vs",), parse=_vs_name, metavar="NAME", eager=True,
           target=_target_named, completes="characters",
           help="The target: a saved character (its Pools: Might, then Speed, then "
           "Intellect) or an extra of the encounter (its health).")


def task_cmd(
    difficulty: int,
    ease: int = 0,
    hinder: int = 0,
    skill: str | None = None,
    asset: int = 0,
    effort: int = 0,
    edge: int = 0,
    bonus: int = 0,
    attack: bool = False,
    damage: int | None = None,
    vs: str | None = None,
    run: Turn | None = None,
) -> Plan:
    """Attempt a task: d20 against 3 × (difficulty − easing + hindering).

    Routine (0 or less) succeeds with no roll; a target even 20 + bonus cannot
    reach fails with no roll.

    An attack with --damage N --vs NAME deals its damage to NAME on a success.

    Example: rpgdice cypher task --difficulty 5 --ease 2
    """
    from rpgdice.rulesets.cypher import rules as cypher
    from rpgdice.rulesets.cypher.character import impaired_in

    task = cypher.CypherTask(  # impaired (the roll's character): Effort costs more
        difficulty=difficulty, ease=ease, hinder=hinder, skill=skill, asset=asset,
        effort=effort, edge=edge, bonus=bonus, attack=attack,
        impaired=run is not None and impaired_in(run.labels))
    exact = exact_odds("cypher", cypher_odds, task)
    hurt = _hurt(damage, vs, attack, run)
    _say_debilitated(run)
    return Plan(lambda source: cypher.roll(task, source), work=Work(1), odds=exact, stats=exact,
                target=hurt.side if hurt is not None else None,
                effects=_Hurts(hurt) if hurt is not None else None)


def _say_debilitated(state: Turn | None) -> None:
    """(SRD) Debilitated: no action but to move. A task ``--as`` such a character still
    rolls (the GM rules), with a warning line saying so."""
    if state is None or state.sheet is None or state.replaying:
        return
    from rpgdice.rulesets.cypher.target import state_of

    now = state_of(state.sheet)
    if now in ("debilitated", "dead"):
        from rpgdice.render.output import warning

        warning(f"{state.sheet.name} is {now}: no action but to move (the rules); rolled anyway")


def _hurt(damage: Optional[int], vs: Optional[str], attack: bool, state: Turn | None) -> Any:
    """The attack's target (``--vs``) and the damage it takes; None without one."""
    if damage is None and vs is None:
        return None
    if damage is None or vs is None:
        raise RulesError("--damage" if vs is None else "--vs",
                         "an attack's damage needs both --damage N and --vs NAME")
    if not attack:
        raise RulesError("--damage", "damage is dealt by an attack: add --attack")
    from rpgdice.rulesets.cypher.character import IMPAIRED
    from rpgdice.rulesets.cypher.target import Hurt, state_of

    assert state is not None
    # --vs: the target the executor read (rpgdice.roll.target), a replay's too
    target, extra = state.extras.get("target"), state.extras.get("target_extra")
    impaired = state.sheet is not None and state_of(state.sheet) in IMPAIRED
    hurt = Hurt(target, extra, damage, impaired)
    hurt.replaying = state.replaying
    return hurt


class _Hurts(Effects):
    """The target's damage: written once the roll was shown and logged (a replay writes
    nothing); nothing was written before, so there is nothing to undo."""

    def __init__(self, hurt: Any) -> None:
        self.hurt = hurt

    def finish(self, entry: Optional[int]) -> None:
        if not self.hurt.replaying:
            self.hurt.apply()


ROLL_HELP = (task_cmd.__doc__ or "").replace(
    "Attempt a task:", "The same command as task: attempt a task,", 1).replace(
    "cypher task", "cypher roll")
"""Every other group rolls with ``roll``: in the Cypher group it is ``task`` by another name."""

ODDS_HELP = """Exact odds of a task, without rolling: success and failure (routine and
    impossible tasks included) and each special roll.

    Example: rpgdice cypher odds --difficulty 5 --ease 2 --attack
    """


def _split(text: str) -> str:
    """``--to might=N,speed=N,intellect=N``: how the recovery's points are split."""
    from rpgdice.rulesets.cypher import POOLS

    parts = {}
    for part in str(text).replace(" ", "").lower().split(","):
        name, eq, n = part.partition("=")
        if name not in POOLS or not eq or not n.isdigit() or name in parts:
            raise BadValue(f"{text!r} is not POOL=N[,POOL=N...] of " + ", ".join(POOLS))
        parts[name] = int(n)
    return ",".join(f"{k}={v}" for k, v in parts.items())


_split.accepts = "might=N,speed=N,intellect=N"  # type: ignore[attr-defined]

TO = Param("to", "text", flags=("--to",), parse=_split, metavar="POOL=N,...",
           help="Split the points: N to each Pool named, in that order, as far as the roll "
           "goes; the rest (all of them without --to) to Might, then Speed, then Intellect, "
           "each up to its maximum.")
RESET = Param("reset", "flag", flags=("--reset",), default=False,
              help="A new day: the four recoveries start over.")


def _not_full(name: str, pools: dict[str, int], maxima: dict[str, int | None],
              replaying: bool) -> None:
    """A recovery with every Pool at its maximum is refused: it would use up the day's
    next recovery for nothing (a replay shows what was)."""
    if not replaying and pools and all(v >= (maxima.get(p) or v + 1) for p, v in pools.items()):
        raise RulesError("--as", f"{name}'s Pools are full, so a recovery roll would use up "
                         "the day's next recovery for nothing; nothing was rolled")


def recover_cmd(to: str | None = None, reset: bool = False, run: Turn | None = None) -> Plan:
    """A recovery roll: 1d6 + the sheet's tier (default 1) back into the Pools.

    Four a day, in order: one action, ten minutes, one hour, ten hours (the sheet counts
    them in recoveries); a fifth is refused until --reset. Needs --as.

    Example: rpgdice cypher recover --as ana --to might=2,speed=9
    """
    from rpgdice.rulesets.cypher import rules as cypher
    from rpgdice.rulesets.cypher.target import pools_of, recovered

    state = run
    assert state is not None
    sheet = state.sheet
    if sheet is None:
        raise RulesError("--as", "a recovery roll is a character's: give --as NAME")
    if state.spec.times != 1:
        raise RulesError("-n", "one recovery roll at a time")
    tier, used = sheet.get("tier", 1), sheet.get("recoveries", 0)
    pools = pools_of(sheet)
    spec = cypher.CypherRecovery(
        tier=tier if isinstance(tier, int) else 1,
        recovery=0 if reset else used if isinstance(used, int) else 0,
        pools=pools, maxima={p: sheet.maximum(p) for p in pools},
        split=None if to is None else {k: int(v) for k, v in
                                       (p.split("=") for p in to.split(","))})
    wrong = None if spec.split is None or state.replaying else cypher.split_refused(
        pools, spec.maxima, spec.split)
    if wrong is not None:  # wrong whatever the roll: refused before rolling
        raise RulesError("--to", f"{wrong}; nothing was rolled")
    _not_full(sheet.name, pools, spec.maxima, state.replaying)
    rolled: list[Any] = []

    def roll(source: Any) -> Any:
        rolled.append(cypher.roll_recovery(spec, source))
        return rolled[-1]

    class Recovered(Effects):
        def finish(self, entry: Optional[int]) -> None:
            for result in rolled:
                recovered(sheet, result, reset)

    before = {**spec.pools, **{f"{p}-max": m for p, m in spec.maxima.items() if m is not None},
              "recoveries": spec.recovery, "recoveries-max": 4}

    split = {f"to-{k}": v for k, v in (spec.split or {}).items()}

    def held(result: Any) -> dict[str, Any]:
        """What the recovery did to the sheet: its points, as split (serve/secrecy.py
        takes a secret one back, and makes a public one again on other Pools)."""
        return {"held": [{"who": sheet.name, "before": before,
                          "change": {"recover": result.points, **split, "recoveries": 1}}]}

    return Plan(roll, work=Work(1), odds=exact_odds("cypher", cypher_recovery_odds, spec),
                target=None if state.replaying else held,
                effects=None if state.replaying else Recovered())


TASK_PARAMS = (DIFFICULTY, EASE, HINDER, SKILL, ASSET, EFFORT, EDGE, BONUS, ATTACK, DAMAGE, VS)
COMMANDS = (
    Command("task", task_cmd, TASK_PARAMS, help=task_cmd.__doc__ or "",
            results=(cypher_rules.CypherResult,), takes_as=True, stats=True,
            odds_functions=(cypher_odds,)),
    Command("roll", task_cmd, TASK_PARAMS, help=ROLL_HELP, results=(cypher_rules.CypherResult,),
            takes_as=True, stats=True, odds_functions=(cypher_odds,)),
    Command("odds", task_cmd, TASK_PARAMS, help=ODDS_HELP, kind="odds", takes_as=True,
            odds_functions=(cypher_odds,)),
    Command("recover", recover_cmd, (TO, RESET), help=recover_cmd.__doc__ or "",
            results=(cypher_rules.CypherRecoveryResult,), takes_as=True, seated=False,
            without=frozenset({"compare"}),
            option_help={"odds": "Add the exact chance of each total of 1d6 + tier."},
            odds_functions=(cypher_recovery_odds,)),
)
"""Its commands: ``task``; ``roll``, the same (every other group rolls with ``roll``);
``odds``, the same arguments' odds alone; ``recover``."""
