package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/linktext"
)

// A link names a match by its settings, and a setup whose bots count
// nodes plays the same match wherever it is opened. A bot with a time
// budget does not: its link carries the match's moves too, deflated and
// in base64 (the moves parameter), and the page plays them as given
// before the bots take over.

// Link is a match as a link names it, and how it is shown: what the
// page's address carries (?game=life&p1=strong…), the desktop's flags,
// the start view's choices. It is read once (ParseLink), carried as one
// value to the board (App.startMatch), checked there without making a
// bot (Setup), and written back (Query).
type Link struct {
	Game, P1, P2, Preset string
	Seed                 uint64
	// Start opens the match at once: the link names a game.
	Start bool
	// Turn is where the match opens, paused (&turn=N, a replay's -turn);
	// -1 plays from the start.
	Turn float64
	// Moves are turns played as given before the bots take over (a match
	// with a bot on the clock); moves is their parameter as it came.
	Moves [][2]json.RawMessage
	moves string
	// Replay is the address of the replay the link opens (?replay=URL, a
	// ladder's or a tournament's game), or a file's name after
	// filePrefix for a replay dropped on the window, which no link can
	// carry: a replay's link opens the same replay, never a new match.
	Replay string
	// Bot is the source of the bot written in the page that the link
	// carries (its bot parameter), for the editor to open on.
	Bot string
	// Thinking draws what the bots thought over the board (thinking=1,
	// the T key); Analyse opens the analysis board (analyse=1, the A key).
	Thinking, Analyse bool
	// Err says why a part of the link could not be read: the match is
	// played anew without it.
	Err error
}

// ParseLink reads a link's parameters; a missing or unknown value keeps
// the default (Life, strong against greedy, a random seed).
func ParseLink(q url.Values) Link {
	l := Link{Game: "life", P1: "strong", P2: "greedy", Seed: randomSeed(), Turn: -1}
	if t, err := strconv.ParseFloat(q.Get("turn"), 64); err == nil && t >= 0 && !math.IsInf(t, 0) {
		l.Turn = t
	}
	if v := q.Get("game"); v != "" {
		l.Game, l.Start = v, true
	}
	if v := q.Get("p1"); v != "" {
		l.P1 = v
	}
	if v := q.Get("p2"); v != "" {
		l.P2 = v
	}
	l.Preset = q.Get("preset")
	if s, err := strconv.ParseUint(q.Get("seed"), 10, 64); err == nil {
		l.Seed = s
	}
	if m := q.Get("moves"); m != "" {
		l.Moves, l.Err = decodeMoves(m)
		l.moves = m
	}
	if r := q.Get("replay"); !isFile(r) { // a link names no dropped file
		l.Replay = r
	}
	l.Thinking = q.Get("thinking") == "1"
	l.Analyse = q.Get("analyse") == "1"
	if b := q.Get("bot"); b != "" {
		var err error
		if l.Bot, err = decodeSource(b); err != nil && l.Err == nil {
			l.Err = err
		}
	}
	return l
}

// Query writes the link's match and view as URL parameters; not its bot
// (Options.Query adds the editor's) nor its moves (copyLink adds them
// when the match needs them). A replay's link names the replay, and a
// replay dropped as a file has none (nil).
func (l Link) Query() url.Values {
	q := url.Values{}
	switch {
	case isFile(l.Replay):
		return nil
	case l.Replay != "":
		q.Set("replay", l.Replay)
	default:
		q.Set("game", l.Game)
		q.Set("p1", l.P1)
		q.Set("p2", l.P2)
		q.Set("seed", strconv.FormatUint(l.Seed, 10))
		if l.Preset != "" && !isFile(l.Preset) { // a link cannot carry a file
			q.Set("preset", l.Preset)
		}
	}
	if l.Thinking {
		q.Set("thinking", "1")
	}
	if l.Analyse {
		q.Set("analyse", "1")
	}
	return q
}

// Setup is the match the link names, checked without making a bot: a
// person is "you", a preset may be the file loaded last, and programs are
// checked as h would run them, not started (the match starts each once).
func (l Link) Setup(file *loadedFile, h play.Hosting) (play.Setup, error) {
	game, p1, p2, preset, seed := l.Game, l.P1, l.P2, l.Preset, l.Seed
	g, err := match.Lookup(game)
	if err != nil {
		return play.Setup{}, err
	}
	s := play.Setup{Game: g, Seed: seed, Config: match.DefaultConfig(g), Hosting: h}
	switch {
	case isFile(preset):
		if file == nil || file.game != game || file.preset() != preset {
			return s, fmt.Errorf("%s is not loaded: drop the file on the window", strings.TrimPrefix(preset, filePrefix))
		}
		s.Config = file.cfg
	case preset != "":
		p, err := match.LookupPreset(g, preset)
		if err != nil {
			return s, err
		}
		s.Config = p.Config
	}
	for side, spec := range [2]string{p1, p2} {
		sp, err := play.ParseSpec(spec)
		if err != nil {
			return s, err
		}
		switch {
		case sp.Name == You:
			if humans[game] == nil {
				return s, fmt.Errorf("%s cannot be played by a person yet", game)
			}
		case strings.HasPrefix(spec, servedPrefix), spec == PageBot:
			// An offered program is checked against the programs offered
			// (App.startMatch): only the machine that offers it can make
			// it; the page's bot, by the worker that interprets it.
		default:
			if _, _, err := play.CheckBot(g, sp, h); err != nil {
				return s, err
			}
		}
		s.Players[side] = sp
	}
	return s, nil
}

// maxLinkMoves bounds the moves parameter, in characters: links longer
// than a few kilobytes break in mail and chat programs.
const maxLinkMoves = 6000

// maxMovesJSON bounds what a link's moves inflate to, so that a crafted
// link cannot make the page allocate without bound.
const maxMovesJSON = 4 << 20

// encodeMoves writes the actions of a record's turns as a link parameter.
func encodeMoves(rec *play.Record) (string, error) {
	rp, err := rec.Replay()
	if err != nil {
		return "", err
	}
	moves := make([][2]json.RawMessage, len(rp.Turns))
	for i, t := range rp.Turns {
		moves[i] = t.Actions
	}
	data, err := json.Marshal(moves)
	if err != nil {
		return "", err
	}
	return linktext.Encode(string(data)), nil
}

// decodeMoves reads a link's moves parameter.
func decodeMoves(s string) ([][2]json.RawMessage, error) {
	if len(s) > 4*maxLinkMoves {
		return nil, fmt.Errorf("the link's moves are %d characters, more than a link carries", len(s))
	}
	data, err := linktext.Decode(s, maxMovesJSON)
	if errors.Is(err, linktext.ErrTooLong) {
		return nil, fmt.Errorf("the link's moves inflate past %d MB", maxMovesJSON>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("the link's moves are %v", err)
	}
	var moves [][2]json.RawMessage
	if err := json.Unmarshal([]byte(data), &moves); err != nil {
		return nil, fmt.Errorf("the link's moves are damaged: %v", err)
	}
	return moves, nil
}

// maxSourceBytes bounds what a link's bot inflates to: the most source a
// bot may have (gobot/interp.MaxSource).
const maxSourceBytes = 1 << 20

// encodeSource writes a bot's source as a link parameter, deflated and in
// base64, or says why a link cannot carry it.
func encodeSource(src string) (string, error) {
	enc := linktext.Encode(src)
	if len(enc) > maxLinkMoves {
		return "", fmt.Errorf("the bot's source is %d characters in a link, more than the %d a link carries: download it from the editor and share the file", len(enc), maxLinkMoves)
	}
	return enc, nil
}

// decodeSource reads a link's bot parameter.
func decodeSource(s string) (string, error) {
	if len(s) > 4*maxLinkMoves {
		return "", fmt.Errorf("the link's bot is %d characters, more than a link carries", len(s))
	}
	src, err := linktext.Decode(s, maxSourceBytes)
	if errors.Is(err, linktext.ErrTooLong) {
		return "", fmt.Errorf("the link's bot inflates past %d MB", maxSourceBytes>>20)
	}
	if err != nil {
		return "", fmt.Errorf("the link's bot is %v", err)
	}
	return src, nil
}

// linkBot returns the bot parameter of a link to a match that has the
// bot written in the page in a seat ("" when it has none), and why it
// cannot carry it.
func (o *Options) linkBot() (string, error) {
	if o.Editor == nil || (o.P1 != PageBot && o.P2 != PageBot) {
		return "", nil
	}
	return encodeSource(o.Editor.Source(o.Game))
}

// linkMoves returns the moves a link to this match must carry ("" when
// its setup replays it alone) and what to tell the person about it.
func linkMoves(setup play.Setup, rec *play.Record) (moves, note string) {
	var timed []string
	for _, sp := range setup.Players {
		if sp.Timed() {
			timed = append(timed, sp.String())
		}
	}
	if timed == nil {
		return "", ""
	}
	enc, err := encodeMoves(rec)
	switch {
	case err != nil:
		return "", fmt.Sprintf("the link will play a new match: its moves cannot be written (%v)", err)
	case len(enc) > maxLinkMoves:
		return "", fmt.Sprintf("the link will play a new match: %s thinks on the clock, and the %d turns do not fit in a link (%d characters)", timed[0], len(rec.Turns), len(enc))
	case rec.Result == nil:
		return enc, fmt.Sprintf("the link carries the %d turns computed so far; the bots play on from there", len(rec.Turns))
	}
	return enc, fmt.Sprintf("the link carries the match's %d turns, since %s thinks on the clock", len(rec.Turns), timed[0])
}
