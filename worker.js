// The Web Worker that computes one match for the page, so that no bot ever
// thinks on the thread that draws. The page compiles worker.wasm once and
// posts the module, then the match's request; the Go program (cmd/worker)
// takes requests through arenaWorkerReady and posts each message back.
"use strict";
importScripts("wasm_exec.js");

const queue = [];       // requests that came before the program was ready
let handle = null;
const recent = [];      // the program's last output lines, for errors

function fail(why) {
  postMessage(JSON.stringify({ kind: "error", error: why }));
}

self.arenaWorkerReady = (h) => {
  handle = h;
  for (const r of queue.splice(0)) { h(r); }
};

self.onmessage = (e) => {
  if (e.data && e.data.module) { boot(e.data.module); return; }
  if (handle) { handle(e.data); } else { queue.push(e.data); }
};

async function boot(module) {
  const log = console.log.bind(console);
  console.log = (...a) => { recent.push(a.join(" ")); if (recent.length > 8) { recent.shift(); } log(...a); };
  console.error = console.log;
  try {
    const go = new Go();
    const exit = go.exit;
    go.exit = (code) => {
      exit(code);
      if (code !== 0) {
        fail("the match's worker stopped: " + (recent.filter(Boolean).slice(-2).join(" ") || "exit code " + code));
      }
    };
    const instance = await WebAssembly.instantiate(module, go.importObject);
    await go.run(instance);
  } catch (e) {
    fail("the match's worker could not start: " + (e.message || String(e)));
  }
}
