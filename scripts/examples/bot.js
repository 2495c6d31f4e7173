#!/usr/bin/env node
// An rpg-battle bot in JavaScript, speaking the p2pcards bot protocol (docs/bot-protocol.md):
// one JSON object per line in, one per line out.
//
//   p2pcards tournament rpg-battle --agents 'cmd:"node scripts/examples/bot.js",random'
//
// Its plan is simple: hit the weakest opposing character as hard as it can, heal when a
// friend is below half health, dodge every attack, refill the hand, otherwise pass.
"use strict";
const readline = require("readline");

const POWER = { "attack": 1, "attack-ii": 2, "attack-iii": 3, "attack-all": 1, "attack-all-ii": 2 };

function choose(state, actions) {
  const hp = Object.fromEntries(state.characters.map((c) => [c.id, c]));
  const score = (a) => {
    if (a.kind === "react") return a.card === "dodge" || a.card === "counter" ? 100 : 0;
    if (a.kind === "end-turn") return a.refill ? 2 : 1;
    if (a.kind === "pick") return hp[a.character].str * 3 + hp[a.character].hp / 4;
    if (a.kind !== "play") return 0;
    if (a.card in POWER) {
      const target = a.target ? hp[a.target] : null;
      return 10 * POWER[a.card] + (target ? 30 - target.hp : 5);
    }
    if (a.card.startsWith("heal") && a.target) {
      const friend = hp[a.target];
      return friend.hp * 2 < friend.max_hp ? 50 : 3;
    }
    return 1;
  };
  let best = 0;
  actions.forEach((a, i) => { if (score(a) > score(actions[best])) best = i; });
  return best;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "observe") {
    const action = choose(message.state, message.actions);
    process.stdout.write(JSON.stringify({ type: "act", action }) + "\n");
  }
  // "result" (the game is over) needs no answer; the harness then closes our input.
});
