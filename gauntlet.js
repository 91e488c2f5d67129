// The Web Worker that plays the gauntlet of a bot written in the page
// (cmd/botworker/gauntlet_js.go), with no server: the page posts the two
// compiled programs (arena.wasm for the match workers, gobot.wasm, which
// runs here and carries the tournament's schedule and standings), the
// bot built with Go when the page's server could build it, and one
// request; statuses come back as JSON strings. Each game is played in a
// match worker of its own (worker.js), which starts the bot's own worker:
// a bot that loops or runs out of memory loses that game, as in a match.
// The page stops a run by terminating this worker, which ends the match
// workers it started; the games kept in IndexedDB stay.
"use strict";
importScripts("wasm_exec.js", "boot.js");

let handle = null;
let request = null;
let modules = null;

self.arenaGauntletReady = (h) => { handle = h; if (request) { h(request); } };

self.onmessage = (e) => {
  if (e.data && e.data.module) { modules = e.data; request = e.data.request; boot(e.data.botModule); }
};

function fail(why) { postMessage(JSON.stringify({ error: why })); }

// arenaStartMatch computes one game in a match worker; each message it
// posts goes to onMessage, and a failure as an error message.
self.arenaStartMatch = (req, onMessage) => {
  const error = (why) => onMessage(JSON.stringify({ kind: "error", error: why }));
  // The bot as built by the page's server where it could be, else this
  // worker's own program, which interprets it.
  const botModule = modules.gameBotModule || modules.botModule;
  return arenaWorker("worker.js", "the match's worker", [{ module: modules.module, botModule }, req],
    (m) => (typeof m === "string" || m instanceof Uint8Array ? onMessage(m) : error("the match's worker sent something that is not a message")), error);
};

// The browser's store of gauntlets: runs, entries and replays, each a
// string by a string key (see cmd/botworker/keep_js.go).
let db = null;
function openStore() {
  if (!db) {
    db = new Promise((resolve, reject) => {
      const r = indexedDB.open("arena-gauntlets", 1);
      r.onupgradeneeded = () => { for (const s of ["runs", "entries", "replays"]) { r.result.createObjectStore(s); } };
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error || new Error("IndexedDB cannot be opened"));
    });
  }
  return db;
}
const prefixRange = (p) => IDBKeyRange.bound(p, p + "\uffff");
function done(tx, value) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(value());
    tx.onerror = tx.onabort = () => reject(tx.error || new Error("the transaction failed"));
  });
}
self.arenaKeep = async (op, a, b, c, d) => {
  const s = await openStore();
  switch (op) {
    case "get": { const tx = s.transaction(a); const r = tx.objectStore(a).get(b); return done(tx, () => r.result); }
    case "put": { const tx = s.transaction(a, "readwrite"); tx.objectStore(a).put(c, b); return done(tx, () => null); }
    case "list": { const tx = s.transaction(a); const r = tx.objectStore(a).getAll(prefixRange(b)); return done(tx, () => r.result); }
    case "game": {
      const tx = s.transaction(["entries", "replays"], "readwrite");
      tx.objectStore("entries").put(b, a);
      tx.objectStore("replays").put(d, c);
      return done(tx, () => null);
    }
    case "drop": {
      const tx = s.transaction(["runs", "entries", "replays"], "readwrite");
      tx.objectStore("runs").delete(a);
      tx.objectStore("entries").delete(prefixRange(a + "/"));
      tx.objectStore("replays").delete(prefixRange(a + "/"));
      return done(tx, () => null);
    }
  }
  throw new Error("arenaKeep: no operation " + op);
};

async function boot(module) {
  arenaBoot(module, {
    stopped: (code, last) => fail("the gauntlet's worker stopped: " + (last(2) || "exit code " + code)),
    failed: (why) => fail("the gauntlet's worker could not start: " + why),
  });
}
