"""Records are frozen: what travels beside a result (who rolled it, what it paid, an
attack's target) goes in its envelope, never onto the record."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, field, replace

import pytest

from conftest import cli, make_character
from rpgdice.core.record import record


@record
class Sample:
    a: int
    b: tuple[int, ...] = ()
    c: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


def test_a_record_refuses_every_change_and_keeps_its_defaults_and_checks():
    s = Sample(1)
    for change in (lambda: setattr(s, "a", 2), lambda: delattr(s, "a"),
                   lambda: setattr(s, "table", {})):
        with pytest.raises(FrozenInstanceError):
            change()
    assert (s.a, s.b, s.c) == (1, (), []) and Sample(1).c is not s.c
    assert replace(s, a=3).a == 3 and Sample(a=2, c=[1]).c == [1]
    with pytest.raises(ValueError):
        Sample(-1)
    assert repr(s) == "Sample(a=1, b=(), c=[])"


def test_engine_records_are_frozen():
    from rpgdice.core.dice import GivenDice
    from rpgdice.rulesets.seyruun import rules as seyruun

    result = seyruun.roll(seyruun.SeyruunPool(attribute=2, skill=1), GivenDice([3, 6, 9]))
    with pytest.raises(FrozenInstanceError):
        result.outcome = "botch"  # type: ignore[misc]


def test_a_characters_roll_carries_its_line_in_the_envelope():
    make_character("Ysolde", "seyruun", dexterity=3, composure=1, resolve=1)
    run = cli("seyruun", "roll", "dexterity", "--as", "ysolde", "--willpower", "--seed", "2",
              "--json")
    (obj,) = run.json()
    assert obj["character"] == "Ysolde" and obj["spent"] == {"willpower": 1}
    assert "table" not in obj and "labels" not in obj
    shown = cli("seyruun", "roll", "dexterity", "--as", "ysolde", "--seed", "2")
    assert "Ysolde · Dexterity 3" in shown.stdout
