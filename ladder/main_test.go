package ladder

import (
	"fmt"
	"os"
	"testing"
)

// TestMain is also the reporter's process of the tests that start one
// (ReportIn, as arena ladder serve starts arena ladder report): the test
// binary started again with ARENA_LADDER_REPORTER naming the ladder.
func TestMain(m *testing.M) {
	if dir := os.Getenv("ARENA_LADDER_REPORTER"); dir != "" {
		st, err := Open(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		ServeReports(st, Player{Dir: os.Getenv("ARENA_LADDER_PROGRAMS")}, os.Stdin, func(s string) { fmt.Fprintln(os.Stderr, s) })
		st.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
