//go:build !js

package box

import (
	"fmt"
	"strings"
)

// Profile is what a macOS Seatbelt profile lets a program do, beyond
// running at all: read its files and the system's, write its box, and
// connect to its seat.
type Profile struct {
	Read  []string // the program's own files and folders
	Write []string // its working directory and its /tmp
	Port  int      // its seat on the loopback (0: no network at all)
}

// seatbeltSystem are the folders of macOS every program reads: its
// libraries, frameworks, interpreters (Homebrew's and python.org's
// included) and configuration.
var seatbeltSystem = []string{"/usr", "/bin", "/sbin", "/System", "/Library", "/opt", "/private/etc", "/private/var/db/dyld",
	"/Applications/Xcode.app", "/Library/Developer/CommandLineTools", "/dev"}

// SBPL writes the profile in Apple's Sandbox Profile Language, as
// sandbox-exec -p takes it: everything denied but what a program needs to
// run (to fork and execute within its box, read the system's folders and
// its own files, ask the system's name services and its sysctls), its
// writes beneath its box alone, its signals to its own sandbox alone, and
// no network but TCP to its seat on localhost. As Chromium's and the
// Codex CLI's profiles start: (deny default), then what is needed.
//
// See: sandbox-exec(1); Apple's "App Sandbox" and the SBPL reference
// gathered from Chromium's sandbox/policy/mac/*.sb.
func (p Profile) SBPL() string {
	var b strings.Builder
	b.WriteString(`(version 1)
(deny default)
(allow process-exec process-fork)
(allow process-info* (target same-sandbox))
(allow signal (target same-sandbox))
(allow sysctl-read)
(allow file-read-metadata)
(allow ipc-posix-shm ipc-posix-sem)
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.logd")
  (global-name "com.apple.bsd.dirhelper"))
(allow file-read* (literal "/") (literal "/private") (literal "/private/var") (literal "/var") (literal "/tmp") (literal "/etc"))
`)
	b.WriteString("(allow file-read*")
	for _, s := range append(seatbeltSystem[:len(seatbeltSystem):len(seatbeltSystem)], p.Read...) {
		fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(s))
	}
	b.WriteString(")\n(allow file-read* file-write*")
	for _, s := range p.Write {
		fmt.Fprintf(&b, "\n  (subpath %s)", sbplString(s))
	}
	b.WriteString("\n  (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/dtracehelper\"))\n")
	if p.Port > 0 {
		fmt.Fprintf(&b, "(allow network-outbound (remote tcp \"localhost:%d\"))\n", p.Port)
	}
	return b.String()
}

// sbplString quotes s as an SBPL string: a path with a quote or a
// backslash in it is escaped, never able to end the string and add a
// rule of its own.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\x00", "")
	return `"` + r.Replace(s) + `"`
}
