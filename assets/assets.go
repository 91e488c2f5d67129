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

// MapColor holds the map-colouring game's maps in the course's input
// format (australia.txt is the course's own example) and the positions
// they are drawn at (.pos: longitude and latitude per state). The
// adjacency of the United States was written by this project, and its
// weights are the playground's mirrored table (each player values the
// colours 10, 7, 5 and 2, P1 red most and P2 blue).
//
//go:embed mapcolor/*.txt mapcolor/*.pos
var MapColor embed.FS

// PathGame holds the adversarial-shortest-path graphs in the course's text
// format: the 2017 server's samples (advshort.txt, 300 nodes, and
// short_game.txt) and the fall-2016 graph (see pathgame/NOTICE).
//
//go:embed pathgame/*.txt pathgame/NOTICE pathgame/LICENSE
var PathGame embed.FS
