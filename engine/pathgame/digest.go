//go:build !js

package pathgame

import (
	"crypto/sha1"
	"encoding/hex"
)

// adjacencyDigest is the SHA-1 of a large graph's adjacency, as the golden
// traces record it (ADJ_SHA1). SHA-1 brings Go's FIPS module with it, 50 KB
// of the page's first load; the page traces no scenario, and its build
// says so instead (digest_js.go).
func adjacencyDigest(adj []byte) string {
	sum := sha1.Sum(adj)
	return hex.EncodeToString(sum[:])
}
