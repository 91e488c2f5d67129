package ladder

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// CourseConfig is a course's ladders on one server, as its TOML file
// (arena ladder serve -config ladders.toml) says them:
//
//	dir = "term"            # the course's folder: its tokens, a folder a ladder
//	roster = "roster.csv"   # one roster for every ladder
//
//	[[ladder]]
//	name = "practice"       # its address (/l/practice/) and folder
//	game = "colosseum"
//	preset = "6"
//
//	[[ladder]]
//	name = "final"
//	title = "Assignment 2"
//	game = "colosseum"
//	graded = true
//	deadline = 2026-12-15T23:59:00-05:00
//	grace = "15m"
//	grade = "rank:1-3=100,4-10=90,*=75"
//	panel = ["ref-easy", "ref-hard"]
//	pseudonyms = true
//	top = 10
//
// Paths are relative to the file.
type CourseConfig struct {
	Dir     string         `toml:"dir"`
	Roster  string         `toml:"roster"`
	Ladders []LadderConfig `toml:"ladder"`
}

// LadderConfig is one ladder of a course.
type LadderConfig struct {
	Name       string    `toml:"name"`
	Title      string    `toml:"title"`
	Game       string    `toml:"game"`
	Preset     string    `toml:"preset"`
	Graded     bool      `toml:"graded"`
	Deadline   time.Time `toml:"deadline"`
	Grace      string    `toml:"grace"`
	Rounds     int       `toml:"rounds"`
	Grade      string    `toml:"grade"`
	Max        float64   `toml:"max"`
	Panel      []string  `toml:"panel"`
	Pseudonyms bool      `toml:"pseudonyms"`
	Top        int       `toml:"top"`
	Width      float64   `toml:"width"`

	// Read from the others.
	GradeRule *GradeRule    `toml:"-"`
	GraceTime time.Duration `toml:"-"`
}

// MaxLadders bounds a course's ladders on one server.
const MaxLadders = 20

// ReadCourseConfig reads a course's TOML file; its errors name the file
// and the line, and a key it does not know.
func ReadCourseConfig(path string) (*CourseConfig, error) {
	var c CourseConfig
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("%s: unknown keys %s (want dir, roster, and [[ladder]] tables of name, title, game, preset, graded, deadline, grace, rounds, grade, max, panel, pseudonyms, top, width)", path, strings.Join(keys, ", "))
	}
	here := filepath.Dir(path)
	for _, p := range []*string{&c.Dir, &c.Roster} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(here, *p)
		}
	}
	if c.Dir == "" || c.Roster == "" {
		return nil, fmt.Errorf("%s: dir and roster are required", path)
	}
	if len(c.Ladders) == 0 || len(c.Ladders) > MaxLadders {
		return nil, fmt.Errorf("%s: %d ladders: want 1 to %d [[ladder]] tables", path, len(c.Ladders), MaxLadders)
	}
	seen := map[string]bool{}
	for i := range c.Ladders {
		l := &c.Ladders[i]
		where := fmt.Sprintf("%s: ladder %d", path, i+1)
		if err := validLadderName(l.Name); err != nil {
			return nil, fmt.Errorf("%s: its name: %v", where, err)
		}
		if seen[l.Name] {
			return nil, fmt.Errorf("%s: the name %s is another ladder's", where, l.Name)
		}
		seen[l.Name] = true
		if l.Game == "" {
			return nil, fmt.Errorf("%s (%s): no game", where, l.Name)
		}
		if l.Grace != "" {
			if l.GraceTime, err = time.ParseDuration(l.Grace); err != nil {
				return nil, fmt.Errorf("%s (%s): grace %q: want a duration, as 15m", where, l.Name, l.Grace)
			}
		}
		if l.GradeRule, err = ParseGradeRule(l.Grade); err != nil {
			return nil, fmt.Errorf("%s (%s): %v", where, l.Name, err)
		}
		if l.Rounds == 0 {
			l.Rounds = 2
		}
		if l.Width == 0 {
			l.Width = DefaultWidth
		}
	}
	return &c, nil
}

// DeadlineOf is the ladder's deadline as the store keeps it (the zero
// Deadline: none).
func (l LadderConfig) DeadlineOf() Deadline {
	if l.Deadline.IsZero() {
		return Deadline{}
	}
	return Deadline{At: l.Deadline, Grace: l.GraceTime, Rounds: l.Rounds}
}
