"""Every ruleset folder declares itself whole: its outcomes, a view for each result class
its rules define, its sheet schema and its help. (Its rule cases, tests/rules/<name>.toml,
are test_rules.py's: it runs a file for every registered ruleset and fails one missing.)"""

from __future__ import annotations

import inspect
from importlib import import_module

import pytest

from rpgdice import rulesets


def result_classes(name: str) -> list[type]:
    """The classes ``rulesets/<name>/rules.py`` defines with a ``RULESET`` of their own
    (results; pools, specs and other records carry none)."""
    module = import_module(f"rpgdice.rulesets.{name}.rules")
    return [
        cls for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and "RULESET" in vars(cls)
    ]


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_the_record_is_its_folders(name):
    ruleset = rulesets.get(name)
    assert ruleset.name == name
    assert ruleset.title and ruleset.help.strip()
    assert ruleset.language in ("en", "es")


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_outcomes_are_declared(name):
    outcomes = rulesets.get(name).outcomes
    if name == "dice":
        # Ordinary dice have no outcome of their own (only a compared total may have one).
        return
    assert outcomes, name
    for value, (word, tone) in outcomes.items():
        assert value and word, (name, value)
        assert tone in rulesets.TONES, (name, value, tone)


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_every_result_class_has_a_view(name):
    """Every record with a RULESET is shown: by its own view (``show``), or, for an odds
    record shown only under the roll it belongs to (``--odds``), by ``after``."""
    classes = result_classes(name)
    assert classes, f"{name}/rules.py defines no result class with a RULESET"
    for cls in classes:
        assert cls.RULESET == name, (cls, cls.RULESET)
    views = rulesets.get(name).views()
    missing = [cls.__name__ for cls in classes if cls not in views.show and cls not in views.after]
    assert not missing, f"{name}: no view for {missing}"
    for cls, shown in [*views.show.items(), *views.after.items()]:
        assert callable(shown), (name, cls)
    assert not set(views.show) & set(views.after), name


def test_odds_shown_only_under_their_roll_are_in_after():
    from rpgdice.rulesets.dice.rules import NotationOddsSet
    from rpgdice.rulesets.seyruun.rules import SeyruunAttackOdds

    assert SeyruunAttackOdds in rulesets.get("seyruun").views().after
    assert NotationOddsSet in rulesets.get("dice").views().after


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_sheet_schema_is_declared(name):
    sheet = rulesets.get(name).sheet
    if name == "dice":
        assert sheet is None
    else:
        assert isinstance(sheet, rulesets.SheetSchema), name
    assert (sheet is not None) == (name in rulesets.SHEET_RULESETS)
