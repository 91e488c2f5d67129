//go:build linux

package box

import (
	"os/exec"
	"testing"
)

// The cost of a box: /bin/true started in a box of its own (namespaces, a
// root of its own, Landlock, seccomp, through the launcher), beside the
// same program started plainly, in the same run; the ratio is what a
// program's start costs more for its box (a course program of map
// colouring starts once a move).
func BenchmarkBoxStart(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("box", func(b *testing.B) {
		for b.Loop() {
			bx, err := New(Spec{Args: []string{"/bin/true"}, Caps: DefaultCaps})
			if err != nil {
				b.Fatal(err)
			}
			if err := bx.Start(); err != nil {
				b.Fatal(err)
			}
			if err := bx.Cmd.Wait(); err != nil {
				b.Fatal(err)
			}
			bx.Close()
		}
	})
}
