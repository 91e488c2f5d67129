package render

import (
	"image/color"
	"maps"
	"slices"
	"strings"
)

// namedHues are the colours that things named by a colour are painted in
// (the colours of a map-colouring input): the course's letters and common
// colour names.
var namedHues = map[string]color.RGBA{
	"r": rgb(0xe05a5a), "red": rgb(0xe05a5a),
	"g": rgb(0x4fbf6a), "green": rgb(0x4fbf6a),
	"b": rgb(0x4f7fe0), "blue": rgb(0x4f7fe0),
	"y": rgb(0xe8c547), "yellow": rgb(0xe8c547),
	"o": rgb(0xe8913a), "orange": rgb(0xe8913a),
	"p": rgb(0x9d6ad8), "purple": rgb(0x9d6ad8),
	"c": rgb(0x46c2cc), "cyan": rgb(0x46c2cc),
	"w": rgb(0xe8ecf1), "white": rgb(0xe8ecf1),
	"k": rgb(0x3a3f47), "black": rgb(0x3a3f47),
	"pink": rgb(0xe07ab0), "brown": rgb(0x9a6b45), "grey": rgb(0x8d96a3), "gray": rgb(0x8d96a3),
	"teal": rgb(0x2f9e8f), "lime": rgb(0x9ccc48),
}

// otherHues paint the colours whose names are none of those, by index.
var otherHues = []color.RGBA{rgb(0xd4a373), rgb(0x7aa6c2), rgb(0xc9a0dc), rgb(0x8fbf8f),
	rgb(0xd98e8e), rgb(0xa3a3d9), rgb(0xc2b280), rgb(0x6fb7b7)}

// ColourOf is the colour that the index-th colour of a list, called name,
// is painted in: its hue when the name is a colour's, else a distinct one
// of its own.
func ColourOf(name string, index int) color.RGBA {
	if c, ok := namedHues[strings.ToLower(name)]; ok {
		return c
	}
	return otherHues[index%len(otherHues)]
}

// hues lists every colour ColourOf can return, for the GIF palette, in
// a fixed order: the palette must be the same on every run.
func hues() []color.RGBA {
	key := func(c color.RGBA) int { return int(c.R)<<16 | int(c.G)<<8 | int(c.B) }
	out := slices.Concat(slices.Collect(maps.Values(namedHues)), otherHues)
	slices.SortFunc(out, func(a, b color.RGBA) int { return key(a) - key(b) })
	return slices.Compact(out)
}
