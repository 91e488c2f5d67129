// The Web Worker that interprets one bot written in Go (cmd/botworker,
// gobot.wasm) for a match's worker, which starts it (worker.js's
// arenaBotOpen) and posts the compiled module, then the match's lines;
// each reply is posted back as a line. A bot that loops for ever is
// ended by the match's worker terminating this one; one that runs out of
// memory makes the program exit, which is posted as {error}.
"use strict";
importScripts("wasm_exec.js", "boot.js");

const queue = [];       // lines that came before the program was ready
let handle = null;
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
  const fail = (why) => postMessage({ error: why });
  const oom = "the bot ran out of memory: a bot in the page has " + botMemoryMB + " MB";
  arenaBoot(module, {
    line: (l) => { if (/fatal error: out of memory|runtime: out of memory/.test(l)) { outOfMemory = true; } },
    anyExit: true, // a bot's program never ends by itself: any exit is a failure
    stopped: (code, last) => fail(outOfMemory ? oom : "the bot's worker stopped: " + (last(2) || "exit code " + code)),
    failed: (msg) => fail(/memory/i.test(msg) ? oom + " (" + msg + ")" : "the bot's worker could not run: " + msg),
  });
}
