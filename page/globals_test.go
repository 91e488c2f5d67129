package page

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The names that join the page's JavaScript and its Go are the ones
// Globals declares, each defined where it says and used where it says:
// a name used in a file that Globals does not name fails, as does a
// declared one that nothing uses any more.
func TestGlobalsAreDeclared(t *testing.T) {
	root := filepath.Join("..")
	jsName := regexp.MustCompile(`\barena[A-Z][A-Za-z]*\b`)
	goName := regexp.MustCompile(`"(arena[A-Z][A-Za-z]*)"`)
	jsComment := regexp.MustCompile(`(?m)(^|\s)//.*$`)
	uses := map[string][]string{} // name: files that mention it
	tests := map[string]bool{}    // names the browser tests read
	texts := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || rel == "third_party" || rel == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(rel)
		if ext != ".go" && ext != ".js" && ext != ".html" || rel == "page/globals.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		var names []string
		switch {
		case strings.HasSuffix(rel, "_test.go"):
			for _, m := range jsName.FindAllString(text, -1) {
				tests[m] = true
			}
			return nil
		case ext == ".go":
			for _, m := range goName.FindAllStringSubmatch(text, -1) {
				names = append(names, m[1])
			}
		default: // JavaScript, its comments left out: a comment names, it does not use
			names = jsName.FindAllString(jsComment.ReplaceAllString(text, ""), -1)
		}
		texts[rel] = text
		for _, n := range names {
			if !slices.Contains(uses[n], rel) {
				uses[n] = append(uses[n], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]Global{}
	for _, g := range Globals {
		declared[g.Name] = g
	}
	for name, files := range uses {
		g, ok := declared[name]
		if !ok {
			t.Errorf("%s is used in %s and not declared in Globals (page/globals.go)", name, strings.Join(files, ", "))
			continue
		}
		for _, f := range files {
			if f != g.DefinedIn && !slices.Contains(g.CalledFrom, f) {
				t.Errorf("%s is used in %s, which Globals does not name (defined in %s, called from %v)", name, f, g.DefinedIn, g.CalledFrom)
			}
		}
	}
	for _, g := range Globals {
		def := regexp.MustCompile(`(window|self)\.` + g.Name + `\s*=|Set\("` + g.Name + `"`)
		if !def.MatchString(texts[g.DefinedIn]) {
			t.Errorf("%s: Globals says %s defines it, and it does not", g.Name, g.DefinedIn)
		}
		for _, f := range g.CalledFrom {
			switch {
			case f == "tests" && !tests[g.Name]:
				t.Errorf("%s: Globals says the tests read it, and none does", g.Name)
			case f != "tests" && !slices.Contains(uses[g.Name], f):
				t.Errorf("%s: Globals says %s uses it, and it does not", g.Name, f)
			}
		}
		if g.Why == "" {
			t.Errorf("%s: Globals does not say what passes through it", g.Name)
		}
	}
	if len(Globals) < 20 {
		t.Errorf("%d globals declared: the scan found %d names", len(Globals), len(uses))
	}
}
