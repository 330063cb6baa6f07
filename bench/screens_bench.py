#!/usr/bin/env python3
"""What the table's screens cost (issue 41): the page's weight (bytes of HTML, CSS and
script served: the plain page a TV opens, a seat's page and the GM's screen with their
panel, each with the newest rolls), its first paint in a headless Chromium as a phone
(390×844, touch) and as the TV (1920×1080) (``performance.getEntriesByType('paint')``),
and ``GET /api/panel``'s time and size for a seat and for the GM.

    python bench/screens_bench.py [--rounds 50] [--paints 3] [--rolls 40] [--quick]

Runs in a temporary RPGDICE_HOME with four characters (Seyruun, Cypher, Crytures, a
ruleset file's) and a seat for each, ``--rolls`` rolls logged (each a card). Times are
wall-clock medians (and the server's CPU time for the panel's requests, from /proc): run it
on a quiet machine.
Without Chromium (and chromedriver) the paints are said to be skipped. ``--quick`` (the
tests' run, so the bench cannot rot): 5 rounds, 1 paint each, 10 rolls."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHARACTERS = [
    ("Ysolde", "seyruun", ["dexterity=3", "stealth=3", "composure=3", "resolve=2"]),
    ("Kora", "cypher", ["might=12", "speed=10", "intellect=8", "speed-edge=1", "climbing=trained"]),
    ("Brakk", "crytures", ["might=3", "stealth=2"]),
    ("Vex", "pbta", ["cool=2", "hard=1"]),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50, help="GET /api/panel requests timed, each token")
    parser.add_argument("--paints", type=int, default=3, help="page loads timed, each screen")
    parser.add_argument("--rolls", type=int, default=40, help="rolls logged before (each a card)")
    parser.add_argument("--quick", action="store_true", help="5 rounds, 1 paint, 10 rolls: the tests' run")
    opts = parser.parse_args(argv)
    if opts.quick:
        opts.rounds, opts.paints, opts.rolls = 5, 1, 10
    return opts


def setup(env: dict[str, str], rolls: int) -> list[str]:
    rpg = [sys.executable, "-m", "rpgdice"]
    run = lambda *a: subprocess.run([*rpg, *a], env=env, capture_output=True,  # noqa: E731
                                    text=True, check=True).stdout
    rulesets = Path(env["RPGDICE_HOME"]) / "rulesets"
    rulesets.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "docs" / "rulesets" / "pbta.toml", rulesets / "pbta.toml")
    tokens = []
    for n, (name, ruleset, traits) in enumerate(CHARACTERS):
        run("char", "new", name, "--ruleset", ruleset, *traits)
        out = run("seat", "add", f"seat{n}", "--as", name)
        tokens.append(out.strip().rsplit("seat=", 1)[1])
    lines = ["roll 1d20+5 adv --log", "roll 4d6kh3 3d6! --log", "seyruun roll 3 3 --log",
             "cypher task -d 3 --log", "crytures roll 5 --log"] * (rolls // 5)
    subprocess.run([*rpg, "play"], input="\n".join(lines) + "\n", env=env, capture_output=True,
                   text=True, check=True)  # the rolls a page opens with, each its own card
    tokens.append(run("seat", "link", "--gm").strip().rsplit("?gm=", 1)[1])  # the GM's screen's
    return tokens


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def panel_figures(base: str, token: str, rounds: int, pid: int) -> tuple[float, float, int]:
    """Median ms, the server's CPU ms a request, the answer's bytes."""
    times, size = [], 0
    before = cpu_seconds(pid)
    for _ in range(rounds):
        asked = urllib.request.Request(base + "/api/panel", headers={"Authorization": f"Bearer {token}"})
        start = time.perf_counter()
        with urllib.request.urlopen(asked, timeout=30) as answer:
            size = len(answer.read())
        times.append(time.perf_counter() - start)
    cpu = (cpu_seconds(pid) - before) / rounds
    return statistics.median(times) * 1000, cpu * 1000, size


def paints(url: str, phone: bool, loads: int) -> list[float] | None:
    """First contentful paint (ms) of ``loads`` loads of ``url``, or None without Chromium."""
    browser, driver_path = shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver")
    if browser is None or driver_path is None:
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    size = (390, 844) if phone else (1920, 1080)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={size[0]},{size[1]}"):
        options.add_argument(flag)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": size[0], "height": size[1], "pixelRatio": 2.0, "touch": True}})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    found = []
    try:
        for _ in range(loads):
            driver.get(url)
            for _ in range(50):
                entries = driver.execute_script(
                    "return performance.getEntriesByType('paint').map(e => [e.name, e.startTime])")
                first = [t for name, t in entries if name == "first-contentful-paint"]
                if first:
                    found.append(float(first[0]))
                    break
                time.sleep(0.05)
    finally:
        driver.quit()
    return found


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    home = tempfile.mkdtemp(prefix="rpgdice-bench-")
    env = {**os.environ, "RPGDICE_HOME": home}
    tokens = setup(env, opts.rolls)
    gm = "bench-gm-token-0123456789abcdef"
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "rpgdice", "serve", "--port", str(port),
                               "--token", gm], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert server.stdout is not None
        server.stdout.readline()
        tv_url, seat_url = base + f"/?token={gm}", base + f"/?seat={tokens[1]}"
        for name, url in (("TV page", tv_url), ("seat page (with its panel)", seat_url),
                          ("GM's screen (with its panel)", base + f"/?gm={tokens[-1]}")):
            page = urllib.request.urlopen(url, timeout=10).read()
            cards = page.count(b'<article class="roll')
            own = sum(len(x) for x in re.findall(rb"<(?:style|script)>(.*?)</(?:style|script)>", page, re.S))
            print(f"{name} weight: {len(page)} bytes (HTML+CSS+script, {cards} cards; "
                  f"its CSS and script {own} bytes)")
        for name, token in (("a seat", tokens[1]), ("the GM", gm)):
            ms, cpu, size = panel_figures(base, token, opts.rounds, server.pid)
            print(f"GET /api/panel for {name}: median {ms:.1f} ms, server CPU {cpu:.1f} ms, {size} bytes")
        for name, url, phone in (("phone", seat_url, True), ("TV", tv_url, False)):
            found = paints(url, phone, opts.paints)
            if found is None:
                print(f"first paint ({name}): skipped, no chromium and chromedriver")
            elif found:
                print(f"first paint ({name}): median {statistics.median(found):.0f} ms of {len(found)}")
            else:
                print(f"first paint ({name}): not reported")
                return 1
    finally:
        server.terminate()
        server.wait(10)
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
