package mapcolor

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// strongNodes is strong's default budget a move: deterministic, and a
// few hundredths of a second here.
const strongNodes = 400_000

// gameNodes bounds strong's nodes in a whole game: a move gets its
// budget or an even share of this over its moves to come, whichever is
// less. The presets (60 states at most) never reach it; a map of 10,000
// states would otherwise take strong a second a move for 5,000 moves;
// with it a game of 400 states takes it about a minute.
const gameNodes = 20_000_000

// wideNode is the moves past which a node counts as more than one: move
// generation and ordering cost the moves, and a map of 10,000 states has
// hundreds. The presets' nodes stay under it.
const wideNode = 128

// searchBot is arena's own search, stronger than the course's: negamax
// alpha-beta deepened one ply at a time under a node budget, past the
// course's depth as far as the budget reaches (to the end of the game
// when few states are left); a transposition table keyed by the
// colourings themselves (which state has which colour, coloured by whom:
// the order they were coloured in does not matter, and neither does the
// score, which they decide); moves ordered by the table's best move, then
// the killer moves of the ply, then the mover's weight of the colour.
type searchBot struct {
	maxDepth int
	keys     *zobrist
	tt       []ttEntry
	// exact cuts off with the table's entries of the same depth only, so
	// that every value is the fixed-depth search's (the analysis).
	exact bool
}

// ttEntry is what the table keeps of a position searched.
type ttEntry struct {
	key   uint64
	value int32
	depth int8 // plies searched below it
	bound int8 // exact, lower or upper
	best  move
}

const (
	exact = iota
	lower
	upper
)

// ttSize is the table's entries (a power of two): 4 MB.
const ttSize = 1 << 18

// zobrist gives each (state, colour, owner) a random key: a position's
// key is the XOR of its colourings', whatever their order.
type zobrist struct {
	keys []uint64 // (state*colours + colour)*2 + owner
	side uint64
}

func newZobrist(p *Problem) *zobrist {
	r := rand.New(rand.NewPCG(0x5eed, uint64(len(p.States))))
	z := &zobrist{keys: make([]uint64, len(p.States)*len(p.Colours)*2), side: r.Uint64()}
	for i := range z.keys {
		z.keys[i] = r.Uint64()
	}
	return z
}

// colouring is a state's key: its colourings', whoever coloured them.
func (z *zobrist) colouring(s State, ncolour int) uint64 {
	var key uint64
	for i, c := range s.colour {
		if c >= 0 {
			key ^= z.of(move{i, int(c)}, ncolour, match.Side(s.owner[i]))
		}
	}
	return key
}

func (z *zobrist) of(m move, ncolour int, side match.Side) uint64 {
	return z.keys[(m.state*ncolour+m.colour)*2+int(side)]
}

func newSearchBot(o match.Options) (match.Bot, error) {
	d, err := o.Int("depth", 0)
	if err != nil {
		return nil, err
	}
	if d < 0 || d > 64 {
		return nil, fmt.Errorf("depth %d: want 1 to 64 (0: as deep as the budget allows)", d)
	}
	return &searchBot{maxDepth: d}, nil
}

// deepSearch is one move's search.
type deepSearch struct {
	pos     *position
	bot     *searchBot
	t       *match.Turn
	key     uint64
	must    bool // the first iteration finishes whatever the budget: there must be a move
	stopped bool
	killers [][2]move
	buf     [][]move
	nodes   int64
	scored  []scoredMove // the root's moves and values in this iteration (bounds but for the best)
}

func (b *searchBot) Act(t *match.Turn) (match.Action, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	p := s.w.p
	if b.keys == nil || len(b.keys.keys) != len(p.States)*len(p.Colours)*2 {
		b.keys, b.tt = newZobrist(p), make([]ttEntry, ttSize)
	}
	pos := s.position()
	t.Limit(gameNodes / int64(pos.left/2+1)) // a game's share over the bot's moves to come
	ds := &deepSearch{pos: pos, bot: b, t: t, key: b.keys.colouring(s, pos.ncolour)}
	left := pos.left
	limit := left
	if b.maxDepth > 0 {
		limit = min(limit, b.maxDepth)
	}
	ds.killers = make([][2]move, limit+2)
	ds.buf = make([][]move, limit+2)
	var best move
	var bestValue int
	have, done := false, 0
	var root []scoredMove
	for d := 1; d <= max(limit, 1); d++ {
		m, v, ok := ds.root(d, t.Side, !have)
		if ok {
			best, bestValue, have, done = m, v, true, d
			root = append(root[:0], ds.scored...)
		}
		if ds.stopped || !ok {
			break
		}
	}
	if !have {
		return nil, fmt.Errorf("no legal move")
	}
	t.Note.Depth, t.Note.Nodes = done, t.Nodes()
	t.Note.SetEval(float64(bestValue) / 2)
	if done == left {
		t.Note.Text = "searched to the end of the game"
	}
	// The line, in the panel and on the map: each state of it numbered
	// in the colour of the side that colours it.
	for _, m := range ds.follow(best, t.Side, done) {
		t.Note.Line = append(t.Note.Line, p.States[m.state]+":"+p.Colours[m.colour])
		t.Note.Expect(match.AtState(m.state))
	}
	markStates(&t.Note, p, root, 0.5, &best) // the eval's scale: its values are half-points
	return Move{p.States[best.state], p.Colours[best.colour]}, nil
}

// root searches the position to depth and returns the best move and its
// value for the side to move; false when the budget ran out before the
// first move was searched (must, for the first iteration, ignores the
// budget: there must be a move).
func (ds *deepSearch) root(depth int, side match.Side, must bool) (move, int, bool) {
	moves := ds.ordered(0, side, ds.pos.moves(nil))
	if len(moves) == 0 {
		return move{}, 0, false
	}
	ds.must = must
	alpha, beta := -Inf, Inf
	var best move
	found := false
	ds.scored = ds.scored[:0]
	for _, m := range moves {
		ds.play(m, side)
		v := -ds.negamax(depth-1, 1, -beta, -alpha, side.Other())
		ds.undo(m, side)
		if ds.stopped {
			return move{}, 0, false // unfinished: the last finished depth's move stands
		}
		ds.scored = append(ds.scored, scoredMove{m, v})
		if !found || v > alpha {
			best, alpha, found = m, v, true
		}
	}
	ds.must = false
	ds.store(depth, alpha, exact, best)
	return best, alpha, found
}

// negamax is the value of the position for side, searched depth plies.
func (ds *deepSearch) negamax(depth, ply, alpha, beta int, side match.Side) int {
	ds.nodes++
	if !ds.t.Spend(1) && !ds.must {
		ds.stopped = true
	}
	if ds.stopped {
		return 0
	}
	key := ds.key
	if side == match.P2 {
		key ^= ds.bot.keys.side
	}
	e := &ds.bot.tt[key&(ttSize-1)]
	var hint move
	hinted := false
	if e.key == key {
		hint, hinted = e.best, true
		if int(e.depth) == depth || !ds.bot.exact && int(e.depth) > depth {
			v := int(e.value)
			switch {
			case e.bound == exact:
				return v
			case e.bound == lower && v >= beta:
				return v
			case e.bound == upper && v <= alpha:
				return v
			}
		}
	}
	moves := ds.pos.moves(ds.buf[ply])
	ds.buf[ply] = moves
	if len(moves) >= wideNode { // a node costs its moves: count them on wide maps
		ds.t.Spend(int64(len(moves) / wideNode))
	}
	sign := 1
	if side == match.P2 {
		sign = -1
	}
	if len(moves) == 0 {
		return sign * 2 * ds.pos.score // the end: exact
	}
	if depth == 0 {
		return sign*ds.eval() + ds.tempo(moves, side)
	}
	moves = ds.orderedWith(ply, side, moves, hint, hinted)
	a0 := alpha
	best := moves[0]
	v := -Inf
	for _, m := range moves {
		ds.play(m, side)
		c := -ds.negamax(depth-1, ply+1, -beta, -alpha, side.Other())
		ds.undo(m, side)
		if ds.stopped {
			return 0
		}
		if c > v {
			v, best = c, m
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			k := &ds.killers[ply]
			if k[0] != m {
				k[1], k[0] = k[0], m
			}
			break
		}
	}
	bound := exact
	switch {
	case v <= a0:
		bound = upper
	case v >= beta:
		bound = lower
	}
	ds.storeAt(e, key, depth, v, bound, best)
	return v
}

// eval is the position's value for P1, doubled: the score so far, and a
// quarter of what the states not yet coloured are worth to P1 more than
// to P2 (the best weight each could still give a state, its neighbours'
// colours barred): a colouring that bars a colour from its neighbours
// takes that from whoever wanted it. The weight was chosen against the
// course's searches: score alone, or the potential at a half or more,
// lost more games to them.
func (ds *deepSearch) eval() int {
	pos := ds.pos
	c := pos.ncolour
	w1, w2 := pos.p.Weights[match.P1], pos.p.Weights[match.P2]
	pot := 0
	for _, s := range pos.front {
		used := pos.used[int(s)*c : (int(s)+1)*c]
		b1, b2 := 0, 0
		for ci, n := range used {
			if n == 0 {
				b1, b2 = max(b1, w1[ci]), max(b2, w2[ci])
			}
		}
		pot += b1 - b2
	}
	// States no colouring borders yet have every colour open.
	pot += (pos.left - len(pos.front)) * (max(0, slices.Max(w1)) - max(0, slices.Max(w2)))
	return 2*pos.score + pot/2
}

// tempo is what having the move is worth to the side to move, in eval's
// doubled units: a quarter of its best colouring now. A leaf after the
// mover's own move otherwise counts that move and not the reply, and the
// value swings with the depth's parity. Against the course's depth-3
// search on 24-region maps (200 games) this lifted strong from 89.8% to
// 91.8%; half a move scored 91.0%.
func (ds *deepSearch) tempo(moves []move, side match.Side) int {
	w := ds.pos.p.Weights[side]
	best := 0
	for _, m := range moves {
		best = max(best, w[m.colour])
	}
	return best / 2
}

func (ds *deepSearch) store(depth, v, bound int, best move) {
	key := ds.key // the root: its side is the turn's
	if ds.t.Side == match.P2 {
		key ^= ds.bot.keys.side
	}
	ds.storeAt(&ds.bot.tt[key&(ttSize-1)], key, depth, v, bound, best)
}

// storeAt replaces an entry unless it holds the same position searched
// deeper.
func (ds *deepSearch) storeAt(e *ttEntry, key uint64, depth, v, bound int, best move) {
	if e.key == key && int(e.depth) > depth {
		return
	}
	*e = ttEntry{key: key, value: int32(v), depth: int8(min(depth, 127)), bound: int8(bound), best: best}
}

func (ds *deepSearch) play(m move, side match.Side) {
	ds.pos.play(m, side)
	ds.key ^= ds.bot.keys.of(m, ds.pos.ncolour, side)
}

func (ds *deepSearch) undo(m move, side match.Side) {
	ds.pos.undo(m, side)
	ds.key ^= ds.bot.keys.of(m, ds.pos.ncolour, side)
}

// ordered sorts the root's moves: the table's best first.
func (ds *deepSearch) ordered(ply int, side match.Side, moves []move) []move {
	key := ds.key
	if side == match.P2 {
		key ^= ds.bot.keys.side
	}
	e := &ds.bot.tt[key&(ttSize-1)]
	return ds.orderedWith(ply, side, moves, e.best, e.key == key)
}

// orderedWith sorts moves in place: the hint, the ply's killers, then by
// the mover's weight, the heaviest first (stable: the course's order
// breaks ties).
func (ds *deepSearch) orderedWith(ply int, side match.Side, moves []move, hint move, hinted bool) []move {
	w := ds.pos.p.Weights[side]
	k := ds.killers[ply]
	rank := func(m move) int {
		switch {
		case hinted && m == hint:
			return 1 << 40
		case m == k[0]:
			return 1 << 39
		case m == k[1]:
			return 1 << 38
		}
		return w[m.colour]
	}
	slices.SortStableFunc(moves, func(a, b move) int { return rank(b) - rank(a) })
	return moves
}

// follow is the line the table holds from first, side's move: the moves
// alternate from side, up to depth (and 12) of them.
func (ds *deepSearch) follow(first move, side match.Side, depth int) []move {
	var played []move
	m := first
	for i := 0; i < depth && i < 12; i++ {
		ds.play(m, side)
		played = append(played, m)
		side = side.Other()
		key := ds.key
		if side == match.P2 {
			key ^= ds.bot.keys.side
		}
		e := ds.bot.tt[key&(ttSize-1)]
		legal := ds.pos.moves(nil)
		if e.key != key || !slices.Contains(legal, e.best) {
			break
		}
		m = e.best
	}
	for i := len(played) - 1; i >= 0; i-- {
		side = side.Other()
		ds.undo(played[i], side)
	}
	return played
}
