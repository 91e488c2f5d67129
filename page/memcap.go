package page

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// botMemory is the most memory a bot written in the page may take: the
// bot worker's program declares it as its memory's maximum, so that a bot
// that allocates without bound fails to grow past it (Go's runtime then
// exits with "out of memory") instead of growing the browser's process
// until the tab is killed. Go's linker declares no maximum.
const botMemory = 512 << 20

// wasmPage is WebAssembly's unit of memory.
const wasmPage = 64 << 10

// capMemory returns the module with its memory's maximum set to max
// bytes: the memory section (id 5) rewritten with limits {min, max}.
func capMemory(module []byte, max uint32) ([]byte, error) {
	return rewriteSection(module, sectionMemory, "memory", func(body []byte) ([]byte, error) {
		return memoryWithMax(body, max/wasmPage)
	})
}

// The sections of a WebAssembly module that arena rewrites.
const (
	sectionMemory = 5
	sectionData   = 11
)

// rewriteSection returns the module with the body of its section id
// (named what, for errors) replaced by what rewrite makes of it; the
// other sections are kept as they are.
func rewriteSection(module []byte, id byte, what string, rewrite func([]byte) ([]byte, error)) ([]byte, error) {
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	out := append([]byte(nil), module[:8]...)
	found := false
	for at := 8; at < len(module); {
		sid := module[at]
		size, n := binary.Uvarint(module[at+1:])
		if n <= 0 || size > uint64(len(module)) || at+1+n+int(size) > len(module) {
			return nil, fmt.Errorf("section at byte %d is damaged", at)
		}
		body := module[at+1+n : at+1+n+int(size)]
		if sid == id {
			var err error
			if body, err = rewrite(body); err != nil {
				return nil, err
			}
			found = true
		}
		out = append(out, sid)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
		at += 1 + n + int(size)
	}
	if !found {
		return nil, fmt.Errorf("the module has no %s section", what)
	}
	return out, nil
}

// memoryWithMax rewrites a memory section of one memory with a maximum.
func memoryWithMax(body []byte, maxPages uint32) ([]byte, error) {
	count, n := binary.Uvarint(body)
	if n <= 0 || count != 1 || len(body) < n+2 {
		return nil, fmt.Errorf("a memory section of %d memories", count)
	}
	flags := body[n]
	min, m := binary.Uvarint(body[n+1:])
	if m <= 0 || flags&^1 != 0 {
		return nil, fmt.Errorf("memory limits with flags %#x", flags)
	}
	if uint64(maxPages) < min {
		return nil, fmt.Errorf("the program needs %d MB to start, over the cap of %d MB", min*wasmPage>>20, maxPages*wasmPage>>20)
	}
	out := binary.AppendUvarint(nil, 1)
	out = append(out, 1)
	out = binary.AppendUvarint(out, min)
	return binary.AppendUvarint(out, uint64(maxPages)), nil
}
