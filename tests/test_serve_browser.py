"""The table's page in a real browser: a headless Chromium (Debian's ``chromium`` and
``chromium-driver``, which .ci/run installs) driven through chromedriver opens the page of
a server started on a free local port; rolls made in other processes appear without a
reload, newest first, secret ones as "a secret roll" until revealed, and a character's name
that is markup shows as text. Under CI (``CI=true``) a missing Chromium fails the test."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest

from conftest import log_path, proc
from test_serve import serving

pytestmark = [pytest.mark.slow, pytest.mark.process]


def _chromium() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium and chromium-driver are not installed (CI installs them)")
        pytest.skip("chromium and chromium-driver are not installed (CI installs them)")
    return browser, driver


@pytest.fixture
def browser():
    binary, driver_path = _chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=412,915"):  # a phone's width
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver, check, timeout: float = 5.0):
    """``check(driver)`` once it is true; an element the page replaced while it was read
    (the live page redraws a row in place) is read again."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=(
        StaleElementReferenceException, NoSuchElementException)).until(check)


def _rolls(driver) -> list[str]:
    return [e.get_attribute("id") for e in driver.find_elements("css selector", "#rolls article")]


def _untimed(text: str) -> str:
    """A roll's text without its time (``2026-12-02T18:54:41Z`` holds ``18`` at six in
    the evening)."""
    import re

    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "<time>", text)


def _text(driver, element_id: str) -> str:
    """The text of the element ``element_id``, read again if the page redrew it meanwhile."""
    return _wait(driver, lambda d: d.find_element("id", element_id).text or None)


def test_a_roll_made_elsewhere_appears_without_reload_and_secret_rolls_stay_hidden(browser, tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    with serving(tmp=tmp_path) as server:
        browser.get(server.url)
        assert _rolls(browser) == ["roll-1"]
        browser.execute_script("window.sameDocument = true")  # gone if the page reloads
        proc("cypher", "task", "-d", "2", "--dice", "12", "--log")
        _wait(browser, lambda d: _rolls(d)[:1] == ["roll-2"], timeout=2.5)  # within 2 s (+ slack)
        assert "cypher task -d 2" in _text(browser, "roll-2")  # a card: what was rolled
        assert browser.execute_script("return window.sameDocument") is True
        proc("roll", "3d6", "--dice", "6,6,6", "--secret")
        _wait(browser, lambda d: _rolls(d)[:1] == ["roll-3"])
        secret = _untimed(_text(browser, "roll-3"))
        assert "a secret roll" in secret and "18" not in secret and "6 6 6" not in secret
        proc("log", "reveal", "3")
        _wait(browser, lambda d: "6 6 6" in d.find_element("id", "roll-3").text
              or "18" in _untimed(d.find_element("id", "roll-3").text))
        assert _wait(browser, lambda d: _rolls(d) == ["roll-3", "roll-2", "roll-1"])  # in place
        assert browser.execute_script("return window.sameDocument") is True
        # Colors as the terminal shows them: the outcome is styled.
        styled = browser.find_elements("css selector", "#roll-2 pre span[style*='color']")
        assert styled


def test_markup_in_a_name_or_a_command_shows_as_text(browser, tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    proc("reglas", "roll", "9", "--dice", "4", "--log")
    con = sqlite3.connect(log_path(), isolation_level=None)  # a log edited by hand: the user's file
    con.execute("UPDATE entries SET character = ?, argv = ? WHERE id = 2",
                ("<script>window.pwned = 1</script>",
                 '["reglas", "roll", "9", "<img src=x onerror=\\"window.pwned = 2\\">"]'))
    columns = ("time, argv, character, ruleset, command, seed, faces, count, outcome, results,"
               " rolled, kinds, spec, shown, secret")
    with serving(tmp=tmp_path) as server:
        browser.get(server.url)
        text = _text(browser, "roll-2")
        assert "<script>window.pwned = 1</script>" in text and "<img src=x" in text
        # The same, arriving live (through the page's script).
        con.execute(f"INSERT INTO entries ({columns}) SELECT {columns} FROM entries WHERE id = 2")
        _wait(browser, lambda d: _rolls(d)[:1] == ["roll-3"])
        text = _text(browser, "roll-3")
        assert "<script>window.pwned = 1</script>" in text and "<img src=x" in text
        assert browser.execute_script("return window.pwned") is None
        assert browser.find_elements("css selector", "#rolls img, #rolls script") == []
    con.close()


def test_the_token_page_works_and_a_wrong_token_is_refused(browser, tmp_path):
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    with serving("--host", "0.0.0.0", tmp=tmp_path) as server:
        browser.get(server.base + "/?token=wrong-token-0123456789")
        assert "403" in browser.find_element("tag name", "body").text
        browser.get(server.url)  # its own requests (/events) carry the token
        assert _rolls(browser) == ["roll-1"]
        proc("roll", "1d6", "--dice", "4", "--log")
        _wait(browser, lambda d: _rolls(d)[:1] == ["roll-2"], timeout=2.5)


def test_a_page_turned_away_at_the_stream_cap_tries_again_and_misses_no_roll(browser, tmp_path,
                                                                              monkeypatch):
    # issue 35: an EventSource answered 503 (the server at its cap on streams) stops for
    # good; the page opens it again, waiting longer each time, from the last roll it showed.
    import urllib.request

    monkeypatch.setenv("RPGDICE_SERVE_MAX_STREAMS", "1")  # the server's cap: one stream
    proc("reglas", "roll", "8", "--dice", "3", "--log")
    with serving(tmp=tmp_path) as server:
        held = urllib.request.urlopen(server.base + "/events", timeout=10)  # the one stream
        try:
            assert held.readline()  # open
            browser.get(server.url)
            assert _rolls(browser) == ["roll-1"]
            browser.execute_script("window.sameDocument = true")  # gone if the page reloads
            _wait(browser, lambda d: "reconnecting" in d.find_element("id", "log-notice").text)
            proc("cypher", "task", "-d", "2", "--dice", "12", "--log")  # while it is turned away
            proc("reglas", "roll", "9", "--dice", "4", "--log")
            import time

            time.sleep(2.5)  # the server saw them (it polls the log) and the page did not
            assert _rolls(browser) == ["roll-1"]
        finally:
            held.close()  # a slot free
        _wait(browser, lambda d: _rolls(d) == ["roll-3", "roll-2", "roll-1"], timeout=25)
        _wait(browser, lambda d: d.find_element("id", "log-notice").text == "")
        proc("roll", "3d6", "--dice", "6,6,6", "--log")  # and it follows on, live
        _wait(browser, lambda d: _rolls(d)[:1] == ["roll-4"], timeout=5)
        assert browser.execute_script("return window.sameDocument") is True
