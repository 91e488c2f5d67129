package page

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
)

// contentTypes are the page's files and the type each is served as.
var contentTypes = map[string]string{
	"index.html":   "text/html; charset=utf-8",
	"worker.js":    "text/javascript; charset=utf-8",
	"botworker.js": "text/javascript; charset=utf-8",
	"gauntlet.js":  "text/javascript; charset=utf-8",
	"boot.js":      "text/javascript; charset=utf-8",
	"wasm_exec.js": "text/javascript; charset=utf-8",
	"arena.wasm":   "application/wasm",
	"gobot.wasm":   "application/wasm",
}

// maxFile bounds a file of the page as Load reads it: the page's
// program is 16 MB today.
const maxFile = 256 << 20

// Load reads the page's files from fsys as the static site holds them
// (Site.write): each file gzipped as NAME.gz, and brotli-compressed as
// NAME.br where there is one. This is what a release carries inside the
// arena binary (arena serve): the files built once, with the Go of the
// release, so that serving the page needs no Go.
func Load(fsys fs.FS) (*Site, error) {
	s := &Site{}
	for _, name := range []string{"index.html", "worker.js", "botworker.js", "gauntlet.js", "boot.js", "wasm_exec.js", "arena.wasm", "gobot.wasm"} {
		gz, err := fs.ReadFile(fsys, name+".gz")
		if err != nil {
			return nil, fmt.Errorf("the page's files: %v", err)
		}
		data, err := gunzip(gz)
		if err != nil {
			return nil, fmt.Errorf("the page's files: %s.gz: %v", name, err)
		}
		f := &file{name: name, ctype: contentTypes[name], data: data, gz: gz}
		if br, err := fs.ReadFile(fsys, name+".br"); err == nil {
			f.br = br
		}
		s.files = append(s.files, f)
	}
	return s, nil
}

// gunzip returns the data of a gzip stream, at most maxFile bytes.
func gunzip(gz []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(zr, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("more than %d MB", maxFile>>20)
	}
	return data, nil
}
