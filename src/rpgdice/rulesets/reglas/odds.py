"""Reglas Básicas: exact odds, computed with icepool from the rules' own functions, never by
rolling."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rpgdice.core.exact import D10, marginal, named
from rpgdice.rulesets.reglas import rules as reglas
from rpgdice.rulesets.reglas.rules import ReglasOdds

REGLAS_OUTCOMES = ("success", "failure", "fumble")


def reglas_odds(spec: reglas.ReglasRoll) -> ReglasOdds:
    """Every face of the d10 scored by :func:`rpgdice.rulesets.reglas.rules.evaluate`."""


    def score(face: int) -> tuple[str, bool, int]:
        r = reglas.evaluate(spec, face)
        return (r.outcome, r.critical, r.fumble_grade or 0)

    die = D10.map(score)
    grades = marginal(die, lambda s: s[2])
    grades.pop(0, None)
    return ReglasOdds(
        outcomes=named(marginal(die, lambda s: s[0]), REGLAS_OUTCOMES),
        critical=marginal(die, lambda s: s[1]).get(True, Fraction(0)),
        fumble_grades=dict(sorted(grades.items())),
        index=spec.effective_index,
        difficulty=spec.needed,
        base_difficulty=spec.difficulty,
        raises=spec.raises,
    )


# Acciones: múltiples, enfrentadas, en equipo, extendidas, inténtalo de nuevo -------------


def _faces(spec: reglas.ReglasRoll) -> list[reglas.ReglasResult]:
    """The roll's ten results, one a face of the d10 (each of weight 1 in 10)."""
    return [reglas.evaluate(spec, face) for face in range(1, 11)]


def reglas_multi_odds(spec: reglas.ReglasMulti) -> reglas.ReglasMultiOdds:
    """The actions are independent rolls: every one succeeds with the product of their
    chances, and none fumbles with the product of theirs (``MULTI_FUMBLE_STOPS`` is off:
    a fracaso does not stop the rest, which changes nothing of the series' outcome)."""
    each = [reglas_odds(spec.action(k)) for k in range(1, spec.actions + 1)]
    all_succeed = Fraction(1)
    no_fumble = Fraction(1)
    for o in each:
        all_succeed *= o.outcomes["success"]
        no_fumble *= 1 - o.outcomes["fumble"]
    return reglas.ReglasMultiOdds(
        outcomes={"success": all_succeed, "failure": no_fumble - all_succeed,
                  "fumble": 1 - no_fumble},
        each=each, all_succeed=all_succeed, actions=spec.actions)


def reglas_contest_odds(spec: reglas.ReglasContest) -> reglas.ReglasContestOdds:
    """Every pair of faces, judged by :func:`rpgdice.rulesets.reglas.rules.evaluate_contest`."""
    winner = {"attacker": 0, "defender": 0}
    margin: dict[int, int] = {}
    for a in range(1, 11):
        for d in range(1, 11):
            r = reglas.evaluate_contest(spec, a, d)
            winner[r.winner] += 1
            margin[r.margin] = margin.get(r.margin, 0) + 1
    won = {side: Fraction(w, 100) for side, w in winner.items()}
    return reglas.ReglasContestOdds(
        outcomes={"success": won["attacker"], "failure": won["defender"]}, winner=won,
        margin={k: Fraction(w, 100) for k, w in sorted(margin.items())},
        attacker=reglas_odds(spec.attacker), defender=reglas_odds(spec.defender))


def reglas_team_odds(spec: reglas.ReglasTeam) -> reglas.ReglasTeamOdds:
    """The sum of the members' results, member by member (each of its ten faces)."""
    from rpgdice.core.budget import check_odds

    n = len(spec.members)
    check_odds(10 * (9 * n * (n + 1) // 2 + n), "ÍNDICE", "this team")
    sums = {0: 1}
    for member in spec.members:
        results = [r.result for r in _faces(member)]
        after: dict[int, int] = {}
        for so_far, w in sums.items():
            for got in results:
                after[so_far + got] = after.get(so_far + got, 0) + w
        sums = after
    whole = 10 ** n
    total = {k: Fraction(w, whole) for k, w in sorted(sums.items())}
    success = sum((p for k, p in total.items() if k >= spec.difficulty), Fraction(0))
    return reglas.ReglasTeamOdds(outcomes={"success": success, "failure": 1 - success},
                                total=total, difficulty=spec.difficulty, members=n)


def reglas_extended_odds(spec: reglas.ReglasExtended) -> reglas.ReglasExtendedOdds:
    """The accumulator roll by roll, as :func:`rpgdice.rulesets.reglas.rules.roll_extended`
    fills it: each non-negative result added, a fracaso ending it (``EXTENDED_FUMBLE_ENDS``)."""
    from rpgdice.core.budget import check_odds, sequence_steps
    from rpgdice.core.exact import cumulative, extended_chain

    steps: dict[tuple[int, bool], int] = {}
    for r in _faces(spec.spec):
        ends = reglas.EXTENDED_FUMBLE_ENDS and r.outcome == "fumble"
        key = (0 if ends else max(0, r.result), ends)
        steps[key] = steps.get(key, 0) + 1
    check_odds(sequence_steps(spec.target - spec.start, spec.max_rolls, len(steps)),
               "--max-rolls", "this extended action")
    reached, ended, expected = extended_chain(steps, 10, spec.start, spec.target, spec.max_rolls)
    success = sum(reached.values(), Fraction(0))
    fumble = sum(ended.values(), Fraction(0))
    return reglas.ReglasExtendedOdds(
        outcomes={"success": success, "failure": 1 - success - fumble, "fumble": fumble},
        within=cumulative(reached), rolls_needed=reached, expected_rolls=expected,
        target=spec.target, start=spec.start, max_rolls=spec.max_rolls,
        roll=reglas_odds(spec.spec))


def reglas_retry_odds(spec: reglas.ReglasRetry) -> reglas.ReglasRetryOdds:
    """Attempt after attempt (−2 for each earlier failed one), as
    :func:`rpgdice.rulesets.reglas.rules.roll_retry` tries: a success or a fracaso (no
    retry after one, ``RETRY_AFTER_FUMBLE``) ends it; the last outcome is the series'."""
    going = Fraction(1)
    by_attempt: dict[int, Fraction] = {}
    outcomes = {"success": Fraction(0), "failure": Fraction(0), "fumble": Fraction(0)}
    expected = Fraction(0)
    success = Fraction(0)
    first, last = spec.spec.attempt, spec.max_attempts - 1
    for k in range(spec.max_attempts):
        expected += going
        o = reglas_odds(replace(spec.spec, attempt=first + k))
        success += going * o.outcomes["success"]
        by_attempt[k + 1] = success
        if not reglas.RETRY_AFTER_FUMBLE or k == last:  # a fracaso ends the series
            outcomes["fumble"] += going * o.outcomes["fumble"]
            going *= o.outcomes["failure"]
        else:
            going *= o.outcomes["failure"] + o.outcomes["fumble"]
        if not going:
            break
    outcomes["success"] = success
    outcomes["failure"] = 1 - success - outcomes["fumble"]
    return reglas.ReglasRetryOdds(outcomes=outcomes, by_attempt=by_attempt,
                                 expected_attempts=expected, max_attempts=spec.max_attempts,
                                 first=reglas_odds(spec.spec))
