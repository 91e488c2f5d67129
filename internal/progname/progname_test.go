package progname

import "testing"

func TestCommand(t *testing.T) {
	for arg0, want := range map[string]string{
		"/tmp/go-build3310451094/b001/exe/arena":                         "go run ./cmd/arena",
		`C:\Users\ann\AppData\Local\Temp\go-build123\b001\exe\arena.exe`: "go run ./cmd/arena",
		"./arena":              "./arena",
		"arena":                "arena",
		`.\arena.exe`:          `.\arena.exe`,
		"/usr/local/bin/arena": "/usr/local/bin/arena",
	} {
		if got := command(arg0, "./cmd/arena"); got != want {
			t.Errorf("%s: %q, want %q", arg0, got, want)
		}
	}
}
