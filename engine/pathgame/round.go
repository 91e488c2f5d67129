package pathgame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Role is a side's part in a game.
type Role int8

// The two roles.
const (
	Player    Role = 0 // walks from X to Y
	Adversary Role = 1 // raises costs
)

func (r Role) String() string { return [...]string{"player", "adversary"}[r] }

// MaxMessage is the most a message can hold: the original read each with
// one recv(1024) and crashed on more.
const MaxMessage = 1024

// Round is one game in progress: the original's GameState. Costs are
// shared between copies until a raise (see Raise), so that a match can
// keep every position.
type Round struct {
	G      *Graph
	UseMax bool // the variant that raises by 1 + sqrt(max(k))
	costs  []float64
	Pos    int     // the player's node
	Cost   float64 // what the player paid so far
	Msgs   [2]int  // messages received, by role
	Turn   Role    // whose message is due
	Done   bool
	Error  bool // the game ended by a time-out, the move cap or a crash
	own    bool // costs belong to this copy alone: raises write in place
}

// NewRound starts a game on g: every edge costs 1, the player stands on X
// and moves first.
func NewRound(g *Graph, useMax bool) Round {
	costs := make([]float64, len(g.Edges))
	for i := range costs {
		costs[i] = 1
	}
	return Round{G: g, UseMax: useMax, costs: costs, Pos: g.X, own: true}
}

// EdgeCost is the current cost of edge e.
func (r *Round) EdgeCost(e int) float64 { return r.costs[e] }

// Costs returns every edge's cost; the caller must not change them.
func (r *Round) Costs() []float64 { return r.costs }

// MoveCap is how many messages each side may send: 2N.
func (r *Round) MoveCap() int { return 2 * r.G.N() }

// Message is what a side sends, as the server read it: a JSON object.
// Its fields keep their JSON form, because the original compared ids as
// strings and treated numbers differently.
type Message struct {
	A, B json.RawMessage // start_node and end_node, or node_1 and node_2
}

// Keys are a role's message fields.
func Keys(r Role) [2]string {
	if r == Player {
		return [2]string{"start_node", "end_node"}
	}
	return [2]string{"node_1", "node_2"}
}

// ParseMessage reads a role's message. It fails where the original server
// crashed: not a JSON object, a missing key, more than MaxMessage bytes.
func ParseMessage(role Role, data []byte) (Message, error) {
	if len(data) > MaxMessage {
		return Message{}, fmt.Errorf("a message of %d bytes; the server reads at most %d", len(data), MaxMessage)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return Message{}, fmt.Errorf("message %q is not a JSON object", clip(string(data)))
	}
	k := Keys(role)
	a, okA := obj[k[0]]
	b, okB := obj[k[1]]
	if !okA || !okB {
		return Message{}, fmt.Errorf("message %q lacks %q or %q", clip(string(data)), k[0], k[1])
	}
	return Message{A: a, B: b}, nil
}

// ids returns the message's two ids when both are JSON strings.
func (m Message) ids() (string, string, bool) {
	var a, b string
	if json.Unmarshal(m.A, &a) != nil || json.Unmarshal(m.B, &b) != nil {
		return "", "", false
	}
	return a, b, true
}

// Update is what the server sends both sides after a message.
type Update struct {
	Role  Role
	Edge  [2]json.RawMessage // the message's two values, echoed; nil for a time-out or the cap
	Cost  float64
	Valid bool // Cost is a float (else the integer 0)
	Done  bool
	Error bool
	Pos   int
}

// Play applies a message of the side whose turn it is (spec §3). A
// message the original crashed on returns an error and changes nothing.
func (r *Round) Play(m Message) (Update, error) {
	role := r.Turn
	u := Update{Role: role, Edge: [2]json.RawMessage{m.A, m.B}}
	if role == Player {
		a, b, ok := m.ids()
		if ok && a == r.G.IDs[r.Pos] {
			if t, found := r.G.Node(b); found {
				if e, isEdge := r.G.EdgeBetween(r.Pos, t); isEdge {
					r.Pos = t
					u.Cost, u.Valid = r.costs[e], true
					r.Cost += u.Cost
				}
			}
		}
		r.Done = r.Pos == r.G.Y
	} else {
		a, na := r.G.Node(pyStr(m.A))
		b, nb := r.G.Node(pyStr(m.B))
		if na && nb {
			if e, isEdge := r.G.EdgeBetween(a, b); isEdge {
				if _, _, strs := m.ids(); !strs {
					// The original looked the edge up by str() of the ids,
					// then its hop search indexed the graph with the
					// numbers themselves: a KeyError.
					return Update{}, fmt.Errorf("node ids %s and %s are not strings (the original server crashed on them)", clip(string(m.A)), clip(string(m.B)))
				}
				u.Cost, u.Valid = r.Raise(e), true
			}
		}
	}
	r.Msgs[role]++
	r.Turn = 1 - role
	u.Done, u.Pos = r.Done, r.Pos
	return u, nil
}

// Raise multiplies edge e's cost by its factor and returns the new cost.
// A copy of a round shares its costs until its first raise.
func (r *Round) Raise(e int) float64 {
	if !r.own {
		r.costs, r.own = append([]float64(nil), r.costs...), true
	}
	r.costs[e] *= r.G.Factor(e, r.UseMax)
	return r.costs[e]
}

// SetCost sets edge e's cost, as a client learns it from an update.
func (r *Round) SetCost(e int, c float64) {
	if !r.own {
		r.costs, r.own = append([]float64(nil), r.costs...), true
	}
	r.costs[e] = c
}

// Share marks the costs as shared with other copies: the next raise of
// either copies them first.
func (r *Round) Share() { r.own = false }

// Stop ends the game as the original does when role's message came after
// its clock ran out or beyond the move cap: done, with an error, nothing
// moved.
func (r *Round) Stop(role Role) Update {
	r.Msgs[role]++
	r.Done, r.Error = true, true
	return Update{Role: role, Done: true, Error: true, Pos: r.Pos}
}

// JSON writes the update as the original's canonical form does.
func (u Update) JSON(g *Graph) []byte {
	var b bytes.Buffer
	cost := "0"
	if u.Valid {
		cost = pyFloat(u.Cost)
	}
	key := "add_cost"
	if u.Role == Adversary {
		key = "new_cost"
	}
	edge := "0"
	if u.Edge[0] != nil {
		x, _ := canonical(u.Edge[0])
		y, _ := canonical(u.Edge[1])
		edge = "[" + string(x) + ", " + string(y) + "]"
	}
	fields := map[string]string{key: cost, "done": strconv.FormatBool(u.Done), "edge": edge,
		"error": strconv.FormatBool(u.Error), "position": string(pyString(g.IDs[u.Pos]))}
	b.WriteByte('{')
	for i, k := range []string{"add_cost", "done", "edge", "error", "new_cost", "position"} {
		v, ok := fields[k]
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %s", k, v)
		_ = i
	}
	b.WriteByte('}')
	return b.Bytes()
}
