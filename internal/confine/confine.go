// Package confine loads, in a bot built with Go, the seccomp filter that
// arena's interpreter loads in itself once it serves
// (box.ConfineInterpreter): the calls that open files, start programs,
// open sockets or signal other processes are refused, beyond what the
// bot's box refuses every program. arena hands the filter over, as a
// classic BPF program, in the bot's environment (Env); the built program
// carries no seccomp library, only this loader.
//
// engine/match imports it, so its init runs before any package a bot
// can import, and so before any of the bot's own code (its variables'
// initialisers, its init functions): a package is initialised after
// every package it imports, and every bot imports engine/match. Without
// Env (arena itself, the page, a test) it does nothing.
package confine

// Env names the filter in a built bot's environment: the program's
// instructions, 8 bytes each (code, jt, jf, k; little-endian), in
// standard base64.
const Env = "ARENA_CONFINE"
