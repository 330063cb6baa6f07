"""A roll's target (``--vs NAME``) as data (issue 40, "The spec is complete"): parsing keeps
the target's name and the pools that name its traits as typed; the executor
(rpgdice.roll.target) reads the target and resolves them; a stored roll carries what they
named, whatever its sheet says later. Builders take the run as an argument: nothing is
read from a global while a spec executes."""

from __future__ import annotations

import pytest

from conftest import assert_usage_error, cli, make_character, ok


@pytest.fixture
def fight():
    make_character("Ghoul", "seyruun", wits=2, dexterity=2, athletics=3, constitution=3,
                   endurance=1, wound="moderate")
    make_character("Nix", "cypher", might=10, speed=12, intellect=8, armor=1)


def _parsed(*words: str):
    from rpgdice import cli as top

    spec, sheet, extras = top.root().parse_words(list(words))
    return spec, extras


def test_parsing_keeps_the_target_a_name_and_its_traits_words(fight):
    spec, extras = _parsed("seyruun", "attack", "3+3", "--vs", "ghoul", "--defense",
                           "dexterity+athletics", "--soak", "constitution+1", "--damage", "2")
    assert spec.arg("vs") == "ghoul" and spec.target is None and extras == {}
    assert spec.arg("defense") == "dexterity+athletics" and spec.arg("soak") == "constitution+1"
    # Numbers are read as they are typed; a name that names nobody is refused when it runs.
    spec, _ = _parsed("seyruun", "attack", "3", "--vs", "nobody", "--defense", "2+2")
    assert spec.arg("defense").values == (2, 2) and spec.arg("vs") == "nobody"
    spec, _ = _parsed("cypher", "task", "-d", "1", "--attack", "--damage", "3", "--vs", "Nix")
    assert spec.arg("vs") == "Nix" and spec.target is None


def test_the_executor_reads_the_target_and_resolves_its_traits(fight):
    from rpgdice.roll.target import targeted

    spec, _ = _parsed("seyruun", "attack", "3+3", "--vs", "ghoul", "--defense",
                      "dexterity+athletics", "--soak", "constitution+1", "--damage", "2")
    done, found = targeted(spec)
    assert found["target"].name == "Ghoul" and found["target_extra"] is None
    assert done.arg("defense").values == (2, 3) and done.arg("soak").terms == (3, 1)
    assert done.target is not None and done.target.name == "Ghoul"
    assert dict(done.target.labels) == {"--defense": "Dexterity 2 + Athletics 3",
                                        "--soak": "Constitution 3 + 1"}
    assert [t.trait for t in done.target.terms_of("--defense")] == ["dexterity", "athletics"]
    # Stored, the resolved target is data: read back, nothing is resolved again.
    from rpgdice.roll.spec import RollSpec

    again = RollSpec.from_data(done.data())
    assert again.data()["target"] == done.data()["target"]
    assert targeted(again)[0].target is again.target


def test_a_target_that_names_nobody_or_lacks_a_trait_is_refused_when_it_runs(fight):
    assert_usage_error(cli("seyruun", "attack", "2", "--vs", "nobody", "--defense", "2"),
                       "--vs: no character 'nobody'")
    assert_usage_error(cli("seyruun", "attack", "2", "--vs", "ghoul", "--defense", "dex+athletics"),
                       "--defense: Ghoul has no trait 'dex' (the closest is 'dexterity')")
    assert_usage_error(cli("seyruun", "attack", "2", "--defense", "dexterity"),
                       "--defense: 'dexterity' is not a number or a sum")
    assert_usage_error(cli("cypher", "task", "-d", "1", "--attack", "--damage", "3", "--vs",
                           "ghoul"), "--vs: Ghoul is a seyruun character")


def test_a_replay_shows_what_the_target_named_when_it_was_rolled(fight):
    ok("seyruun", "attack", "3+3", "--vs", "ghoul", "--defense", "dexterity+athletics",
       "--seed", "5", "--log")
    ok("char", "set", "ghoul", "dexterity=4")  # the sheet changes after the roll
    shown = cli("log", "show", "1", "--replay").stdout
    assert "defense Dexterity 2 + Athletics 3" in shown, shown


def test_no_builder_reads_the_run_from_a_global():
    from pathlib import Path

    from rpgdice.roll import execute

    assert not hasattr(execute, "turn") and not hasattr(execute, "_TURN")
    src = Path(execute.__file__).parents[1]
    reads = [str(p.relative_to(src)) for p in src.rglob("*.py")
             if "ContextVar" in p.read_text() and p.parts[-2] in ("rulesets", "seyruun",
                                                                    "cypher", "roll")]
    assert reads == []
    # The builders that read the run take it (their keyword ``run``).
    import inspect

    from rpgdice.rulesets.seyruun import commands as seyruun

    for record in seyruun.COMMANDS:
        if record.name != "initiative":
            assert "run" in inspect.signature(record.build).parameters, record.name
