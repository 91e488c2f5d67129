package page

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEbitenPatchesApply makes the patched copy of Ebitengine the page is
// built with, as Build makes it, and runs Ebitengine's own tests of what
// the patches change (the shader compiler, its GLSL, the built-in
// shaders) in it; the copy's page build no longer links package regexp
// or text/template, and its built-in shaders are third_party/ebiten's.
func TestEbitenPatchesApply(t *testing.T) {
	root, _ := filepath.Abs("..")
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // a copy of its own, made now
	mod, err := patchedModfile(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(mod)
	_, copyDir, ok := strings.Cut(string(data), "replace "+ebitenModule+" => ")
	copyDir = strings.TrimSpace(copyDir)
	if !ok || !strings.HasPrefix(copyDir, os.Getenv("XDG_CACHE_HOME")) {
		t.Fatalf("the go.mod replaces Ebitengine with %q", copyDir)
	}
	test := exec.Command("go", "test", "-count=1", "./internal/shader/", "./internal/shaderir/...", "./internal/builtinshader/", "./internal/graphics/")
	test.Dir = copyDir
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("Ebitengine's tests in the patched copy: %v\n%s", err, out)
	}
	list := exec.Command("go", "list", "-deps", ".")
	list.Dir, list.Env = copyDir, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	deps, err := list.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"regexp", "text/template", "go/parser", "github.com/hajimehoshi/ebiten/v2/internal/shader"} {
		if bytes.Contains(append([]byte("\n"), deps...), []byte("\n"+pkg+"\n")) {
			t.Errorf("the patched Ebitengine still links %s", pkg)
		}
	}
	ours, _ := os.ReadFile(filepath.Join(root, "third_party", "ebiten", "internal", "builtinshader", "shader.go"))
	patched, _ := os.ReadFile(filepath.Join(copyDir, "internal", "builtinshader", "shader.go"))
	if !bytes.Equal(ours, patched) {
		t.Errorf("builtinshader.patch does not make third_party/ebiten/internal/builtinshader/shader.go: run go generate there")
	}
}

// TestApplyPatchRefusesWhatDoesNotMatch: a patch whose context is not in
// the file is an error naming the file and line, and nothing is written.
func TestApplyPatchRefusesWhatDoesNotMatch(t *testing.T) {
	patch := []byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -2,3 +2,3 @@\n a\n-b\n+B\n c\n")
	files := map[string]string{"x.go": "0\na\nb\nc\nd\n"}
	read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
	write := func(p string, d []byte) error { files[p] = string(d); return nil }
	if err := applyPatch("t.patch", patch, read, write); err != nil || files["x.go"] != "0\na\nB\nc\nd\n" {
		t.Fatalf("applied: %q, %v", files["x.go"], err)
	}
	files["x.go"] = "0\na\nchanged\nc\nd\n"
	err := applyPatch("t.patch", patch, read, write)
	if err == nil || !strings.Contains(err.Error(), "x.go line 3") || files["x.go"] != "0\na\nchanged\nc\nd\n" {
		t.Fatalf("a patch that does not match: %v; file %q", err, files["x.go"])
	}
}

// TestApplyPatchCreatesFiles: a file the patch creates (--- /dev/null)
// is written whole, and refused where it is there already.
func TestApplyPatchCreatesFiles(t *testing.T) {
	patch := []byte("diff --git a/n.go b/n.go\nnew file mode 100644\n--- /dev/null\n+++ b/n.go\n@@ -0,0 +1,2 @@\n+package n\n+// new\n")
	files := map[string]string{}
	read := func(p string) ([]byte, error) {
		if d, ok := files[p]; ok {
			return []byte(d), nil
		}
		return nil, os.ErrNotExist
	}
	write := func(p string, d []byte) error { files[p] = string(d); return nil }
	if err := applyPatch("n.patch", patch, read, write); err != nil || files["n.go"] != "package n\n// new\n" {
		t.Fatalf("created: %q, %v", files["n.go"], err)
	}
	err := applyPatch("n.patch", patch, read, write)
	if err == nil || !strings.Contains(err.Error(), "n.go is there already") {
		t.Fatalf("creating a file that is there: %v", err)
	}
}
