package mapcolor

import (
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// MoveKind names a colouring by the state it picks among those the
// mover may colour (beside a coloured one, with a colour left), in the
// terms of the course's heuristics: the state with the most
// uncoloured neighbours (the degree heuristic), the one with the fewest
// colours left (minimum remaining values), or another
// (analysis.MoveKinds).
func (Game) MoveKind(st match.State, _ match.Side, a match.Action) string {
	s, ok := st.(State)
	m, isMove := a.(Move)
	p := s.Problem()
	if !ok || !isMove || p == nil {
		return ""
	}
	picked, found := slices.BinarySearch(p.States, m.State)
	if !found {
		return ""
	}
	degree := func(i int) (n int) {
		for _, j := range p.Adj[i] {
			if c, _ := s.Colour(j); c < 0 {
				n++
			}
		}
		return n
	}
	// left is the colours state i may take, 0 for a state the rules do
	// not let the mover colour yet (none of its neighbours coloured).
	left := func(i int) int {
		used := map[int]bool{}
		for _, j := range p.Adj[i] {
			if c, _ := s.Colour(j); c >= 0 {
				used[c] = true
			}
		}
		if len(used) == 0 {
			return 0
		}
		return len(p.Colours) - len(used)
	}
	mostNeighbours, fewestColours := true, true
	for i := range p.States {
		if c, _ := s.Colour(i); c >= 0 || i == picked || left(i) == 0 {
			continue // coloured, the move, or not the mover's to colour
		}
		mostNeighbours = mostNeighbours && degree(i) <= degree(picked)
		fewestColours = fewestColours && left(i) >= left(picked)
	}
	switch {
	case mostNeighbours && fewestColours:
		return "the state with the most neighbours left and the fewest colours"
	case mostNeighbours:
		return "the state with the most neighbours left"
	case fewestColours:
		return "the state with the fewest colours left"
	}
	return "a state neither heuristic picks"
}
