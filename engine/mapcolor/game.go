package mapcolor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arena-playground/arena/assets"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
)

// Game is the map-colouring game in the registry.
type Game struct{}

func init() { match.Register(Game{}) }

// Info describes the game.
func (Game) Info() match.Info {
	return match.Info{Name: "mapcolor", Title: "Map colouring by alpha-beta (USC CSCI 561, 2017)", Key: 3, Variants: []string{"course"}}
}

// Config names a map: a built-in one, a random map of regions, or a
// course input file; Depth, when set, replaces the input's search depth.
type Config struct {
	Map     string // "australia", "usa", "voronoi", or "input"
	Regions int    // for "voronoi"
	Input   string // the course input text, for "input"
	Name    string // what the input is called (its file), for "input"
	Depth   int    // 0: the input's depth
}

// Variant is the course's rules.
func (c *Config) Variant() string { return "course" }

// MaxTurns is unknown ahead: the game ends when no state can be coloured.
func (c *Config) MaxTurns() int { return 0 }

type fileConfig struct {
	Map     string `json:"map,omitempty"`
	Regions int    `json:"regions,omitempty"`
	Input   string `json:"input,omitempty"`
	Name    string `json:"name,omitempty"`
	Depth   int    `json:"depth,omitempty"`
}

// MarshalJSON writes the config as ParseConfig reads it.
func (c *Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(fileConfig{c.Map, c.Regions, c.Input, c.Name, c.Depth})
}

// ParseConfig reads {"map": "usa", "depth": 3}, {"map": "voronoi",
// "regions": 24}, or a course input file as it is.
func ParseConfig(file string, data []byte) (*Config, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		if _, err := ParseProblem(file, data); err != nil {
			return nil, err
		}
		return &Config{Map: "input", Input: string(data), Name: filepath.Base(file)}, nil
	}
	var f fileConfig
	if err := fileerr.DecodeJSON(file, data, &f); err != nil {
		return nil, err
	}
	c := &Config{Map: f.Map, Regions: f.Regions, Input: f.Input, Name: f.Name, Depth: f.Depth}
	at := func(key, format string, args ...any) error {
		return fileerr.Errorf(file, data, []any{key}, format, args...)
	}
	switch c.Map {
	case "australia", "usa":
	case "voronoi":
		if c.Regions < 4 || c.Regions > 120 {
			return nil, at("regions", "a random map of %d regions: want 4 to 120", c.Regions)
		}
	case "input":
		if _, err := ParseProblem(file+": input", []byte(c.Input)); err != nil {
			return nil, err
		}
	default:
		return nil, at("map", `map %q: want "australia", "usa", "voronoi" or "input"`, c.Map)
	}
	if c.Depth < 0 || c.Depth > 12 {
		return nil, at("depth", "depth %d: want 0 to 12 (0: the input's)", c.Depth)
	}
	return c, nil
}

// world is what a config makes: the problem and how to draw it.
type world struct {
	name  string
	p     *Problem
	geo   Geometry
	depth int
}

// builtin reads a map of the assets, once.
var builtin = sync.OnceValue(func() map[string]*world {
	out := map[string]*world{}
	for _, name := range []string{"australia", "usa"} {
		text, err := assets.MapColor.ReadFile("mapcolor/" + name + ".txt")
		if err != nil {
			panic(err)
		}
		p, err := ParseProblem(name+".txt", text)
		if err != nil {
			panic(err)
		}
		pos, err := readPositions(name, p)
		if err != nil {
			panic(err)
		}
		out[name] = &world{name: name, p: p, geo: Geometry{Pos: pos}, depth: p.Depth}
	}
	spread(out["usa"].geo.Pos, 0.045)
	return out
})

// readPositions reads a .pos file: a state, its longitude and latitude.
func readPositions(name string, p *Problem) ([]Point, error) {
	data, err := assets.MapColor.ReadFile("mapcolor/" + name + ".pos")
	if err != nil {
		return nil, err
	}
	lonlat := make([]Point, len(p.States))
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || strings.HasPrefix(f[0], "#") {
			continue
		}
		i := slices.Index(p.States, f[0])
		x, e1 := strconv.ParseFloat(f[1], 64)
		y, e2 := strconv.ParseFloat(f[2], 64)
		if i < 0 || e1 != nil || e2 != nil {
			return nil, fmt.Errorf("%s.pos: line %q", name, sc.Text())
		}
		lonlat[i] = Point{x, y}
		found++
	}
	if found != len(p.States) {
		return nil, fmt.Errorf("%s.pos: %d of %d states placed", name, found, len(p.States))
	}
	return project(lonlat), nil
}

// makeWorld builds the world of a config; random maps come from the seed.
func makeWorld(c *Config, seed uint64) (*world, error) {
	var w *world
	switch c.Map {
	case "australia", "usa":
		b := *builtin()[c.Map]
		w = &b
	case "voronoi":
		w = voronoiWorld(c.Regions, seed)
	case "input":
		p, err := ParseProblem("input", []byte(c.Input))
		if err != nil {
			return nil, err
		}
		name := "input"
		if c.Name != "" {
			name = c.Name
		}
		w = &world{name: name, p: p, geo: Geometry{Pos: forceLayout(p.Adj)}, depth: p.Depth}
	default:
		return nil, fmt.Errorf("map %q", c.Map)
	}
	if c.Depth > 0 {
		w.depth = c.Depth
	}
	return w, nil
}

// voronoiWorld is a random map of n regions made from a seed.
func voronoiWorld(n int, seed uint64) *world {
	cells, adj, sites := randomRegions(n, seed)
	p, err := ParseProblem("voronoi", []byte(voronoiInput(adj, seed)))
	if err != nil {
		panic(err) // the map is made here: an error is a bug
	}
	return &world{name: fmt.Sprintf("voronoi-%d", n), p: p, geo: Geometry{Pos: sites, Cells: cells}, depth: p.Depth}
}

// voronoiInput writes a random map as a course input: regions R01, R02,
// ... (R001 from 100 regions, so that the names sort as numbered), four
// colours with the weights of the playground's maps (mirrored: each
// player values the colours 10, 7, 5 and 2, P1 red most, P2 blue, so
// that neither side is favoured by its table), and two neighbouring
// regions coloured to start, P1's first.
func voronoiInput(adj [][]int, seed uint64) string {
	name := func(i int) string { return fmt.Sprintf("R%0*d", max(2, len(fmt.Sprint(len(adj)))), i+1) }
	var b strings.Builder
	b.WriteString("B, G, R, Y\n")
	first := int(seed % uint64(len(adj)))
	if len(adj[first]) == 0 {
		first = 0
	}
	fmt.Fprintf(&b, "%s: R-1, %s: G-2\n3\n", name(first), name(adj[first][0]))
	b.WriteString("B: 2, G: 5, R: 10, Y: 7\nB: 10, G: 7, R: 2, Y: 5\n")
	for i, nbrs := range adj {
		var names []string
		for _, j := range nbrs {
			names = append(names, name(j))
		}
		fmt.Fprintf(&b, "%s: %s\n", name(i), strings.Join(names, ", "))
	}
	return b.String()
}

// Presets are the course's Australia, the United States, and random maps.
func (Game) Presets() []match.Preset {
	return []match.Preset{
		{Name: "australia", Description: "the course's example: 6 states, depth 3", Config: &Config{Map: "australia"}},
		{Name: "usa", Description: "the 48 contiguous states and DC, 4 colours with mirrored weights, depth 3", Config: &Config{Map: "usa"}},
		{Name: "voronoi", Description: "a random map of 24 regions from the seed, 4 colours with mirrored weights, depth 3", Config: &Config{Map: "voronoi", Regions: 24}},
		{Name: "voronoi-60", Description: "a random map of 60 regions from the seed, depth 2", Config: &Config{Map: "voronoi", Regions: 60, Depth: 2}},
	}
}

// LoadConfig reads a config or a course input file.
func (Game) LoadConfig(file string, data []byte) (match.Config, error) {
	return ParseConfig(file, data)
}

// Start colours the initial assignment; Player 1 moves first.
func (Game) Start(cfg match.Config, seed uint64) (match.State, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("mapcolor: config of type %T", cfg)
	}
	w, err := makeWorld(c, seed)
	if err != nil {
		return nil, err
	}
	return newState(w), nil
}

// DecodeAction reads {"state": "NSW", "colour": "B"}.
func (Game) DecodeAction(data []byte) (match.Action, error) {
	var m Move
	err := json.Unmarshal(data, &m)
	return m, err
}

// Clock: the course set no time limit.
func (Game) Clock(match.Config, match.Side) match.Clock { return nil }

// Conform checks a course input against its expected output.
func (Game) Conform(file string, read func(string) ([]byte, error)) (string, error) {
	return Conform(file, read)
}
