"""The table's screens as players use them (issue 41): a real server, a headless Chromium
as a phone (390×844, touch) and as the TV (1920×1080), four seats rolling at once — a
Crytures, a Seyruun, a Cypher player paying Effort from a Pool, and a character of a
ruleset file. Each panel's form is drawn from ``GET /api/panel`` for its commands, the sheet
follows a spend, odds come back as bars, a card shows its dice by term; on the phone nothing
scrolls sideways, no text is under 12 px or under WCAG AA contrast; the TV's encounter and
cards use the screen. Screenshots of each screen land in ``$RPGDICE_ARTIFACTS`` (else
``artifacts/screens/``) for a person to look at. Two browser sessions in all."""

from __future__ import annotations

import json
import os
import re
import shutil
import urllib.request
from pathlib import Path

import pytest

from conftest import character, home, make_character, ok, proc

ROOT = Path(__file__).resolve().parents[1]


def _shots() -> Path:
    where = Path(os.environ.get("RPGDICE_ARTIFACTS") or ROOT / "artifacts") / "screens"
    where.mkdir(parents=True, exist_ok=True)
    return where


def test_the_panels_script_names_no_ruleset():
    # the panel draws every ruleset's form from /api/panel: its script knows none of them
    from rpgdice.serve.page import PANEL_SCRIPT

    for name in ("seyruun", "crytures", "cypher", "reglas", "pbta", "blades", "willpower",
                 "effort", "might", "difficulty"):
        assert name not in PANEL_SCRIPT.lower(), name


def test_a_cypher_effort_asks_which_pool_pays():
    import rpgdice.rulesets  # noqa: F401 - the rulesets registered
    from rpgdice.serve.panel import commands_of

    task = next(c for c in commands_of("cypher", as_character=True) if c["line"] == "cypher task")
    pool = next(p for p in task["params"] if p["option"] == "--pool")  # type: ignore[union-attr]
    assert pool["kind"] == "choice" and pool["choices"] == ["might", "speed", "intellect"]
    assert pool["with"] == "effort"  # asked once an Effort is given
    assert task["kind"] == "roll"
    assert next(c for c in commands_of("cypher", True) if c["line"] == "cypher odds")["kind"] == "odds"


def test_a_card_shows_the_dice_by_term():
    # issue 41: a card said "1d20+5 adv: (9) 20 → 25", one line of faces; the terminal
    # groups each term's dice, joins explosions and marks drops
    from rpgdice.serve import views

    ok("roll", "1d20+5 adv", "--seed", "5", "--log")
    ok("roll", "6d6!", "--seed", "5", "--log")
    ok("roll", "4dF", "--dice", "1,0,-1,1", "--log")
    ok("roll", "8d10>=6f1", "--seed", "5", "--log")
    cards = [views.entry_html(json.loads(x)) for x in ok("log", "--json").stdout.splitlines()]
    terms = [re.findall(r'<span class="term[^"]*"><span class="expr">([^<]*)</span>(.*?)(?=<span class="term|</span></span> <strong)', c)
             for c in cards]
    dice = [[re.findall(r'<span class="die([^"]*)">([^<]*)</span>', body) for _, body in t] for t in terms]
    assert [e for e, _ in terms[0]] == ["1d20", "+5"]  # two d20s, one kept, then +5
    assert sorted(look for look, _ in dice[0][0]) == ["", " drop"] and dice[0][1] == []
    assert re.fullmatch(r"\(\d+\)", next(f for look, f in dice[0][0] if look == " drop"))
    assert ("", "5") in dice[1][0] and (" boom", "6+6+6+5") in dice[1][0]  # as the terminal joins them
    assert [f for _, f in dice[2][0]] == ["+", "0", "\u2212", "+"]  # a Fudge die by its face
    assert (" hit", "10 \u2713") in dice[3][0] and (" miss", "1 \u2717") in dice[3][0]
    assert all('class="verdict' in c for c in cards)


# The browser ----------------------------------------------------------------------------

FONTS_AND_CONTRAST = """
function rgb(s) { var m = s.match(/[\\d.]+/g); return m ? m.map(Number) : null; }
function lum(c) { return [0, 1, 2].map(function (i) { var v = c[i] / 255;
  return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
  .reduce(function (a, v, i) { return a + v * [0.2126, 0.7152, 0.0722][i]; }, 0); }
function back(e) { for (; e; e = e.parentElement) { var c = rgb(getComputedStyle(e).backgroundColor);
  if (c && (c.length < 4 || c[3] > 0.5)) return c; } return [255, 255, 255]; }
var small = [], faint = [], root = arguments[0] ? document.querySelector(arguments[0]) : document.body;
var walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
while (walk.nextNode()) {
  var t = walk.currentNode, e = t.parentElement;
  if (!t.textContent.trim() || !e.getClientRects().length || e.closest("[hidden],script,style,option")) continue;
  var s = getComputedStyle(e), px = parseFloat(s.fontSize);
  if (s.visibility === "hidden") continue;
  if (px < 12) small.push(t.textContent.trim().slice(0, 20) + " " + px);
  var a = lum(rgb(s.color)), b = lum(back(e)), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  var large = px >= 24 || (parseInt(s.fontWeight, 10) >= 700 && px >= 18.66);
  if (ratio < (large ? 3 : 4.5)) faint.push(t.textContent.trim().slice(0, 20) + " " + ratio.toFixed(2));
}
return [small, faint];
"""


def _driver(width: int, height: int, phone: bool):
    from test_serve_browser import _chromium

    binary, driver_path = _chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={width},{height}",
                 # each tab is a phone of its own, always in front on its own table: none
                 # is held to a hidden tab's timers (the four seats share one browser)
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows"):
        options.add_argument(flag)
    if phone:  # a phone's screen and touch, not a narrow desktop window
        options.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                         "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(20)
    if not phone:  # the TV's whole screen is the page's (no window's frame taken off)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


def _table() -> tuple[dict[str, str], str]:
    docs = ROOT / "docs" / "rulesets"
    (home() / "rulesets").mkdir(exist_ok=True)
    shutil.copy(docs / "pbta.toml", home() / "rulesets" / "pbta.toml")
    character("Ysolde", willpower=3)
    ok("char", "new", "Kora", "--ruleset", "cypher", "might=12", "speed=10", "intellect=8",
       "speed-edge=0", "climbing=trained")
    make_character("Brakk", "crytures", {"might": 3, "stealth": 2})
    make_character("Vex", "pbta", {"cool": 2, "hard": 1})
    tokens = {}
    for seat, who in (("ana", "ysolde"), ("bo", "kora"), ("cy", "brakk"), ("dee", "vex")):
        link = ok("seat", "add", seat, "--as", who).stdout.strip().rsplit(": ", 1)[1]
        tokens[seat] = link.rsplit("seat=", 1)[1]
    ok("encounter", "start", *[f"Foe-{n}=2+2" for n in range(14)], "--no-log")
    proc("roll", "1d20+5 adv", "--log")
    proc("roll", "6d6!", "--seed", "5", "--log")
    return tokens, ok("seat", "link", "--gm").stdout.strip().rsplit("?gm=", 1)[1]


def _panel(base: str, token: str) -> dict:
    asked = urllib.request.Request(base + "/api/panel", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(asked, timeout=10) as answer:
        return json.loads(answer.read())


def _line(d) -> str:
    return d.find_element("id", "roll-line").get_attribute("value")


def _chip(d, trait: str):
    return d.find_element("css selector", f'#chips .chip[data-trait="{trait}"]')


def _type(d, param: str, text: str) -> None:
    box = d.find_element("css selector", f'#params [data-param="{param}"] input')
    box.clear()
    box.send_keys(text)


def _resource(d, name: str) -> str:
    return d.find_element("css selector", f'#resources [data-resource="{name}"] .value').text


def _fill(phone, tabs: dict[str, str]) -> None:
    """Each seat's roll, built by tapping its panel."""
    from selenium.webdriver.support.ui import Select

    phone.switch_to.window(tabs["ana"])  # Seyruun: Attribute and Skill, Willpower spent
    _chip(phone, "dexterity").click()
    _chip(phone, "stealth").click()
    phone.find_element("css selector", '#params [data-param="willpower"] input').click()
    assert _line(phone) == "seyruun roll dexterity stealth --willpower"
    assert _chip(phone, "dexterity").get_attribute("aria-pressed") == "true"

    phone.switch_to.window(tabs["bo"])  # Cypher: a trained skill, Effort from the Speed Pool
    assert not phone.find_element("css selector", '#params [data-param="pool_name"]').is_displayed()
    _type(phone, "difficulty", "3")
    _chip(phone, "climbing").click()
    _type(phone, "effort", "1")
    pool = phone.find_element("css selector", '#params [data-param="pool_name"] select')
    assert pool.is_displayed()  # the Effort asks which Pool pays
    assert "--pool" in phone.find_element("id", "roll-missing").text
    Select(pool).select_by_value("speed")
    assert _line(phone) == "cypher task --difficulty 3 --skill climbing --effort 1 --pool speed"
    assert phone.execute_script(  # the line shown whole: wrapped on the phone, never cut
        "var l = document.getElementById('roll-line'); return [l.scrollHeight <= l.clientHeight + 1,"
        " l.scrollWidth <= l.clientWidth, l.clientHeight > 1.8 * parseFloat(getComputedStyle(l).lineHeight)]"
    ) == [True, True, True]
    assert phone.find_element("id", "roll-missing").text == ""
    assert [e.get_attribute("data-trait") for e in phone.find_elements("css selector", "#chips .trait")] \
        == ["speed-edge"]  # shown, not offered; the Pools are resources
    assert _resource(phone, "speed") == "10 / 10"

    phone.switch_to.window(tabs["cy"])  # Crytures: a pool of two traits, with its odds
    _chip(phone, "might").click()
    _chip(phone, "stealth").click()
    phone.find_element("id", "roll-odds").click()
    assert _line(phone) == "crytures roll might+stealth --odds"

    phone.switch_to.window(tabs["dee"])  # a ruleset file's roll
    _chip(phone, "cool").click()
    assert _line(phone) == "pbta roll cool"


def _answered(phone, tab: str):
    from test_serve_browser import _wait

    phone.switch_to.window(tab)
    _wait(phone, lambda d: d.find_element("id", "roll-out").text.strip() not in ("", "…"), timeout=8)
    return phone.find_element("id", "roll-out")


def _odds_bars(out) -> list[tuple[str, float, float]]:
    rows = []
    for li in out.find_elements("css selector", ".odds li"):
        pct = li.find_element("css selector", ".pct").text
        bar = li.find_element("css selector", ".bar i").get_attribute("style")
        rows.append((li.find_element("css selector", ".name").text,
                     float(pct.strip("%<>")), float(re.search(r"width: ([\d.]+)%", bar).group(1))))
    return rows


def _phone_is_tidy(phone, name: str) -> None:
    scroll, inner = phone.execute_script("return [document.scrollingElement.scrollWidth, innerWidth]")
    assert inner == 390 and scroll <= inner, (name, scroll, inner)
    small, faint = phone.execute_script(FONTS_AND_CONTRAST, None)
    assert small == [] and faint == [], (name, small, faint)
    phone.save_screenshot(str(_shots() / f"phone-{name}.png"))


@pytest.mark.slow
@pytest.mark.process
def test_four_seats_roll_at_once_on_phones_and_the_tv_shows_it(tmp_path):
    from test_serve import serving
    from test_serve_browser import _rolls, _wait

    tokens, gm = _table()
    with serving(tmp=tmp_path) as server:
        phone, tv = _driver(390, 844, phone=True), _driver(1920, 1080, phone=False)
        try:
            tv.get(server.url)
            tabs = {}
            for seat, token in tokens.items():
                if tabs:
                    phone.switch_to.new_window("tab")
                phone.get(f"{server.base}/?seat={token}")
                tabs[seat] = phone.current_window_handle
                _wait(phone, lambda d: d.find_elements("css selector", "#params [data-param]"))
                drawn = [e.get_attribute("data-param")
                         for e in phone.find_elements("css selector", "#params [data-param]")]
                wanted = _panel(server.base, token)["characters"][0]["commands"][0]["params"]
                assert drawn == [p["name"] for p in wanted], seat  # no box it does not take
                assert phone.execute_script("return navigator.maxTouchPoints") > 0
            _fill(phone, tabs)
            for seat in tabs:  # four rolls at once: each Roll tapped in turn, none awaited
                phone.switch_to.window(tabs[seat])
                phone.find_element("css selector", "#roll-form button[type=submit]").click()
            said = {seat: _answered(phone, tab).text for seat, tab in tabs.items()}
            assert any(w in said["dee"] for w in ("Strong hit", "Weak hit", "Miss")), said
            assert any(w in said["bo"] for w in ("Success", "Failure")), said
            cy = _answered(phone, tabs["cy"])
            bars = _odds_bars(cy)
            assert {n for n, _, _ in bars} == {"Success", "Failure"}, bars  # the rules' words
            this = cy.find_element("css selector", ".odds li.this .name").text  # the one rolled
            assert this in cy.find_element("css selector", ".verdict").text
            assert abs(sum(p for _, p, _ in bars) - 100) < 0.5 and all(abs(p - w) < 0.1 for _, p, w in bars)
            # the sheets as the table saw them after the spend: Willpower 2 of 3, Speed paid
            phone.switch_to.window(tabs["ana"])
            _wait(phone, lambda d: _resource(d, "willpower").startswith("2 / "), timeout=5)
            # a secret roll's spend (made at the GM's terminal) shows once it is revealed
            proc("seyruun", "roll", "dexterity", "stealth", "--as", "ysolde", "--willpower",
                 "--secret", "--log")
            _wait(phone, lambda d: len(_rolls(d)) == 7, timeout=4)  # its "a secret roll"
            _wait(tv, lambda d: len(_rolls(d)) == 7, timeout=4)
            assert _resource(phone, "willpower").startswith("2 / ")
            proc("log", "reveal", "7")
            _wait(phone, lambda d: _resource(d, "willpower").startswith("1 / "), timeout=20)
            phone.switch_to.window(tabs["bo"])
            # a tab the browser had in the background refetches its sheet when shown: under a
            # loaded CI the reveal's refetch took over 5 s to reach it
            _wait(phone, lambda d: _resource(d, "speed") == "7 / 10", timeout=20)
            _phone_is_tidy(phone, "cypher")
            # an odds line: each outcome's chance, as a bar
            from selenium.webdriver.support.ui import Select

            phone.switch_to.window(tabs["dee"])
            Select(phone.find_element("id", "roll-cmd")).select_by_visible_text("pbta odds")
            _chip(phone, "hard").click()
            assert _line(phone) == "pbta odds hard"
            phone.find_element("css selector", "#roll-form button[type=submit]").click()
            _wait(phone, lambda d: len(d.find_elements("css selector", "#roll-out .odds li")) == 3)
            assert [n for n, _, _ in _odds_bars(phone.find_element("id", "roll-out"))] == \
                ["Strong hit", "Weak hit", "Miss"]  # in the file's words
            for seat in ("dee", "ana", "cy"):
                phone.switch_to.window(tabs[seat])
                _phone_is_tidy(phone, seat)
            phone.switch_to.window(tabs["dee"])
            phone.find_element("id", "roll-blind").click()  # a blind roll: the GM alone sees it
            phone.find_element("id", "dice-expr").send_keys("2d6")
            phone.find_element("css selector", "#dice-form button").click()
            _wait(phone, lambda d: d.find_element("id", "roll-out").text == "rolled blind: the GM sees it")
            _as_the_gm(phone, f"{server.base}/?gm={gm}")
            # the TV: every seat's roll within 2 seconds, the encounter whole, cards by term
            _wait(tv, lambda d: len(_rolls(d)) == 9, timeout=4)  # (odds are not logged)
            _tv_uses_the_screen(tv)
        finally:
            phone.quit()
            tv.quit()
    logged = [json.loads(x) for x in ok("log", "--json").stdout.splitlines()]
    assert sorted(e["seat"] for e in logged if e.get("seat")) == ["ana", "bo", "cy", "dee", "dee"]
    assert (logged[6]["id"], logged[6]["character"]) == (7, "Ysolde")  # revealed
    assert (logged[7]["seat"], logged[7]["blind"]) == ("dee", True)
    assert logged[8]["argv"][:4] == ["roll", "2d6", "--dice", "3,4"]  # the GM's, a die thrown


def _as_the_gm(phone, url: str) -> None:
    """The GM's screen (``?gm=``): the same panel, as any character or none, with ``--dice``."""
    from selenium.webdriver.support.ui import Select

    from test_serve_browser import _wait

    phone.switch_to.new_window("tab")
    phone.get(url)
    _wait(phone, lambda d: d.find_elements("css selector", "#params [data-param]"))
    who = Select(phone.find_element("id", "roll-char"))
    names = [o.text for o in who.options]
    assert names[:4] == ["Brakk", "Kora", "Vex", "Ysolde"] and "as none · Dice" in names
    assert _line(phone) == "crytures roll --as Brakk"  # the GM names the character
    dice = phone.find_element("id", "roll-dice")
    assert dice.is_displayed()
    who.select_by_visible_text("as none · Dice")
    assert phone.find_elements("css selector", "#chips .chip") == []  # no sheet as none
    _type(phone, "expressions", "2d6")
    dice.send_keys("3,4")
    assert _line(phone) == "roll 2d6 --dice 3,4"
    phone.find_element("css selector", "#roll-form button[type=submit]").click()
    _wait(phone, lambda d: d.find_element("css selector", "#roll-out .verdict").text == "7")
    _phone_is_tidy(phone, "gm")


def _tv_uses_the_screen(tv) -> None:
    tv.save_screenshot(str(_shots() / "tv.png"))
    term = next(e for e in tv.find_elements("css selector", "#rolls article")
                if "1d20+5 adv" in e.text)
    groups = term.find_elements("css selector", ".term")
    assert [g.find_element("css selector", ".expr").text for g in groups] == ["1d20", "+5"]
    dice = groups[0].find_elements("css selector", ".die")
    assert len(dice) == 2 and len(groups[0].find_elements("css selector", ".die.drop")) == 1
    assert re.fullmatch(r"\(\d+\)", groups[0].find_element("css selector", ".die.drop").text)
    boom = next(e for e in tv.find_elements("css selector", "#rolls article") if "6d6!" in e.text)
    assert "6+6+6+5" in [d.text for d in boom.find_elements("css selector", ".die")]
    rows = tv.find_elements("css selector", "#encounter .side")
    height = tv.execute_script("return innerHeight")
    assert height == 1080
    assert len(rows) == 14 and all(r.rect["y"] + r.rect["height"] <= height for r in rows)
    seen = [a for a in tv.find_elements("css selector", "#rolls article")
            if a.rect["y"] + a.rect["height"] <= height]
    assert len(seen) >= 6, len(seen)  # more cards on the screen at once (one column: 4)
    scroll, inner = tv.execute_script("return [document.scrollingElement.scrollWidth, innerWidth]")
    assert scroll <= inner
    assert tv.execute_script(FONTS_AND_CONTRAST, "#layout") == [[], []]
