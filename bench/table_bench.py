#!/usr/bin/env python3
"""The table's server under its players (issue 31): how many rolls a second ``rpgdice
serve`` sustains from 6 seats at once, each roll on every page (SSE clients) within 2 s;
the page's weight; serve's memory over many seat rolls.

    python bench/table_bench.py [--seconds 10] [--rolls 10000] [--pages 3] [--marks N,N]
                                [--quick]

Runs in a temporary RPGDICE_HOME. The 6 seats roll what a table rolls: one as a Seyruun
character by its traits, three ordinary dice, one as a Crytures and one as a Reglas
character (a seat rolls a ruleset's rolls only as a character of its own, CLI.md). A seat
may send 10 rolls in 10 s, so the throughput is measured twice: 6 seats at their limit
(what a table can ask), and 6 clients rolling the same lines as fast as the server answers
(the server's own ceiling; the GM's token, which is not limited, naming the character
with ``--as``, through the same path: parse, check, execute, log). Every refused roll is
counted and said, and the bench exits 1 when there is any: a bench that measures refusals
measures nothing. The memory run rolls ``--rolls`` seat rolls from seats of 10 rolls each
(within their limit), with the ``--pages`` pages listening (``--pages 0``: none), and
reads serve's resident memory (VmRSS) before, at each of ``--marks`` seat rolls, and
after. ``--quick`` (the tests' run, so the bench cannot rot): 2 s, 200 rolls, 1 page."""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, token: str, line: str) -> tuple[int, dict]:
    request = urllib.request.Request(base + "/api/roll", data=json.dumps({"line": line}).encode(),
                                     headers={"Authorization": f"Bearer {token}",
                                              "Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, {}


def rss_kib(pid: int) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", text).group(1))  # type: ignore[union-attr]


class Page(threading.Thread):
    """An SSE client: when each roll event arrived."""

    def __init__(self, base: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token, self.seen = base + f"/events?token={token}", token, {}
        self.ready = threading.Event()

    def run(self) -> None:
        with urllib.request.urlopen(self.url, timeout=600) as stream:
            self.ready.set()
            ident = None
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    ident = int(line[4:])
                elif line == "" and ident is not None:
                    self.seen.setdefault(ident, time.monotonic())
                    ident = None


SEATS = [  # (seat, the character it rolls as, its line)
    ("p0", "ysolde", "seyruun roll dexterity stealth"),
    ("p1", None, "roll 3d6"),
    ("p2", None, "roll 1d20+4"),
    ("p3", None, "roll 4d6kh3"),
    ("p4", "kez", "crytures roll 4"),
    ("p5", "lola", "reglas roll 8"),
]
CHARACTERS = [("ysolde", "seyruun", ["dexterity=3", "stealth=3"]), ("kez", "crytures", []),
              ("lola", "reglas", [])]


def options(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rolls", type=int, default=10000)
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--marks", default="2000,12000,30000",
                        help="seat rolls at which serve's memory is read (those up to --rolls)")
    parser.add_argument("--quick", action="store_true",
                        help="2 s, 200 rolls, 1 page: that every part runs (the tests' run)")
    opts = parser.parse_args(argv)
    if opts.quick:
        opts.seconds, opts.rolls, opts.pages, opts.marks = 2.0, 200, 1, "100"
    return opts


def setup(home: str, env: dict[str, str]) -> list[str]:
    """The characters and the 6 seats; their tokens."""
    rpg = [sys.executable, "-m", "rpgdice"]
    run = lambda *a: subprocess.run([*rpg, *a], env=env, capture_output=True,  # noqa: E731
                                    text=True, check=True).stdout
    for name, ruleset, traits in CHARACTERS:
        run("char", "new", name, "--ruleset", ruleset, *traits)
    tokens = []
    for seat, character, _ in SEATS:
        out = run("seat", "add", seat, *(["--as", character] if character else []))
        tokens.append(out.strip().rsplit("seat=", 1)[1])
    return tokens


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    home = tempfile.mkdtemp(prefix="rpgdice-bench-")
    env = {**os.environ, "RPGDICE_HOME": home}
    tokens = setup(home, env)
    gm = "bench-gm-token-0123456789abcdef"
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "rpgdice", "serve", "--port", str(port),
                               "--token", gm], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{port}"
    refused: dict[str, int] = {}
    try:
        assert server.stdout is not None
        server.stdout.readline()
        threading.Thread(target=server.stdout.read, daemon=True).start()  # never a full pipe
        pages = [Page(base, gm) for _ in range(opts.pages)]
        for p in pages:
            p.start()
            p.ready.wait(10)
        seat_lines = [line for _, _, line in SEATS]
        gm_lines = [line + (f" --as {c}" if c else "") for _, c, line in SEATS]
        throughput(base, pages, opts.seconds, "6 seats at their limit", tokens, seat_lines,
                   True, refused)
        throughput(base, pages, opts.seconds, "6 clients flat out (GM token)", [gm] * 6,
                   gm_lines, False, refused)
        page = urllib.request.urlopen(base + f"/?token={gm}", timeout=10).read()
        print(f"page weight (the newest 100 rolls, as it opens): {len(page)} bytes")
        memory(base, home, server.pid, opts, len(pages), refused)
    finally:
        server.terminate()
        server.wait(10)
    if refused:
        print("refused: " + ", ".join(f"{n} × {why}" for why, n in sorted(refused.items())))
        return 1
    return 0


def burst(base: str, token: str, line: str, until: float, sent: list, limit: bool,
          refused: dict[str, int]) -> None:
    while time.monotonic() < until:
        if limit and len(sent) >= 10:  # a seat's 10 rolls in 10 s
            break
        t0 = time.monotonic()
        status, body = post(base, token, line)
        if status == 200:
            sent.append((body["rolls"][0]["id"], t0, time.monotonic()))
        else:
            why = f"{status} {line!r}"
            refused[why] = refused.get(why, 0) + 1


def throughput(base: str, pages: list[Page], seconds: float, name: str, who: list[str],
               lines: list[str], limit: bool, refused: dict[str, int]) -> None:
    until = time.monotonic() + seconds
    sent: list[list] = [[] for _ in who]
    threads = [threading.Thread(target=burst, args=(base, t, lines[i], until, sent[i], limit,
                                                     refused)) for i, t in enumerate(who)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - start
    time.sleep(2.5)
    rolls = [r for s in sent for r in s]
    if not rolls:
        print(f"{name}: no roll answered")
        return
    answer = sorted(t1 - t0 for _, t0, t1 in rolls)
    print(f"{name}: {len(rolls)} rolls from {sum(1 for s in sent if s)} of {len(who)} "
          f"clients in {took:.1f} s = {len(rolls) / took:.1f}/s; answer median "
          f"{answer[len(answer) // 2] * 1000:.0f} ms, p99 "
          f"{answer[int(len(answer) * 0.99)] * 1000:.0f} ms", end="")
    if pages:
        late = [max(p.seen.get(i, float("inf")) for p in pages) - t1 for i, t0, t1 in rolls]
        print(f"; on all {len(pages)} pages: worst {max(late) * 1000:.0f} ms after the "
              f"answer, {sum(x > 2 for x in late)} later than 2 s")
    else:
        print()


def memory(base: str, home: str, pid: int, opts: argparse.Namespace, listening: int,
           refused: dict[str, int]) -> None:
    """serve's VmRSS over ``opts.rolls`` seat rolls, from seats of 10 rolls each."""
    many = [f"s{n}" for n in range(max(1, opts.rolls // 10))]
    doc = "".join(f'[seat.{n}]\ntoken = "tok-{n}-0123456789abcdefghij"\ncharacters = []\n'
                  for n in many)
    (Path(home) / "seats.toml").write_text(doc)
    os.chmod(Path(home) / "seats.toml", 0o600)
    before = rss_kib(pid)
    done = [0]
    lock = threading.Lock()

    def seat_rolls(names: list[str]) -> None:
        for n in names:
            for _ in range(10):
                status = post(base, f"tok-{n}-0123456789abcdefghij", "roll 3d6")[0]
                with lock:
                    if status == 200:
                        done[0] += 1
                    else:
                        refused[f"{status} 'roll 3d6'"] = refused.get(f"{status} 'roll 3d6'",
                                                                      0) + 1

    marks = sorted(int(m) for m in opts.marks.split(",") if m and int(m) <= opts.rolls)
    start = time.monotonic()
    threads = [threading.Thread(target=seat_rolls, args=(many[i::6],)) for i in range(6)]
    for t in threads:
        t.start()
    peak, seen = before, []
    while any(t.is_alive() for t in threads):
        time.sleep(0.2)
        now = rss_kib(pid)
        peak = max(peak, now)
        while marks and done[0] >= marks[0]:
            seen.append(f"{now / 1024:.1f} MiB at {marks.pop(0)}")
    after = rss_kib(pid)
    print(f"memory over {done[0]} seat rolls from {len(many)} seats, {listening} pages "
          f"listening ({time.monotonic() - start:.0f} s): VmRSS {before / 1024:.1f} MiB "
          f"before, {', '.join(seen) + ', ' if seen else ''}{after / 1024:.1f} MiB after, "
          f"peak {peak / 1024:.1f} MiB")


if __name__ == "__main__":
    raise SystemExit(main())
