"""Reglas Básicas: exact odds, computed with icepool from the rules' own functions, never by
rolling."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rpgdice.core import rolltypes_odds
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
    """The actions are independent rolls (``MULTI_FUMBLE_STOPS`` is off: a fracaso does not
    stop the rest, which changes nothing of the series' outcome)."""
    each = [reglas_odds(spec.action(k)) for k in range(1, spec.actions + 1)]
    outcomes, all_succeed = rolltypes_odds.series_odds((o.outcomes for o in each), "fumble")
    return reglas.ReglasMultiOdds(outcomes=outcomes, each=each, all_succeed=all_succeed,
                                  actions=spec.actions)


def reglas_contest_odds(spec: reglas.ReglasContest) -> reglas.ReglasContestOdds:
    """Every pair of faces, judged by :func:`rpgdice.rulesets.reglas.rules.evaluate_contest`."""

    def judge(a: int, d: int) -> tuple[str, int]:
        r = reglas.evaluate_contest(spec, a, d)
        return r.winner, r.margin

    faces = [(face, Fraction(1, 10)) for face in range(1, 11)]
    outcomes, winner, margin = rolltypes_odds.contest_odds(faces, faces, judge)
    return reglas.ReglasContestOdds(
        outcomes=outcomes, winner=winner, margin=margin,
        attacker=reglas_odds(spec.attacker), defender=reglas_odds(spec.defender))


def reglas_team_odds(spec: reglas.ReglasTeam) -> reglas.ReglasTeamOdds:
    """The sum of the members' results, member by member (each of its ten faces)."""
    from rpgdice.core.budget import check_odds

    n = len(spec.members)
    check_odds(10 * (9 * n * (n + 1) // 2 + n), "ÍNDICE", "this team")
    outcomes, total = rolltypes_odds.team_sum_odds(
        ([r.result for r in _faces(member)] for member in spec.members), spec.difficulty)
    return reglas.ReglasTeamOdds(outcomes=outcomes, total=total, difficulty=spec.difficulty,
                                 members=n)


def reglas_extended_odds(spec: reglas.ReglasExtended) -> reglas.ReglasExtendedOdds:
    """The accumulator roll by roll, as :func:`rpgdice.rulesets.reglas.rules.roll_extended`
    fills it: each non-negative result added, a fracaso ending it (``EXTENDED_FUMBLE_ENDS``)."""
    from rpgdice.core.budget import check_odds, sequence_steps

    steps = rolltypes_odds.extended_steps(
        ((r, 1) for r in _faces(spec.spec)), gain=lambda r: max(0, r.result),
        ends=lambda r: reglas.EXTENDED_FUMBLE_ENDS and r.outcome == "fumble")
    check_odds(sequence_steps(spec.target - spec.start, spec.max_rolls, len(steps)),
               "--max-rolls", "this extended action")
    outcomes, within, needed, expected = rolltypes_odds.extended_odds(
        steps, 10, "fumble", start=spec.start, target=spec.target, max_rolls=spec.max_rolls)
    return reglas.ReglasExtendedOdds(
        outcomes=outcomes, within=within, rolls_needed=needed, expected_rolls=expected,
        target=spec.target, start=spec.start, max_rolls=spec.max_rolls,
        roll=reglas_odds(spec.spec))


def reglas_retry_odds(spec: reglas.ReglasRetry) -> reglas.ReglasRetryOdds:
    """Attempt after attempt (−2 for each earlier failed one), as
    :func:`rpgdice.rulesets.reglas.rules.roll_retry` tries: a success or a fracaso (no
    retry after one, ``RETRY_AFTER_FUMBLE``) ends it; the last outcome is the series'."""
    first = spec.spec.attempt
    outcomes, by_attempt, expected = rolltypes_odds.retry_odds(
        lambda k: reglas_odds(replace(spec.spec, attempt=first + k)).outcomes,
        spec.max_attempts, "fumble", reglas.RETRY_AFTER_FUMBLE)
    return reglas.ReglasRetryOdds(outcomes=outcomes, by_attempt=by_attempt,
                                 expected_attempts=expected, max_attempts=spec.max_attempts,
                                 first=reglas_odds(spec.spec))
