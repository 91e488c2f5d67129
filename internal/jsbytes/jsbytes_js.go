//go:build js && wasm

// Package jsbytes moves a match's messages between Go and JavaScript as
// bytes. A page following a match takes thousands of messages a second
// from its worker; as strings, each crossed a TextDecoder in the worker
// and a TextEncoder on the thread that draws, a sixth of Go's share of
// that thread (docs/speed.md).
package jsbytes

import "syscall/js"

var uint8Array = js.Global().Get("Uint8Array")

// Of returns data as a new Uint8Array.
func Of(data []byte) js.Value {
	u := uint8Array.New(len(data))
	js.CopyBytesToJS(u, data)
	return u
}

// Post posts data to the worker's page (postMessage, in a worker) as a
// Uint8Array, its buffer transferred rather than copied.
func Post(data []byte) {
	u := Of(data)
	js.Global().Call("postMessage", u, []any{u.Get("buffer")})
}

// Bytes returns a message as bytes: a Uint8Array's, copied, or a
// string's UTF-8; ok is false for anything else.
func Bytes(v js.Value) (b []byte, ok bool) {
	switch {
	case v.Type() == js.TypeString:
		return []byte(v.String()), true
	case v.InstanceOf(uint8Array):
		b = make([]byte, v.Length())
		js.CopyBytesToGo(b, v)
		return b, true
	}
	return nil, false
}
