//go:build linux && amd64

package page

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"github.com/arena-playground/arena/render"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReleaseServesThePage is the download as a student without Go gets
// it: make dist's linux/amd64 archive, unpacked into an empty directory
// and run with no Go on the PATH (an empty PATH: arena needs nothing
// from it), says its version, serves the page, plays a student's py:
// agent in it and runs a tournament with that agent.
func TestReleaseServesThePage(t *testing.T) {
	dist := t.TempDir()
	rel := exec.Command("go", "run", "../cmd/release", "-o", dist, "-targets", "linux/amd64", "-version", "v0.0.0-test")
	if out, err := rel.CombinedOutput(); err != nil {
		t.Fatalf("go run ./cmd/release: %v\n%s", err, out)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(sums)), "  arena-v0.0.0-test-linux-amd64.tar.gz") {
		t.Fatalf("SHA256SUMS: %q %v", sums, err)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = dist
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("sha256sum -c: %v\n%s", err, out)
	}
	home := t.TempDir()
	names := untar(t, filepath.Join(dist, "arena-v0.0.0-test-linux-amd64.tar.gz"), home)
	for _, want := range []string{"arena", "arena-desktop", "README.md", "LICENSES.txt", "docs/playground.md", "docs/rules/colosseum.md",
		"examples/colosseum/agents/student_agent.py", "examples/evasion_client.py", "examples/asp_client.py"} {
		if !slices.Contains(names, "arena-v0.0.0-test-linux-amd64/"+want) {
			t.Errorf("the archive holds no %s: %q", want, names)
		}
	}
	dir := filepath.Join(home, "arena-v0.0.0-test-linux-amd64")
	checkDownloadReadme(t, dir)
	licences, _ := os.ReadFile(filepath.Join(dir, "LICENSES.txt"))
	for _, m := range []string{"github.com/traefik/yaegi", "golang.org/x/image", "Go go1."} {
		if !strings.Contains(string(licences), "\n"+m) {
			t.Errorf("LICENSES.txt names no %s", m)
		}
	}
	arena := filepath.Join(dir, "arena")
	if f, err := elf.Open(arena); err != nil || f.Type != elf.ET_DYN {
		t.Errorf("arena is not position-independent (an ELF of type %v, %v): its addresses are known in advance", f.Type, err)
	} else {
		f.Close()
	}
	env := []string{"PATH=" + t.TempDir(), "HOME=" + home, "DISPLAY=", "WAYLAND_DISPLAY=", "PYTHONDONTWRITEBYTECODE=1"} // an empty PATH: no Go
	run := func(args ...string) string {
		cmd := exec.Command(arena, args...)
		cmd.Dir, cmd.Env = home, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if v := run("version"); !strings.HasPrefix(v, "arena v0.0.0-test, commit ") || strings.Contains(v, "not recorded") {
		t.Errorf("arena version says %q", v)
	}
	// The window, with no display: its usage, through arena desktop.
	if help := run("desktop", "-h"); !strings.Contains(help, "Usage: "+arena+" desktop [flags]") || !strings.Contains(help, "-replay file") {
		t.Errorf("arena desktop -h with no display:\n%s", help)
	}
	// Under the test's display (Xvfb in make test), it draws a match.
	shot := filepath.Join(home, "window.png")
	window := exec.Command(arena, "desktop", "-game", "life", "-p1", "strong", "-p2", "greedy", "-seed", "7", "-screenshot", shot, "-frames", "90")
	window.Dir, window.Env = home, append(env[:len(env):len(env)], "DISPLAY="+os.Getenv("DISPLAY"), "XAUTHORITY="+os.Getenv("XAUTHORITY"))
	if out, err := window.CombinedOutput(); err != nil {
		t.Fatalf("arena desktop under the display %q: %v\n%s", os.Getenv("DISPLAY"), err, out)
	}
	checkWindowShot(t, shot)
	t.Logf("the archive's window drew a match under the display %s", os.Getenv("DISPLAY"))

	// The student's agent, as they keep it, and the Python that runs it
	// named by its own path (a pyenv shim would need a PATH).
	agent, _ := filepath.Abs("../cmd/arena/testdata/comp424/agents/student_agent.py")
	py, err := exec.Command(pythonWith(t, "import numpy"), "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	python := strings.TrimSpace(string(py))

	serve := exec.Command(arena, "serve", "-addr", "127.0.0.1:0", "-gauntlets", t.TempDir(), "-python", python,
		"-player", "colosseum/student=py:"+agent)
	serve.Dir, serve.Env = home, env
	stderr, _ := serve.StderrPipe()
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	sc := bufio.NewScanner(stderr)
	var base, said string
	for base == "" && sc.Scan() {
		said += sc.Text() + "\n"
		if _, after, ok := strings.Cut(sc.Text(), "the playground is on "); ok {
			base, _, _ = strings.Cut(after, ",")
		}
	}
	go io.Copy(io.Discard, stderr)
	if base == "" {
		t.Fatalf("arena serve did not say where it serves:\n%s", said)
	}
	b := newBrowserAt(t, strings.TrimSuffix(base, "/"))
	b.open("?game=colosseum&p1=served:student&p2=random&preset=6&seed=4")
	b.waitJS(`JSON.parse(window.arenaTest.status()).done`, 5*time.Minute)
	s := b.status()
	if s.Failed != "" || s.Players[0] != "served:student" {
		b.fatalf("the served agent's match: players %v, failed %q", s.Players, s.Failed)
	}
	// The same match on the archive's command line ends the same way.
	if played := run("play", "-game", "colosseum", "-preset", "6", "-seed", "4", "-python", python, "-p1", "py:"+agent, "-p2", "random"); !strings.Contains(played, s.Result) {
		b.fatalf("the page ends with %q; the archive's arena play says:\n%s", s.Result, played)
	}
	b.screenshot("release-serves-the-page")
	t.Logf("arena serve from the archive: %s; %s", s.Result, strings.TrimSpace(said))

	out := run("tournament", "-game", "colosseum", "-preset", "6", "-rounds", "1", "-o", filepath.Join(home, "t"), "-python", python,
		"student=py:"+agent, "random=random", "greedy=greedy")
	if !strings.Contains(out, "student") {
		t.Errorf("the tournament's standings name no student:\n%s", out)
	}
	t.Logf("the archive's tournament:\n%s", out)
	checkLadderPlayground(t, arena, home, env)
}

// checkLadderPlayground: the archive's arena ladder serve serves the
// playground it carries at /play/, where a game's replay opens, under a
// policy that lets its WebAssembly compile.
func checkLadderPlayground(t *testing.T, arena, home string, env []string) {
	t.Helper()
	roster := filepath.Join(home, "roster.txt")
	os.WriteFile(roster, []byte("alice\n"), 0o644)
	dir := filepath.Join(home, "ladder")
	tokens := exec.Command(arena, "ladder", "tokens", "-dir", dir, "-roster", roster)
	tokens.Dir, tokens.Env = home, env
	if out, err := tokens.CombinedOutput(); err != nil {
		t.Fatalf("arena ladder tokens: %v\n%s", err, out)
	}
	serve := exec.Command(arena, "ladder", "serve", "-game", "colosseum", "-dir", dir, "-roster", roster, "-addr", "127.0.0.1:0")
	serve.Dir, serve.Env = home, env
	stdout, _ := serve.StdoutPipe()
	var stderr bytes.Buffer
	serve.Stderr = &stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	_, where, ok := strings.Cut(strings.TrimSpace(line), "serving ")
	if err != nil || !ok {
		t.Fatalf("arena ladder serve said %q (%v)\n%s", line, err, stderr.String())
	}
	for _, c := range []struct{ path, has string }{{"play/", "wasm_exec.js"}, {"play/arena.wasm", "\x00asm"}} {
		res, err := http.Get(where + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), c.has) {
			t.Errorf("the archive's ladder serves %s: %s, without %q", c.path, res.Status, c.has)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'wasm-unsafe-eval'") {
			t.Errorf("the archive's ladder serves %s under %q: its WebAssembly would not compile", c.path, csp)
		}
	}
	if strings.Contains(stderr.String(), "no page files") {
		t.Errorf("the archive's ladder says it carries no page files:\n%s", stderr.String())
	}
}

// untar unpacks a .tar.gz into dir and returns the names it holds.
func untar(t *testing.T, archive, dir string) []string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		path := filepath.Join(dir, h.Name)
		if h.Typeflag == tar.TypeDir {
			os.MkdirAll(path, 0o755)
			continue
		}
		data, _ := io.ReadAll(tr)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, os.FileMode(h.Mode)); err != nil {
			t.Fatal(err)
		}
	}
}

// checkDownloadReadme: the archive's README is written for the download:
// its commands are arena's own (no go run, no path of the repository's
// tests), every relative link and picture resolves to a file of the
// archive, and every example program it names is there.
func checkDownloadReadme(t *testing.T, dir string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	for _, bad := range []string{"go run", "cmd/arena/testdata", "make "} {
		if strings.Contains(text, bad) {
			t.Errorf("the download's README says %q", bad)
		}
	}
	if !strings.Contains(text, "./arena serve") {
		t.Errorf("the download's README gives no ./arena serve")
	}
	links := regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(text, -1)
	if len(links) < 5 {
		t.Errorf("the README has %d links", len(links))
	}
	for _, l := range links {
		target := strings.SplitN(l[1], "#", 2)[0]
		if strings.Contains(target, "://") || target == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
			t.Errorf("the README's link %s does not resolve in the archive: %v", l[1], err)
		}
	}
	for _, ex := range regexp.MustCompile(`examples/[\w/.]+\.py`).FindAllString(text, -1) {
		if _, err := os.Stat(filepath.Join(dir, ex)); err != nil {
			t.Errorf("the README names %s, which the archive lacks", ex)
		}
	}
}

// checkWindowShot: the window's screenshot shows a board with both
// players' colours.
func checkWindowShot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 640 || b.Dy() < 400 {
		t.Fatalf("the window is %v", b)
	}
	for side, col := range render.Dark.Player {
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y += 2 {
			for x := b.Min.X; x < b.Max.X; x += 2 {
				r, g, bl, _ := img.At(x, y).RGBA()
				if uint8(r>>8) == col.R && uint8(g>>8) == col.G && uint8(bl>>8) == col.B {
					n++
				}
			}
		}
		if n < 50 {
			t.Errorf("the window shows %d pixels of player %d's colour", n, side+1)
		}
	}
	if dir := os.Getenv("ARENA_SHOTS"); dir != "" {
		data, _ := os.ReadFile(path)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "release-desktop.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
