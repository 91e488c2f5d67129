package ui

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/linktext"
)

// A link names a match by its settings, and a setup whose bots count
// nodes plays the same match wherever it is opened. A bot with a time
// budget does not: its link carries the match's moves too, deflated and
// in base64 (the moves parameter), and the page plays them as given
// before the bots take over.

// maxLinkMoves bounds the moves parameter, in characters: links longer
// than a few kilobytes break in mail and chat programs.
const maxLinkMoves = 6000

// maxMovesJSON bounds what a link's moves inflate to, so that a crafted
// link cannot make the page allocate without bound.
const maxMovesJSON = 4 << 20

// encodeMoves writes the actions of a record's turns as a link parameter.
func encodeMoves(rec *match.Record) (string, error) {
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
func linkMoves(setup match.Setup, rec *match.Record) (moves, note string) {
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
