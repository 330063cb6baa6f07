"""`rpgdice cypher`: Cypher System tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from rpgdice.cli import params
from rpgdice.cli.common import Plan, Work, exact_odds, rolls, ruleset_app
from rpgdice.rulesets.cypher import RULESET  # its help, said once, in the record
from rpgdice.rulesets.cypher.rules import DIFFICULTIES, MAX_ASSET, MAX_EFFORT, SKILLS

if TYPE_CHECKING:
    from rpgdice.rulesets.cypher.rules import CypherTask

app = ruleset_app(RULESET.help)

DifficultyOpt = Annotated[
    int,
    typer.Option("-d", "--difficulty", parser=params.level(
                     DIFFICULTIES, 0, 10, lambda d: f"difficulty {d}, target {3 * d}"),
                 metavar="LEVEL",
                 help="Difficulty 0-10 or its name: " + ", ".join(DIFFICULTIES) + ".",
                 show_default=False),
]
EaseOpt = Annotated[
    int, typer.Option("--ease", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                      show_default=False, help="Steps the task is eased."),
]
HinderOpt = Annotated[
    int, typer.Option("--hinder", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                      show_default=False, help="Steps the task is hindered."),
]
SkillOpt = Annotated[
    Optional[str],
    typer.Option("--skill", parser=params.choice(SKILLS, {
                     "trained": "eases 1 step", "specialized": "eases 2 steps",
                     "inability": "hinders 1 step"}), metavar="LEVEL",
                 help="trained eases 1 step, specialized 2; inability hinders 1."),
]
AssetOpt = Annotated[
    int, typer.Option("--asset", parser=params.integer(0, MAX_ASSET), metavar="N",
                      show_default=False, help=f"Assets: 0 to {MAX_ASSET} steps."),
]
EffortOpt = Annotated[
    int, typer.Option("--effort", parser=params.integer(0, MAX_EFFORT), metavar="N",
                      show_default=False, help=f"Levels of Effort: 0 to {MAX_EFFORT}, one step each."),
]
EdgeOpt = Annotated[
    int, typer.Option("--edge", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                      show_default=False, help="Edge, taken off the Effort cost."),
]
BonusOpt = Annotated[
    int, typer.Option("--bonus", parser=params.integer(0, params.MAX_NUMBER), metavar="N",
                      show_default=False, help="Flat bonus added to the d20."),
]
AttackOpt = Annotated[
    bool, typer.Option("--attack", help="An attack: 17 and 18 add damage, 19/20 may add more."),
]


def _task(difficulty: int, ease: int, hinder: int, skill: str | None, asset: int,
          effort: int, edge: int, bonus: int, attack: bool) -> CypherTask:
    """The task the arguments describe: shared by ``task`` and ``odds``."""
    from rpgdice.rulesets.cypher import rules as cypher

    return cypher.CypherTask(
        difficulty=difficulty, ease=ease, hinder=hinder, skill=skill, asset=asset,
        effort=effort, edge=edge, bonus=bonus, attack=attack,
    )


def task_cmd(
    difficulty: DifficultyOpt,
    ease: EaseOpt = 0,
    hinder: HinderOpt = 0,
    skill: SkillOpt = None,
    asset: AssetOpt = 0,
    effort: EffortOpt = 0,
    edge: EdgeOpt = 0,
    bonus: BonusOpt = 0,
    attack: AttackOpt = False,
) -> Plan:
    """Attempt a task: d20 against 3 × (difficulty − easing + hindering).

    Routine (0 or less) succeeds with no roll; a target even 20 + bonus cannot
    reach fails with no roll.

    Example: rpgdice cypher task --difficulty 5 --ease 2
    """
    from rpgdice.rulesets.cypher import rules as cypher

    task = _task(difficulty, ease, hinder, skill, asset, effort, edge, bonus, attack)
    exact = exact_odds("cypher", "cypher_odds", task)
    return Plan(lambda source: cypher.roll(task, source), work=Work(1), odds=exact, stats=exact)


rolls(app, "task", RULESET.name)(task_cmd)
rolls(app, "roll", RULESET.name, help=(task_cmd.__doc__ or "").replace(
    "Attempt a task:", "The same command as task: attempt a task,", 1).replace(
    "cypher task", "cypher roll"))(task_cmd)
"""Every other group rolls with ``roll``: in the Cypher group it is ``task`` by another name."""


rolls(app, "odds", RULESET.name, kind="odds", help="""Exact odds of a task, without rolling: success and failure (routine and
    impossible tasks included) and each special roll.

    Example: rpgdice cypher odds --difficulty 5 --ease 2 --attack
    """)(task_cmd)
"""The odds of the roll the same arguments make: its builder, its odds alone."""
