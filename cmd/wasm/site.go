//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// site is the page's files: index.html, the wasm_exec.js of the Go that
// built the program, and the program, also gzipped.
type site struct {
	index, execJS, wasm, wasmGz []byte
}

// goEnv returns one value of `go env`.
func goEnv(key string) (string, error) {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildSite builds ./cmd/wasm for js/wasm from the module this command
// belongs to, and gathers the page's files.
func buildSite() (*site, error) {
	mod, err := goEnv("GOMOD")
	if err != nil {
		return nil, err
	}
	if mod == "" || mod == os.DevNull {
		return nil, fmt.Errorf("run me from inside the arena module (go run ./cmd/wasm)")
	}
	root := filepath.Dir(mod)
	tmp, err := os.MkdirTemp("", "arena-wasm")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	wasmPath := filepath.Join(tmp, "arena.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasmPath, "./cmd/wasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building for js/wasm: %v\n%s", err, out)
	}
	s := &site{}
	if s.wasm, err = os.ReadFile(wasmPath); err != nil {
		return nil, err
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		return nil, err
	}
	if s.execJS, err = os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js")); err != nil {
		return nil, fmt.Errorf("wasm_exec.js of this Go: %v", err)
	}
	if s.index, err = os.ReadFile(filepath.Join(root, "index.html")); err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(s.wasm)
	zw.Close()
	s.wasmGz = gz.Bytes()
	return s, nil
}

// write puts the site's files in dir. The page fetches arena.wasm itself,
// so it works whatever type a static host gives the file.
func (s *site) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"index.html": s.index, "wasm_exec.js": s.execJS, "arena.wasm": s.wasm} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// handler serves the site, the program gzipped to browsers that take it.
func (s *site) handler() http.Handler {
	mux := http.NewServeMux()
	file := func(path, ctype string, data []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(data)
		})
	}
	file("GET /{$}", "text/html; charset=utf-8", s.index)
	file("GET /index.html", "text/html; charset=utf-8", s.index)
	file("GET /wasm_exec.js", "text/javascript; charset=utf-8", s.execJS)
	mux.HandleFunc("GET /arena.wasm", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/wasm")
		h.Set("Cache-Control", "no-cache")
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Uncompressed-Length", strconv.Itoa(len(s.wasm)))
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			h.Set("Content-Length", strconv.Itoa(len(s.wasmGz)))
			w.Write(s.wasmGz)
			return
		}
		h.Set("Content-Length", strconv.Itoa(len(s.wasm)))
		w.Write(s.wasm)
	})
	return mux
}

// serve listens on addr and serves the site until the process ends.
func serve(addr string, s *site) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(addr)
	if host == "" {
		host = "localhost"
	}
	if p := ln.Addr().(*net.TCPAddr).Port; port == "0" {
		port = strconv.Itoa(p)
	}
	link := "http://" + net.JoinHostPort(host, port) + "/"
	fmt.Fprintf(os.Stderr, "arena: the playground is on %s (Ctrl-C to stop)\n", link)
	openBrowser(link)
	return http.Serve(ln, s.handler())
}

// openBrowser asks the desktop to open the page, where there is one; a
// machine without a browser just keeps the printed link.
func openBrowser(link string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", link)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", link)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return
		}
		cmd = exec.Command("xdg-open", link)
	}
	cmd.Start()
}
