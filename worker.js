// The Web Worker that computes one match for the page, so that no bot ever
// thinks on the thread that draws. The page posts its own compiled program
// (arena.wasm: one module serves both, compiled once), then the match's
// request; the program sees arenaWorkerReady, takes the requests through it
// (cmd/wasm/worker_js.go) and posts each message back.
"use strict";
importScripts("wasm_exec.js", "boot.js");

const queue = [];       // requests that came before the program was ready
let handle = null;

function fail(why) {
  postMessage(JSON.stringify({ kind: "error", error: why }));
}

self.arenaWorkerReady = (h) => {
  handle = h;
  for (const r of queue.splice(0)) { h(r); }
};

// The compiled program that interprets bots written in Go (gobot.wasm),
// when the page posted it with the module: only for a match that has one.
let botModule = null;

// arenaBotOpen starts a worker that interprets a bot written in Go
// (botworker.js), for the go: kind of player (players/kind_go_js.go):
// each line it posts goes to onLine, and its end to onLine(null, why).
// kill terminates it at once: a bot in an endless loop never reads.
self.arenaBotOpen = (onLine) => {
  let dead = false;
  const end = (why) => { if (!dead) { dead = true; w.terminate(); onLine(null, why); } };
  if (!botModule) {
    setTimeout(() => { if (!dead) { dead = true; onLine(null, "this page did not load the bot worker (gobot.wasm)"); } });
    return { send() {}, kill() { dead = true; } };
  }
  const w = arenaWorker("botworker.js", "the bot's worker", [{ module: botModule }], (data) => {
    if (dead) { return; }
    if (typeof data === "string") { onLine(data); } else { end((data && data.error) || "the bot's worker sent something that is not a line"); }
  }, end);
  return {
    send(line) { if (!dead) { w.postMessage(line); } },
    kill() { dead = true; w.terminate(); },
  };
};

self.onmessage = (e) => {
  if (e.data && e.data.module) { botModule = e.data.botModule || null; boot(e.data.module); return; }
  if (handle) { handle(e.data); } else { queue.push(e.data); }
};

// standIn is an object that takes anything asked of it: every property is
// itself, every call and construction returns it, every property is there.
// The program's packages set themselves up when it starts, Ebitengine's
// with the page's document and window (it adds a canvas and listeners,
// which a worker has no use for); in a worker, which has neither, they get
// this instead. The browser tests run every match through it, so an
// upgrade of Ebitengine that asks for more fails them.
function standIn() {
  const target = function () {};
  const p = new Proxy(target, {
    get: (t, k) => (k === Symbol.toPrimitive ? () => 0 : k === "then" ? undefined : p),
    set: () => true,
    has: () => true,
    apply: () => p,
    construct: () => p,
    // An accessor, so that a getter taken from a descriptor (Ebitengine
    // binds Document.prototype's "hidden") is there too.
    getOwnPropertyDescriptor: (t, k) => Object.getOwnPropertyDescriptor(t, k) || { get: p, set: undefined, enumerable: true, configurable: true },
  });
  return p;
}

async function boot(module) {
  for (const name of ["document", "window", "Document", "screen"]) {
    if (typeof self[name] === "undefined") { self[name] = standIn(); }
  }
  arenaBoot(module, {
    stopped: (code, last) => fail("the match's worker stopped: " + (last(2) || "exit code " + code)),
    failed: (why) => fail("the match's worker could not start: " + why),
  });
}
