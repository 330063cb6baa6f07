"""Toy (tests only): a d6 pool whose highest die decides — 6 a success, 4 or 5 a partial
success, 1 to 3 a failure. Built by following docs/adding-a-ruleset.md, step by step, so
the guide stays true: the tests install it as another package would (the entry point of
``rpgdice_toy-1.0.dist-info``) and find it in help, ``--json``, odds, the log and completion.
"""

from __future__ import annotations

from rpgdice.rulesets import Die, Ruleset, SheetSchema

RULESET = Ruleset(
    name="toy",
    title="Toy",
    short="Toy",
    language="en",
    help="Toy: a d6 pool, the highest die decides.",
    outcomes={"success": ("Success", "good"), "partial": ("Partial success", "good"),
              "failure": ("Failure", "bad")},
    nouns={"success": ("success", "successes"), "partial": ("partial", "partials"),
           "failure": ("failure", "failures")},
    die=Die(6, "dice", "face"),
    sheet=SheetSchema(),
    plan=None,
    takes_as=frozenset({"roll", "odds"}),
    stats_commands=frozenset({"roll"}),
    odds_functions=frozenset({"toy_odds"}),
    commands="rpgdice_toy.commands",
    results={"roll": ("ToyResult",)},
    package="rpgdice_toy",
)
