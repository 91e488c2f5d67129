package builtinshader

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/template"
)

// upstreamTemplate parses Ebitengine's own shader.go, of the version
// go.mod names, and returns its template.
func upstreamTemplate(t *testing.T) *template.Template {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/hajimehoshi/ebiten/v2").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	file := filepath.Join(strings.TrimSpace(string(dir)), "internal", "builtinshader", "shader.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parse" {
				if lit, ok := call.Args[0].(*ast.BasicLit); ok {
					text, _ = strconv.Unquote(lit.Value)
				}
			}
		}
		return true
	})
	if text == "" {
		t.Fatalf("%s has no template: Ebitengine changed how it writes its shaders; see gen.go", file)
	}
	return template.Must(template.New("tmpl").Parse(text))
}

// TestShadersAreEbitengines: each of the 12 shaders is byte for byte what
// Ebitengine's template writes. A failure after an upgrade of Ebitengine
// means: run go generate here.
func TestShadersAreEbitengines(t *testing.T) {
	tmpl := upstreamTemplate(t)
	for filter := Filter(0); filter < FilterCount; filter++ {
		for address := Address(0); address < AddressCount; address++ {
			for _, useColorM := range []bool{false, true} {
				var want bytes.Buffer
				err := tmpl.Execute(&want, struct {
					Filter, FilterNearest, FilterLinear                       Filter
					Address, AddressUnsafe, AddressClampToZero, AddressRepeat Address
					UseColorM                                                 bool
				}{filter, FilterNearest, FilterLinear, address, AddressUnsafe, AddressClampToZero, AddressRepeat, useColorM})
				if err != nil {
					t.Fatal(err)
				}
				if got := ShaderSource(filter, address, useColorM); !bytes.Equal(got, want.Bytes()) {
					t.Errorf("filter %d, address %d, color matrix %v: the shader differs from Ebitengine's (run go generate):\n%s\nwant:\n%s", filter, address, useColorM, got, want.Bytes())
				}
			}
		}
	}
}
