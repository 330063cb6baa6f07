#!/usr/bin/env python3
"""Sustained load on the table's server (issue 44): 6 seats rolling ``--rate`` rolls a
second between them for ``--seconds`` seconds while ``--pages`` pages listen to
``/events``; the latency of every roll on every page.

    python bench/load_bench.py [--rate 100] [--seconds 20] [--pages 3] [--seats 6] [--quick]

Runs ``rpgdice serve`` in a temporary RPGDICE_HOME with its seats' rate limit lifted (a
seat may send 10 rolls in 10 s; a shared server's seats here send more): each seat is a
real seat (its token, its checks; three roll a ruleset's roll as their character), each sends on a
schedule of its own (open loop: a roll every ``seats / rate`` seconds, at once when it is
behind), over one kept-alive connection. Each page records when each roll's event came;
a roll's latency on a page is that time less the time its answer came (and less the time
it was sent, and less the time it was due: a seat behind its schedule sends late). Prints the
rate reached, the answers' times, the latencies (median, p99, worst), how far behind their
schedule the seats fell, the rolls later than ``--limit`` seconds after they were due on any
page (or never seen), and the server's CPU time per roll (user + system, from /proc). Exits
1 when any roll was late.

:func:`run` is what the slow test (tests/test_load.py) calls, at a modest rate."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

LINES = ["seyruun roll dexterity stealth", "roll 3d6", "roll 1d20+4", "roll 4d6kh3",
         "crytures roll 4", "reglas roll 8"]
"""What each seat rolls: the first, fifth and sixth as a character of their own."""
CHARACTERS = {0: "ysolde", 4: "kra", 5: "lupe"}
"""The seats' characters, by seat."""
UNLIMITED = ("import sys; import rpgdice.serve.app as app; app.RATE = 10 ** 9; "
             "from rpgdice.cli import main; sys.argv[0] = 'rpgdice'; main()")
"""``rpgdice serve`` with no limit on a seat's rate (the bench's seats roll faster than a
table's)."""


@dataclass
class Result:
    rate: float
    sent: int
    answered: list[tuple[int, float, float]]
    """(entry ID, when sent, when answered) of each roll answered 200."""
    refused: int
    seen: list[dict[int, float]]
    """Each page's arrival time of each roll, by entry ID."""
    took: float
    cpu: float
    """The server's CPU time over the run (user + system), seconds."""
    limit: float
    late: list[float] = field(default_factory=list)

    def latencies(self, since: str = "answer") -> list[float]:
        """Each roll's latency on each page (inf: never seen there), from its answer, from
        when it was sent, or from when it was due (``since``: "answer", "sent", "due": a
        seat behind its schedule sends late, which the first two do not see)."""
        at = {"due": 0, "sent": 1, "answer": 2}[since]
        return [page.get(times[0], float("inf")) - times[1 + at]
                for times in self.answered for page in self.seen]

    def report(self) -> str:
        lat = sorted(self.latencies())
        sent_lat = sorted(self.latencies("sent"))
        due_lat = sorted(self.latencies("due"))
        answers = sorted(t1 - t0 for _, _, t0, t1 in self.answered)
        behind = max((t0 - due for _, due, t0, _ in self.answered), default=0.0)
        n = len(self.answered)
        late = sum(x > self.limit for x in due_lat)
        pct = lambda xs, q: xs[min(len(xs) - 1, int(len(xs) * q))] if xs else float("nan")  # noqa: E731
        return (f"asked {self.rate:g}/s from the seats: {n} rolls answered in {self.took:.1f} s "
                f"= {n / self.took:.1f}/s ({self.refused} answered other than 200)\n"
                f"answer: median {pct(answers, .5) * 1000:.0f} ms, p99 "
                f"{pct(answers, .99) * 1000:.0f} ms, worst {pct(answers, 1) * 1000:.0f} ms\n"
                f"on {len(self.seen)} pages, after the answer: median {pct(lat, .5) * 1000:.0f} ms,"
                f" p99 {pct(lat, .99) * 1000:.0f} ms, worst {pct(lat, 1) * 1000:.0f} ms; after "
                f"sending: worst {pct(sent_lat, 1) * 1000:.0f} ms; after it was due: worst "
                f"{pct(due_lat, 1) * 1000:.0f} ms (the seats at most {behind * 1000:.0f} ms "
                f"behind their schedule)\n"
                f"{late} of {len(lat)} (roll, page) later than {self.limit:g} s after it was due, "
                f"or never seen\n"
                f"server CPU: {self.cpu:.2f} s = {self.cpu / max(1, n) * 1000:.2f} ms a roll "
                f"({self.cpu / self.took * 100:.0f}% of a core)")

    def late_count(self) -> int:
        return sum(x > self.limit for x in self.latencies("due"))


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Page(threading.Thread):
    """A page listening to ``/events``: when each roll's event came, by entry ID."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__(daemon=True)
        self.port, self.token = port, token
        self.seen: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        con.request("GET", f"/events?token={self.token}")
        stream = con.getresponse()
        self.ready.set()
        ident = None
        while not self.stop:
            raw = stream.fp.readline()
            if not raw:
                break
            if raw.startswith(b"id: "):
                ident = int(raw[4:])
            elif raw == b"\n" and ident is not None:
                self.seen.setdefault(ident, time.monotonic())
                ident = None
        con.close()


class Seat(threading.Thread):
    """A seat sending ``line`` every ``every`` seconds from ``start`` until ``until``."""

    def __init__(self, port: int, token: str, line: str, every: float, start: float,
                 until: float) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.line = port, token, line
        self.every, self.start_at, self.until = every, start, until
        self.answered: list[tuple[int, float, float, float]] = []
        """Each roll answered: its entry's ID, when it was due, sent and answered."""
        self.sent = self.refused = 0

    def run(self) -> None:
        con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        body = json.dumps({"line": self.line})
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        due = self.start_at
        while due < self.until:
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            t0 = time.monotonic()
            con.request("POST", "/api/roll", body, headers)
            answer = con.getresponse()
            data = answer.read()
            t1 = time.monotonic()
            self.sent += 1
            if answer.status == 200:
                self.answered.append((json.loads(data)["rolls"][0]["id"], due, t0, t1))
            else:
                self.refused += 1
            due += self.every
        con.close()


def _home(seats: int) -> tuple[str, list[str]]:
    """A temporary home with ``seats`` seats (three with a character): the home, the tokens."""
    home = tempfile.mkdtemp(prefix="rpgdice-load-")
    env = {**os.environ, "RPGDICE_HOME": home}
    run = lambda *a: subprocess.run([sys.executable, "-m", "rpgdice", *a], env=env,  # noqa: E731
                                    capture_output=True, text=True, check=True).stdout
    run("char", "new", "ysolde", "--ruleset", "seyruun", "dexterity=3", "stealth=3")
    run("char", "new", "kra", "--ruleset", "crytures")
    run("char", "new", "lupe", "--ruleset", "reglas")
    tokens = []
    for n in range(seats):
        out = run("seat", "add", f"p{n}", *(["--as", CHARACTERS[n]] if CHARACTERS.get(n) else []))
        tokens.append(out.strip().rsplit("seat=", 1)[1])
    return home, tokens


def run(rate: float, seconds: float, pages: int = 3, seats: int = 6,
        limit: float = 2.0, settle: float = 3.0) -> Result:
    """Serve, listen with ``pages`` pages, roll ``rate`` a second from ``seats`` seats for
    ``seconds`` s, wait ``settle`` s more (and until every roll came, at most 60 s)."""
    home, tokens = _home(seats)
    gm = "load-bench-gm-token-0123456789abcdef"
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["RPGDICE_HOME"] = home
    server = subprocess.Popen([sys.executable, "-c", UNLIMITED, "serve", "--port", "0",
                               "--token", gm], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r":(\d+)/", server.stdout.readline())
        assert found, "rpgdice serve said no address"
        port = int(found.group(1))
        listening = [Page(port, gm) for _ in range(pages)]
        for p in listening:
            p.start()
            p.ready.wait(10)
        for n, token in enumerate(tokens):  # warm: each line's modules loaded before the clock
            Seat(port, token, LINES[n % len(LINES)], 1, 0, 0.5).run()
        time.sleep(1.0)
        cpu0 = _cpu(server.pid)
        start = time.monotonic() + 0.2
        every = seats / rate
        rolling = [Seat(port, tokens[n], LINES[n % len(LINES)], every,
                        start + n * every / seats, start + seconds) for n in range(seats)]
        for s in rolling:
            s.start()
        for s in rolling:
            s.join()
        took = time.monotonic() - start
        answered = [r for s in rolling for r in s.answered if r[2] >= start]
        deadline = time.monotonic() + 60
        time.sleep(settle)
        while time.monotonic() < deadline and any(
                ident not in p.seen for p in listening for ident, _, _, _ in answered):
            time.sleep(0.5)
        cpu = _cpu(server.pid) - cpu0
        for p in listening:
            p.stop = True
        return Result(rate, sum(s.sent for s in rolling), answered,
                      sum(s.refused for s in rolling), [dict(p.seen) for p in listening],
                      took, cpu, limit)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--limit", type=float, default=2.0)
    parser.add_argument("--quick", action="store_true",
                        help="20 rolls a second for 3 s (CI's quick run: it runs, it measures)")
    opts = parser.parse_args()
    if opts.quick:
        opts.rate, opts.seconds = 20.0, 3.0
    result = run(opts.rate, opts.seconds, opts.pages, opts.seats, opts.limit)
    print(result.report())
    sys.exit(1 if result.late_count() else 0)


if __name__ == "__main__":
    main()
