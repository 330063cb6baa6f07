"""The peers as oracles (tests/test_notation_peers.py, and ``python -m tests.peers.oracle`` for
the corpus figures): rpg-dice-roller through node, d20 in Python, rpgdice on the same faces.

rpg-dice-roller runs in node (``rpg_dice_roller.mjs``) from the folder ``RPG_DICE_ROLLER``
names, else ``.ci/node`` in the repository (``.ci/run`` installs it there with npm; never
committed). Its faces come in two orders: the order it asked for them (a term's dice first,
re-rolls and explosions after) and the order it shows them (each die's re-roll and explosions
right after it, rpgdice's order, CLI.md); a roll compares on the first that rpgdice uses whole.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus.txt"
SEEDS = (1, 2, 3)


def corpus() -> list[tuple[str, str]]:
    """(section, expression) for every line of the corpus."""
    out, section = [], ""
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.strip() and not line.startswith("#"):
            out.append((section, line))
    return out


REFUSED_BY_DESIGN = {
    "10 / 0": "division by zero is a usage error (RULES.md)",
    "10 % 0": "% by zero is a usage error (RULES.md)",
    "1d20rr<21": "a re-roll test every face satisfies is a usage error (RULES.md)",
    "dF.1!!<=1": "a die that would explode on every face is a usage error (RULES.md)",
    "(4.56^3dF)*6.7-(10d45/(2*3))": "^ takes a whole exponent from 0 to 64; 3dF can be negative (RULES.md)",
    "12dFu": "u on more dice than the die has faces is a usage error (RULES.md)",
    "6d%max50.45": "the numbers after a modifier stay whole (RULES.md)",
    "6d%min50.45": "the numbers after a modifier stay whole (RULES.md)",
    "42d2!=6!!>4!p<5": "the last explode stands, as rpg-dice-roller's own test says: !p<5 explodes on "
                       "every face of a d2, a usage error (RULES.md; docs/rules.md)",
}


def by_design(expression: str) -> bool:
    """Refused by design (RULES.md): a die of fewer than 2 or more than 1000 sides, a count of
    0, and :data:`REFUSED_BY_DESIGN`."""
    if expression in REFUSED_BY_DESIGN:
        return True
    for count, sides in re.findall(r"(\d*)[dD](\d+)", expression):
        if not 2 <= int(sides) <= 1000 or (count and int(count) == 0):
            return True
    return False


def node_folder() -> Optional[Path]:
    for folder in (os.environ.get("RPG_DICE_ROLLER"), ROOT / ".ci" / "node"):
        if folder and (Path(folder) / "node_modules" / "@dice-roller" / "rpg-dice-roller").is_dir():
            return Path(folder)
    return None


def available() -> bool:
    return shutil.which("node") is not None and node_folder() is not None


def rpg_dice_roller(expressions: list[str], seeds: tuple[int, ...] = SEEDS) -> dict[tuple[str, int], dict]:
    """Each expression rolled by rpg-dice-roller with each seed: one node process for all."""
    asked = [(e, s) for e in expressions for s in seeds]
    lines = "".join(json.dumps({"notation": e, "seed": s}) + "\n" for e, s in asked)
    env = {**os.environ, "RPG_DICE_ROLLER": str(node_folder())}
    run = subprocess.run(["node", str(HERE / "rpg_dice_roller.mjs")], input=lines, capture_output=True,
                         text=True, env=env, timeout=120, check=True)
    return {key: json.loads(line) for key, line in zip(asked, run.stdout.splitlines())}


def d20_accepts(expression: str) -> bool:
    """Whether d20 parses ``expression`` (a fresh Roller: d20 caches its parses by the text
    with spaces removed, so after ``4d6k3`` its shared one would take ``4d6 k3`` too)."""
    import d20

    try:
        d20.Roller().roll(expression)
    except Exception:  # d20's own errors, and its RecursionError / ZeroDivisionError
        return False
    return True


def ours_accepts(expression: str) -> bool:
    from rpgdice.core.errors import RulesError
    from rpgdice.rulesets.dice import grammar

    try:
        grammar.parse_any(expression)
    except RulesError:
        return False
    return True


def _orders(expression: str, theirs: dict) -> list[list[int]]:
    shown: list[int] = []
    for die in theirs["dice"]:
        shown.append(die["initial"])
        if any(m.startswith("re-roll") for m in die["modifiers"]):
            shown.append(die["value"])
    asked = [v for _, _, v in theirs["calls"]]
    orders = [shown] if len(shown) == len(asked) and all(isinstance(f, int) for f in shown) else []
    if "df" not in expression.lower():  # a Fudge die is asked for as 1 to 3
        orders.append(asked)
    return orders


def ours_on(expression: str, faces: list[int]) -> Optional[Any]:
    """rpgdice's total on ``faces`` (a compared total: 1 for success, 0 for failure, as the
    peers give it), when it uses them all (None otherwise)."""
    from rpgdice.core.dice import GivenDice
    from rpgdice.core.errors import RulesError
    from rpgdice.rulesets.dice import grammar, rules, tree

    try:
        e = grammar.parse_any(expression)
        source = GivenDice(list(faces))
        r = rules.roll(e, source) if isinstance(e, rules.Expression) else tree.roll(e, source)
        source.check_all_used()
    except RulesError:
        return None
    return r.total if getattr(r, "outcome", None) is None else int(r.outcome == "success")


def compare(expression: str, theirs: dict) -> str:
    """``agree``, ``floored`` (theirs a decimal, ours its floor: RULES.md rounds the total
    down once, at the end), ``differ``, or ``apart`` (no order of their faces that rpgdice
    uses whole)."""
    import math

    found = [ours_on(expression, order) for order in _orders(expression, theirs)]
    found = [t for t in found if t is not None]
    if not found:
        return "apart"
    if any(t == theirs["total"] for t in found):
        return "agree"
    total = theirs["total"]
    return "floored" if total != int(total) and any(t == math.floor(total) for t in found) else "differ"


class _Recorder:
    """d20's ``random``: seeded, recording each face it hands out, in its order (rpgdice's)."""

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)
        self.faces: list[int] = []

    def randrange(self, n: int, stop: Optional[int] = None, step: int = 1) -> int:
        if stop is not None:  # d20's d% is a tens die, 0 to 90: no die of ours (apart)
            self.tens = True
            return self.rng.randrange(n, stop, step)
        v = self.rng.randrange(n)
        self.faces.append(v + 1)
        return v

    tens = False


def d20_compare(expression: str) -> str:
    """d20 and rpgdice on the same faces over :data:`SEEDS`: ``agree``, ``floored``,
    ``differ`` or ``apart``, as :func:`compare`."""
    import math

    import d20
    import d20.expression as d20_expression

    seen = set()
    saved = d20_expression.random
    try:
        for seed in SEEDS:
            recorder = _Recorder(seed)
            d20_expression.random = recorder  # type: ignore[assignment]
            theirs = d20.Roller().roll(expression).total
            mine = None if recorder.tens else ours_on(expression, recorder.faces)
            if mine is None:
                seen.add("apart")
            elif mine == theirs:
                seen.add("agree")
            elif theirs != int(theirs) and mine == math.floor(theirs):
                seen.add("floored")
            else:
                seen.add("differ")
    finally:
        d20_expression.random = saved
    return next(v for v in ("differ", "floored", "agree", "apart") if v in seen)


def expressions() -> list[str]:
    """The corpus's expressions, each once (one that two sources write is counted once)."""
    return list(dict.fromkeys(e for _, e in corpus()))


def figures() -> dict[str, Any]:
    items = expressions()
    theirs = rpg_dice_roller(items)
    rows = []
    for e in items:
        rdr = theirs[(e, SEEDS[0])]["accepted"]
        rows.append(dict(expression=e, design=by_design(e), rdr=rdr, d20=d20_accepts(e), ours=ours_accepts(e)))
    counted = [r for r in rows if not r["design"]]
    both = [r for r in counted if r["rdr"] and r["d20"]]
    rdr = [r for r in counted if r["rdr"]]
    verdicts: dict[str, list[str]] = {"agree": [], "floored": [], "differ": [], "apart": []}
    for r in rdr:
        if r["ours"]:
            seen = {compare(r["expression"], theirs[(r["expression"], s)]) for s in SEEDS}
            verdict = next(v for v in ("differ", "floored", "agree", "apart") if v in seen)
            verdicts[verdict].append(r["expression"])
    return dict(
        corpus=len(rows), by_design=len(rows) - len(counted),
        both=len(both), both_ours=sum(r["ours"] for r in both),
        rdr=len(rdr), rdr_ours=sum(r["ours"] for r in rdr),
        agree=len(verdicts["agree"]), floored=verdicts["floored"], differ=verdicts["differ"],
        apart=verdicts["apart"],
        refused=[r["expression"] for r in rdr if not r["ours"]],
    )


def d20_figures() -> dict[str, list[str]]:
    verdicts: dict[str, list[str]] = {}
    for e in expressions():
        if not by_design(e) and d20_accepts(e) and ours_accepts(e):
            verdicts.setdefault(d20_compare(e), []).append(e)
    return verdicts


if __name__ == "__main__":
    d = d20_figures()
    print("d20, same faces:", {k: len(v) for k, v in d.items()}, "differ:", d.get("differ", []))
    f = figures()
    print(json.dumps(f, indent=1, ensure_ascii=False))
    print(f"both peers accept {f['both']}: rpgdice {f['both_ours']} ({f['both_ours'] / max(1, f['both']):.0%}); "
          f"rpg-dice-roller {f['rdr']}: rpgdice {f['rdr_ours']} ({f['rdr_ours'] / max(1, f['rdr']):.0%}); "
          f"same faces: {f['agree']} agree, {len(f['floored'])} theirs a decimal and ours its floor (RULES.md), "
          f"{len(f['differ'])} differ, {len(f['apart'])} not comparable")
