"""The page on a table's two screens, in a headless Chromium (as test_serve_browser.py):
at 390×844 (a phone held upright) and 1920×1080 (a TV) nothing is wider than the screen and
nothing scrolls sideways; a seat's link shows its roll panel, and a roll made there shows
in the panel and, within 2 seconds, on another page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from conftest import character, ok, proc
from test_serve import serving
from test_serve_browser import _chromium, _rolls, _wait

pytestmark = [pytest.mark.slow, pytest.mark.process]

WIDEST = """
var w = document.documentElement.clientWidth, out = [];
document.querySelectorAll("body *").forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.width > w + 0.5 || (r.right > w + 0.5 && !e.closest("details pre"))) out.push(e.tagName + "#" + e.id + "." + e.className + " " + r.width);
});
return [document.documentElement.scrollWidth, w, out];
"""


def _driver(width: int, height: int):
    binary, driver_path = _chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(20)
    return driver


def _seat_token(*characters: str) -> str:
    """The token of a new seat "ana" playing ``characters``."""
    link = ok("seat", "add", "ana", *(w for c in characters for w in ("--as", c))).stdout
    return link.strip().rsplit(": ", 1)[1].rsplit("seat=", 1)[1]


@contextmanager
def _seated_phone(tmp_path, token: str) -> Iterator:
    """A phone (390×844) on the seat's link of a table served for the test, quit after."""
    with serving(tmp=tmp_path) as server:
        phone = _driver(390, 844)
        try:
            phone.get(f"{server.base}/?seat={token}")
            yield phone
        finally:
            phone.quit()


def _chips(driver) -> dict:
    """The sheet's traits a tap adds to the roll, by name."""
    return {c.get_attribute("data-trait"): c for c in driver.find_elements("css selector", "#chips .chip")}


def _param(driver, name: str):
    """The box (or switch) of the command's parameter ``name`` on the panel."""
    return driver.find_element("css selector", f'#params [data-param="{name}"] input, '
                                               f'#params [data-param="{name}"] select')


def _table() -> None:
    character("Ysolde")
    ok("encounter", "start", "Yara=3+3", "Ghoul=2+2", "Bandit-Captain=2+1", "--no-log")
    proc("seyruun", "roll", "3", "3", "--as", "ysolde", "--log")
    proc("reglas", "roll", "8", "--log")
    proc("cypher", "task", "-d", "2", "--log")
    proc("roll", "4d6k3+2", "-n", "5", "--log")
    proc("seyruun", "attack", "3", "--vs", "Ghoul", "--damage", "2", "--secret")


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)], ids=["phone", "tv"])
def test_nothing_is_wider_than_the_screen(size, tmp_path):
    _table()
    with serving(tmp=tmp_path) as server:
        driver = _driver(*size)
        try:
            driver.get(server.url)
            _wait(driver, lambda d: len(_rolls(d)) == 5)
            scroll, width, wide = driver.execute_script(WIDEST)
            assert scroll <= width and wide == [], wide
            size_px = driver.execute_script(
                "return parseFloat(getComputedStyle(document.querySelector('.verdict')).fontSize)")
            assert size_px >= (24 if size[0] < 500 else 40)  # the verdict reads across a room
        finally:
            driver.quit()


def test_a_seat_rolls_from_its_panel_and_another_page_shows_it_within_2_seconds(tmp_path):
    character("Ysolde")
    token = _seat_token("ysolde")
    with serving(tmp=tmp_path) as server:
        phone, tv = _driver(390, 844), _driver(1920, 1080)
        try:
            phone.get(f"{server.base}/?seat={token}")
            _wait(phone, lambda d: d.find_elements("css selector", "#params [data-param]"))
            tv.get(server.url)
            assert "ana" in phone.find_element("id", "panel").text
            assert tv.find_elements("id", "panel") == []
            chips = _chips(phone)
            assert {"dexterity", "stealth", "composure", "resolve"} <= set(chips)
            chips["dexterity"].click()
            chips["stealth"].click()
            _param(phone, "willpower").click()
            built = phone.find_element("id", "roll-line").get_attribute("value")
            assert built == "seyruun roll dexterity stealth --willpower"
            _param(phone, "willpower").click()  # (Ysolde has no Willpower to spend)
            phone.find_element("css selector", "#roll-form button").click()
            _wait(phone, lambda d: "success" in d.find_element("id", "roll-out").text.lower()
                  or "failure" in d.find_element("id", "roll-out").text.lower(), timeout=5)
            _wait(tv, lambda d: _rolls(d)[:1] == ["roll-1"], timeout=2.5)
            card = tv.find_element("id", "roll-1").text
            assert "Ysolde" in card and "ana" in card and "seyruun roll dexterity stealth" in card
            phone.find_element("id", "dice-expr").send_keys("2d6+3")
            phone.find_element("css selector", "#dice-form button").click()
            _wait(tv, lambda d: _rolls(d)[:1] == ["roll-2"], timeout=2.5)
            assert "roll 2d6+3" in tv.find_element("id", "roll-2").text
            # the dice box rolled instead of the tapped traits: none stays lit
            assert phone.find_elements("css selector", "#chips .chip.on") == []
            scroll, width, wide = phone.execute_script(WIDEST)
            assert scroll <= width and wide == [], wide
        finally:
            phone.quit()
            tv.quit()
    logged = [json.loads(x) for x in ok("log", "--json").stdout.splitlines()]
    assert [e["seat"] for e in logged] == ["ana", "ana"]


def test_a_seats_panel_builds_and_rolls_a_users_ruleset_files_roll(tmp_path):
    # issue 36: a character of a ruleset file: its panel's line is that file's roll (a
    # total's MOD and --target; a pool's --difficulty; a highest die's pool alone).
    import shutil
    from pathlib import Path

    from conftest import home, make_character

    docs = Path(__file__).resolve().parent.parent / "docs" / "rulesets"
    (home() / "rulesets").mkdir(exist_ok=True)
    for name in ("pbta", "blades"):
        shutil.copy(docs / f"{name}.toml", home() / "rulesets" / f"{name}.toml")
    make_character("Vex", "pbta", {"cool": 2})
    make_character("Nyx", "blades", {"prowl": 2})
    token = _seat_token("vex", "nyx")
    with _seated_phone(tmp_path, token) as phone:
        _wait(phone, lambda d: d.find_elements("css selector", "#params [data-param]"))
        line = lambda: phone.find_element("id", "roll-line").get_attribute("value")  # noqa: E731
        _wait(phone, lambda d: line() == "pbta roll --as Vex")  # no trait tapped: no modifier
        _param(phone, "adv").click()  # the file's own switch
        chips = _chips(phone)
        chips["cool"].click()
        assert line() == "pbta roll cool --adv --as Vex"
        _param(phone, "adv").click()
        chips["cool"].click()
        chips["cool"].click()
        assert line() == "pbta roll cool --as Vex"
        phone.find_element("css selector", "#roll-form button").click()
        _wait(phone, lambda d: any(w in d.find_element("id", "roll-out").text  # its verdict
                                   for w in ("Strong hit", "Weak hit", "Miss")), timeout=5)
        from selenium.webdriver.support.ui import Select

        Select(phone.find_element("id", "roll-char")).select_by_visible_text("Nyx")
        params = [e.get_attribute("data-param") for e in phone.find_elements("css selector", "#params [data-param]")]
        assert "target" not in params and "difficulty" not in params  # blades' roll takes none
        chips = _chips(phone)
        chips["prowl"].click()
        assert line() == "blades roll prowl --as Nyx"
        phone.find_element("css selector", "#roll-form button").click()
        _wait(phone, lambda d: d.find_element("id", "roll-out").text.strip() not in ("", "…")
              and "Miss" not in d.find_element("id", "roll-out").text, timeout=5)
        _wait(phone, lambda d: len(_rolls(d)) == 2, timeout=5)
        card = phone.find_element("id", "roll-1").text
        assert "Vex" in card and any(w in card for w in ("Strong hit", "Weak hit", "Miss"))
        folded = phone.find_element("id", "roll-1").get_attribute("textContent")
        assert "Powered by the Apocalypse" in folded  # the terminal's view, folded
    logged = [json.loads(x) for x in ok("log", "--json").stdout.splitlines()]
    assert [(e["seat"], e["ruleset"], e["character"]) for e in logged] == [
        ("ana", "pbta", "Vex"), ("ana", "blades", "Nyx")]


def test_a_dice_box_roll_leaves_no_willpower_or_difficulty_set_for_the_next_roll(tmp_path):
    # issue 43, item 15: the Willpower box and the difficulty stayed set after a roll of the
    # dice box, so the next tap of traits built a line that spent Willpower again.
    character("Ysolde", willpower=3)
    token = _seat_token("ysolde")
    with _seated_phone(tmp_path, token) as phone:
        _wait(phone, lambda d: d.find_elements("css selector", "#params [data-param]"))
        line = lambda: phone.find_element("id", "roll-line").get_attribute("value")  # noqa: E731
        out = lambda d: d.find_element("id", "roll-out").text.strip()  # noqa: E731
        _wait(phone, _chips)
        chips = _chips(phone)
        chips["dexterity"].click()
        chips["stealth"].click()
        _param(phone, "difficulty").send_keys("2")
        _param(phone, "willpower").click()
        assert line() == "seyruun roll dexterity stealth --willpower --difficulty 2"
        phone.find_element("css selector", "#roll-form button").click()
        _wait(phone, lambda d: out(d) not in ("", "…"), timeout=5)
        phone.find_element("id", "dice-expr").send_keys("2d6")
        phone.find_element("css selector", "#dice-form button").click()
        _wait(phone, lambda d: len(_rolls(d)) == 2, timeout=5)
        assert _param(phone, "willpower").is_selected() is False
        assert _param(phone, "difficulty").get_attribute("value") == ""
        _wait(phone, lambda d: d.find_element(  # the sheet as the table saw the spend
            "css selector", '#resources [data-resource="willpower"] .value').text.startswith("2 "))
        chips = _chips(phone)
        chips["dexterity"].click()
        chips["stealth"].click()
        assert line() == "seyruun roll dexterity stealth"
        phone.find_element("css selector", "#roll-form button").click()
        _wait(phone, lambda d: len(_rolls(d)) == 3, timeout=5)
    assert ok("char", "show", "ysolde", "--json").json()[0]["willpower"] == 2  # spent once


@pytest.mark.slow
@pytest.mark.process
def test_a_page_shown_again_reads_the_sheet_at_once(tmp_path):
    """A phone woken, a tab brought back: its sheet is read again as the page is shown (the
    page's visibilitychange), not when a hidden page's throttled timers come round; here
    the sheet changed on disk with no roll the page could have seen."""
    sheet = character("Ysolde")
    token = _seat_token("ysolde")
    with _seated_phone(tmp_path, token) as phone:
        _wait(phone, lambda d: d.find_elements("css selector", '#chips [data-trait="stealth"]'))
        text = sheet.read_text(encoding="utf-8")
        sheet.write_text(text.replace("stealth = 3", "stealth = 5"), encoding="utf-8")
        assert "stealth = 5" in sheet.read_text(encoding="utf-8")
        phone.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
        _wait(phone, lambda d: "5" in d.find_element(
            "css selector", '#chips [data-trait="stealth"]').text, timeout=3)
