// Package assets holds the files arena embeds in its binaries: the games'
// preset configs and maps. Fonts come from golang.org/x/image/font/gofont.
package assets

import "embed"

// Life holds the Life battleground's preset configs, in the original's
// config.json shape: competition.json is the 2015 competition's
// configFinal.json (MIT, BEST Zagreb; see life/NOTICE).
//
//go:embed life/*.json life/NOTICE
var Life embed.FS
