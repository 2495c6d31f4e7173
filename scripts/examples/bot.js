#!/usr/bin/env node
// An rpg-battle bot in JavaScript, speaking version 2 of the p2pcards bot protocol
// (docs/bot-protocol.md): one JSON object per line in, one per line out.
//
//   p2pcards tournament rpg-battle --agents 'cmd:"node scripts/examples/bot.js":heal_below=0.4',random
//
// Its plan is simple: hit the weakest opposing character as hard as it can, heal when a
// friend is below `heal_below` of its health, dodge every attack, refill the hand,
// otherwise pass. In another game it plays its first legal action.
//
// `node bot.js --log FILE` appends every line it reads and writes to FILE ("< " in, "> "
// out): the whole conversation, to see what the harness sends.
"use strict";
const fs = require("fs");
const readline = require("readline");

const logAt = process.argv.indexOf("--log");
const logFile = logAt >= 0 ? process.argv[logAt + 1] : null;
function log(direction, line) {
  if (logFile) fs.appendFileSync(logFile, `${direction} ${line}\n`);
}

const POWER = { "attack": 1, "attack-ii": 2, "attack-iii": 3, "attack-all": 1, "attack-all-ii": 2 };
const options = { heal_below: 0.5 };
let steps = 0; // events seen this game, to show what the harness sends

function send(message) {
  const line = JSON.stringify(message);
  log(">", line);
  process.stdout.write(line + "\n");
}

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
      return friend.hp < friend.max_hp * options.heal_below ? 50 : 3;
    }
    return 1;
  };
  let best = 0;
  actions.forEach((a, i) => { if (score(a) > score(actions[best])) best = i; });
  return best;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  log("<", line);
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello": // the harness speaks version 2: say who we are and what can be set
      send({
        type: "hello", protocol: 2, name: "example-js", author: "p2pcards", version: "2.0",
        options: [{ name: "heal_below", type: "float", default: 0.5, min: 0, max: 1 }],
      });
      break;
    case "setoption":
      if (message.name in options) options[message.name] = message.value;
      break;
    case "isready":
      send({ type: "readyok" });
      break;
    case "newgame": // one process plays game after game: forget the last one
      steps = 0;
      break;
    case "observe": {
      steps += (message.events || []).length;
      const action = message.game === "rpg-battle" ? choose(message.state, message.actions) : 0;
      send({ type: "act", action });
      break;
    }
    case "result":
      steps += (message.events || []).length;
      console.error(`game over after ${steps} steps seen; returns ${message.returns}`);
      break;
    default: // a later version's message: ignore it
  }
});
