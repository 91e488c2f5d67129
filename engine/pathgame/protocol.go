package pathgame

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/arena-playground/arena/engine/match"
)

// The 2017 server's protocol (spec §4), bare JSON objects over TCP with
// no framing. A client says hello, {"name": ..., "type": 0 or 1}; both
// hear the game, {"start_node": X, "end_node": Y, "graph": {...}}; the
// player moves first; after each move both hear its update. Each game is
// played on new connections. The Game implements players.SessionProtocol
// for the host side and players.ClientMaker for `arena bot`.

// Frame splits a byte stream into JSON objects: from an opening brace to
// its closing one, strings and escapes respected. Anything else up to the
// next brace is a message of its own, which then fails to read.
func (Game) Frame(data []byte, atEOF bool) (int, []byte, error) {
	start := 0
	for start < len(data) && isSpace(data[start]) {
		start++
	}
	if start == len(data) {
		if atEOF {
			return len(data), nil, nil
		}
		return start, nil, nil
	}
	if data[start] != '{' {
		end := bytes.IndexByte(data[start:], '{')
		if end < 0 {
			if !atEOF && len(data)-start < MaxMessage {
				return start, nil, nil
			}
			return len(data), data[start:], nil
		}
		return start + end, data[start : start+end], nil
	}
	depth, inString, escaped := 0, false, false
	for i := start; i < len(data); i++ {
		c := data[i]
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return i + 1, data[start : i+1], nil
			}
		}
		if i-start >= MaxMessage*64 {
			return i + 1, data[start : i+1], nil // far too long: a message that fails
		}
	}
	if atEOF {
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Hello reads a client's hello: type 1 asks to be the adversary, anything
// else the player.
func (Game) Hello(msg []byte) (int, string, error) {
	var h struct {
		Name string          `json:"name"`
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(msg, &h); err != nil {
		return 0, "", fmt.Errorf("not a JSON object with name and type")
	}
	if string(bytes.TrimSpace(h.Type)) == "1" {
		return int(Adversary), h.Name, nil
	}
	return int(Player), h.Name, nil
}

// RoleOf is side's role in s's game.
func (Game) RoleOf(s match.State, side match.Side) int { return int(s.(State).RoleOf(side)) }

// RoleName names a role for a program's command line ({role}).
func (Game) RoleName(role int) string {
	if Role(role) == Adversary {
		return "adversary"
	}
	return "player"
}

// Opening is the game message: X, Y and every node's neighbours.
func (Game) Opening(ms match.State) []byte {
	g := ms.(State).g
	var b bytes.Buffer
	b.WriteString(`{"end_node": `)
	b.Write(pyString(g.IDs[g.Y]))
	b.WriteString(`, "graph": `)
	b.Write(g.AdjacencyJSON())
	b.WriteString(`, "start_node": `)
	b.Write(pyString(g.IDs[g.X]))
	b.WriteString("}")
	return b.Bytes()
}

// Notice is the update of the move that led to s, and whether it ended a
// game.
func (Game) Notice(ms match.State) ([]byte, bool) {
	s := ms.(State)
	if s.last != nil {
		return s.last.JSON(s.g), false
	}
	if s.game > 0 && s.ends[s.game-1] != nil && s.ends[s.game-1].Last != nil {
		return s.ends[s.game-1].Last.JSON(s.g), true
	}
	return nil, false
}

// Message reads a client's move; Check refuses what the original crashed on.
func (Game) Message(msg []byte) (match.Action, error) {
	return Action{Msg: append(json.RawMessage(nil), msg...)}, nil
}

// The line-protocol methods: the host side of this game is the session
// above, so these serve `arena bot` (WriteReply) and are not used else.

// Request is nothing: a client moves when the updates say it is its turn.
func (Game) Request(match.State, match.Side, int, time.Duration) []byte { return nil }

// Reply reads a move.
func (g Game) Reply(line []byte) (match.Action, int, error) {
	a, err := g.Message(line)
	return a, -1, err
}

// Final is nothing: the last update says done.
func (Game) Final(match.State, match.Side) []byte { return nil }

// ParseRequest is not how clients of this game read the host.
func (Game) ParseRequest([]byte) (match.State, int, time.Duration, error) {
	return nil, 0, 0, fmt.Errorf("shortest-path clients read the host through a client")
}

// WriteReply writes the move itself, with no line ending, as the
// original's clients did.
func (Game) WriteReply(a match.Action, _ int) []byte { return a.(Action).Msg }

// NewRoleClient returns the client end for a player or an adversary.
func (Game) NewRoleClient(name, role string) (match.Client, error) {
	c := &client{name: name}
	switch role {
	case "player", "":
		c.role = Player
	case "adversary":
		c.role = Adversary
	default:
		return nil, fmt.Errorf("role %q: want player or adversary", role)
	}
	return c, nil
}

// NewClient returns a player's client end.
func (g Game) NewClient(name string) match.Client {
	c, _ := g.NewRoleClient(name, "player")
	return c
}

// client follows a game from the updates it hears.
type client struct {
	name string
	role Role
	s    *State
}

// Hello is the client's first message.
func (c *client) Hello() []byte {
	b, _ := json.Marshal(map[string]any{"name": c.name, "type": int(c.role)})
	return b
}

func (c *client) Hear(msg []byte) (match.Heard, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		return match.Heard{}, fmt.Errorf("message %q is not a JSON object", clip(string(msg)))
	}
	if _, ok := m["graph"]; ok {
		s, err := openingState(m)
		if err != nil {
			return match.Heard{}, err
		}
		c.s = s
		if c.role == Player {
			return c.turn(), nil
		}
		return match.Heard{}, nil
	}
	if c.s == nil {
		return match.Heard{}, fmt.Errorf("an update before the game")
	}
	var done bool
	json.Unmarshal(m["done"], &done)
	if done {
		return match.Heard{Done: true}, nil
	}
	r := &c.s.r
	var pos string
	json.Unmarshal(m["position"], &pos)
	if raw, ok := m["add_cost"]; ok { // the player moved
		var cost float64
		json.Unmarshal(raw, &cost)
		if n, ok := c.s.g.Node(pos); ok {
			r.Pos = n
		}
		r.Cost += cost
		r.Msgs[Player]++
		r.Turn = Adversary
	} else if raw, ok := m["new_cost"]; ok { // the adversary moved
		var cost float64
		json.Unmarshal(raw, &cost)
		var edge [2]string
		if json.Unmarshal(m["edge"], &edge) == nil && cost != 0 {
			a, okA := c.s.g.Node(edge[0])
			b, okB := c.s.g.Node(edge[1])
			if e, ok := c.s.g.EdgeBetween(a, b); okA && okB && ok {
				r.SetCost(e, cost)
			}
		}
		r.Msgs[Adversary]++
		r.Turn = Player
	}
	if r.Turn == c.role {
		return c.turn(), nil
	}
	return match.Heard{}, nil
}

// turn asks the bot to move in the state the client follows.
func (c *client) turn() match.Heard {
	side := PlayerSide(0)
	if c.role == Adversary {
		side = side.Other()
	}
	s := *c.s
	s.r.Share()
	return match.Heard{State: s, Side: side}
}

// openingState reads the game message into the state at its start.
func openingState(m map[string]json.RawMessage) (*State, error) {
	var x, y string
	var adj map[string][]string
	if json.Unmarshal(m["start_node"], &x) != nil || json.Unmarshal(m["end_node"], &y) != nil || json.Unmarshal(m["graph"], &adj) != nil {
		return nil, fmt.Errorf("the game message: want start_node, end_node and graph")
	}
	g, err := graphFromAdjacency(x, y, adj)
	if err != nil {
		return nil, err
	}
	r := NewRound(g, false)
	return &State{cfg: &Config{}, g: g, r: r}, nil
}

// graphFromAdjacency builds a graph from the game message's lists.
func graphFromAdjacency(x, y string, adj map[string][]string) (*Graph, error) {
	ids := make([]string, 0, len(adj))
	for id := range adj {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) > MaxNodes {
		return nil, fmt.Errorf("a graph of %d nodes: at most %d", len(ids), MaxNodes)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Starting node: %s\nEnding node: %s\nEdges:\n", x, y)
	seen := map[[2]string]bool{}
	for _, a := range ids {
		for _, n := range adj[a] {
			k := [2]string{min(a, n), max(a, n)}
			if !seen[k] {
				seen[k] = true
				fmt.Fprintf(&b, "%s %s\n", a, n)
			}
		}
	}
	return ParseGraph("the game message", b.Bytes())
}
