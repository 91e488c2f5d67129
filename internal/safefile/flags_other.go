//go:build !unix

package safefile

// Without these flags the checks before each open stand alone.
const (
	noFollow = 0
	nonBlock = 0
)
