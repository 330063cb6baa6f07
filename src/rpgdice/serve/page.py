"""The table's page: one self-contained HTML document (its CSS and script inline, nothing
fetched from anywhere else), readable on a phone and on a TV across the room. It opens with
the newest rolls (newest first) and the encounter, then follows ``/events``: each new roll
goes on top, a revealed one replaces its "a secret roll", and the notices and the encounter
change in place. Without JavaScript it still shows the table as it was when it loaded."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Optional, TypedDict

from rpgdice.core.errors import visible
from rpgdice.serve.hub import Hub
from rpgdice.serve.sse import dumps

if TYPE_CHECKING:
    from rpgdice.table.seats import Seat


class PanelCharacter(TypedDict):
    """A character as a seat's panel offers it (:func:`characters`)."""

    name: str
    ruleset: str
    traits: list[str]

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
@keyframes flash { from { box-shadow: 0 0 0 0.25em var(--accent); } to { box-shadow: 0 0 0 0 transparent; } }
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
.terms { display: inline-flex; flex-wrap: wrap; gap: 0.2em 0.8em; align-items: baseline; }
.term { display: inline-flex; flex-wrap: wrap; gap: 0 0.35em; align-items: baseline; }
.term .expr { color: var(--dim); }
.term .die { min-width: 1.4em; text-align: center; padding: 0 0.15em; border: 1px solid #75715e;
  border-radius: 0.25em; font-variant-numeric: tabular-nums; white-space: nowrap; }
.term .die.boom { color: #e6db74; border-color: #e6db74; }
.term .die.drop { color: var(--dim); text-decoration: line-through; border-style: dashed; }
.term .die.hit { color: var(--good); }
.term .die.miss { color: var(--bad); }
.term .sum, .term .label, .terms .more { color: var(--dim); }
@media (min-width: 1200px) {
  main { max-width: none; padding: 0.3em 1em 1em; }
  h1 { margin: 0.1em 0 0.2em; }
  #layout { display: grid; grid-template-columns: minmax(23em, 1fr) 2.6fr; gap: 1em;
    align-items: start; }
  #encounter { position: sticky; top: 0; max-height: 100vh; overflow-y: auto; }
  #rolls { display: grid; grid-template-columns: repeat(auto-fill, minmax(19em, 1fr));
    gap: 0 0.8em; align-items: start; }  /* newest first, across then down */
  .roll { margin: 0.3em 0; padding: 0.35em 0.6em; }
  .roll.change { grid-column: 1 / -1; }
  details.view { margin-top: 0.1em; }
}
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
})();
"""

PANEL_CSS = """
#panel [hidden] { display: none !important; }
#panel { border: 2px solid var(--accent); border-radius: 0.4em; padding: 0.5em; margin: 0.5em 0; }
#panel .pick { display: flex; flex-wrap: wrap; gap: 0.4em; margin-bottom: 0.4em; }
#panel .pick select { flex: 1 1 10em; min-width: 0; }
#panel input, #panel select, #panel textarea, #panel button { font: inherit; max-width: 100%;
  min-height: 2.2em; }
#panel input[type=checkbox] { min-height: 0; width: 1.2em; height: 1.2em; margin: 0 0.3em 0 0; }
#panel button { padding: 0.3em 1em; }
.resources { display: grid; grid-template-columns: repeat(auto-fit, minmax(6.5em, 1fr));
  gap: 0.3em 0.6em; margin: 0 0 0.4em; }
.res { display: flex; flex-direction: column; }
.res .label { color: var(--dim); font-size: 0.85em; }
.res .value { font-weight: bold; font-variant-numeric: tabular-nums; }
.meter { display: block; height: 0.35em; background: #1e1f1a; border-radius: 0.2em; overflow: hidden; }
.meter i { display: block; height: 100%; background: var(--good); }
#chips { display: flex; flex-wrap: wrap; gap: 0.3em; width: 100%; margin-bottom: 0.4em; }
.chip, .trait { font: inherit; padding: 0.2em 0.6em; border-radius: 1em; border: 1px solid var(--accent);
  background: transparent; color: inherit; white-space: nowrap; }
.trait { border-style: dashed; border-color: #75715e; color: var(--dim); }
.chip .v, .trait .v { font-weight: bold; margin-left: 0.3em; }
.chip.off { border-style: dashed; color: var(--dim); }
.chip.on { background: var(--accent); color: #272822; }
#params { display: grid; grid-template-columns: repeat(auto-fill, minmax(9em, 1fr)); gap: 0.4em 0.6em;
  margin-bottom: 0.4em; }
#params label { display: flex; flex-direction: column; min-width: 0; font-size: 0.85em;
  color: var(--dim); }
#params label.flag { flex-direction: row; align-items: center; color: #f8f8f2; }
#params label input, #params label select { font-size: 1.18em; width: 100%; color: #f8f8f2;
  background: #1e1f1a; border: 1px solid #75715e; border-radius: 0.2em; }
#params label input[type=checkbox] { width: 1.2em; }
#params .hide { display: none; }
#params label { position: relative; }
#params label .help { display: none; position: absolute; top: 100%; left: 0; right: 0; z-index: 2;
  margin-top: 0.2em; padding: 0.2em 0.4em; background: #1e1f1a; border: 1px solid #75715e;
  border-radius: 0.2em; pointer-events: none; }
#params label:focus-within .help { display: block; }
#roll-form, #dice-form { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; }
#roll-line { flex: 1 1 100%; width: 100%; resize: none; overflow: hidden; field-sizing: content;
  white-space: pre-wrap; overflow-wrap: anywhere; color: #f8f8f2; background: #1e1f1a;
  border: 1px solid #75715e; border-radius: 0.2em; padding: 0.3em;
  font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
#roll-form label { white-space: nowrap; display: inline-flex; align-items: center; gap: 0.3em; }
#roll-dice, #dice-expr { color: #f8f8f2; background: #1e1f1a; border: 1px solid #75715e;
  border-radius: 0.2em; padding: 0.3em; }
#roll-form button[type=submit] { margin-left: auto; }
#panel ::placeholder { color: var(--dim); opacity: 1; }
#roll-missing { color: #fd971f; width: 100%; margin: 0; }
#roll-missing:empty { display: none; }
#dice-form { margin-top: 0.4em; }
#dice-expr { flex: 1 1 8em; min-width: 0; }
#roll-out { white-space: pre-wrap; overflow-wrap: anywhere; margin-top: 0.4em; }
#roll-out .answer { margin: 0.3em 0; }
#roll-out .verdict { font-size: 1.3em; font-weight: bold; }
.odds { list-style: none; margin: 0.2em 0; padding: 0; }
.odds li { display: grid; grid-template-columns: minmax(4em, 9em) 4.5em 1fr; gap: 0 0.5em;
  align-items: center; }
.odds li.this .name { color: var(--accent); font-weight: bold; }
.odds .pct { text-align: right; font-variant-numeric: tabular-nums; }
.odds .bar { display: block; height: 0.8em; background: #1e1f1a; border-radius: 0.2em; overflow: hidden; }
.odds .bar i { display: block; height: 100%; background: var(--accent); }
.roll.hidden-roll { outline: 2px dashed var(--accent); }
.own-secret { margin: 0.2em 0; color: var(--accent); }
"""


PANEL_SCRIPT = r"""
(function () {
  /* The roll panel, drawn from GET /api/panel: the characters the token may roll as (the
     GM: as none too), each one's sheet and the commands of its ruleset, each command's
     form from its parameters. Nothing here names a ruleset: the answer says it all. */
  var asked = new URLSearchParams(location.search), data = null, values = {}, seen = "";
  var token = asked.get("seat") || asked.get("gm") || asked.get("token") || "";
  function $(id) { return document.getElementById(id); }
  var pick = $("roll-char"), pickCmd = $("roll-cmd"), chips = $("chips"), res = $("resources"),
      box = $("params"), line = $("roll-line"), out = $("roll-out"), missing = $("roll-missing");
  function shown(t) {  /* control characters made visible, as the terminal shows them */
    return String(t).replace(/[\u0000-\u001f\u007f-\u009f]/g, function (c) {
      var names = {"\n": "\\n", "\r": "\\r", "\t": "\\t"};
      return names[c] || "\\x" + ("0" + c.charCodeAt(0).toString(16)).slice(-2);
    });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = shown(text);
    return e;
  }
  function quote(w) { return /^[A-Za-z0-9_.+=,:\/-]+$/.test(w) ? w : "'" + w.replace(/'/g, "") + "'"; }
  function has(v) { return v !== undefined && v !== null && v !== false && v !== "" && v !== "0"; }
  function entries() {
    if (!data) return [];
    var list = (data.characters || []).map(function (c) {
      return {label: c.name, name: c.name, ruleset: c.ruleset, commands: c.commands, sheet: c.sheet};
    });
    if (data.gm === true) (data.rulesets || []).forEach(function (r) {
      list.push({label: "as none \u00b7 " + (r.title || r.name), name: null, ruleset: r.name, commands: r.commands,
                 sheet: null});
    });
    return list;
  }
  function current() { return entries()[pick.selectedIndex > 0 ? pick.selectedIndex : 0]; }
  function command() { var e = current(); return e && e.commands[pickCmd.selectedIndex > 0 ? pickCmd.selectedIndex : 0]; }
  function params() { var c = command(); return c ? c.params : []; }
  function spots() {  /* where a tapped trait goes: the command's trait arguments */
    return params().filter(function (p) { return p.kind === "traits" && p.option === null; });
  }
  function choiceFor(t) {  /* or a choice whose choices hold the trait's value (a skill's level) */
    return params().filter(function (p) {
      return p.kind === "choice" && p.choices.indexOf(String(t.value)) >= 0;
    })[0];
  }
  function parts(v) { return String(v || "").split("+").filter(function (w) { return w; }); }
  function on(t) {
    return spots().some(function (p) { return parts(values[p.name]).indexOf(t.name) >= 0; }) ||
      (choiceFor(t) !== undefined && values[choiceFor(t).name] === t.name);
  }
  function tap(t) {
    var s = spots(), taken = [];
    if (!s.length) {
      var c = choiceFor(t); if (!c) return;
      values[c.name] = values[c.name] === t.name ? "" : t.name;
    } else {
      s.forEach(function (p) { taken = taken.concat(parts(values[p.name])); values[p.name] = ""; });
      var i = taken.indexOf(t.name);
      if (i >= 0) taken.splice(i, 1); else taken.push(t.name);
      taken.forEach(function (w, n) {  /* one a box, the rest summed in the last */
        var p = s[Math.min(n, s.length - 1)];
        values[p.name] = values[p.name] ? values[p.name] + "+" + w : w;
      });
    }
    params().forEach(sync);
    refresh();
  }
  var drawn = null;
  function drawSheet() {
    var e = current(), now = JSON.stringify(e ? [e.label, e.sheet] : null);
    if (now === drawn) { light(); return; }  /* as it was: nothing redrawn under a finger */
    drawn = now; res.textContent = ""; chips.textContent = "";
    if (!e || !e.sheet) return;
    var skip = {};
    e.sheet.resources.forEach(function (r) {
      skip[r.name] = true;
      var d = el("div", "res"), top = typeof r.max === "number" ? r.max : null;
      d.setAttribute("data-resource", r.name);
      d.appendChild(el("span", "label", r.label));
      d.appendChild(el("span", "value", (r.value === null ? "\u2014" : r.value) + (top !== null ? " / " + top : "")));
      if (top && typeof r.value === "number") {
        var m = el("span", "meter"), i = el("i");
        i.style.width = Math.max(0, Math.min(100, 100 * r.value / top)) + "%";
        m.appendChild(i); d.appendChild(m);
      }
      res.appendChild(d);
    });
    e.sheet.traits.forEach(function (t) {
      if (skip[t.name] || /-max$/.test(t.name)) return;
      var b = el(t.offered ? "button" : "span", t.offered ? "chip" : "trait");
      b.setAttribute("data-trait", t.name);
      b.appendChild(el("span", "t", t.name));
      b.appendChild(el("span", "v", t.value));
      if (t.offered) {
        b.type = "button";
        b.addEventListener("click", function () { tap(t); });
      }
      chips.appendChild(b);
    });
    light();
  }
  function light() {  /* each chip lit while its trait is in the roll, off where none can go */
    var e = current(); if (!e || !e.sheet) return;
    Array.prototype.forEach.call(chips.querySelectorAll(".chip"), function (b) {
      var t = e.sheet.traits.filter(function (x) { return x.name === b.getAttribute("data-trait"); })[0];
      if (!t) return;
      b.disabled = !spots().length && !choiceFor(t);
      b.classList.toggle("off", b.disabled);
      b.classList.toggle("on", on(t));
      b.setAttribute("aria-pressed", on(t) ? "true" : "false");
    });
  }
  function control(p) {
    var c, id = "p-" + p.name;
    if (p.kind === "flag") {
      c = el("input"); c.type = "checkbox";
    } else if (p.choices.length && p.kind === "choice" && (p.default === null || p.choices.indexOf(String(p.default)) >= 0)) {
      c = el("select");
      c.appendChild(el("option", null, p.required ? "\u2014" : p.default === null ? "\u2014" : String(p.default)));
      c.firstChild.value = "";
      p.choices.forEach(function (v) { var o = el("option", null, v); o.value = v; c.appendChild(o); });
    } else {
      c = el("input"); c.type = "text"; c.autocomplete = "off";
      c.inputMode = p.kind === "number" && p.min !== null && p.min >= 0 && !p.choices.length ? "numeric" : "text";
      if (p.default !== null && p.default !== false) c.placeholder = String(p.default);
      if (p.choices.length) {
        var list = el("datalist"); list.id = id + "-list";
        p.choices.forEach(function (v) { var o = el("option"); o.value = v; list.appendChild(o); });
        box.appendChild(list); c.setAttribute("list", list.id);
      }
    }
    c.id = id;
    c.addEventListener(p.kind === "flag" ? "change" : "input", function () {
      values[p.name] = p.kind === "flag" ? c.checked : c.value; refresh();
    });
    c.addEventListener("change", function () {
      values[p.name] = p.kind === "flag" ? c.checked : c.value; refresh();
    });
    return c;
  }
  function sync(p) {
    var c = $("p-" + p.name); if (!c) return;
    if (p.kind === "flag") c.checked = !!values[p.name]; else c.value = values[p.name] || "";
  }
  function drawForm() {
    values = {}; box.textContent = "";
    params().forEach(function (p) {
      var l = el("label", p.kind === "flag" ? "flag" : "");
      l.setAttribute("data-param", p.name);
      l.title = p.help || "";
      var word = p.option ? p.option.replace(/^--/, "") : p.name.replace(/_/g, " ");
      if (p.kind === "flag") { l.appendChild(control(p)); l.appendChild(document.createTextNode(word)); }
      else { l.appendChild(document.createTextNode(word + (p.required ? " *" : ""))); l.appendChild(control(p)); }
      if (p.help) l.appendChild(el("span", "help", p.help));  /* a phone has no hover: shown over what is below while the box has focus, nothing moved */
      box.appendChild(l);
    });
    var c = command();
    $("odds-switch").hidden = !(c && c.odds && c.kind !== "odds");
    $("roll-odds").checked = false;
    refresh();
  }
  function visibleParam(p) { return !p.with || has(values[p.with]); }
  function refresh() {
    params().forEach(function (p) {
      var l = box.querySelector('[data-param="' + p.name + '"]');
      if (l) l.classList.toggle("hide", !visibleParam(p));
    });
    light(); build();
  }
  function build() {
    var e = current(), c = command();
    if (!c) { line.value = ""; return; }
    var args = [], opts = [], wanting = [], firsts = [];
    c.params.forEach(function (p) {
      if (!visibleParam(p)) return;
      var v = values[p.name];
      if (p.kind === "flag") { if (v) opts.push(p.option); return; }
      v = v === undefined || v === null ? "" : String(v).trim();
      if (p.option === null) { args.push(v); firsts.push(p); if (!v && p.required) wanting.push(p.name.replace(/_/g, " ")); return; }
      if (v) opts.push(p.option, v);
      else if (p.required || p.with) wanting.push(p.option);
    });
    while (args.length && !args[args.length - 1]) args.pop();
    args = args.map(function (v, i) { return v || (firsts[i].default !== null ? String(firsts[i].default) : "0"); });
    var words = c.line.split(" ").concat(args, opts);
    if (!$("odds-switch").hidden && $("roll-odds").checked) words.push("--odds");
    if (e.name && (data.characters.length > 1 || data.gm === true)) words.push("--as", e.name);
    var dice = $("roll-dice");
    if (dice && !dice.hidden && dice.value.trim()) words.push("--dice", dice.value.trim());
    line.value = words.map(quote).join(" ") + mode();
    fit();
    missing.textContent = wanting.length ? "still to give: " + wanting.join(", ") : "";
  }
  function mode() {
    return $("roll-blind").checked ? " --blind" : $("roll-secret").checked ? " --secret" : "";
  }
  function fit() {  /* the line's box as tall as its text: every line of it shown, borders too */
    line.style.height = "auto";
    line.style.height = line.scrollHeight + line.offsetHeight - line.clientHeight + "px";
  }
  function drawCommands() {
    var e = current(); pickCmd.textContent = "";
    (e ? e.commands : []).forEach(function (c) { pickCmd.appendChild(el("option", null, c.line)); });
    pickCmd.hidden = pickCmd.options.length < 2;
    drawSheet(); drawForm();
  }
  function drawAll() {
    var list = entries(), was = pick.value;
    pick.textContent = "";
    list.forEach(function (e) { pick.appendChild(el("option", null, e.label)); });
    if (was) pick.value = was;
    pick.hidden = list.length < 2;
    $("roll-dice-box").hidden = data.gm !== true;
    $("roll-empty").hidden = list.length > 0;
    $("dice-form").hidden = !diceCommand();
    drawCommands();
  }
  function diceCommand() {  /* ordinary dice: the command whose argument is an expression */
    var found = null;
    ((data && data.rulesets) || []).forEach(function (r) {
      r.commands.forEach(function (c) {
        if (!found && c.kind !== "odds" && c.params.length && c.params[0].kind === "dice" && c.params[0].option === null) found = c;
      });
    });
    return found;
  }
  function pct(p) {
    var n = 100 * p;
    return (n > 0 && n < 0.1 ? "<0.1" : n >= 99.95 && n < 100 ? ">99.9" : n.toFixed(1)) + "%";
  }
  function words(ruleset) {  /* a ruleset's outcomes in its own words, as its commands give them */
    var found = {};
    entries().forEach(function (e) {
      if (e.ruleset === ruleset) e.commands.forEach(function (c) {
        Object.keys(c.outcomes || {}).forEach(function (k) { found[k] = c.outcomes[k]; });
      });
    });
    return found;
  }
  function bars(o, rolled) {  /* each outcome (or total) with its chance, as a bar */
    var table = o.outcomes || o.distribution, ul = el("ul", "odds"), rows = [], said = words(o.ruleset);
    if (!table || typeof table !== "object") return null;
    Object.keys(table).forEach(function (k) { if (typeof table[k] === "number") rows.push([k, table[k]]); });
    if (o.distribution) rows = rows.filter(function (r) { return r[1] >= 0.0005; }).slice(0, 60);
    rows.forEach(function (r) {
      var li = el("li", String(r[0]) === String(rolled) ? "this" : "");
      li.appendChild(el("span", "name", o.outcomes && said[r[0]] ? said[r[0]] : String(r[0]).replace(/-/g, " ")));
      li.appendChild(el("span", "pct", pct(r[1])));
      var b = el("span", "bar"), i = el("i"); i.style.width = (100 * r[1]).toFixed(2) + "%";
      b.appendChild(i); li.appendChild(b); ul.appendChild(li);
    });
    return ul;
  }
  function answer(status, d) {
    out.textContent = "";
    if (status !== 200 || !d || !d.rolls) { out.appendChild(el("div", "answer", (d && d.error) || ("error " + status))); return; }
    d.rolls.forEach(function (r) {
      var a = el("div", "answer");
      if (typeof r.held === "number") {
        a.textContent = shown((r.character || "") + ": held until the GM reveals #" + r.held);
      } else if (r.verdict === undefined && (r.blind === true || r.secret === true) && !r.outcomes && !r.distribution) {
        a.textContent = "rolled blind: the GM sees it";
      } else {
        var head = r.verdict !== undefined ? r.verdict : r.outcomes || r.distribution ? "odds"
          : (r.outcome || "") + " " + (r.total !== undefined ? r.total : "");
        var tone = ["good", "bad", "dire", "neutral"].indexOf(r.tone) >= 0 ? r.tone : "neutral";
        a.appendChild(el("span", "verdict " + tone, head));
        var odds = r.outcomes || r.distribution ? bars(r) : r.odds ? bars(
          {outcomes: r.odds.outcomes, distribution: r.odds.distribution, ruleset: r.ruleset},
          r.outcome !== null && r.outcome !== undefined ? r.outcome : r.total) : null;
        if (odds) a.appendChild(odds);
      }
      out.appendChild(a);
    });
  }
  function send(text, after) {
    out.textContent = "\u2026";
    fetch("/api/roll", {method: "POST", headers: {"Authorization": "Bearer " + token,
      "Content-Type": "application/json"}, body: JSON.stringify({line: text}), credentials: "omit"})
      .then(function (r) { return r.json().then(function (d) { return [r.status, d]; }); })
      .then(function (a) { answer(a[0], a[1]); if (a[0] === 200) after(); load(); })
      .catch(function () { out.textContent = "the table did not answer"; });
  }
  var loading = null;
  function load() {  /* the panel again: the sheet as the table now sees it */
    if (loading) return;
    loading = fetch("/api/panel", {headers: {"Authorization": "Bearer " + token}, credentials: "omit"})
      .then(function (r) { return r.json().then(function (d) { return [r.status, d]; }); })
      .then(function (a) {
        loading = null;
        if (a[0] === 503) { setTimeout(load, 1000); return; }
        if (a[0] !== 200) { out.textContent = a[1].error || ("error " + a[0]); return; }
        var shape = JSON.stringify([(a[1].characters || []).map(function (c) { return [c.name, c.commands]; }), a[1].gm, (a[1].rulesets || []).length]);
        data = a[1];
        if (shape !== seen) { seen = shape; drawAll(); } else drawSheet();
      })
      .catch(function () { loading = null; setTimeout(load, 3000); });
  }
  var later = null;
  function soon() { clearTimeout(later); later = setTimeout(load, 300); }
  ["rolls", "encounter"].forEach(function (id) {  /* a roll or change seen: the sheet again */
    var e = $(id); if (e && window.MutationObserver) new MutationObserver(soon).observe(e, {childList: true, subtree: id === "encounter"});
  });
  /* a page shown again (a phone woken, a tab brought back): the sheet at once, not when the
     timers a hidden page was held to come round */
  document.addEventListener("visibilitychange", function () { if (!document.hidden) load(); });
  pick.addEventListener("change", drawCommands);
  pickCmd.addEventListener("change", drawForm);
  ["roll-secret", "roll-blind", "roll-odds"].forEach(function (id) { $(id).addEventListener("change", build); });
  $("roll-dice").addEventListener("input", build);
  line.addEventListener("input", fit);
  window.addEventListener("resize", fit);
  $("roll-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var text = line.value.trim(); if (!text) return;
    send(text, function () { drawForm(); $("roll-dice").value = ""; build(); });
  });
  $("dice-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var expr = $("dice-expr").value.trim(); if (!expr) return;
    /* the dice box rolls instead: no trait stays lit, no choice stays set to be spent again */
    var c = diceCommand(); if (!c) return;
    send(c.line + " " + quote(expr) + mode(), function () { drawForm(); });
  });
  load();
})();
"""

RESOURCES = {"willpower", "damage", "wound", "health", "effort", "xp", "experience"}
"""A sheet's keys that are no trait to roll (resources and state)."""


def characters(seat: Seat) -> list[PanelCharacter]:
    """The seat's characters as its panel names them: name, ruleset, the traits to tap
    (the panel's form and sheet come from ``GET /api/panel``)."""
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
        out.append({"name": sheet.name, "ruleset": sheet.ruleset, "traits": traits[:60]})
    return out


def panel(seat: Seat | None, chars: list[PanelCharacter]) -> str:
    """A seat's roll panel, drawn by its script from ``GET /api/panel``: the character to
    roll as and its sheet (resources, traits to tap), the command and its form, the line it
    will send (whole, editable), the roll modes, a box for ordinary dice, the answer."""
    names = ", ".join(c["name"] for c in chars) or ("ordinary dice" if seat else "any character")
    who = seat.name if seat is not None else "the GM"
    return f"""<section id="panel"><h2 class="who">{escape(visible(who))} · {escape(visible(names))}</h2>
<div class="pick"><select id="roll-char" aria-label="character" hidden></select>
<select id="roll-cmd" aria-label="command" hidden></select></div>
<p id="roll-empty" hidden>No character to roll as: ordinary dice below.</p>
<div id="sheet"><div id="resources" class="resources"></div><div id="chips"></div></div>
<div id="params"></div>
<form id="roll-form"><textarea id="roll-line" aria-label="the line to send" rows="1"
 autocomplete="off" spellcheck="false" maxlength="2000"></textarea>
<p id="roll-missing" role="status"></p>
<label id="roll-dice-box" hidden>dice <input type="text" id="roll-dice" size="6" maxlength="60"
 autocomplete="off" aria-label="the dice thrown at the table"></label>
<label id="odds-switch" hidden><input type="checkbox" id="roll-odds"> odds</label>
<label><input type="checkbox" id="roll-secret"> secret</label>
<label><input type="checkbox" id="roll-blind"> blind</label>
<button type="submit">Roll</button></form>
<form id="dice-form"><input type="text" id="dice-expr" aria-label="ordinary dice"
 placeholder="2d6+3" autocomplete="off" maxlength="200"><button type="submit">Roll dice</button></form>
<div id="roll-out" role="status" aria-live="polite"></div></section>"""


def _panel_script(chars: Optional[list[PanelCharacter]] = None) -> str:
    """The panel's script (it asks ``GET /api/panel`` for the characters, ``chars`` are
    not needed; its requests carry the page's own token, ``?seat=``, ``?gm=`` or
    ``?token=``, as Bearer)."""
    return "<script>" + PANEL_SCRIPT + "</script>"


def page(hub: Hub, token: str | None, key: str = "token", seat: Seat | None = None,
         chars: Optional[list[PanelCharacter]] = None, screen: bool = False) -> str:
    """The page as it stands: the newest rolls first, the encounter and the notices (a
    seat's page: its roll panel too, and its own secret rolls whole: rpgdice.serve.own). ``token``: the one its own requests carry, as
    ``?KEY=`` (each placeholder of the script replaced once, so no token breaks it).
    ``screen``: the GM's screen (rpgdice.serve.gm_page): every roll whole, its controls."""
    from rpgdice.serve import gm_page

    gm_css, gm_status, gm_script = gm_page.hook(token or "") if screen else ("", "", "")
    recent = (hub.screen_rolls() if screen else hub.seat_rolls(seat.name) if seat is not None
              else list(hub.recent.values()))
    rolls = "\n".join(reversed(recent)) or \
        '<p id="empty">No rolls yet: they show here as they are rolled.</p>'
    values = {"TOKEN": dumps(token), "KEY": dumps(key), "AFTER": str(hub.last),
              "LIMIT": str(hub.size)}
    script = re.sub(r"\b(TOKEN|KEY|AFTER|LIMIT)\b", lambda m: values[m.group(1)], SCRIPT)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rpgdice · the table</title><style>{CSS}{PANEL_CSS if seat or screen else ""}{gm_css}</style></head>
<body><main>
<h1>rpgdice · the table</h1>
<div class="notice" id="log-notice" role="status">{escape(hub.notices["log"] or "")}</div>
<div class="notice" id="discord-notice" role="status">{escape(hub.notices["discord"] or "")}</div>
{panel(seat, chars or []) if seat or screen else ""}{gm_status}
<div id="layout"><section id="encounter">{hub.screen_encounter if screen else hub.encounter}</section>
<section id="rolls" aria-live="polite">
{rolls}
</section></div>
</main><script>{script}</script>{_panel_script(chars) if seat or screen else ""}{gm_script}</body></html>
"""
