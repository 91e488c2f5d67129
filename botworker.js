// The Web Worker that interprets one bot written in Go (cmd/botworker,
// gobot.wasm) for a match's worker, which starts it (worker.js's
// arenaBotOpen) and posts the compiled module, then the match's lines;
// each reply is posted back as a line. A bot that loops for ever is
// ended by the match's worker terminating this one; one that runs out of
// memory makes the program exit, which is posted as {error}.
"use strict";
importScripts("wasm_exec.js");

const queue = [];       // lines that came before the program was ready
let handle = null;
const recent = [];      // the program's last output lines, for errors
let outOfMemory = false; // the runtime said so, before its stacks
const botMemoryMB = 512; // cmd/wasm's botMemory

self.arenaBotReady = (h) => {
  handle = h;
  for (const l of queue.splice(0)) { h(l); }
};

self.onmessage = (e) => {
  if (e.data && e.data.module) { boot(e.data.module); return; }
  if (handle) { handle(e.data); } else { queue.push(e.data); }
};

async function boot(module) {
  const log = console.log.bind(console);
  console.log = (...a) => {
    const line = a.join(" ");
    if (/fatal error: out of memory|runtime: out of memory/.test(line)) { outOfMemory = true; }
    recent.push(line); if (recent.length > 8) { recent.shift(); }
    log(...a);
  };
  console.error = console.log;
  const fail = (why) => postMessage({ error: why });
  try {
    const go = new Go();
    const exit = go.exit;
    go.exit = (code) => {
      exit(code);
      if (outOfMemory) {
        fail("the bot ran out of memory: a bot in the page has " + botMemoryMB + " MB");
      } else {
        fail("the bot's worker stopped: " + (recent.filter(Boolean).slice(-2).join(" ") || "exit code " + code));
      }
    };
    const instance = await WebAssembly.instantiate(module, go.importObject);
    await go.run(instance);
  } catch (e) {
    const msg = e.message || String(e);
    fail(/memory/i.test(msg) ? "the bot ran out of memory: a bot in the page has " + botMemoryMB + " MB (" + msg + ")" : "the bot's worker could not run: " + msg);
  }
}
