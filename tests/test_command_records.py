"""A command is data (issue 40): each rolling command declared once as a record, and the
command line, its help and the seat's panel made from it; the line parsed into a whole
spec, trait names read by the executor."""

from __future__ import annotations

import json

from conftest import character, cli, ok


def test_one_new_descriptor_shows_in_the_help_page_and_the_panel_at_once():
    from rpgdice import rulesets
    from rpgdice.cli import command_class
    from rpgdice.cli.made import click_command
    from rpgdice.core.command import Param, describe

    record = rulesets.get("crytures").command("roll")
    assert record is not None
    extra = Param("luck", "number", flags=("--luck",), metavar="N", help="A new option.")
    made = click_command(record.__class__(**{**record.__dict__, "params": (*record.params, extra)}),
                         "crytures", "en", command_class("en"))
    assert "--luck" in [o for p in made.params for o in getattr(p, "opts", ())]
    described = describe(record.__class__(**{**record.__dict__,
                                             "params": (*record.params, extra)}), "crytures roll")
    assert [p["option"] for p in described["params"]][-1] == "--luck"


def test_a_parsed_line_keeps_trait_names_and_the_executor_reads_them():
    from rpgdice.cli import root

    character("Ysolde")
    spec, _, _ = root().parse_words(["seyruun", "roll", "dexterity", "stealth", "--as", "ysolde"])
    assert spec.arg("attribute") == "dexterity" and spec.character.name == "ysolde"
    assert spec.character.resolved is False
    rolled = json.loads(ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde",
                           "--json", "--dice", "1,2,3,4,5,6").stdout)
    assert rolled["pool"] == 6


def test_again_checks_a_character_it_names():
    character("Ysolde")
    character("Thureck")
    ok("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--log",
       "--dice", "1,2,3,4,5,6")
    for name, said in (("thureck", "reglas character"), ("nobody", "nobody")):
        run = cli("again", "--as", name)  # its first line says what it repeats
        assert run.exit_code == 2 and run.stdout == ""
        assert run.stderr.splitlines()[-1].startswith("rpgdice: error: --as: ") and said in run.stderr
    assert len(ok("log", "--json").stdout.splitlines()) == 1  # nothing rolled, nothing logged


def test_rpgdice_as_naming_nobody_leaves_trait_names_with_what_to_do():
    run = cli("seyruun", "roll", "dexterity", "stealth", env={"RPGDICE_AS": "nobody"})
    assert run.exit_code == 2
    assert "looks like a trait name" in run.stderr and "add --as NAME" in run.stderr


def test_a_rulesets_parser_complains_with_rpgdices_own_error_named_by_the_command_line():
    # A ruleset's parser raises rpgdice.core.errors.BadValue (it imports nothing of the
    # command line); the command line makes it the usage error naming the option as typed,
    # and the executor's reading of a parameter names it too.
    import typer

    from rpgdice.cli.made import translated
    from rpgdice.core.command import Param
    from rpgdice.core.errors import BadValue, RulesError
    from rpgdice.roll.character import parsed
    from rpgdice.rulesets.crytures.commands import spend

    for args, line in ((("crytures", "roll", "6", "--spend", "gold=1"),
                        "--spend: 'gold=1' is not stamina=N or mana=N"),
                       (("cypher", "recover", "--to", "luck=2"),
                        "--to: 'luck=2' is not POOL=N[,POOL=N...] of might, speed, intellect")):
        run = cli(*args)
        assert (run.exit_code, run.stderr) == (2, f"rpgdice: error: {line}\n")
    try:
        spend("gold=1")
    except BadValue as e:
        assert e.param is None and isinstance(e, RulesError)
    else:
        raise AssertionError("spend took gold=1")
    read = translated(spend)
    assert (read.__name__, read.accepts) == ("spend", spend.accepts)  # type: ignore[attr-defined]
    try:
        read("gold=1")
    except typer.BadParameter as e:
        assert e.message == "'gold=1' is not stamina=N or mana=N"
    else:
        raise AssertionError("the command line's parser took gold=1")
    param = Param("spend", "choice", flags=("--spend",), parse=spend)
    try:
        parsed(param, "gold=1")
    except RulesError as e:
        assert str(e) == "--spend: 'gold=1' is not stamina=N or mana=N"
    else:
        raise AssertionError("the executor took gold=1")
