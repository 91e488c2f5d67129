// The Web Worker that computes one match for the page, so that no bot ever
// thinks on the thread that draws. The page posts its own compiled program
// (arena.wasm: one module serves both, compiled once), then the match's
// request; the program sees arenaWorkerReady, takes the requests through it
// (cmd/wasm/worker_js.go) and posts each message back. Or, for a match the
// server computes, the page posts {serverMatch}: this worker reads the
// server's stream (serveMatch), with no program.
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

// toServer takes the page's later messages (a person's moves) while this
// worker reads a server's match.
let toServer = null;

self.onmessage = (e) => {
  if (e.data && e.data.module) { botModule = e.data.botModule || null; boot(e.data.module); return; }
  if (e.data && e.data.serverMatch) { serveMatch(e.data.serverMatch); return; }
  if (toServer) { toServer(e.data); return; }
  if (handle) { handle(e.data); } else { queue.push(e.data); }
};

// runOfLines keeps lines and posts them to the page a run at a time, the
// lines joined by newlines: at most runWait ms after the first one kept,
// or sooner once runBytes are kept. A stream sends thousands of lines a
// second; one message each would be a task each on the thread that draws.
const runWait = 16, runBytes = 64 << 10;
function runOfLines() {
  let lines = [], size = 0, timer = 0;
  const flush = () => {
    clearTimeout(timer);
    timer = 0;
    if (lines.length === 0) { return; }
    const out = new Uint8Array(size - 1);
    let at = 0;
    for (const l of lines) {
      if (at > 0) { out[at++] = 10; }
      out.set(l, at);
      at += l.length;
    }
    lines = [];
    size = 0;
    postMessage(out, [out.buffer]);
  };
  return {
    add(line) {
      if (size > 0 && size + line.length + 1 > runBytes) { flush(); }
      lines.push(line);
      size += line.length + 1;
      if (size >= runBytes) { flush(); } else if (!timer) { timer = setTimeout(flush, runWait); }
    },
    flush,
  };
}

// startsWith reports whether a line's bytes begin with prefix (ASCII).
function startsWith(bytes, prefix) {
  if (bytes.length < prefix.length) { return false; }
  for (let i = 0; i < prefix.length; i++) {
    if (bytes[i] !== prefix.charCodeAt(i)) { return false; }
  }
  return true;
}

// serveMatch posts a match's Start to the server that computes it (o.start,
// with the page's token) and reads its lines back, a run at a time to the
// page; the page's later messages are a person's moves, posted to the
// server as they come. A failure is one error message, and the end.
async function serveMatch(o) {
  let id = null, done = false, ended = false;
  const pending = [], run = runOfLines();
  const ctl = new AbortController();
  const headers = { "Content-Type": "application/json" };
  if (o.token) { headers["X-Arena-Token"] = o.token; }
  const failed = (why) => {
    if (done) { return; }
    done = true;
    run.flush();
    postMessage(JSON.stringify({ kind: "error", error: why }));
    ctl.abort();
  };
  const act = (m) => {
    fetch("api/matches/" + id + "/act", { method: "POST", headers, body: JSON.stringify(JSON.parse(m).act) })
      .then((res) => { if (!res.ok && !done) { res.text().then((t) => failed("the server refused the move: " + t.trim())); } })
      .catch((e) => { if (!done) { failed("the move could not reach the server: " + (e.message || String(e))); } });
  };
  toServer = (m) => { if (done) { return; } if (id) { act(m); } else { pending.push(m); } };
  try {
    const res = await fetch("api/matches", { method: "POST", headers, body: JSON.stringify(o.start), signal: ctl.signal });
    if (!res.ok) { failed("the server refused the match: " + (await res.text()).trim()); return; }
    id = res.headers.get("X-Arena-Match");
    for (const m of pending.splice(0)) { act(m); }
    const whole = await readLines(res, (line) => {
      if (done) { return; }
      if (startsWith(line, '{"kind":"end"') || startsWith(line, '{"kind":"error"')) { ended = true; }
      run.add(line);
    });
    if (!whole) { failed("the server sent a message of more than " + maxMessage + " bytes"); return; }
    run.flush();
    if (!ended && !done) { failed("the server ended the match's stream before its end (was it stopped?)"); }
  } catch (e) {
    if (!done) { failed("the match's stream from the server failed: " + (e.message || String(e))); }
  }
}

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
