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
