"""The table's page: one self-contained HTML document (its CSS and script inline, nothing
fetched from anywhere else), readable on a phone and on a TV across the room. It opens with
the newest rolls (newest first) and the encounter, then follows ``/events``: each new roll
goes on top, a revealed one replaces its "a secret roll", and the notices and the encounter
change in place. Without JavaScript it still shows the table as it was when it loaded."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Optional, TypedDict

from rpgdice.serve.hub import Hub, dumps

if TYPE_CHECKING:
    from rpgdice.table.seats import Seat


class PanelCharacter(TypedDict):
    """A character as a seat's panel offers it (:func:`characters`)."""

    name: str
    ruleset: str
    traits: list[str]
    empty: str
    difficulty: str

CSS = """
:root { color-scheme: dark; --dim: #a6a28c; --accent: #66d9ef; --good: #a6e22e;
  --bad: #ff6e9c; --card: #32332b; --alarm: #b3164a; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: #272822; color: #f8f8f2;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  font-size: clamp(16px, 0.55rem + 0.9vw, 34px); line-height: 1.35;
  overflow-wrap: normal; word-break: normal; hyphens: none; }
main { max-width: 70em; margin: 0 auto; padding: 0.5em 0.75em 3em; }
h1 { font-size: 1.1em; margin: 0.4em 0; color: var(--accent); }
h2 { font-size: 1em; margin: 0.3em 0; color: var(--accent); }
.roll { background: var(--card); border-radius: 0.5em; padding: 0.5em 0.75em;
  margin: 0.6em 0; max-width: 100%; }
.roll.new { animation: flash 2s ease-out; }
.roll.change { background: none; padding: 0 0.75em; margin: 0.3em 0; display: flex;
  flex-wrap: wrap; gap: 0 0.6em; align-items: baseline; }
.roll.change p { margin: 0; color: var(--dim); font-style: italic; }
@keyframes flash { from { background: #4a4a3a; } to { background: var(--card); } }
.roll header { color: var(--dim); font-size: 0.85em; display: flex; flex-wrap: wrap;
  gap: 0 0.6em; }
.who { color: var(--accent); font-weight: bold; }
.seat { color: #fd971f; }
.seat::before { content: "seat "; color: var(--dim); font-weight: normal; }
.what { margin: 0.2em 0; color: #e6db74; }
.what .w { white-space: nowrap; }
.results { list-style: none; margin: 0; padding: 0; }
.results li { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.6em; }
.dice { color: #f8f8f2; }
.verdict { font-size: 1.6em; line-height: 1.2; }
.verdict.good { color: var(--good); }
.verdict.bad { color: var(--bad); }
.verdict.dire { color: #272822; background: var(--bad); padding: 0 0.25em;
  border-radius: 0.2em; }
.secret p { margin: 0.2em 0; color: var(--dim); font-style: italic; }
details.view { margin-top: 0.3em; color: var(--dim); font-size: 0.8em; }
details.view pre { margin: 0.3em 0 0; white-space: pre; overflow-x: auto; max-width: 100%;
  background: #1e1f1a; padding: 0.3em 0.4em; border-radius: 0.3em;
  font: 0.95em/1.3 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
#encounter h2:empty { display: none; }
.order { list-style: none; margin: 0 0 0.6em; padding: 0; border-bottom: 2px solid var(--accent); }
.side { display: flex; flex-wrap: wrap; gap: 0 0.8em; padding: 0.15em 0; }
.side.now { font-weight: bold; }
.side .name { flex: 1 1 8em; }
.extra, .wp, .init { color: var(--dim); }
.cond { color: var(--accent); }
.wound.none { color: var(--good); }
.wound.light, .wound.moderate { color: #fd971f; }
.wound.severe, .wound.crippled { color: var(--bad); }
.wound.hale { color: var(--good); }
.wound.impaired { color: #fd971f; }
.wound.debilitated, .wound.dead, .out { color: var(--bad); }
.notice { background: var(--alarm); color: #fff; padding: 0.3em 0.6em; margin: 0.3em 0; }
.notice:empty { display: none; }
#empty { color: var(--dim); }
@media (min-width: 1200px) { #layout { display: grid; grid-template-columns: 1fr 2fr;
  gap: 1.5em; align-items: start; } }
"""

SCRIPT = """
(function () {
  var token = TOKEN, key = KEY, after = AFTER;
  var rolls = document.getElementById("rolls");
  function q(path, more) {
    var p = [];
    if (more) p.push(more);
    if (token) p.push(key + "=" + encodeURIComponent(token));
    return path + (p.length ? "?" + p.join("&") : "");
  }
  function notices(n) {
    document.getElementById("log-notice").textContent = n.log || "";
    document.getElementById("discord-notice").textContent = n.discord || "";
  }
  function local(root) {  /* each time in the page's local time */
    var times = root.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var t = new Date(times[i].getAttribute("datetime"));
      if (!isNaN(t)) times[i].textContent = t.toLocaleTimeString();
    }
  }
  local(document);
  function view(e) {
    var seen = parseInt(e.lastEventId, 10);  /* a new roll's ID (a reveal's event has none) */
    if (seen > after) after = seen;
    var d = JSON.parse(e.data), box = document.createElement("div");
    box.innerHTML = d.html;  /* made by the server, every text in it escaped */
    local(box);
    var node = box.firstElementChild, old = document.getElementById("roll-" + d.id);
    node.classList.add("new");
    var empty = document.getElementById("empty");
    if (empty) empty.remove();
    if (old) { old.replaceWith(node); return; }
    rolls.insertBefore(node, rolls.firstChild);
    while (rolls.children.length > LIMIT) rolls.removeChild(rolls.lastChild);
  }
  /* The stream, opened again after it failed for good: a browser retries a dropped stream
     itself (with Last-Event-ID), but never one answered with an error (a 503 when the
     server is at its cap on streams, a restart), so the page does, waiting longer each
     time (1 s doubling to 30 s, a random part so pages spread out), from the last roll
     it showed (after=), so that nothing is missed. */
  var es = null, wait = 1000, again = null;
  function connect() {
    again = null;
    es = new EventSource(q("/events", "after=" + after));
    es.addEventListener("view", view);
    es.addEventListener("notice", function (e) { notices(JSON.parse(e.data)); });
    es.addEventListener("encounter", function (e) {
      document.getElementById("encounter").innerHTML = JSON.parse(e.data).html;
    });
    es.onerror = function () {
      document.getElementById("log-notice").textContent = "reconnecting to rpgdice serve\\u2026";
      if (es.readyState !== 2 || again !== null) return;  /* 2: CLOSED, the browser gave up */
      es.close();
      again = setTimeout(connect, wait / 2 + Math.random() * wait / 2);
      wait = Math.min(wait * 2, 30000);
    };
    es.onopen = function () {
      wait = 1000;
      document.getElementById("log-notice").textContent = "";
    };
  }
  connect();
  var form = document.getElementById("roll-form");
  if (form) form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var line = document.getElementById("roll-line").value.trim(), out = document.getElementById("roll-out");
    if (!line) return;
    if (document.getElementById("roll-secret").checked) line += " --secret";
    out.textContent = "\u2026";
    fetch("/api/roll", {method: "POST", headers: {"Authorization": "Bearer " + token,
      "Content-Type": "application/json"}, body: JSON.stringify({line: line}), credentials: "omit"})
      .then(function (r) { return r.json().then(function (d) { return [r.status, d]; }); })
      .then(function (a) {
        if (a[0] !== 200) { out.textContent = a[1].error || ("error " + a[0]); return; }
        out.textContent = a[1].rolls.map(function (r) {
          if (r.blind === true && r.verdict === undefined) return "rolled blind: the GM sees it";
          return r.verdict !== undefined ? r.verdict
            : (r.outcome || "") + " " + (r.total !== undefined ? r.total : "");
        }).join("\\n");
      }).catch(function () { out.textContent = "the table did not answer"; });
  });
})();
"""

PANEL_CSS = """
#panel { border: 2px solid #66d9ef; padding: 0.5em; margin: 0.5em 0; }
#panel form { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; }
#panel input[type=text] { flex: 1 1 12em; min-width: 0; font: inherit; padding: 0.3em; }
#panel button { font: inherit; padding: 0.3em 1em; }
#panel .choices { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center;
  margin-bottom: 0.4em; }
#chips { display: flex; flex-wrap: wrap; gap: 0.3em; width: 100%; }
.chip { font: inherit; padding: 0.25em 0.6em; border-radius: 1em; border: 1px solid #66d9ef;
  background: transparent; color: inherit; }
.chip.on { background: #66d9ef; color: #272822; }
#panel input, #panel select { font: inherit; max-width: 100%; }
#dice-form { margin-top: 0.4em; }
#roll-out { white-space: pre-wrap; overflow-wrap: anywhere; font-weight: bold; }
"""


PANEL_SCRIPT = r"""
(function () {
  var chars = CHARS, taps = [];
  var pick = document.getElementById("roll-char"), chips = document.getElementById("chips");
  var line = document.getElementById("roll-line");
  function val(id) { var e = document.getElementById(id); return e ? e.value.trim() : ""; }
  function num(v) { return /^[0-9]{1,3}$/.test(v); }
  function current() { return chars[pick ? pick.selectedIndex : 0]; }
  function build() {
    var c = current(); if (!c) return;
    var d = val("roll-d"), b = val("roll-bonus"), words;
    var wp = document.getElementById("roll-wp").checked;
    if (c.ruleset === "seyruun") {
      words = ["seyruun", "roll"].concat(taps.slice(0, 2));
      if (d) words.push("--difficulty", d);
      if (num(b)) words.push("--bonus", b);
      if (wp) words.push("--willpower");
    } else if (c.ruleset === "cypher") {
      words = ["cypher", "task", "--difficulty", d || "3"];
      if (taps[0]) words.push("--skill", taps[0]);
      if (num(val("roll-effort"))) words.push("--effort", val("roll-effort"));
      if (num(b)) words.push("--bonus", b);
    } else if (c.ruleset === "reglas") {
      words = ["reglas", "roll", taps.join("+") || "0"];
      if (d) words.push("--dificultad", d);
      if (num(b)) words.push("--mod", b);
    } else {  /* any other ruleset's plain roll, as its record says (a ruleset file's too) */
      words = [c.ruleset, "roll", taps.join("+") || c.empty];
      if (d && c.difficulty) words.push(c.difficulty, d);
    }
    if (chars.length > 1) words.push("--as", c.name);
    line.value = words.map(function (w) { return /^[A-Za-z0-9_.+=-]+$/.test(w) ? w : "'" + w.replace(/'/g, "") + "'"; }).join(" ");
  }
  function draw() {
    var c = current(); chips.textContent = ""; taps = [];
    if (!c) return;
    c.traits.forEach(function (t) {
      var b = document.createElement("button"); b.type = "button"; b.className = "chip";
      b.textContent = t;
      b.addEventListener("click", function () {
        var i = taps.indexOf(t);
        if (i >= 0) { taps.splice(i, 1); b.classList.remove("on"); }
        else { taps.push(t); b.classList.add("on"); }
        build();
      });
      chips.appendChild(b);
    });
    build();
  }
  if (pick) pick.addEventListener("change", draw);
  ["roll-d", "roll-bonus", "roll-effort", "roll-wp"].forEach(function (id) {
    var e = document.getElementById(id); if (e) e.addEventListener("input", build);
    if (e) e.addEventListener("change", build);
  });
  var dice = document.getElementById("dice-form");
  dice.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var expr = val("dice-expr"); if (!expr) return;
    line.value = "roll " + expr;
    document.getElementById("roll-form").requestSubmit();
    taps = [];  /* the dice box rolled instead: no trait stays lit as if it had counted, */
    Array.prototype.forEach.call(chips.querySelectorAll(".chip.on"),
      function (b) { b.classList.remove("on"); });
    /* and no choice stays set to be spent again (Willpower, Effort) by the next roll */
    ["roll-d", "roll-bonus", "roll-effort"].forEach(function (id) {
      var e = document.getElementById(id); if (e) e.value = "";
    });
    var wp = document.getElementById("roll-wp"); if (wp) wp.checked = false;
  });
  draw();
})();
"""

RESOURCES = {"willpower", "damage", "wound", "health", "effort", "xp", "experience"}
"""A sheet's keys that are no trait to roll (resources and state)."""


def characters(seat: Seat) -> list[PanelCharacter]:
    """The seat's characters as its panel offers them: name, ruleset, the traits to tap, and
    its ruleset's plain roll (its ``roll`` record's ``plain``: the argument
    when no trait is tapped, the option the difficulty box fills)."""
    from rpgdice.core import registry
    from rpgdice.table import sheets

    out: list[PanelCharacter] = []
    for name in seat.characters:
        try:
            sheet = sheets.load(name, "--as")
        except Exception:  # a sheet gone or broken: not offered
            continue
        traits = [str(k) for k, v in sheet.traits.items()
                  if str(k).lower() not in RESOURCES and not str(k).endswith("-edge")
                  and isinstance(v, (int, str)) and not isinstance(v, bool)]
        try:
            roll = registry.get(sheet.ruleset).command("roll")
            empty, difficulty = roll.plain if roll is not None else ("1", "")
        except Exception:  # its ruleset file gone or broken since: the sheet is still offered
            empty, difficulty = "1", ""
        out.append({"name": sheet.name, "ruleset": sheet.ruleset, "traits": traits[:60],
                    "empty": empty, "difficulty": difficulty})
    return out


def panel(seat: Seat, chars: list[PanelCharacter]) -> str:
    """A seat's roll panel: its characters and their traits to tap, the common choices, a
    box for ordinary dice, a secret switch; the line it makes can be edited before it goes."""
    names = ", ".join(c["name"] for c in chars) or "ordinary dice"
    options = "".join(f"<option>{escape(c['name'])}</option>" for c in chars)
    select = (f'<select id="roll-char" aria-label="character">{options}</select>'
              if len(chars) > 1 else "")
    rulesets = {c["ruleset"] for c in chars}
    built = "" if not chars else f"""<div class="choices">{select}<div id="chips"></div>
<label>difficulty <input type="text" id="roll-d" size="8" maxlength="20" inputmode="text"></label>
<label>bonus <input type="text" id="roll-bonus" size="3" maxlength="3" inputmode="numeric"></label>
{'<label><input type="checkbox" id="roll-wp"> Willpower</label>' if "seyruun" in rulesets
 else '<input type="checkbox" id="roll-wp" hidden>'}
{'<label>Effort <input type="text" id="roll-effort" size="2" maxlength="2" inputmode="numeric"></label>'
 if "cypher" in rulesets else ""}</div>"""
    return f"""<section id="panel"><h2 class="who">{escape(seat.name)} · {escape(names)}</h2>
{built}<form id="roll-form"><input type="text" id="roll-line" aria-label="roll"
 placeholder="seyruun roll dexterity stealth" autocomplete="off" maxlength="500">
<label><input type="checkbox" id="roll-secret"> secret</label>
<button type="submit">Roll</button></form>
<form id="dice-form"><input type="text" id="dice-expr" aria-label="ordinary dice"
 placeholder="2d6+3" autocomplete="off" maxlength="200"><button type="submit">Roll dice</button></form>
<div id="roll-out" role="status"></div></section>"""


def _panel_script(chars: Optional[list[PanelCharacter]]) -> str:
    return "<script>" + PANEL_SCRIPT.replace("CHARS", dumps(chars or []), 1) + "</script>"


def page(hub: Hub, token: str | None, key: str = "token", seat: Seat | None = None,
         chars: Optional[list[PanelCharacter]] = None, screen: bool = False) -> str:
    """The page as it stands: the newest rolls first, the encounter and the notices (a
    seat's page: its roll panel too). ``token``: the one its own requests carry, as
    ``?KEY=`` (each placeholder of the script replaced once, so no token breaks it).
    ``screen``: the GM's screen (rpgdice.serve.gm_page): every roll whole, its controls."""
    from rpgdice.serve import gm_page

    gm_css, gm_status, gm_script = gm_page.hook(token or "") if screen else ("", "", "")
    recent = hub.screen_rolls() if screen else list(hub.recent.values())
    rolls = "\n".join(reversed(recent)) or \
        '<p id="empty">No rolls yet: they show here as they are rolled.</p>'
    values = {"TOKEN": dumps(token), "KEY": dumps(key), "AFTER": str(hub.last),
              "LIMIT": str(hub.size)}
    script = re.sub(r"\b(TOKEN|KEY|AFTER|LIMIT)\b", lambda m: values[m.group(1)], SCRIPT)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rpgdice · the table</title><style>{CSS}{PANEL_CSS if seat else ""}{gm_css}</style></head>
<body><main>
<h1>rpgdice · the table</h1>
<div class="notice" id="log-notice" role="status">{escape(hub.notices["log"] or "")}</div>
<div class="notice" id="discord-notice" role="status">{escape(hub.notices["discord"] or "")}</div>
{panel(seat, chars or []) if seat else ""}{gm_status}
<div id="layout"><section id="encounter">{hub.screen_encounter if screen else hub.encounter}</section>
<section id="rolls" aria-live="polite">
{rolls}
</section></div>
</main><script>{script}</script>{_panel_script(chars) if seat else ""}{gm_script}</body></html>
"""
