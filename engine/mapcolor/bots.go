package mapcolor

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/arena-playground/arena/engine/match"
)

// Bots lists the game's bots.
func (Game) Bots() []match.BotInfo {
	return []match.BotInfo{
		{Name: "random", Description: "a random legal colouring",
			New: func(match.Options) (match.Bot, error) { return match.BotFunc(randomAct), nil }},
		{Name: "greedy", Description: "the colouring worth the most to itself now",
			Marks: "states, by the weight its best colour there is worth to it now (points)",
			New:   func(match.Options) (match.Bot, error) { return match.BotFunc(greedyAct), nil }},
		{Name: "course", Description: "the course's alpha-beta search from the current position, to the input's depth, as arena csp writes it",
			Marks:   "states, by the course's search value of its best colour there: P1's score less P2's at the depth, from the mover's side (points; ≤: a bound)",
			Options: []match.OptionInfo{match.OptNodes, {Name: "depth", Description: "search depth (default: the input's)"}},
			New:     newCourse},
		{Name: "strong", Description: "deepening alpha-beta past the course's depth, a transposition table of colourings, killer and weight ordering",
			Marks:   "states, by its search's value of the best colour there: its score less the opponent's at the depth searched (points; ≤: a bound)",
			Options: []match.OptionInfo{match.OptNodes, {Name: "depth", Description: "the deepest it searches (default: as deep as the budget allows)"}},
			Budget:  match.Budget{Nodes: strongNodes},
			New:     newSearchBot},
	}
}

func stateOf(t *match.Turn) (State, error) {
	s, ok := t.State.(State)
	if !ok {
		return State{}, fmt.Errorf("mapcolor bot given a %T", t.State)
	}
	return s, nil
}

func randomAct(t *match.Turn) (match.Action, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	ms := s.Moves()
	return ms[t.Rand.IntN(len(ms))], nil
}

// greedyAct plays the colouring with the highest weight for its own side;
// ties go to the first in the course's order.
func greedyAct(t *match.Turn) (match.Action, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	w := s.w.p.Weights[t.Side]
	best, bestW := Move{}, -1<<62
	var weighed []scoredMove
	for _, m := range s.Moves() {
		st, c, _ := s.index(m)
		weighed = append(weighed, scoredMove{move{st, c}, w[c]})
		if w[c] > bestW {
			best, bestW = m, w[c]
		}
	}
	markStates(&t.Note, s.w.p, weighed, 1, nil)
	t.Note.SetEval(float64(bestW))
	t.Note.Text = fmt.Sprintf("weight %d now", bestW)
	return best, nil
}

// courseBot is the course's search: alpha-beta to the depth, from the
// current position, P1 maximising and P2 minimising Score(P1) - Score(P2),
// the best move being the first strictly better root child. With a node
// budget it deepens one ply at a time and keeps the deepest finished
// search, so that the move is still the course's at that depth.
type courseBot struct{ depth int }

func newCourse(o match.Options) (match.Bot, error) {
	d, err := o.Int("depth", 0)
	if err != nil {
		return nil, err
	}
	if d < 0 || d > 12 {
		return nil, fmt.Errorf("depth %d: want 1 to 12", d)
	}
	return &courseBot{depth: d}, nil
}

func (b *courseBot) Act(t *match.Turn) (match.Action, error) {
	s, err := stateOf(t)
	if err != nil {
		return nil, err
	}
	depth := b.depth
	if depth == 0 {
		depth = max(1, s.w.depth)
	}
	pos := s.position()
	st, col := s.Last()
	var res Result
	done := 0
	first := depth
	if t.Budget.Nodes > 0 {
		first = 1
	}
	for d := first; d <= depth; d++ {
		spend := t.Spend
		if d == 1 {
			spend = nil // the first ply always finishes: there must be a move
		}
		r, ok := search(pos, d, t.Side, st, col, false, spend)
		if !ok {
			break
		}
		res, done = r, d
	}
	if !res.HasMove {
		return nil, fmt.Errorf("no legal move")
	}
	p := s.w.p
	t.Note.Depth, t.Note.Nodes = done, t.Nodes()
	t.Note.Text = courseMark
	v := float64(res.Value)
	if t.Side == match.P2 {
		v = -v
	}
	t.Note.SetEval(v)
	for _, m := range res.Line {
		t.Note.Line = append(t.Note.Line, p.States[m.state]+":"+p.Colours[m.colour])
		t.Note.Expect(match.AtState(m.state))
	}
	scale := 1.0
	if t.Side == match.P2 {
		scale = -1
	}
	markStates(&t.Note, p, res.Root, scale, &res.Best)
	return Move{p.States[res.Best.state], p.Colours[res.Best.colour]}, nil
}

// markStates marks each state a bot weighed with its best colour's value
// (times scale: the bot's own scale), labelled with the colour, best
// first so that the bound on marks drops the worst.
//
// With best set, the values are a search's: the other moves' are bounds
// (alpha-beta proves only that they are no better), labelled "≤" after
// their colour.
func markStates(n *match.Note, p *Problem, weighed []scoredMove, scale float64, best *move) {
	if scale < 0 { // P2's values, minimised: the best is the least
		for i := range weighed {
			weighed[i].v = -weighed[i].v
		}
		scale = -scale
	}
	top := map[int]scoredMove{}
	var order []int
	for _, w := range weighed {
		b, ok := top[w.m.state]
		if !ok {
			order = append(order, w.m.state)
		}
		if !ok || w.v > b.v || best != nil && w.m == *best {
			top[w.m.state] = w
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(top[b].v, top[a].v) })
	for _, st := range order {
		w := top[st]
		label := p.Colours[w.m.colour]
		if best != nil && w.m != *best {
			label += "≤"
		}
		n.Mark(match.AtState(st), float64(w.v)*scale, label)
	}
}

// courseMark is what a note of the course's search says: the playground
// draws its tree (Decision) only then, since no other search's tree is
// the course's.
const courseMark = "the course's search"

// CourseSearch reports whether a move's note is of the course's search at
// note.Depth, by the course bot or a course program whose output matched:
// its tree can be replayed with Decision.
func CourseSearch(n *match.Note) bool {
	return n != nil && n.Depth > 0 && strings.Contains(n.Text, courseMark) || n != nil && n.Depth > 0 && strings.Contains(n.Text, "is the course's")
}

// Decision replays the search a course bot made in s at depth: the tree
// the playground draws as it grows, line by line.
func Decision(s State, depth int) *Tree {
	tree := &Tree{Best: -1}
	st, col := s.Last()
	searchTree(s.position(), depth, s.Mover(), st, col, false, nil, tree)
	return tree
}
