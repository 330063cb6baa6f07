"""Roll types written once: combinators over any ruleset's single roll.

A ruleset supplies its single roll (its spec and its ``evaluate``/``roll``) and only its
own parts; these combinators make the roll types of it, the way icepool composes
mechanics out of one die:

* :func:`contest` — two rolls compared: the ruleset's score of a roll, its tie rule (who
  wins equal scores) and whether the attacker may win at all;
* :func:`extended` — one roll accumulated until a target, a roll limit, or an outcome that
  ends the attempt (the ruleset's gain of a roll and its ending word);
* :func:`team_sum` — every member's roll summed against a difficulty;
* :func:`series` — several actions in one turn, one roll each, judged as one;
* :func:`retry` — attempt after attempt until one stands, or the limit;

and :func:`verdict`, the combined verdict of any of them in the ruleset's words.

Their results are records generic over the single roll's result (``R``) and odds
(``O``); a ruleset's own records are thin subclasses that name its ruleset and command
(:class:`rpgdice.core.record.Tagged`) and add its own fields after these (the JSON keys
keep that order; the roll log rebuilds a subclass's nested rolls as the ruleset's own
records, :mod:`rpgdice.core.rebuild`). Which roll types a ruleset offers, its record
declares (its commands' records: ``odds_type``, ``results``). Their exact odds are
:mod:`rpgdice.core.rolltypes_odds`, loaded on the odds path only.

Pure: nothing above rpgdice.core (no typer, rich, files, sqlite, clock, no ruleset).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from rpgdice.core.record import Tagged, record

if TYPE_CHECKING:
    from fractions import Fraction

R = TypeVar("R")
"""A single roll's result record."""
O = TypeVar("O")  # noqa: E741
"""A single roll's odds record."""
S = TypeVar("S")
"""A single roll's spec."""

ATTACKER = "attacker"
DEFENDER = "defender"
SUCCESS = "success"
FAILURE = "failure"


# Contest: two rolls compared ------------------------------------------------------------


def contest_winner(attacker: int, defender: int, tie: str, attacker_may_win: bool = True) -> str:
    """The side with the higher score wins; equal scores go to ``tie``; an attacker that
    may not win (Reglas: it missed its own difficulty) loses whatever it scored."""
    if not attacker_may_win:
        return DEFENDER
    if attacker == defender:
        return tie
    return ATTACKER if attacker > defender else DEFENDER


@record
class ContestResult(Tagged, Generic[R]):
    """Both sides' rolls, the winner (``outcome`` is the attacker's), and the scores'
    difference."""

    outcome: str
    winner: str
    attacker: R
    defender: R
    rolls: list[R]
    margin: int
    """The attacker's score minus the defender's."""
    tie: bool


C = TypeVar("C", bound=ContestResult[Any])


def contest(cls: type[C], attacker: R, defender: R, scores: tuple[int, int], winner: str,
            **own: Any) -> C:
    """The contest record ``cls`` of two judged rolls (``winner`` by
    :func:`contest_winner`, from ``scores``); ``own`` are the ruleset's fields after these."""
    a, d = scores
    return cls(outcome=SUCCESS if winner == ATTACKER else FAILURE, winner=winner,
               attacker=attacker, defender=defender, rolls=[attacker, defender],
               margin=a - d, tie=a == d, **own)


@record
class ContestOdds(Tagged, Generic[O]):
    """A contest's exact odds: ``outcomes`` are the attacker's (``success`` it wins),
    ``winner`` each side's chance, ``margin`` each difference of the scores (the
    attacker's minus the defender's)."""

    outcomes: dict[str, Fraction]
    winner: dict[str, Fraction]
    margin: dict[int, Fraction]
    attacker: O
    defender: O
    type: str = "contest"


# Extended: one roll accumulated ---------------------------------------------------------


@record
class ExtendedResult(Tagged):
    """An extended roll: what it ended with and what it aimed at (a ruleset's record adds
    its rolls and what ended it, in its own order)."""

    outcome: str
    total: int
    target: int


@record
class Run(Generic[R]):
    """What :func:`extended` made of an extended roll."""

    rolls: list[R]
    running_totals: list[int]
    total: int
    ended_by: str
    """``target``, ``limit`` or the ruleset's word for the outcome that ends an attempt."""
    outcome: str


def accumulate(
    roll_once: Callable[[], R],
    gain: Callable[[R], int],
    ends: Callable[[R], bool],
    *,
    start: int,
    target: int,
    max_rolls: int,
) -> tuple[list[R], list[int], int, str]:
    """An extended action: roll until the running total reaches ``target``, a roll
    ``ends`` the attempt (counting nothing), or ``max_rolls`` are used up.

    Returns the rolls, the running total after each, the total, and what ended it:
    ``target``, ``ended`` or ``limit``."""
    rolls: list[R] = []
    totals: list[int] = []
    total = start
    for _ in range(max_rolls):
        r = roll_once()
        rolls.append(r)
        if ends(r):
            totals.append(total)
            return rolls, totals, total, "ended"
        total += gain(r)
        totals.append(total)
        if total >= target:
            return rolls, totals, total, "target"
    return rolls, totals, total, "limit"


def extended(roll_once: Callable[[], R], gain: Callable[[R], int], ends: Callable[[R], bool],
             end: str, *, start: int, target: int, max_rolls: int) -> Run[R]:
    """Roll again and again, adding ``gain`` of each roll, until the target (``success``),
    the roll limit (``failure``), or a roll that ``ends`` the attempt: its outcome and
    ``ended_by`` are ``end``, the ruleset's word for it (a botch, a fracaso)."""
    rolls, totals, total, how = accumulate(roll_once, gain, ends, start=start, target=target,
                                           max_rolls=max_rolls)
    ended_by = end if how == "ended" else how
    outcome = {"target": SUCCESS, "limit": FAILURE}.get(ended_by, end)
    return Run(rolls=rolls, running_totals=totals, total=total, ended_by=ended_by, outcome=outcome)


E = TypeVar("E", bound=ExtendedResult)


def extended_result(cls: type[E], run: Run[Any], *, target: int, max_rolls: int, **own: Any) -> E:
    """The extended record ``cls`` of ``run``: its rolls, running totals and what ended it,
    with ``own``, the ruleset's fields (a starting total, the Willpower spent)."""
    fields = dict(outcome=run.outcome, total=run.total, target=target, rolls=run.rolls,
                  running_totals=run.running_totals, max_rolls=max_rolls, ended_by=run.ended_by)
    return cast(Any, cls)(**fields, **own)  # the base names the first three: cls the rest


@record
class ExtendedOdds(Tagged):
    """An extended roll's exact odds: ``within[k]`` the chance to have reached the target
    by roll k (cumulative), ``rolls_needed[k]`` to reach it exactly at roll k, and
    ``expected_rolls`` the mean number of rolls made (whatever ends the attempt)."""

    outcomes: dict[str, Fraction]
    within: dict[int, Fraction]
    rolls_needed: dict[int, Fraction]
    expected_rolls: Fraction
    target: int


# A pool's successes counted --------------------------------------------------------------


@record
class SuccessOdds(Tagged):
    """The exact odds of a pool of dice whose successes are counted: each outcome's chance,
    ``successes[k]`` the chance of exactly k, ``at_least[k]`` of k or more, and ``critical``
    the chance of at least one natural 10 (a ruleset's record adds the rest)."""

    outcomes: dict[str, Fraction]
    successes: dict[int, Fraction]
    at_least: dict[int, Fraction]
    critical: Fraction


# Team: every member's roll summed -------------------------------------------------------


@record
class TeamResult(Tagged):
    """A team roll: its outcome and the team's total (a ruleset's record adds the rest)."""

    outcome: str
    total: int


@record
class TeamOdds(Tagged):
    """A team roll's exact odds: each ``total`` the team can make."""

    outcomes: dict[str, Fraction]
    total: dict[int, Fraction]


def team_sum(scores: list[int], need: int, dire: list[bool]) -> tuple[int, bool, list[int]]:
    """The members' scores summed, negatives included: ``(total, succeeded, sunk_by)``;
    ``sunk_by`` are the members (1-based) whose ``dire`` (negative) roll sank the group: it
    failed, and would have succeeded without the negative scores."""
    total = sum(scores)
    ok = total >= need
    sunk = not ok and sum(s for s in scores if s >= 0) >= need
    return total, ok, [i for i, d in enumerate(dire, 1) if d] if sunk else []


# Series: several actions in one turn ----------------------------------------------------


def series(specs: Iterable[S], roll_one: Callable[[S], R], outcome: Callable[[R], str],
           dire: str, stops: bool) -> tuple[list[R], str]:
    """One roll each of ``specs`` in order (``stops``: a ``dire`` outcome cancels the rest),
    and the series' outcome: ``dire`` if any roll was, ``success`` if every action was
    rolled and succeeded, else ``failure``."""
    planned = list(specs)
    rolls: list[R] = []
    for spec in planned:
        r = roll_one(spec)
        rolls.append(r)
        if stops and outcome(r) == dire:
            break
    outcomes = {outcome(r) for r in rolls}
    if dire in outcomes:
        return rolls, dire
    return rolls, SUCCESS if outcomes == {SUCCESS} and len(rolls) == len(planned) else FAILURE


# Retry: attempt after attempt -----------------------------------------------------------


def retry(attempt: Callable[[int], R], attempts: Iterable[int], outcome: Callable[[R], str],
          dire: str, retry_after_dire: bool) -> tuple[list[R], str]:
    """Roll ``attempt(k)`` for each ``k`` of ``attempts`` until one succeeds (``ended_by``
    ``success``) or, unless ``retry_after_dire``, is ``dire`` (``ended_by`` that word); else
    the limit (``limit``)."""
    rolls: list[R] = []
    for k in attempts:
        r = attempt(k)
        rolls.append(r)
        if outcome(r) == SUCCESS:
            return rolls, SUCCESS
        if outcome(r) == dire and not retry_after_dire:
            return rolls, dire
    return rolls, "limit"




# The combined verdict ---------------------------------------------------------------------


def verdict(result: Any, words: Mapping[str, tuple[str, str]],
            sides: tuple[str, str] = ("Attacker wins", "Defender wins")) -> tuple[str, str]:
    """A roll type's combined verdict and its tone (``good``, ``bad``, ``dire``): a contest's
    winner in ``sides`` (the attacker's win good, the defender's bad: the outcome is the
    attacker's), any other roll type its ``outcome`` in ``words`` (the ruleset's outcomes,
    or its own words for this roll type: "Team success")."""
    if isinstance(result, ContestResult):
        return (sides[0], "good") if result.winner == ATTACKER else (sides[1], "bad")
    outcome = str(result.outcome)
    return words.get(outcome, (outcome, "bad"))
