package colosseum

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/internal/fileerr"
)

// Reference files recorded from the course code (reference/colosseum):
// generated boards (boards_2023.jsonl), whole games (traces_random_2023.jsonl)
// and the unit-test positions (unit_vectors_2023.json). Conform tells them
// apart by their content.

// Conform checks one reference file and returns what it checked.
func Conform(file string, read func(string) ([]byte, error)) (string, error) {
	data, err := read(file)
	if err != nil {
		return "", err
	}
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(trimmed, []byte("{")) && bytes.Contains(trimmed, []byte(`"positions"`)) && !bytes.Contains(firstLine(trimmed), []byte(`"seed"`)):
		return conformUnits(file, data)
	case bytes.Contains(firstLine(trimmed), []byte(`"type"`)):
		return conformTraces(file, data)
	case bytes.Contains(firstLine(trimmed), []byte(`"size_arg"`)):
		return conformBoards(file, data)
	}
	return "", fmt.Errorf("%s: not a Colosseum reference file (boards, traces or unit vectors)", file)
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// lines calls f with each non-empty line and its number.
func lines(file string, data []byte, f func(n int, line []byte) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := f(n, sc.Bytes()); err != nil {
			var fe *fileerr.FileError
			if e, ok := err.(*fileerr.FileError); ok {
				fe = e
			} else {
				fe = &fileerr.FileError{File: file, Line: n, Msg: err.Error()}
			}
			return fe
		}
	}
	return sc.Err()
}

// innerWalls lists a board's inner walls as the reference files do: each
// once, as [r, c, 1] (right of the cell) or [r, c, 2] (below it).
func innerWalls(b *Board) [][3]int {
	var out [][3]int
	for r := range b.N {
		for c := range b.N {
			if c < b.N-1 && b.Wall(Cell{r, c}, Right) {
				out = append(out, [3]int{r, c, 1})
			}
			if r < b.N-1 && b.Wall(Cell{r, c}, Down) {
				out = append(out, [3]int{r, c, 2})
			}
		}
	}
	return out
}

type boardRecord struct {
	Seed      uint32   `json:"seed"`
	SizeArg   *int     `json:"size_arg"`
	BoardSize int      `json:"board_size"`
	MaxStep   int      `json:"max_step"`
	P0        [2]int   `json:"p0"`
	P1        [2]int   `json:"p1"`
	Walls     [][3]int `json:"walls"`
}

// compareBoard reports the first difference between a generated state and
// a recorded board.
func compareBoard(s State, want boardRecord) error {
	got := innerWalls(&s.board)
	wantWalls := slices.Clone(want.Walls)
	slices.SortFunc(wantWalls, func(a, b [3]int) int { return slices.Compare(a[:], b[:]) })
	switch {
	case s.board.N != want.BoardSize:
		return fmt.Errorf("board size %d, want %d", s.board.N, want.BoardSize)
	case s.k != want.MaxStep:
		return fmt.Errorf("max_step %d, want %d", s.k, want.MaxStep)
	case s.pos[0] != Cell{want.P0[0], want.P0[1]}:
		return fmt.Errorf("p0 %v, want %v", s.pos[0], want.P0)
	case s.pos[1] != Cell{want.P1[0], want.P1[1]}:
		return fmt.Errorf("p1 %v, want %v", s.pos[1], want.P1)
	case !slices.Equal(got, wantWalls):
		return fmt.Errorf("walls %v, want %v", got, wantWalls)
	}
	return nil
}

func configFor(sizeArg *int) *Config {
	if sizeArg != nil {
		return Sized(*sizeArg)
	}
	return Course()
}

func conformBoards(file string, data []byte) (string, error) {
	n := 0
	err := lines(file, data, func(_ int, line []byte) error {
		var rec boardRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("want a board record: %v", err)
		}
		s := NewState(configFor(rec.SizeArg), uint64(rec.Seed))
		if err := compareBoard(s, rec); err != nil {
			return fmt.Errorf("seed %d, size %v: %v", rec.Seed, sizeText(rec.SizeArg), err)
		}
		n++
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d boards generated bit for bit", n), nil
}

func sizeText(p *int) string {
	if p == nil {
		return "drawn"
	}
	return fmt.Sprint(*p)
}

type traceRecord struct {
	Type      string   `json:"type"`
	Game      int      `json:"game"`
	Seed      uint32   `json:"seed"`
	Players   []string `json:"players"`
	BoardSize *int     `json:"board_size"`
	MaxStep   int      `json:"max_step"`
	P0, P1    [2]int
	Walls     [][3]int `json:"walls"`
	Turn      int      `json:"turn"`
	Player    string   `json:"player"`
	From, To  [2]int
	Dir       int             `json:"dir"`
	Requested json.RawMessage `json:"requested"`
	Walk      bool            `json:"random_walk"`
	End       bool            `json:"end"`
	Scores    [2]int          `json:"scores"`
	Winner    string          `json:"winner"`
	Turns     int             `json:"turns"`
}

// traceGame is one recorded game: its init record, moves and result.
type traceGame struct {
	init   traceRecord
	moves  []traceRecord
	result *traceRecord
	line   int
}

func conformTraces(file string, data []byte) (string, error) {
	var games []*traceGame
	err := lines(file, data, func(n int, line []byte) error {
		var r traceRecord
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("want a trace record: %v", err)
		}
		switch r.Type {
		case "init":
			games = append(games, &traceGame{init: r, line: n})
		case "move", "result":
			if len(games) == 0 {
				return fmt.Errorf("a %s record before any init record", r.Type)
			}
			g := games[len(games)-1]
			if r.Type == "move" {
				g.moves = append(g.moves, r)
			} else {
				g.result = &r
			}
		default:
			return fmt.Errorf("record type %q: want init, move or result", r.Type)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	moves := 0
	for _, g := range games {
		if err := replayTrace(g); err != nil {
			return "", &fileerr.FileError{File: file, Line: g.line, Msg: fmt.Sprintf("game %d (seed %d): %v", g.init.Game, g.init.Seed, err)}
		}
		moves += len(g.moves)
	}
	return fmt.Sprintf("%d games, %d moves replayed", len(games), moves), nil
}

// replayTrace plays a recorded game through the match loop: the course's
// random agent draws from the shared stream; a player that was an
// external program gets its recorded answers, which the engine replaces by
// the random walk when they are invalid, as the course's World.step does.
func replayTrace(g *traceGame) error {
	// The init record holds the board's size but not whether World drew
	// it or was given it; the two consume the stream differently, so take
	// the one that reproduces the recorded board.
	recorded := boardRecord{BoardSize: derefOr(g.init.BoardSize, 0), MaxStep: g.init.MaxStep,
		P0: g.init.P0, P1: g.init.P1, Walls: g.init.Walls}
	cfg := Course()
	if err := compareBoard(NewState(cfg, uint64(g.init.Seed)), recorded); err != nil {
		if cfg = configFor(g.init.BoardSize); compareBoard(NewState(cfg, uint64(g.init.Seed)), recorded) != nil {
			return fmt.Errorf("initial board: neither a drawn nor a given size reproduces it: %v", err)
		}
	}
	cfg.FirstMoveMs, cfg.MoveMs = 1<<30, 1<<30 // the simulator measured time, never enforced it
	var bots [2]match.Bot
	for side, name := range g.init.Players {
		switch {
		case name == "random_agent":
			bots[side], _ = newRandom(match.Options{})
		case strings.HasPrefix(name, "cmd:"):
			var asked []json.RawMessage
			for _, m := range g.moves {
				if m.Player == "AB"[side:side+1] {
					asked = append(asked, m.Requested)
				}
			}
			bots[side] = replayBot(asked)
		default:
			return fmt.Errorf("player %q: want random_agent or a cmd: program", name)
		}
	}
	states, moves, walked, err := playTrace(cfg, uint64(g.init.Seed), bots)
	if err != nil {
		return err
	}
	if len(states)-1 != len(g.moves) {
		return fmt.Errorf("the replay has %d moves, the trace %d", len(states)-1, len(g.moves))
	}
	for k, m := range g.moves {
		before, after := states[k], states[k+1]
		side := before.Mover()
		mv := moves[k]
		switch {
		case m.Player != side.String()[1:] && m.Player != "AB"[side:side+1]:
			return fmt.Errorf("move %d: %s moved, the trace says %s", k, side, m.Player)
		case before.pos[side] != Cell{m.From[0], m.From[1]}:
			return fmt.Errorf("move %d: from %v, want %v", k, before.pos[side], m.From)
		case mv.To != Cell{m.To[0], m.To[1]} || int(mv.Dir) != m.Dir:
			return fmt.Errorf("move %d: played %v, want %v,%v,%d", k, mv, m.To[0], m.To[1], m.Dir)
		case walked[k] != m.Walk:
			return fmt.Errorf("move %d: random walk %v, want %v", k, walked[k], m.Walk)
		case after.over != m.End || after.scores != m.Scores:
			return fmt.Errorf("move %d: end %v scores %v, want end %v scores %v", k, after.over, after.scores, m.End, m.Scores)
		}
	}
	if g.result != nil {
		last := states[len(states)-1]
		winner := map[match.Side]string{match.P1: "A", match.P2: "B", match.NoSide: "tie"}[last.Outcome().Winner]
		if last.scores != g.result.Scores || last.Turn() != g.result.Turns || (g.result.Winner != "" && winner != g.result.Winner) {
			return fmt.Errorf("result %s %v after %d moves, want %s %v after %d", winner, last.scores, last.Turn(), g.result.Winner, g.result.Scores, g.result.Turns)
		}
	}
	return nil
}

// playTrace plays a game as arena's match runner plays Colosseum (the
// course's turns, one side at a time; a move that fails or breaks the
// rules replaced by the random walk) and returns every state, every
// move played and whether the walk replaced it. It plays here, on the game
// API alone, so that the game's conformance needs no room that runs
// programs; TestConformTraces holds it to the recorded games.
func playTrace(cfg *Config, seed uint64, bots [2]match.Bot) ([]State, []Move, []bool, error) {
	start, err := Game{}.Start(cfg, seed)
	if err != nil {
		return nil, nil, nil, err
	}
	s := start.(State)
	states := []State{s}
	var moves []Move
	var walked []bool
	for s.ToMove() != match.Nobody {
		side := s.Mover()
		a, err := bots[side].Act(match.NewTurn(s, side, match.BotRand(seed, side, match.Options{}), match.Budget{}))
		if err == nil {
			err = s.Check(side, a)
		}
		if err != nil {
			a = Game{}.Substitute(s, side, nil, err)
		}
		var acts [2]match.Action
		acts[side] = a
		s = s.Apply(acts).(State)
		states, moves, walked = append(states, s), append(moves, a.(Move)), append(walked, err != nil)
	}
	return states, moves, walked, nil
}

func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// replayBot answers with recorded replies, in order.
func replayBot(replies []json.RawMessage) match.Bot {
	i := 0
	return match.BotFunc(func(t *match.Turn) (match.Action, error) {
		if i >= len(replies) {
			return nil, fmt.Errorf("no recorded reply left")
		}
		a, err := ParseReply(replies[i])
		i++
		return a, err
	})
}

type unitFile struct {
	Positions []struct {
		Name       string   `json:"name"`
		Size       int      `json:"size"`
		MaxStep    int      `json:"max_step"`
		P0         [2]int   `json:"p0"`
		P1         [2]int   `json:"p1"`
		Walls      [][3]int `json:"walls"`
		StepChecks []struct {
			To    [2]int `json:"to"`
			Dir   int    `json:"dir"`
			Valid bool   `json:"valid"`
		} `json:"step_checks_for_p0"`
		Endgame struct {
			Ended  bool   `json:"ended"`
			Scores [2]int `json:"scores"`
		} `json:"endgame"`
	} `json:"positions"`
}

func conformUnits(file string, data []byte) (string, error) {
	var uf unitFile
	if err := json.Unmarshal(data, &uf); err != nil {
		return "", fileerr.JSONError(file, data, err)
	}
	checks := 0
	for i, p := range uf.Positions {
		at := func(format string, args ...any) error {
			return fileerr.Errorf(file, data, []any{"positions", i}, "%s: "+format, append([]any{p.Name}, args...)...)
		}
		b := NewBoard(p.Size)
		for _, w := range p.Walls {
			b.SetWall(Cell{w[0], w[1]}, Dir(w[2]))
		}
		s := State{cfg: Sized(p.Size), board: b, pos: [2]Cell{{p.P0[0], p.P0[1]}, {p.P1[0], p.P1[1]}}, k: p.MaxStep}
		for _, c := range p.StepChecks {
			err := s.Check(match.P1, Move{Cell{c.To[0], c.To[1]}, Dir(c.Dir)})
			if (err == nil) != c.Valid {
				return "", at("move to %v side %d: valid %v, want %v (%v)", c.To, c.Dir, err == nil, c.Valid, err)
			}
			checks++
		}
		a, bb, over := b.regions(s.pos[0], s.pos[1])
		if over != p.Endgame.Ended || [2]int{a, bb} != p.Endgame.Scores {
			return "", at("end test: over %v scores %v, want %v %v", over, [2]int{a, bb}, p.Endgame.Ended, p.Endgame.Scores)
		}
	}
	return fmt.Sprintf("%d positions, %d move checks and their end tests", len(uf.Positions), checks), nil
}
