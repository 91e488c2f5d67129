// How each of the page's programs starts, and each of its workers: shared
// by the page (index.html) and the workers it starts (worker.js, which
// computes a match; botworker.js, which runs a bot written in the page;
// gauntlet.js, which runs a gauntlet). Each loads wasm_exec.js first.
"use strict";

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
