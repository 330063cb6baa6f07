// The rpg-dice-roller oracle (tests/test_notation_peers.py): one JSON object a line in, one out.
// In: {"notation": "...", "seed": N}. Out: {"accepted", "total", "calls", "dice", "error"}:
// "calls" the faces in the order rpg-dice-roller asked for them; "dice" each die as shown,
// in order, with its first and last face and its modifiers (re-rolls and explosions after it).
// The package is found in the folder RPG_DICE_ROLLER names (its node_modules: .ci/run
// installs it there with npm; never committed).
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const bundle = join(process.env.RPG_DICE_ROLLER || '.', 'node_modules/@dice-roller/rpg-dice-roller/lib/esm/bundle.js');
const { DiceRoller, NumberGenerator } = await import(pathToFileURL(bundle).href);

let state = 1;
const calls = [];
function next() {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
}
NumberGenerator.generator.integer = (min, max) => {
  const v = min + Math.floor(next() * (max - min + 1));
  calls.push([min, max, v]);
  return v;
};

function walk(node, out) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) { node.forEach((n) => walk(n, out)); return; }
  if ('initialValue' in node && 'value' in node) {
    out.push({ initial: node.initialValue, value: node.value, modifiers: [...(node.modifiers || [])] });
    return;
  }
  if (Array.isArray(node.rolls)) walk(node.rolls, out);
  if (Array.isArray(node.results)) walk(node.results, out);
}

const roller = new DiceRoller();
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { notation, seed } = JSON.parse(line);
  state = seed || 1;
  calls.length = 0;
  try {
    const r = roller.roll(notation);
    const dice = [];
    walk(r.rolls, dice);
    process.stdout.write(JSON.stringify({ accepted: true, total: r.total, calls: [...calls], dice }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ accepted: false, error: String(e && e.message) }) + '\n');
  }
}
