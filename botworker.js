// The Web Worker that runs one bot written in Go for a match's worker:
// interpreted (cmd/botworker, gobot.wasm), or built with Go by the page's
// server (gobot/serve.Main). The match's worker starts it (worker.js's
// arenaBotOpen) and posts the compiled module, then the match's lines;
// each reply is posted back as a line. A bot that loops for ever is
// ended by the match's worker terminating this one; one that runs out of
// memory makes the program exit, which is posted as {error}.
"use strict";
importScripts("wasm_exec.js", "boot.js");

// What a bot built with Go prints goes to its standard output, which
// wasm_exec.js writes to the console: it is kept here instead, and the
// program takes it (arenaTakePrints) into each reply, as the interpreter
// puts its bot's prints there. At most maxPrinted characters are kept
// between two replies: a bot printing without end costs nothing more.
const maxPrinted = 64 << 10;
let printed = "", dropped = 0;
const decoder = new TextDecoder("utf-8");
const writeSync = fs.writeSync.bind(fs);
fs.writeSync = (fd, buf) => {
  if (fd !== 1) { return writeSync(fd, buf); }
  const text = decoder.decode(buf, { stream: true });
  if (printed.length + text.length <= maxPrinted) { printed += text; } else { dropped += text.length; }
  return buf.length;
};
self.arenaTakePrints = () => {
  let p = printed;
  if (dropped) { p += "(" + dropped + " characters more)\n"; }
  printed = ""; dropped = 0;
  return p;
};

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
