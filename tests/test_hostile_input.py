"""Hostile input to what issue 41 and 42 added: ruleset files of kind "custom" that would
make the check or a roll's arithmetic take time or memory without bound, or fail with a
traceback, and the GM screen's controls given numbers or names out of every range. Each
is a usage error in one line (a 4xx on the server), in bounded CPU time."""

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from conftest import cli, home


@contextmanager
def cpu_seconds(most: float):
    """Fail (rather than hang) once the process has spent ``most`` s of CPU in the block."""
    def over(_signum, _frame):
        raise TimeoutError(f"over {most} s of CPU")

    before = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, most)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)


def write(name: str, values: dict[str, str], dice: str = 'sides = 6\ncount = "pool"',
          when: str = "total > 3") -> str:
    folder = home() / "rulesets"
    folder.mkdir(exist_ok=True)
    listed = "\n".join(f'{k} = "{v}"' for k, v in values.items())
    path = folder / f"{name}.toml"
    path.write_text(f'''name = "{name}"
title = "Hostile"
kind = "custom"
keys = ["total"]

[[args]]
name = "pool"
metavar = "POOL"
min = 1
max = 30

[[dice]]
name = "d"
{dice}

[values]
{listed}

[[outcomes]]
name = "Hit"
tone = "good"
when = "{when}"

[[outcomes]]
name = "Miss"
tone = "bad"
''', encoding="utf-8")
    return str(path)


def one_line(run, *words: str) -> None:
    assert run.exit_code == 2 and run.exception is None, (run.stderr, run.exception)
    assert len(run.stderr.splitlines()) == 1, run.stderr
    for w in words:
        assert w in run.stderr, run.stderr


# The check: values that read many values ---------------------------------------------------


def test_values_each_reading_all_before_them_are_checked_in_bounded_time():
    values = {"v0": "pool"}  # no dice: a refusal may read them (each looked at for dice)
    for i in range(1, 45):
        values[f"v{i}"] = "+".join(f"v{j}" for j in range(i))[:490].rstrip("+v0123456789")
        values[f"v{i}"] = values[f"v{i}"] or "v0"
    values["total"] = "sum(d) + v44"
    path = write("dag", values, when="total > 3 and v44 > 0")
    with cpu_seconds(5):
        run = cli("rulesets", "check", path)
    assert run.exit_code == 0 and run.stdout.strip() == "ok", run.stderr
    cycled = dict(values, v0="v44")
    with cpu_seconds(5):
        run = cli("rulesets", "check", write("dag", cycled))
    assert run.exit_code == 2 and "values.v0: reads itself" in run.stderr
    assert "values.v44: reads itself" in run.stderr and "values.total: reads itself" in run.stderr


def test_a_long_chain_of_values_is_refused_and_a_short_one_is_not():
    chain = {f"v{i}": f"v{i + 1} + 1" for i in range(51)}
    chain["v51"] = "pool"
    chain["total"] = "sum(d) + v0"  # 53 values deep from total: too deep
    run = cli("rulesets", "check", write("chain", chain))
    assert "values.total: reads itself" in run.stderr and "values.v0:" in run.stderr
    assert "values.v1:" not in run.stderr  # v1..v51: 51 deep
    del chain["v0"]
    chain["total"] = "sum(d) + v1"  # total, v1..v51: 52 deep
    assert "values.total: reads itself" in cli("rulesets", "check", write("chain", chain)).stderr
    chain["total"] = "sum(d) + v2"  # 51 deep
    assert cli("rulesets", "check", write("chain", chain)).exit_code == 0
    with cpu_seconds(5):
        long = {f"w{i}": f"w{i + 1}" for i in range(5000)}  # never a RecursionError
        long["w5000"] = "pool"
        run = cli("rulesets", "check", write("chain", {**long, "total": "sum(d)"}))
    assert run.exit_code == 2 and run.exception is None and "values.w0: reads itself" in run.stderr


# A roll's arithmetic ---------------------------------------------------------------------


def test_values_that_multiply_values_are_refused_not_worked_out():
    values = {"a0": "*".join(["999999999"] * 49)}
    for i in range(1, 6):
        values[f"a{i}"] = "*".join([f"a{i - 1}"] * 150)[:495].rstrip("*")
    values["total"] = "sum(d) + a5"
    write("squares", values)
    with cpu_seconds(5):
        for command in ("roll", "odds"):
            one_line(cli("squares", command, "3"), "makes a number beyond 10**18")


def test_a_key_of_thousands_of_digits_is_a_usage_error_not_an_internal_one():
    values = {"a0": "*".join(["999999999"] * 49), "total": "sum(d) + a1"}
    values["a1"] = "*".join(["a0"] * 12)  # some 5,400 digits: no JSON prints it
    write("wide", values)
    for args in (("roll", "3"), ("roll", "3", "--json")):
        one_line(cli("wide", *args), "makes a number beyond 10**18")


def test_numbers_up_to_the_bound_still_work():
    write("big", {"total": "sum(d) * 100000000 * 100000000 + 999999999"}, when="total > 0")
    (rolled,) = cli("big", "roll", "1", "--dice", "6", "--json").json()
    assert rolled["total"] == 6 * 10**16 + 999999999


@pytest.mark.parametrize(("values", "dice", "words"), [
    ({"total": "count(d, face / (pool - pool) > 1)"}, 'sides = 6\ncount = "pool"',
     "divides by 0"),
    ({"total": "alike(d, face * 999999999 * 999999999)"}, 'sides = 6\ncount = "pool"',
     "beyond 10**18"),
])
def test_a_dies_own_expression_that_cannot_be_worked_out_is_one_line_in_odds(values, dice,
                                                                              words):
    write("perdie", values, dice)
    for command in ("roll", "odds"):
        one_line(cli("perdie", command, "3"), words)


@pytest.mark.parametrize("keep", ["0 - pool", "0"])
def test_a_group_that_keeps_none_has_odds_as_its_rolls_have(keep):
    write("none", {"total": "sum(d)"}, f'sides = 6\ncount = "pool"\nkeep = "{keep}"',
          when="total == 0")
    (rolled,) = cli("none", "roll", "2", "--json").json()
    assert rolled["total"] == 0 and rolled["outcome"] == "hit"
    run = cli("none", "odds", "2")
    assert run.exit_code == 0 and run.exception is None, run.stderr
    assert "100.0%" in run.stdout.splitlines()[2]


# The odds budget: refused in bounded time however costly a file makes each step ----------


@pytest.mark.slow  # about 0.6 s (a 140 KB file checked)
def test_odds_of_a_file_reading_thousands_of_dice_functions_are_refused_soon():
    folder = home() / "rulesets"
    folder.mkdir(exist_ok=True)
    outcomes = "".join(
        f'[[outcomes]]\nname = "O{i}"\ntone = "good"\nwhen = "'
        + " or ".join(f"count(d, face == {i * 10 + j}) > 0" for j in range(10)) + '"\n'
        for i in range(400))  # 4,000 counts, each a running value of every step
    (folder / "wide.toml").write_text(f'''name = "wide"
title = "Wide"
kind = "custom"

[[args]]
name = "pool"
metavar = "POOL"
min = 1
max = 30

[[dice]]
name = "d"
sides = 1000
count = "pool"

{outcomes}
[[outcomes]]
name = "Last"
tone = "bad"
''', encoding="utf-8")
    with cpu_seconds(4):  # it took minutes and gigabytes
        one_line(cli("wide", "odds", "2"), "odds budget")


# yze push ---------------------------------------------------------------------------------


def _yze() -> None:
    import shutil
    from pathlib import Path

    folder = home() / "rulesets"
    folder.mkdir(exist_ok=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "docs" / "rulesets" / "yze.toml",
                folder / "yze.toml")


def _logged() -> list[dict]:
    return cli("log", "--json").json()


def test_a_push_with_no_die_to_reroll_is_refused_and_uses_nothing_up():
    _yze()
    assert cli("yze", "roll", "2", "--dice", "6,1", "--log").exit_code == 0
    one_line(cli("yze", "push", "--log"), "entry 1 has no die to push", "nothing was pushed")
    (entry,) = _logged()
    assert entry["rerolled"] is False and entry["rerolled_by"] is None


def test_the_push_of_a_blind_roll_is_blind_until_revealed():
    _yze()
    assert cli("yze", "roll", "3", "--dice", "6,2,3", "--log", "--blind").exit_code == 0
    assert cli("yze", "push", "--dice", "6,5", "--log").exit_code == 0
    first, push = _logged()
    assert push["command"] == "push" and push["secret"] is True and push["blind"] is True
    assert cli("log", "reveal", "1").exit_code == 0
    assert cli("yze", "roll", "3", "--dice", "6,2,3", "--log", "--secret").exit_code == 0
    assert cli("yze", "push", "--dice", "6,5", "--log").exit_code == 0
    pushed = _logged()[-1]
    assert pushed["secret"] is True and pushed["blind"] is False  # a secret one's: secret


# The GM screen's controls, in process (the ASGI app called as a server calls it) ------------


def _asgi(app, method: str, path: str, token: str, body: bytes = b"") -> tuple[int, bytes]:
    import asyncio

    async def go() -> tuple[int, bytes]:
        sent: list[dict] = []
        chunks = [body]

        async def receive() -> dict:
            if chunks:
                return {"type": "http.request", "body": chunks.pop(), "more_body": False}
            await asyncio.sleep(0.05)
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {"type": "http", "method": method, "path": path, "query_string": b"",
                 "headers": [(b"authorization", f"Bearer {token}".encode()),
                             (b"content-length", str(len(body)).encode())],
                 "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 8737),
                 "client": ("127.0.0.1", 1), "root_path": ""}
        await app(scope, receive, send)
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        return status, b"".join(m.get("body", b"") for m in sent
                                if m["type"] == "http.response.body")

    return asyncio.run(go())


def _screen():
    from rpgdice.cli.encounter import control
    from rpgdice.cli.seated import odds_line, roll_line
    from rpgdice.serve.app import Guard, Table, make_app
    from rpgdice.table import seats
    from rpgdice.table.paths import log_file

    table = Table(log_file(), None, None, roller=roll_line, odds_line=odds_line)
    table.control = control
    token = seats.gm_link_token()
    watched = seats.Watched(seats.path())
    table.seats = watched
    return Guard(make_app(table), None, watched, None, open_reads=True), token


def test_the_gm_screens_damage_is_bounded_and_bad_bodies_are_400_in_one_line():
    import json

    assert cli("encounter", "start", "Ghoul=2+2", "Rat=1+1", "--seed", "1",
               "--no-log").exit_code == 0
    app, gm = _screen()
    for body in (b'{"action": "damage", "name": "Ghoul", "amount": 1' + b"0" * 4000 + b"}",
                 b'{"action": "damage", "name": "Ghoul", "amount": -9223372036854775808}',
                 b'{"action": "damage", "name": "Ghoul", "amount": 10000}',
                 b'{"action": "damage", "name": "Ghoul", "amount": 1e3}', b"{", b"\xff",
                 b'{"action": "out", "name": ["Rat"]}', b"[]"):
        status, said = _asgi(app, "POST", "/api/encounter", gm, body)
        assert status == 400 and "\n" not in json.loads(said)["error"], (body[:60], said)
    status, said = _asgi(app, "POST", "/api/encounter", gm,
                         b'{"action": "damage", "name": "Nobody\\u0000", "amount": 1}')
    assert status == 400 and "is not in the encounter" in json.loads(said)["error"]
    assert cli("log", "--json").stdout == ""  # nothing refused was logged
    status, said = _asgi(app, "POST", "/api/encounter", gm,
                         b'{"action": "damage", "name": "Ghoul", "amount": 9999}')
    assert status == 200 and json.loads(said)["said"] == "Ghoul takes 9999 damage (7/7)"


def test_the_token_of_the_tv_sees_the_sheets_as_the_table_did_the_gm_screen_as_they_are():
    import json

    from conftest import character
    from rpgdice.cli.seated import roll_line
    from rpgdice.serve.app import Guard, Table, make_app
    from rpgdice.table import seats
    from rpgdice.table.paths import log_file

    character("Ysolde")
    assert cli("seat", "add", "ana", "--as", "ysolde").exit_code == 0
    before = json.loads(cli("char", "show", "ysolde", "--json").stdout)["willpower"]
    blind = roll_line("seyruun roll dexterity stealth --willpower --blind", seats.find("ana"))
    assert blind.status == 200
    table = Table(log_file(), "the-tvs-token-the-tvs-token", None, roller=roll_line)
    table.seats = seats.Watched(seats.path())
    gm = seats.gm_link_token()
    app = Guard(make_app(table), "the-tvs-token-the-tvs-token", table.seats, None)

    def willpower(token: str) -> object:
        status, body = _asgi(app, "GET", "/api/panel", token)
        assert status == 200, body
        (ysolde,) = json.loads(body)["characters"]
        return next(r for r in ysolde["sheet"]["resources"] if r["name"] == "willpower")

    tv, screen = willpower("the-tvs-token-the-tvs-token"), willpower(gm)
    assert tv["value"] == before and screen["value"] == before - 1, (tv, screen)


@pytest.mark.slow  # about 0.8 s (refused at the budget)
def test_odds_of_a_group_keeping_hundreds_of_dice_are_refused_soon():
    write("keeps", {"total": "sum(d)"}, 'sides = 2\ncount = "pool * 30"\nkeep = "pool * 30 - 1"')
    with cpu_seconds(5):  # each step sorted the hundreds kept: minutes before
        one_line(cli("keeps", "odds", "30"), "odds budget")
