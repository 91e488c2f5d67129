// Command release writes arena's downloads (make dist): for each system,
// an archive holding the arena binary with the page's files inside it
// (arena serve needs no Go), the desktop window (arena-desktop) where this
// machine can build it, a README written for the download
// (docs/download.md, under a header that gives its system's commands),
// the docs, example programs, and the licences of what the binaries are
// built from; and a SHA-256 sums file for them all.
//
//	go run ./cmd/release [-o dist] [-version v1.2.3] [-targets linux/amd64,...] [-desktop auto|require|off]
//
// The window links Ebitengine, which needs cgo on Linux and macOS: this
// machine builds it for Windows (no cgo) and for its own system, and says
// which archives it left without; the release workflow builds each system
// on a runner of that system, with -desktop require.
//
// The page is built once, with this Go, by go run ./cmd/wasm -o; its
// compressed files are embedded under the build tag arena_page
// (cmd/arena/pagefiles_embed.go). Each binary is built with
// CGO_ENABLED=0, -trimpath, -buildmode=pie, and the version and commit stamped for
// arena version. Archives are .tar.gz, .zip for Windows, each with one
// top directory named as the archive.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"
)

// targets are the systems a release is made for, as make cross builds.
var targets = []string{"linux/amd64", "linux/arm64", "darwin/arm64", "darwin/amd64", "windows/amd64", "windows/arm64"}

// embedDir is where cmd/arena embeds the page's files from.
const embedDir = "cmd/arena/page"

// desktopMode is -desktop.
var desktopMode = "auto"

func main() {
	out := flag.String("o", "dist", "the `directory` to write the archives and SHA256SUMS to")
	version := flag.String("version", "", "the release's `name` (default: git describe --tags --always --dirty)")
	only := flag.String("targets", strings.Join(targets, ","), "the `systems` to build for, GOOS/GOARCH, comma-separated")
	flag.StringVar(&desktopMode, "desktop", "auto", "build the desktop window into each archive: auto (where this machine can: Windows, and its own system with cgo), require (fail where it cannot), or off")
	flag.Parse()
	if desktopMode != "auto" && desktopMode != "require" && desktopMode != "off" {
		fmt.Fprintf(os.Stderr, "release: -desktop %q: want auto, require or off\n", desktopMode)
		os.Exit(2)
	}
	if err := run(*out, *version, strings.Split(*only, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(out, version string, want []string) error {
	for _, t := range want {
		if !slices.Contains(targets, t) {
			return fmt.Errorf("no release is made for %q; the systems are %s", t, strings.Join(targets, ", "))
		}
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	commit := strings.TrimSpace(git(root, "rev-parse", "HEAD"))
	if commit != "" && strings.TrimSpace(git(root, "status", "--porcelain", "--untracked-files=no")) != "" {
		commit += "+changes" // as arena version says of a build from a changed tree
	}
	if version == "" {
		version = strings.TrimSpace(git(root, "describe", "--tags", "--always", "--dirty"))
	}
	if version == "" {
		return fmt.Errorf("no -version, and git describe names none")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := buildPage(root); err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Join(root, embedDir))
	var sums []string
	for _, t := range want {
		name, err := archive(root, out, version, commit, t)
		if err != nil {
			return fmt.Errorf("%s: %v", t, err)
		}
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums = append(sums, hex.EncodeToString(sum[:])+"  "+name)
		fmt.Fprintf(os.Stderr, "release: %s, %.1f MB\n", name, float64(len(data))/1e6)
	}
	// The sums of the archives of this run; the format sha256sum -c reads.
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(strings.Join(sums, "\n")+"\n"), 0o644)
}

// moduleRoot is the directory of arena's go.mod.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(b))
	if err != nil || mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run me inside the arena module (go run ./cmd/release)")
	}
	return filepath.Dir(mod), nil
}

// git runs git in dir and returns its output, "" when git fails (a tree
// without git: the version must then be given).
func git(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	b, _ := cmd.Output()
	return string(b)
}

// buildPage builds the page's files with go run ./cmd/wasm -o and keeps
// their compressed forms where cmd/arena embeds them from: arena serve
// reads each file from its .gz (and serves the .br where the browser
// takes it), so the raw files would only double the binary.
func buildPage(root string) error {
	tmp, err := os.MkdirTemp("", "arena-release")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", "run", "./cmd/wasm", "-o", tmp)
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the page: %v", err)
	}
	dst := filepath.Join(root, embedDir)
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".gz") && !strings.HasSuffix(e.Name(), ".br") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(tmp, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// archive builds arena for target and writes its archive to out,
// returning the archive's name.
func archive(root, out, version, commit, target string) (string, error) {
	goos, goarch, _ := strings.Cut(target, "/")
	base := fmt.Sprintf("arena-%s-%s-%s", version, goos, goarch)
	exe := "arena"
	if goos == "windows" {
		exe += ".exe"
	}
	tmp, err := os.MkdirTemp("", "arena-release")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, exe)
	window, left, err := buildDesktop(root, tmp, goos, goarch)
	if err != nil {
		return "", err
	}
	if left != "" {
		fmt.Fprintf(os.Stderr, "release: %s: no arena-desktop in this archive: %s\n", target, left)
	}
	// Position-independent, so that no address of arena's is known in
	// advance to a go: bot that reaches its interpreter's memory (defence
	// in depth: the box is the wall).
	cmd := exec.Command("go", "build", "-tags", "arena_page", "-trimpath", "-buildmode=pie",
		"-ldflags", fmt.Sprintf("-s -w -X main.version=%s -X main.commit=%s", version, commit), "-o", bin, "./cmd/arena")
	cmd.Dir, cmd.Stderr = root, os.Stderr
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build: %v", err)
	}
	pkgs := []string{"./cmd/arena"}
	if window != nil {
		pkgs = append(pkgs, "./cmd/desktop")
	}
	notices, err := licences(root, goos, goarch, window != nil, pkgs...)
	if err != nil {
		return "", err
	}
	body, err := os.ReadFile(filepath.Join(root, "docs", "download.md"))
	if err != nil {
		return "", err
	}
	binary, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	files := []member{
		{name: exe, data: binary, mode: 0o755},
		{name: "README.md", data: downloadReadme(body, version, goos, goarch, window != nil), mode: 0o644},
		{name: "LICENSES.txt", data: notices, mode: 0o644},
	}
	if window != nil {
		files = append(files, member{name: desktopName(goos), data: window, mode: 0o755})
	}
	carried, err := carriedFiles(root)
	if err != nil {
		return "", err
	}
	files = append(files, carried...)
	name := base + ".tar.gz"
	write := writeTarGz
	if goos == "windows" {
		name, write = base+".zip", writeZip
	}
	var buf bytes.Buffer
	if err := write(&buf, base, files); err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644)
}

// member is one file of an archive.
type member struct {
	name string
	data []byte
	mode fs.FileMode
}

// stamp is the time every archive member carries: the archives of one
// commit differ only where the binaries do.
var stamp = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func writeTarGz(w io.Writer, dir string, files []member) error {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: stamp})
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: dir + "/" + f.name, Mode: int64(f.mode), Size: int64(len(f.data)), ModTime: stamp}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

func writeZip(w io.Writer, dir string, files []member) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		h := &zip.FileHeader{Name: dir + "/" + f.name, Method: zip.Deflate, Modified: stamp}
		h.SetMode(f.mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// licences gathers the licence of every module the binary for goos/goarch
// is built from (go list -deps), and Go's own, whose runtime and
// standard library every Go binary holds.
func licences(root, goos, goarch string, cgo bool, pkgs ...string) ([]byte, error) {
	cmd := exec.Command("go", append([]string{"list", "-deps", "-tags", "arena_page", "-f", "{{with .Module}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}"}, pkgs...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED="+map[bool]string{false: "0", true: "1"}[cgo && goos != "windows"])
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	gover, _ := exec.Command("go", "env", "GOVERSION").Output()
	mods := []string{"Go\t" + strings.TrimSpace(string(gover)) + "\t" + strings.TrimSpace(string(goroot))}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line != "" && !slices.Contains(mods, line) && !strings.HasPrefix(line, "github.com/arena-playground/arena\t") {
			mods = append(mods, line)
		}
	}
	slices.Sort(mods[1:])
	var out bytes.Buffer
	out.WriteString("arena is built from these modules; each one's licence follows.\n\n")
	for _, m := range mods {
		f := strings.Split(m, "\t")
		text, err := licenceText(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s %s: %v", f[0], f[1], err)
		}
		fmt.Fprintf(&out, "%s\n%s %s\n%s\n\n%s\n", strings.Repeat("=", 72), f[0], f[1], strings.Repeat("=", 72), strings.TrimSpace(text))
	}
	return out.Bytes(), nil
}

// licenceText reads a module's licence file: LICENSE, LICENCE or COPYING,
// with or without an extension. A module without one is an error: its
// code may not be given away without knowing.
func licenceText(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		n := strings.ToUpper(e.Name())
		for _, p := range []string{"LICENSE", "LICENCE", "COPYING"} {
			if n == p || strings.HasPrefix(n, p+".") {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				return string(b), err
			}
		}
	}
	return "", fmt.Errorf("no licence file in %s", dir)
}

// desktopName is the window's program in an archive for goos.
func desktopName(goos string) string {
	if goos == "windows" {
		return "arena-desktop.exe"
	}
	return "arena-desktop"
}

// buildDesktop builds the window for goos/goarch where this machine can:
// for Windows without cgo, for this machine's own system with it. It
// returns the binary, or why there is none (left), or an error where
// -desktop require asks for one and none can be built.
func buildDesktop(root, tmp, goos, goarch string) (bin []byte, left string, err error) {
	if desktopMode == "off" {
		return nil, "-desktop off", nil
	}
	cgo := "1"
	switch {
	case goos == "windows":
		cgo = "0"
	case goos != runtime.GOOS || goarch != runtime.GOARCH:
		left = fmt.Sprintf("its window needs cgo for %s/%s, which this %s/%s machine cannot build: the release workflow builds it on a runner of that system", goos, goarch, runtime.GOOS, runtime.GOARCH)
		if desktopMode == "require" {
			return nil, "", errors.New(left)
		}
		return nil, left, nil
	}
	out := filepath.Join(tmp, desktopName(goos))
	cmd := exec.Command("go", "build", "-trimpath", "-buildmode=pie", "-ldflags", "-s -w", "-o", out, "./cmd/desktop")
	cmd.Dir, cmd.Stderr = root, os.Stderr
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED="+cgo)
	if err := cmd.Run(); err != nil {
		left = fmt.Sprintf("go build ./cmd/desktop: %v (on Linux it needs Ebitengine's X11 and GL headers: make deps)", err)
		if desktopMode == "require" {
			return nil, "", errors.New(left)
		}
		return nil, left, nil
	}
	b, err := os.ReadFile(out)
	return b, "", err
}

// systemNames are the systems' names for people.
var systemNames = map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}

// downloadReadme is the archive's README: a header with the commands of
// its system, then docs/download.md with its links made to the docs the
// archive carries (docs/...).
func downloadReadme(body []byte, version, goos, goarch string, window bool) []byte {
	arena := "./arena"
	if goos == "windows" {
		arena = `.\arena.exe`
	}
	var b bytes.Buffer
	title, rest, _ := bytes.Cut(body, []byte("\n"))
	b.Write(title)
	fmt.Fprintf(&b, "\n\n**arena %s for %s (%s).** In a terminal in this folder:\n\n", version, systemNames[goos], goarch)
	fmt.Fprintf(&b, "    %s serve        the playground in your browser, on http://localhost:8080\n", arena)
	if window {
		fmt.Fprintf(&b, "    %s desktop      the playground in a window\n", arena)
	}
	fmt.Fprintf(&b, "    %s help         every command\n\n", arena)
	if !window {
		b.WriteString("This archive has no desktop window (`arena-desktop`): the page is the playground here.\n\n")
	}
	if goos == "darwin" {
		b.WriteString("macOS keeps programs downloaded from the web from starting until you allow them: run\n`xattr -d com.apple.quarantine arena arena-desktop` in this folder once (or allow each in\nSystem Settings, Privacy & Security).\n\n")
	}
	b.Write(rebase(bytes.TrimLeft(rest, "\n"), "docs/"))
	return b.Bytes()
}

// mdLink matches a Markdown link's or image's target.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// rebase puts prefix before each relative link of a Markdown text: the
// links of a page of docs/, made from the folder above.
func rebase(md []byte, prefix string) []byte {
	return mdLink.ReplaceAllFunc(md, func(m []byte) []byte {
		target := string(m[2 : len(m)-1])
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") || strings.HasPrefix(target, "mailto:") {
			return m
		}
		return []byte("](" + prefix + target + ")")
	})
}

// carried are the files every archive carries beside the binaries: the
// docs (every page and picture of docs/, which the README links to) and
// example programs, written as each course's students wrote them, that
// the README's commands play.
var carried = map[string]string{
	"docs": "docs",
	"cmd/arena/testdata/comp424/agents/student_agent.py": "examples/colosseum/agents/student_agent.py",
	"cmd/arena/testdata/comp424/agents/random_agent.py":  "examples/colosseum/agents/random_agent.py",
	"cmd/arena/testdata/comp424/LICENSE":                 "examples/colosseum/LICENSE",
	"cmd/arena/testdata/students/evasion_client.py":      "examples/evasion_client.py",
	"cmd/arena/testdata/students/asp_client.py":          "examples/asp_client.py",
	// The bot API's reviewed names, which docs/playground.md links to.
	"gobot/symbols/reviewed.txt": "gobot/symbols/reviewed.txt",
}

// carriedFiles reads the carried files, in a fixed order.
func carriedFiles(root string) ([]member, error) {
	var out []member
	for from, to := range carried {
		err := filepath.WalkDir(filepath.Join(root, from), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(filepath.Join(root, from), p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, member{name: filepath.ToSlash(filepath.Join(to, rel)), data: data, mode: 0o644})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b member) int { return strings.Compare(a.name, b.name) })
	return out, nil
}
