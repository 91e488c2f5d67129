package symbols

import (
	"go/constant"
	"reflect"
	"sort"
	"strings"
)

// Reach lists everything a bot can reach through tables: each name it can
// write ("match.Turn", "strings.Cut"), and each method and field of every
// type it can come to hold a value of ("match.Turn.Spend",
// "match.Turn.State"), following parameters and results, fields,
// elements and methods as the interpreter does, through reflect. An
// interface is followed through its methods; what values it holds at
// run time is said of it in the review (Reviewed).
func Reach(tables map[string]map[string]reflect.Value) []string {
	w := walker{seen: map[reflect.Type]bool{}, out: map[string]bool{}}
	for key, table := range tables {
		pkg := Short(strings.TrimSuffix(key, "/"+key[strings.LastIndex(key, "/")+1:]))
		for name, v := range table {
			w.out[pkg+"."+name] = true
			switch {
			case v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr(): // a type: (*T)(nil)
				w.typ(v.Type().Elem())
			case v.Type().Implements(constantValue): // an untyped constant
			default: // a function or a variable
				w.typ(v.Type())
			}
		}
	}
	list := make([]string, 0, len(w.out))
	for s := range w.out {
		list = append(list, s)
	}
	sort.Strings(list)
	return list
}

var constantValue = reflect.TypeFor[constant.Value]()

// walker follows types to the methods and fields they open.
type walker struct {
	seen map[reflect.Type]bool
	out  map[string]bool
}

func (w *walker) typ(t reflect.Type) {
	if w.seen[t] {
		return
	}
	w.seen[t] = true
	if strings.HasSuffix(t.PkgPath(), "/internal/extracted") {
		return // yaegi's wrapper of an interface for the bot's own types: it calls the bot's methods
	}
	name := typeName(t)
	if name != "" {
		w.out[name] = true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		w.typ(t.Elem())
	case reflect.Map:
		w.typ(t.Key())
		w.typ(t.Elem())
	case reflect.Func:
		for i := range t.NumIn() {
			w.typ(t.In(i))
		}
		for i := range t.NumOut() {
			w.typ(t.Out(i))
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if name != "" {
				w.out[name+"."+f.Name] = true
			}
			w.typ(f.Type)
		}
	}
	w.methods(t, name)
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		w.methods(reflect.PointerTo(t), name)
	}
}

// methods records t's exported methods under name and follows their
// parameters and results (the receiver left out).
func (w *walker) methods(t reflect.Type, name string) {
	for i := range t.NumMethod() {
		m := t.Method(i)
		if !m.IsExported() {
			continue
		}
		if name != "" {
			w.out[name+"."+m.Name] = true
		}
		ft, skip := m.Type, 1
		if t.Kind() == reflect.Interface {
			skip = 0
		}
		for j := skip; j < ft.NumIn(); j++ {
			w.typ(ft.In(j))
		}
		for j := range ft.NumOut() {
			w.typ(ft.Out(j))
		}
	}
}

// typeName names a defined type as the review does ("match.Turn",
// "time.Duration"), and an unnamed or predeclared one as "".
func typeName(t reflect.Type) string {
	if t.Name() == "" || t.PkgPath() == "" {
		return ""
	}
	return Short(t.PkgPath()) + "." + t.Name()
}

// Short writes arena's packages by their last element and the standard
// library's by its path: "match", "colosseum", "math/rand/v2".
func Short(path string) string {
	return strings.TrimPrefix(path, "github.com/arena-playground/arena/engine/")
}
