#!/usr/bin/env python3
"""The table's server under its players (issue 31): how many rolls a second ``rpgdice
serve`` sustains from 6 seats at once, each roll on every page (SSE clients) within 2 s;
the page's weight; serve's memory over many seat rolls.

    python bench/table_bench.py [--seconds 10] [--rolls 10000] [--pages 3]

Runs in a temporary RPGDICE_HOME. A seat may send 10 rolls in 10 s, so the throughput is
measured twice: 6 seats at their limit (what a table can ask), and 6 clients rolling
as fast as the server answers (the server's own ceiling; the GM's token, which is not
limited, through the same path: parse, check, execute, log). The memory run rolls
``--rolls`` seat rolls from 1000 seats (10 each, within their limit) and reads serve's
resident memory (VmRSS) before and after."""

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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rolls", type=int, default=10000)
    parser.add_argument("--pages", type=int, default=3)
    opts = parser.parse_args()
    home = tempfile.mkdtemp(prefix="rpgdice-bench-")
    env = {**os.environ, "RPGDICE_HOME": home}
    rpg = [sys.executable, "-m", "rpgdice"]
    run = lambda *a: subprocess.run([*rpg, *a], env=env, capture_output=True, text=True,  # noqa: E731
                                    check=True).stdout
    run("char", "new", "ysolde", "--ruleset", "seyruun", "dexterity=3", "stealth=3")
    tokens = []
    for n in range(6):
        out = run("seat", "add", f"p{n}", *(["--as", "ysolde"] if n == 0 else []))
        tokens.append(out.strip().rsplit("seat=", 1)[1])
    gm = "bench-gm-token-0123456789abcdef"
    port = free_port()
    server = subprocess.Popen([*rpg, "serve", "--port", str(port), "--token", gm], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert server.stdout is not None
        server.stdout.readline()
        pages = [Page(base, gm) for _ in range(opts.pages)]
        for p in pages:
            p.start()
            p.ready.wait(10)
        lines = ["seyruun roll dexterity stealth", "roll 3d6", "roll 1d20+4", "roll 4d6kh3",
                 "crytures roll 4", "reglas roll 8"]

        def burst(token: str, line: str, until: float, sent: list, limit: bool) -> None:
            while time.monotonic() < until:
                if limit and len(sent) >= 10:  # a seat's 10 rolls in 10 s
                    break
                t0 = time.monotonic()
                status, body = post(base, token, line)
                if status == 200:
                    sent.append((body["rolls"][0]["id"], t0, time.monotonic()))

        def measure(name: str, who: list[str], limit: bool) -> None:
            until = time.monotonic() + opts.seconds
            sent: list[list] = [[] for _ in who]
            threads = [threading.Thread(target=burst, args=(t, lines[i], until, sent[i], limit))
                       for i, t in enumerate(who)]
            start = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            took = time.monotonic() - start
            time.sleep(2.5)
            rolls = [r for s in sent for r in s]
            late = [max(p.seen.get(i, float("inf")) for p in pages) - t1 for i, t0, t1 in rolls]
            answer = sorted(t1 - t0 for _, t0, t1 in rolls)
            print(f"{name}: {len(rolls)} rolls in {took:.1f} s = {len(rolls) / took:.1f}/s; "
                  f"answer median {answer[len(answer) // 2] * 1000:.0f} ms, "
                  f"p99 {answer[int(len(answer) * 0.99)] * 1000:.0f} ms; on all {len(pages)} "
                  f"pages: worst {max(late) * 1000:.0f} ms after the answer, "
                  f"{sum(x > 2 for x in late)} later than 2 s")

        measure("6 seats at their limit", tokens, True)
        measure("6 clients flat out (GM token)", [gm] * 6, False)
        page = urllib.request.urlopen(base + f"/?token={gm}", timeout=10).read()
        print(f"page weight (the newest 100 rolls, as it opens): {len(page)} bytes")
        # memory over many seat rolls: 1000 seats, 10 rolls each, within their limits
        many = []
        for n in range(args_seats := max(1, opts.rolls // 10)):
            many.append(f"s{n}")
        doc = "".join(f'[seat.{n}]\ntoken = "tok-{n}-0123456789abcdefghij"\ncharacters = []\n'
                      for n in many)
        (Path(home) / "seats.toml").write_text(doc)
        os.chmod(Path(home) / "seats.toml", 0o600)
        before = rss_kib(server.pid)
        done = [0]

        def seat_rolls(names: list[str]) -> None:
            for n in names:
                for _ in range(10):
                    if post(base, f"tok-{n}-0123456789abcdefghij", "roll 3d6")[0] == 200:
                        done[0] += 1

        start = time.monotonic()
        threads = [threading.Thread(target=seat_rolls, args=(many[i::6],)) for i in range(6)]
        for t in threads:
            t.start()
        peak = before
        while any(t.is_alive() for t in threads):
            time.sleep(0.5)
            peak = max(peak, rss_kib(server.pid))
        after = rss_kib(server.pid)
        print(f"memory over {done[0]} seat rolls from {args_seats} seats "
              f"({time.monotonic() - start:.0f} s): VmRSS {before / 1024:.1f} MiB before, "
              f"{after / 1024:.1f} MiB after, peak {peak / 1024:.1f} MiB")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
