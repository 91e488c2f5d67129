// Package interp interprets a bot written in Go (see package gobot) with
// yaegi, through generated tables of arena's bot API (gobot/symbols):
// Compile checks and loads a bot's source, Serve answers a match's
// requests in the bot's own process.
package interp

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/gobot"
	"github.com/arena-playground/arena/gobot/serve"
	"github.com/arena-playground/arena/gobot/symbols"
)

// MaxSource is the longest source a bot may have: 1 MB, far more than a
// bot needs, so that a source is never read without bound.
const MaxSource = 1 << 20

// Act is a bot's move function.
type Act = serve.Act

// Compile loads a bot's source, named file in errors, and returns its Act.
// A source that does not compile is refused with errors as the Go
// compiler writes them: "file:line:col: what". Package-level variables
// are initialised (init functions run) here, so a bot is compiled in the
// process that plays it.
func Compile(file, src string, out io.Writer) (Act, error) {
	if len(src) > MaxSource {
		return nil, fmt.Errorf("%s: %d bytes; a bot's source may have at most %d", file, len(src), MaxSource)
	}
	pkg, src, err := check(file, src)
	if err != nil {
		return nil, err
	}
	i, err := newInterpreter(out)
	if err != nil {
		return nil, err
	}
	if _, err := safeEval(i, src); err != nil {
		return nil, positioned(file, err)
	}
	v, err := safeEval(i, pkg+".Act")
	if err != nil {
		return nil, fmt.Errorf("%s: the bot has no func Act(t *match.Turn) (match.Action, error)", file)
	}
	act, ok := v.Interface().(func(*match.Turn) (match.Action, error))
	if !ok {
		return nil, fmt.Errorf("%s: Act is %s; want func Act(t *match.Turn) (match.Action, error)", file, v.Type())
	}
	return act, nil
}

// Check reports whether a bot's source compiles, as Compile does, without
// running any of it: arena checks a file before any game, in its own
// process, and runs it only in the bot's.
func Check(file, src string) error {
	if len(src) > MaxSource {
		return fmt.Errorf("%s: %d bytes; a bot's source may have at most %d", file, len(src), MaxSource)
	}
	_, src, err := check(file, src)
	if err != nil {
		return err
	}
	i, err := newInterpreter(io.Discard)
	if err != nil {
		return err
	}
	if err := safeCompile(i, src); err != nil {
		return positioned(file, err)
	}
	return nil
}

// newInterpreter is an interpreter that reaches the bot API's tables and
// nothing else, writing the bot's prints to out.
func newInterpreter(out io.Writer) (*interp.Interpreter, error) {
	i := interp.New(interp.Options{Stdout: out, Stderr: out})
	if err := i.Use(symbols.Symbols); err != nil {
		return nil, err
	}
	if widened != nil {
		return i, i.Use(widened)
	}
	return i, nil
}

// widened are tables beyond the bot API, which only a test build has
// (widened.go).
var widened map[string]map[string]reflect.Value

// noSeccomp leaves the seccomp filter off, which only a test build can ask
// (widened.go), to show Landlock refusing on its own.
var noSeccomp bool

// safeCompile compiles in the interpreter without running anything,
// turning its panics into errors.
func safeCompile(i *interp.Interpreter, src string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	_, err = i.Compile(src)
	return err
}

// check parses the source for its package name and its imports, so that
// a syntax error and an import a bot cannot have are said as the
// compiler says them, at their line. It returns the source the
// interpreter is given: the same, with what guard adds.
func check(file, src string) (pkg, guarded string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ImportsOnly|parser.AllErrors)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 5 {
			list = list[:5]
			return "", "", fmt.Errorf("%v\n(and more)", list)
		}
		return "", "", err
	}
	whole, err := parser.ParseFile(fset, file, src, parser.AllErrors|parser.ParseComments)
	if err != nil {
		return "", "", err
	}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if allowed := gobot.ImportList(); !slices.Contains(allowed, path) {
			return "", "", fmt.Errorf("%s: import %q: a bot may import only %s", fset.Position(im.Pos()), path, strings.Join(allowed, ", "))
		}
		if im.Name != nil && im.Name.Name == "." {
			return "", "", fmt.Errorf("%s: import . %q: a bot names what it imports by its package", fset.Position(im.Pos()), path)
		}
	}
	if err := refused(fset, whole); err != nil {
		return "", "", err
	}
	if err := directive(fset, whole); err != nil {
		return "", "", err
	}
	info, err := compilerOnly(fset, whole)
	if err != nil {
		return "", "", err
	}
	if err := hasAct(fset, file, whole); err != nil {
		return "", "", err
	}
	return f.Name.Name, guard(fset, whole, info, src), nil
}

// actWant is the signature a bot's Act has.
const actWant = "func Act(t *match.Turn) (match.Action, error)"

// hasAct finds the bot's Act, as the interpreter and the compiled
// program's main look it up: a function of the signature, or a
// package-level variable (whose type the compiler checks).
func hasAct(fset *token.FileSet, file string, f *ast.File) error {
	matchName := ""
	for _, im := range f.Imports {
		if path, _ := strconv.Unquote(im.Path.Value); path == "github.com/arena-playground/arena/engine/match" {
			matchName = importName(path)
			if im.Name != nil {
				matchName = im.Name.Name
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil || d.Name.Name != "Act" {
				continue
			}
			if !actType(d.Type, matchName) {
				var b strings.Builder
				printer.Fprint(&b, fset, d.Type)
				return fmt.Errorf("%s: Act is %s; want %s", fset.Position(d.Pos()), b.String(), actWant)
			}
			return nil
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if v, ok := sp.(*ast.ValueSpec); ok && slices.ContainsFunc(v.Names, func(n *ast.Ident) bool { return n.Name == "Act" }) {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("%s: the bot has no %s", file, actWant)
}

// actType reports whether t is func(*match.Turn) (match.Action, error),
// match being the file's name for engine/match.
func actType(t *ast.FuncType, match string) bool {
	sel := func(e ast.Expr, name string) bool {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := s.X.(*ast.Ident)
		return ok && match != "" && x.Name == match && s.Sel.Name == name
	}
	fields := func(l *ast.FieldList) []ast.Expr {
		var out []ast.Expr
		if l == nil {
			return nil
		}
		for _, f := range l.List {
			for range max(1, len(f.Names)) {
				out = append(out, f.Type)
			}
		}
		return out
	}
	params, results := fields(t.Params), fields(t.Results)
	if len(params) != 1 || len(results) != 2 {
		return false
	}
	star, ok := params[0].(*ast.StarExpr)
	errType, okErr := results[1].(*ast.Ident)
	return ok && sel(star.X, "Turn") && sel(results[0], "Action") && okErr && errType.Name == "error"
}

// directive finds a compiler directive (//go:linkname, //go:embed,
// //go:build, //line …): the interpreter ignores them, the compiler obeys
// them, and a bot needs none, so a file with one is refused, on both
// paths, as what it is.
func directive(fset *token.FileSet, f *ast.File) error {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") || strings.HasPrefix(c.Text, "// +build") {
				name, _, _ := strings.Cut(c.Text, " ")
				return fmt.Errorf("%s: %s is a compiler directive: a bot has none", fset.Position(c.Pos()), name)
			}
		}
	}
	return nil
}

// compilerOnly type-checks the file (go/types, the Go compiler's own
// checker) for the errors the compiler gives and the interpreter would
// not: a variable declared and not used, an import or a label not used,
// a function that does not end in a return. A bot is checked by this
// before it is interpreted or compiled, so that both refuse the same
// files. The imported packages are stubs (the page carries no bot API's
// source to check against): what they hold is the interpreter's to check,
// against the reviewed tables, and those errors are left out here. It
// returns the types it found, for guard.
func compilerOnly(fset *token.FileSet, f *ast.File) (*types.Info, error) {
	var first error
	conf := types.Config{
		Importer: stubImporter{},
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok || first != nil {
				return
			}
			if strings.Contains(te.Msg, "declared and not used") || te.Msg == "missing return" {
				first = fmt.Errorf("%s: %s", fset.Position(te.Pos), te.Msg)
			}
		},
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf.Check(f.Name.Name, fset, []*ast.File{f}, info)
	if first != nil {
		return nil, first
	}
	return info, unusedImport(fset, f)
}

// unusedImport finds an import the file never names, as the compiler
// refuses it (the checker cannot tell, its packages being stubs).
func unusedImport(fset *token.FileSet, f *ast.File) error {
	named := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
				named[id.Name] = true
			}
		}
		return true
	})
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := importName(path)
		if im.Name != nil {
			if im.Name.Name == "_" {
				continue
			}
			name = im.Name.Name
		}
		if !named[name] {
			if im.Name != nil {
				return fmt.Errorf("%s: %q imported as %s and not used", fset.Position(im.Pos()), path, name)
			}
			return fmt.Errorf("%s: %q imported and not used", fset.Position(im.Pos()), path)
		}
	}
	return nil
}

// importName is the name a package's import path gives it.
func importName(path string) string {
	name := path[strings.LastIndex(path, "/")+1:]
	if name == "v2" { // math/rand/v2
		name = "rand"
	}
	return name
}

// stubImporter gives each import an empty package of its name.
type stubImporter struct{}

func (stubImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, importName(path))
	p.MarkComplete()
	return p, nil
}

// refused finds the first name of an imported package that the bot API
// does not hand to a bot (match.Lookup, fmt.Scan, rand.IntN …) and says
// why, at its line, as the compiler would say an undefined name.
func refused(fset *token.FileSet, f *ast.File) error {
	imported := map[string]string{} // the name a file gives a package: its path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := importName(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		imported[name] = path
	}
	var err error
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || err != nil {
			return err == nil
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil { // a local name, not a package
			return true
		}
		path, ok := imported[id.Name]
		if !ok {
			return true
		}
		if why := symbols.Refused(path, sel.Sel.Name); why != "" {
			err = fmt.Errorf("%s: %s.%s is not for bots: %s", fset.Position(sel.Pos()), id.Name, sel.Sel.Name, why)
		}
		return true
	})
	return err
}

// guard is the source the interpreter is given: the bot's, with what
// makes yaegi v0.16.1 compute otherwise than Go written out as Go reads
// it. Only parentheses and conversions are added, so every line keeps
// its number.
//
//   - A value of an assignment or declaration of several values that is
//     a call, a receive or a composite literal is put in parentheses:
//     a, b = x, f() becomes a, b = x, (f()). yaegi leaves the other
//     values unassigned, or zero, beside such a value, and assigns them
//     as Go does beside its parenthesized form.
//   - The constant of a shift by a variable takes the type Go gives it
//     from the expression around it, written out: w & (1<<d), w a uint8,
//     becomes w & (uint8(1)<<d). yaegi takes the constant for an int,
//     and panics when it meets the uint8 (or when the shift is another's
//     count).
func guard(fset *token.FileSet, f *ast.File, info *types.Info, src string) string {
	type insert struct {
		off  int
		text string
	}
	var at []insert
	around := func(e ast.Expr, open, close string) {
		at = append(at, insert{fset.Position(e.Pos()).Offset, open}, insert{fset.Position(e.End()).Offset, close})
	}
	converted := map[*ast.BinaryExpr]bool{}
	wrap := func(values []ast.Expr) {
		if len(values) < 2 {
			return
		}
		for _, e := range values {
			switch e := e.(type) {
			case *ast.CallExpr, *ast.CompositeLit:
			case *ast.UnaryExpr:
				if e.Op != token.ARROW {
					continue
				}
			default:
				continue
			}
			around(e, "(", ")")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			wrap(n.Rhs)
		case *ast.ValueSpec:
			wrap(n.Values)
		case *ast.BinaryExpr:
			sides := [][2]ast.Expr{{n, nil}, {n.X, n.Y}, {n.Y, n.X}}
			if n.Op == token.SHL || n.Op == token.SHR {
				sides = sides[:1] // a shift's operand and count do not type each other
				// A shift as another's count (1 << (1<<d)) is left untyped
				// by the checker: Go gives its constant the default type.
				if sh, ok := ast.Unparen(n.Y).(*ast.BinaryExpr); ok && !converted[sh] && untypedShift(info, sh) {
					converted[sh] = true
					around(sh.X, "int(", ")")
				}
			}
			for _, side := range sides {
				if sh, ok := ast.Unparen(side[0]).(*ast.BinaryExpr); ok && !converted[sh] {
					if name := shiftedConstant(info, sh, side[1]); name != "" {
						converted[sh] = true
						around(sh.X, name+"(", ")")
					}
				}
			}
		}
		return true
	})
	if len(at) == 0 {
		return src
	}
	// What is added nests (an assignment in a function literal among
	// another's values, a shift in a value): it is written in the
	// source's order, the outer first where two start together.
	slices.SortStableFunc(at, func(a, b insert) int { return a.off - b.off })
	var b strings.Builder
	last := 0
	for _, in := range at {
		b.WriteString(src[last:in.off])
		b.WriteString(in.text)
		last = in.off
	}
	b.WriteString(src[last:])
	return b.String()
}

// constantShifted reports whether e shifts a constant by a count that
// is not constant (1<<d): the shifts whose constant yaegi types wrong.
func constantShifted(info *types.Info, e *ast.BinaryExpr) bool {
	if e.Op != token.SHL && e.Op != token.SHR || info == nil {
		return false
	}
	x, y := info.Types[e.X], info.Types[e.Y]
	return x.Value != nil && y.Value == nil
}

// untypedShift reports whether e is a constantShifted shift the checker
// left an untyped integer.
func untypedShift(info *types.Info, e *ast.BinaryExpr) bool {
	if !constantShifted(info, e) {
		return false
	}
	b, ok := info.Types[e].Type.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0 && b.Info()&types.IsInteger != 0
}

// shiftedConstant is the name of the type Go gives the constant of a
// shift by a count that is not constant (1<<d), an integer type: what
// the constant must be written as for yaegi (which takes it for an int
// beside a uint8, and for something else again as another shift's
// count). The shift's own type, where the checker found it, else that of
// the operand beside it (w in w & (1<<d)), whose type the shift takes:
// a count of a type from an imported package (a stub here) leaves the
// shift's own unknown. "" for any other expression, or a type the
// checker could not tell.
func shiftedConstant(info *types.Info, e *ast.BinaryExpr, beside ast.Expr) string {
	if !constantShifted(info, e) {
		return ""
	}
	sized := func(t types.Type) string {
		b, ok := t.(*types.Basic)
		if !ok || b.Info()&(types.IsUntyped|types.IsInteger) != types.IsInteger {
			return ""
		}
		return b.Name()
	}
	if name := sized(info.Types[e].Type); name != "" {
		return name
	}
	if beside != nil {
		return sized(info.Types[beside].Type)
	}
	return ""
}

// safeEval evaluates in the interpreter, turning its panics (it has a
// few on sources it does not expect) into errors.
func safeEval(i *interp.Interpreter, src string) (v reflectValue, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return i.Eval(src)
}

// yaegiPos is how yaegi places an error: "_.go:12:3: ..." or "12:3: ...".
var yaegiPos = regexp.MustCompile(`^(?:[^\s:]*\.go:)?(\d+):(\d+): `)

// positioned writes an interpreter's error as the compiler would, with
// the file's name before the line.
func positioned(file string, err error) error {
	msg := err.Error()
	if m := yaegiPos.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s:%s:%s: %s", file, m[1], m[2], msg[len(m[0]):])
	}
	return fmt.Errorf("%s: %s", file, msg)
}
