package arena

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLayoutNamesEveryPackage: docs/layout.md, the map of the rooms, has
// a row for every package of the module (a row "DIR/*" stands for the
// packages below DIR), so that a new room is drawn on the map with the
// change that makes it, and a row names no package that is gone.
func TestLayoutNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	block := strings.SplitN(string(doc), "```", 3)[1]
	rows := map[string]bool{}
	for line := range strings.Lines(block) {
		if f := strings.Fields(line); len(f) > 0 && line[0] != ' ' {
			rows[f[0]] = true
		}
	}
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	page := exec.Command("go", "list", "-e", "./...") // and the page's programs
	page.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	js, err := page.Output()
	if err != nil {
		t.Fatalf("go list for js/wasm: %v", err)
	}
	out = append(out, js...)
	const module = "github.com/arena-playground/arena"
	named := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		p = strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if p == "" {
			continue // the module's root: botapi.go, said in layout.md's gobot/build row
		}
		covered := rows[p]
		for dir := p; !covered && strings.Contains(dir, "/"); {
			dir = dir[:strings.LastIndex(dir, "/")]
			covered = rows[dir+"/*"]
		}
		if !covered {
			t.Errorf("docs/layout.md has no row for %s", p)
		}
		named[p] = true
	}
	for row := range rows {
		if !strings.Contains(row, "/") && !strings.Contains(row, ".") || strings.HasSuffix(row, "/*") {
			continue // a room of several packages, or a file (index.html)
		}
		if _, err := os.Stat(row); err != nil {
			t.Errorf("docs/layout.md names %s, which is not in the tree", row)
		}
	}
}
