package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version and commit name the release and its commit, set by make dist
// (-ldflags "-X main.version=v1.2.3 -X main.commit=…"); a build from the
// repository has no release, and its commit from Go's build information
// when the toolchain stamped it (-buildvcs).
var version, commit = "", ""

// runVersion is `arena version`: the release, the commit it was built
// from (with "+changes" when the tree had uncommitted ones), the Go that
// built it and the system it runs on.
func runVersion(args []string, stdout, _ io.Writer) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintln(stdout, versionLine())
	return nil
}

func versionLine() string {
	rev, modified := commit, false
	if bi, ok := debug.ReadBuildInfo(); ok && rev == "" {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	switch {
	case rev == "":
		rev = "not recorded (built with -buildvcs=false)"
	case modified:
		rev += "+changes"
	}
	name := version
	if name == "" {
		name = "(no release)"
	}
	return fmt.Sprintf("arena %s, commit %s, %s, %s/%s", name, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
