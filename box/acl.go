//go:build !js

package box

import "strings"

// boxSDDL is the security descriptor of a program's box directory on
// Windows, in the Security Descriptor Definition Language: a protected
// DACL (nothing inherited from the folder above) giving full control to
// the user the program runs as (sid) and to SYSTEM alone, inherited by
// what is made inside; and a mandatory label of low integrity, so that
// the program, whose token is of low integrity, may write there and
// nowhere of medium integrity (the user's own files, arena's).
//
// See: "Security Descriptor String Format" and "Mandatory Integrity
// Control" (Microsoft Learn): ML is a mandatory label ACE, OICI its
// inheritance by files and folders, NW its no-write-up policy, LW the
// low integrity SID; P protects the DACL, FA is full access, SY SYSTEM.
func boxSDDL(sid string) string {
	var b strings.Builder
	b.WriteString("D:P")
	b.WriteString("(A;OICI;FA;;;" + sid + ")")
	b.WriteString("(A;OICI;FA;;;SY)")
	b.WriteString("S:(ML;OICI;NW;;;LW)")
	return b.String()
}
