// Package builtinshader is Ebitengine's internal/builtinshader with its
// shader template written as Go (see gen.go for why): the page's build
// (page.Build) puts this shader.go in place of Ebitengine's with go
// build -overlay, and shader_test.go checks that every shader it writes
// is byte for byte the one Ebitengine's template writes. After upgrading
// Ebitengine, run go generate here.
package builtinshader

//go:generate go run gen.go
