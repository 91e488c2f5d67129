package evasion

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arena-playground/arena/internal/fileerr"
)

// Golden transcripts (reference/evasion/golden, format in its README):
// every state the original server sent, both replies of each tick, the
// state after the game's last tick (FINAL) and the score (END). Conform
// replays them tick by tick through Field and the reply validation.

// maxTranscript bounds a transcript once decompressed.
const maxTranscript = 256 << 20

// Conform checks one transcript, gzipped or not, and returns what it
// checked.
func Conform(file string, read func(string) ([]byte, error)) (string, error) {
	data, err := read(file)
	if err != nil {
		return "", err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return "", fmt.Errorf("%s: %v", file, err)
		}
		data, err = io.ReadAll(io.LimitReader(zr, maxTranscript+1))
		if err != nil {
			return "", fmt.Errorf("%s: damaged gzip data: %v", file, err)
		}
		if len(data) > maxTranscript {
			return "", fmt.Errorf("%s: more than %d MB once decompressed", file, maxTranscript>>20)
		}
	}
	c := &transcript{file: file}
	if err := c.run(data); err != nil {
		return "", err
	}
	if c.games == 0 {
		return "", fmt.Errorf("%s: not an Evasion transcript (no PARAMS and GAME lines)", file)
	}
	return fmt.Sprintf("%d games, %d ticks, %d captures; every state, FINAL and END match", c.games, c.ticks, c.captures), nil
}

// transcript replays one file.
type transcript struct {
	file     string
	line     int
	maxWalls int
	delay    int
	params   bool
	game     int
	f        *Field
	state    bool  // a STATE line was checked and awaits its replies
	hunter   []int // the tick's hunter reply, once read
	prey     []int // the tick's prey reply
	captured bool  // the last tick captured
	ended    bool  // END seen for the game
	games    int   // games checked
	ticks    int   // ticks replayed
	captures int   // captures checked
}

func (c *transcript) errorf(format string, args ...any) error {
	return &fileerr.FileError{File: c.file, Line: c.line, Msg: fmt.Sprintf(format, args...)}
}

func (c *transcript) run(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		c.line++
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		tag, rest, _ := strings.Cut(text, " ")
		if err := c.record(tag, rest); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return c.errorf("%v", err)
	}
	if c.f != nil && !c.ended {
		return c.errorf("the file ends inside game %d, before its END line", c.game)
	}
	return nil
}

func (c *transcript) record(tag, rest string) error {
	switch tag {
	case "PARAMS":
		var err error
		if _, err = fmt.Sscanf(rest, "maxWalls=%d delay=%d", &c.maxWalls, &c.delay); err != nil {
			return c.errorf("PARAMS %q: want maxWalls=<n> delay=<n>", rest)
		}
		c.params = true
	case "GAME":
		if !c.params {
			return c.errorf("GAME before PARAMS")
		}
		if c.f != nil && !c.ended {
			return c.errorf("GAME before the END of game %d", c.game)
		}
		var g, h, p int
		if _, err := fmt.Sscanf(rest, "%d %d %d", &g, &h, &p); err != nil {
			return c.errorf("GAME %q: want <gameNum> <hunterPlayer> <preyPlayer>", rest)
		}
		if g < 0 || h == p || h < 1 || h > 2 || p < 1 || p > 2 {
			return c.errorf("GAME %q: want a game number and players 1 and 2", rest)
		}
		// The players' roles do not change the rules: the fuzz scripts,
		// run in-process, keep player 1 the hunter in both games.
		f := NewField(c.maxWalls, c.delay)
		c.f, c.game, c.ended, c.captured, c.state = &f, g, false, false, false
	case "STATE":
		if err := c.play(); err != nil {
			return err
		}
		if c.captured {
			return c.errorf("a state after the capture at tick %d", c.f.Tick)
		}
		if got := string(c.f.AppendState(nil, c.game)); got != rest {
			return c.errorf("state differs:\n  want %s\n  got  %s", rest, got)
		}
		c.state = true
	case "TIME":
		// The clocks the players were sent: machine time, not replayed.
	case "HUNTER", "PREY":
		if !c.state {
			return c.errorf("%s reply without a STATE before it", tag)
		}
		a, err := ParseReply(rest)
		if err != nil {
			return c.errorf("%s %v", strings.ToLower(tag), err)
		}
		if tag == "HUNTER" {
			c.hunter = a.Reply
		} else {
			c.prey = a.Reply
		}
	case "FINAL":
		if err := c.play(); err != nil {
			return err
		}
		if got := string(c.f.AppendState(nil, c.game)); got != rest {
			return c.errorf("final state differs:\n  want %s\n  got  %s", rest, got)
		}
	case "END":
		return c.end(rest)
	default:
		return c.errorf("unknown record %q (want PARAMS, GAME, STATE, TIME, HUNTER, PREY, FINAL or END)", tag)
	}
	return nil
}

// play applies the tick whose state and replies were read.
func (c *transcript) play() error {
	if c.f == nil || c.ended {
		return c.errorf("a state outside a game")
	}
	if !c.state {
		return nil
	}
	if c.hunter == nil || c.prey == nil {
		return c.errorf("tick %d lacks a HUNTER or PREY reply", c.f.Tick)
	}
	h, p, _ := Orders(c.game, c.f.Tick, c.hunter, c.prey)
	c.captured = c.f.Step(h, p)
	c.ticks++
	c.state, c.hunter, c.prey = false, nil, nil
	return nil
}

func (c *transcript) end(rest string) error {
	if c.f == nil || c.ended {
		return c.errorf("END outside a game")
	}
	if c.state {
		return c.errorf("END before the FINAL state")
	}
	var g int
	var captured string
	var score int64
	if _, err := fmt.Sscanf(rest, "%d captured=%s score=%d", &g, &captured, &score); err != nil {
		return c.errorf("END %q: want <gameNum> captured=<true|false> score=<ticks>", rest)
	}
	want, err := strconv.ParseBool(captured)
	if err != nil || g != c.game {
		return c.errorf("END %q: want game %d and captured=true or false", rest, c.game)
	}
	if c.captured != want {
		return c.errorf("game %d: capture is %v, the original says %v", g, c.captured, want)
	}
	if int64(c.f.Tick) != score {
		return c.errorf("game %d: score %d, the original says %d", g, c.f.Tick, score)
	}
	if c.captured {
		c.captures++
	}
	c.ended = true
	c.games++
	return nil
}
