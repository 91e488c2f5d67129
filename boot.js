// How each of the page's programs starts, and each of its workers: shared
// by the page (index.html) and the workers it starts (worker.js, which
// computes a match or reads the server's; botworker.js, which runs a bot
// written in the page; gauntlet.js, which runs a gauntlet). Each loads
// wasm_exec.js first. And how a stream of lines from the server is read.
"use strict";

// maxMessage is the longest message a match's stream may send, in bytes:
// a turn is a few kilobytes.
const maxMessage = 16 << 20;

// readLines hands each line of a response's body to onLine as it comes,
// as UTF-8 bytes (a view of the chunk it came in, which is not reused),
// and reports false, having stopped, when a line grows past maxMessage
// bytes.
async function readLines(res, onLine) {
  const reader = res.body.getReader();
  let rest = null; // a line begun in an earlier chunk
  for (;;) {
    const { done, value } = await reader.read();
    if (done) { return true; }
    let buf = value;
    if (rest) { buf = new Uint8Array(rest.length + value.length); buf.set(rest); buf.set(value, rest.length); }
    let from = 0, i;
    while ((i = buf.indexOf(10, from)) >= 0) {
      if (i - from > maxMessage) { reader.cancel(); return false; }
      onLine(buf.subarray(from, i));
      from = i + 1;
    }
    rest = from < buf.length ? buf.slice(from) : null;
    if (rest && rest.length > maxMessage) { reader.cancel(); return false; }
  }
}

// arenaBoot runs a compiled Go program (a WebAssembly.Module). What it
// prints goes to the console, and its last lines are kept so that a
// failure can quote them; o.line, when given, sees each line first.
// o.ready runs between instantiating the program and running it.
// o.stopped(code, last) is called when the program exits with a code
// other than 0 (with o.anyExit, whatever the code), o.failed(message)
// when it cannot start; last(n) is its last n lines, joined.
self.arenaBoot = async (module, o) => {
  const recent = [];
  const log = console.log.bind(console);
  console.log = (...a) => {
    const line = a.join(" ");
    if (o.line) { o.line(line); }
    recent.push(line);
    if (recent.length > 8) { recent.shift(); }
    log(...a);
  };
  console.error = console.log;
  const last = (n) => recent.filter(Boolean).slice(-n).join(" ");
  try {
    const go = new Go();
    const exit = go.exit;
    go.exit = (code) => {
      exit(code);
      if (code !== 0 || o.anyExit) { o.stopped(code, last); }
    };
    const instance = await WebAssembly.instantiate(module, go.importObject);
    // The memory the program holds of the browser's, in bytes: a
    // WebAssembly memory only grows, so this is its peak (the benchmarks
    // read it).
    self.arenaMemory = () => instance.exports.mem.buffer.byteLength;
    if (o.ready) { await o.ready(); }
    await go.run(instance);
  } catch (e) {
    o.failed(e.message || String(e));
  }
};

// arenaWorker starts a worker running script. The messages first holds
// (an array, or a promise of one: the compiled modules come first) are
// posted to it in order; every message it posts goes to onMessage; a
// failure to load, start or run it goes once to failed, in words that
// name it (what: "the match's worker"). Terminating it stops both.
self.arenaWorker = (script, what, first, onMessage, failed) => {
  let w = null, done = false;
  const fail = (why) => { if (!done) { done = true; failed(why); } };
  try {
    w = new Worker(script);
    w.onmessage = (e) => { if (!done) { onMessage(e.data); } };
    w.onerror = (e) => { e.preventDefault(); fail(what + " failed: " + (e.message || script + " could not load")); };
    Promise.resolve(first).then((messages) => {
      if (!done) { for (const m of messages) { w.postMessage(m); } }
    }, (e) => fail(what + " could not load: " + (e.message || String(e))));
  } catch (e) {
    setTimeout(() => fail(what + " could not start: " + (e.message || String(e))));
  }
  return {
    postMessage(m) { if (w && !done) { w.postMessage(m); } },
    terminate() { done = true; if (w) { w.terminate(); } },
  };
};
